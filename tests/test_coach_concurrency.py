"""The coach's first review under real concurrency (issue 14): parallel first requests for
the same finished hand — the summary the table fetches after the hand, a 复盘 opened in
another tab — all answer 200 with the same figures, and the stored row is the one they
show (a live production server with several workers, on SQLite and on PostgreSQL:
``scripts/test_postgres.sh -m concurrency``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.test_night_concurrency import Client, at_once, server_on_test_database

pytestmark = pytest.mark.concurrency


class Learner(Client):
    """A visitor with a session who plays the practice table: 瞧 / 休 at their first
    decision of a hand, 甩 at the next (no showdown to split, no card to squeeze)."""

    FIRST = "/table/"
    COOKIES = ("csrftoken", "sessionid")

    def open_table(self) -> str:
        status, text, headers = self.request(
            "POST", "/table/", {"bots": "2", "level": "strong", "stakes": "1、3",
                                "mango": "fixed"})
        assert status == 303, text[:2000]
        return headers["location"]

    def play_hand(self, url: str, number: int) -> None:
        decisions = 0
        for _ in range(200):
            page = self.request("GET", url)[1]
            if f"{url.replace('/table/', '/coach/')}{number}/" in page:
                return  # finished: the table links to its review
            seq = re.search(r'data-seq="(\d+)"', page)
            assert seq, page[:2000]
            acts = re.findall(r'name="act" value="(\w+)"', page)
            if 'class="bot-step"' in page:
                path, form = "bot", {}
            elif "deal" in acts:
                path, form = "act", {"act": "deal"}
            else:
                if decisions and "fold" in acts:
                    act = "fold"
                else:
                    act = next(a for a in ("call", "check", "fold") if a in acts)
                decisions += 1
                path, form = "act", {"act": act}
            status = self.request("POST", url + path, {"seq": seq[1], **form})[0]
            assert status in (200, 303), (path, form, status)
        raise AssertionError("the hand did not finish")


def figures(page: str) -> list[str]:
    """The chips ± errors and grades a coach page shows."""
    return re.findall(r"[−-]?\d+\.\d+|好|不精确|失误|大错", page)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with server_on_test_database() as address:
        yield address


def test_parallel_first_reviews_of_a_hand_agree_with_the_stored_row(
        server: tuple[str, int]) -> None:
    learner = Learner(server)
    url = learner.open_table()
    coach = url.replace("/table/", "/coach/")
    for number in (1, 2):
        learner.play_hand(url, number)
        paths = [f"{coach}{number}/summary", f"{coach}{number}/"] * 3
        results = at_once([(learner, "GET", path, None) for path in paths])
        assert [status for status, _ in results] == [200] * len(paths), \
            [text[:500] for status, text in results if status != 200]
        # every request showed the stored figures: a later read gives the same
        for i, path in enumerate(paths[:2]):
            again = figures(learner.request("GET", path)[1])
            assert again or path.endswith("summary")  # 复盘 always shows figures
            for _, text in results[i::2]:
                assert figures(text) == again
