"""Guided walkthroughs of the worked examples (issue 6).

``/walkthroughs/`` lists them; ``/walkthroughs/<slug>/<n>/`` is step *n*.  One view
renders the full page, or only the step (``walkthroughs/step.html#step``) for an htmx
request, so that the previous / next links work as plain links without JavaScript.
Steps are built by :mod:`tutorial.walkthroughs` from data, with the engine.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tutorial import walkthroughs as wt
from tutorial.course import lesson
from tutorial.pagecache import visitor_independent


@visitor_independent
def index(request: HttpRequest) -> HttpResponse:
    entries = wt.all_walkthroughs()
    sections = [
        {"id": s["id"], "title": wt.text(s["title"]),
         "items": [e for e in entries if e["section"] == s["id"]]}
        for s in wt.content()["sections"]
    ]
    return render(request, "walkthroughs/index.html", {"sections": sections})


@require_safe
def start(request: HttpRequest, slug: str) -> HttpResponse:
    if wt.definition(slug) is None:
        raise Http404(_("没有这个例题。"))
    return HttpResponseRedirect(reverse("walkthrough_step", args=[slug, 1]))


@visitor_independent
def step(request: HttpRequest, slug: str, n: int) -> HttpResponse:
    walkthrough = wt.get_walkthrough(slug)
    if walkthrough is None:
        raise Http404(_("没有这个例题。"))
    total = len(walkthrough.steps)
    if not 1 <= n <= total:
        raise Http404(_("这个例题没有这一步。"))
    current = walkthrough.steps[n - 1]
    # opened from a lesson's reading list: every step keeps ?course=, and the last leads
    # back to that lesson's exercises (tutorial.course.returning)
    from_lesson = lesson(request.GET.get("course", ""))
    back = f"?course={from_lesson.slug}" if from_lesson is not None else ""
    context = {
        "walkthrough": walkthrough,
        "step": current,
        "n": n,
        "total": total,
        "numbers": [
            {"n": i, "title": s.title} for i, s in enumerate(walkthrough.steps, 1)
        ],
        "prev_url": reverse("walkthrough_step", args=[slug, n - 1]) + back if n > 1 else "",
        "next_url": reverse("walkthrough_step", args=[slug, n + 1]) + back if n < total else "",
        "facts_json": json.dumps(current.facts, ensure_ascii=False, sort_keys=True),
        "fragment": False,
    }
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request and not htmx.boosted:
        context["fragment"] = True
        response = render(request, "walkthroughs/step.html#step", context)
    else:
        response = render(request, "walkthroughs/step.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


urlpatterns = [
    path("", index, name="walkthroughs"),
    path("<slug:slug>/", start, name="walkthrough"),
    path("<slug:slug>/<int:n>/", step, name="walkthrough_step"),
]
