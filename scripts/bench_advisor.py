"""Benchmark the split advisor and print the teaching finding (not a test).

    .venv/bin/python scripts/bench_advisor.py [--hands 2000] [--no-build]

Prints, per rule preset: the cold build time of the strategy table (a fresh
``python -m engine build-strategy`` process into a temporary directory, numpy
import and equilibrium included), the time to load the committed table, ms per
hand for ``advise`` over random deals, the memory the loaded advisor uses
(tracemalloc), and how often the best split differs from the naive
"strongest 头" split.  Targets on one core: build ≤ 10 s, advice ≤ 1 ms/hand,
memory ≤ 50 MB.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import advisor  # noqa: E402
from engine.cards import DECK  # noqa: E402
from engine.rules import get_rules  # noqa: E402


def cold_build(preset: str) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "engine", "build-strategy", "--rules", preset, "--out", tmp],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )
        return time.perf_counter() - start, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands to advise")
    parser.add_argument("--no-build", action="store_true", help="skip the cold builds")
    args = parser.parse_args()
    rng = random.Random(20240601)
    deals = [tuple(c.kind for c in rng.sample(DECK, 4)) for _ in range(args.hands)]

    for preset in ("xuanjing", "app"):
        rules = get_rules(preset)
        print(f"== {preset}")
        if not args.no_build:
            seconds, line = cold_build(preset)
            print(f"cold build (fresh process): {seconds:.2f} s  [{line}]")

        advisor._load.cache_clear()
        tracemalloc.start()
        start = time.perf_counter()
        table = advisor.load_table(rules)
        load = time.perf_counter() - start
        advisor.advise(deals[0], rules)
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"load table: {load * 1000:.0f} ms; advisor memory {current / 2**20:.1f} MB "
              f"(peak while loading {peak / 2**20:.1f} MB)")
        print(f"opponent: {table.opponent}")

        start = time.perf_counter()
        for kinds in deals:
            advisor.advise(kinds, rules)
        per_hand = (time.perf_counter() - start) / len(deals)
        print(f"advise: {per_hand * 1000:.3f} ms/hand over {len(deals)} random hands")

        d = advisor.naive_differences(rules)
        print(f"best split ≠ naive 'strongest 头': {d.hands} of {d.total_hands} distinct hands, "
              f"{d.probability:.1%} of deals; EV gained {d.mean_gain:+.4f} per showdown "
              f"overall, {d.mean_gain_when_differs:+.4f} when they differ")
        for ex in d.examples[:8]:
            print(f"  {advisor.hand_code(ex.kinds):<14} naive {ex.naive.head}/{ex.naive.tail} "
                  f"{ex.ev_naive:+.3f} → best {ex.best.head}/{ex.best.tail} {ex.ev_best:+.3f} "
                  f"(gain {ex.gain:+.3f}, dealt {ex.probability:.4%})")


if __name__ == "__main__":
    main()
