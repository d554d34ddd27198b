"""串牌 (squeeze): what each stage of a slow reveal shows, and which cards are still possible.

The fourth card is dealt face down and each player pushes it out from under a cover a
little at a time.  The 旋经 names four ways of doing it:

- **串头子** (:attr:`Way.HEAD`): the cover slides down from the top; the corner index
  appears stroke by stroke: the shape of its head (圆头, 尖头, 平头 …), whether a round head
  breaks (左断, 右断), then the whole index (弯边, 拱背子, 鸭儿 …).
- **串花子** (:attr:`Way.ROWS`, 排花): the cover slides sideways; first the side column of
  pips shows how many rows (排) it has, then the middle column.
- **串路子** (:attr:`Way.LANES`): the cover slides up from the bottom; the pips show how many
  columns (路) they stand in, and a middle pip that shows up late ("吐得很晚") is a clue too.
- **串边子** (:attr:`Way.EDGE`): from the bottom right corner; a court card shows the
  edge of its picture frame (有边), then its colour (红了).

组合串 is any mix of these: the cards still possible are those that agree with every
reveal.  A reveal at depth *d* means every shallower stage of the same way was seen too.

Everything here is pure data and functions of (physical card, way, depth).  Clue labels
are Chinese (the site translates them); ``source`` says whether the 旋经 (``"000"``)
names the clue or it is our own description of the drawn cards (``"ours"``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from .cards import DECK, KINDS, Card, CardError, Kind

__all__ = [
    "CLUES", "DEPTHS", "PIPS", "SEED_CLAIMS", "STAGE_LABELS", "Clue", "Reveal", "SeedClaim",
    "Sight", "Way", "parse_reveal", "possible", "showing", "sight", "sight_table", "sights",
]


class Way(StrEnum):
    HEAD = "head"  # 串头子
    ROWS = "rows"  # 串花子 (排花)
    LANES = "lanes"  # 串路子
    EDGE = "edge"  # 串边子

    @property
    def label(self) -> str:
        return _WAY_LABELS[self]


_WAY_LABELS = {Way.HEAD: "串头子", Way.ROWS: "串花子", Way.LANES: "串路子", Way.EDGE: "串边子"}

DEPTHS: dict[Way, int] = {Way.HEAD: 3, Way.ROWS: 2, Way.LANES: 3, Way.EDGE: 2}

# The stage names, per way and depth (shown above each drawing).
STAGE_LABELS: dict[tuple[Way, int], str] = {
    (Way.HEAD, 1): "字头刚露出一点",
    (Way.HEAD, 2): "看得出笔画断不断",
    (Way.HEAD, 3): "整个角都露出来",
    (Way.ROWS, 1): "露出边上一竖排花",
    (Way.ROWS, 2): "推到中间一竖",
    (Way.LANES, 1): "露出最下面一行",
    (Way.LANES, 2): "推到一半",
    (Way.LANES, 3): "推到顶",
    (Way.EDGE, 1): "右下角露出一条边",
    (Way.EDGE, 2): "看得出颜色",
}


@dataclass(frozen=True)
class Clue:
    key: str  # the label shown (Chinese), also the key of :data:`CLUES`
    way: Way
    meaning: str  # one sentence: what it tells
    source: str  # "000" (the 旋经 names it) or "ours"


def _clues(*rows: tuple[str, Way, str, str]) -> dict[str, Clue]:
    return {key: Clue(key, way, meaning, source) for key, way, meaning, source in rows}


CLUES: dict[str, Clue] = _clues(
    ("圆头", Way.HEAD, "字头是一道圆弧：Q、9、8、6、2 都是圆头。", "000"),
    ("尖头", Way.HEAD, "字头是尖的：只有 4（红的是和牌，所以和牌又叫火箭）。", "000"),
    ("平头", Way.HEAD, "字头是一小段平横：5 和 3（小黑平头是小5，小红平头是丁丁）。", "000"),
    ("长横头", Way.HEAD, "字头是一长横：只有 7。", "ours"),
    ("竖头", Way.HEAD, "字头是一竖，旁边没有别的笔画：J，还有大鬼竖写的 JOKER。", "ours"),
    ("圆不断", Way.HEAD, "圆头的笔画连着不断：Q、9、8。", "000"),
    ("左断", Way.HEAD, "圆头在左边断开：2（红的就是地牌）。", "000"),
    ("右断", Way.HEAD, "圆头在右边断开：6（红的猫猫、黑的长三）。", "000"),
    ("带圈", Way.HEAD, "竖的旁边还有一个圈：是 10（一露头就看得见圈顶）。", "ours"),
    ("单竖", Way.HEAD, "只有一竖，旁边没有圈：J 或大鬼。", "ours"),
    ("Q", Way.HEAD, "大圆下面拖一条尾巴：Q。", "ours"),
    ("弯边", Way.HEAD, "圆头再往下，长边是弯的：9。黑9 因此也被叫作弯边。", "000"),
    ("小圆头", Way.HEAD, "圆头小，下面又是一个圈：8。", "000"),
    ("拱背子", Way.HEAD, "背有点弯，像人驼背，但没有 9 弯得厉害：6。", "000"),
    ("鸭儿", Way.HEAD, "开始像 8，随后左边断开，整个字像只鸭子：2。地牌因此又叫鸭儿。", "000"),
    ("4", Way.HEAD, "整个角露出来：4。", "ours"),
    ("5", Way.HEAD, "整个角露出来：5。", "ours"),
    ("3", Way.HEAD, "整个角露出来：3。", "ours"),
    ("7", Way.HEAD, "整个角露出来：7。", "ours"),
    ("10", Way.HEAD, "整个角露出来：10。", "ours"),
    ("J", Way.HEAD, "整个角露出来：J。", "ours"),
    ("JOKER", Way.HEAD, "整个角露出来：竖写的 JOKER，大鬼。", "ours"),
    ("无花", Way.ROWS, "边上一竖没有花：2 和 3 的花都在正中间。", "000"),
    ("两排", Way.ROWS, "边上一竖两朵花：4 或 5。", "000"),
    ("三排", Way.ROWS, "边上一竖三朵花：6、7 或 8。", "000"),
    ("四排", Way.ROWS, "边上一竖四朵花：9 或 10。", "000"),
    ("画", Way.ROWS, "没有花，是一幅画：J、Q 或大鬼。", "ours"),
    ("中间没有花", Way.ROWS, "中间一竖是空的：4 或 6。", "ours"),
    ("中间一朵", Way.ROWS, "中间一竖只有一朵：5、7 或 9。", "ours"),
    ("中间两朵", Way.ROWS, "中间一竖两朵：2、8 或 10。", "ours"),
    ("中间三朵", Way.ROWS, "中间一竖三朵：3。", "ours"),
    ("人头", Way.ROWS, "画有边框：J 或 Q。", "ours"),
    ("大鬼画", Way.ROWS, "一颗星、没有边框：大鬼。", "ours"),
    ("单路", Way.LANES, "花只站一路（正中间）：2 或 3。", "000"),
    ("两路", Way.LANES, "花站两路（左右两边），中间没有花。", "000"),
    ("三路", Way.LANES, "中间也有花，一共三路。", "000"),
    ("有边", Way.EDGE, "露出一条画框的边：人头牌，天牌或斧头。", "000"),
    ("没边", Way.EDGE, "没有画框：不是天牌，也不是斧头。", "ours"),
    ("红了", Way.EDGE, "边是红的：天牌（斧头是黑的）。", "000"),
    ("黑边", Way.EDGE, "边是黑的：斧头。", "ours"),
)

# Head of the corner index, per rank label: (depth 1 shape, depth 2 stroke, depth 3 whole).
_HEAD: dict[str, tuple[str, str, str]] = {
    "Q": ("圆头", "圆不断", "Q"),
    "9": ("圆头", "圆不断", "弯边"),
    "8": ("圆头", "圆不断", "小圆头"),
    "6": ("圆头", "右断", "拱背子"),
    "2": ("圆头", "左断", "鸭儿"),
    "4": ("尖头", "尖头", "4"),
    "5": ("平头", "平头", "5"),
    "3": ("平头", "平头", "3"),
    "7": ("长横头", "长横头", "7"),
    "10": ("带圈", "带圈", "10"),  # the 0 beside the 1 shows from the first stage
    "J": ("竖头", "单竖", "J"),
    "JOKER": ("竖头", "单竖", "JOKER"),
}

# Pips of the number cards: (column 1-3, row 0-12), row 0 at the top.  The card drawings
# use this layout too ({% card %} in tutorial/templatetags/cards.py), so what a squeeze
# reveals is what the drawn card shows.
PIPS: dict[str, tuple[tuple[int, int], ...]] = {
    "2": ((2, 0), (2, 12)),
    "3": ((2, 0), (2, 6), (2, 12)),
    "4": ((1, 0), (3, 0), (1, 12), (3, 12)),
    "5": ((1, 0), (3, 0), (2, 6), (1, 12), (3, 12)),
    "6": ((1, 0), (3, 0), (1, 6), (3, 6), (1, 12), (3, 12)),
    "7": ((1, 0), (3, 0), (2, 3), (1, 6), (3, 6), (1, 12), (3, 12)),
    "8": ((1, 0), (3, 0), (2, 3), (1, 6), (3, 6), (2, 9), (1, 12), (3, 12)),
    "9": ((1, 0), (3, 0), (1, 4), (3, 4), (2, 6), (1, 8), (3, 8), (1, 12), (3, 12)),
    "10": ((1, 0), (3, 0), (2, 2), (1, 4), (3, 4), (1, 8), (3, 8), (2, 10), (1, 12), (3, 12)),
}

_ROW_COUNT = {0: "无花", 2: "两排", 3: "三排", 4: "四排"}
_MIDDLE_COUNT = {0: "中间没有花", 1: "中间一朵", 2: "中间两朵", 3: "中间三朵"}
_LANE_COUNT = {1: "单路", 2: "两路", 3: "三路"}
# 串路子: pushing up from the bottom, depth d shows the pips on rows >= this.
_LANES_FROM = {1: 10, 2: 6, 3: 0}


@dataclass(frozen=True)
class Sight:
    """What one stage of one way shows: the clue, and the colour / suit once visible."""

    way: Way
    depth: int
    clue: str  # a key of :data:`CLUES`
    colour: str | None  # "红" / "黑", or None while it cannot be told
    suit: str | None  # "♥" "♦" "♠" "♣" when pips are in view
    # 串路子 past the bottom row: the pips in view, (column, row) — a 4 pushed halfway
    # shows two, a 6 or a 7 four, though all stand in two columns; () otherwise
    pips: tuple[tuple[int, int], ...] = ()

    @property
    def text(self) -> str:
        """The sight in a few characters, e.g. "红圆头", "♦ 无花", "♥ 两路，露出 4 朵", "有边"."""
        if self.pips:
            return f"{self.suit} {self.clue}，露出 {len(self.pips)} 朵"
        if self.suit:
            return f"{self.suit} {self.clue}"
        if self.clue in ("红了", "黑边"):
            return self.clue
        return f"{self.colour or ''}{self.clue}"


Reveal = tuple[Way, int]


def _colour(kind: Kind) -> str:
    return "红" if kind.color == "red" else "黑"


@cache
def sight(card: Card, way: Way, depth: int) -> Sight:
    """What ``card`` shows at ``depth`` of ``way``; raise :class:`CardError` on a bad depth."""
    if not 1 <= depth <= DEPTHS[way]:
        raise CardError(f"{way.value} has depths 1 to {DEPTHS[way]}, not {depth}")
    kind, rank = card.kind, card.kind.rank_label
    colour = _colour(kind)
    pips = PIPS.get(rank)
    if way is Way.HEAD:
        return Sight(way, depth, _HEAD[rank][depth - 1], colour, None)
    if way is Way.EDGE:
        clue = "有边" if rank in ("J", "Q") else "没边"
        if depth == 1:
            return Sight(way, 1, clue, None, None)
        return Sight(way, 2, {"有边": "红了" if colour == "红" else "黑边"}.get(clue, clue),
                     colour, None)
    if pips is None:  # J, Q, the joker: a picture, no pips
        if depth == 1:
            return Sight(way, 1, "画", colour, None)
        return Sight(way, depth, "大鬼画" if kind is Kind.JK else "人头", colour, None)
    suit = card.suit or None
    if way is Way.ROWS:
        if depth == 1:
            return Sight(way, 1, _ROW_COUNT[sum(c == 1 for c, _ in pips)], colour, suit)
        return Sight(way, 2, _MIDDLE_COUNT[sum(c == 2 for c, _ in pips)], colour, suit)
    shown = tuple(pip for pip in pips if pip[1] >= _LANES_FROM[depth])
    return Sight(way, depth, _LANE_COUNT[len({c for c, _ in shown})], colour, suit,
                 shown if depth > 1 else ())


@cache
def sights(card: Card, way: Way, depth: int) -> tuple[Sight, ...]:
    """Every stage of ``way`` up to ``depth``: pushing further means the earlier stages were
    seen too."""
    return tuple(sight(card, way, d) for d in range(1, depth + 1))


def parse_reveal(text: str) -> Reveal:
    """``"head-2"`` → ``(Way.HEAD, 2)``; raise :class:`CardError`."""
    name, _, depth = text.strip().partition("-")
    try:
        way = Way(name)
    except ValueError:
        raise CardError(f"unknown squeeze way {name!r}") from None
    if not depth.isdecimal() or not 1 <= int(depth) <= DEPTHS[way]:
        raise CardError(f"{way.value} has depths 1 to {DEPTHS[way]}, not {depth!r}")
    return way, int(depth)


def _agrees(other: Card, card: Card, reveals: Sequence[Reveal]) -> bool:
    return all(sights(other, w, d) == sights(card, w, d) for w, d in reveals)


def possible(card: Card, reveals: Sequence[Reveal],
             seen: Iterable[Kind] = ()) -> tuple[Kind, ...]:
    """The kinds ``card`` may still be after ``reveals`` (组合串: all of them), strongest
    first.  ``seen``: cards already in view elsewhere (the player's own, the face-up
    cards), so a kind whose every copy is in view drops out."""
    used = Counter(seen)
    return tuple(k for k in _possible(card, tuple(reveals))
                 if used[k] < k.copies or k is card.kind)


@cache
def _possible(card: Card, reveals: tuple[Reveal, ...]) -> tuple[Kind, ...]:
    return tuple(k for k in KINDS
                 if any(c.kind is k and _agrees(c, card, reveals) for c in DECK))


def sight_table(way: Way, depth: int) -> tuple[tuple[Sight, tuple[Kind, ...]], ...]:
    """Every distinct sight at this stage (colour and suit aside) with the kinds that show it,
    in the order of :data:`CLUES` then red before black: the page's reference tables."""
    groups: dict[tuple[str, str | None], list[Kind]] = {}
    first: dict[tuple[str, str | None], Sight] = {}
    for card in DECK:
        s = sight(card, way, depth)
        key = (s.clue, s.colour)
        first.setdefault(key, Sight(way, depth, s.clue, s.colour, None))
        if card.kind not in groups.setdefault(key, []):
            groups[key].append(card.kind)
    order = list(CLUES)
    keys = sorted(groups, key=lambda k: (order.index(k[0]), k[1] != "红"))
    return tuple((first[k], tuple(sorted(groups[k]))) for k in keys)


def showing(s: Sight) -> tuple[Kind, ...]:
    """The kinds that can show this one sight (its suit only counts when it is set)."""
    def same(c: Card) -> bool:
        other = sight(c, s.way, s.depth)
        return (other.clue, other.colour) == (s.clue, s.colour) and s.suit in (None, other.suit)

    return tuple(sorted({c.kind for c in DECK if same(c)}))


@dataclass(frozen=True)
class SeedClaim:
    """One squeeze rule of thumb as the 旋经 words it, and the kinds it names, beside the
    kinds that really show that sight (:attr:`engine_kinds`)."""

    words: str  # the clue as the source says it, e.g. "黑四排"
    kinds: tuple[Kind, ...]  # the kinds the source names
    sight: Sight

    @property
    def engine_kinds(self) -> tuple[Kind, ...]:
        return showing(self.sight)


def _claim(words: str, kinds: str, card: str, way: Way, depth: int,
           by_suit: bool = False) -> SeedClaim:
    code, suit = card.split(":")
    s = sight(Card(Kind[code], suit), way, depth)
    if not by_suit:
        s = Sight(s.way, s.depth, s.clue, s.colour, None)
    return SeedClaim(words, tuple(Kind[k] for k in kinds.split()), s)


SEED_CLAIMS: tuple[SeedClaim, ...] = (
    _claim("红圆头", "RQ R8 R6 R2", "RQ:♥", Way.HEAD, 1),
    _claim("红圆不断", "RQ R8", "RQ:♥", Way.HEAD, 2),
    _claim("黑圆不断", "B9 B8", "B9:♠", Way.HEAD, 2),
    _claim("黑圆右断", "B6", "B6:♠", Way.HEAD, 2),
    _claim("红圆右断", "R6", "R6:♥", Way.HEAD, 2),
    _claim("红圆左断", "R2", "R2:♥", Way.HEAD, 2),
    _claim("黑尖头", "B4", "B4:♠", Way.HEAD, 1),
    _claim("红尖头", "R4", "R4:♥", Way.HEAD, 1),
    _claim("弯边", "B9", "B9:♠", Way.HEAD, 3),
    _claim("小黑平头", "B5", "B5:♠", Way.HEAD, 1),
    _claim("小红平头", "R3", "R3:♥", Way.HEAD, 1),
    _claim("黑四排", "B9 B10", "B9:♠", Way.ROWS, 1),
    _claim("红三排", "R8 R7 R6", "R8:♥", Way.ROWS, 1),
    _claim("红桃无花", "R2 R3", "R2:♥", Way.ROWS, 1, by_suit=True),
    _claim("方块无花", "R2", "R2:♦", Way.ROWS, 1, by_suit=True),
    _claim("黑两排", "B4 B5", "B4:♠", Way.ROWS, 1),
    _claim("黑两路", "B4 B5", "B4:♠", Way.LANES, 1),
    _claim("红单路", "R2 R3", "R2:♥", Way.LANES, 1),
    _claim("红三路", "R7 R8", "R8:♥", Way.LANES, 3),
    _claim("红两路", "R4 R6 R7", "R4:♥", Way.LANES, 2),
    _claim("有边", "RQ BJ", "RQ:♥", Way.EDGE, 1),
    _claim("红了", "RQ", "RQ:♥", Way.EDGE, 2),
)
