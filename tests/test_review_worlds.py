"""The review's worlds (:class:`engine.review._Worlds`) against the posterior computed by
brute force: with at most three bots that acted every world is drawn from the
posterior itself (all weigh the same), and the bots' hidden pairs come out as often as
a sum over every combination of physical cards says."""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import cache

from engine.cards import Kind
from engine.game import BETTING, Act, Action, Game, Phase, card_by_label
from engine.players import bot_action
from engine.review import _Worlds, decisions
from engine.rules import Rules
from tests.coach_hands import fixed_hands

Spot = tuple[Game, Action, tuple[Game, list[Action]]]


@cache
def spots() -> list[Spot]:
    return [(g.copy(), a, (s[0], list(s[1]))) for data in fixed_hands()
            for g, a, s in decisions(data["config"], data["log"], 0)]


def _worlds(spot: Spot) -> _Worlds:
    game, _, start = spot
    assert game.to_act is not None
    return _Worlds(game, game.to_act, *start)


def test_worlds_weigh_the_same_with_up_to_three_bots_that_acted() -> None:
    rng = random.Random(1)
    seen = Counter[int]()
    for spot in spots():
        worlds = _worlds(spot)
        if not 1 <= len(worlds.likely) <= 3:
            continue
        seen[len(worlds.likely)] += 1
        weights = [worlds.draw(rng, rng.random())[1] for _ in range(30)]
        positive = [w for w in weights if w > 0]
        assert positive and all(math.isclose(w, positive[0], rel_tol=1e-9) for w in positive)
    assert set(seen) == {1, 2, 3}


def _hidden(g: Game, seat: int) -> tuple[str, str]:
    cards = g.hand.cards[seat]  # type: ignore[union-attr]
    return cards[0], cards[1]


def test_hidden_pairs_follow_the_posterior_of_rejection_sampling() -> None:
    """A four-seat spot where three bots acted: how often each bot's hidden pair holds a
    card of each kind (and how often two bots hold a kind alike), over 8,000 drawn
    worlds, against physical deals of the unseen cards kept with a probability
    proportional to the product of the bots' likelihoods (rejection sampling: the
    posterior by its definition)."""
    spot = next(s for s in spots() if len(_worlds(s).likely) == 3
                and s[0].hand is not None and s[0].hand.round <= 2)
    worlds = _worlds(spot)
    likely = worlds.likely
    pool = worlds.pool_labels
    kind = {c: card_by_label(c).kind for c in pool}
    kinds = set(kind.values())
    top = [max(b.of.values()) for b in likely]
    rng = random.Random(7)

    def holds(pairs: list[tuple[str, str]]) -> list[set[Kind]]:
        return [{kind[a], kind[b]} for a, b in pairs]

    kept: list[list[set[Kind]]] = []
    n = 8000
    while len(kept) < n:
        cards = rng.sample(pool, 2 * len(likely))
        pairs = [(cards[2 * j], cards[2 * j + 1]) for j in range(len(likely))]
        chance = math.prod(b.of[kind[x], kind[y]] / t
                           for b, t, (x, y) in zip(likely, top, pairs, strict=True))
        if rng.random() < chance:
            kept.append(holds(pairs))
    drawn = []
    for _ in range(n):
        g, w = worlds.draw(rng, rng.random())
        assert w > 0
        drawn.append(holds([_hidden(g, b.seat) for b in likely]))

    def share(hands: list[list[set[Kind]]], i: int, j: int, k: Kind | None) -> float:
        """How often bot ``j`` holds kind ``k`` (None: bots ``i`` and ``j`` hold a kind
        alike)."""
        return sum((k in h[j]) if k is not None else bool(h[i] & h[j])
                   for h in hands) / len(hands)

    events = [(j, j, k) for j in range(len(likely)) for k in kinds]
    events += [(i, j, None) for j in range(len(likely)) for i in range(j)]
    for event in events:
        a, b = share(drawn, *event), share(kept, *event)
        p = (a + b) / 2
        assert abs(a - b) <= 4 * math.sqrt(p * (1 - p) * 2 / n) + 1e-3, (event, a, b)


def _many_bots_spot() -> tuple[Game, list[Action], Game]:
    """A six-seat table of strong bots at a decision after four or more others acted
    in round 2 (the seat to act as the learner)."""
    for seed in range(50):
        game = Game.new([(f"b{i}", "strong") for i in range(6)], Rules(), seed)
        game.apply(Action(Act.DEAL))
        first = game.at_deal()
        rng = random.Random(seed)
        past: list[Action] = []
        while game.phase is Phase.BETTING and game.hand is not None:
            seat = game.to_act
            assert seat is not None
            if game.hand.round == 2 and len(
                    {a.seat for a in past if a.kind in BETTING and a.seat != seat}) >= 4:
                return game, past, first
            action = bot_action(game, seat, rng)
            past.append(action)
            game.apply(action)
    raise AssertionError("no such spot in 50 deals")


def test_with_more_bots_the_weighted_worlds_are_the_posterior() -> None:
    """Four or more bots that acted: the tables look ahead to the next bots only, so
    worlds weigh differently; the weighted share of each bot's hidden kinds against
    rejection sampling, as above."""
    game, past, first = _many_bots_spot()
    seat = game.to_act
    assert seat is not None
    worlds = _Worlds(game, seat, first, past)
    likely = worlds.likely
    assert len(likely) >= 4
    kind = {c: card_by_label(c).kind for c in worlds.pool_labels}
    top = [max(b.of.values()) for b in likely]
    rng = random.Random(3)
    n = 3000
    kept: list[list[set[Kind]]] = []
    while len(kept) < n:
        cards = rng.sample(worlds.pool_labels, 2 * len(likely))
        pairs = [(cards[2 * j], cards[2 * j + 1]) for j in range(len(likely))]
        chance = math.prod(b.of[kind[x], kind[y]] / t
                           for b, t, (x, y) in zip(likely, top, pairs, strict=True))
        if rng.random() < chance:
            kept.append([{kind[x], kind[y]} for x, y in pairs])
    weights, drawn = [], []
    for _ in range(n):
        g, w = worlds.draw(rng, rng.random())
        weights.append(w)
        drawn.append([{card_by_label(c).kind for c in _hidden(g, b.seat)} for b in likely])
    assert len({round(w / max(weights), 9) for w in weights}) > 1  # not all alike
    total = sum(weights)
    effective = total ** 2 / sum(w * w for w in weights)
    for j in range(len(likely)):
        for k in set(kind.values()):
            a = sum(w for w, h in zip(weights, drawn, strict=True) if k in h[j]) / total
            b = sum(k in h[j] for h in kept) / n
            p = (a + b) / 2
            assert abs(a - b) <= 4 * math.sqrt(p * (1 - p) * (1 / effective + 1 / n)) + 1e-3, \
                (j, k, a, b)
