"""Cards and two-card groups: counts, categories and the orderings listed in 旋经 (000)."""

from __future__ import annotations

import pytest

from engine import ALL_GROUPS, DECK, KINDS, CardError, Category, Group, get_rules, parse_kind
from engine.groups import rank_table, ranked

XJ = get_rules("xuanjing")
APP = get_rules("app")

# 000's point lists, strongest tier first; "X（红黑不限）" expands to both kinds, 大鬼 only
# where the text says 包括大鬼.
ORDERINGS: dict[int, list[list[str]]] = {
    9: [["RQ R7", "RQ B7"], ["R2 R7", "R2 B7"], ["R8 BJ"], ["R4 B5"],
        ["B10 B9", "B4 B5", "R3 B6"], ["BJ B8", "R10 B9", "R3 R6"]],
    8: [["RQ B6", "RQ R6", "RQ JK"], ["R2 B6", "R2 R6", "R2 JK"], ["R8 B10", "R8 R10"],
        ["R4 B4"], ["B10 B8"], ["BJ R7", "BJ B7", "R10 B8"], ["R3 B5"]],
    7: [["RQ B5"], ["R2 B5"], ["R8 B9"], ["R3 R4"], ["B10 R7", "B10 B7", "R3 B4", "BJ B6"],
        ["BJ R6", "R10 R7", "R10 B7"], ["B8 B9"]],
    6: [["RQ R4", "RQ B4"], ["R2 R4", "R2 B4"], ["R8 B8"], ["B10 B6", "B10 R6", "B6 R10"],
        ["BJ B5", "R10 R6", "R7 B9"], ["B7 B9"]],
    5: [["RQ R3"], ["R2 R3"], ["R8 R7", "R8 B7"], ["R4 BJ"], ["B10 B5", "B4 BJ", "B6 B9"],
        ["R10 B5", "R6 B9", "R7 B8"], ["B7 B8"]],
    4: [["RQ R2"], ["R8 B6", "R8 R6"], ["R4 B10", "R4 R10"], ["B10 B4", "B6 B8"],
        ["R3 BJ", "R6 B8", "R7 B7"], ["B5 B9"]],
    3: [["RQ BJ"], ["R2 BJ"], ["R8 B5"], ["R4 B9"], ["B10 R3", "B4 B9", "B6 R7", "B6 B7"],
        ["R10 R3", "R6 R7", "R6 B7"], ["B5 B8"]],
    2: [["RQ B10", "RQ R10"], ["R2 B10", "R2 R10"], ["R8 R4", "R8 B4"], ["R4 B8"],
        ["B4 B8", "B6 R6"], ["R7 B5"], ["R3 B9", "B5 B7"]],
    1: [["R2 B9"], ["R8 R3"], ["R4 R7", "R4 B7"], ["B10 BJ", "B4 R7", "B4 B7", "B6 B5"],
        ["BJ R10", "B5 R6"], ["R3 B8"]],
}
ZHOU_NAMED = ["R4 B6", "R4 R6", "B4 B6", "B4 R6", "B10 R10", "BJ B9", "R3 R7", "R3 B7"]


def test_deck_golden_counts() -> None:
    assert len(KINDS) == 17
    assert len(DECK) == 32
    assert len(set(DECK)) == 32
    assert sum(k.copies for k in KINDS) == 32
    codes = " ".join(k.code for k in KINDS)
    assert codes == "RQ R2 R8 R4 B10 B4 B6 BJ R10 R6 R7 B9 B8 B7 B5 R3 JK"


def test_card_points() -> None:
    assert parse_kind("RQ").points == 2
    assert parse_kind("BJ").points == 1
    assert parse_kind("JK").points == 6
    assert parse_kind("b10").points == 0


@pytest.mark.parametrize("bad", ["XX", "", "R11", "黑9", "RQQ"])
def test_parse_errors_are_typed(bad: str) -> None:
    with pytest.raises(CardError):
        parse_kind(bad)


@pytest.mark.parametrize("bad", ["R3 R3", "JK JK", "RQ", "RQ B9 B8"])
def test_impossible_groups(bad: str) -> None:
    with pytest.raises(CardError):
        Group.parse(bad)


def test_151_groups_and_categories() -> None:
    assert len(ALL_GROUPS) == 151
    cats = [g.category(XJ) for g in ALL_GROUPS]
    assert cats.count(Category.DINGERHUANG) == 1
    assert cats.count(Category.PAIR) == 15
    assert cats.count(Category.TIANJIUWANG) == 1
    assert cats.count(Category.TIANGANG) == 2
    assert cats.count(Category.DIGANG) == 2
    assert cats.count(Category.DIWANG) == 0
    assert [g.category(APP) for g in ALL_GROUPS].count(Category.DIWANG) == 1


def test_category_order() -> None:
    top = [g.code for g in ranked(XJ)[:21]]
    assert top[0] == "R3-JK"
    assert top[1] == "RQ-RQ"
    assert Group.parse("RQ B9").rank(XJ) > Group.parse("RQ R8").rank(XJ)
    assert Group.parse("RQ R8").rank(XJ) == Group.parse("RQ B8").rank(XJ)
    assert Group.parse("RQ B8").rank(XJ) > Group.parse("R2 R8").rank(XJ)
    assert Group.parse("R2 B8").rank(XJ) > Group.parse("RQ R7").rank(XJ)  # 地杠 > 天官九
    # the weakest pair still beats 天九王
    assert Group.parse("B5 B5").rank(XJ) > Group.parse("RQ B9").rank(XJ)
    # pairs by class: 中三 pairs tie, 下腰 pairs tie, 下四滥 pairs tie
    assert len({Group.parse(f"{k} {k}").rank(XJ) for k in ("B10", "B4", "B6")}) == 1
    assert len({Group.parse(f"{k} {k}").rank(XJ) for k in ("BJ", "R10", "R6", "R7")}) == 1
    assert len({Group.parse(f"{k} {k}").rank(XJ) for k in ("B9", "B8", "B7", "B5")}) == 1


@pytest.mark.parametrize("points", sorted(ORDERINGS, reverse=True))
def test_xuanjing_point_orderings(points: int) -> None:
    tiers = [[Group.parse(c) for c in tier] for tier in ORDERINGS[points]]
    ranks = [{g.rank(XJ) for g in tier} for tier in tiers]
    assert all(len(r) == 1 for r in ranks), "each tier of 000 is one tie"
    flat = [r.pop() for r in ranks]
    assert flat == sorted(flat, reverse=True) and len(set(flat)) == len(flat)
    for tier in tiers:
        for g in tier:
            assert g.points == points
            assert g.category(XJ) is Category.POINTS
            assert g.names().name is not None


def test_zhou_all_tie_and_are_lowest() -> None:
    zhou = [g for g in ALL_GROUPS if g.category(XJ) is Category.ZHOU]
    assert {g.rank(XJ) for g in zhou} == {1}
    assert {Group.parse(c) for c in ZHOU_NAMED} <= set(zhou)


def test_diwang_option() -> None:
    diwang = Group.parse("R2 B9")
    assert diwang.category(XJ) is Category.POINTS and diwang.points_or_none(XJ) == 1
    assert diwang.category(APP) is Category.DIWANG and diwang.points_or_none(APP) is None
    assert Group.parse("RQ B9").rank(APP) > diwang.rank(APP) > Group.parse("RQ R8").rank(APP)
    # with the option off it is the top one-point hand
    ones = [g for g in ALL_GROUPS if g.category(XJ) is Category.POINTS and g.points == 1]
    assert max(ones, key=lambda g: g.rank(XJ)) == diwang


def test_names_cover_137_of_151() -> None:
    named = [g for g in ALL_GROUPS if g.names().name is not None]
    assert len(named) == 137
    listed = {Group.parse(c) for tiers in ORDERINGS.values() for t in tiers for c in t}
    listed |= {Group.parse(c) for c in ZHOU_NAMED}
    special = {g for g in ALL_GROUPS if g.category(XJ) is not Category.POINTS
               and g.category(XJ) is not Category.ZHOU}
    assert listed | special == set(named)
    unnamed = [g for g in ALL_GROUPS if g.names().name is None]
    assert sum(1 for g in unnamed if "JK" in g.code) == 13
    assert Group.parse("B4 R10") in unnamed
    for g in unnamed:
        assert g.display_name().endswith("点")


def test_known_names_and_aliases() -> None:
    assert Group.parse("RQ R7").names().name == "天官九"
    assert Group.parse("R3 JK").names().name == "丁二皇"
    aliases = {a.name for a in Group.parse("R8 BJ").names().aliases}
    assert {"红笼九", "灯笼九", "英雄九"} <= aliases
    assert Group.parse("RQ R7").names().traditional == "天官九"


def test_rank_table_is_dense() -> None:
    for rules in (XJ, APP):
        values = sorted(set(rank_table(rules).values()))
        assert values == list(range(1, len(values) + 1))


def test_groups_of_one_name_share_their_aliases() -> None:
    """人十五 is 人牌 with either 7 (004: 红黑不限); 人官五 (000, with 黑7) was an alias of
    R8-B7 only, so the quiz called 人牌 + 膏药 "another group" than 人官五."""
    by_name: dict[str, set[tuple[str, ...]]] = {}
    for group in ALL_GROUPS:
        names = group.names()
        if names.name:
            by_name.setdefault(names.name, set()).add(
                tuple(sorted(a.name for a in names.aliases)))
    assert {name: a for name, a in by_name.items() if len(a) > 1} == {}
    assert "人官五" in {a.name for a in Group.parse("R8 R7").names().aliases}
