"""The split at a real showdown: the expected chips of every option (issue 14 §1).

The situation is what a player sees when it is their turn to split: their own four
cards, each opponent still in with the two cards everybody sees face up, every seat's
stake, the 皮 of the folded seats, the rule set.  The options are the three splits of
the four cards (in :func:`engine.hands.splits` order) and 三花 where the hand and the
rules allow it.

The model
=========

* Each opponent's two hidden cards come from the cards the player cannot see (the
  deck minus their own four and every face-up card), every physical card equally
  likely.
* Each opponent splits as the split advisor's equilibrium strategy would (the
  mixture of :func:`engine.advisor.strategy_for`, mixing where it mixes); opponents never
  declare 三花 (the advisor's strategy ignores it).
* Settlement is the real one, :func:`engine.settle.settle_ranked` (the core of
  :func:`engine.settle.settle`, which needs only the splits' ranks): order by 尾, every stake
  caps what it wins and loses, the best 尾 eats the 皮 seat by seat, equal hands
  share; the table's 芒果 pot (``pot``, 0 by default) goes with the 皮, shared by equal
  best hands.

With one opponent every hidden pair is enumerated (exact, standard error 0).  With
more, the hidden cards and the opponents' splits are sampled (a seeded
``random.Random``, the same deals for every option) and each figure carries its
standard error.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from .advisor import load_table
from .cards import DECK, KINDS, Kind, check_available, parse_kinds
from .chance import draw
from .game import Game
from .groups import ALL_GROUPS
from .hands import Key, Split, sanhua, splits
from .rules import Rules, get_rules
from .settle import Seat, net_ranked

__all__ = ["EXACT_LIMIT", "SAMPLES", "Option", "Pricing", "ShowdownError", "Situation",
           "at_table", "parse_situation", "price", "pricing_json", "situation_json"]

EXACT_LIMIT = 4000  # enumerate when the hidden kind combinations are at most this many
SAMPLES = 2500  # deals sampled otherwise (about 200 ms of one core with five opponents)


class ShowdownError(ValueError):
    """A situation that cannot happen or cannot be read."""


@dataclass(frozen=True)
class Opponent:
    visible: tuple[Kind, Kind]  # the two face-up cards
    stake: int


@dataclass(frozen=True)
class Situation:
    rules: Rules
    mine: tuple[Kind, Kind, Kind, Kind]
    stake: int
    opponents: tuple[Opponent, ...]
    folded: tuple[int, ...] = ()  # each folded seat's stake (its 皮)
    pot: int = 0  # the table's 芒果 pot: to whoever eats the 皮


@dataclass(frozen=True)
class Option:
    """One choice: a split (``sanhua`` None) or the 三花 declaration (``split`` None)."""

    split: Split | None
    sanhua: str | None
    ev: float  # expected net chips of the hand
    stderr: float  # 0 when exact


@dataclass(frozen=True)
class Pricing:
    options: tuple[Option, ...]
    best: int  # index of the highest EV (the first on ties)
    exact: bool
    deals: int  # hidden-card combinations weighed (exact: physical, else samples)
    model: str
    # the standard error of each difference of two options' EVs, priced on the same deals
    # (paired: far below the two errors combined as if apart); all 0 when exact
    diff_errors: tuple[tuple[float, ...], ...] = ()

    def diff_error(self, i: int, j: int) -> float:
        """The standard error of ``options[i].ev − options[j].ev``."""
        return self.diff_errors[i][j] if self.diff_errors else 0.0


# ---------------------------------------------------------------------- input
def _int(value: Any, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ShowdownError(f"{what} must be a whole number ≥ {least}")
    return value


def _codes(value: Any, n: int, what: str) -> tuple[Kind, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ShowdownError(f"{what} must be a list of {n} card codes")
    kinds = parse_kinds(value)
    if len(kinds) != n:
        raise ShowdownError(f"{what} must have {n} cards, got {len(kinds)}")
    return kinds


def parse_situation(data: Any, default_rules: str = "xuanjing") -> Situation:
    """Read ``{"rules", "me": {"cards", "stake"}, "opponents": [{"visible", "stake"}],
    "folded": [stake, …], "pot": n}`` (``folded`` and ``pot`` optional); raise
    :class:`ShowdownError` (or ``CardError`` / ``RulesError``) for anything impossible."""
    if not isinstance(data, Mapping):
        raise ShowdownError('expected an object {"rules", "me", "opponents", "folded"}')
    rules = get_rules(str(data.get("rules", default_rules)))
    me = data.get("me")
    if not isinstance(me, Mapping):
        raise ShowdownError('"me" must be an object {"cards": [4 codes], "stake": n}')
    mine = _codes(me.get("cards"), 4, "me.cards")
    stake = _int(me.get("stake"), "me.stake", 1)
    raw_opps = data.get("opponents")
    if not isinstance(raw_opps, list) or not raw_opps:
        raise ShowdownError('"opponents" must be a non-empty list of {"visible", "stake"}')
    opps = []
    for i, raw in enumerate(raw_opps, 1):
        if not isinstance(raw, Mapping):
            raise ShowdownError(f"opponent {i}: expected an object {{\"visible\", \"stake\"}}")
        v = _codes(raw.get("visible"), 2, f"opponent {i} visible")
        opps.append(Opponent((v[0], v[1]), _int(raw.get("stake"), f"opponent {i} stake", 1)))
    raw_folded = data.get("folded", [])
    if not isinstance(raw_folded, list):
        raise ShowdownError('"folded" must be a list of stakes')
    folded = tuple(_int(f, f"folded stake {i}", 0) for i, f in enumerate(raw_folded, 1))
    pot = _int(data.get("pot", 0), "pot", 0)
    if 1 + len(opps) + len(folded) > rules.max_seats:
        raise ShowdownError(f"a table seats at most {rules.max_seats} players")
    check_available(mine + tuple(k for o in opps for k in o.visible))
    return Situation(rules, (mine[0], mine[1], mine[2], mine[3]), stake, tuple(opps), folded,
                     pot)


def at_table(game: Game, seat: int, pot: int) -> Situation:
    """The showdown of ``game``'s hand as ``seat`` sees it: its four cards, the face-up
    cards and stakes of the others still in, the 皮 of those who folded, and the 芒果
    ``pot`` (``game.state.pot`` while the hand is played; a settled hand has paid it)."""
    hand = game.hand
    assert hand is not None
    kinds = game.kinds(seat)
    opponents = tuple(
        Opponent((game.kinds(o)[2], game.kinds(o)[3]), hand.committed[o])
        for o in hand.order if o != seat and not hand.folded[o])
    folded = tuple(hand.committed[o] for o in hand.order if hand.folded[o])
    return Situation(game.rules, (kinds[0], kinds[1], kinds[2], kinds[3]),
                     hand.committed[seat], opponents, folded, pot)


def situation_json(s: Situation) -> dict[str, Any]:
    """The input format of :func:`parse_situation`."""
    return {"rules": s.rules.name, "me": {"cards": [k.code for k in s.mine], "stake": s.stake},
            "opponents": [{"visible": [k.code for k in o.visible], "stake": o.stake}
                          for o in s.opponents],
            "folded": list(s.folded), "pot": s.pot}


# ---------------------------------------------------------------------- model
@cache
def _group_ranks(rules: Rules) -> dict[tuple[Kind, Kind], int]:
    """The rank of every two-kind group, both orders."""
    out: dict[tuple[Kind, Kind], int] = {}
    for g in ALL_GROUPS:
        out[(g.high, g.low)] = out[(g.low, g.high)] = g.rank(rules)
    return out


def _key(a: Kind, b: Kind, c: Kind, d: Kind, ranks: Mapping[tuple[Kind, Kind], int]) -> Key:
    """(头 rank, 尾 rank) of the split ab | cd."""
    x, y = ranks[(a, b)], ranks[(c, d)]
    return (x, y) if x >= y else (y, x)


@cache
def _mixture(kinds: tuple[Kind, ...], rules: Rules) -> tuple[tuple[Key, float], ...]:
    """The advisor's equilibrium mixture for a hand (sorted kinds) as split keys, splits
    of equal ranks merged."""
    table = load_table(rules)
    ranks = _group_ranks(rules)
    a, b, c, d = kinds
    keys = (_key(a, b, c, d, ranks), _key(a, c, b, d, ranks), _key(a, d, b, c, ranks))
    out: dict[Key, float] = {}
    for k, count in zip(keys, table.row(kinds).mix, strict=True):
        if count:
            out[k] = out.get(k, 0.0) + count / table.rounds
    return tuple(out.items())


class _Settler:
    """Real settlement (:func:`engine.settle.net_ranked`) of one option against the
    opponents' splits, cached by the splits' ranks (all the settlement depends on)."""

    def __init__(self, s: Situation) -> None:
        self.s = s
        self.cache: dict[tuple[int, tuple[Key, ...]], int] = {}
        self.seats = [Seat("me", s.stake),
                      *(Seat(f"o{i}", o.stake) for i, o in enumerate(s.opponents)),
                      *(Seat(f"f{i}", st, folded=True) for i, st in enumerate(s.folded))]
        self.options = _options(s)
        self.keys = [split.key(s.rules) for split, _ in self.options]
        self.names = [f"o{i}" for i in range(len(s.opponents))]

    def net(self, option: int, theirs: Sequence[Key]) -> int:
        key = (option, tuple(theirs))
        found = self.cache.get(key)
        if found is not None:
            return found
        keys = dict(zip(self.names, theirs, strict=True))
        if self.options[option][1] is None:
            keys["me"] = self.keys[option]
        net = net_ranked(self.seats, keys, "me", self.s.pot)
        self.cache[key] = net
        return net


def _options(s: Situation) -> list[tuple[Split, str | None]]:
    """Each distinct split once (a hand with two equal pairs of kinds has two ways to make
    the same split), then 三花 if it may be declared."""
    own = list(dict.fromkeys(splits(s.mine, s.rules)))
    out: list[tuple[Split, str | None]] = [(x, None) for x in own]
    declared = sanhua(s.mine, s.rules)
    if declared:
        out.append((own[0], declared))
    return out


def _unseen(s: Situation) -> Counter[Kind]:
    left = Counter(c.kind for c in DECK)
    left.subtract(s.mine)
    for o in s.opponents:
        left.subtract(o.visible)
    return +left


def _pairs(left: Counter[Kind]) -> Iterator[tuple[int, Kind, Kind]]:
    """Each kind pair of hidden cards with its number of physical pairs."""
    for a, b in combinations_with_replacement(sorted(left), 2):
        w = left[a] * (left[a] - 1) // 2 if a is b else left[a] * left[b]
        if w:
            yield w, a, b


def _exact(s: Situation, settler: _Settler) -> tuple[list[float], int] | None:
    """Enumerate every hidden pair of every opponent; None if too many."""
    left = _unseen(s)
    size = len(list(_pairs(left))) ** len(s.opponents)
    if size > EXACT_LIMIT:
        return None
    n = len(settler.options)
    totals = [0.0] * n
    weight = 0

    def walk(i: int, left: Counter[Kind], w: int, theirs: list[tuple[tuple[Key, float], ...]]
             ) -> None:
        nonlocal weight
        if i == len(s.opponents):
            weight += w
            _add(totals, w, theirs, settler)
            return
        vis = s.opponents[i].visible
        for m, a, b in _pairs(left):
            rest = left.copy()
            rest[a] -= 1
            rest[b] -= 1
            walk(i + 1, +rest, w * m,
                 [*theirs, _mixture(tuple(sorted((*vis, a, b))), s.rules)])

    walk(0, left, 1, [])
    return [t / weight for t in totals], weight


def _add(totals: list[float], w: float, theirs: Sequence[tuple[tuple[Key, float], ...]],
         settler: _Settler) -> None:
    """Add ``w`` × the expected net of each option over the opponents' mixtures."""
    combos: list[tuple[float, list[Key]]] = [(1.0, [])]
    for mix in theirs:
        combos = [(p * q, [*chosen, sp]) for p, chosen in combos for sp, q in mix]
    for opt in range(len(totals)):
        totals[opt] += w * sum(p * settler.net(opt, sp) for p, sp in combos)


def _sampled(s: Situation, settler: _Settler, samples: int, seed: int
             ) -> tuple[list[float], list[float], tuple[tuple[float, ...], ...]]:
    """Means, standard errors and the paired standard errors of every difference."""
    rng = random.Random(seed)
    pool = [k for k, n in _unseen(s).items() for _ in range(n)]
    n = len(settler.options)
    sums = [0.0] * n
    squares = [0.0] * n
    cross = [[0.0] * n for _ in range(n)]
    need = 2 * len(s.opponents)
    order = {k: k.index for k in KINDS}.__getitem__
    for _ in range(samples):
        hidden = rng.sample(pool, need)
        theirs = []
        for i, o in enumerate(s.opponents):
            mix = _mixture(tuple(sorted((*o.visible, *hidden[2 * i:2 * i + 2]), key=order)),
                           s.rules)
            theirs.append(draw(mix, rng))
        xs = [settler.net(opt, theirs) for opt in range(n)]
        for opt, x in enumerate(xs):
            sums[opt] += x
            squares[opt] += x * x
            row = cross[opt]
            for other in range(opt):
                row[other] += x * xs[other]
    means = [t / samples for t in sums]

    def error(square: float, mean: float) -> float:
        return math.sqrt(max(0.0, square / samples - mean * mean) / max(1, samples - 1))

    errors = [error(sq, m) for sq, m in zip(squares, means, strict=True)]
    # (x_i − x_j)² summed = Σx_i² + Σx_j² − 2 Σx_i·x_j
    diffs = tuple(tuple(
        0.0 if i == j else error(squares[i] + squares[j] - 2 * cross[max(i, j)][min(i, j)],
                                 means[i] - means[j])
        for j in range(n)) for i in range(n))
    return means, errors, diffs


def price(s: Situation, samples: int = SAMPLES, seed: int = 0) -> Pricing:
    """The expected net chips of every option in situation ``s`` (see the module doc)."""
    settler = _Settler(s)
    exact = _exact(s, settler)
    common = ("opponents' hidden cards from the unseen cards; opponents split by the "
              "advisor's equilibrium mixture and never declare 三花; real settlement")
    diffs: tuple[tuple[float, ...], ...] = ()
    if exact is not None:
        means, deals = exact
        errors = [0.0] * len(means)
        model = f"exact over {deals} hidden-card combinations; {common}"
    else:
        means, errors, diffs = _sampled(s, settler, samples, seed)
        deals = samples
        model = f"sampled {samples} deals (seed {seed}); {common}"
    options = tuple(Option(None if declared else split, declared, ev, err)
                    for (split, declared), ev, err in zip(settler.options, means, errors,
                                                          strict=True))
    best = max(range(len(options)), key=lambda i: (options[i].ev, -i))
    return Pricing(options, best, exact is not None, deals, model, diffs)


def pricing_json(p: Pricing) -> dict[str, Any]:
    """The CLI's output: ``{"options", "best", "model"}``."""
    out: list[dict[str, Any]] = []
    for o in p.options:
        entry: dict[str, Any] = ({"sanhua": True} if o.split is None else
                                 {"head": [k.code for k in o.split.head.kinds],
                                  "tail": [k.code for k in o.split.tail.kinds]})
        entry.update(ev=o.ev, stderr=o.stderr)
        out.append(entry)
    return {"options": out, "best": p.best, "model": p.model}

