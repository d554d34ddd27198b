"""The visitor's time zone: times are entered and shown in it, not in the server's.

``static/js/site.js`` stores the browser's IANA zone name (``Intl``) in the ``tz``
cookie; :class:`VisitorTimeZoneMiddleware` activates it for the request, so
``timezone.localtime`` and the template filters (quiz due times, "later today") use it.
Without the cookie (first request, no JavaScript) the site's ``TIME_ZONE`` applies, and
pages that show a time name the zone next to it.  A game night keeps the zone it was
created in (``Night.time_zone``): everyone at one table shares it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    return frozenset(available_timezones())


def zone_named(name: str) -> ZoneInfo | None:
    """The zone with this IANA name (``Europe/Paris``), or None for anything else."""
    name = name.strip()
    return ZoneInfo(name) if name in _names() else None


class VisitorTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_named(request.COOKIES.get(COOKIE, "")[:64])
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
