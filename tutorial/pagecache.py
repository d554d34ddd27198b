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
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from hashlib import sha256

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.middleware.csrf import get_token
from django.middleware.gzip import re_accepts_gzip
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

View = Callable[..., HttpResponse]
KEPT_HEADERS = ("Content-Type", "HX-Push-Url", "Vary")
TIMEOUT = 60 * 60
CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
TOKEN = b"\x00csrf-token\x00"  # never in a page: stands for the visitor's CSRF token


def _key(request: HttpRequest) -> str:
    raw = f"{get_language()}|{get_current_timezone_name()}|{request.get_host()}|"
    raw += f"{bool(request.headers.get('HX-Request'))}|"
    raw += f"{bool(request.headers.get('HX-History-Restore-Request'))}|"
    return "page:" + sha256((raw + request.get_full_path()).encode()).hexdigest()


def _cached(request: HttpRequest, view: View, *args: object, **kwargs: object) -> HttpResponse:
    """The view's answer to a GET or HEAD from the cache, or rendered and stored."""
    if len(get_messages(request)) or _logged_in(request):
        return view(request, *args, **kwargs)
    key = _key(request)
    hit = cache.get(key)
    if hit is None:
        response = view(request, *args, **kwargs)
        if response.status_code != 200 or response.streaming or response.cookies:
            return response
        content = response.content
        tokens = {match.group(1) for match in CSRF_FIELD.finditer(content)}
        for token in tokens:
            content = content.replace(token, TOKEN)
        # a page with a token is compressed for each answer (GZipMiddleware, against BREACH)
        packed = compress_string(content) if not tokens and len(content) >= 200 else None
        headers = [(h, response[h]) for h in KEPT_HEADERS if h in response]
        cache.set(key, (content, packed, headers), TIMEOUT)
        return response
    content, packed, headers = hit
    if packed is not None and re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(packed)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(content.replace(TOKEN, get_token(request).encode())
                                if TOKEN in content else content)
    for name, value in headers:
        response[name] = value
    if packed is not None:
        patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _logged_in(request: HttpRequest) -> bool:
    """The header names a logged-in learner, so their pages are neither served from the
    cache nor stored in it (a visitor without a session cookie is not even looked up)."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    return bool(request.user.is_authenticated)


def visitor_independent(view: View) -> View:
    """Serve a GET or HEAD from the cache when possible; any other method is a 405."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        return _cached(request, view, *args, **kwargs)

    return wrapper


def same_for_newcomers(view: View) -> View:
    """Serve a GET or HEAD from a visitor without a session from the cache; everything
    else (a visitor with a session, a POST) goes to the view."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method in ("GET", "HEAD") \
                and settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return _cached(request, view, *args, **kwargs)
        return view(request, *args, **kwargs)

    return wrapper
