"""Are the coach's grades stable, and is its loss unbiased? (issue 20 §1)

Reviews every hand of the fixed practice set (``tests/coach_hands.py``,
:func:`fixed_hands`: heads-up and four seats, every kind of decision) under seeds 1…S
and prints:

* the share of decisions whose grade (好 / 不精确 / 失误 / 大错 / 难分) is the same under
  every seed, the share whose definite grades agree (one grade, or 难分, under every
  seed), how often each grade was given, and the decisions that moved;
* the bias check: for every graded decision under every seed, the loss (the rival
  minus the choice) the review reported minus the same two options (same
  continuations) priced again on ``--check`` independent worlds
  (:func:`engine.review.price_pair`, a stream of its own for each seed, so that the
  terms are independent and the standard error honest), averaged with its standard
  error — an unbiased loss averages 0 within its error;
* the CPU time of a review (p50 / p95 per hand).

``--old`` emulates the review before issue 20 for comparison: 100 worlds, one set, the
learner's later decisions by the ``strong`` policy, the loss against the largest mean of
the same worlds, 好 within two standard errors.

    nice -n 10 .venv/bin/python scripts/grade_stability.py [--seeds 8] [--hands 32] [--old]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")

import django

django.setup()

from engine.bots import warm  # noqa: E402
from engine.game import Act, Action, Game  # noqa: E402
from engine.review import (  # noqa: E402
    GRADES,
    alternatives,
    decisions,
    play_values,
    price_pair,
    review,
    weighted_mean,
)
from engine.rules import Rules  # noqa: E402
from tests.coach_hands import fixed_hands  # noqa: E402

BETS = (Act.RAISE, Act.TUO, Act.QIAO)


def _pick(game: Game, options: list[Action], action: Action) -> int:
    done = game.verify(action)
    return next(i for i, a in enumerate(options) if a.kind is done.kind or (
        a.kind in BETS and done.kind in BETS and a.amount == done.amount))


Spot = tuple[Game, Action, tuple[Game, list[Action]]]


def spots(data: dict[str, Any]) -> list[Spot]:
    """Every decision of the learner in ``data``'s hand: the table then, the action
    taken, and the table at the deal with the actions since (copies: replayed once)."""
    return [(game.copy(), action, start)
            for game, action, start in decisions(data["config"], data["log"], 0)]


def old_review(hand: list[Spot], seed: int) -> list[tuple[str, float, int, int]]:
    """(grade, loss, best, chosen) of each decision as the review before issue 20 gave."""
    out = []
    for k, (game, action, start) in enumerate(hand):
        options = alternatives(game, 0, action)
        pick = _pick(game, options, action)
        weights, values = play_values(game, 0, options, 100, random.Random(seed + k), start)
        means = [weighted_mean(weights, xs)[0] for xs in values]
        best = max(range(len(means)), key=means.__getitem__)
        loss, se = weighted_mean(weights, [b - c for b, c in zip(values[best], values[pick],
                                                                  strict=True)])
        units = loss / game.rules.stakes.opening
        word = ("好" if loss <= 2 * se else
                next(word for limit, word in GRADES if units < limit))
        out.append((word, loss, best, pick))
    return out


def check(spot: Spot, best: int, pick: int, thens: tuple[str, str], worlds: int,
          seed: int) -> tuple[float, float]:
    """The decision's options ``best`` minus ``pick`` on independent worlds (the stream
    ``seed``)."""
    game, action, start = spot
    options = alternatives(game, 0, action)
    return price_pair(game, options[best], options[pick], thens, worlds, seed, start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--hands", type=int, default=32)
    parser.add_argument("--check", type=int, default=400, help="worlds of the bias check")
    parser.add_argument("--old", action="store_true", help="the review before issue 20")
    args = parser.parse_args()
    warm(Rules())
    hands = fixed_hands()[:args.hands]
    grades: dict[tuple[int, int], list[str]] = {}
    biases: list[float] = []
    times: list[float] = []
    for h, data in enumerate(hands):
        hand = spots(data)
        for seed in range(1, args.seeds + 1):
            start = time.process_time()
            if args.old:
                rows = old_review(hand, seed)
                thens = [("strong", "strong")] * len(rows)
            else:
                got = review(data["config"], data["log"], 0, seed=seed)
                rows = [(d.grade, d.loss, d.rival, d.chosen) for d in got]
                thens = [(d.options[d.rival].then or "strong",
                          d.options[d.chosen].then or "strong") for d in got]
            times.append(time.process_time() - start)
            for k, ((word, loss, best, pick), then) in enumerate(zip(rows, thens, strict=True)):
                grades.setdefault((h, k), []).append(word)
                if best == pick:
                    continue
                # the same pair priced on worlds of their own (for this seed too)
                price, _ = check(hand[k], best, pick, then, args.check,
                                 (seed * 1000 + h) * 100 + k)
                biases.append(loss - price)
        print(f"hand {h + 1}/{len(hands)}: " + "; ".join(
            " ".join(g) for (i, _k), g in grades.items() if i == h), file=sys.stderr,
            flush=True)
    stable = [k for k, g in grades.items() if len(set(g)) == 1]
    agree = [k for k, g in grades.items() if len(set(g) - {"难分"}) <= 1]
    kinds = Counter(w for g in grades.values() for w in g)
    print(f"{len(hands)} hands, {len(grades)} decisions, {args.seeds} seeds"
          f"{' (old review)' if args.old else ''}")
    print(f"stable grades: {len(stable)}/{len(grades)} = {len(stable) / len(grades):.1%}")
    print(f"definite grades agree (one grade or 难分 under every seed): {len(agree)}/"
          f"{len(grades)} = {len(agree) / len(grades):.1%}")
    print("grades given: " + ", ".join(f"{w} {n}" for w, n in kinds.most_common()))
    for (h, k), g in grades.items():
        if len(set(g)) > 1:
            print(f"  moved: hand {h + 1} decision {k + 1}: {' '.join(g)}")
    if biases:
        mean = statistics.mean(biases)
        se = statistics.stdev(biases) / math.sqrt(len(biases)) if len(biases) > 1 else 0.0
        print(f"bias check: reported loss − independent price of the same pair = "
              f"{mean:+.2f} ± {se:.2f} chips over {len(biases)} graded decisions")
    times.sort()
    print(f"review CPU per hand: p50 {statistics.median(times):.2f} s, "
          f"p95 {times[min(len(times) - 1, int(0.95 * len(times)))]:.2f} s")


if __name__ == "__main__":
    main()
