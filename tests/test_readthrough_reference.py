"""Read-through of the pair catalogue, the reference pages and the walkthroughs (zh and en):
each test pins one sentence or one search that was wrong."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from engine.groups import ALL_GROUPS

pytestmark = pytest.mark.django_db


def text(client: Client, url: str, lang: str = "zh-hans", **params: str) -> str:
    client.cookies["django_language"] = lang
    html = client.get(url, params).content.decode()
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


def codes(html: str) -> list[str]:
    return re.findall(r'<li class="pair-row" id="pair-([A-Z0-9]+-[A-Z0-9]+)">', html)


# ---------------------------------------------------------------- /pairs/ search


@pytest.mark.parametrize(("q", "kinds"), [("Q", {"RQ"}), ("j", {"BJ"}), ("10", {"B10", "R10"})])
def test_a_lone_rank_finds_the_groups_holding_it(client: Client, q: str, kinds: set[str]) -> None:
    """"Q" found 黑7一对 first (the q of qī): a lone letter was read as pinyin."""
    found = codes(client.get("/pairs/", {"q": q}).content.decode())
    assert found and all(set(code.split("-")) & kinds for code in found)
    assert set(found) == {g.code for g in ALL_GROUPS if {k.code for k in g.kinds} & kinds}


@pytest.mark.parametrize("q", ["K", "a"])
def test_a_rank_the_deck_lacks_is_named(client: Client, q: str) -> None:
    page = text(client, "/pairs/", q=q)
    assert f"{q.upper()} 不在扯旋的 32 张牌里。" in page


def test_a_query_the_filters_exclude_says_so(client: Client) -> None:
    """天官九 with 对子 chosen said no group matched 天官九."""
    page = text(client, "/pairs/", q="天官九", cat="pair")
    assert "没有找到与“天官九”相符的组牌" not in page
    assert "有与“天官九”相符的组牌，但都不符合现在的筛选条件。" in page
    assert "去掉筛选条件再查" in page and "你要找的是不是" not in page
    page = text(client, "/pairs/", "en", q="天官九", points="3")
    assert "Groups match “天官九”, but none of them fits the filters chosen." in page
    assert "No group matches" not in page
    # a query that finds nothing at all keeps its own message
    assert "没有找到与“zzzz”相符的组牌。" in text(client, "/pairs/", q="zzzz", cat="pair")


# ---------------------------------------------------------------- /pairs/<code>/


def test_the_strongest_group_has_no_stronger_one(client: Client) -> None:
    assert "没有比它大的组" in text(client, "/pairs/R3-JK/")
    assert "有 0 组比它大" not in text(client, "/pairs/R3-JK/")
    page = text(client, "/pairs/R3-JK/", "en")
    assert "No group is stronger" in page and "0 groups are stronger" not in page


def test_point_group_explanation_in_english(client: Client) -> None:
    page = text(client, "/pairs/RQ-R7/", "en")
    assert "Point groups compare by points first: more points win." in page


# ---------------------------------------------------------------- chart, four, splits


def test_chart_names_the_xuanjing_as_a_title(client: Client) -> None:
    assert "（只在 app 规则里有；《旋经》规则算一点）" in text(client, "/rules/chart/")


def test_four_page_calls_the_xuanjing_by_its_english_name(client: Client) -> None:
    page = text(client, "/pairs/four/", "en")
    assert "The Xuanjing itself uses them the other way round" in page
    assert "The 旋经 itself" not in page


def test_splits_page_english_words(client: Client) -> None:
    page = text(client, "/splits/", "en")
    assert "Under the Xuanjing rules, this rule picks" in page
    assert "the 旋经 rules" not in page
    # "pair" is 对子: the catalogue of all groups is no pair catalogue; 扯牌 was left bare
    assert "the pair catalogue" not in page and "the 扯牌 section" not in page
    assert "the list of all two-card groups" in page
    assert "the rules page's section “The showdown: head and tail”" in page


# ---------------------------------------------------------------- walkthroughs


def test_a_round_two_lead_says_its_minimum_is_our_rule(client: Client) -> None:
    """The lead after a check must be a full raise: the rules page says that is the site's
    rule (the 旋经 sets the minimum for raises only); the walkthrough said it as a fact."""
    zh = text(client, "/walkthroughs/full-hand/20/")
    assert "丁 发招 40" in zh.replace("丁发招", "丁 发招")
    assert "《旋经》只给返招定了下限，让后两轮的发招也守这个下限，是本站的规定。" in zh
    en = text(client, "/walkthroughs/full-hand/20/", "en")
    assert "holding the lead in rounds 2 and 3 to them too is our rule" in en


def test_walkthrough_english_counts_and_verdicts(client: Client) -> None:
    page = text(client, "/walkthroughs/xj-2p-1/1/", "en")
    assert "甲 and 乙 are left for the showdown." in page
    assert "2 players are left" not in page
    page = text(client, "/walkthroughs/full-hand/1/", "en")
    assert "甲, 乙, 丙 and 丁 sit down at one table." in page
    page = text(client, "/walkthroughs/xj-mp-2/2/", "en")
    assert "Count the 板凳" in page and "3 of 板凳" not in page
    assert "A deck holds only 2 板凳" in page and "2 of 板凳" not in page
    page = text(client, "/walkthroughs/xj-mp-3-bobo/6/", "en")
    assert "Add a folded player: a 皮 of 60" in page
    page = text(client, "/walkthroughs/xj-mp-2/8/", "en")
    assert "For 乙 the text says 走" in page and "The text says 乙:" not in page
    page = text(client, "/walkthroughs/app-split-1/4/", "en")
    assert "For a the page says 赢 (win), as the engine computes." in page
    page = text(client, "/walkthroughs/app-split-1/1/", "en")
    assert "the game description page (text 003)" in page and "(source 003)" not in page


@pytest.mark.parametrize(("url", "said"), [
    ("/walkthroughs/xj-mp-1/7/", "甲吃 (甲: win)"),
    ("/walkthroughs/xj-mp-3/7/", "丙吃 (丙: win)"),
    ("/walkthroughs/app-settle-1/2/", "a吃 (a: win)"),
    ("/walkthroughs/app-settle-2/2/", "b吃 (b: win)"),
])
def test_the_texts_verdict_is_glossed_in_english(client: Client, url: str, said: str) -> None:
    """The "text" column showed the seed's 甲吃 bare on English pages."""
    assert said in text(client, url, "en")


def test_source_labels_in_english_name_the_xuanjing_once(client: Client) -> None:
    """The labels read "旋经 (xuánjīng, Xuanjing)" then "旋经 (Xuanjing)" on one page."""
    page = text(client, "/pairs/RQ-B9/", "en")
    assert "旋经 (Xuanjing)" not in page and "旋经, older copy" not in page
    assert "Xuanjing, older copy" in page


def test_walkthrough_sections_name_the_xuanjing_in_english(client: Client) -> None:
    page = text(client, "/walkthroughs/", "en")
    for heading in ("Two-player showdowns (Xuanjing)", "Showdowns with three players (Xuanjing)",
                    "Counting points (Xuanjing)", "The squeeze (Xuanjing)"):
        assert heading in page
    assert "(旋经)" not in page and "the 旋经" not in page


def test_table_tool_calls_the_opponents_strategy_near_equilibrium(client: Client) -> None:
    """/splits/ computes a near-equilibrium strategy (exploitability 0.000989); the table tool
    called it the equilibrium."""
    url = "/splits/table/?cards=RQ+R6+R7+B9&stake=10&v1=R2+B8&s1=10"
    assert "对手按分牌页讲的接近均衡的策略分牌" in text(client, url)
    assert "by the near-equilibrium strategy of the splits page" in text(client, url, "en")


def test_walkthroughs_keep_pair_for_the_game_term(client: Client) -> None:
    """"pair" is 对子 (glossary); the steps also said "each pair of players"."""
    page = text(client, "/walkthroughs/xj-mp-1/5/", "en")
    assert "every two players once" in page and "pair of players" not in page
    assert "Results, player against player" in text(client, "/walkthroughs/xj-mp-1/7/", "en")


def test_cards_page_english_names_the_smallest_class_in_one_language(client: Client) -> None:
    page = text(client, "/cards/", "en")
    assert "six equal kinds (the bottom four and the odd cards)" in page
    assert "(下四滥 and odd cards)" not in page


def test_catalogue_lead_in_english(client: Client) -> None:
    """两张牌一组: two cards make a group (the groups, not the cards, are compared)."""
    page = text(client, "/pairs/", "en")
    assert "Two cards make a group, and the 32 cards can make 151 different groups." in page
