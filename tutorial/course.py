"""The course (/course/): lessons as data, their exercises, and a visitor's map.

Lessons live in ``tutorial/content/course.json`` (Chinese source sentences; English in
``locale/course`` with ``msgctxt "course"``).  An exercise is either a question of one of
the quiz generators (:mod:`engine.quiz`: kind, level and optionally review items to
focus on, picked by the seed) or a multiple choice written in the content file.  Both
are pure functions of (lesson, exercise, seed), so a question is never stored: the form
carries the seed and the server regenerates the question to check the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.core.exceptions import TooManyFieldsSent
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

from engine import quiz as q
from engine.advisor import advise
from engine.cards import Kind
from engine.hands import parse_hand
from engine.numbers import NumberError, parse_int
from engine.rules import Rules, get_rules
from tutorial.fragments import is_htmx
from tutorial.glossary import mark_chinese
from tutorial.language import english
from tutorial.models_course import CourseProgress
from tutorial.query import BadQuery, query_choice
from tutorial.templatetags.amounts import signed

CONTENT = Path(__file__).resolve().parent / "content" / "course.json"
TEACHING = "table"  # the teaching table's progress row (/course/table/ comes after the lessons)
AFTER_COURSE = "/course/table/"  # the last lesson leads to the teaching table
AFTER_TEACHING = "/table/"  # and the teaching table to the practice table
RULES: Rules = get_rules("xuanjing")


def text(message: str, **params: object) -> SafeString:
    """A content sentence, translated, filled in with ``params`` and escaped; on English
    pages the Chinese words left in it (card and group names, game terms) are marked
    ``lang="zh-Hans"``."""
    translated = pgettext("course", message)
    escaped = conditional_escape(translated % params if params else translated)
    if english():
        return mark_chinese(escaped)
    return escaped


@dataclass(frozen=True)
class Bet:
    """A betting spot: the learner's four cards, what they have in (``stake``) and the level
    the last opponent raised to; only the two of them are left."""

    cards: tuple[Kind, ...]
    stake: int
    level: int

    @property
    def params(self) -> dict[str, object]:
        return {"stake": self.stake, "level": self.level}


@dataclass(frozen=True)
class Exercise:
    n: int  # 1-based, within its lesson
    quiz: str | None  # an engine.quiz kind, or None for a written multiple choice
    level: int = 1
    focus: tuple[str, ...] = ()
    prompt: str = ""
    options: tuple[str, ...] = ()
    written_answer: int = 0
    why: str = ""
    bet: Bet | None = None  # a 瞧-or-甩 judgement: options, answer and why come from the engine

    @property
    def answer(self) -> int:
        """The right option's index (a betting judgement's is computed when first asked,
        so that listing the lessons does not load the advisor's table)."""
        return self.written_answer if self.bet is None else bet_judgement(self.bet)[0]


#: The options of a betting judgement, in this order.
BET_OPTIONS = ("瞧", "甩")
BET_WHY = ("最好的分法：头 %(head)s，尾 %(tail)s。对手拿随便一手牌的话：吃 %(win)s，走 %(push)s，"
           "死 %(lose)s。瞧：平均 %(call)s（吃了赢 %(level)s，死了输 %(level)s，走了拿回来）；"
           "甩：%(fold)s（已经下的留在桌上）。所以该%(best)s。对手敢返，牌往往比随便一手好，"
           "实战里要再掂量。")


@cache
def bet_judgement(bet: Bet) -> tuple[int, dict[str, object]]:
    """The better answer to ``bet`` (an index of :data:`BET_OPTIONS`) and the figures of
    its explanation (no words, so one cache serves every language): the engine's exact
    吃/走/死 chances of the hand's best split against a random opponent hand
    (:func:`engine.advisor.advise`), shown as every split row shows them
    (:func:`engine.quiz.shown_percents`: whole percents, "<1" for a tiny chance), and the
    average result of 瞧 in chips ((吃 − 死) × the level, from the whole percentages, so
    that the sentence adds up) against the stake that 甩 gives up."""
    advice = advise(bet.cards, RULES)
    best = advice.splits[advice.best]
    win, _push, lose = q.whole_percents(best.p_win, best.p_push, best.p_lose)
    call = (win - lose) * bet.level / 100
    answer = 0 if call > -bet.stake else 1
    shown = q.shown_percents(best.p_win, best.p_push, best.p_lose)  # "<1" for a tiny chance
    return answer, {
        "head": best.split.head.display_name(), "tail": best.split.tail.display_name(),
        "win": f"{shown[0]}%", "push": f"{shown[1]}%", "lose": f"{shown[2]}%",
        "call": signed(call, 1), "fold": signed(-bet.stake), "level": bet.level,
    }


def explanation(exercise: Exercise) -> SafeString:
    """The sentence shown after a written or betting exercise is answered."""
    if exercise.bet is not None:
        answer, figures = bet_judgement(exercise.bet)
        return text(BET_WHY, **figures, best=pgettext("course", BET_OPTIONS[answer]))
    return text(exercise.why)


@dataclass(frozen=True)
class Lesson:
    number: int  # 1-based, in course order
    slug: str
    title: str
    summary: str
    body: tuple[str, ...]
    read: tuple[tuple[str, str], ...]  # (href, label)
    exercises: tuple[Exercise, ...]

    def has_quiz(self, kind: str) -> bool:
        """Whether one of the exercises is a ``kind`` quiz (its stylesheet then goes into
        every exercise page of the lesson: 下一步 swaps the next question in with htmx and
        leaves the page's <head> as it was)."""
        return any(e.quiz == kind for e in self.exercises)


@dataclass(frozen=True)
class ChoiceVerdict:
    correct: bool
    given: int
    exercise: Exercise


def _exercise(n: int, raw: dict[str, Any]) -> Exercise:
    if "quiz" in raw:
        return Exercise(n, raw["quiz"], raw["level"], tuple(raw.get("focus", ())))
    if "bet" in raw:
        spot = raw["bet"]
        bet = Bet(parse_hand(spot["cards"]), spot["stake"], spot["level"])
        return Exercise(n, None, prompt=raw["choice"], options=BET_OPTIONS, bet=bet)
    return Exercise(n, None, prompt=raw["choice"], options=tuple(raw["options"]),
                    written_answer=raw["answer"], why=raw["why"])


@cache
def lessons() -> tuple[Lesson, ...]:
    data = json.loads(CONTENT.read_text("utf-8"))
    return tuple(
        Lesson(i, raw["slug"], raw["title"], raw["summary"], tuple(raw["body"]),
               tuple((r["href"], r["label"]) for r in raw["read"]),
               tuple(_exercise(n, e) for n, e in enumerate(raw["exercises"], 1)))
        for i, raw in enumerate(data["lessons"], 1)
    )


def lesson(slug: str) -> Lesson | None:
    return next((les for les in lessons() if les.slug == slug), None)


def reading_url(href: str, current: Lesson) -> str:
    """A lesson's reading link, marked so that the page it opens ends with 下一步 back to
    the lesson's exercises (:func:`returning`); a walkthrough keeps the mark through its
    steps."""
    path, hash_, fragment = href.partition("#")
    return f"{path}{'&' if '?' in path else '?'}course={current.slug}{hash_}{fragment}"


def returning(request: HttpRequest) -> dict[str, object]:
    """Context processor: on a page opened from a lesson (``?course=<lesson>``), the way
    back to that lesson's exercises, shown by ``base.html`` as 下一步; a ``?course=`` that
    is no lesson is ``course_problem``, said at the top of the page (a 400:
    :class:`BadCourseMiddleware`), which shows without the way back."""
    try:
        problem = course_problem(request)
        course = request.GET.get("course", "")
    except TooManyFieldsSent:  # the error page of an address with too many fields
        return {}
    if problem:
        return {"course_problem": problem}
    found = lesson(course)
    if found is None:
        return {}
    return {"course_return": {"url": f"/course/{found.slug}/1/", "title": found.title}}


def course_problem(request: HttpRequest) -> str:
    """What is wrong with the address's ``?course=`` (:func:`tutorial.query.query_choice`:
    not one of the lessons' slugs), in the page's language; "" when it is a lesson, empty
    or not there."""
    try:
        query_choice(request.GET, "course", pgettext("address", "课"),
                     [les.slug for les in lessons()], "")
    except BadQuery as e:
        return e.message
    return ""


class BadCourseMiddleware:
    """A whole page (not an htmx fragment) answered for an address whose ``?course=`` is
    no lesson is a 400: ``base.html`` says why at its top (:func:`returning`), like every
    other bad value in an address (:mod:`tutorial.query`), and the page is otherwise the
    same.  The page cache (:mod:`tutorial.pagecache`) is keyed by the full address, and
    the message depends on nothing else, so a cached page stays the same for every
    visitor; it keeps only 200 answers of the view, and this status is set after it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        whole_page = not is_htmx(request)
        if (response.status_code == 200 and whole_page
                and response.get("Content-Type", "").startswith("text/html")
                and course_problem(request)):
            response.status_code = 400
            response.reason_phrase = "Bad Request"
        return response


def following(current: Lesson) -> Lesson | None:
    """The lesson after ``current`` (None after the last)."""
    all_lessons = lessons()
    return all_lessons[current.number] if current.number < len(all_lessons) else None


def question(exercise: Exercise, seed: int) -> q.Question | None:
    """The quiz question of this exercise for this seed (None for a written multiple
    choice, which needs no seed); raise :class:`engine.quiz.QuizError`."""
    if exercise.quiz is None:
        return None
    focus = exercise.focus[seed % len(exercise.focus)] if exercise.focus else None
    return q.generate(exercise.quiz, seed, exercise.level, RULES, focus)


def check(exercise: Exercise, shown: q.Question | None, answer: Mapping[str, str]
          ) -> q.Verdict | ChoiceVerdict:
    """Check raw form fields; raise :class:`engine.quiz.QuizError` for bad input."""
    if shown is None:
        raw = answer.get("choice", "").strip()
        if not raw:
            raise q.QuizError("missing", "no choice")
        try:
            picked = parse_int(raw, 0, len(exercise.options) - 1)
        except NumberError:
            raise q.QuizError("invalid", "not one of the options") from None
        return ChoiceVerdict(picked == exercise.answer, picked, exercise)
    return q.check(shown, answer, RULES)


# --------------------------------------------------------------------------- the map


@dataclass(frozen=True)
class Step:
    lesson: Lesson
    stars: int  # best stars, 0 when not done
    done: bool
    is_next: bool

    @property
    def redo(self) -> bool:
        """Done with one star (more than one mistake): the map suggests doing it again."""
        return self.done and self.stars <= 1


def progress_of(session_key: str | None) -> dict[str, CourseProgress]:
    if not session_key:
        return {}
    return {p.lesson: p for p in CourseProgress.objects.filter(session_key=session_key)}


def course_map(progress: Mapping[str, CourseProgress]) -> tuple[list[Step], Lesson | None]:
    """Every lesson with its stars, and the next one to take (the first not done; None
    when all are done)."""
    nxt = next((les for les in lessons()
                if not (les.slug in progress and progress[les.slug].done)), None)
    steps = [
        Step(les, progress[les.slug].stars if les.slug in progress else 0,
             les.slug in progress and progress[les.slug].done, les is nxt)
        for les in lessons()
    ]
    return steps, nxt


def teaching_done(progress: Mapping[str, CourseProgress]) -> bool:
    """Has the visitor finished the teaching table's hand (the step after the lessons)?"""
    return TEACHING in progress and progress[TEACHING].done


def next_step(progress: Mapping[str, CourseProgress]) -> tuple[str, str]:
    """The visitor's 下一步 as (address, label): the first lesson not done, then the
    teaching table, then the practice table."""
    nxt = course_map(progress)[1]
    if nxt is not None:
        return reverse("course_lesson", args=[nxt.slug]), pgettext("course", nxt.title)
    if not teaching_done(progress):
        return AFTER_COURSE, pgettext("course", "上牌桌")
    return AFTER_TEACHING, pgettext("course", "上练习牌桌")
