"""Exact prices (engine/review.py, ``_Worlds.exact``): in round 3 with one other player
still in, the only cards in play the learner cannot see are that player's two hidden
cards (a folded bot's cards weigh only through its likelihood, summed exactly), so every
pair of kinds it may hold and every way the hand may end are counted — no sampling, no
error, the same figures under every seed — and they agree with the sampled estimate,
which is checked here against them (issue 20 §1: exact prices where they are
feasible)."""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
import sys
from functools import cache
from itertools import combinations

from engine.game import Act, Action, Game, card_by_label
from engine.review import (
    CONTINUATIONS,
    Decision,
    _endings,
    _Sample,
    _summed,
    _Worlds,
    alternatives,
    decisions,
    price_decision,
    price_pair,
    weighted_mean,
)
from tests.coach_hands import fixed_hands

Spot = tuple[Game, Action, tuple[Game, list[Action]]]


@cache
def spots() -> list[Spot]:
    """Every betting decision of the fixed hand set (a copy of the table, the action)."""
    return [(g.copy(), a, (s[0], list(s[1]))) for data in fixed_hands()
            for g, a, s in decisions(data["config"], data["log"], 0)]


def round_3_one_left() -> list[Spot]:
    """Round 3 with one other player still in: heads-up, or at four seats after folds."""
    return [s for s in spots() if s[0].hand is not None and s[0].hand.round == 3
            and len(s[0].in_hand()) == 2]


def test_round_3_with_one_left_is_priced_exactly_and_the_seed_changes_nothing() -> None:
    found = round_3_one_left()
    assert len(found) >= 10 and {len(g.hand.order) for g, _, _ in found if g.hand} == {2, 4}
    for game, action, start in found:
        d = price_decision(game, action, seed=1, start=start)
        assert d.exact and d.loss_stderr == 0 and d.win_stderr == 0
        assert all(o.stderr == 0 for o in d.options)
        assert d.call is None or d.call.share_stderr == d.call.needs_stderr == 0
        assert price_decision(game, action, seed=5, start=start) == d


def test_other_decisions_are_sampled() -> None:
    """Before round 3 cards are still to come: those decisions are estimated, with
    errors."""
    others = [s for s in spots() if s not in round_3_one_left()]
    rounds = {s[0].hand.round for s in others if s[0].hand is not None}
    assert rounds == {1, 2}
    for game, action, start in others[::9]:
        d = price_decision(game, action, worlds=40, seed=1, start=start)
        assert not d.exact and any(o.stderr > 0 for o in d.options)


def test_every_ending_is_counted_once() -> None:
    """In each world the endings of a line (each continuation) have probabilities summing
    to one."""
    game, action, start = round_3_one_left()[0]
    seat = game.to_act
    assert seat is not None
    worlds = _Worlds(game, seat, *start).exact()
    assert worlds is not None and len(worlds) > 50
    for g, _ in worlds[::10]:
        for option in alternatives(game, seat, action):
            if option.kind is Act.FOLD:
                continue
            trial = g.copy()
            trial.apply(option)
            out: list[list[tuple[float, int]]] = [[] for _ in CONTINUATIONS]
            _endings(trial, seat, CONTINUATIONS, [1.0] * len(out), out)
            for ends in out:
                assert ends and math.isclose(sum(p for p, _ in ends), 1.0)


def sampled_loss(d: Decision, spot: Spot, seed: int, worlds: int) -> tuple[float, float]:
    game, action, start = spot
    options = alternatives(game, 0, action)
    thens = (d.options[d.rival].then or "strong", d.options[d.chosen].then or "strong")
    return price_pair(game, options[d.rival], options[d.chosen], thens, worlds, seed, start)


def test_the_exact_loss_is_what_sampled_worlds_estimate() -> None:
    """An independent computation: the same two options priced on 1,200 sampled worlds
    (the review's sampler, Bayes weights, play-outs with dice) agree with the exact loss
    within three standard errors, for every such decision of the set.  (Fewer worlds
    can understate the error where rare worlds decide: at 400, one four-seat decision
    said 16.50 ± 0.05 chips against the exact 16.83.)"""
    for spot in round_3_one_left():
        game, action, start = spot
        d = price_decision(game, action, seed=1, start=start)
        if d.rival == d.chosen:
            continue
        mean, se = sampled_loss(d, spot, 3, 1200)
        assert abs(d.loss - mean) <= 3 * se + 1e-9, (d.loss, mean, se)


def test_sampled_estimates_centre_on_the_exact_price_with_the_errors_they_tell() -> None:
    """30 seeds of 60 sampled worlds on one decision: their mean lies within three errors
    of the exact loss (no bias), and their spread is the error each reports."""
    spot = round_3_one_left()[0]
    game, action, start = spot
    d = price_decision(game, action, seed=1, start=start)
    assert d.rival != d.chosen
    priced = [sampled_loss(d, spot, seed, 60) for seed in range(30)]
    spread = statistics.stdev(m for m, _ in priced)
    told = math.sqrt(sum(se * se for _, se in priced) / 30)
    assert 0.6 < told / spread < 1.6, (told, spread)
    assert abs(statistics.mean(m for m, _ in priced) - d.loss) <= 3 * spread / math.sqrt(30)


def test_the_exact_showdown_share_is_what_sampled_worlds_estimate() -> None:
    for game, action, start in round_3_one_left()[:3]:
        d = price_decision(game, action, seed=1, start=start)
        seat = game.to_act
        assert seat is not None and game.hand is not None
        sample = _Sample(_Worlds(game, seat, *start), [], game.hand.committed[seat],
                         random.Random(4), wins=True)
        sample.grow(400, [])
        assert sample.wins is not None
        win, se = weighted_mean(sample.weights, sample.wins)
        assert abs(d.win - win) <= 3 * se + 1e-9, (d.win, win, se)


def test_the_summed_bots_weigh_as_every_pair_of_cards_they_may_hold() -> None:
    """:func:`_summed` (inclusion and exclusion over kinds) against a slower, independent
    sum over every pair of physical cards each folded bot may hold, on a four-seat spot
    with two folded bots that acted."""
    game, _, start = next(s for s in round_3_one_left()
                          if s[0].hand is not None and len(s[0].hand.order) == 4)
    seat = game.to_act
    assert seat is not None
    worlds = _Worlds(game, seat, *start)
    folded = worlds.likely[1:]
    assert len(folded) == 2
    live = worlds.likely[0]
    for ka, kb in live.pairs[::15]:
        held = [next(c for c in worlds.pool_labels if card_by_label(c).kind is ka)]
        held.append(next(c for c in worlds.pool_labels
                         if card_by_label(c).kind is kb and c not in held))
        rest = [c for c in worlds.pool_labels if c not in held]
        slow = 0.0
        for a in combinations(rest, 2):
            first = folded[0].of[card_by_label(a[0]).kind, card_by_label(a[1]).kind]
            if first:
                slow += first * sum(
                    folded[1].of[card_by_label(b[0]).kind, card_by_label(b[1]).kind]
                    for b in combinations([c for c in rest if c not in a], 2))
        assert math.isclose(_summed(folded, (ka, kb), worlds.copies), slow, rel_tol=1e-9)


def test_the_cli_says_exact_where_nothing_was_sampled() -> None:
    data = next(d for d in fixed_hands()
                if any(g.hand is not None and g.hand.round == 3 and len(g.in_hand()) == 2
                       for g, _, _ in decisions(d["config"], d["log"], 0)))
    out = subprocess.run([sys.executable, "-m", "engine", "review", "--worlds", "30"],
                         input=json.dumps(data), capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rounds = [line for line in out.stdout.splitlines() if line.startswith("第 ")]
    assert any("精确" in line and "区间" not in line for line in rounds), out.stdout
    assert any("95% 区间" in line for line in rounds), out.stdout
