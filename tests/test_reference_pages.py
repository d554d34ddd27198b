"""Reference pages with Django's test client: /cards/, /pairs/<code>/, /rules/, 404s, English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from engine.groups import ALL_GROUPS, ranked
from engine.rules import PRESETS
from tutorial.glossary import pair_gloss

pytestmark = pytest.mark.django_db


def test_cards_page_draws_all_32_cards_and_the_koujue(client: Client) -> None:
    html = client.get("/cards/").content.decode()
    assert html.count('class="card card--') == 32
    assert 'aria-label="天牌 红桃Q"' in html and 'aria-label="天牌 方块Q"' in html
    assert 'aria-label="大鬼 大王"' in html
    for word, anchor in (("天", "kind-RQ"), ("梅", "kind-B10"), ("下四滥", "class-za")):
        assert f'href="#{anchor}"' in html and f">{word}</a>" in html
    assert 'data-kinds="B9 B8 B7 B5" data-also="R3 JK"' in html
    assert "/static/js/reference.js" in html
    assert " style=" not in html and "<style" not in html
    assert "12 点（个位算 2）" in html


@pytest.mark.parametrize(
    ("code", "texts"),
    [
        (
            "RQ-R7",
            [
                "天官九",
                "天关九",
                "扯旋 app 规则页",
                "第 22 大（共 151 组）",
                "同为九点，比最大的单张",
                "地红杠",
                "地官九",
            ],
        ),
        ("R3-JK", ["丁二皇", "丁二黄", "第 1 大", "没有了：这是最大的一组。"]),
        ("R4-B6", ["四六皱", "四六挺", "《旋经》旧本", "所有皱一样大", "没有了：皱是最小的。"]),
        ("B4-R10", ["四点", "无传统名称", "没有哪份资料给这一组起过名字"]),
        ("B10-B10", ["梅十一对", "中三", "板凳一对", "长三一对"]),
        ("RQ-B9", ["天九王", "奶狗", "天王", "第 17 大"]),
    ],
)
def test_pair_detail(client: Client, code: str, texts: list[str]) -> None:
    response = client.get(f"/pairs/{code}/")
    assert response.status_code == 200
    html = response.content.decode()
    for text in texts:
        assert text in html, text


def test_pair_detail_rank_is_one_plus_strictly_stronger(client: Client) -> None:
    rules = PRESETS["xuanjing"]
    for group in ranked(rules)[::10]:
        stronger = sum(1 for g in ALL_GROUPS if g.rank(rules) > group.rank(rules))
        html = client.get(f"/pairs/{group.code}/").content.decode()
        assert f"第 {stronger + 1} 大（共 151 组）" in html


def test_diwang_under_app_rules(client: Client) -> None:
    xj = client.get("/pairs/R2-B9/").content.decode()
    app = client.get("/pairs/R2-B9/?rules=app").content.decode()
    assert "第 130 大" in xj and "第 18 大" in app
    assert "地王" in app


@pytest.mark.parametrize(("code", "zh", "en"), [
    ("RQ-R8", "但输给地王、天九王、对子和丁二皇", "loses to 地王, 天九王, the pairs and 丁二皇"),
    ("RQ-B8", "但输给地王、天九王、对子和丁二皇", "loses to 地王, 天九王, the pairs and 丁二皇"),
    ("RQ-B9", "比地王、天杠、地杠和所有的点都大", "beats 地王, 天杠, 地杠 and every point group"),
    ("B10-B10", "比天九王、地王、杠和所有的点都大", "beat 天九王, 地王, the 杠"),
])
def test_what_a_group_loses_to_counts_diwang_where_it_ranks(client: Client, code: str,
                                                            zh: str, en: str) -> None:
    """Under the app rules 地王 ranks between 天九王 and 天杠 (RULES §2.4): the 天杠 pages
    said they lost only to 天九王, the pairs and 丁二皇."""
    def text(url: str, lang: str) -> str:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))

    assert zh in text(f"/pairs/{code}/?rules=app", "zh-hans")
    assert en in text(f"/pairs/{code}/?rules=app", "en")
    assert zh.replace("地王、", "") in text(f"/pairs/{code}/", "zh-hans")


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("/pairs/B9-RQ/", "/pairs/RQ-B9/"),
        ("/pairs/rq-b9/", "/pairs/RQ-B9/"),
        ("/pairs/b9-rq/?rules=app", "/pairs/RQ-B9/?rules=app"),
        ("/pairs/JK-R3/", "/pairs/R3-JK/"),
    ],
)
def test_non_canonical_codes_redirect(client: Client, path: str, target: str) -> None:
    response = client.get(path)
    assert response.status_code == 301
    assert response["Location"] == target


@pytest.mark.parametrize(
    "path",
    [
        "/pairs/XX/",
        "/pairs/R3-R3/",
        "/pairs/JK-JK/",
        "/pairs/RQ/",
        "/pairs/RQ-B9-B8/",
        "/pairs/-/",
        "/pairs/RQ-/",
    ],
)
def test_bad_codes_are_404(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "找不到这一页" in response.content.decode()


def test_rules_page_has_every_section_and_engine_numbers(client: Client) -> None:
    html = client.get("/rules/").content.decode()
    for word in (
        "发招",
        "瞧",
        "返",
        "拖",
        "敲",
        "休",
        "甩",
        "吃",
        "走",
        "死",
        "尾大吃皮",
        "揍芒",
        "休芒",
        "圈芒",
        "地王",
        "三花",
    ):
        assert word in html, word
    # 旋经 multi-player example 3 with a folded 皮 of 60: 丙 +150, 甲 takes 10 of the 皮
    assert "甲 拿走 丁 剩下的皮 10。" in html
    assert "+150" in html
    # 003's example: a +100, b +50, c -150
    assert "b 吃 c，拿 100：c 只剩这么多。" in html
    # the seeds' slips are pointed out
    assert "皮应该归乙" in html
    assert "甲对乙是“吃”，丙对乙也是“吃”" in html
    assert "它把大的那组叫“尾”" in html
    # 芒果 table from engine.rules.STAKES / engine.mango
    assert re.search(r"<th scope=\"row\">5、20</th><td class=\"num\"[^>]*>20</td>", html)


def test_english_pages(client: Client) -> None:
    client.cookies["django_language"] = "en"
    pairs = client.get("/pairs/").content.decode()
    assert '<html lang="en">' in pairs
    assert "All two-card groups" in pairs and "All 151 groups, strongest first." in pairs
    assert '<a class="pair-row__name" href="/pairs/RQ-R7/" lang="zh-Hans">天官九</a>' in pairs
    assert "Heaven’s official nine" in pairs
    detail = client.get("/pairs/RQ-R7/").content.decode()
    assert "Why it ranks here" in detail and "No. 22 of 151 groups" in detail
    assert "Chexuan app rule page" in detail
    cards = client.get("/cards/").content.decode()
    assert "The rhyme of single cards" in cards
    rules = client.get("/rules/").content.decode()
    assert "Settling up" in rules and "甲 takes the remaining 10 of 丁’s 皮." in rules
    for html in (pairs, detail, cards, rules):
        # no Chinese interface text outside lang="zh…" elements and game terms
        visible = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", html, flags=re.S)
        assert "找到" not in visible and "为什么" not in visible and "第 22 大" not in visible


def test_reference_pages_have_no_inline_code(client: Client) -> None:
    for path in ("/cards/", "/pairs/", "/pairs/RQ-B9/", "/rules/"):
        html = client.get(path).content.decode()
        assert " style=" not in html and "<style" not in html, path
        for tag in re.findall(r"<script[^>]*>", html):
            assert "src=" in tag, (path, tag)


def test_the_apps_pair_names_are_glossed_as_pairs(client: Client) -> None:
    """002 and 003 name a pair by its card's name (天牌 is 天牌一对): in English the
    alias reads as the pair, as the main name does, not as the single card."""
    names = json.loads((Path(__file__).resolve().parent.parent / "engine" / "data"
                        / "names.json").read_text("utf-8"))
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        singles = [entry for entry in names.values()
                   if any(entry["name"] == a["name"] + "一对" for a in entry["aliases"])]
        assert len(singles) >= 10
        for entry in singles:
            alias = next(a for a in entry["aliases"] if entry["name"] == a["name"] + "一对")
            assert pair_gloss(alias["name"]) == pair_gloss(entry["name"]), alias["name"]
            assert pair_gloss(alias["name"]).startswith("pair of"), alias["name"]
    html = client.get("/pairs/RQ-RQ/").content.decode()
    assert "“pair of Heaven cards”" in html and "the Heaven card" not in html
