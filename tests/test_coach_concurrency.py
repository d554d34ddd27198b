"""The coach under real concurrency (issues 14, 21), against a live production server
(scripts/serve_prod.sh: several gunicorn workers and a task worker) on SQLite and on
PostgreSQL (``scripts/test_postgres.sh -m concurrency``): parallel asks for a hand's
review, or for a 返 of one's own amount, and parallel reads of the pages that poll for
them all answer without an error; the worker computes the result once and every later
read shows the same figures."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from tests.test_night_concurrency import Phone, at_once, server_on_test_database

pytestmark = pytest.mark.concurrency


class Learner(Phone):
    """A visitor with a session who plays the practice table: 瞧 / 休 at their first
    decision of a hand, 甩 at the next (no showdown to split; a fourth card is squeezed)."""

    FIRST = "/table/"
    COOKIES = ("csrftoken", "sessionid")

    def open_table(self) -> str:
        status, text, headers = self.request(
            "POST", "/table/", {"bots": "2", "level": "strong", "stakes": "1、3",
                                "mango": "fixed"})
        assert status == 303, text[:2000]
        return headers["location"]

    def play_hand(self, url: str, number: int) -> int:
        """Play hand ``number`` to its end; how many decisions the learner made (none in
        about one hand in a hundred: both bots fold before the learner's first turn)."""
        decisions = 0
        for _ in range(200):
            page = self.request("GET", url)[1]
            if f"{url.replace('/table/', '/coach/')}{number}/" in page:
                return decisions  # finished: the table links to its review
            seq = re.search(r'data-seq="(\d+)"', page)
            assert seq, page[:2000]
            acts = re.findall(r'name="act" value="(\w+)"', page)
            form: dict[str, str]
            if 'class="bot-step"' in page:
                path, form = "bot", {}
            elif f'action="{url}squeeze"' in page:  # round 3: the fourth card to squeeze
                path, form = "squeeze", {}
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
    return re.findall(r"[+-]?\d+\.\d+|好|不精确|失误|大错", page)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with server_on_test_database() as address:
        yield address


def until(learner: Learner, path: str, done: str) -> str:
    """GET ``path`` until it shows ``done`` (the worker has stored the result)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page = learner.request("GET", path)[1]
        if done in page:
            return page
        assert "这次没算出来" not in page, page[:2000]
        time.sleep(0.3)
    raise AssertionError(f"{path} never showed {done!r}")


def test_parallel_asks_and_reads_of_a_review_agree(server: str) -> None:
    learner = Learner(server)
    url = learner.open_table()
    coach = url.replace("/table/", "/coach/")
    for number in (1, 2):
        learner.play_hand(url, number)  # its last action asked the worker for the review
        review, summary = f"{coach}{number}/", f"{coach}{number}/summary"
        asks = [(learner, "POST", f"{coach}{number}/review", {"next": review})] * 3
        reads = [(learner, "GET", path, None) for path in (summary, review) * 2]
        results = at_once([*asks, *reads])
        assert [status for status, _ in results] == [303] * 3 + [200] * 4, \
            [text[:500] for status, text in results if status not in (200, 303)]
        # the review is stored (a hand the learner had no decision in has no grades)
        shown = figures(until(learner, review, 'id="grades-title"'))
        results = at_once([(learner, "GET", review, None)] * 4)
        assert [status for status, _ in results] == [200] * 4
        assert all(figures(text) == shown for _, text in results)


def test_parallel_asks_for_an_own_raise_are_priced_once(server: str) -> None:
    learner = Learner(server)
    url = learner.open_table()
    coach = url.replace("/table/", "/coach/")
    number = next(n for n in range(1, 11) if learner.play_hand(url, n))
    until(learner, f"{coach}{number}/", "coach-decision")
    page = learner.request("GET", f"{coach}{number}/retry/0/")[1]
    low = re.search(r'name="amount"[^>]*min="(\d+)"', page)
    assert low, page[:2000]
    amount = int(low[1]) + 1
    ask = (learner, "POST", f"{coach}{number}/retry/0/raise/ask", {"amount": str(amount)})
    answer = f"{coach}{number}/retry/0/raise?amount={amount}"
    results = at_once([ask] * 4 + [(learner, "GET", answer, None)] * 2)
    assert [status for status, _ in results] == [303] * 4 + [200] * 2, \
        [text[:500] for status, text in results if status not in (200, 303)]
    shown = figures(until(learner, answer, "coach-verdict"))
    # a bet where nobody had bet yet in the round is labelled 发招, as the table calls it
    assert re.search(rf"(返|发招) {amount}(?!\d)", learner.request("GET", answer)[1])
    results = at_once([(learner, "GET", answer, None)] * 4)
    assert all(status == 200 and figures(text) == shown for status, text in results)
