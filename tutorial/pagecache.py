"""Whole-page cache for what is the same for every visitor.

Two decorators, one cache:

* ``visitor_independent``: pages that depend only on the address and the language (the
  home page, the reference pages, the walkthroughs …): they carry no CSRF token, no
  session data and no messages.  These pages answer only GET and HEAD; any other method
  is a 405.
* ``same_for_newcomers``: pages that show a visitor's own progress or hold a form with a
  CSRF token (the course map, the quiz index, the table's start form …).  A GET or HEAD
  from a visitor *without a session* sees what every such newcomer sees, so it is cached;
  the CSRF token is the one part that differs: it is kept out of the cached bytes (a
  placeholder) and each answer gets the visitor's own (masked anew, as Django does for
  every response).  A visitor with a session, and every other method, gets the view itself.

The rendered bytes are kept in Django's cache (local memory per process by default; point
``CACHES`` at a shared cache to share it), keyed by language, time zone, htmx-ness and the
full path, with a gzip copy when the page has no CSRF token: a client that accepts gzip
gets those bytes as they are (``GZipMiddleware`` leaves a response that is already encoded
alone, and compresses every other page anew for each response).  Every response still passes
through the middleware (CSP, security headers, ``Vary``).  HEAD is served from the GET entry.
A learner logged in sees their name in the header: their pages bypass the cache (it holds
only what a visitor not logged in sees).

A view whose page is the same for every visitor but for a value signed anew for each answer
(a quiz question and its token) calls :func:`cached_page` itself, with that value as a fill.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import wraps
from hashlib import sha256
from typing import TypeVar, cast

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.middleware.gzip import re_accepts_gzip
from django.template.response import SimpleTemplateResponse
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

V = TypeVar("V", bound=Callable[..., HttpResponseBase])
KEPT_HEADERS = ("Content-Type", "HX-Push-Url", "Vary", "Cache-Control", "Expires")
TIMEOUT = 60 * 60
CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
TOKEN = b"\x00csrf-token\x00"  # never in a page: stands for the visitor's CSRF token


def _key(request: HttpRequest) -> str:
    raw = f"{get_language()}|{get_current_timezone_name()}|{request.get_host()}|"
    # the htmx headers as the views read them, through django-htmx (a key by any header
    # value let "HX-Request: false" store the whole page under the fragment's key for
    # every visitor), and boosted (a walkthrough step differs)
    htmx = getattr(request, "htmx", None)
    raw += (f"{bool(htmx)}|{bool(htmx and htmx.history_restore_request)}|"
            f"{bool(htmx and htmx.boosted)}|")
    return "page:" + sha256((raw + request.get_full_path()).encode()).hexdigest()


def cached_page(request: HttpRequest, render: Callable[[], HttpResponseBase],
                fills: Mapping[str, str] | None = None) -> HttpResponseBase:
    """The page ``render`` gives, from the cache or rendered and stored.

    ``fills`` maps placeholders that the rendered page holds (made by :func:`slot`, never
    text of a page otherwise) to this answer's own values: a part that differs in
    every answer (a freshly signed token) without making the rest of the page differ."""
    fills = fills or {}
    if len(get_messages(request)) or _logged_in(request):
        return _filled(_rendered(render), fills)
    key = _key(request)
    hit = cache.get(key)
    if hit is None:
        response = _rendered(render)
        # the CSRF cookie (set by a view's own csrf_protect) is set again for every answer
        cookies = set(response.cookies) - {settings.CSRF_COOKIE_NAME}
        if not isinstance(response, HttpResponse) or response.status_code != 200 or cookies:
            return _filled(response, fills)
        content = response.content
        tokens = {match.group(1) for match in CSRF_FIELD.finditer(content)}
        for token in tokens:
            content = content.replace(token, TOKEN)
        # a page with a token is compressed for each answer (GZipMiddleware, against BREACH)
        packed = compress_string(content) \
            if not tokens and not fills and len(content) >= 200 else None
        headers = [(h, response[h]) for h in KEPT_HEADERS if h in response]
        hit = (content, packed, headers)
        cache.set(key, hit, TIMEOUT)
    content, packed, headers = hit
    if packed is not None and re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(packed)
        response["Content-Encoding"] = "gzip"
    else:
        if TOKEN in content:
            content = content.replace(TOKEN, get_token(request).encode())
        response = _filled(HttpResponse(content), fills)
    for name, value in headers:
        response[name] = value
    if packed is not None:
        patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _rendered(render: Callable[[], HttpResponseBase]) -> HttpResponseBase:
    """``render``'s answer with its content there (a class-based view's is rendered late)."""
    response = render()
    if isinstance(response, SimpleTemplateResponse):
        response.render()
    return response


def _filled(response: HttpResponseBase, fills: Mapping[str, str]) -> HttpResponseBase:
    if fills and isinstance(response, HttpResponse):
        content = response.content
        for slot, value in fills.items():
            content = content.replace(slot.encode(), value.encode())
        response.content = content
    return response


def slot(name: str) -> str:
    """A placeholder for ``fills`` of :func:`cached_page` (never text of a page)."""
    return f"\x00{name}\x00"


def _logged_in(request: HttpRequest) -> bool:
    """The header names a logged-in learner, so their pages are neither served from the
    cache nor stored in it (a visitor without a session cookie is not even looked up)."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    return bool(request.user.is_authenticated)


def visitor_independent(view: V) -> V:
    """Serve a GET or HEAD from the cache when possible; any other method is a 405."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        return cached_page(request, lambda: view(request, *args, **kwargs))

    return cast(V, wrapper)


def same_for_newcomers(view: V) -> V:
    """Serve a GET or HEAD from a visitor without a session from the cache; everything
    else (a visitor with a session, a POST) goes to the view."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if request.method in ("GET", "HEAD") \
                and settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return cached_page(request, lambda: view(request, *args, **kwargs))
        return view(request, *args, **kwargs)

    return cast(V, wrapper)
