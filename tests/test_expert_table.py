"""The expert level at the practice table: offered, created, labelled, and it acts — its
moves computed by a worker (issue 21), asked once, a stale one dropped, rate-limited."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.jobs import work
from tests.tables import game_of, save_game, table_of
from tests.test_ratelimit import refused_in_place
from tests.test_table_views import create, post
from tutorial import table_store
from tutorial.models_jobs import ComputeJob
from tutorial.table_store import play_bot

pytestmark = pytest.mark.django_db


def test_start_form_offers_the_expert_in_both_languages(client: Client) -> None:
    assert 'value="expert"' in client.get("/table/").content.decode()
    client.cookies["django_language"] = "en"
    assert "Expert (plays every choice out" in client.get("/table/").content.decode()


def test_an_expert_table_plays(client: Client) -> None:
    url = create(client, bots=2, level="expert")
    g = game_of(url)
    assert [s.bot for s in g.seats] == [None, "expert", "expert"]
    g.state.dealer = 0  # 挡家 = bot 1, so the expert in seat 2 speaks first
    save_game(url, g)
    html = post(client, url, "act", act="deal").content.decode()  # type: ignore[attr-defined]
    assert "专家" in html
    before = table_of(url).seq
    expected = game_of(url)
    play_bot(expected, 2)  # what the expert plays, computed here
    # the bot step asks a worker (issue 21): the board shows it thinking and polls
    html = post(client, url, "bot").content.decode()  # type: ignore[attr-defined]
    assert table_of(url).seq == before and 'hx-trigger="every 500ms"' in html
    assert post(client, url, "bot").status_code == 200  # type: ignore[attr-defined]
    assert ComputeJob.objects.count() == 1  # asked twice: one job
    assert 'hx-trigger="every 500ms"' in client.get(url, HTTP_HX_REQUEST="true").content.decode()
    work("moves")
    assert table_of(url).seq == before + 1 and not ComputeJob.objects.exists()
    assert game_of(url).state.log == expected.state.log
    assert 'every 500ms' not in client.get(url).content.decode()


def test_a_move_asked_for_an_older_table_is_dropped(client: Client) -> None:
    url = create(client, bots=2, level="expert")
    g = game_of(url)
    g.state.dealer = 0
    save_game(url, g)
    post(client, url, "act", act="deal")
    post(client, url, "bot")  # asked at this seq …
    table = table_of(url)
    g = game_of(url)
    play_bot(g, 2)  # … but the table moved on before a worker took it
    table_store.save(table, g, table.state)
    work("moves")
    assert game_of(url).state.log == g.state.log and not ComputeJob.objects.exists()


def test_expert_moves_are_rate_limited(client: Client, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "compute": (0, 60)}
    url = create(client, bots=2, level="expert")
    g = game_of(url)
    g.state.dealer = 0
    save_game(url, g)
    post(client, url, "act", act="deal")
    before = table_of(url).seq
    r: Any = post(client, url, "bot")  # htmx: the short message, put first in the board
    assert table_of(url).seq == before
    refused_in_place(r)
    r = post(client, url, "bot", htmx=False)  # without JavaScript: the 429 page
    assert r.status_code == 429 and 0 < int(r["Retry-After"]) <= 120  # two periods at most
    assert "请求太频繁了" in r.content.decode() and "<html" in r.content.decode()
    assert not ComputeJob.objects.exists() and table_of(url).seq == before
