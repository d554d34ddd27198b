"""Split advisor: the exact expected result of each split of a four-card hand.

The model
=========

*One showdown, one opponent.*  You hold four cards; one opponent holds four
cards drawn from the 28 you cannot see.  Both of you split (RULES.md §3) and the
two splits are compared: 吃 (win) scores +1, 走 (no result) 0, 死 (lose) −1.  The
expected value (EV) of a split is that score averaged over **every** possible
opponent hand — all C(28, 4) = 20,475 physical hands, each kind-level hand
weighted by the number of physical card sets that give it (no sampling).

*How the opponent splits.*  The opponent does not always take the "strongest 头,
then strongest 尾" split (the naive rule): against that rule a best reply gains
about +0.04 per showdown.  The opponent here plays a near-equilibrium *mixed*
strategy found by **fictitious play**: start from the naive rule; each round,
every hand takes its best split against the *average* of all earlier rounds
(ties to the lowest split index); stop as soon as the average strategy's
*exploitability* — the EV of the best reply to it, averaged over all hands with
their true probabilities — is below 0.001.  The game is symmetric and zero-sum,
so an exact equilibrium has exploitability 0; the stored figure says how close
the stored mixture is.  The advice for you is the best reply to that mixture.

*Not modelled.*  Betting, folding, more than one opponent, and the cards seen
face up in rounds 2 and 3 are ignored (the opponent's hand is uniformly random
among the unseen cards).  三花 declarations are ignored too: the EV is that of a
showdown between two split hands, and a hand that may declare 三花 is advised as
a hand that splits (the CLI still says that 三花 may be declared, which makes the
hand a sure 走 instead).

*Rule options.*  Only ``diwang`` changes group rankings, hence EVs, so there is
one table per ranking: ``strategy-xuanjing.json`` (``diwang`` off) and
``strategy-app.json`` (``diwang`` on).  Any other combination of options maps
to the table with the same ranking; the table stores a fingerprint of the
ranking it was built for and loading refuses a table that does not match.

The tables are built once by ``python -m engine build-strategy`` (numpy, see
:mod:`engine.strategy_build`) and committed.  This module only reads them, with
the standard library; it never builds anything.

Exactness: the mixture after *T* rounds is *counts / T*, so every probability is
an integer over ``T · 20475``; the tables store those integers, and the floats
here are exact up to the final division.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Any

from .cards import KINDS, Kind
from .groups import ALL_GROUPS, rank_table
from .hands import Split, naive_split, parse_hand, splits
from .rules import Rules, get_rules

__all__ = [
    "DISTINCT_HANDS", "FORMAT", "OPPONENT_HANDS", "SEEN_HANDS", "Advice", "AdvisorError",
    "NaiveDifferences", "NaiveExample", "RuleQuality", "SplitAdvice", "StrategyTable", "advise",
    "all_hands", "canonical", "hand_code", "hand_probability", "load_table", "multiplicity",
    "naive_differences", "opponent_weight", "preset_for", "ranking_fingerprint", "rule_quality",
    "strategy_for", "table_filename",
]

FORMAT = 1
DISTINCT_HANDS = 4285  # four-card hands by kind
SEEN_HANDS = comb(32, 4)  # 35,960 physical four-card hands
OPPONENT_HANDS = comb(28, 4)  # 20,475 physical hands from the 28 unseen cards


class AdvisorError(RuntimeError):
    """The strategy table is missing, malformed or built for another ranking."""


# --------------------------------------------------------------------------- hands


def canonical(kinds: Sequence[Kind]) -> tuple[Kind, ...]:
    """The kinds in single-card order (the table's order)."""
    return tuple(sorted(kinds, key=lambda k: k.index))


def hand_code(kinds: Sequence[Kind]) -> str:
    """``"RQ RQ R2 B4"``: the canonical codes, space separated."""
    return " ".join(k.code for k in canonical(kinds))


@cache
def all_hands() -> tuple[tuple[Kind, ...], ...]:
    """Every distinct four-card hand by kind, canonical, in lexicographic order."""
    hands = tuple(
        h for h in combinations_with_replacement(KINDS, 4)
        if all(n <= k.copies for k, n in Counter(h).items())
    )
    assert len(hands) == DISTINCT_HANDS, len(hands)
    return hands


def multiplicity(kinds: Sequence[Kind], removed: Sequence[Kind] = ()) -> int:
    """Physical card sets giving these kinds, from the deck minus ``removed``."""
    gone = Counter(removed)
    return prod(comb(k.copies - gone[k], n) for k, n in Counter(kinds).items())


def hand_probability(kinds: Sequence[Kind]) -> Fraction:
    """Probability of being dealt these four kinds."""
    return Fraction(multiplicity(kinds), SEEN_HANDS)


def opponent_weight(mine: Sequence[Kind], theirs: Sequence[Kind]) -> int:
    """Physical opponent hands (of the 20,475) with the kinds ``theirs``."""
    return multiplicity(theirs, removed=mine)


# --------------------------------------------------------------------------- rules


def preset_for(rules: Rules) -> str:
    """The table with the same group ranking as ``rules`` (only ``diwang`` matters)."""
    return "app" if rules.diwang else "xuanjing"


def table_filename(preset: str) -> str:
    return f"strategy-{preset}.json"


def ranking_fingerprint(rules: Rules) -> str:
    """A short hash of every group's rank: a table is valid for one ranking only."""
    table = rank_table(rules)
    text = ",".join(f"{g.code}:{table[g]}" for g in ALL_GROUPS)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- table


@dataclass(frozen=True)
class Row:
    """One hand of the table: numerators over ``T · 20475`` and the mixture over ``T``."""

    wins: tuple[int, int, int]
    losses: tuple[int, int, int]
    mix: tuple[int, int, int]


@dataclass(frozen=True)
class StrategyTable:
    """A loaded ``strategy-<preset>.json`` (see the module docstring)."""

    preset: str
    rounds: int  # T: the opponent mixture is counts / T
    denominator: int  # T · 20475: win/lose numerators are over this
    exploitability: float
    opponent: str
    rows: dict[tuple[Kind, ...], Row]

    def row(self, kinds: Sequence[Kind]) -> Row:
        return self.rows[canonical(kinds)]


def opponent_description(rounds: int, exploitability: float) -> str:
    return (f"fictitious-play equilibrium ({rounds} rounds from the naive split), "
            f"exploitability {exploitability:.6f}")


def parse_table(raw: Any, rules: Rules) -> StrategyTable:
    """Check and convert the JSON of a strategy table; raise :class:`AdvisorError`."""
    preset = preset_for(rules)
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise AdvisorError(f"{table_filename(preset)}: unknown format")
    if raw.get("ranking") != ranking_fingerprint(rules):
        raise AdvisorError(f"{table_filename(preset)} was built for another group ranking; "
                           "rebuild it with `python -m engine build-strategy`")
    rounds, denominator = int(raw["rounds"]), int(raw["denominator"])
    if denominator != rounds * OPPONENT_HANDS:
        raise AdvisorError(f"{table_filename(preset)}: inconsistent denominator")
    rows: dict[tuple[Kind, ...], Row] = {}
    hands = all_hands()
    if len(raw["hands"]) != len(hands):
        raise AdvisorError(f"{table_filename(preset)}: expected {len(hands)} hands")
    for kinds, entry in zip(hands, raw["hands"], strict=True):
        if entry[0] != hand_code(kinds):
            raise AdvisorError(f"{table_filename(preset)}: hand {entry[0]!r} out of order")
        n = [int(x) for x in entry[1:]]
        rows[kinds] = Row((n[0], n[2], n[4]), (n[1], n[3], n[5]), (n[6], n[7], n[8]))
    expl = float(raw["exploitability"])
    return StrategyTable(preset, rounds, denominator, expl,
                         opponent_description(rounds, expl), rows)


@cache
def _load(preset: str) -> StrategyTable:
    rules = get_rules(preset)
    try:
        text = resources.files("engine.data").joinpath(table_filename(preset)).read_text("utf-8")
    except FileNotFoundError:
        raise AdvisorError(f"{table_filename(preset)} is missing; build it with "
                           "`python -m engine build-strategy`") from None
    return parse_table(json.loads(text), rules)


def load_table(rules: Rules) -> StrategyTable:
    """The strategy table for this ranking (read once, then cached)."""
    return _load(preset_for(rules))


# --------------------------------------------------------------------------- advice


@dataclass(frozen=True)
class SplitAdvice:
    """One split and its exact result against the opponent mixture."""

    split: Split
    ev: float  # p_win − p_lose
    p_win: float
    p_push: float
    p_lose: float


@dataclass(frozen=True)
class Advice:
    """The three splits of a hand (in :func:`engine.hands.splits` order) with their EVs."""

    kinds: tuple[Kind, ...]
    splits: tuple[SplitAdvice, SplitAdvice, SplitAdvice]
    best: int  # index of the max-EV split (lowest index on ties)
    naive: int  # index of the "strongest 头, then strongest 尾" split
    opponent: str
    exploitability: float

    @property
    def gain_over_naive(self) -> float:
        return self.splits[self.best].ev - self.splits[self.naive].ev


def _positions(kinds: Sequence[Kind], rules: Rules) -> tuple[tuple[Split, ...], list[int]]:
    """The hand's splits in the caller's order and, for each, its canonical index."""
    mine = splits(kinds, rules)
    canon = splits(canonical(kinds), rules)
    return mine, [canon.index(s) for s in mine]


def advise(kinds: Sequence[Kind], rules: Rules) -> Advice:
    """Exact EV and 吃/走/死 probabilities of each split; raise ``CardError`` for a bad hand."""
    kinds = parse_hand([k.code for k in kinds])
    table = load_table(rules)
    row = table.row(kinds)
    mine, where = _positions(kinds, rules)
    d = table.denominator
    out = []
    for s, j in zip(mine, where, strict=True):
        w, lo = row.wins[j], row.losses[j]
        out.append(SplitAdvice(s, (w - lo) / d, w / d, (d - w - lo) / d, lo / d))
    nets = [row.wins[j] - row.losses[j] for j in where]
    best = nets.index(max(nets))
    naive = mine.index(naive_split(kinds, rules))
    return Advice(tuple(kinds), (out[0], out[1], out[2]), best, naive, table.opponent,
                  table.exploitability)


def strategy_for(kinds: Sequence[Kind], rules: Rules) -> tuple[float, float, float]:
    """The opponent model's mixture over this hand's three splits (for bots).

    Identical splits (a hand with a pair of kinds can have two) get all their
    weight on the first of them.
    """
    kinds = parse_hand([k.code for k in kinds])
    table = load_table(rules)
    row = table.row(kinds)
    mine, _ = _positions(kinds, rules)
    canon = splits(canonical(kinds), rules)
    mix = [0, 0, 0]
    for j, count in enumerate(row.mix):
        mix[mine.index(canon[j])] += count
    return (mix[0] / table.rounds, mix[1] / table.rounds, mix[2] / table.rounds)


# --------------------------------------------------------------------------- teaching


@dataclass(frozen=True)
class NaiveExample:
    kinds: tuple[Kind, ...]
    naive: Split
    best: Split
    ev_naive: float
    ev_best: float
    probability: float  # of being dealt this hand

    @property
    def gain(self) -> float:
        return self.ev_best - self.ev_naive


@dataclass(frozen=True)
class NaiveDifferences:
    """How often the best split is not the naive "strongest 头" split."""

    probability: float  # chance of being dealt such a hand
    hands: int  # distinct hands where the best split beats the naive one
    total_hands: int  # 4,285
    mean_gain: float  # EV gained per showdown, averaged over all hands
    mean_gain_when_differs: float  # … over the hands where they differ
    examples: tuple[NaiveExample, ...]  # largest gains first


@dataclass(frozen=True)
class RuleQuality:
    """How good a split rule (such as :func:`engine.hands.naive_split`) is."""

    share: float  # chance, over dealt hands, that it picks a best-EV split (ties count)
    mean_loss: float  # EV given up per showdown against always splitting best


@cache
def rule_quality(rules: Rules, choose: Callable[[Sequence[Kind], Rules], Split]) -> RuleQuality:
    """Measure a split rule over every hand, weighted by the chance of being dealt it."""
    table = load_table(rules)
    hits = loss = 0
    for kinds in all_hands():
        row = table.rows[kinds]
        nets = [w - lo for w, lo in zip(row.wins, row.losses, strict=True)]
        chosen = nets[splits(kinds, rules).index(choose(kinds, rules))]
        m = multiplicity(kinds)
        hits += m * (chosen == max(nets))
        loss += m * (max(nets) - chosen)
    return RuleQuality(hits / SEEN_HANDS, loss / (SEEN_HANDS * table.denominator))


@cache
def naive_differences(rules: Rules, top: int = 10) -> NaiveDifferences:
    """The teaching finding: where the naive split loses EV, and by how much."""
    table = load_table(rules)
    d = table.denominator
    found: list[tuple[int, int, tuple[Kind, ...], int, int]] = []
    gain_total = 0  # Σ mult · (net_best − net_naive), over SEEN_HANDS · d
    mult_total = 0
    for kinds in all_hands():
        row = table.rows[kinds]
        nets = [w - lo for w, lo in zip(row.wins, row.losses, strict=True)]
        options = splits(kinds, rules)
        naive = options.index(naive_split(kinds, rules))
        best = nets.index(max(nets))
        if nets[best] > nets[naive]:
            m = multiplicity(kinds)
            found.append((nets[best] - nets[naive], m, kinds, naive, best))
            gain_total += m * (nets[best] - nets[naive])
            mult_total += m
    found.sort(key=lambda f: (-f[0], -f[1], [k.index for k in f[2]]))
    examples = []
    for _, m, kinds, naive, best in found[:top]:
        row = table.rows[kinds]
        options = splits(kinds, rules)
        examples.append(NaiveExample(
            kinds, options[naive], options[best],
            (row.wins[naive] - row.losses[naive]) / d, (row.wins[best] - row.losses[best]) / d,
            m / SEEN_HANDS,
        ))
    return NaiveDifferences(
        probability=mult_total / SEEN_HANDS,
        hands=len(found),
        total_hands=len(all_hands()),
        mean_gain=gain_total / (SEEN_HANDS * d),
        mean_gain_when_differs=gain_total / (mult_total * d) if mult_total else 0.0,
        examples=tuple(examples),
    )
