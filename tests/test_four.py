"""/pairs/four/: the names of whole four-card hands, and finding them from the /pairs/ search."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.english import game_terms, untranslated
from tutorial.four import four_names
from tutorial.search import CATALOGUES, search

pytestmark = pytest.mark.django_db

# Every four-card name of the seeds (003's 四張牌組合 and the 旋经's 简称).
SEED_NAMES = ("天皇", "地皇", "天地公子", "公母猪", "朵朵", "王对", "杠对", "九对", "三花十",
              "三花六", "六天", "五九", "三王", "五六", "皱杠", "九杠", "六王", "三五", "三月三",
              "三月五", "五板", "五对", "九月九", "九九", "杠小5")


def test_every_seed_name_has_an_entry() -> None:
    names = {n for f in four_names() for n in f.names}
    assert set(SEED_NAMES) <= names


def test_page_shows_every_name_at_its_anchor(client: Client) -> None:
    html = client.get("/pairs/four/").content.decode()
    for f in four_names():
        start = html.index(f'id="{f.id}"')
        entry = html[start:html.index("</dd>", start)]
        for name in f.names:
            assert name in entry, name
        if not f.declared:
            assert f.split.head.display_name() in entry


def test_the_short_names_follow_the_weaker_group_first() -> None:
    by_name = {f.name: f for f in four_names()}
    assert by_name["六天"].split.head.display_name() == "天牌一对"
    assert by_name["六天"].split.tail.display_name() == "地官六"
    assert by_name["九月九"].split.tail.display_name() == "丁长九"


@pytest.mark.parametrize("query", ["九月九", "天皇", "朵朵", "公母猪", "杠对", "六天", "duoduo"])
def test_pairs_search_finds_four_card_names(client: Client, query: str) -> None:
    result = search(CATALOGUES["xuanjing"], query)
    assert result.four, query
    html = client.get("/pairs/", {"q": query}).content.decode()
    assert f'href="/pairs/four/#{result.four[0].id}"' in html


def test_page_in_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/pairs/four/").content.decode()
    assert "Four-card hands" in html and "sure win" in html
    assert untranslated(html, game_terms()) == []


def test_the_page_says_the_xuanjing_uses_head_and_tail_the_other_way(client: Client) -> None:
    """RULES §3: 000 uses the reverse words and the site must say so; /pairs/four/ shows
    the 旋经's showdown hands with the site's 头 and 尾 and did not."""
    zh = client.get("/pairs/four/").content.decode()
    assert "《旋经》自己正好反过来" in zh and 'href="/rules/#tou-wei-reversed"' in zh
    en = client.get("/pairs/four/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "uses them the other way round" in en
    assert 'id="tou-wei-reversed"' in client.get("/rules/").content.decode()
