"""A long night's page stays the same size and reads as much (issue 21 §4): the list
shows 50 hands a page (newest first, older pages by ?page=), the chart at most 50 points a
line; the figures (standings, the CSV) still count every hand; a page reads the state
stored with the latest entry, never replaying the night.  scripts/bench_night.py prints
time and size at 50 and 2,000 entries."""

from __future__ import annotations

import re

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.test_night_flow import create
from tutorial.models_night import Night, NightState

pytestmark = pytest.mark.django_db


def long_night(client: Client, hands: int) -> Night:
    night = create(client)
    with transaction.atomic():
        for i in range(hands):
            winner, loser = ("甲", "乙") if i % 2 else ("乙", "甲")
            night.add_event("hand", {"kind": "show", "nets": {winner: 5 + i % 3, loser: -5 - i % 3},
                                     "pot_to": winner})
    return night


def shown_hands(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"<b>第 (\d+) 手</b>", html)]


def test_page_and_live_fragment_sizes_do_not_grow(client: Client) -> None:
    sizes = {}
    for hands in (50, 400):
        night = long_night(client, hands)
        page = client.get(f"/night/v/{night.view_token}/")
        live = client.get(f"/night/v/{night.view_token}/?live=1", HTTP_HX_REQUEST="true")
        assert page.status_code == live.status_code == 200
        html = page.content.decode()
        assert shown_hands(html) == list(range(hands, hands - 50, -1))
        line = re.search(r'<polyline class="chart__line[^"]*" points="([^"]+)"', html)
        assert line and len(line[1].split()) <= 50
        sizes[hands] = (len(page.content), len(live.content))
    for small, big in zip(sizes[50], sizes[400], strict=True):
        assert big <= small * 1.2, sizes


def test_older_hands_are_on_later_pages(client: Client) -> None:
    night = long_night(client, 120)
    base = f"/night/v/{night.view_token}/"
    first = client.get(base).content.decode()
    assert "第 1 页，共 3 页" in first and 'href="?page=2#hands-title"' in first
    assert shown_hands(client.get(base + "?page=2").content.decode()) == list(range(70, 20, -1))
    last = client.get(base + "?page=3").content.decode()
    assert shown_hands(last) == list(range(20, 0, -1)) and "page=4" not in last
    # a page that is not one: said, 400, beside the newest hands (never silently page 1)
    for bad in ("0", "4", "x", "٢", "", "9" * 5000):
        r = client.get(base, {"page": bad})
        html = r.content.decode()
        assert r.status_code == 400, bad
        assert "网址里的页码不对：要是 1 到 3 之间的整数。" in html
        assert shown_hands(html)[0] == 120
    client.cookies["django_language"] = "en"
    r = client.get(base, {"page": "abc"})
    assert r.status_code == 400
    assert "The address is wrong: the page must be a whole number from 1 to 3." in \
        r.content.decode()
    edit = client.get(f"/night/{night.token}/", {"page": "abc"})
    assert edit.status_code == 400 and "the page must be" in edit.content.decode()
    del client.cookies["django_language"]
    assert client.get(base, {"page": "2"}).status_code == 200
    csv = client.get(f"/night/v/{night.view_token}/csv").content.decode()
    assert csv.count("\n") > 120  # the file still holds every hand


def test_a_page_reads_the_same_however_long_the_night(client: Client,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The same queries at 120 and 400 hands, each of them reading at most a page of
    entries, and no entry played again (the state is stored with the latest one)."""
    nights = {hands: long_night(client, hands) for hands in (120, 400)}

    def replayed(*args: object) -> None:
        pytest.fail("a page played the night's entries again")

    monkeypatch.setattr(NightState, "apply", replayed)
    counts = {}
    for hands, night in nights.items():
        for path, headers in ((f"/night/v/{night.view_token}/", {}),
                              (f"/night/v/{night.view_token}/?live=1", {"HX-Request": "true"}),
                              (f"/night/v/{night.view_token}/?page=2", {}),
                              (f"/night/{night.token}/", {})):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(path, headers=headers).status_code == 200
            counts[hands, path.replace(night.view_token, "v").replace(night.token, "t")] = len(
                queries)
            events = [q["sql"] for q in queries if '"tutorial_nightevent"' in q["sql"]]
            assert events and all("LIMIT" in sql or '"hand" IN' in sql
                                  or '"hand" >=' in sql for sql in events), events
    assert {k[1]: v for k, v in counts.items() if k[0] == 120} == {
        k[1]: v for k, v in counts.items() if k[0] == 400}
