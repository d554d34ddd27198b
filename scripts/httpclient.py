"""One visitor of a live server, for the scripts and tests that drive one over HTTP
(scripts/attack.py, accounts_attack.py, soak.py, soak_scale.py and the ``concurrency``
tests).  Standard library only; it imports nothing of the project.

scripts/prodserver.py's ``Browser`` is the other client: it follows redirects and keeps
the bodies as sent (compressed), for measuring pages; this one follows none (a 302 or 303
is an answer of its own) and posts forms as a page does.
"""

from __future__ import annotations

import http.client
import re
import time
import urllib.parse
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

Answer = tuple[int, str, dict[str, str]]  # status (-1: no answer), text, headers (lower case)
_COOKIE = re.compile(r"([^=;]+)=([^;]*)")


class Client:
    """One visitor of the server at ``base`` (http://host:port): a new connection for each
    request unless one is given, its cookies in ``cookies`` (a plain dict: name → value),
    every answer counted in ``statuses`` and timed in ``times`` (seconds).

    ``address``: sent as X-Forwarded-For, the visitor's own address for a server that reads
    it through CLIENT_IP_HEADER (as behind a proxy), so the rate limits count it apart.
    ``keep``: the names of the cookies it keeps and sends back (default: all of them); a
    cookie the server deletes is dropped.  ``first``: a page with a form, fetched first for
    its CSRF cookie when a form is to be posted with the token and there is none yet.
    """

    def __init__(self, base: str, *, address: str = "", keep: Collection[str] | None = None,
                 first: str = "") -> None:
        self.base = base
        self.address = address
        self.keep = keep
        self.first = first
        self.cookies: dict[str, str] = {}
        self.statuses: Counter[int] = Counter()
        self.times: list[float] = []

    def connect(self) -> http.client.HTTPConnection:
        """A connection to the server, opened now (``request(conn=...)`` sends over it)."""
        parts = urllib.parse.urlsplit(self.base)
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80,
                                          timeout=60)
        conn.connect()
        return conn

    def request(self, method: str, path: str,
                form: Mapping[str, str | Sequence[str]] | None = None, *, htmx: bool = False,
                trigger: str = "", csrf: bool = True,
                conn: http.client.HTTPConnection | None = None) -> Answer:
        """Send ``form`` (urlencoded, a list as repeated fields; with the CSRF token from
        the cookie unless ``csrf`` is false), as htmx does when ``htmx`` (``trigger``: the
        id of the element that asks, HX-Trigger).  A connection that fails answers -1
        with the error as its text."""
        if form is not None and csrf and self.first and "csrftoken" not in self.cookies:
            self.request("GET", self.first)
        headers = {"Accept-Language": "zh-CN"}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        if htmx:
            headers["HX-Request"] = "true"
        if trigger:
            headers["HX-Trigger"] = trigger
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            token = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", "")} if csrf else {}
            body = urllib.parse.urlencode({**token, **form}, doseq=True)
        start = time.perf_counter()
        try:
            conn = conn or self.connect()
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            answer = (response.status, response.read().decode("utf-8", "replace"),
                      {k.lower(): v for k, v in response.getheaders()})
            self._keep_cookies(response.getheaders())
        except OSError as error:
            answer = (-1, repr(error), {})
        finally:
            if conn is not None:
                conn.close()
        self.record(method, path, answer[0], answer[1], time.perf_counter() - start)
        return answer

    def _keep_cookies(self, headers: list[tuple[str, str]]) -> None:
        for name, value in headers:
            match = _COOKIE.match(value)
            if name.lower() != "set-cookie" or not match:
                continue
            if self.keep is not None and match[1] not in self.keep:
                continue
            if match[2] and "max-age=0" not in value.lower():
                self.cookies[match[1]] = match[2]
            else:
                self.cookies.pop(match[1], None)

    def record(self, method: str, path: str, status: int, text: str, seconds: float) -> None:
        """Called after each request (a subclass may count elsewhere too)."""
        self.statuses[status] += 1
        self.times.append(seconds)
