"""Whole-page cache for pages that are the same for every visitor.

The home page and the reference pages (cards, the pair catalogue and its search, one
pair, the rules) depend only on the address and the language: they carry no CSRF token, no session
data and no messages.  A learner logged in sees their name in the header: their pages
bypass the cache (the cache holds only what a visitor not logged in sees).  The
rendered bytes are kept in Django's cache (local memory per process by default; point
``CACHES`` at a shared cache to share it), keyed by language, htmx-ness and the full
path.  Every response still passes through the
middleware (CSP, security headers, ``Vary``).  These pages answer only GET and HEAD
(HEAD from the same cache entry); any other method is a 405.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from hashlib import sha256

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils.translation import get_language

View = Callable[..., HttpResponse]
KEPT_HEADERS = ("Content-Type", "HX-Push-Url")
TIMEOUT = 60 * 60


def _logged_in(request: HttpRequest) -> bool:
    """The header names a logged-in learner, so their pages are neither served from the
    cache nor stored in it (a visitor without a session cookie is not even looked up)."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    return bool(request.user.is_authenticated)


def visitor_independent(view: View) -> View:
    """Serve a GET or HEAD from the cache when possible; cache successful answers."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if len(get_messages(request)) or _logged_in(request):
            return view(request, *args, **kwargs)
        raw = f"{get_language()}|{bool(request.headers.get('HX-Request'))}|"
        raw += f"{bool(request.headers.get('HX-History-Restore-Request'))}|"
        key = "page:" + sha256((raw + request.get_full_path()).encode()).hexdigest()
        hit = cache.get(key)
        if hit is not None:
            content, headers = hit
            response = HttpResponse(content)
            for name, value in headers:
                response[name] = value
            return response
        response = view(request, *args, **kwargs)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            headers = [(h, response[h]) for h in KEPT_HEADERS if h in response]
            cache.set(key, (response.content, headers), TIMEOUT)
        return response

    return wrapper
