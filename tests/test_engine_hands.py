"""Splitting and comparing four-card hands; every worked showdown in the seeds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    DECK,
    CardError,
    Outcome,
    Split,
    compare,
    get_rules,
    naive_split,
    parse_hand,
    sanhua,
    splits,
)

XJ = get_rules("xuanjing")


def sp(first: str, second: str) -> Split:
    return Split.parse(first, second, XJ)


def test_head_is_the_stronger_group_whatever_the_order() -> None:
    a = sp("R2 B4", "RQ RQ")
    b = sp("RQ RQ", "R2 B4")
    assert a == b
    assert a.head.code == "RQ-RQ"
    assert a.tail.code == "R2-B4"


def test_three_splits() -> None:
    options = splits(parse_hand("RQ R2 RQ B4"), XJ)
    assert len(options) == 3
    # AB|CD and AD|BC are the same split here: 天官六 + 天地公子
    assert [(s.head.code, s.tail.code) for s in options] == [
        ("RQ-B4", "RQ-R2"), ("RQ-RQ", "R2-B4"), ("RQ-B4", "RQ-R2"),
    ]


@pytest.mark.parametrize("bad", ["RQ RQ RQ B4", "RQ R2 B4", "RQ R2 B4 B5 B6", "R3 R3 B4 B5"])
def test_bad_hands(bad: str) -> None:
    with pytest.raises(CardError):
        parse_hand(bad)


# 旋经 (000) two-player examples: our 头 is the stronger group (000 calls it 尾).
def test_000_two_player_1_jia_wins() -> None:
    jia, yi = sp("R2 B4", "RQ RQ"), sp("R8 BJ", "B6 B9")
    assert compare(jia, yi, XJ) is Outcome.WIN
    assert compare(yi, jia, XJ) is Outcome.LOSE


def test_000_two_player_2_push() -> None:
    jia, yi = sp("RQ B9", "R6 R7"), sp("R2 B4", "B6 B9")
    assert compare(jia, yi, XJ) is Outcome.PUSH
    # 尾: 乙's 长三五 beats 甲's 六七三, so 乙 eats the 皮 (the text slips and says 甲)
    assert yi.tail.rank(XJ) > jia.tail.rank(XJ)


def test_000_two_player_3_yi_wins() -> None:
    jia, yi = sp("R2 R8", "R3 B7"), sp("RQ B8", "R4 B5")
    assert compare(yi, jia, XJ) is Outcome.WIN
    assert jia.tail.category(XJ).value == "zhou"


def test_000_multi_1_jia_beats_both() -> None:
    jia, yi, bing = sp("RQ B9", "R2 B4"), sp("B6 B9", "R6 R7"), sp("R8 B5", "R6 B7")
    assert compare(jia, yi, XJ) is Outcome.WIN
    assert compare(jia, bing, XJ) is Outcome.WIN


def test_000_multi_2_is_impossible_as_dealt() -> None:
    # 甲 holds one 板凳 and 丙 two: three 板凳, the deck has two
    from engine import Seat, SettleError, settle

    seats = [Seat("甲", 10, sp("RQ B9", "R2 B4")), Seat("乙", 10, sp("B6 B9", "R6 R7")),
             Seat("丙", 10, sp("B4 B4", "R8 B7"))]
    with pytest.raises(SettleError):
        settle(seats, XJ)


def test_000_multi_2_outcomes_if_it_were_possible() -> None:
    jia, yi, bing = sp("RQ B9", "R2 B4"), sp("B6 B9", "R6 R7"), sp("B4 B4", "R8 B7")
    # the text says everyone pushes; by the rules 甲 and 丙 both beat 乙
    assert compare(jia, yi, XJ) is Outcome.WIN
    assert compare(bing, yi, XJ) is Outcome.WIN
    assert compare(jia, bing, XJ) is Outcome.PUSH


def test_000_multi_3() -> None:
    jia, yi, bing = sp("B10 B9", "R3 B6"), sp("R2 R7", "BJ B8"), sp("RQ R8", "B5 B5")
    assert jia.head.rank(XJ) == jia.tail.rank(XJ)  # 梅十九 = 丁长九
    assert compare(jia, yi, XJ) is Outcome.PUSH
    assert compare(bing, jia, XJ) is Outcome.WIN
    assert compare(bing, yi, XJ) is Outcome.WIN
    assert bing.head.code == "B5-B5"


def test_003_split_example_1() -> None:
    a, b = sp("RQ B8", "B4 B5"), sp("R2 B8", "R4 B4")
    assert compare(a, b, XJ) is Outcome.WIN


def test_003_split_example_2() -> None:
    a = sp("R2 R8", "R2 B7")
    b_gang, b_nines = sp("RQ B8", "B7 BJ"), sp("RQ B7", "B8 BJ")
    assert compare(a, b_gang, XJ) is Outcome.PUSH
    assert compare(a, b_nines, XJ) is Outcome.WIN
    # a's other split (地牌 pair + 人十五) is also among its three
    assert sp("R2 R2", "R8 B7") in splits(parse_hand("R2 R2 B7 R8"), XJ)


def test_naive_split_takes_strongest_head() -> None:
    assert naive_split(parse_hand("R2 R2 B7 R8"), XJ) == sp("R2 R2", "R8 B7")


def test_sanhua() -> None:
    assert sanhua(parse_hand("R10 B10 BJ B5"), XJ) == "三花十"
    assert sanhua(parse_hand("R6 B6 JK B5"), XJ) == "三花六"
    assert sanhua(parse_hand("R6 B6 R3 B5"), XJ) is None
    no_sanhua = XJ.with_options(sanhua=False)
    assert sanhua(parse_hand("R10 B10 BJ B5"), no_sanhua) is None


hands = st.permutations(list(DECK)).map(lambda cards: [c.kind for c in cards[:12]])


@given(hands)
def test_compare_antisymmetric_and_win_transitive(kinds: list) -> None:  # type: ignore[type-arg]
    a, b, c = (naive_split(kinds[i:i + 4], XJ) for i in (0, 4, 8))
    assert compare(a, b, XJ) is compare(b, a, XJ).mirror()
    assert compare(a, a, XJ) is Outcome.PUSH
    if compare(a, b, XJ) is Outcome.WIN and compare(b, c, XJ) is Outcome.WIN:
        assert compare(a, c, XJ) is Outcome.WIN
    for x in splits(kinds[:4], XJ):
        assert x.head.rank(XJ) >= x.tail.rank(XJ)
