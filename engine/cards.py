"""Cards: the 17 kinds of the 32-card 扯旋 deck and the physical cards.

A *kind* is what the rules care about (天牌, 黑9 …); a *card* is one physical
playing card (♥Q).  Every interface accepts the kind codes of RULES.md §1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum


class CardError(ValueError):
    """Raised for an unknown card code or an impossible set of cards."""


class SingleClass(IntEnum):
    """Single-card classes, 天地人和梅板三，斧十猫膏下四滥 (larger is stronger)."""

    ZA = 1  # 下四滥 / 杂牌
    XIAYAO = 2  # 下腰
    ZHONGSAN = 3  # 中三
    HE = 4  # 和
    REN = 5  # 人
    DI = 6  # 地
    TIAN = 7  # 天

    @property
    def label(self) -> str:
        return _CLASS_LABELS[self]


_CLASS_LABELS = {
    SingleClass.TIAN: "天",
    SingleClass.DI: "地",
    SingleClass.REN: "人",
    SingleClass.HE: "和",
    SingleClass.ZHONGSAN: "中三",
    SingleClass.XIAYAO: "下腰",
    SingleClass.ZA: "下四滥",
}


class Kind(Enum):
    """The 17 card kinds, in single-card order (strongest first)."""

    RQ = ("RQ", "天牌", ("红Q",), "Q", "red", 12, SingleClass.TIAN, "♥♦")
    R2 = ("R2", "地牌", ("红2", "鸭儿"), "2", "red", 2, SingleClass.DI, "♥♦")
    R8 = ("R8", "人牌", ("红8",), "8", "red", 8, SingleClass.REN, "♥♦")
    R4 = ("R4", "和牌", ("红4", "火箭"), "4", "red", 4, SingleClass.HE, "♥♦")
    B10 = ("B10", "梅十", ("黑10",), "10", "black", 10, SingleClass.ZHONGSAN, "♠♣")
    B4 = ("B4", "板凳", ("黑4",), "4", "black", 4, SingleClass.ZHONGSAN, "♠♣")
    B6 = ("B6", "长三", ("黑6",), "6", "black", 6, SingleClass.ZHONGSAN, "♠♣")
    BJ = ("BJ", "斧头", ("黑J", "虎头"), "J", "black", 11, SingleClass.XIAYAO, "♠♣")
    R10 = ("R10", "苕十", ("红10",), "10", "red", 10, SingleClass.XIAYAO, "♥♦")
    R6 = ("R6", "猫猫", ("红6",), "6", "red", 6, SingleClass.XIAYAO, "♥♦")
    R7 = ("R7", "膏药", ("红7",), "7", "red", 7, SingleClass.XIAYAO, "♥♦")
    B9 = ("B9", "黑9", ("弯边",), "9", "black", 9, SingleClass.ZA, "♠♣")
    B8 = ("B8", "黑8", (), "8", "black", 8, SingleClass.ZA, "♠♣")
    B7 = ("B7", "黑7", (), "7", "black", 7, SingleClass.ZA, "♠♣")
    B5 = ("B5", "小5", ("黑5",), "5", "black", 5, SingleClass.ZA, "♠♣")
    R3 = ("R3", "丁丁", ("红桃3",), "3", "red", 3, SingleClass.ZA, "♥")
    JK = ("JK", "大鬼", ("大王", "二皇", "二黄", "鬼鬼"), "JOKER", "red", 6, SingleClass.ZA, "")

    def __init__(
        self,
        code: str,
        name_zh: str,
        nicknames: tuple[str, ...],
        rank_label: str,
        color: str,
        face: int,
        single_class: SingleClass,
        suits: str,
    ) -> None:
        self.code = code
        self.name_zh = name_zh
        self.nicknames = nicknames
        self.rank_label = rank_label
        self.color = color
        self.face = face
        self.single_class = single_class
        self.suits = suits
        # how many physical cards of this kind the deck holds (2, or 1 for 丁丁/大鬼)
        self.copies = max(len(suits), 1)

    @property
    def points(self) -> int:
        """Point value mod 10 (天牌 12 counts 2, 斧头 11 counts 1, 大鬼 6)."""
        return self.face % 10

    @property
    def class_label(self) -> str:
        """This card's class as the 旋经 names it: 丁丁 and 大鬼 are 杂牌, a class of
        their own that is as small as 下四滥 (黑9 黑8 黑7 小5, which are also 杂牌)."""
        return "杂牌" if self in (Kind.R3, Kind.JK) else self.single_class.label

    @property
    def index(self) -> int:
        """Position in single-card order, 0 for 天牌 … 16 for 大鬼."""
        return _KIND_INDEX[self]

    def __lt__(self, other: Kind) -> bool:
        return self.index < other.index

    # identity hash (members are singletons): kinds key many caches, and Enum's own
    # hash (of the member's name, in Python) was a tenth of a review's time
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Kind.{self.code}"


KINDS: tuple[Kind, ...] = tuple(Kind)
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
_BY_CODE = {kind.code: kind for kind in KINDS}


@dataclass(frozen=True, order=True)
class Card:
    """One physical card: a kind and a suit (``""`` for the big joker)."""

    kind: Kind
    suit: str

    @property
    def label(self) -> str:
        """``♥Q``, ``♠10``, ``JOKER``."""
        return f"{self.suit}{self.kind.rank_label}" if self.suit else self.kind.rank_label

    def __str__(self) -> str:
        return self.label


DECK: tuple[Card, ...] = (
    *(Card(kind, suit) for kind in KINDS for suit in kind.suits),
    Card(Kind.JK, ""),
)


def physical(kinds: Iterable[Kind | Card], used: Iterable[Kind | Card] = ()) -> tuple[Card, ...]:
    """The physical cards to show for ``kinds``: two of one kind are the deck's two
    different cards (天牌 + 天牌 = ♥Q + ♦Q, 小5 + 小5 = ♠5 + ♣5).  ``used`` are cards
    shown beside them (a split's 头 when drawing its 尾); their suits are taken first."""
    taken: dict[Kind, list[str]] = {}

    def pick(x: Kind | Card) -> Card:
        card = x if isinstance(x, Card) else Card(x, _free_suit(x, taken.get(x, [])))
        taken.setdefault(card.kind, []).append(card.suit)
        return card

    for x in used:
        pick(x)
    return tuple(pick(x) for x in kinds)


def _free_suit(kind: Kind, taken: list[str]) -> str:
    suits = list(kind.suits) or [""]
    return next((s for s in suits if s not in taken), suits[0])


def parse_kind(text: str) -> Kind:
    """Parse a kind code (case-insensitive, ``RQ``, ``b10`` …); raise :class:`CardError`."""
    kind = _BY_CODE.get(text.strip().upper())
    if kind is None:
        raise CardError(f"unknown card code {text!r} (use one of {' '.join(_BY_CODE)})")
    return kind


def parse_kinds(codes: Iterable[str]) -> tuple[Kind, ...]:
    """Parse several codes; also accepts one string separated by spaces, commas or '-'."""
    items = [codes] if isinstance(codes, str) else list(codes)
    parts = [p for item in items for p in item.replace(",", " ").replace("-", " ").split()]
    return tuple(parse_kind(p) for p in parts)


def check_available(kinds: Iterable[Kind]) -> None:
    """Raise :class:`CardError` if the kinds use more copies than the deck holds."""
    counts: dict[Kind, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    for kind, n in counts.items():
        if n > kind.copies:
            raise CardError(
                f"{kind.code} ({kind.name_zh}) appears {n} times; the deck holds {kind.copies}"
            )
