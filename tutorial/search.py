"""The pair catalogue and its search index (built once, at import).

Every fact comes from the engine: ranks, categories, points and names
(``engine.groups``, ``engine/data/names.json``).  Nothing here depends on the
request or the language, so the index is shared by every request.

Searching ``q`` (see :func:`search`):

* card codes, one or two, any order, any case: ``RQ B9``, ``b9-rq``, ``rqb9``;
  physical cards: ``♥Q ♠9``, ``♥️Q`` (emoji), ``♡Q``, ``红桃Q``, ``JOKER``; or card names:
  ``天牌 黑9``, ``大鬼``, one English name (``joker``, ``the lone three``) (one kind:
  every group holding it); a card the deck lacks (``♠Q``, ``R9``) is named as such;
* one rank as printed, not a digit (``Q``, ``J``, ``10``): every group holding a card of
  that rank (a digit alone is points, below); ``K`` and ``A`` are named as not in the deck;
* points: ``9点``, ``九点``, ``9``, ``nine points``, ``0点`` / ``皱``;
* Chinese names and aliases, simplified or traditional (``天關九``, ``鴨兒``), digits or
  numerals (``黑9一对`` = ``黑九一对``, ``红10`` = ``红十``), category words (``对子``,
  ``杠``; also by pinyin or English: ``duizi``, ``pair``), the 旋经's classes of pairs
  (``上四对`` …);
* pinyin with or without tones and spaces (``tiān guān jiǔ``, ``tianguanjiu``,
  ``tian1 guan1 jiu3``) and initials (``tgj``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from engine.cards import DECK, KINDS, Kind, SingleClass
from engine.groups import POINT_WORDS, Alias, Category, Group, ranked
from engine.rules import PRESETS, Rules
from tutorial import glossary
from tutorial.four import FourName
from tutorial.four import find as find_four
from tutorial.glossary import Term
from tutorial.search_text import hanzi_key, initials_key, latin_key, simplify

_NUMERALS = {word: i for i, word in enumerate(POINT_WORDS)}

_HAS_HAN = re.compile(r"[\u3400-\u9fff]")

# ---------------------------------------------------------------- catalogue entries

SOURCE_ORDER = ("000", "004", "002", "003")


@dataclass(frozen=True)
class Entry:
    """One group in the catalogue of one rule set."""

    group: Group
    code: str
    name: str  # the traditional name, or e.g. 七点 for the 14 unnamed groups
    named: bool
    pinyin: str
    sources: tuple[str, ...]
    aliases: tuple[Alias, ...]
    category: Category
    tier: str  # see TIER_ORDER
    points: int  # (sum of points) mod 10, whatever the category
    rank: int  # engine rank: 1 = 皱, larger is stronger
    position: int  # 第 N 大: 1 + number of strictly stronger groups
    ties: int  # how many groups share this rank (itself included)
    hanzi: tuple[str, ...] = field(repr=False)
    latin: tuple[str, ...] = field(repr=False)
    initials: tuple[str, ...] = field(repr=False)

    @property
    def kinds(self) -> tuple[Kind, Kind]:
        return self.group.kinds


def tier_of(group: Group, rules: Rules) -> str:
    category = group.category(rules)
    if category in (Category.TIANGANG, Category.DIGANG):
        return "gang"
    if category is Category.POINTS:
        return f"points-{group.points}"
    return str(category.value)


TIER_ORDER: tuple[str, ...] = (
    "dingerhuang",
    "pair",
    "tianjiuwang",
    "diwang",
    "gang",
    *(f"points-{n}" for n in range(9, 0, -1)),
    "zhou",
)


def _entry(group: Group, rules: Rules, stronger: int, ties: int) -> Entry:
    names = group.names()
    hanzi = [group.display_name(), *(a.name for a in names.aliases)]
    pinyins = [names.pinyin or "", *(a.pinyin for a in names.aliases)]
    traditional = [names.traditional or "", *(a.traditional for a in names.aliases)]
    return Entry(
        group=group,
        code=group.code,
        name=group.display_name(),
        named=names.name is not None,
        pinyin=names.pinyin or f"{glossary.POINT_PINYIN[group.points]} diǎn",
        sources=tuple(sorted(names.sources, key=SOURCE_ORDER.index)),
        aliases=names.aliases,
        category=group.category(rules),
        tier=tier_of(group, rules),
        points=group.points,
        rank=group.rank(rules),
        position=stronger + 1,
        ties=ties,
        hanzi=tuple(dict.fromkeys(hanzi_key(h) for h in hanzi + traditional if h)),
        latin=tuple(dict.fromkeys(latin_key(p) for p in pinyins if p)),
        initials=tuple(dict.fromkeys(initials_key(p) for p in pinyins if p)),
    )


class Catalogue:
    """All 151 groups of one rule set, strongest first, with lookups."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        groups = ranked(rules)
        counts: dict[int, int] = {}
        for g in groups:
            counts[g.rank(rules)] = counts.get(g.rank(rules), 0) + 1
        entries = []
        stronger = 0
        for i, g in enumerate(groups):
            if i and g.rank(rules) != groups[i - 1].rank(rules):
                stronger = i
            entries.append(_entry(g, rules, stronger, counts[g.rank(rules)]))
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.by_code: dict[str, Entry] = {e.code: e for e in self.entries}
        self.by_rank: dict[int, tuple[Entry, ...]] = {}
        for e in self.entries:
            self.by_rank[e.rank] = (*self.by_rank.get(e.rank, ()), e)
        self.tiers: tuple[str, ...] = tuple(t for t in TIER_ORDER if self.tier(t))
        self._suggest_words = sorted({w for e in self.entries for w in _display_words(e)})
        self._latin_words = {key: e.name for e in self.entries for key in e.latin}

    def tier(self, tier: str) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.tier == tier)

    def stronger_neighbours(self, entry: Entry) -> tuple[Entry, ...]:
        """The groups at the nearest stronger rank (empty for the strongest)."""
        return self.by_rank.get(entry.rank + 1, ())

    def weaker_neighbours(self, entry: Entry) -> tuple[Entry, ...]:
        return self.by_rank.get(entry.rank - 1, ())

    def tied_with(self, entry: Entry) -> tuple[Entry, ...]:
        return tuple(e for e in self.by_rank[entry.rank] if e is not entry)

    def points_groups(self, points: int) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.tier == f"points-{points}")

    def suggest(self, query: str, n: int = 5) -> list[str]:
        """Names close to a query that found nothing."""
        key = hanzi_key(query)
        if _HAS_HAN.search(simplify(query)):
            return difflib.get_close_matches(key, self._suggest_words, n=n, cutoff=0.34)
        latin = latin_key(query)
        if not latin:
            return []
        close = difflib.get_close_matches(latin, list(self._latin_words), n=n, cutoff=0.6)
        return list(dict.fromkeys(self._latin_words[c] for c in close))


def _display_words(entry: Entry) -> Iterable[str]:
    if entry.named:
        yield entry.name
    yield from (a.name for a in entry.aliases)


CATALOGUES: dict[str, Catalogue] = {name: Catalogue(rules) for name, rules in PRESETS.items()}

# ---------------------------------------------------------------- search

# Card words beyond the engine's names: 鬼 alone, for 大鬼.
EXTRA_KIND_WORDS: dict[str, Kind] = {"鬼": Kind.JK}
_KIND_WORDS: dict[str, Kind] = {}
for _kind in KINDS:
    for _word in (_kind.code, _kind.name_zh, *_kind.nicknames):
        _KIND_WORDS.setdefault(hanzi_key(_word), _kind)
        _KIND_WORDS.setdefault(simplify(_word), _kind)
for _word, _kind in EXTRA_KIND_WORDS.items():
    _KIND_WORDS.setdefault(hanzi_key(_word), _kind)


def english_words(text: str) -> str:
    """Lower-case Latin words, single spaces, without a leading "the": ``The Lone Three``
    → ``lone three``."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower())).removeprefix("the ")


# English card names, on any site: each card's gloss on the English pages (/cards/:
# "big ghost", "the lone three", "axe") and the words the English pages use for 大鬼 (the
# physical card is the joker).
EXTRA_ENGLISH_KIND_WORDS: dict[str, Kind] = {"joker": Kind.JK, "ghost": Kind.JK}
ENGLISH_KIND_WORDS: dict[str, Kind] = {
    **{english_words(glossary.card_name(k.code)[1]): k for k in KINDS},
    **EXTRA_ENGLISH_KIND_WORDS,
}
# Two ranks as printed on the cards ("Q9", "10 8", "j10"): every group of a card of the
# first rank with a card of the second, whatever their colours.
_RANKS: dict[str, tuple[Kind, ...]] = {}
for _kind in KINDS:
    if _kind is not Kind.JK:
        _RANKS[_kind.rank_label.lower()] = (*_RANKS.get(_kind.rank_label.lower(), ()), _kind)
_RANK_PAIR_RE = re.compile(r"^(10|[2-9]|[jq])\s*[,，、+/-]?\s*(10|[2-9]|[jq])$")
# One rank alone: a letter or 10 (a digit alone means points); K and A are no card here.
_LONE_RANK_RE = re.compile(r"^(10|[jq])$")
_ABSENT_RANK_RE = re.compile(r"^[ka]$")
_CODES = sorted((k.code.lower() for k in KINDS), key=len, reverse=True)
_CODES_RE = re.compile(rf"(?:{'|'.join(_CODES)})")
_CODES_ONLY_RE = re.compile(rf"^(?:(?:{'|'.join(_CODES)})[\s,，、+/-]*){{1,2}}$")
_POINTS_RE = re.compile(r"^([0-9])\s*(?:点|點|pts?|points?)?$|^([零一二三四五六七八九])\s*[点點]$")
_ENGLISH_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                    "nine")
_ENGLISH_POINTS_RE = re.compile(rf"^({'|'.join(_ENGLISH_NUMBERS)})\s+points?$")
_SEPARATORS = re.compile(r"[\s,，、+＋/-]+")
# Physical cards as printed (♥q → RQ, joker → JK), and the Chinese suit names (红桃Q).
_SUITED = {c.label.lower(): c.kind for c in DECK}
_SUITED_RE = re.compile("|".join(sorted(map(re.escape, _SUITED), key=len, reverse=True)))
_SUIT_NAMES = re.compile(r"(红桃|红心|方块|方片|黑桃|梅花|草花)\s*(?=10|[2-9jqka])")
_SUIT_SIGNS = {"红桃": "♥", "红心": "♥", "方块": "♦", "方片": "♦", "黑桃": "♠", "梅花": "♣",
               "草花": "♣"}
# What only a card can look like: a suit and a rank, or a code's colour letter and a rank.
# (no "ba": that is pinyin).
_CARD_LIKE = re.compile(r"^(?:[♥♦♠♣](?:10|[2-9jqka])|[rb](?:10|[2-9jq]))$")

CATEGORY_WORDS: dict[str, frozenset[Category]] = {
    hanzi_key(word): frozenset(cats)
    for word, cats in (
        ("丁二皇", [Category.DINGERHUANG]),
        ("对子", [Category.PAIR]),
        ("一对", [Category.PAIR]),
        ("天九王", [Category.TIANJIUWANG]),
        ("地王", [Category.DIWANG]),
        ("杠", [Category.TIANGANG, Category.DIGANG]),
        ("天杠", [Category.TIANGANG]),
        ("地杠", [Category.DIGANG]),
        ("皱", [Category.ZHOU]),
    )
}

# The 旋经's classes of pairs (上四对: 天对 to 和对; 中三对; 下腰对; 下四滥对): the codes
# of the pairs whose kind is in that class.
_TOP_FOUR = (SingleClass.TIAN, SingleClass.DI, SingleClass.REN, SingleClass.HE)
PAIR_CLASS_WORDS: dict[str, frozenset[str]] = {
    hanzi_key(word): frozenset(Group.of(k, k).code for k in KINDS
                               if k.copies > 1 and k.single_class in classes)
    for word, classes in (("上四对", _TOP_FOUR), ("中三对", (SingleClass.ZHONGSAN,)),
                          ("下腰对", (SingleClass.XIAYAO,)), ("下四滥对", (SingleClass.ZA,)))
}

# Filter values of the catalogue form (GET ``cat``).
FILTER_CATEGORIES: dict[str, frozenset[Category]] = {
    "dingerhuang": frozenset({Category.DINGERHUANG}),
    "pair": frozenset({Category.PAIR}),
    "tianjiuwang": frozenset({Category.TIANJIUWANG}),
    "diwang": frozenset({Category.DIWANG}),
    "gang": frozenset({Category.TIANGANG, Category.DIGANG}),
    "points": frozenset({Category.POINTS}),
    "zhou": frozenset({Category.ZHOU}),
}


@dataclass(frozen=True)
class SearchResult:
    entries: tuple[Entry, ...]
    mode: str  # "all", "cards", "points", "hanzi", "pinyin", "none"
    kinds: tuple[Kind, ...] = ()  # for mode "cards"
    points: int | None = None  # for mode "points"
    impossible: bool = False  # e.g. R3 R3: the deck has one 丁丁
    not_cards: tuple[str, ...] = ()  # e.g. ♠Q, R9: written as cards, not in the 32
    suggestions: tuple[str, ...] = ()
    four: tuple[FourName, ...] = ()  # four-card hand names (/pairs/four/) that match
    terms: tuple[Term, ...] = ()  # rule words (glossary) the query names


def rank_pair_codes(query: str) -> frozenset[str] | None:
    """``Q9`` → the codes of every group of a Q with a 9 (None if it is no rank pair)."""
    match = _RANK_PAIR_RE.match(simplify(query))
    if not match:
        return None
    codes = set()
    for a in _RANKS[match.group(1)]:
        for b in _RANKS[match.group(2)]:
            try:
                codes.add(Group.of(a, b).code)
            except ValueError:  # 丁丁 has no pair
                continue
    return frozenset(codes)


def lone_rank_codes(query: str) -> frozenset[str] | None:
    """``Q`` → the codes of every group holding a Q (None if the query is no lone rank)."""
    match = _LONE_RANK_RE.match(simplify(query))
    if not match:
        return None
    kinds = _RANKS[match.group(1)]
    return frozenset(e.code for e in CATALOGUES["xuanjing"].entries
                     if any(k in kinds for k in e.kinds))


@cache
def english_glosses() -> dict[str, tuple[str, ...]]:
    """Each named group's English glosses (``天九王`` → "heaven nine king" …), lower case
    words, from the pair-name catalog (context "pair name gloss")."""
    from django.utils import translation

    glosses: dict[str, tuple[str, ...]] = {}
    with translation.override("en"):
        for entry in CATALOGUES["xuanjing"].entries:
            words = []
            for name in (entry.name, *(a.name for a in entry.aliases)):
                text = translation.pgettext("pair name gloss", name)
                if text != name:
                    words.append(" ".join(re.findall(r"[a-z0-9]+", text.lower())))
            glosses[entry.code] = tuple(words)
    return glosses


def _gloss_matches(entry: Entry, query: str) -> bool:
    words = english_words(query)
    return len(words) >= 3 and any(f" {words}" in f" {g}" for g in english_glosses()[entry.code])


def find_terms(query: str) -> tuple[Term, ...]:
    """Glossary terms a query names: the Chinese word (or a form of it), its pinyin
    (``duizi``), or on any site the English word (``mango``)."""
    key = hanzi_key(query)
    words = " ".join(re.findall(r"[a-z]+", query.lower()))
    latin = "" if _HAS_HAN.search(query) else latin_key(query)
    found = []
    for term in glossary.terms():
        if key in {hanzi_key(w) for w in (term.zh, *term.forms)} or (
            len(words) >= 3 and words == term.en.lower()
        ) or (len(latin) >= 3 and latin == latin_key(term.pinyin)):
            found.append(term)
    return tuple(found)


def _physical(query: str) -> str:
    """The query with each physical card written as its code (``红桃Q ♠9`` → ``rq b9``)."""
    text = _SUIT_NAMES.sub(lambda m: _SUIT_SIGNS[m[1]], simplify(query))
    return _SUITED_RE.sub(lambda m: f" {_SUITED[m[0]].code.lower()} ", text).strip()


def not_cards(query: str) -> tuple[str, ...]:
    """The words of a query written as cards that are none of the 32 (``♠Q``: the deck's
    queens are red; ``R9``: its nines black), when every word looks like a card."""
    words = [w for w in _SEPARATORS.split(_physical(query)) if w]
    if not all(_CARD_LIKE.match(w) or w in _KIND_WORDS for w in words):
        return ()
    return tuple(w.upper() for w in words if w not in _KIND_WORDS)


def parse_card_query(query: str) -> tuple[Kind, ...] | None:
    """One or two kinds from codes (``RQ B9``, ``rqb9``), physical cards (``♥Q ♦7``,
    ``红桃Q``, ``joker``) or card names (``天牌 黑9``)."""
    text = _physical(query)
    if not text:
        return None
    compact = re.sub(r"[\s,，、+/-]+", "", text)
    if _CODES_ONLY_RE.match(text) or _CODES_ONLY_RE.match(compact):
        codes = _CODES_RE.findall(compact)
        if 1 <= len(codes) <= 2:
            return tuple(_KIND_WORDS[c] for c in codes)
    words = [w for w in _SEPARATORS.split(text) if w]
    if 1 <= len(words) <= 2 and all(hanzi_key(w) in _KIND_WORDS for w in words):
        return tuple(_KIND_WORDS[hanzi_key(w)] for w in words)
    english = ENGLISH_KIND_WORDS.get(english_words(simplify(query)))
    return None if english is None else (english,)


def parse_points_query(query: str) -> int | None:
    """``9``, ``9点``, ``九点``, ``9 points``, ``nine points``: the points, else None."""
    text = simplify(query)
    english = _ENGLISH_POINTS_RE.match(text)
    if english:
        return _ENGLISH_NUMBERS.index(english.group(1))
    match = _POINTS_RE.match(text)
    if not match:
        return None
    return int(match.group(1)) if match.group(1) else _NUMERALS[match.group(2)]


def _filtered(
    entries: Iterable[Entry], categories: frozenset[Category] | None, points: int | None
) -> tuple[Entry, ...]:
    return tuple(
        e
        for e in entries
        if (categories is None or e.category in categories)
        and (points is None or (e.points == points and e.category in _POINT_CATEGORIES))
    )


_POINT_CATEGORIES = frozenset({Category.POINTS, Category.ZHOU})


def search(
    catalogue: Catalogue,
    query: str = "",
    category: str | None = None,
    points: int | None = None,
) -> SearchResult:
    """Find groups; ``category`` is a key of :data:`FILTER_CATEGORIES`, ``points`` 0–9."""
    cats = FILTER_CATEGORIES.get(category or "")
    every = catalogue.entries
    query = query.strip()
    if not query:
        return SearchResult(_filtered(every, cats, points), "all")

    terms = find_terms(query)
    ranks = rank_pair_codes(query)
    if ranks is not None:
        return SearchResult(_filtered((e for e in every if e.code in ranks), cats, points),
                            "cards")

    lone = lone_rank_codes(query)
    if lone is not None:
        return SearchResult(_filtered((e for e in every if e.code in lone), cats, points),
                            "cards")
    if _ABSENT_RANK_RE.match(simplify(query)):
        return SearchResult((), "cards", not_cards=(query.strip().upper(),))

    missing = not_cards(query)
    if missing:
        return SearchResult((), "cards", not_cards=missing)

    kinds = parse_card_query(query)
    if kinds is not None:
        if len(kinds) == 2:
            try:
                code = Group.of(*kinds).code
            except ValueError:
                return SearchResult((), "cards", kinds, impossible=True)
            found: Sequence[Entry] = [catalogue.by_code[code]]
        else:
            found = [e for e in every if kinds[0] in e.kinds]
        return SearchResult(_filtered(found, cats, points), "cards", kinds)

    wanted = parse_points_query(query)
    if wanted is not None:
        found = [e for e in every if e.points == wanted and e.category in _POINT_CATEGORIES]
        result = _filtered(found, cats, points)
        return SearchResult(result, "points", points=wanted)

    key = hanzi_key(query)
    if _HAS_HAN.search(simplify(query)):
        by_category = CATEGORY_WORDS.get(key, frozenset())
        by_class = PAIR_CLASS_WORDS.get(key, frozenset())
        found = [e for e in every if e.category in by_category or e.code in by_class
                 or any(key in h for h in e.hanzi)]
        mode = "hanzi"
    else:
        latin = latin_key(query)
        # a rule word by its pinyin or English (duizi, pair, zhou, zero): its groups too
        by_category = frozenset().union(
            *(CATEGORY_WORDS.get(hanzi_key(t.zh), frozenset()) for t in terms))
        found = (
            [
                e
                for e in every
                if e.category in by_category
                or any(latin in p for p in e.latin)
                or (len(latin) >= 2 and any(i.startswith(latin) for i in e.initials))
                or _gloss_matches(e, query)
            ]
            if latin
            else []
        )
        mode = "pinyin"
    result = _filtered(found, cats, points)
    four = find_four(key, "") if mode == "hanzi" else find_four("", latin_key(query))
    if not result:
        return SearchResult((), "none", suggestions=tuple(catalogue.suggest(query)), four=four,
                            terms=terms)
    return SearchResult(result, mode, four=four, terms=terms)


def catalogue_for(rules_name: str) -> Catalogue:
    return CATALOGUES.get(rules_name, CATALOGUES["xuanjing"])


__all__ = [
    "CATALOGUES",
    "FILTER_CATEGORIES",
    "TIER_ORDER",
    "Catalogue",
    "Entry",
    "SearchResult",
    "catalogue_for",
    "search",
    "simplify",
]
