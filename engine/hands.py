"""Four-card hands: the three splits, 头/尾, comparing two hands, 三花 (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from .cards import CardError, Kind, check_available, parse_kinds
from .groups import Category, Group
from .rules import Rules

Key = tuple[int, int]  # (头 rank, 尾 rank)

class Outcome(Enum):
    """A showdown result for one player against one opponent."""

    WIN = "吃"
    PUSH = "走"
    LOSE = "死"

    @property
    def sign(self) -> int:
        return {Outcome.WIN: 1, Outcome.PUSH: 0, Outcome.LOSE: -1}[self]

    def mirror(self) -> Outcome:
        return {Outcome.WIN: Outcome.LOSE, Outcome.PUSH: Outcome.PUSH, Outcome.LOSE: Outcome.WIN}[
            self
        ]


@dataclass(frozen=True)
class Split:
    """Four cards as two groups: 头 (``head``, the stronger) and 尾 (``tail``)."""

    head: Group
    tail: Group

    @classmethod
    def of(cls, a: Group, b: Group, rules: Rules) -> Split:
        """Order two groups into 头 and 尾; a player may present them either way."""
        return _split_of(a, b, rules)

    @classmethod
    def parse(cls, first: str, second: str, rules: Rules) -> Split:
        return cls.of(Group.parse(first), Group.parse(second), rules)

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return self.head.kinds + self.tail.kinds

    def key(self, rules: Rules) -> Key:
        """(头 rank, 尾 rank)."""
        return (self.head.rank(rules), self.tail.rank(rules))


@cache
def _split_of(a: Group, b: Group, rules: Rules) -> Split:
    """:meth:`Split.of`, kept: play-outs split the same groups again and again."""
    check_available(a.kinds + b.kinds)
    if (b.rank(rules), b.high.index * -1, b.low.index * -1) > (
        a.rank(rules),
        a.high.index * -1,
        a.low.index * -1,
    ):
        a, b = b, a
    return Split(a, b)


def parse_hand(codes: str | Sequence[str]) -> tuple[Kind, ...]:
    """Four kind codes that the deck can hold; raises :class:`CardError`."""
    kinds = parse_kinds(codes)
    if len(kinds) != 4:
        raise CardError(f"a hand has 4 cards, got {len(kinds)}")
    check_available(kinds)
    return kinds


def splits(kinds: Sequence[Kind], rules: Rules) -> tuple[Split, Split, Split]:
    """The three ways to split four cards, in a fixed order: AB|CD, AC|BD, AD|BC."""
    if len(kinds) != 4:
        raise CardError(f"a hand has 4 cards, got {len(kinds)}")
    return _splits(tuple(kinds), rules)


@cache
def _splits(kinds: tuple[Kind, ...], rules: Rules) -> tuple[Split, Split, Split]:
    """:func:`splits` of four kinds, kept: play-outs split the same hands again and again."""
    a, b, c, d = kinds
    return (
        Split.of(Group.of(a, b), Group.of(c, d), rules),
        Split.of(Group.of(a, c), Group.of(b, d), rules),
        Split.of(Group.of(a, d), Group.of(b, c), rules),
    )


def naive_split(kinds: Sequence[Kind], rules: Rules) -> Split:
    """The "strongest 头, then strongest 尾" split."""
    return max(splits(kinds, rules), key=lambda s: s.key(rules))


def thumb_split(kinds: Sequence[Kind], rules: Rules) -> Split:
    """The rule of thumb /splits/ teaches: keep a special group (丁二皇, a pair, 天九王,
    a 杠, 地王) if some split makes one; then the strongest 尾; then the strongest 头."""

    def key(s: Split) -> tuple[bool, int, int]:
        special = s.head.category(rules) not in (Category.POINTS, Category.ZHOU)
        return (special, s.tail.rank(rules), s.head.rank(rules))

    return max(splits(kinds, rules), key=key)


def compare(mine: Split, theirs: Split, rules: Rules) -> Outcome:
    """吃 when both groups are bigger, or one bigger and one equal; 死 the mirror; else 走."""
    return compare_keys(mine.key(rules), theirs.key(rules))


def compare_keys(mine: Key, theirs: Key) -> Outcome:
    """:func:`compare` on (头 rank, 尾 rank) keys."""
    if beats(mine, theirs):
        return Outcome.WIN
    return Outcome.LOSE if beats(theirs, mine) else Outcome.PUSH


def beats(mine: Key, theirs: Key) -> bool:
    """吃: both groups bigger, or one bigger and one equal."""
    return mine[0] >= theirs[0] and mine[1] >= theirs[1] and mine != theirs


def sanhua(kinds: Sequence[Kind], rules: Rules) -> str | None:
    """``"三花十"`` / ``"三花六"`` if the hand may be declared (and the option is on)."""
    if not rules.sanhua:
        return None
    held = set(kinds)
    if {Kind.R10, Kind.B10, Kind.BJ} <= held:
        return "三花十"
    if {Kind.R6, Kind.B6, Kind.JK} <= held:
        return "三花六"
    return None
