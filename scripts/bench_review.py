"""Benchmark: CPU time of the first review of a practice hand (issue 20 §7: a task worker
computes it, off the request path, tutorial/jobs.py; target p95 ≤ 2 s of one core).

Plays practice sessions as the site does — the learner in seat 0 against three bots
(``simple``, ``strong`` and ``mixed`` tables) or one ``strong`` bot (``heads-up``: its
round-3 decisions are priced exactly), fixed seeds, the learner by a seeded
random policy that mostly 瞧 / 休 and sometimes 返, 敲 or 甩
(``tests/coach_hands.py``, :func:`practice_exports`) — and times, at the end of
every hand, what the worker computes: :func:`tutorial.coach.review_export` on the
session's log (every betting decision priced, the split priced at the showdown).  CPU
time (``time.process_time``), so other load on the machine does not count; prints p50 /
p95 / max in milliseconds, and the mean standard error of the priced options.

    .venv/bin/python scripts/bench_review.py [--hands N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")

import django

django.setup()

from tests.coach_hands import practice_exports  # noqa: E402
from tutorial.coach import review_export  # noqa: E402
from tutorial.jobs import ready  # noqa: E402

TARGET_MS = 2000.0  # issue 20 §7
LEVELS = {"simple": ["simple"] * 3, "strong": ["strong"] * 3,
          "mixed": ["simple", "strong", "simple"], "heads-up": ["strong"]}


def session(levels: list[str], hands: int, seed: int) -> list[tuple[float, list[float]]]:
    """(CPU ms, the options' standard errors) of the review of every hand of a session."""
    out = []
    for number, export in enumerate(practice_exports(levels, hands, seed), 1):
        start = time.process_time()
        data = review_export(export, number)
        ms = (time.process_time() - start) * 1000
        out.append((ms, [o["stderr"] for d in data["decisions"] for o in d["options"]
                         if o["stderr"]]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands per table kind")
    args = parser.parse_args()
    ready()  # as a worker does before its first task
    session(["strong"], 2, 99)  # fill the caches before timing
    every: list[float] = []
    for name, levels in LEVELS.items():
        results = session(levels, args.hands, 1)
        times = sorted(ms for ms, _ in results)
        errors = [e for _, es in results for e in es]
        every += times
        print(f"{name}: {len(times)} hands, p50 {statistics.median(times):.0f} ms, "
              f"p95 {times[min(len(times) - 1, int(0.95 * len(times)))]:.0f} ms, "
              f"max {times[-1]:.0f} ms; mean standard error "
              f"{statistics.mean(errors) if errors else 0:.2f} chips")
    every.sort()
    p95 = every[min(len(every) - 1, int(0.95 * len(every)))]
    verdict = "met" if p95 <= TARGET_MS else f"missed by {p95 - TARGET_MS:.0f} ms"
    print(f"all: {len(every)} hands, p50 {statistics.median(every):.0f} ms, p95 {p95:.0f} ms "
          f"(target {TARGET_MS:.0f} ms p95: {verdict})")


if __name__ == "__main__":
    main()
