"""The expert level at the practice table: offered, created, labelled, and it acts."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tables import game_of, save_game, table_of
from tests.test_table_views import create, post

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
    assert post(client, url, "bot").status_code == 200  # type: ignore[attr-defined]
    assert table_of(url).seq == before + 1
