"""How often the learner's hand wins at the showdown (engine/review.py, "Showdown wins"):
the Bayes-weighted figure against an independent computation, and its range."""

from __future__ import annotations

import math
import random

import pytest

from engine.bots import bot_action, choose_split
from engine.cards import DECK
from engine.game import Act, Action, Game, Phase
from engine.review import price_decision
from tests.test_review import spot


def rejection_win(start: Game, now: Game, past: list[Action], tries: int, seed: int
                  ) -> tuple[float, float, int]:
    """Independent check: deal the unseen cards, keep only the worlds where the bots,
    acting by their policies, did what they did; then send the hand to the table engine's
    own showdown (every seat still in at the current level, each splitting by its policy)
    and count the worlds where the learner's net is positive."""
    rng = random.Random(seed)
    hand = now.hand
    assert hand is not None
    visible = {(s, i) for s in hand.order for i, c in enumerate(hand.cards[s])
               if c in now.visible_cards(s, 0)}
    known = {hand.cards[s][i] for s, i in visible}
    results = []
    for _ in range(tries):
        g = Game.from_json(start.to_json())
        h = g.hand
        assert h is not None
        pool = [c.label for c in DECK if c.label not in known]
        rng.shuffle(pool)
        for s in h.order:
            h.cards[s] = [c if (s, i) in visible else pool.pop() for i, c in enumerate(h.cards[s])]
        ok = True
        for a in past:
            if a.seat:
                mine = g.verify(bot_action(g, a.seat, rng))
                if (mine.kind, mine.amount) != (a.kind, a.amount):
                    ok = False
                    break
            g.apply(a)
        if not ok:
            continue
        for s in h.order:
            if not h.folded[s]:
                h.committed[s] = max(h.committed[s], min(h.level, g.seats[s].bobo))
        g._start_showdown()
        while g.phase is Phase.SHOWDOWN:
            actor = g.to_act
            assert actor is not None
            g.apply(choose_split(g, actor, g.seats[actor].bot or "strong"))
        result = g.history[-1].result
        assert result is not None
        results.append(1.0 if result.nets[0] > 0 else 0.0)
    n = len(results)
    p = sum(results) / n
    return p, math.sqrt(p * (1 - p) / n), n


@pytest.mark.parametrize("seed", [5, 9])
def test_win_rate_agrees_with_rejection_sampling(seed: int) -> None:
    start, game, past = spot(seed)
    decision = price_decision(game, worlds=200, seed=seed)
    assert 0 < decision.win < 1 and decision.win_stderr > 0
    p, error, kept = rejection_win(start, game, past, 4000, seed + 200)
    assert kept > 400
    assert abs(decision.win - p) <= 3 * math.hypot(decision.win_stderr, error), \
        (decision.win, decision.win_stderr, p, error)


def test_an_unbeatable_hand_always_wins() -> None:
    """丁二皇 with 天对 (all four cards seen in round 3) beats every other hand both ways:
    it wins every showdown, exactly."""
    for seed in range(20):
        game = Game.new([("you", None), ("a", "strong"), ("b", "strong")], seed=seed, dealer=2)
        game.apply(Action(Act.DEAL, cards=game.stacked_deck({0: ["RQ", "RQ", "R3", "JK"]})))
        rng = random.Random(seed)
        while game.phase is Phase.BETTING and not (game.to_act == 0 and game.hand is not None
                                                   and game.hand.round == 3):
            actor = game.to_act
            assert actor is not None
            game.apply(bot_action(game, actor, rng) if actor else Action(
                Act.CALL if Act.CALL in game.legal_actions() else Act.CHECK, 0))
        if game.phase is Phase.BETTING:
            break
    else:
        pytest.skip("no seed reached round 3")
    decision = price_decision(game, worlds=30, seed=1)
    assert decision.win == 1.0 and decision.win_stderr == 0.0
