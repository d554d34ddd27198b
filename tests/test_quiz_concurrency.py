"""Regression (issue 12): one quiz question answered by parallel identical POSTs (a double
tap, a replayed form) counts once, on SQLite and on PostgreSQL (``make test`` runs the
``concurrency`` tests on both).  The visitor's progress row is locked while an answer is
recorded; the first answer of a kind creates that row, so both paths are raced here."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from engine import quiz as q
from engine.rules import get_rules
from tests.test_night_concurrency import Phone, server_on_test_database, together

pytestmark = pytest.mark.concurrency
RULES = get_rules("xuanjing")


class Visitor(Phone):
    """A phone that keeps its session cookie."""

    COOKIES = ("csrftoken", "sessionid")

    def question(self, slug: str, seed: int) -> tuple[str, dict[str, str]]:
        page = self.request("GET", f"/quiz/{slug}/?seed={seed}&level=1")[1]
        token = re.search(r'name="token" value="([^"]+)"', page)
        assert token, page[:2000]
        return token[1], dict(q.solve(q.generate(slug, seed, 1, RULES), RULES))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with server_on_test_database() as address:
        yield address


def test_parallel_answers_to_one_question_count_once(server: str) -> None:
    phone = Visitor(server)
    token, answer = phone.question("bigger", 1)
    assert phone.request("POST", "/quiz/bigger/", {"token": token, **answer})[0] == 200
    assert phone.cookies.get("sessionid")  # the first answer started the session
    for slug, seed in (("name", 2), ("bigger", 3)):  # a new progress row, an existing one
        token, answer = phone.question(slug, seed)
        results = together(f"/quiz/{slug}/", [(phone, {"token": token, **answer})] * 8)
        assert [status for status, _ in results] == [200] * 8
        assert sum("不再计分" not in text for _, text in results) == 1
    page = phone.request("GET", "/quiz/progress/")[1]
    assert "一共答了 3 题" in page, page[:3000]
