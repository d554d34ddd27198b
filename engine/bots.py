"""Computer players for the practice table and the simulator.

* ``simple`` plays by fixed thresholds on the strength of its own cards and ignores
  everybody else; it splits with :func:`engine.hands.naive_split`.
* ``strong`` estimates its chances against each opponent still in by sampling their
  hidden cards (weighted by how they have bet and what they show face up), weighs pot
  odds and position, sometimes 打鸡 (bluffs a strong-looking face-up card) and 躺
  (slow-plays a big hand by 休), and splits with the advisor's best split when
  :mod:`engine.advisor` is available (else the naive split).

Hand strength: ``s = P(win) − P(lose)`` of a four-card hand (naive split) against one
random four-card hand; partial hands average over their completions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations

from .cards import DECK, KINDS, Kind
from .game import Act, Action, Game, Phase, card_by_label
from .hands import naive_split, sanhua, splits
from .rules import Rules

__all__ = ["BOT_LEVELS", "bot_action", "choose_split", "strength"]

BOT_LEVELS = ("simple", "strong")

Key = tuple[int, int]


@cache
def _key(kinds: tuple[Kind, ...], rules: Rules) -> Key:
    """(头 rank, 尾 rank) of the naive split of four sorted kinds."""
    s = naive_split(kinds, rules)
    return s.key(rules)


@cache
def _grid(rules: Rules) -> tuple[list[list[float]], list[list[float]], dict[Key, float], float]:
    """Counts of every (头, 尾) key over all C(32, 4) hands, with 2-D prefix sums:
    ``le[h][t]`` = hands with 头 ≤ h and 尾 ≤ t; ``ge`` likewise ≥."""
    counts: dict[Key, float] = {}
    for combo in combinations(range(len(DECK)), 4):
        kinds = tuple(sorted(DECK[i].kind for i in combo))
        k = _key(kinds, rules)
        counts[k] = counts.get(k, 0.0) + 1.0
    size = max(max(h for h, _ in counts), max(t for _, t in counts)) + 2
    le = [[0.0] * size for _ in range(size)]
    ge = [[0.0] * size for _ in range(size)]
    for (h, t), c in counts.items():
        le[h][t] += c
        ge[h][t] += c
    for h in range(size):
        for t in range(size):
            le[h][t] += (le[h - 1][t] if h else 0) + (le[h][t - 1] if t else 0) - (
                le[h - 1][t - 1] if h and t else 0)
    for h in range(size - 1, -1, -1):
        for t in range(size - 1, -1, -1):
            ge[h][t] += (ge[h + 1][t] if h + 1 < size else 0) + (
                ge[h][t + 1] if t + 1 < size else 0) - (
                ge[h + 1][t + 1] if h + 1 < size and t + 1 < size else 0)
    return le, ge, counts, float(sum(counts.values()))


@cache
def _full_strength(kinds: tuple[Kind, ...], rules: Rules) -> float:
    le, ge, counts, total = _grid(rules)
    h, t = _key(kinds, rules)
    same = counts.get((h, t), 0.0)
    return ((le[h][t] - same) - (ge[h][t] - same)) / total


@cache
def strength(known: tuple[Kind, ...], rules: Rules) -> float:
    """Strength of a hand of which ``known`` (sorted kinds, 0–4) are known: the mean
    over the completions from the rest of the deck."""
    if len(known) == 4:
        return _full_strength(known, rules)
    rest = list(DECK)
    for k in known:
        for c in rest:
            if c.kind is k:
                rest.remove(c)
                break
    total = 0.0
    n = 0
    for combo in combinations(rest, 4 - len(known)):
        total += _full_strength(tuple(sorted(known + tuple(c.kind for c in combo))), rules)
        n += 1
    return total / n if n else 0.0


def _sorted(kinds: Iterable[Kind]) -> tuple[Kind, ...]:
    return tuple(sorted(kinds))


def choose_split(game: Game, seat: int, level: str) -> Action:
    """The showdown action of a bot: 三花 when it pays, else the chosen split."""
    kinds = game.kinds(seat)
    rules = game.rules
    hand = game.hand
    assert hand is not None
    labels = hand.cards[seat]
    best_index: int
    best_ev: float | None = None
    if level == "strong":
        best_index, best_ev = _advised(kinds, rules)
    else:
        best_index = splits(kinds, rules).index(naive_split(kinds, rules))
    if sanhua(kinds, rules):
        s = _full_strength(_sorted(kinds), rules) if best_ev is None else best_ev
        if s < 0:
            return Action(Act.SANHUA, seat)
    pairs = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))[best_index]
    return Action(Act.SPLIT, seat, None, tuple(labels[i] for i in pairs))


def _advised(kinds: Sequence[Kind], rules: Rules) -> tuple[int, float | None]:
    """Index of the advisor's best split (in :func:`splits` order) and its EV."""
    try:
        from . import advisor
    except ImportError:
        return splits(kinds, rules).index(naive_split(kinds, rules)), None
    try:
        advice = advisor.advise(tuple(kinds), rules)
        best = int(advice.best)
        ev = float(advice.splits[best].ev)
        return best, ev
    except Exception:  # an advisor still in progress must never break a table
        return splits(kinds, rules).index(naive_split(kinds, rules)), None


# ---------------------------------------------------------------------- decisions
def bot_action(game: Game, seat: int, rng: random.Random) -> Action:
    """What the bot in ``seat`` does now (between hands: re-buy when empty)."""
    level = game.seats[seat].bot or "simple"
    if game.phase is Phase.BETWEEN:
        if game.seats[seat].bobo <= 0:
            return Action(Act.REBUY, seat, game.rules.stakes.later_bobo)
        raise ValueError("a bot has nothing to do between hands")
    if game.phase is Phase.SHOWDOWN:
        return choose_split(game, seat, level)
    policy: Callable[[Game, int, random.Random], Action] = (
        _strong if level == "strong" else _simple)
    action = policy(game, seat, rng)
    return action if game.can(action) else _fallback(game, seat)


def _fallback(game: Game, seat: int) -> Action:
    legal = game.legal_actions(seat)
    for act in (Act.CHECK, Act.CALL, Act.FOLD):
        if act in legal:
            return Action(act, seat)
    return Action(legal.acts[0], seat)


def _own(game: Game, seat: int) -> tuple[Kind, ...]:
    return _sorted(card_by_label(c).kind for c in game.visible_cards(seat, seat))


def _simple(game: Game, seat: int, rng: random.Random) -> Action:
    hand = game.hand
    assert hand is not None
    legal = game.legal_actions(seat)
    s = strength(_own(game, seat), game.rules)
    facing = Act.CALL in legal
    big = hand.level >= 4 * game.rules.stakes.raise_floor
    if s > 0.45 and legal.min_raise is not None and hand.level < 3 * game.rules.stakes.raise_floor:
        return Action(Act.RAISE, seat, legal.min_raise)
    if facing:
        if s > (0.25 if big else -0.05 if hand.round == 1 else 0.05):
            return Action(Act.CALL, seat)
        return Action(Act.FOLD, seat)
    return Action(Act.CHECK, seat)


def _unseen(game: Game, seat: int) -> list[Kind]:
    """Kinds of the physical cards the bot cannot see."""
    hand = game.hand
    assert hand is not None
    seen: list[Kind] = list(_own(game, seat))
    for other in hand.order:
        if other != seat:
            seen += [card_by_label(c).kind for c in game.visible_cards(other, seat)]
    pool = [c.kind for c in DECK]
    for k in seen:
        pool.remove(k)
    return pool


def _aggression(game: Game, seat: int) -> int:
    """How many times ``seat`` has raised this hand."""
    hand = game.hand
    assert hand is not None
    return sum(1 for a in hand.actions if a.get("seat") == seat
               and a["kind"] in ("raise", "tuo", "qiao"))


def _edge(game: Game, seat: int, rng: random.Random, samples: int = 40) -> float:
    """Expected Σ over opponents of (win − lose) at the showdown, by sampling the hidden
    cards; opponents who raised are assumed to hold stronger hands."""
    hand = game.hand
    assert hand is not None
    rules = game.rules
    mine = list(_own(game, seat))
    opps = [s for s in game.in_hand() if s != seat]
    if not opps:
        return 1.0
    pool = _unseen(game, seat)
    shown = {o: [card_by_label(c).kind for c in game.visible_cards(o, seat)] for o in opps}
    betas = {o: 3.0 * _aggression(game, o) for o in opps}
    total = 0.0
    weight = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        i = 0
        me = mine + pool[i:i + 4 - len(mine)]
        i += 4 - len(mine)
        my_key = _key(_sorted(me), rules)
        w = 1.0
        score = 0.0
        for o in opps:
            need = 4 - len(shown[o])
            theirs = _sorted(shown[o] + pool[i:i + need])
            i += need
            if betas[o]:
                w *= math.exp(betas[o] * _full_strength(theirs, rules))
            h, t = _key(theirs, rules)
            dh, dt = my_key[0] - h, my_key[1] - t
            if dh >= 0 and dt >= 0 and dh + dt > 0:
                score += 1
            elif dh <= 0 and dt <= 0 and dh + dt < 0:
                score -= 1
        total += w * score
        weight += w
    return total / weight


def _strong(game: Game, seat: int, rng: random.Random) -> Action:
    hand = game.hand
    assert hand is not None
    rules = game.rules
    legal = game.legal_actions(seat)
    committed = hand.committed[seat]
    opps = [s for s in game.in_hand() if s != seat]
    if hand.round == 1:
        s = strength(_own(game, seat), rules)
        raises = sum(_aggression(game, o) for o in opps)
        edge = len(opps) * (s - 0.18 * raises) + 0.1 * len(opps) * s
    else:
        edge = _edge(game, seat, rng)
    target = hand.level
    facing = Act.CALL in legal
    bobo = game.seats[seat].bobo
    pi_pot = sum(hand.committed[s] for s in hand.order if hand.folded[s]) + game.state.pot

    def raise_to(level: int) -> Action:
        if legal.min_raise is None:
            return Action(Act.QIAO, seat) if Act.QIAO in legal else Action(Act.CALL, seat)
        return Action(Act.RAISE, seat, max(legal.min_raise, min(level, bobo)))

    strong_hand = edge > 0.55 * max(1, len(opps))
    good = edge > 0.25 * max(1, len(opps))
    if not facing:  # rounds 2–3, nobody has bet: 休 or 发招
        if strong_hand and rng.random() < 0.3 and hand.round == 2:
            return Action(Act.CHECK, seat)  # 躺: slow-play and wait to be woken
        if good:
            return raise_to(max(legal.min_raise or 0, target * 3))
        up = [card_by_label(c).kind for c in game.visible_cards(seat, None)]
        if up and up[-1].single_class >= Kind.R8.single_class and rng.random() < 0.15:
            return raise_to(legal.min_raise or 0)  # 打鸡: bet the strong-looking card
        return Action(Act.CHECK, seat)
    # facing a bet: pot odds — calling to L risks L more on an edge-weighted result
    cost = legal.call_to - committed
    ev_call = edge * legal.call_to + (pi_pot if edge > 0 else 0) * 0.5
    if strong_hand and legal.min_raise is not None and bobo > target:
        if edge > 0.8 * len(opps) and rng.random() < 0.3:
            return Action(Act.QIAO, seat)
        return raise_to(target * 3)
    if ev_call > -committed * 0.9 or cost == 0:
        if good and legal.min_raise is not None and rng.random() < 0.35:
            return raise_to(legal.min_raise)
        return Action(Act.CALL, seat)
    return Action(Act.FOLD, seat)


def warm(rules: Rules) -> None:
    """Build the strength tables (about a second) before timing anything."""
    _grid(rules)
    for a in KINDS:
        for b in KINDS:
            if a.index <= b.index and (a is not b or a.copies == 2):
                strength((a, b), rules)
