"""English table results give each group name its pinyin and English gloss at its first
use on the page (issue 15), in the htmx fragment as on the full page and the history."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from engine.game import card_by_label
from engine.groups import Group
from tests.english import glossed_once, main_text
from tests.tables import at_showdown, game_of, shown_groups, table_of
from tutorial.glossary import group_html, group_name, link_first_uses

HANDS = {0: ["RQ", "B9", "R8", "R8"], 1: ["B5", "B7", "B6", "B4"], 2: ["B8", "R7", "R6", "R3"]}


def finished_hand(client: Client) -> tuple[str, str]:
    """A two-bot table played to the showdown through the views: the learner splits (an
    htmx POST), then the bots; the table's address and the last htmx fragment."""
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})
    url = str(response["Location"])
    at_showdown(url, HANDS)
    table = table_of(url)
    mine = game_of(url).hand.cards[0]  # type: ignore[union-attr]
    pair = [c for c in mine if card_by_label(c).kind.code == "R8"]  # 人牌一对 as one group
    fragment = client.post(url + "act", {"seq": table.seq, "act": "split",
                                         "head": pair}, HTTP_HX_REQUEST="true")
    for _ in range(4):
        if "result__splits" in fragment.content.decode():
            break
        fragment = client.post(url + "bot", {"seq": table_of(url).seq},
                               HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    return url, fragment.content.decode()


@pytest.mark.django_db
def test_english_results_gloss_each_group_name_at_first_use() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    url, fragment = finished_hand(client)
    groups = shown_groups(url)
    assert len(groups) == 6
    assert "result__splits" in fragment and "<html" not in fragment
    glossed_once(fragment, groups)
    page = client.get(url).content.decode()
    glossed_once(page, groups)
    glossed_once(client.get(url + "history").content.decode(), groups)
    # a glossary term's gloss is given in the fragment too (钵钵 stack)
    assert "(bōbo, stack)" in main_text(fragment)
    assert main_text(page).count("(bōbo, stack)") == 1


@pytest.mark.django_db
def test_chinese_results_keep_the_names_alone() -> None:
    client = Client()
    url, fragment = finished_hand(client)
    for html in (fragment, client.get(url).content.decode()):
        for group in shown_groups(url):
            assert group_name(group)[0] not in html


def test_a_group_span_is_glossed_once_and_inside_brackets_without_new_ones() -> None:
    with translation.override("en"):
        tgj, gang = group_html(Group.parse("RQ B9")), group_html(Group.parse("RQ R8"))
        html = (f"<p>head {tgj} wins</p><p>tail ({tgj}) | ({gang})</p>"
                f'<p><a href="/pairs/RQ-R8/" lang="zh-Hans" data-group="RQ-R8">天红杠</a></p>'
                f'<p data-gloss="off">{group_html(Group.parse("B4 R10"))}</p>'
                f'<p>{group_html(Group.parse("B4 R10"))}</p>')
        out = re.sub(r"<[^>]+>", "", link_first_uses(html, english=True))
    assert out == ("head 天九王 (tiān jiǔ wáng, Heaven-nine king) wins"
                   "tail (天九王) | (天红杠 tiān hóng gāng, Heaven red bar)"
                   "天红杠四点四点 (sì diǎn, Four points)")
    assert link_first_uses(html, english=False) == html


def test_two_groups_of_one_name_are_glossed_once() -> None:
    """R8-R7 and R8-B7 are both 人十五: the name is glossed at its first use only (the
    browser test met them in a random deal, glossed twice)."""
    with translation.override("en"):
        html = (f"<p>{group_html(Group.parse('R8 R7'))} and "
                f"{group_html(Group.parse('R8 B7'))}</p>")
        out = re.sub(r"<[^>]+>", "", link_first_uses(html, english=True))
    assert out == "人十五 (rén shí wǔ, Man fifteen) and 人十五"


def test_every_group_has_pinyin_and_an_english_gloss() -> None:
    """The gloss an English page gives at a group's first use exists for every group (大鬼
    with a 4, the one unnamed group of zero points, had none: 零点 was not translated)."""
    from engine.groups import ALL_GROUPS

    with translation.override("en"):
        missing = [g.display_name() for g in ALL_GROUPS if not all(group_name(g))]
    assert missing == []
