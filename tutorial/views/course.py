"""The course: ``/course/`` (the map), ``/course/<lesson>/`` (a short lesson) and
``/course/<lesson>/<n>/`` (its exercise *n*: GET shows it, POST answers it).

GET never writes: a visitor's session is created by their first answer.  The exercise
form carries the seed; the server regenerates the question (:mod:`tutorial.course`),
checks the answer and records it in the run (:func:`record_answer`).  Bad input is
answered 400 with the question shown again, an answer out of order 409; neither
records anything.  htmx gets the ``#quiz-area`` fragment (the quiz's own script handles
swaps, focus and the order drill), every other request the full page.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_cookie

from engine import quiz as q
from engine.numbers import NumberError, parse_int
from tutorial import course
from tutorial.accounts import owned, reader_key
from tutorial.fragments import is_htmx
from tutorial.models_course import CourseProgress, record_answer, stars_for
from tutorial.pagecache import same_for_newcomers
from tutorial.ratelimit import rate_limited
from tutorial.views import teaching
from tutorial.views.quiz import QUIZ_PAGES, _quiz_error_message, _session_key


def _lesson(slug: str) -> course.Lesson:
    found = course.lesson(slug)
    if found is None:
        raise Http404(pgettext("course", "没有这一课。"))
    return found


def _exercise(lesson: course.Lesson, n: int) -> course.Exercise:
    if not 1 <= n <= len(lesson.exercises):
        raise Http404(pgettext("course", "这一课没有这道题。"))
    return lesson.exercises[n - 1]


def exercise_url(lesson: course.Lesson, n: int, seed: int | None = None) -> str:
    url = reverse("course_exercise", args=[lesson.slug, n])
    return url if seed is None else f"{url}?seed={seed}"


def _fresh_url(lesson: course.Lesson, n: int) -> str:
    """Exercise ``n`` with a new seed when it is a quiz question."""
    seeded = lesson.exercises[n - 1].quiz is not None
    return exercise_url(lesson, n, secrets.randbelow(1_000_000) if seeded else None)


def _next_lesson_url(lesson: course.Lesson) -> str:
    nxt = course.following(lesson)
    return reverse("course_lesson", args=[nxt.slug]) if nxt else course.AFTER_COURSE


def _row(request: HttpRequest, lesson: course.Lesson) -> CourseProgress | None:
    return course.progress_of(reader_key(request)).get(lesson.slug)


@require_safe
@vary_on_cookie
@same_for_newcomers
def course_map(request: HttpRequest) -> HttpResponse:
    progress = course.progress_of(reader_key(request))
    steps, nxt = course.course_map(progress)
    next_url, next_label = course.next_step(progress)
    return render(request, "course/map.html", {
        "steps": steps, "next_lesson": nxt, "table_done": course.teaching_done(progress),
        "done": sum(step.done for step in steps), "stars": sum(step.stars for step in steps),
        "most": 3 * len(steps), "next_url": next_url, "next_label": next_label,
    })


@require_safe
@vary_on_cookie
@same_for_newcomers
def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    lesson = _lesson(slug)
    return render(request, "course/lesson.html", {
        "lesson": lesson,
        "total": len(course.lessons()),
        "body": [course.text(p) for p in lesson.body],
        "read": [(course.reading_url(href, lesson), course.text(label))
                 for href, label in lesson.read],
        "row": _row(request, lesson),
        # The quizzes the exercises come from, for more practice at the same level.
        "drills": [{"url": f"{reverse('quiz:quiz', args=[kind])}?level={level}",
                    "title": QUIZ_PAGES[kind].title, "level": level}
                   for kind, level in dict.fromkeys(
                       (ex.quiz, ex.level) for ex in lesson.exercises if ex.quiz)],
        "next_url": exercise_url(lesson, 1),
    })


def _parse_seed(raw: str | None) -> int:
    try:
        return parse_int(raw, 0, q.MAX_SEED)
    except NumberError:
        raise q.QuizError("seed", f"not a seed: {(raw or '')[:20]!r}") from None


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "course/exercise.html#course-area" if is_htmx(request) else "course/exercise.html"
    return render(request, template, context, status=status)


def _dots(run: str, n: int, total: int) -> list[str]:
    """One state per exercise: right / wrong (answered in this run), current, todo."""
    return [("right" if run[i] == "1" else "wrong") if i < len(run)
            else "current" if i == n - 1 else "todo" for i in range(total)]


def _context(request: HttpRequest, lesson: course.Lesson, ex: course.Exercise, seed: int,
             row: CourseProgress | None) -> dict[str, Any]:
    # The run so far, when this exercise continues it (exercise 1 starts a new one).
    run = row.run if row is not None and len(row.run) == ex.n - 1 else ""
    return {
        "lesson": lesson, "exercise": ex, "seed": seed, "total": len(lesson.exercises),
        "page": QUIZ_PAGES.get(ex.quiz or ""),
        "prompt": course.text(ex.prompt, **(ex.bet.params if ex.bet else {})) if ex.prompt else "",
        "options": [(i, course.text(o)) for i, o in enumerate(ex.options)],
        "why": course.explanation(ex) if ex.why or ex.bet else "",
        "action": exercise_url(lesson, ex.n), "dots": _dots(run, ex.n, len(lesson.exercises)),
        "koujue": q.KOUJUE, "class_members": q.class_members(),
        "squeeze_css": lesson.has_quiz("squeeze"),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("write")
@vary_on_cookie
@same_for_newcomers
def exercise(request: HttpRequest, slug: str, n: int) -> HttpResponse:
    lesson = _lesson(slug)
    ex = _exercise(lesson, n)
    if request.method == "POST":
        return _answer(request, lesson, ex)
    if ex.quiz is not None and "seed" not in request.GET:  # a shareable address per question
        return HttpResponseRedirect(_fresh_url(lesson, n))
    context = _context(request, lesson, ex, 0, _row(request, lesson))
    try:
        seed = _parse_seed(request.GET["seed"]) if ex.quiz is not None else 0
        context.update(seed=seed, question=course.question(ex, seed))
    except q.QuizError as e:
        context.update(problem=_quiz_error_message(e.code), blocked=True,
                       retry_url=exercise_url(lesson, n))
        return _render(request, context, status=400)
    return _render(request, context)


def _answer(request: HttpRequest, lesson: course.Lesson, ex: course.Exercise) -> HttpResponse:
    context = _context(request, lesson, ex, 0, _row(request, lesson))
    try:
        seed = _parse_seed(request.POST.get("seed")) if ex.quiz is not None else 0
    except q.QuizError as e:
        context.update(problem=_quiz_error_message(e.code), blocked=True,
                       retry_url=exercise_url(lesson, ex.n))
        return _render(request, context, status=400)
    shown = course.question(ex, seed)
    answer = {k: request.POST.get(k, "") for k in request.POST
              if k not in ("seed", "csrfmiddlewaretoken")}
    context.update(seed=seed, question=shown)
    try:
        verdict = course.check(ex, shown, answer)
    except q.QuizError as e:
        context["problem"] = _quiz_error_message(e.code)
        return _render(request, context, status=400)
    row = None
    if ex.n == 1 or reader_key(request):
        key = _session_key(request)
        with owned(key):
            row = record_answer(key, lesson.slug, ex.n, len(lesson.exercises),
                                verdict.correct)
    if row is None:
        row = _row(request, lesson)
        done = row.run if row is not None and len(row.run) < len(lesson.exercises) else ""
        context.update(
            blocked=True,
            problem=pgettext("course", "这道题已经答过了，或者前面还有题没答：按顺序一题一题来。"),
            retry_url=exercise_url(lesson, len(done) + 1 if done else 1),
        )
        return _render(request, context, status=409)
    finished = len(row.run) == len(lesson.exercises)
    context.update(
        verdict=verdict, answer=answer, dots=_dots(row.run, ex.n, len(lesson.exercises)),
        finished=finished,
        stars=stars_for(row.run) if finished else 0, best=row.stars,
        next_url=_next_lesson_url(lesson) if finished else _fresh_url(lesson, ex.n + 1),
        next_lesson=course.following(lesson) if finished else None,
    )
    if isinstance(verdict, q.OrderVerdict):
        context["verdict_pairs"] = list(zip(verdict.given, verdict.placed_ok, strict=True))
    return _render(request, context)


urlpatterns = [
    path("", course_map, name="course"),
    path("table/", teaching.start, name="teaching"),
    path("table/<int:n>/", teaching.stop, name="teaching_stop"),
    path("<slug:slug>/", lesson_page, name="course_lesson"),
    path("<slug:slug>/<int:n>/", exercise, name="course_exercise"),
]
