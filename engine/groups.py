"""Two-card groups (组牌): category, points, ranking and names (RULES.md §2)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement

from .cards import KINDS, CardError, Kind, SingleClass, parse_kinds
from .rules import Rules


class Category(Enum):
    """Group categories, strongest first; the value is the JSON/CLI name."""

    DINGERHUANG = "dingerhuang"
    PAIR = "pair"
    TIANJIUWANG = "tianjiuwang"
    DIWANG = "diwang"
    TIANGANG = "tiangang"
    DIGANG = "digang"
    POINTS = "points"
    ZHOU = "zhou"

    @property
    def label(self) -> str:
        return _CATEGORY_LABELS[self]


_CATEGORY_LABELS = {
    Category.DINGERHUANG: "丁二皇",
    Category.PAIR: "对子",
    Category.TIANJIUWANG: "天九王",
    Category.DIWANG: "地王",
    Category.TIANGANG: "天杠",
    Category.DIGANG: "地杠",
    Category.POINTS: "点",
    Category.ZHOU: "皱",
}

# Base strength of each category; point groups use their points (1–9), 皱 0.
_CATEGORY_BASE = {
    Category.DINGERHUANG: 100,
    Category.PAIR: 90,
    Category.TIANJIUWANG: 80,
    Category.DIWANG: 75,
    Category.TIANGANG: 70,
    Category.DIGANG: 60,
}
POINT_WORDS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")


@dataclass(frozen=True)
class Alias:
    name: str
    sources: tuple[str, ...]
    pinyin: str
    traditional: str


@dataclass(frozen=True)
class Names:
    """What the source texts call a group (``name`` is None for the 14 unnamed)."""

    name: str | None
    aliases: tuple[Alias, ...]
    sources: tuple[str, ...]
    pinyin: str | None
    traditional: str | None


@dataclass(frozen=True, order=True)
class Group:
    """Two card kinds, stored in canonical order (stronger single card first)."""

    high: Kind
    low: Kind

    def __post_init__(self) -> None:
        if self.low.index < self.high.index:
            raise CardError("use Group.of() to build a group in any order")
        if self.high is self.low and self.high.copies < 2:
            raise CardError(f"there is only one {self.high.name_zh}: it cannot form a pair")

    @classmethod
    def of(cls, a: Kind, b: Kind) -> Group:
        """The group of two kinds in either order (one shared instance per group)."""
        group = _GROUPS.get((a, b))
        if group is None:  # not a group: the constructor says why
            return cls(a, b) if a.index <= b.index else cls(b, a)
        return group

    @classmethod
    def parse(cls, text: str) -> Group:
        """``"RQ B9"``, ``"RQ-B9"`` or ``"b9,rq"``; raises :class:`CardError`."""
        kinds = parse_kinds(text)
        if len(kinds) != 2:
            raise CardError(f"a group has 2 cards, got {len(kinds)}")
        return cls.of(*kinds)

    @property
    def kinds(self) -> tuple[Kind, Kind]:
        return (self.high, self.low)

    @property
    def code(self) -> str:
        """Canonical URL/data key, e.g. ``RQ-B9``."""
        return f"{self.high.code}-{self.low.code}"

    @property
    def points(self) -> int:
        """(sum of point values) mod 10, whatever the category."""
        return (self.high.face + self.low.face) % 10

    @property
    def top_class(self) -> SingleClass:
        return self.high.single_class

    def category(self, rules: Rules) -> Category:
        a, b = self.high, self.low
        if {a, b} == {Kind.R3, Kind.JK}:
            return Category.DINGERHUANG
        if a is b:
            return Category.PAIR
        if a is Kind.RQ and b is Kind.B9:
            return Category.TIANJIUWANG
        if rules.diwang and a is Kind.R2 and b is Kind.B9:
            return Category.DIWANG
        if a is Kind.RQ and b in (Kind.R8, Kind.B8):
            return Category.TIANGANG
        if a is Kind.R2 and b in (Kind.R8, Kind.B8):
            return Category.DIGANG
        return Category.POINTS if self.points else Category.ZHOU

    def strength(self, rules: Rules) -> tuple[int, int]:
        """A sort key: equal keys tie, larger is stronger."""
        cat = self.category(rules)
        if cat is Category.PAIR:
            return (_CATEGORY_BASE[cat], int(self.top_class))
        if cat is Category.POINTS:
            return (self.points, int(self.top_class))
        if cat is Category.ZHOU:
            return (0, 0)
        return (_CATEGORY_BASE[cat], 0)

    def rank(self, rules: Rules) -> int:
        """Dense rank, 1 for 皱 upward: larger is stronger, equal means tie."""
        return rank_table(rules)[self]

    def names(self) -> Names:
        return _names()[self.code]

    def display_name(self) -> str:
        """The traditional name, or the points (``七点``) for an unnamed group."""
        return self.names().name or f"{POINT_WORDS[self.points]}点"

    def points_or_none(self, rules: Rules) -> int | None:
        """Points for point groups and 皱 (0–9), None for the special categories."""
        return self.points if self.category(rules) in (Category.POINTS, Category.ZHOU) else None

    def __str__(self) -> str:
        return self.code


ALL_GROUPS: tuple[Group, ...] = tuple(
    Group(a, b)
    for a, b in combinations_with_replacement(KINDS, 2)
    if a is not b or a.copies == 2
)
# Group.of's instances: play-outs build groups by the hundred thousand
_GROUPS = {pair: g for g in ALL_GROUPS for pair in ((g.high, g.low), (g.low, g.high))}


@cache
def rank_table(rules: Rules) -> dict[Group, int]:
    """Rank of every group under these rules (computed once per rule set)."""
    keys = sorted({g.strength(rules) for g in ALL_GROUPS})
    dense = {key: i + 1 for i, key in enumerate(keys)}
    return {g: dense[g.strength(rules)] for g in ALL_GROUPS}


def ranked(rules: Rules) -> list[Group]:
    """All 151 groups, strongest first (ties in canonical card order)."""
    table = rank_table(rules)
    return sorted(ALL_GROUPS, key=lambda g: (-table[g], g.high.index, g.low.index))


@cache
def _names() -> dict[str, Names]:
    raw = json.loads(resources.files("engine.data").joinpath("names.json").read_text("utf-8"))
    return {
        code: Names(
            name=entry["name"],
            aliases=tuple(
                Alias(a["name"], tuple(a["sources"]), a["pinyin"], a["traditional"])
                for a in entry["aliases"]
            ),
            sources=tuple(entry["sources"]),
            pinyin=entry["pinyin"],
            traditional=entry["traditional"],
        )
        for code, entry in raw.items()
    }
