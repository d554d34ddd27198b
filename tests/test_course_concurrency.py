"""The course under real concurrency: a gunicorn server with the production settings and
several workers (SQLite by default, PostgreSQL under ``scripts/test_postgres.sh -m
concurrency``).  The same answer POSTed eight times at once from one visitor counts
once: one 200, the others 409 (never a 500), and the run holds one result per exercise."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.test_night_concurrency import (
    Phone,
    server,  # noqa: F401  (the module's gunicorn)
    together,
)
from tutorial import course

pytestmark = pytest.mark.concurrency


class Visitor(Phone):
    """One browser: the CSRF cookie, then the session cookie of its first answer."""

    FIRST = "/course/hand/1/"
    COOKIES = ("csrftoken", "sessionid")


def test_one_answer_posted_together_counts_once(server: Any) -> None:  # noqa: F811
    lesson = course.lesson("hand")
    assert lesson is not None
    visitor = Visitor(server)
    first = {"choice": str(lesson.exercises[0].answer)}
    assert visitor.request("POST", "/course/hand/1/", first)[0] == 200
    assert "sessionid" in visitor.cookies
    for ex in lesson.exercises[1:]:
        results = together(f"/course/hand/{ex.n}/", [(visitor, {"choice": str(ex.answer)})] * 8)
        statuses = sorted(status for status, _ in results)
        assert statuses == [200] + [409] * 7, statuses
    status, html, _ = visitor.request("GET", "/course/")
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
