"""/rules/chart/: the printable ranking chart (content generated from the engine)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engine.cards import KINDS
from engine.groups import Category
from tests.english import game_terms, unlinked, untranslated
from tutorial.search import CATALOGUES, Entry

pytestmark = pytest.mark.django_db

SPECIAL = [e for e in CATALOGUES["app"].entries
           if e.category not in (Category.POINTS, Category.ZHOU)]


def _page(client: Client, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get("/rules/chart/")
    assert response.status_code == 200
    return unlinked(response.content.decode())


def _in_order(html: str, words: list[str]) -> None:
    at = 0
    for word in words:
        found = html.find(word, at)
        assert found >= 0, f"{word} missing or out of order"
        at = found + len(word)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_special_groups_appear_in_engine_rank_order(client: Client, language: str) -> None:
    html = _page(client, language)
    section = html[html.index('id="chart-special"'):html.index('id="chart-points"')]
    _in_order(section, [f">{e.name}<" for e in SPECIAL])
    assert "地九王" in section  # the option, marked as the app rules' only


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_card_and_point_group_is_on_the_page(client: Client, language: str) -> None:
    html = _page(client, language)
    for kind in KINDS:
        assert kind.name_zh in html
    points = html[html.index('id="chart-points"'):]
    nine = [e.name for e in CATALOGUES["xuanjing"].points_groups(9)]
    _in_order(points, [f">{name}<" for name in dict.fromkeys(nine)])
    assert nine.count("天官九") == 2 and points.count(">天官九<") == 1  # a name once
    for e in CATALOGUES["xuanjing"].entries:
        if e.category in (Category.POINTS, Category.ZHOU):
            assert f">{_shown(e)}<" in points, e.name
    _in_order(html, ["上四牌", "中三牌", "下腰牌", "下四滥", "杂牌"])
    assert "天地人和梅板三，斧十猫膏下四滥" in html


def _shown(e: Entry) -> str:
    """A group without a traditional name (RULES §2) is its points and its two cards,
    each such group on its own (the chart had 六点 twice and 零点 for two groups)."""
    return e.name if e.named else f"{e.name}（{'、'.join(k.name_zh for k in e.kinds)}）"


def test_groups_without_a_name_are_marked_each_with_its_cards(client: Client) -> None:
    unnamed = [e for e in CATALOGUES["xuanjing"].entries if not e.named]
    assert len(unnamed) == 14
    for language in ("zh-hans", "en"):
        points = _page(client, language)
        points = points[points.index('id="chart-points"'):]
        for e in unnamed:
            assert points.count(f">{_shown(e)}</span><sup class=\"chart__mark\"") == 1, e.code
        assert points.count('class="chart__mark"') == 14
    assert "无传统名称：没有哪份资料" in _page(client, "zh-hans")
    assert "No traditional name: no source names" in _page(client, "en")


def test_both_languages() -> None:
    zh, en = _page(Client(), "zh-hans"), _page(Client(), "en")
    assert 'lang="zh-Hans"' in zh and "扯旋大小一页纸" in zh
    assert '<html lang="en"' in en and "Chexuan ranking chart" in en
    assert "tiānpái" in en and "top four" in en and "tiānpái" not in zh
    assert untranslated(en, game_terms()) == []


@pytest.mark.parametrize("url", ["/pairs/", "/rules/"])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_linked_from_pairs_and_rules(client: Client, url: str, language: str) -> None:
    client.cookies["django_language"] = language
    assert re.search(r'<a href="/rules/chart/">', client.get(url).content.decode())


def test_print_stylesheet_is_a4_and_no_inline_style(client: Client) -> None:
    html = _page(client, "zh-hans")
    assert "/static/css/chart.css" in html and "style=" not in html
    with open("static/css/chart.css", encoding="utf-8") as css:
        text = css.read()
    assert "@page { size: A4" in text and "@media print" in text


def test_english_point_groups_carry_their_pinyin(client: Client) -> None:
    points = [e for e in CATALOGUES["xuanjing"].entries
              if e.category in (Category.POINTS, Category.ZHOU)]
    english = _page(client, "en")
    section = english[english.index('id="chart-points"'):]
    for e in points:
        if e.named:
            assert f'<span lang="zh-Hans">{e.name}</span> <i>{e.pinyin}</i>' in section, e.name
    chinese = _page(client, "zh-hans")
    assert points[0].pinyin not in chinese[chinese.index('id="chart-points"'):]
