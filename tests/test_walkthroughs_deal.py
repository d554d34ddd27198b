"""The cards a walkthrough draws are one deal: no physical card in two places, each
player's cards the same in every step (an audit found ♥6 dealt to two players)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client
from django.utils import translation

from engine.cards import Card
from tutorial import walkthroughs as wt


def _cards(h: wt.HandView) -> tuple[Card, ...]:
    if h.groups:
        return tuple(c for g in h.groups for c in g.cards)
    return tuple(c for c in h.cards if isinstance(c, Card))


@pytest.mark.parametrize("slug", [d["slug"] for d in wt.definitions()])
def test_no_card_is_dealt_twice_and_a_player_keeps_their_cards(slug: str) -> None:
    with translation.override("zh-hans"):
        walkthrough = wt.get_walkthrough(slug)
    assert walkthrough is not None
    held: dict[str, Counter[Card]] = {}
    for step in walkthrough.steps:
        named = [h for h in step.hands if h.name]
        per: dict[str, Counter[Card]] = {}  # a player shown twice: two ways to split
        for h in named:
            per[h.name] = per.get(h.name, Counter()) | Counter(_cards(h))
        shown = sum(per.values(), Counter())
        kinds = Counter(c.kind for c in shown.elements())
        for card, n in shown.items():  # an impossible example may hold more than the deck
            if kinds[card.kind] <= card.kind.copies:
                assert n == 1, (slug, step.kind, card)
        for h in named:  # the same kinds again are the same cards (a step may show part
            mine = Counter(_cards(h))  # of a hand, or a card the text had to replace)
            before = held.setdefault(h.name, mine)
            small, big = sorted((before, mine), key=lambda c: sum(c.values()))
            if not Counter(c.kind for c in small.elements()) - Counter(
                    c.kind for c in big.elements()):
                assert not small - big, (slug, step.kind, h.name)
                held[h.name] = big


def test_a_pair_across_two_players_shows_both_cards(client: Client) -> None:
    """xj-mp-1: 乙 and 丙 each hold a 猫猫; the deck has ♥6 and ♦6."""
    html = client.get("/walkthroughs/xj-mp-1/1/").content.decode()
    assert html.count("猫猫 红桃6") == 1 and html.count("猫猫 方块6") == 1


def test_equal_groups_are_not_called_bigger_and_smaller(client: Client) -> None:
    """xj-mp-3: 梅十九 and 丁长九 are equal (both nine, both 中三 at the top)."""
    html = client.get("/walkthroughs/xj-mp-3/2/").content.decode()
    assert "两组一样大，哪一组做" in html and "大的 <span" not in html.split("两组一样大")[0][-80:]

