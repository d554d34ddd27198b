"""Settlement (RULES.md §5): the seeds' worked examples and conservation properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    DECK,
    Mango,
    Seat,
    SettleError,
    Split,
    get_rules,
    mango_amount,
    mango_payers,
    naive_split,
    settle,
)
from engine.settle import net_ranked

XJ = get_rules("xuanjing")
APP = get_rules("app")


def sp(first: str, second: str) -> Split:
    return Split.parse(first, second, XJ)


JIA, YI, BING = sp("B10 B9", "R3 B6"), sp("R2 R7", "BJ B8"), sp("RQ R8", "B5 B5")


def test_000_bobo_100_80_50() -> None:
    result = settle([Seat("甲", 100, JIA), Seat("乙", 80, YI), Seat("丙", 50, BING)], XJ)
    assert result.nets == {"甲": -50, "乙": -50, "丙": 100}
    assert result.pi_to == "丙"


def test_000_bobo_with_folded_pi_of_60() -> None:
    seats = [Seat("甲", 100, JIA), Seat("乙", 80, YI), Seat("丙", 50, BING),
             Seat("丁", 60, folded=True)]
    result = settle(seats, XJ)
    assert result.order == ("丙", "甲", "乙")  # 甲's 尾 beats 乙's
    pi = [(t.to, t.amount) for t in result.transfers if t.reason == "pi" and t.amount]
    assert pi == [("丙", 50), ("甲", 10)]
    assert result.nets == {"甲": -40, "乙": -50, "丙": 150, "丁": -60}


def test_000_two_player_2_pi_goes_to_better_tail() -> None:
    jia, yi = sp("RQ B9", "R6 R7"), sp("R2 B4", "B6 B9")
    result = settle([Seat("甲", 20, jia), Seat("乙", 20, yi), Seat("丙", 1, folded=True)], XJ)
    assert result.pi_to == "乙"  # the text says 甲: a slip
    assert result.nets == {"甲": 0, "乙": 1, "丙": -1}


# 003's a/b/c: a and b push, c loses to both; tails 6 / 7 / 2.
A = sp("RQ RQ", "R2 B4")  # 尾 地官六 (6)
B = sp("R8 R8", "B10 B7")  # 尾 梅十七 (7): loses 头 to A, wins 尾 → push
C = sp("R4 R4", "B4 B8")  # 尾 四八二 (2)


def test_003_equal_stakes_best_tail_takes_all() -> None:
    result = settle([Seat("a", 100, A), Seat("b", 100, B), Seat("c", 100, C)], XJ)
    assert result.outcomes[("a", "b")].value == "走"
    assert result.order == ("b", "a", "c")
    assert result.nets == {"a": 0, "b": 100, "c": -100}


def test_003_c_150_a_takes_the_rest() -> None:
    result = settle([Seat("a", 100, A), Seat("b", 100, B), Seat("c", 150, C)], XJ)
    assert result.nets == {"a": 50, "b": 100, "c": -150}


def test_003_equal_head_and_tail_share_evenly() -> None:
    x = sp("B10 B10", "R7 B9")  # 中三 pair + 膏药六
    y = sp("B6 B6", "R6 R10")  # 中三 pair + 苕十六 (equal)
    loser = sp("B9 B8", "B7 B5")
    assert x.key(XJ) == y.key(XJ)
    seats = [Seat("x", 100, x), Seat("y", 100, y), Seat("z", 150, loser)]
    result = settle(seats, XJ)
    assert result.nets == {"x": 75, "y": 75, "z": -150}
    # the 芒果 pot goes with the 皮: shared too, the odd chip to the first (RULES §5.4)
    keys = {s.name: s.split.key(XJ) for s in seats if s.split is not None}
    assert [net_ranked(seats, keys, n, 11) for n in "xyz"] == [75 + 6, 75 + 5, -150]


def test_003_a50_b200_c150() -> None:
    a = sp("RQ RQ", "R2 R2")
    b = sp("R8 R8", "R4 R4")
    c = sp("B9 B8", "B7 B5")
    result = settle([Seat("a", 50, a), Seat("b", 200, b), Seat("c", 150, c)], XJ)
    moves = {(t.source, t.to): t.amount for t in result.transfers}
    assert moves[("b", "a")] == 50 and moves[("c", "a")] == 50 and moves[("c", "b")] == 100
    assert result.nets == {"a": 100, "b": 50, "c": -150}


def test_sanhua_declarer_neither_wins_nor_loses() -> None:
    flowers = Split.parse("R10 B10", "BJ B5", XJ)
    result = settle([Seat("a", 30, flowers, sanhua="三花十"), Seat("b", 30, A),
                     Seat("c", 30, C)], XJ)
    assert result.nets["a"] == 0
    assert result.nets == {"a": 0, "b": 30, "c": -30}


def test_the_one_left_after_everyone_folded_needs_no_cards() -> None:
    """A 揍芒 (or a later fold-out): nothing is compared, so the player left may have no
    split; §5 still applies — each folded 皮 up to their own stake, the rest returned —
    and it settles as it would with any four cards."""
    folded = [Seat("b", 1, folded=True), Seat("c", 3, folded=True), Seat("d", 8, folded=True)]
    without = settle([Seat("a", 3), *folded], XJ)
    assert without.nets == {"a": 7, "b": -1, "c": -3, "d": -3}
    assert without.returned == {"d": 5} and without.pi_to == "a" and not without.outcomes
    assert sum(without.nets.values()) == 0
    with_cards = settle([Seat("a", 3, A), *folded], XJ)
    assert (with_cards.nets, with_cards.transfers) == (without.nets, without.transfers)


@pytest.mark.parametrize(
    "seats",
    [
        [Seat("a", 10, A)],
        [Seat("a", -1, A), Seat("b", 10, B)],
        [Seat("a", 10, A), Seat("a", 10, B)],
        [Seat("a", 10, folded=True), Seat("b", 10, folded=True)],
        [Seat("a", 10, A), Seat("b", 10, sp("RQ RQ", "R2 R2"))],  # four 天牌
        [Seat("a", 10), Seat("b", 10, B)],
        [Seat("a", 10), Seat("b", 10), Seat("c", 5, folded=True)],  # two left: cards needed
        [Seat("a", 10, sanhua="三花十"), Seat("b", 5, folded=True)],  # 三花 without cards
    ],
)
def test_bad_tables(seats: list[Seat]) -> None:
    with pytest.raises(SettleError):
        settle(seats, XJ)


def test_mango_amounts() -> None:
    assert mango_amount(XJ, Mango.ZOU) == 5
    assert mango_amount(XJ.with_options(stakes="5、20"), Mango.XIU) == 20
    assert [mango_amount(APP, Mango.ZOU, n) for n in (1, 2, 3, 4)] == [2, 5, 10, 10]
    assert mango_amount(APP, Mango.XIU, 1) == 5
    assert mango_payers(Mango.ZOU, ["a", "b", "c"], "b") == ["a", "c"]
    assert mango_payers(Mango.XIU, ["a", "b"]) == ["a", "b"]


@st.composite
def tables(draw: st.DrawFn) -> list[Seat]:
    n = draw(st.integers(2, 8))
    deck = draw(st.permutations(list(DECK)))
    seats = []
    for i in range(n):
        stake = draw(st.integers(0, 500))
        folded = i > 0 and draw(st.booleans())
        kinds = [c.kind for c in deck[4 * i:4 * i + 4]]
        seats.append(Seat(f"p{i}", stake, None if folded else naive_split(kinds, XJ),
                          folded=folded))
    return seats


@settings(max_examples=300)
@given(tables())
def test_settlement_invariants(seats: list[Seat]) -> None:
    result = settle(seats, XJ)
    assert sum(result.nets.values()) == 0
    stakes = {s.name: s.stake for s in seats}
    for name, net in result.nets.items():
        assert net >= -stakes[name], "nobody loses more than their stake"
    taken: dict[tuple[str, str], int] = {}
    for t in result.transfers:
        assert t.amount >= 0
        taken[(t.source, t.to)] = taken.get((t.source, t.to), 0) + t.amount
    for (source, to), amount in taken.items():
        assert amount <= stakes[to], "nobody wins more than their own stake from one player"
        assert amount <= stakes[source]
    for s in seats:
        if s.folded:
            assert result.nets[s.name] <= 0
