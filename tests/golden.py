"""Figures that speed work on the engine must leave bit-for-bit the same: reviews of
practice hands, bot-only sessions, the expert's policy.  ``tests/test_review_golden.py``
compares a small set with ``tests/golden_review.json``; ``scripts/golden_review.py``
records and compares the full set (and re-records the small one after a deliberate
change of the figures)."""

from __future__ import annotations

import random
import sys
from typing import Any

from engine.game import Game, Phase
from engine.players import bot_action, policy
from engine.review import WORLDS, decision_json, review
from engine.rules import Rules
from engine.simulate import rebuy_empty, simulate
from tests.coach_hands import decides, fixed_hands, practice_exports

BENCH_SESSIONS = (["simple"] * 3, ["strong"] * 3, ["simple", "strong", "simple"])


def figures(small: bool) -> dict[str, Any]:
    """The review (seed 0, and seed 3 for every third hand) of the coach's fixed hands
    and of the first hands of ``scripts/bench_review.py``'s sessions (the logs, played
    by the bots, are compared too); two bot-only sessions; the expert's policy at every
    decision of a short session.  ``small``: fewer hands and worlds (the test's set)."""
    exports = fixed_hands(1 if small else 8)
    for levels in BENCH_SESSIONS:
        exports += [d for d in practice_exports(levels, 2 if small else 5, 1) if decides(d)]
    out: dict[str, Any] = {"reviews": []}
    for n, data in enumerate(exports):
        for seed in (0,) if n % 3 else (0, 3):
            decisions = review(data["config"], data["log"], 0, 10 if small else WORLDS, seed)
            out["reviews"].append({"log": data["log"], "seed": seed,
                                   "decisions": [decision_json(d) for d in decisions]})
        print(f"review {n + 1}/{len(exports)}", file=sys.stderr, flush=True)
    out["simulate"] = [_untimed(simulate(levels, 40 if small else 300, seed).to_dict())
                       for levels, seed in ((["simple", "strong"], 1),
                                            (["strong", "simple", "strong", "strong"], 2))]
    out["expert"] = _expert_spots(1 if small else 4)
    return out


def _untimed(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in ("seconds", "hands_per_second")}


def _expert_spots(hands: int) -> list[Any]:
    """The expert's policy at each of its decisions in ``hands`` hands against a strong
    and a simple bot."""
    game = Game.new([("e", "expert"), ("s", "strong"), ("t", "simple")], Rules(), 4)
    rng = random.Random(4)
    out: list[Any] = []
    for _ in range(hands):
        rebuy_empty(game)
        game.do("deal")
        while game.phase is not Phase.BETWEEN:
            seat = game.to_act
            assert seat is not None
            if seat == 0:
                out.append([[a.to_dict(), p] for a, p in policy(game, 0)])
            game.apply(bot_action(game, seat, rng))
    return out
