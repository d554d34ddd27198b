"""How often the learner's hand wins at the showdown (engine/review.py, "Showdown wins"):
the Bayes-weighted figure against an independent computation, and its range."""

from __future__ import annotations

import json
import math
import random

import pytest

from engine.bots import choose_split
from engine.game import Act, Action, Game, Phase
from engine.review import price_decision, wins_showdown
from tests.test_review import consistent_worlds, spot, unbeatable_spot


def rejection_win(start: Game, now: Game, past: list[Action], tries: int, seed: int
                  ) -> tuple[float, float, int]:
    """The worlds of :func:`tests.test_review.consistent_worlds`, each sent to the table
    engine's own showdown (every seat still in at the current level, each splitting by its
    policy); the share of the worlds where the learner's net is positive."""
    results = []
    for g in consistent_worlds(start, now, past, tries, random.Random(seed)):
        h = g.hand
        assert h is not None
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
    assert kept > 150  # the bots mix less since issue 20: fewer deals explain their actions
    assert abs(decision.win - p) <= 3 * math.hypot(decision.win_stderr, error), \
        (decision.win, decision.win_stderr, p, error)


def test_an_unbeatable_hand_always_wins() -> None:
    """丁二皇 with 天对 (all four cards seen in round 3) beats every other hand both ways:
    it wins every showdown, exactly."""
    game = unbeatable_spot(20)
    decision = price_decision(game, worlds=30, seed=1)
    assert decision.win == 1.0 and decision.win_stderr == 0.0


def test_cli_prints_the_win_rate_with_its_error() -> None:
    from tests.test_review import export, run

    out = run(json.dumps(export()), "--json", "--worlds", "20")
    assert out.returncode == 0, out.stderr
    for d in json.loads(out.stdout)["decisions"]:
        assert 0 <= d["win"] <= 1 and d["win_stderr"] >= 0
    text = run(json.dumps(export()), "--worlds", "10")
    assert text.returncode == 0 and "比到底赢" in text.stdout


def test_a_showdown_where_every_hand_declares_sanhua_is_not_a_win() -> None:
    """Both players hold 三花十 and declare it: nobody compares, nobody wins (as the
    table settles it), and the figure does not fail (a world the review met)."""
    game = Game.new([("you", None), ("a", "strong")], seed=1)
    game.apply(Action(Act.DEAL, cards=game.stacked_deck(
        {0: ["♣8", "♦10", "♠10", "♠J"], 1: ["♣J", "♥10", "♠9", "♣10"]})))
    assert wins_showdown(game, 0) is False and wins_showdown(game, 1) is False
