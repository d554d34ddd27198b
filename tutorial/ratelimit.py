"""Per-client rate limits on the endpoints that create rows (new tables and nights, table
actions, night entries, quiz and course answers).

The counters live in the database (:class:`~tutorial.models_limits.RateCount`), so every
app server sharing it shares the limits, with no extra service.  A request increments its
window's row with one ``UPDATE … SET count = count + 1``, which is atomic on SQLite and
PostgreSQL (django-ratelimit refuses Django's DatabaseCache because its ``incr`` is a read
then a write, and parallel requests would slip through).

``settings.RATE_LIMITS`` maps a scope to (requests, seconds), counted over the last period
as it slides (:func:`hit`); a client over the limit gets
the 429 page (``templates/429.html``) with ``Retry-After``, or under htmx a short message
in place (:func:`too_many`).  The client is the address
the request came from (``REMOTE_ADDR``, or the last address of ``CLIENT_IP_HEADER`` when
a proxy in front of the site sets it, with or without a port, IPv6 bracketed or not; a value
that is no address falls back to ``REMOTE_ADDR``); an IPv6 client is its /64 network.  Only unsafe
methods count: GET and HEAD are never limited (and never write).

Scope ``session`` also counts every such request that comes without a session (no cookie,
or a key the server did not issue: :mod:`tutorial.sessions`), since each may create one:
a browser sends its cookie from the second request on, so this bounds the sessions (and
their rows) a client that drops cookies can create; over it, the 429 page says that
progress needs the cookie.
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render

from tutorial.models_limits import RateCount

V = TypeVar("V", bound=Callable[..., HttpResponseBase])


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as a proxy writes it: ``1.2.3.4``, ``1.2.3.4:5678``, ``2001:db8::1``,
    ``[2001:db8::1]`` or ``[2001:db8::1]:80``; None when it is none of these."""
    text = text.strip()
    if text.startswith("["):
        host, bracket, port = text[1:].partition("]")
        if not bracket or (port and not re.fullmatch(r":[0-9]{1,5}", port)):
            return None
        text = host
    elif text.count(":") == 1:  # IPv4 with a port (a bare IPv6 address has several colons)
        text, _, port = text.partition(":")
        if not re.fullmatch(r"[0-9]{1,5}", port):
            return None
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str:
    """The client's address for the limits: the last address of ``CLIENT_IP_HEADER`` when
    set and readable, else ``REMOTE_ADDR`` (a value the proxy did not write counts as the
    proxy's own address, never as one bucket shared by every odd value); IPv6 as its /64."""
    header = settings.CLIENT_IP_HEADER
    raw = str(request.META.get(header, "")) if header else ""
    ip = _address(raw.split(",")[-1]) or _address(str(request.META.get("REMOTE_ADDR", "")))
    if ip is None:
        return "unknown"
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def hit(scope: str, client: str, now: float) -> int | None:
    """Count one request; the seconds to wait when it is over the limit, else None.

    The count slides: the requests of the window now running, plus those of the one
    before weighted by the part of it still within one period of ``now`` (so tries
    spread across a window's edge count together, where fixed windows let up to twice
    the limit through)."""
    limit, period = settings.RATE_LIMITS[scope]
    window = int(now // period)
    key = f"{scope}:{client}"
    rows = RateCount.objects.filter(key=key, window=window)
    with transaction.atomic():
        if not rows.update(count=F("count") + 1):
            RateCount.objects.filter(expires__lt=now).delete()
            try:
                with transaction.atomic():
                    RateCount.objects.create(key=key, window=window,
                                             expires=(window + 2) * period)
            except IntegrityError:  # another server created it first
                rows.update(count=F("count") + 1)
        count = rows.values_list("count", flat=True).get()
        before = RateCount.objects.filter(key=key, window=window - 1).values_list(
            "count", flat=True).first() or 0
    left = (window + 1) * period - now  # seconds of the window before still in the period
    if before * left <= (limit - count) * period:
        return None
    # the next request fits when the sliding count, it included, is at most the limit
    room = limit - 1 - count
    if room >= 0:  # once enough of the window before has slid out of the period
        wait = left - room * period / before
    else:  # in the next window, once enough of this one has slid out (a limit of 0: never)
        wait = left + period - max(0, limit - 1) * period / count
    return max(1, math.ceil(wait))


def too_many(request: HttpRequest, wait: int, cookies: bool = False) -> HttpResponse:
    """The refusal, with ``Retry-After``: the 429 page, or for an htmx request a short
    message (``429.html#refusal``) that htmx puts first in the element it was to swap
    (``HX-Reswap``; for a boosted form, first in the page's main part, no history entry),
    so that nothing on the page is lost and no page lands inside another (static/js/
    site.js lets htmx swap it); ``cookies``: the client keeps coming without a session
    cookie."""
    htmx = getattr(request, "htmx", None)
    context = {"seconds": wait, "cookies": cookies}
    response = render(request, "429.html#refusal" if htmx else "429.html", context, status=429)
    if htmx:
        response["HX-Reswap"] = "afterbegin"
        if htmx.boosted:
            response["HX-Retarget"] = "#main"
            response["HX-Push-Url"] = "false"
    response["Retry-After"] = str(wait)
    return response


def rate_limited(scope: str) -> Callable[[V], V]:
    """Limit a view's unsafe requests (POST …) per client in ``scope``."""

    def decorate(view: V) -> V:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                client, now = client_address(request), time.time()
                wait = hit(scope, client, now)
                if wait is not None:
                    return too_many(request, wait)
                if request.session.session_key is None:  # each may create a session
                    wait = hit("session", client, now)
                    if wait is not None:
                        return too_many(request, wait, cookies=True)
            return view(request, *args, **kwargs)

        return cast(V, limited)

    return decorate
