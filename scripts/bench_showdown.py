"""Benchmark the split at a real showdown (engine.showdown.price; not a test).

    .venv/bin/python scripts/bench_showdown.py [--situations 40]

For one and for five opponents, prices random showdowns (random cards, stakes
10–100, zero to two folded seats) and prints p50 / p95 / max milliseconds, once with
the opponents' split mixtures computed afresh for each situation ("cold") and once
with them cached from earlier situations, as a long-running server has them
("warm").  The strategy table is loaded before timing.  Times are CPU time of this
process (``time.process_time``), i.e. one core's work even on a machine that other
jobs keep busy.  Budget on one core: p95 ≤ 50 ms with one opponent, ≤ 300 ms with
five.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import showdown  # noqa: E402
from engine.advisor import load_table  # noqa: E402
from engine.cards import DECK  # noqa: E402
from engine.rules import Rules  # noqa: E402

BUDGET_MS = {1: 50.0, 5: 300.0}


def situation(rng: random.Random, opponents: int, rules: Rules) -> showdown.Situation:
    cards = [c.kind for c in rng.sample(DECK, 4 + 2 * opponents)]
    opps = tuple(showdown.Opponent((cards[4 + 2 * i], cards[5 + 2 * i]), rng.randint(10, 100))
                 for i in range(opponents))
    folded = tuple(rng.randint(1, 30) for _ in range(rng.randint(0, 2)))
    return showdown.Situation(rules, (cards[0], cards[1], cards[2], cards[3]),
                              rng.randint(10, 100), opps, folded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--situations", type=int, default=40, help="situations per size")
    args = parser.parse_args()
    rules = Rules()
    load_table(rules)
    for opponents, budget in BUDGET_MS.items():
        rng = random.Random(opponents)
        spots = [situation(rng, opponents, rules) for _ in range(args.situations)]
        for label, cold in (("cold", True), ("warm", False)):
            times = []
            for s in spots:
                if cold:
                    showdown._mixture.cache_clear()
                start = time.process_time()
                priced = showdown.price(s)
                times.append((time.process_time() - start) * 1000)
            times.sort()
            p95 = times[max(0, round(0.95 * len(times)) - 1)]
            verdict = "met" if p95 <= budget else f"MISSED by {p95 - budget:.0f} ms"
            mode = "exact" if priced.exact else f"{priced.deals} sampled deals"
            print(f"{opponents} opponent(s), {label} ({mode}): p50 "
                  f"{statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
                  f" — budget {budget:.0f} ms {verdict}")


if __name__ == "__main__":
    main()
