"""Regression (issue 12): the game-night scorekeeper under real concurrency.

A gunicorn server with the production settings and several workers runs against the
database pytest is configured with — a throwaway SQLite file by default, PostgreSQL under
``scripts/test_postgres.sh -m concurrency`` (``make test`` runs both).  Identical POSTs are
released together from threads (a barrier); exactly one may change the night, the others
get the stale-form answer (409), never a 500, and no 钵钵 goes below zero.

Before the fix: two identical "record hand" POSTs recorded the hand twice or gave a 500
(IntegrityError on the event sequence), 20 parallel re-buys recorded 2, and an undo and a
new hand from two phones both succeeded.
"""

from __future__ import annotations

import csv
import io
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from django.conf import settings

from scripts.httpclient import Client
from scripts.prodserver import production_server

pytestmark = pytest.mark.concurrency

STALE = "记分在这之间已经改过了"
PLAYERS = ["甲", "乙", "丙", "丁"]


@contextmanager
def server_on_test_database(**env: str) -> Iterator[str]:
    """A production server (4 workers) on the tests' database (its base URL): PostgreSQL
    when the run uses it, else a throwaway SQLite file; ``env`` adds settings for it.

    The phones of these tests mostly send no session cookie (a night is reached by its
    token), and on PostgreSQL every server of the run counts in the same rate-limit rows:
    the per-client limit on cookie-less writes (scope "session") is lifted, so that one
    test's writes never refuse another's; the limit itself is tested in test_ratelimit."""
    saved = dict(os.environ)
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        os.environ.pop("DATABASE_URL", None)  # production_server makes a throwaway file
    limits = ",".join(filter(None, ["session=1000000/3600", env.pop("RATE_LIMITS", "")]))
    os.environ.update(env, RATE_LIMITS=limits)
    try:
        with production_server(workers=4) as base:
            yield base
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with server_on_test_database() as address:
        yield address


class Phone(Client):
    """One phone: plain HTTP requests (no redirects followed) that send back the cookies
    named in ``COOKIES`` (the CSRF cookie of its first page ``FIRST``; a subclass may keep
    its session too)."""

    FIRST = "/night/"
    COOKIES: tuple[str, ...] = ("csrftoken",)

    def __init__(self, server: str) -> None:
        super().__init__(server, keep=self.COOKIES)
        status, _body, headers = self.request("GET", self.FIRST)
        assert status == 200 and "csrftoken" in self.cookies, headers

    def create_night(self) -> tuple[str, str]:
        data = {f"player{i}": name for i, name in enumerate(PLAYERS, start=1)}
        data |= {"stakes": "1、3", "bobo": "2000", "end": "23:59", "tz": "UTC"}
        status, text, headers = self.request("POST", "/night/", data)
        assert status == 302, text[:2000]
        token = headers["location"].rstrip("/").split("/")[-1]
        page = self.request("GET", f"/night/{token}/")[1]
        match = re.search(r'/night/v/([A-Za-z0-9_-]+)/csv', page)
        assert match
        return token, match[1]

    def last_seq(self, token: str) -> int:
        page = self.request("GET", f"/night/{token}/")[1]
        match = re.search(r'name="after" value="(\d+)"', page)
        assert match, page[:2000]
        return int(match[1])


def at_once(requests: Sequence[tuple[Phone, str, str, dict[str, str] | None]]
            ) -> list[tuple[int, str]]:
    """Send every (phone, method, path, form) at once: connections opened first, released
    by a barrier.  (status, text) of each, status -1 when the connection failed."""
    barrier = threading.Barrier(len(requests))
    results: list[tuple[int, str]] = [(0, "")] * len(requests)

    def run(i: int) -> None:
        phone, method, path, form = requests[i]
        conn = phone.connect()
        barrier.wait()
        results[i] = phone.request(method, path, form, conn=conn)[:2]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def together(path: str, posts: list[tuple[Phone, dict[str, str]]]) -> list[tuple[int, str]]:
    """POST every (phone, form) to ``path`` at once."""
    return at_once([(phone, "POST", path, form) for phone, form in posts])


def exactly_one(results: list[tuple[int, str]]) -> None:
    statuses = sorted(status for status, _ in results)
    assert statuses == [302] + [409] * (len(results) - 1), statuses
    for status, text in results:
        if status == 409:
            assert STALE in text


def csv_rows(client: Phone, view_token: str) -> list[list[str]]:
    status, text, _ = client.request("GET", f"/night/v/{view_token}/csv")
    assert status == 200
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    return rows[1:-1]  # without the header and the totals line


def stacks(row: list[str]) -> list[int]:
    return [int(v) for v in row[-len(PLAYERS):]]


def test_identical_hands_posted_together_record_one(server: Any) -> None:
    client = Phone(server)
    token, view = client.create_night()
    for round_ in range(3):
        after = str(client.last_seq(token))
        # 甲 loses all 2000: recorded twice, 甲's 钵钵 would go below zero.
        if round_:  # 甲 is broke after the previous round
            rebuy = {"do": "rebuy", "player": "甲", "amount": "2000", "after": after}
            assert client.request("POST", f"/night/{token}/", rebuy)[0] == 302
            after = str(client.last_seq(token))
        form = {"do": "hand", "kind": "show", "pot_to": "乙", "net0": "-2000",
                "net1": "2000", "after": after}
        exactly_one(together(f"/night/{token}/", [(client, form)] * 8))
    rows = csv_rows(client, view)
    assert [r[2] for r in rows].count("比牌") == 3
    assert all(min(stacks(r)) >= 0 for r in rows), rows
    assert stacks(rows[-1]) == [0, 8000, 2000, 2000]  # the state stored with the last entry


def test_twenty_parallel_rebuys_record_one(server: Any) -> None:
    client = Phone(server)
    token, view = client.create_night()
    for _round in range(3):
        after = str(client.last_seq(token))
        form = {"do": "rebuy", "player": "丙", "amount": "500", "after": after}
        exactly_one(together(f"/night/{token}/", [(client, form)] * 20))
    rows = csv_rows(client, view)
    assert len(rows) == 3 and stacks(rows[-1])[2] == 3500


def test_undo_and_a_new_hand_from_two_phones(server: Any) -> None:
    organiser, second = Phone(server), Phone(server)
    token, view = organiser.create_night()
    hand = {"do": "hand", "kind": "show", "pot_to": "甲", "net0": "10", "net1": "-10"}
    assert organiser.request("POST", f"/night/{token}/", {**hand, "after": "0"})[0] == 302
    for _round in range(10):
        seq = str(organiser.last_seq(token))
        undo = {"do": "undo", "seq": seq}
        new = {**hand, "after": seq}
        results = together(f"/night/{token}/", [(organiser, undo), (second, new)])
        exactly_one(results)
        rows = csv_rows(organiser, view)
        expected = int(seq) - 1 if results[0][0] == 302 else int(seq) + 1
        assert len(rows) == expected, (results[0][0], rows)
        # each entry's stored state: 甲 has won 10 a hand, 乙 lost it (undos given back)
        assert [stacks(r) for r in rows] == [[2000 + 10 * n, 2000 - 10 * n, 2000, 2000]
                                             for n in range(1, len(rows) + 1)], rows
        if not rows:  # undone down to nothing: put a hand back for the next round
            assert organiser.request("POST", f"/night/{token}/", {**hand, "after": "0"})[0] == 302


def test_a_comeback_posted_together_records_one(server: Any) -> None:
    """A player who left comes back (do=back), the form sent from several phones at once:
    one comeback, the others the stale answer — as every other entry."""
    client = Phone(server)
    token, view = client.create_night()
    for _round in range(3):
        leave = {"do": "leave", "player": "乙", "after": str(client.last_seq(token))}
        assert client.request("POST", f"/night/{token}/", leave)[0] == 302
        back = {"do": "back", "player": "乙", "after": str(client.last_seq(token))}
        exactly_one(together(f"/night/{token}/", [(client, back)] * 8))
    rows = csv_rows(client, view)
    assert [r[2] for r in rows] == ["乙 离场", "乙 回到桌上"] * 3
    assert stacks(rows[-1]) == [2000] * 4
