"""The course under real concurrency: a gunicorn server with the production settings and
several workers (SQLite by default, PostgreSQL under ``scripts/test_postgres.sh -m
concurrency``).  The same answer POSTed eight times at once from one visitor counts
once: one 200, the others 409 (never a 500), and the run holds one result per exercise."""

from __future__ import annotations

import http.client
import re
import threading
import urllib.parse
from typing import Any

import pytest

from tests.test_night_concurrency import server  # noqa: F401  (the module's gunicorn)
from tutorial import course

pytestmark = pytest.mark.concurrency


class Visitor:
    """One browser: the CSRF cookie, then the session cookie of its first answer."""

    def __init__(self, address: tuple[str, int]) -> None:
        self.address = address
        self.cookies: dict[str, str] = {}
        assert self.request("GET", "/course/hand/1/")[0] == 200
        assert "csrftoken" in self.cookies

    def connect(self) -> http.client.HTTPConnection:
        conn = http.client.HTTPConnection(*self.address, timeout=60)
        conn.connect()
        return conn

    def request(self, method: str, path: str, data: dict[str, str] | None = None,
                conn: http.client.HTTPConnection | None = None) -> tuple[int, str]:
        conn = conn or self.connect()
        headers = {"Accept-Language": "zh-CN",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.cookies["csrftoken"],
                                           **data})
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                match = re.match(r"(csrftoken|sessionid)=([^;]*)", value)
                if name.lower() == "set-cookie" and match:
                    self.cookies[match[1]] = match[2]
            return response.status, text
        finally:
            conn.close()


def together(visitor: Visitor, path: str, form: dict[str, str], n: int) -> list[int]:
    barrier = threading.Barrier(n)
    statuses = [0] * n

    def run(i: int) -> None:
        conn = visitor.connect()
        barrier.wait()
        try:
            statuses[i] = visitor.request("POST", path, form, conn=conn)[0]
        except OSError:
            statuses[i] = -1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return sorted(statuses)


def test_one_answer_posted_together_counts_once(server: Any) -> None:  # noqa: F811
    lesson = course.lesson("hand")
    assert lesson is not None
    visitor = Visitor(server)
    first = {"choice": str(lesson.exercises[0].answer)}
    assert visitor.request("POST", "/course/hand/1/", first)[0] == 200
    assert "sessionid" in visitor.cookies
    for ex in lesson.exercises[1:]:
        statuses = together(visitor, f"/course/hand/{ex.n}/", {"choice": str(ex.answer)}, 8)
        assert statuses == [200] + [409] * 7, statuses
    status, html = visitor.request("GET", "/course/")
    assert status == 200 and html.count("3 颗星（满分 3 颗）") == 1


def test_many_visitors_at_once(server: Any) -> None:  # noqa: F811
    visitors = [Visitor(server) for _ in range(6)]
    barrier = threading.Barrier(len(visitors))
    statuses: list[int] = []

    def run(v: Visitor) -> None:
        barrier.wait()
        statuses.append(v.request("POST", "/course/hand/1/", {"choice": "1"})[0])

    threads = [threading.Thread(target=run, args=(v,)) for v in visitors]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert statuses == [200] * len(visitors)
    assert len({v.cookies["sessionid"] for v in visitors}) == len(visitors)
