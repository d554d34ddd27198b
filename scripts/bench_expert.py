"""Benchmark: CPU time of one expert-bot decision (issue 14 §4: ≤ 300 ms p95, one core).

Plays hands of an expert against strong bots (heads-up and four seats, fixed seeds) and
times every expert betting decision and split with ``time.process_time`` (CPU time, so
other load on the machine does not count); prints p50 / p95 / max in milliseconds.

    .venv/bin/python scripts/bench_expert.py [--hands N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import warm
from engine.game import Action, Game
from engine.players import bot_action
from engine.rules import Rules
from engine.simulate import play_hand, rebuy_empty

BUDGET_MS = 300.0


def decisions(levels: list[str], hands: int, seed: int) -> list[float]:
    rules = Rules()
    game = Game.new([(f"{lv}{i}", lv) for i, lv in enumerate(levels)], rules, seed)
    rng = random.Random(seed)
    times: list[float] = []

    def timed(g: Game, actor: int) -> Action:
        start = time.process_time()
        action = bot_action(g, actor, rng)
        if g.seats[actor].bot == "expert":
            times.append((time.process_time() - start) * 1000)
        return action

    for _ in range(hands):
        rebuy_empty(game)
        play_hand(game, timed)
        game.state.history.clear()
        game.state.log.clear()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    args = parser.parse_args()
    warm(Rules())
    decisions(["expert", "strong"], 5, 99)  # fill the caches before timing
    for levels in (["expert", "strong"], ["expert", "strong", "strong", "strong"]):
        times = sorted(decisions(levels, args.hands, 1))
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        verdict = "met" if p95 <= BUDGET_MS else f"missed by {p95 - BUDGET_MS:.0f} ms"
        print(f"{','.join(levels)}: {len(times)} decisions, p50 "
              f"{statistics.median(times):.0f} ms, p95 {p95:.0f} ms, max {times[-1]:.0f} ms "
              f"(budget {BUDGET_MS:.0f} ms p95: {verdict})")


if __name__ == "__main__":
    main()
