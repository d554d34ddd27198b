"""The ``expert`` bot (issue 14 §4): it acts by the review's evaluation.

**Betting.**  At each decision the expert prices its alternatives (甩, 瞧 or 休, 拖, the
minimum 返, a large 返, 敲: :func:`engine.review.alternatives`) exactly as the review
prices a learner's decision (:func:`engine.review.play_values`): the cards it cannot see
dealt at random, each world weighted by how likely the bots' actions so far were under
their policies (Bayes), every alternative played out to the end of the hand with the
same random numbers (the others by their policies, its own later decisions by the
``strong`` policy) and settled for real; folding is exact.  To fit a decision into
300 ms of one core it uses :data:`WORLDS` worlds instead of the review's 100.

Each bet (返, 拖, 敲) is then marked down by :data:`CAUTION` standard errors of its
paired difference from 瞧 / 休, so that a few lucky worlds do not push it into a big
bet.  It acts by a soft-max over those prices, with temperature :data:`TEMPERATURE`
times the level (at least the raise floor), so close alternatives mix and it cannot be
read off its bets; an alternative priced more than :data:`CUT` temperatures below the
best is never taken, and 甩 is never taken when 休 is free.  Its random numbers come
from the table's seed, the hand and the action count, so a table replays the same.

**Splitting.**  At the showdown it prices every split (and 三花) in the situation at
hand with :func:`engine.showdown.price` — its cards, the others' face-up cards, every
stake, the 皮 and the 芒果 pot — and takes the best.
"""

from __future__ import annotations

import math
import random

from .bots import Policy, distribution, view
from .game import Act, Action, Game
from .review import alternatives, play_values, weighted_mean
from .showdown import at_table, price

__all__ = ["CAUTION", "CUT", "SPLIT_SAMPLES", "TEMPERATURE", "WORLDS",
           "expert_policy", "expert_split", "prices"]

WORLDS = 40  # worlds per decision
CAUTION = 1.0  # standard errors of its edge over 瞧 / 休 taken off each bet's price
TEMPERATURE = 0.1  # soft-max temperature in units of the level
CUT = 4.0  # alternatives this many temperatures below the best are never taken
SPLIT_SAMPLES = 600  # showdown deals sampled when the split cannot be priced exactly


def _rng(game: Game, salt: str) -> random.Random:
    st = game.state
    return random.Random(f"expert:{salt}:{st.seed}:{st.hand_no}:{game.seq}")


def prices(game: Game, seat: int, worlds: int | None = None) -> list[tuple[Action, float]]:
    """The expert's alternatives now (the review's, :func:`engine.review.alternatives`)
    with their expected chips (fold exact); empty when no sampled world explains the
    bots' actions."""
    options = alternatives(game, seat)
    weights, values = play_values(game, seat, options, worlds or WORLDS, _rng(game, "bet"))
    if not sum(weights):
        return []
    # 瞧 / 休 is the baseline; each bet is its price minus CAUTION standard errors of
    # its paired difference from the baseline (a noisy edge is not taken at face value)
    base = next(xs for a, xs in zip(options, values, strict=True)
                if a.kind in (Act.CALL, Act.CHECK))
    out = []
    for a, xs in zip(options, values, strict=True):
        ev = weighted_mean(weights, xs)[0]
        if a.kind in (Act.RAISE, Act.TUO, Act.QIAO):
            ev -= CAUTION * weighted_mean(weights, [x - b for x, b in
                                                    zip(xs, base, strict=True)])[1]
        out.append((a, ev))
    return out


def expert_policy(game: Game, seat: int) -> Policy:
    """The expert's distribution over its alternatives (see the module doc)."""
    priced = prices(game, seat)
    if not priced:  # nothing explains what the others did: fall back on the strong bot
        return distribution(view(game, seat), "strong", game.rules)
    hand = game.hand
    assert hand is not None
    tau = TEMPERATURE * max(hand.level, game.rules.stakes.raise_floor)
    top = max(ev for _, ev in priced)
    weights = [math.exp((ev - top) / tau) if ev >= top - CUT * tau else 0.0
               for _, ev in priced]
    total = sum(weights)
    return tuple((a, w / total) for (a, _), w in zip(priced, weights, strict=True) if w)


def expert_split(game: Game, seat: int) -> Action:
    """The best option of the showdown priced in the situation at hand."""
    hand = game.hand
    assert hand is not None
    pricing = price(at_table(game, seat, game.state.pot), SPLIT_SAMPLES,
                    _rng(game, "split").randrange(2**31))
    best = pricing.options[pricing.best]
    if best.split is None:
        return Action(Act.SANHUA, seat)
    labels = list(hand.cards[seat])
    kinds = list(game.kinds(seat))
    ordered: list[str] = []
    head, tail = best.split.head, best.split.tail
    for k in (head.high, head.low, tail.high, tail.low):
        i = kinds.index(k)
        ordered.append(labels.pop(i))
        kinds.pop(i)
    return Action(Act.SPLIT, seat, None, tuple(ordered))
