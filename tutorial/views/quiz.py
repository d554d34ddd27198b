"""Quizzes: one view for every quiz kind, the review queue and the progress page.

Quiz kinds are data: :data:`QUIZ_PAGES` adds the words and templates of the site to
the engine's registry (:data:`engine.quiz.QUIZZES`: generator and checker).

GET and HEAD never write: a question is a signed, self-contained token (kind, seed,
level, review focus, issue time) and the page creates no session and no row.  The first
answer creates the visitor's session (kept a year) and a
:class:`~tutorial.models_quiz.QuizQuestion` row; a tampered token is refused with a 400
and nothing changes.  The same question (kind, seed, level, focus) answered again within
:data:`REPEAT_WINDOW` shows its verdict but does not count again.

The same view answers full-page POSTs (no JavaScript) and htmx POSTs (the
``#quiz-area`` fragment of the same template).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from engine import quiz as q
from engine.advisor import AdvisorError
from engine.numbers import NumberError, parse_int
from engine.rules import Rules, get_rules
from tutorial.accounts import owned, reader_key, writer_key
from tutorial.fragments import is_htmx
from tutorial.models_quiz import (
    QuizProgress,
    QuizQuestion,
    ReviewCard,
    due_cards,
    due_counts,
    rate_items,
    record_progress,
)
from tutorial.pagecache import cached_page, same_for_newcomers, slot
from tutorial.ratelimit import rate_limited

RULES: Rules = get_rules("xuanjing")
SESSION_AGE = 365 * 24 * 3600  # a visitor's progress is kept for a year after the last answer
TOKEN_SALT = "tutorial.quiz.question.v2"  # v1 tokens held a row id
REPEAT_WINDOW = timedelta(days=1)
QUESTION_TOKEN = slot("question-token")  # stands for the token in a cached question page


def now() -> datetime:
    """The clock (tests replace it)."""
    return timezone.now()


@dataclass(frozen=True)
class QuizPage:
    slug: str
    title: Promise
    prompt: Promise  # the question, as asked on the page
    intro: Promise
    level_names: tuple[Promise, Promise, Promise]
    fast: timedelta  # a right answer within this time rates its review cards Easy

    @property
    def spec(self) -> q.QuizSpec:
        return q.QUIZZES[self.slug]

    @property
    def question_template(self) -> str:
        return f"quiz/kinds/{'order' if self.slug == 'koujue' else self.slug}_q.html"

    @property
    def feedback_template(self) -> str:
        return f"quiz/kinds/{'order' if self.slug == 'koujue' else self.slug}_a.html"


def _sq(message: str) -> Promise:
    """The squeeze quiz's words live in locale/squeeze (msgctxt "squeeze")."""
    return pgettext_lazy("squeeze", message)


QUIZ_PAGES: dict[str, QuizPage] = {
    page.slug: page
    for page in (
        QuizPage(
            "bigger", _lazy("哪个大？"), _lazy("哪一组大？"),
            _lazy("两组牌摆在面前，点出大的那一组，或者说一样大。"),
            (_lazy("差得远"), _lazy("挨得近"), _lazy("同一档")), timedelta(seconds=6),
        ),
        QuizPage(
            "order", _lazy("排顺序"), _lazy("从大到小排好这几组。"),
            _lazy("四五组牌，从大到小排好；一样大的组谁先谁后都算对。"),
            (_lazy("四组，差得远"), _lazy("四组，挨得近"), _lazy("五组，有一样大的")),
            timedelta(seconds=20),
        ),
        QuizPage(
            "name", _lazy("叫什么？"), _lazy("这组牌叫什么？"),
            _lazy("看牌说名字：天官九、人官九、四六皱……"),
            (_lazy("四选一"), _lazy("四选一，干扰项更像"), _lazy("自己输入（汉字或拼音）")),
            timedelta(seconds=8),
        ),
        QuizPage(
            "cards", _lazy("是哪组？"), _lazy("这个名字是哪两张牌？"),
            _lazy("反过来：给你名字，挑出它的两张牌。"),
            (_lazy("四选一"), _lazy("自己挑两张"), _lazy("用别名，自己挑两张")),
            timedelta(seconds=10),
        ),
        QuizPage(
            "split", _lazy("怎么分？"), _lazy("这四张牌怎么分最好？"),
            _lazy("四张牌有三种分法。选一种，再看每种分法的期望和吃、走、死的机会。"),
            (_lazy("一眼能看出"), _lazy("随手发的牌"), _lazy("有陷阱：最大的头不是最好")),
            timedelta(seconds=15),
        ),
        QuizPage(
            "showdown", _lazy("谁赢？"), _lazy("亮牌了：甲是吃、走还是死？谁吃皮？"),
            _lazy("两三家亮出分好的牌：替甲说出吃、走还是死，再说谁吃皮。"),
            (_lazy("两家，没有走"), _lazy("两家，常有走"), _lazy("三家")), timedelta(seconds=20),
        ),
        QuizPage(
            "koujue", _lazy("口诀"), _lazy("按单张从大到小排好。"),
            _lazy("天地人和梅板三，斧十猫膏下四滥：把单张的级别排对。"),
            (_lazy("七个级别"), _lazy("五张牌，不同级别"), _lazy("六张牌，有同级的")),
            timedelta(seconds=20),
        ),
        QuizPage(
            "squeeze", _sq("串牌"), _sq("串到这里，这张牌是什么？"),
            _sq("第四张牌串开了一部分，像在牌桌上一样：说出是哪张，或者还可能是哪几张。"),
            (_sq("说出是哪张"), _sq("还可能是哪几张"), _sq("组合串：两种串法接着用")),
            timedelta(seconds=10),
        ),
    )
}

# Messages for QuizError codes (bad input: nothing is recorded).
def _quiz_error_message(code: str) -> str:
    messages = {
        "missing": _("还没有作答：每一项都要选或填。"),
        "invalid": _("这个答案不在选项里（表单可能被改过），没有记录。"),
        "duplicate": _("同一个位置不能放两组：每个位置只用一次。"),
        "cards": _("这两张牌凑不成一组：丁丁和大鬼都只有一张。"),
        "level": _("难度只有 1、2、3 三级。"),
        "seed": _("题号（seed）必须是 0 到 2147483647 之间的整数。"),
        "focus": _("这道复习题的内容不对。"),
        "kind": _("没有这种练习。"),
    }
    return messages.get(code, _("答案格式不对，没有记录。"))


# --------------------------------------------------------------------------- helpers


def _session_key(request: HttpRequest) -> str:
    """The visitor's owner key for an answer (tutorial/accounts.py): the session is
    created if needed (for Django's two weeks) and kept a year from now once the visitor
    comes back with it (a client that drops the cookie leaves only short-lived sessions)."""
    request.session["quiz"] = True
    if request.session.session_key is not None:
        request.session.set_expiry(SESSION_AGE)
    return writer_key(request)


def _page(slug: str) -> QuizPage:
    page = QUIZ_PAGES.get(slug)
    if page is None:
        raise Http404("no such quiz")
    return page


def _quiz_url(slug: str, seed: int | None = None, level: int = 1) -> str:
    params: dict[str, int] = {}
    if seed is not None:
        params["seed"] = seed
    params["level"] = level
    return f"{reverse('quiz:quiz', args=[slug])}?{urlencode(params)}"


def _random_seed() -> int:
    return secrets.randbelow(1_000_000)


@dataclass(frozen=True)
class Issued:
    """What a question token says: the question and when it was shown."""

    kind: str
    seed: int
    level: int
    focus: str  # the review item, "" for a drill question
    from_review: bool
    issued_at: datetime

    def question(self) -> q.Question:
        return q.generate(self.kind, self.seed, self.level, RULES, self.focus or None)

    def token(self) -> str:
        return signing.dumps({"k": self.kind, "s": self.seed, "l": self.level, "f": self.focus,
                              "r": self.from_review, "t": round(self.issued_at.timestamp(), 3)},
                             salt=TOKEN_SALT)

    @classmethod
    def from_token(cls, raw: str) -> Issued:
        """The token's contents; ``signing.BadSignature`` or ValueError if not ours."""
        data = signing.loads(raw, salt=TOKEN_SALT)
        try:
            return cls(str(data["k"]), int(data["s"]), int(data["l"]), str(data["f"]),
                       bool(data["r"]), datetime.fromtimestamp(float(data["t"]), UTC))
        except (KeyError, TypeError, OverflowError) as e:
            raise ValueError("not a question token") from e


def _issue(slug: str, seed: int, level: int, focus: str | None,
           from_review: bool) -> tuple[q.Question, str]:
    issued = Issued(slug, seed, level, focus or "", from_review, now())
    return issued.question(), issued.token()


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "quiz/question.html#quiz-area" if is_htmx(request) else "quiz/question.html"
    return render(request, template, context, status=status)


def _base_context(request: HttpRequest, page: QuizPage, level: int) -> dict[str, Any]:
    return {
        "page": page,
        "level": level,
        "koujue": q.KOUJUE,
        "class_members": q.class_members(),
        "levels": [
            {"n": i + 1, "name": name, "url": _quiz_url(page.slug, None, i + 1)}
            for i, name in enumerate(page.level_names)
        ],
        "action": reverse("quiz:quiz", args=[page.slug]),
        "next_url": _quiz_url(page.slug, _random_seed(), level),
    }


def _problem(request: HttpRequest, page: QuizPage | None, status: int, message: str
             ) -> HttpResponse:
    context: dict[str, Any] = {"problem": message, "page": page, "level": 1}
    if page is not None:
        context["next_url"] = _quiz_url(page.slug, _random_seed(), 1)
    template = "quiz/problem.html#problem" if is_htmx(request) else "quiz/problem.html"
    return render(request, template, context, status=status)


def _parse_int(raw: str | None, default: int | None) -> int | None:
    if raw is None or raw == "":
        return default
    try:
        return parse_int(raw, 0, q.MAX_SEED)
    except NumberError:
        raise q.QuizError("seed", f"not a whole number: {raw[:20]!r}") from None


# --------------------------------------------------------------------------- views


@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("write")
def quiz(request: HttpRequest, slug: str) -> HttpResponseBase:
    page = _page(slug)
    if request.method == "POST":
        return _answer(request, page)
    try:
        level = _parse_int(request.GET.get("level"), 1)
        seed = _parse_int(request.GET.get("seed"), None)
        assert level is not None
        if not 1 <= level <= page.spec.levels:
            raise q.QuizError("level", "bad level")
        if seed is None:  # give every question a shareable address
            return HttpResponseRedirect(_quiz_url(slug, _random_seed(), level))
    except q.QuizError as e:
        if e.code == "seed" and request.GET.get("level", "1").strip() not in ("1", "2", "3"):
            e = q.QuizError("level", e.detail)
        return _problem(request, page, 400, _quiz_error_message(e.code))
    # the page is the same for every visitor; only the token (signed with the time it is
    # shown) and the CSRF token are each visitor's own
    issued = Issued(slug, seed, level, "", False, now())
    return cached_page(request, lambda: _question_page(request, page, issued),
                       {QUESTION_TOKEN: issued.token()})


def _question_page(request: HttpRequest, page: QuizPage, issued: Issued) -> HttpResponse:
    try:
        question = issued.question()
    except q.QuizError as e:
        return _problem(request, page, 400, _quiz_error_message(e.code))
    except AdvisorError:
        return _problem(request, page, 503, _("分牌顾问的数据表还没有准备好，请稍后再试。"))
    context = _base_context(request, page, issued.level)
    context.update(question=question, token=QUESTION_TOKEN, seed=issued.seed,
                   share_url=request.build_absolute_uri(
                       _quiz_url(page.slug, issued.seed, issued.level)))
    return _render(request, context)


def _load_token(request: HttpRequest, page: QuizPage) -> Issued | HttpResponse:
    try:
        issued = Issued.from_token(request.POST.get("token", ""))
        question = issued.question()
    except (signing.BadSignature, ValueError, q.QuizError):
        return _problem(request, page, 400,
                        _("这道题的凭证无效或被改过，答案没有记录。请换一道新题。"))
    if issued.kind != page.slug or question.kind != page.slug:
        return _problem(request, page, 400, _("这道题不属于这个练习，答案没有记录。"))
    return issued


def _count(key: str, issued: Issued, verdict: q.Verdict, page: QuizPage, moment: datetime
           ) -> tuple[QuizProgress, list[ReviewCard]] | None:
    """Record one answer, unless this visitor answered the same question within
    REPEAT_WINDOW (then None).  Locking the visitor's progress row for the kind
    serialises two racing answers, so only one counts."""
    with owned(key):
        QuizProgress.objects.select_for_update().get_or_create(session_key=key, kind=issued.kind)
        if QuizQuestion.objects.filter(
            session_key=key, kind=issued.kind, seed=issued.seed, level=issued.level,
            focus=issued.focus, answered_at__gt=moment - REPEAT_WINDOW,
        ).exists():
            return None
        QuizQuestion.objects.create(
            session_key=key, kind=issued.kind, seed=issued.seed, level=issued.level,
            focus=issued.focus, from_review=issued.from_review, issued_at=issued.issued_at,
            answered_at=moment, correct=verdict.correct,
        )
        progress = record_progress(key, issued.kind, verdict.correct, moment)
        rated = rate_items(key, verdict.items, now=moment, elapsed=moment - issued.issued_at,
                           fast=page.fast, from_review=issued.from_review)
    return progress, rated


def _answer(request: HttpRequest, page: QuizPage) -> HttpResponse:
    loaded = _load_token(request, page)
    if isinstance(loaded, HttpResponse):
        return loaded
    issued = loaded
    question = issued.question()
    answer = {key: request.POST.get(key, "") for key in request.POST if key != "token"}
    context = _base_context(request, page, issued.level)
    context.update(seed=issued.seed, from_review=issued.from_review,
                   share_url=request.build_absolute_uri(
                       _quiz_url(page.slug, issued.seed, issued.level)))
    try:
        verdict = q.check(question, answer, RULES)
    except q.QuizError as e:
        context.update(question=question, token=request.POST["token"],
                       problem=_quiz_error_message(e.code))
        return _render(request, context, status=400)
    moment = now()
    key = _session_key(request)
    counted = _count(key, issued, verdict, page, moment)
    if counted is None:
        progress = QuizProgress.objects.filter(session_key=key, kind=page.slug).first()
        rated: list[ReviewCard] = []
        context["repeat"] = True
    else:
        progress, rated = counted
    if issued.from_review:
        context["next_url"] = reverse("quiz:review")
    context.update(question=question, verdict=verdict, progress=progress, rated=rated,
                   due=due_counts(key, moment), answer=answer)
    if isinstance(verdict, q.OrderVerdict):
        context["verdict_pairs"] = list(zip(verdict.given, verdict.placed_ok, strict=True))
    return _render(request, context)


@require_safe
@same_for_newcomers
def index(request: HttpRequest) -> HttpResponse:
    key = reader_key(request)
    progress = {p.kind: p for p in QuizProgress.objects.filter(session_key=key)}
    kinds = [
        {"page": page, "progress": progress.get(slug),
         "levels": [{"n": i + 1, "name": name, "url": _quiz_url(slug, None, i + 1)}
                    for i, name in enumerate(page.level_names)]}
        for slug, page in QUIZ_PAGES.items()
    ]
    return render(request, "quiz/index.html",
                  {"kinds": kinds, "due": due_counts(key, now())})


@require_safe
@same_for_newcomers
def review(request: HttpRequest) -> HttpResponse:
    """Serve the most overdue review card as a question; POSTs go to the quiz's own URL."""
    key = reader_key(request)
    moment = now()
    due = due_counts(key, moment)
    for card in due_cards(key, moment):
        try:
            slug, level = q.review_items_for(card.item)
            question, token = _issue(slug, _random_seed(), level, card.item, True)
        except q.QuizError:  # a card of an older version of the site: skipped, kept
            continue
        break
    else:
        template = "quiz/review_empty.html#review-empty" if is_htmx(request) else \
            "quiz/review_empty.html"
        return render(request, template, {"due": due})
    page = QUIZ_PAGES[slug]
    context = _base_context(request, page, level)
    context.update(question=question, token=token, from_review=True, review_card=card, due=due,
                   next_url=reverse("quiz:review"))
    return _render(request, context)


@require_safe
@same_for_newcomers
def progress(request: HttpRequest) -> HttpResponse:
    key = reader_key(request)
    moment = now()
    rows = {p.kind: p for p in QuizProgress.objects.filter(session_key=key)}
    table = [{"page": page, "progress": rows.get(slug)} for slug, page in QUIZ_PAGES.items()]
    answered = sum(p.answered for p in rows.values())
    correct = sum(p.correct for p in rows.values())
    cards = list(ReviewCard.objects.filter(session_key=key).order_by("due", "item"))
    recent = QuizQuestion.objects.filter(session_key=key, answered_at__isnull=False).order_by(
        "-answered_at")[:10]
    return render(request, "quiz/progress.html", {
        "table": table,
        "answered": answered,
        "correct": correct,
        "accuracy": round(100 * correct / answered) if answered else 0,
        "due": due_counts(key, moment),
        "cards": [{"card": c, "due_now": c.due <= moment, "name": c.group_name} for c in cards],
        "recent": [{"record": r, "page": QUIZ_PAGES.get(r.kind)} for r in recent],
        "now": moment,
    })


urlpatterns: list[URLPattern] = [
    path("", index, name="index"),
    path("progress/", progress, name="progress"),
    path("review/", review, name="review"),
    path("<slug:slug>/", quiz, name="quiz"),
]
