"""Quiz questions: pure generators and checkers (no Django).

Every quiz kind is a row of :data:`QUIZZES`: a slug, a number of levels, a
generator ``(seed, level, rules, focus) -> Question`` and a checker
``(question, answer, rules) -> Verdict``.  A generator is a pure function of its
arguments, so ``/quiz/bigger/?seed=123&level=2`` is the same question for every
visitor and every test.  A checker never trusts anything but the answer fields:
the server regenerates the question from (kind, seed, level, focus) and checks
the raw form values against it; malformed values raise :class:`QuizError`.

Feedback is structured data (groups with their category, points, rank, the
deciding card …), not sentences: the site words it in each language.

Review items (for spaced repetition) are strings ``"rank:<group code>"`` (where
a group ranks: 哪个大 and 排顺序) and ``"name:<group code>"`` (what a group is
called: 叫什么 and 是哪组).  A verdict lists the items its question exercised and
whether each was answered right; a review question is generated with
``focus=<item>``, which puts that group at the centre of the question.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from itertools import pairwise

from . import squeeze as sq
from .advisor import advise
from .cards import DECK, KINDS, Card, CardError, Kind, SingleClass, check_available, parse_kind
from .groups import ALL_GROUPS, Category, Group
from .hands import Outcome, Split, naive_split, sanhua, splits
from .numbers import NumberError, parse_int
from .rules import Rules
from .settle import Seat, settle

__all__ = [
    "LEVELS", "MAX_SEED", "QUIZZES", "Answer", "BiggerQuestion", "BiggerVerdict",
    "CardsQuestion", "CardsVerdict", "Comparison", "GroupFacts", "NameQuestion", "NameVerdict",
    "OrderItem", "OrderQuestion", "OrderVerdict", "Question", "QuizError", "QuizSpec",
    "ShowdownQuestion", "ShowdownSeat", "ShowdownVerdict", "SplitOption", "SplitQuestion",
    "SplitVerdict", "SqueezeQuestion", "SqueezeVerdict", "Verdict", "accepted_names",
    "compare_groups", "facts", "focus_group", "item_kind", "normalize_answer",
    "review_items_for", "solve", "squeeze_item",
]

LEVELS = 3
MAX_SEED = 2**31 - 1

Answer = Mapping[str, str]


class QuizError(ValueError):
    """A bad seed, level, focus or answer.  ``code`` names the problem for the site's message:
    ``level``, ``seed``, ``focus``, ``missing`` (a field left empty), ``invalid`` (a value that
    the form never offers), ``duplicate`` (the same position twice), ``cards`` (two cards the
    deck cannot hold together)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class GroupFacts:
    """A group described in the engine's own words, under one rule set."""

    group: Group
    code: str
    name: str  # the traditional name, or "七点" for an unnamed group
    named: bool
    pinyin: str | None
    aliases: tuple[str, ...]
    category: Category
    category_label: str
    points: int | None  # for point groups and 皱
    rank: int  # dense, 1 = 皱; larger is stronger (for comparing, never shown)
    position: int  # what people are shown: 第 N 大, 1 + how many groups are stronger
    top_class: str  # single-card class of the higher card (天 … 下四滥)
    high: Kind
    low: Kind

    @property
    def kinds(self) -> tuple[Kind, Kind]:
        return (self.high, self.low)

    @property
    def is_points(self) -> bool:
        return self.category in (Category.POINTS, Category.ZHOU)


@cache
def positions(rules: Rules) -> dict[int, int]:
    """Dense rank → the position shown to people, as on /pairs/: 第 N 大 where N is
    1 + the number of strictly stronger groups (天对 第 1 大, every 皱 the same N)."""
    ranks = sorted((g.rank(rules) for g in ALL_GROUPS), reverse=True)
    return {r: ranks.index(r) + 1 for r in set(ranks)}


def facts(group: Group, rules: Rules) -> GroupFacts:
    names = group.names()
    return GroupFacts(
        group=group,
        code=group.code,
        name=group.display_name(),
        named=names.name is not None,
        pinyin=names.pinyin,
        aliases=tuple(a.name for a in names.aliases),
        category=group.category(rules),
        category_label=group.category(rules).label,
        points=group.points_or_none(rules),
        rank=group.rank(rules),
        position=positions(rules)[group.rank(rules)],
        top_class=group.top_class.label,
        high=group.high,
        low=group.low,
    )


@dataclass(frozen=True)
class Comparison:
    """Why one group beats another, or why they tie.

    ``result``: ``"a"``, ``"b"`` or ``"equal"``.  ``reason``:

    - ``category``: different categories (对子 beats any 点 …);
    - ``pair_class``: two pairs, the class of the pair decides (天对 > 地对 …);
    - ``points``: two point groups (or 皱) with different points;
    - ``top_card``: equal points, the higher single card decides (``deciding`` holds
      each group's higher card);
    - ``same_class``: equal points and equal class of the higher card: a tie;
    - ``zhou``: both 0 points (皱): all 皱 tie;
    - ``same_pair_class``: two pairs of the same class (梅十对 = 板凳对): a tie;
    - ``same_category``: the same special category (天红杠 = 天黑杠): a tie.
    """

    a: GroupFacts
    b: GroupFacts
    result: str
    reason: str
    deciding: tuple[Kind, Kind] | None = None

    @property
    def winner(self) -> GroupFacts | None:
        return {"a": self.a, "b": self.b}.get(self.result)

    @property
    def loser(self) -> GroupFacts | None:
        return {"a": self.b, "b": self.a}.get(self.result)


def compare_groups(a: Group, b: Group, rules: Rules) -> Comparison:
    fa, fb = facts(a, rules), facts(b, rules)
    result = "a" if fa.rank > fb.rank else "b" if fb.rank > fa.rank else "equal"
    deciding: tuple[Kind, Kind] | None = None
    if fa.is_points and fb.is_points:
        if fa.points != fb.points:
            reason = "points"
        elif fa.category is Category.ZHOU:
            reason = "zhou"
        elif result == "equal":
            reason = "same_class"
        else:
            reason, deciding = "top_card", (fa.high, fb.high)
    elif fa.category is not fb.category:
        reason = "category"
    elif fa.category is Category.PAIR:
        reason = "pair_class" if result != "equal" else "same_pair_class"
    else:
        reason = "same_category"
    return Comparison(fa, fb, result, reason, deciding)


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Question:
    kind: str
    seed: int
    level: int
    focus: str | None


@dataclass(frozen=True)
class Verdict:
    """``items``: the review items exercised, each with whether it was answered right."""

    correct: bool
    items: tuple[tuple[str, bool], ...]


def _rng(kind: str, seed: int, level: int, focus: str | None) -> random.Random:
    # A string seed is hashed with SHA-512: the same on every platform and Python run.
    return random.Random(f"chexuan-quiz:{kind}:{seed}:{level}:{focus or ''}")


def _field(answer: Answer, name: str) -> str:
    value = answer.get(name)
    if value is None or not str(value).strip():
        raise QuizError("missing", f"answer field {name!r} is empty")
    return str(value).strip()


def _dealable(*groups: Group) -> bool:
    try:
        check_available(k for g in groups for k in g.kinds)
    except CardError:
        return False
    return True


def item_kind(item: str) -> tuple[str, Group]:
    """``"rank:RQ-B9"`` → ``("rank", Group(RQ, B9))``; raise :class:`QuizError`."""
    prefix, _, code = item.partition(":")
    if prefix not in ("rank", "name"):
        raise QuizError("focus", f"unknown review item {item!r}")
    try:
        group = Group.parse(code)
    except CardError:
        raise QuizError("focus", f"unknown group in review item {item!r}") from None
    if group.code != code:
        raise QuizError("focus", f"review item {item!r} is not canonical")
    if prefix == "name" and group.names().name is None:
        raise QuizError("focus", f"{code} has no traditional name")
    return prefix, group


def focus_group(focus: str | None, prefix: str) -> Group | None:
    if focus is None:
        return None
    kind, group = item_kind(focus)
    if kind != prefix:
        raise QuizError("focus", f"review item {focus!r} does not fit this quiz")
    return group


# ----------------------------------------------------------------- 1. which is bigger


@dataclass(frozen=True)
class BiggerQuestion(Question):
    a: GroupFacts
    b: GroupFacts


@dataclass(frozen=True)
class BiggerVerdict(Verdict):
    given: str  # "a", "b", "equal"
    comparison: Comparison


def _bigger_ok(a: Group, b: Group, level: int, rules: Rules) -> bool:
    if a == b or not _dealable(a, b):
        return False
    ra, rb = a.rank(rules), b.rank(rules)
    if level == 1:
        return abs(ra - rb) >= 15
    if level == 2:
        return 1 <= abs(ra - rb) <= 6
    # Level 3: the same tier — same category, or both point groups with equal points.
    ca, cb = a.category(rules), b.category(rules)
    if ca is Category.POINTS or ca is Category.ZHOU:
        return a.points == b.points and cb in (Category.POINTS, Category.ZHOU)
    return ca is cb


def gen_bigger(seed: int, level: int, rules: Rules, focus: str | None = None) -> BiggerQuestion:
    rng = _rng("bigger", seed, level, focus)
    target = focus_group(focus, "rank")
    for _ in range(200):
        a = target or rng.choice(ALL_GROUPS)
        options = [g for g in ALL_GROUPS if _bigger_ok(a, g, level, rules)]
        if not options and level == 3 and target is not None:
            # 天九王, 丁二皇 have no partner in their tier: a review of one of them is asked
            # against the nearest ranks; a question of the level itself draws another group
            options = [g for g in ALL_GROUPS
                       if g != a and _dealable(a, g) and abs(g.rank(rules) - a.rank(rules)) <= 2]
        if options:
            b = rng.choice(options)
            if rng.random() < 0.5:
                a, b = b, a
            return BiggerQuestion("bigger", seed, level, focus, facts(a, rules), facts(b, rules))
    raise QuizError("focus", "no question fits")  # pragma: no cover - every group has partners


def check_bigger(q: Question, answer: Answer, rules: Rules) -> BiggerVerdict:
    assert isinstance(q, BiggerQuestion)
    given = _field(answer, "choice")
    if given not in ("a", "b", "equal"):
        raise QuizError("invalid", f"choice must be a, b or equal, not {given!r}")
    comparison = compare_groups(q.a.group, q.b.group, rules)
    ok = given == comparison.result
    items = tuple((f"rank:{f.code}", ok) for f in (q.a, q.b))
    return BiggerVerdict(ok, items, given, comparison)


# ------------------------------------------------------- 2. put in order / 7. 口诀


@dataclass(frozen=True)
class OrderItem:
    """One thing to place: a group (排顺序), a kind or a single-card class (口诀)."""

    key: str  # the form's index, "0" … "n-1"
    label: str
    strength: int  # larger is stronger; equal strengths may go in either order
    kinds: tuple[Kind, ...] = ()
    group: GroupFacts | None = None
    single_class: str | None = None  # the class label, for kinds and classes


@dataclass(frozen=True)
class OrderQuestion(Question):
    items: tuple[OrderItem, ...]

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(range(1, len(self.items) + 1))


@dataclass(frozen=True)
class OrderVerdict(Verdict):
    given: tuple[OrderItem, ...]  # the visitor's order, strongest first
    expected: tuple[OrderItem, ...]  # one correct order, strongest first
    placed_ok: tuple[bool, ...]  # per position of ``given``: could this item stand here?
    steps: tuple[Comparison, ...]  # for groups: each neighbour pair of ``expected``

    @property
    def ties(self) -> bool:
        """Whether two items are equal (then either of their orders is right)."""
        return len({it.strength for it in self.expected}) < len(self.expected)


def _order_groups_ok(groups: Sequence[Group], level: int, rules: Rules) -> bool:
    if len(set(groups)) < len(groups) or not _dealable(*groups):
        return False
    ranks = sorted((g.rank(rules) for g in groups), reverse=True)
    gaps = [x - y for x, y in pairwise(ranks)]
    if level == 1:
        return min(gaps) >= 8
    if level == 2:
        return ranks[0] - ranks[-1] <= 20 and min(gaps) >= 1
    return ranks[0] - ranks[-1] <= 10 and 1 <= gaps.count(0) <= 2


def gen_order(seed: int, level: int, rules: Rules, focus: str | None = None) -> OrderQuestion:
    rng = _rng("order", seed, level, focus)
    target = focus_group(focus, "rank")
    n = 5 if level == 3 else 4
    for _ in range(5000):
        if level == 1:
            pool: Sequence[Group] = ALL_GROUPS
        else:  # a window of nearby ranks around a random (or the focus) group
            centre = (target or rng.choice(ALL_GROUPS)).rank(rules)
            width = 10 if level == 3 else 20
            low = centre - rng.randint(0, width)
            pool = [g for g in ALL_GROUPS if low <= g.rank(rules) <= low + width]
        if len(pool) < n:
            continue
        groups = rng.sample(list(pool), n)
        if target is not None and target not in groups:
            groups[0] = target
            rng.shuffle(groups)
        if _order_groups_ok(groups, level, rules):
            items = tuple(
                OrderItem(str(i), g.display_name(), g.rank(rules), g.kinds, facts(g, rules))
                for i, g in enumerate(groups)
            )
            return OrderQuestion("order", seed, level, focus, items)
    raise QuizError("focus", "no question fits")  # pragma: no cover


def _read_positions(q: OrderQuestion, answer: Answer) -> tuple[OrderItem, ...]:
    """The items in the visitor's order: field ``pos_<key>`` holds a position 1 … n."""
    n = len(q.items)
    slots: dict[int, OrderItem] = {}
    for item in q.items:
        raw = _field(answer, f"pos_{item.key}")
        try:
            position = parse_int(raw, 1, n)
        except NumberError:
            raise QuizError("invalid", f"position {raw[:20]!r} is not between 1 and {n}") from None
        if position in slots:
            raise QuizError("duplicate", f"position {position} is used twice")
        slots[position] = item
    return tuple(slots[p] for p in range(1, n + 1))


def _check_order(q: Question, answer: Answer, rules: Rules, prefix: str | None) -> OrderVerdict:
    assert isinstance(q, OrderQuestion)
    given = _read_positions(q, answer)
    expected = tuple(sorted(q.items, key=lambda it: -it.strength))  # stable: ties keep order
    # An item may stand at position p if the p-th strength of the correct order equals its own.
    placed_ok = tuple(it.strength == ex.strength for it, ex in zip(given, expected, strict=True))
    steps: tuple[Comparison, ...] = ()
    if all(it.group is not None for it in expected):
        steps = tuple(
            compare_groups(x.group.group, y.group.group, rules)  # type: ignore[union-attr]
            for x, y in pairwise(expected)
        )
    items: tuple[tuple[str, bool], ...] = ()
    if prefix is not None:
        items = tuple(
            (f"{prefix}:{it.group.code}", ok)
            for it, ok in zip(given, placed_ok, strict=True)
            if it.group is not None
        )
    return OrderVerdict(all(placed_ok), items, given, expected, placed_ok, steps)


def check_order(q: Question, answer: Answer, rules: Rules) -> OrderVerdict:
    return _check_order(q, answer, rules, "rank")


KOUJUE = "天地人和梅板三，斧十猫膏下四滥"
_CLASS_MEMBERS = {
    SingleClass.TIAN: "天牌",
    SingleClass.DI: "地牌",
    SingleClass.REN: "人牌",
    SingleClass.HE: "和牌",
    SingleClass.ZHONGSAN: "梅十、板凳、长三",
    SingleClass.XIAYAO: "斧头、苕十、猫猫、膏药",
    SingleClass.ZA: "黑9、黑8、黑7、小5",
}


def gen_koujue(seed: int, level: int, rules: Rules, focus: str | None = None) -> OrderQuestion:
    if focus is not None:
        raise QuizError("focus", "the 口诀 quiz has no review items")
    rng = _rng("koujue", seed, level, focus)
    if level == 1:
        classes = list(SingleClass)
        rng.shuffle(classes)
        items = tuple(
            OrderItem(str(i), c.label, int(c), single_class=c.label)
            for i, c in enumerate(classes)
        )
        return OrderQuestion("koujue", seed, level, focus, items)
    if level == 2:  # five kinds from five different classes: no ties
        picked = rng.sample(list(SingleClass), 5)
        kinds = [rng.choice([k for k in KINDS if k.single_class is c]) for c in picked]
    else:  # six kinds, ties likely (梅十 = 长三 …)
        while True:
            kinds = rng.sample(list(KINDS), 6)
            strengths = [k.single_class for k in kinds]
            if len(set(strengths)) < len(strengths):
                break
    items = tuple(
        OrderItem(str(i), k.name_zh, int(k.single_class), (k,), single_class=k.class_label)
        for i, k in enumerate(kinds)
    )
    return OrderQuestion("koujue", seed, level, focus, items)


def check_koujue(q: Question, answer: Answer, rules: Rules) -> OrderVerdict:
    return _check_order(q, answer, rules, None)


def class_members() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(class label, the names of its kinds) strongest first, for the 口诀 feedback.  The
    旋经 counts 丁丁 and 大鬼 among the 杂牌, not the 下四滥: they close the table as a row
    of their own, as small as the 下四滥 row above it."""
    return (*((c.label, tuple(_CLASS_MEMBERS[c].split("、")))
              for c in sorted(SingleClass, reverse=True)),
            ("杂牌", ("丁丁", "大鬼")))


# --------------------------------------------------------------------------- 3. name it

_TONES = re.compile(r"(?<=[a-z])[1-5]")  # tone numbers: tian1 guan1 jiu3
_DIGITS = str.maketrans("5789", "五七八九")  # 黑9一对 may be typed 黑九一对
_JUNK = re.compile(r"[\s'’·\-_.,，。]+")


def normalize_answer(text: str) -> str:
    """Fold a typed name: tone marks and tone numbers off, ü → u (also v), case and
    spaces ignored.  Chinese characters are kept as they are."""
    text = unicodedata.normalize("NFKC", text).strip().lower()
    text = text.replace("ü", "u").replace("v", "u")
    decomposed = unicodedata.normalize("NFD", text)
    text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    text = _TONES.sub("", text)
    return _JUNK.sub("", text)


def accepted_names(group: Group) -> tuple[str, ...]:
    """Every name a source gives this group: the name, its aliases, traditional forms."""
    names = group.names()
    out: list[str] = []
    if names.name:
        out += [names.name, names.traditional or names.name]
    for alias in names.aliases:
        out += [alias.name, alias.traditional]
    return tuple(dict.fromkeys(out))


@cache
def _answer_forms(group: Group) -> frozenset[str]:
    names = group.names()
    forms = {normalize_answer(n) for n in accepted_names(group)}
    if names.pinyin:
        forms.add(normalize_answer(names.pinyin))
    forms |= {normalize_answer(a.pinyin) for a in names.aliases}
    forms |= {f.translate(_DIGITS) for f in forms}
    return frozenset(forms)


NAMED_GROUPS: tuple[Group, ...] = tuple(g for g in ALL_GROUPS if g.names().name)


@dataclass(frozen=True)
class NameQuestion(Question):
    target: GroupFacts
    choices: tuple[str, ...]  # four names; empty at the typing level

    @property
    def typed(self) -> bool:
        return not self.choices


@dataclass(frozen=True)
class NameVerdict(Verdict):
    given: str
    target: GroupFacts
    accepted: tuple[str, ...]
    given_groups: tuple[GroupFacts, ...]  # the groups that the (wrong) name belongs to


def _shares_card(a: Group, b: Group) -> bool:
    return bool(set(a.kinds) & set(b.kinds))


def gen_name(seed: int, level: int, rules: Rules, focus: str | None = None) -> NameQuestion:
    rng = _rng("name", seed, level, focus)
    target = focus_group(focus, "name") or rng.choice(NAMED_GROUPS)
    if level == 3:
        return NameQuestion("name", seed, level, focus, facts(target, rules), ())
    taken = set(accepted_names(target))
    if level == 1:
        pool = [g for g in NAMED_GROUPS if g.rank(rules) != target.rank(rules)]
    else:  # plausible: same points or same category, or sharing a card
        pool = [
            g for g in NAMED_GROUPS
            if g.points == target.points or g.category(rules) is target.category(rules)
            or _shares_card(g, target)
        ]
    wrong: list[str] = []
    for g in sorted(pool, key=lambda g: (g.high.index, g.low.index)):
        name = g.display_name()
        if name not in taken and name not in wrong:
            wrong.append(name)
    picked = rng.sample(wrong, 3)
    choices = [target.display_name(), *picked]
    rng.shuffle(choices)
    return NameQuestion("name", seed, level, focus, facts(target, rules), tuple(choices))


def _groups_named(name: str) -> tuple[Group, ...]:
    return tuple(g for g in ALL_GROUPS if name in accepted_names(g))


def check_name(q: Question, answer: Answer, rules: Rules) -> NameVerdict:
    assert isinstance(q, NameQuestion)
    given = _field(answer, "name")
    target = q.target.group
    if q.typed:
        if len(given) > 40:
            raise QuizError("invalid", "a name is shorter than 40 characters")
        ok = normalize_answer(given) in _answer_forms(target)
    else:
        if given not in q.choices:
            raise QuizError("invalid", f"{given!r} is not one of the choices")
        ok = given in accepted_names(target)
    others = () if ok else tuple(facts(g, rules) for g in _groups_named(given))
    return NameVerdict(ok, ((f"name:{target.code}", ok),), given, q.target,
                       accepted_names(target), others)


# ------------------------------------------------------------------ 4. what is it?


@dataclass(frozen=True)
class CardsQuestion(Question):
    name: str  # the name shown (an alias at level 3 when the group has one)
    target: GroupFacts
    options: tuple[GroupFacts, ...]  # four groups at level 1; empty: pick two kinds

    @property
    def palette(self) -> tuple[Kind, ...]:
        return KINDS


@dataclass(frozen=True)
class CardsVerdict(Verdict):
    given: GroupFacts
    target: GroupFacts
    all_with_name: tuple[GroupFacts, ...]  # every group that carries the name


def gen_cards(seed: int, level: int, rules: Rules, focus: str | None = None) -> CardsQuestion:
    rng = _rng("cards", seed, level, focus)
    target = focus_group(focus, "name")
    if target is None:
        with_alias = [g for g in NAMED_GROUPS if g.names().aliases]
        target = rng.choice(with_alias if level == 3 else NAMED_GROUPS)
    name = target.display_name()
    if level == 3 and target.names().aliases:
        name = rng.choice(target.names().aliases).name
    options: tuple[GroupFacts, ...] = ()
    if level == 1:
        pool = [
            g for g in NAMED_GROUPS
            if name not in accepted_names(g)
            and (g.points == target.points or _shares_card(g, target))
        ]
        picked = [target, *rng.sample(pool, 3)]
        rng.shuffle(picked)
        options = tuple(facts(g, rules) for g in picked)
    return CardsQuestion("cards", seed, level, focus, name, facts(target, rules), options)


def check_cards(q: Question, answer: Answer, rules: Rules) -> CardsVerdict:
    assert isinstance(q, CardsQuestion)
    if q.options:
        raw = _field(answer, "choice")
        codes = {o.code: o for o in q.options}
        if raw not in codes:
            raise QuizError("invalid", f"{raw!r} is not one of the choices")
        given = codes[raw].group
    else:
        try:
            first = parse_kind(_field(answer, "card1"))
            second = parse_kind(_field(answer, "card2"))
        except CardError:
            raise QuizError("invalid", "unknown card code") from None
        try:
            given = Group.of(first, second)
        except CardError as e:
            raise QuizError("cards", str(e)) from None
    ok = q.name in accepted_names(given)
    carriers = tuple(facts(g, rules) for g in _groups_named(q.name))
    return CardsVerdict(ok, ((f"name:{q.target.code}", ok),), facts(given, rules), q.target,
                        carriers)


# --------------------------------------------------------------- 5. split this hand


@dataclass(frozen=True)
class SplitOption:
    index: int  # in engine.hands.splits order of the question's kinds
    head: GroupFacts
    tail: GroupFacts
    ev: float
    p_win: float
    p_push: float
    p_lose: float
    best: bool  # has the highest EV as shown (several when they show the same figure)
    naive: bool  # the "strongest 头, then strongest 尾" split

    @property
    def percents(self) -> tuple[int, int, int]:
        """吃 / 走 / 死 as whole percentages that sum to 100."""
        win, push, lose = whole_percents(self.p_win, self.p_push, self.p_lose)
        return win, push, lose

    @property
    def shown_percents(self) -> tuple[str, str, str]:
        """吃 / 走 / 死 as the split table prints them (:func:`shown_percents`)."""
        win, push, lose = shown_percents(self.p_win, self.p_push, self.p_lose)
        return win, push, lose


def whole_percents(*shares: float, decimals: int = 0) -> tuple[int, ...]:
    """Shares that sum to 1 as whole percentages that sum to 100 — or, with ``decimals``,
    whole units of 10^-decimals per cent that sum to 100 · 10^decimals (largest
    remainders get the units that rounding down leaves over)."""
    total = 100 * 10 ** decimals
    exact = [share * total for share in shares]
    floors = [int(x) for x in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: floors[i] - exact[i])
    for i in by_remainder[:total - sum(floors)]:
        floors[i] += 1
    return tuple(floors)


#: A share below this is nothing (float noise), not a chance to print as "<1".
_NOTHING = 1e-12


def shown_percents(*shares: float, decimals: int = 0) -> tuple[str, ...]:
    """:func:`whole_percents` as a page prints them (before its "%"): a share that is not
    nothing but rounds to 0 reads "<1" ("<0.1" with one decimal), one short of certain
    that rounds to 100 reads ">99" (">99.9"), so that a real chance never reads "0" (nor
    a near-certainty "100") beside the others; the rest are percentages that sum to 100."""
    unit = 10 ** decimals
    out = []
    for share, whole in zip(shares, whole_percents(*shares, decimals=decimals), strict=True):
        if whole == 0 and share > _NOTHING:
            out.append(f"<{1 / unit:.{decimals}f}")
        elif whole == 100 * unit and share < 1 - _NOTHING:
            out.append(f">{100 - 1 / unit:.{decimals}f}")
        else:
            out.append(f"{whole / unit:.{decimals}f}")
    return tuple(out)


@dataclass(frozen=True)
class SplitQuestion(Question):
    kinds: tuple[Kind, Kind, Kind, Kind]
    options: tuple[SplitOption, ...]  # the distinct splits only
    sanhua: str | None


@dataclass(frozen=True)
class SplitVerdict(Verdict):
    chosen: SplitOption
    best: SplitOption
    naive: SplitOption
    reason: str  # "naive_best" | "tie" | "all_tie" | "stronger_tail" | "stronger_head"
    loss: float  # EV given up by the chosen split (0 when right)


def shown_ev(ev: float) -> Decimal:
    """An EV as the split table shows it: three decimals, halves up (Django's floatformat:3).
    Splits that show the same figure are equally best: a learner who picks either is right,
    and the one marked wrong never "wins 0.000 less"."""
    return Decimal(str(ev)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)


def _split_options(kinds: tuple[Kind, ...], rules: Rules) -> tuple[SplitOption, ...]:
    advice = advise(kinds, rules)
    top = shown_ev(max(s.ev for s in advice.splits))
    naive = naive_split(kinds, rules)
    seen: set[tuple[Group, Group]] = set()
    out = []
    for i, s in enumerate(advice.splits):
        key = (s.split.head, s.split.tail)
        if key in seen:
            continue
        seen.add(key)
        out.append(SplitOption(
            i, facts(s.split.head, rules), facts(s.split.tail, rules), s.ev, s.p_win,
            s.p_push, s.p_lose, shown_ev(s.ev) == top, s.split == naive,
        ))
    return tuple(out)


@cache
def _split_pools(rules: Rules) -> tuple[tuple[tuple[Kind, ...], ...], tuple[tuple[Kind, ...], ...]]:
    """(clear hands, tricky hands): the naive split is best by a clear margin, or loses at
    least 0.02 EV to the best split."""
    from .advisor import all_hands

    clear, tricky = [], []
    for kinds in all_hands():
        options = _split_options(kinds, rules)
        if len(options) < 2:
            continue
        evs = sorted((o.ev for o in options), reverse=True)
        naive = next(o for o in options if o.naive)
        best = max(o.ev for o in options)
        if best - naive.ev >= 0.02:  # a trap worth learning, not a rounding difference
            tricky.append(kinds)
        elif evs[0] - evs[1] >= 0.15:
            clear.append(kinds)
    return tuple(clear), tuple(tricky)


def gen_split(seed: int, level: int, rules: Rules, focus: str | None = None) -> SplitQuestion:
    if focus is not None:
        raise QuizError("focus", "the split quiz has no review items")
    rng = _rng("split", seed, level, focus)
    if level == 2:
        while True:  # a dealt hand, as at the table
            kinds = tuple(sorted((c.kind for c in rng.sample(DECK, 4)), key=lambda k: k.index))
            if len(_split_options(kinds, rules)) >= 2:
                break
    else:
        clear, tricky = _split_pools(rules)
        kinds = rng.choice(clear if level == 1 else tricky)
    hand = (kinds[0], kinds[1], kinds[2], kinds[3])
    return SplitQuestion("split", seed, level, focus, hand, _split_options(hand, rules),
                         sanhua(hand, rules))


def check_split(q: Question, answer: Answer, rules: Rules) -> SplitVerdict:
    assert isinstance(q, SplitQuestion)
    raw = _field(answer, "split")
    by_index = {str(o.index): o for o in q.options}
    if raw not in by_index:
        raise QuizError("invalid", f"{raw!r} is not one of the splits")
    chosen = by_index[raw]
    naive = next(o for o in q.options if o.naive)
    # the best split the sentence names: another one as good as the strongest 头 (a tie
    # to three decimals), else the strongest 头 when it is the best, else the first best
    best = next((o for o in q.options if o.best and not o.naive), naive)
    if naive.best and len(q.options) > 2 and all(o.best for o in q.options):
        reason = "all_tie"  # every split as good: none to name against another
    elif naive.best:
        reason = "tie" if best is not naive else "naive_best"
    elif best.tail.rank > naive.tail.rank:
        reason = "stronger_tail"
    else:
        reason = "stronger_head"
    # the loss as the difference of the two EVs as shown (three decimals): the figures a
    # learner subtracts agree with the sentence
    loss = float(shown_ev(best.ev) - shown_ev(chosen.ev))
    return SplitVerdict(chosen.best, (), chosen, best, naive, reason, loss)


# ------------------------------------------------------------------ 6. who wins?

PLAYERS = ("甲", "乙", "丙")
OUTCOME_VALUES = {"win": Outcome.WIN, "push": Outcome.PUSH, "lose": Outcome.LOSE}


@dataclass(frozen=True)
class ShowdownSeat:
    index: int
    name: str
    head: GroupFacts
    tail: GroupFacts


@dataclass(frozen=True)
class ShowdownMatch:
    """You (甲) against one opponent: 头 against 头, 尾 against 尾."""

    opponent: ShowdownSeat
    head: Comparison  # a = 甲's 头
    tail: Comparison
    outcome: Outcome  # for 甲
    given: Outcome | None = None


@dataclass(frozen=True)
class ShowdownQuestion(Question):
    seats: tuple[ShowdownSeat, ...]  # 甲 first

    @property
    def you(self) -> ShowdownSeat:
        return self.seats[0]

    @property
    def opponents(self) -> tuple[ShowdownSeat, ...]:
        return self.seats[1:]


@dataclass(frozen=True)
class ShowdownVerdict(Verdict):
    matches: tuple[ShowdownMatch, ...]
    pi_to: ShowdownSeat
    pi_given: ShowdownSeat
    pi_ok: bool
    order: tuple[ShowdownSeat, ...]  # by 尾, then 头: the first eats the 皮


def _showdown(q: ShowdownQuestion, rules: Rules) -> tuple[list[ShowdownMatch], ShowdownSeat,
                                                          tuple[ShowdownSeat, ...]]:
    by_name = {s.name: s for s in q.seats}
    table = [Seat(s.name, 1, Split(s.head.group, s.tail.group)) for s in q.seats]
    table.append(Seat("丁", 1, folded=True))
    result = settle(table, rules)
    you = q.you
    matches = [
        ShowdownMatch(
            opp,
            compare_groups(you.head.group, opp.head.group, rules),
            compare_groups(you.tail.group, opp.tail.group, rules),
            result.outcomes[(you.name, opp.name)],
        )
        for opp in q.opponents
    ]
    assert result.pi_to is not None
    return matches, by_name[result.pi_to], tuple(by_name[n] for n in result.order)


def gen_showdown(seed: int, level: int, rules: Rules, focus: str | None = None
                 ) -> ShowdownQuestion:
    if focus is not None:
        raise QuizError("focus", "the showdown quiz has no review items")
    rng = _rng("showdown", seed, level, focus)
    n = 3 if level == 3 else 2
    while True:
        cards = rng.sample(DECK, 4 * n)
        seats = []
        for i in range(n):
            kinds = [c.kind for c in cards[4 * i: 4 * i + 4]]
            options = splits(kinds, rules)
            naive = naive_split(kinds, rules)
            split = naive if rng.random() < 0.7 else rng.choice(options)
            seats.append(ShowdownSeat(i, PLAYERS[i], facts(split.head, rules),
                                      facts(split.tail, rules)))
        q = ShowdownQuestion("showdown", seed, level, focus, tuple(seats))
        matches, _, order = _showdown(q, rules)
        tails = [(s.tail.rank, s.head.rank) for s in order]
        if len(tails) > 1 and tails[0] == tails[1]:
            continue  # the 皮 would be shared: keep questions with one clear taker
        if level == 1 and any(m.outcome is Outcome.PUSH for m in matches):
            continue
        if level == 2 and rng.random() < 0.5 and matches[0].outcome is not Outcome.PUSH:
            continue  # level 2 leans towards 走 and near-ties
        return q


def check_showdown(q: Question, answer: Answer, rules: Rules) -> ShowdownVerdict:
    assert isinstance(q, ShowdownQuestion)
    matches, pi_to, order = _showdown(q, rules)
    answered = []
    for m in matches:
        raw = _field(answer, f"vs_{m.opponent.index}")
        if raw not in OUTCOME_VALUES:
            raise QuizError("invalid", f"{raw!r} is not 吃, 走 or 死")
        answered.append(ShowdownMatch(m.opponent, m.head, m.tail, m.outcome, OUTCOME_VALUES[raw]))
    raw_pi = _field(answer, "pi")
    if raw_pi not in {str(s.index) for s in q.seats}:
        raise QuizError("invalid", f"{raw_pi!r} is not a player")
    pi_given = q.seats[int(raw_pi)]
    pi_ok = pi_given == pi_to
    ok = pi_ok and all(m.given is m.outcome for m in answered)
    return ShowdownVerdict(ok, (), tuple(answered), pi_to, pi_given, pi_ok, order)


# ------------------------------------------------------------------ 8. squeeze (串牌)

ALL_REVEALS: tuple[sq.Reveal, ...] = tuple(
    (way, depth) for way in sq.Way for depth in range(1, sq.DEPTHS[way] + 1)
)


@dataclass(frozen=True)
class SqueezeQuestion(Question):
    """A card partly revealed, one reveal after another (two for 组合串 at level 3).  Level 1
    asks for the card (the reveals leave one kind), levels 2 and 3 for every possible kind."""

    card: Card
    reveals: tuple[sq.Reveal, ...]

    @property
    def possible(self) -> tuple[Kind, ...]:
        return sq.possible(self.card, self.reveals)

    @property
    def pick_one(self) -> bool:
        return self.level == 1

    @property
    def palette(self) -> tuple[Kind, ...]:
        return KINDS


@dataclass(frozen=True)
class SqueezeVerdict(Verdict):
    given: tuple[Kind, ...]
    possible: tuple[Kind, ...]
    missed: tuple[Kind, ...]  # possible, not given
    wrong: tuple[Kind, ...]  # given, not possible


def squeeze_item(item: str) -> tuple[sq.Reveal, Kind]:
    """``"squeeze:head-2:R2"`` → ``((Way.HEAD, 2), Kind.R2)``; raise :class:`QuizError`."""
    prefix, _, rest = item.partition(":")
    reveal, _, code = rest.partition(":")
    try:
        if prefix != "squeeze":
            raise CardError(item)
        return sq.parse_reveal(reveal), parse_kind(code)
    except CardError:
        raise QuizError("focus", f"unknown squeeze review item {item!r}") from None


def _squeeze_fits(card: Card, reveals: Sequence[sq.Reveal], level: int) -> bool:
    n = len(sq.possible(card, reveals))
    if level == 1:
        return n == 1
    if level == 2:
        return 2 <= n <= 5
    return n < len(sq.possible(card, reveals[:1])) <= 6


def gen_squeeze(seed: int, level: int, rules: Rules, focus: str | None = None
                ) -> SqueezeQuestion:
    rng = _rng("squeeze", seed, level, focus)
    if focus is not None:
        reveal, kind = squeeze_item(focus)
        card = rng.choice([c for c in DECK if c.kind is kind])
        return SqueezeQuestion("squeeze", seed, level, focus, card, (reveal,))
    while True:
        card = rng.choice(DECK)
        if level < 3:
            options: list[tuple[sq.Reveal, ...]] = [(r,) for r in ALL_REVEALS]
        else:
            options = [(a, b) for a in ALL_REVEALS for b in ALL_REVEALS if a[0] is not b[0]]
        fitting = [r for r in options if _squeeze_fits(card, r, level)]
        if fitting:
            return SqueezeQuestion("squeeze", seed, level, focus, card, rng.choice(fitting))


def check_squeeze(q: Question, answer: Answer, rules: Rules) -> SqueezeVerdict:
    assert isinstance(q, SqueezeQuestion)
    try:
        if q.pick_one:
            given: tuple[Kind, ...] = (parse_kind(_field(answer, "card")),)
        else:
            ticked = [key[2:] for key, value in answer.items()
                      if key.startswith("k_") and str(value).strip()]
            if not ticked:
                raise QuizError("missing", "tick at least one card")
            given = tuple(sorted({parse_kind(code) for code in ticked}))
    except CardError:
        raise QuizError("invalid", "unknown card code") from None
    possible = q.possible
    ok = set(given) == set(possible)
    items = tuple((f"squeeze:{w.value}-{d}:{q.card.kind.code}", ok) for w, d in q.reveals)
    return SqueezeVerdict(ok, items, given, possible,
                          tuple(k for k in possible if k not in given),
                          tuple(k for k in given if k not in possible))


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class QuizSpec:
    slug: str
    levels: int
    generate: Callable[[int, int, Rules, str | None], Question]
    check: Callable[[Question, Answer, Rules], Verdict]
    review_prefix: str | None  # the review items it serves ("rank", "name") or None


QUIZZES: dict[str, QuizSpec] = {
    spec.slug: spec
    for spec in (
        QuizSpec("bigger", LEVELS, gen_bigger, check_bigger, "rank"),
        QuizSpec("order", LEVELS, gen_order, check_order, "rank"),
        QuizSpec("name", LEVELS, gen_name, check_name, "name"),
        QuizSpec("cards", LEVELS, gen_cards, check_cards, "name"),
        QuizSpec("split", LEVELS, gen_split, check_split, None),
        QuizSpec("showdown", LEVELS, gen_showdown, check_showdown, None),
        QuizSpec("koujue", LEVELS, gen_koujue, check_koujue, None),
        QuizSpec("squeeze", LEVELS, gen_squeeze, check_squeeze, "squeeze"),
    )
}


def generate(slug: str, seed: int, level: int, rules: Rules, focus: str | None = None
             ) -> Question:
    """The question of this kind for (seed, level[, focus]); raise :class:`QuizError`."""
    spec = QUIZZES.get(slug)
    if spec is None:
        raise QuizError("kind", f"unknown quiz {slug!r}")
    if not 1 <= level <= spec.levels:
        raise QuizError("level", f"level must be between 1 and {spec.levels}")
    if not 0 <= seed <= MAX_SEED:
        raise QuizError("seed", f"seed must be between 0 and {MAX_SEED}")
    return spec.generate(seed, level, rules, focus)


def check(question: Question, answer: Answer, rules: Rules) -> Verdict:
    return QUIZZES[question.kind].check(question, answer, rules)


def review_items_for(item: str) -> tuple[str, int]:
    """The quiz (slug, level) that serves a review item: ranks as 哪个大 level 2, names as
    叫什么 level 2 (four plausible choices)."""
    if item.startswith("squeeze:"):
        squeeze_item(item)
        return ("squeeze", 2)
    kind, _ = item_kind(item)
    return ("bigger", 2) if kind == "rank" else ("name", 2)


def solve(question: Question, rules: Rules) -> dict[str, str]:
    """A right answer as form fields (for tests, and to show the answer)."""
    if isinstance(question, BiggerQuestion):
        return {"choice": compare_groups(question.a.group, question.b.group, rules).result}
    if isinstance(question, OrderQuestion):
        expected = sorted(question.items, key=lambda it: -it.strength)
        return {f"pos_{it.key}": str(i + 1) for i, it in enumerate(expected)}
    if isinstance(question, NameQuestion):
        return {"name": question.target.name}
    if isinstance(question, CardsQuestion):
        if question.options:
            return {"choice": question.target.code}
        return {"card1": question.target.high.code, "card2": question.target.low.code}
    if isinstance(question, SplitQuestion):
        return {"split": str(next(o.index for o in question.options if o.best))}
    if isinstance(question, SqueezeQuestion):
        if question.pick_one:
            return {"card": question.possible[0].code}
        return {f"k_{k.code}": "1" for k in question.possible}
    if isinstance(question, ShowdownQuestion):
        matches, pi_to, _ = _showdown(question, rules)
        keys = {v: k for k, v in OUTCOME_VALUES.items()}
        out = {f"vs_{m.opponent.index}": keys[m.outcome] for m in matches}
        out["pi"] = str(pi_to.index)
        return out
    raise QuizError("kind", f"cannot solve {question.kind!r}")
