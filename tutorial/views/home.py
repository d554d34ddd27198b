"""The home page (what 扯旋 is and where to start) and the language switch."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_cookie

from engine.cards import Kind
from tutorial import course
from tutorial.accounts import reader_key
from tutorial.models_course import CourseProgress
from tutorial.pagecache import visitor_independent


def _render_home(request: HttpRequest, progress: dict[str, CourseProgress]) -> HttpResponse:
    steps, nxt = course.course_map(progress)
    next_url, next_label = course.next_step(progress)
    context = {
        # 天九王: 天牌 + 黑9, the strongest two-card group after pairs and 丁二皇.
        "tianjiuwang": [Kind.RQ, Kind.B9],
        # 丁二皇: 丁丁 + 大鬼, the strongest group of all.
        "dingerhuang": [Kind.R3, Kind.JK],
        # The course map with the visitor's next step.
        "steps": steps,
        "next_lesson": nxt,
        "table_done": course.teaching_done(progress),
        "next_url": next_url,
        "next_label": next_label,
    }
    return render(request, "home.html", context)


@visitor_independent
def _fresh_home(request: HttpRequest) -> HttpResponse:
    return _render_home(request, {})


@require_safe
@vary_on_cookie
def home(request: HttpRequest) -> HttpResponse:
    """The same cached page for every visitor who has not started the course; the map
    with their stars and next step for those who have."""
    progress = course.progress_of(reader_key(request))
    return _render_home(request, progress) if progress else _fresh_home(request)


@require_safe
def switch_language(request: HttpRequest) -> HttpResponse:
    """``GET /lang/?language=en&next=/pairs/``: remember the language in a cookie and go
    back.  A GET (not Django's POST ``set_language``) keeps every page free of a CSRF
    token, so pages that are the same for every visitor can be cached whole."""
    language = request.GET.get("language", "")
    next_url = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    if language and check_for_language(language):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
