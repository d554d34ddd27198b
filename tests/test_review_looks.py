"""The grade's interval over its looks (issue 20 §1: "cleared with 95 % confidence").

The review looks at a decision's loss up to three times (``WORLDS``, twice and four times
as many worlds: :func:`engine.review.price_decision`) and gives a definite grade at the
first look whose interval lies inside a band. A loss sitting exactly on a boundary must
then clear it on a given side at most 2.5 % of the time over the three looks together;
this simulates the looks (the standardised loss of independent worlds as a random walk)
and checks :data:`~engine.review.Z_LOOKS` does that, where ± 1.96 at every look does not.
"""

from __future__ import annotations

import math
import random

from engine.review import MAX_WORLDS, WORLDS, Z_LOOKS, Z


def looks() -> list[int]:
    """The numbers of worlds the review looks at: doubling from WORLDS to MAX_WORLDS."""
    n, found = WORLDS, []
    while n <= MAX_WORLDS:
        found.append(n)
        n *= 2
    return found


def cleared(bar: float, paths: int = 200_000, seed: int = 7) -> float:
    """How often a loss on a boundary clears it upwards at some look with ``bar``
    standard errors (one block of ``WORLDS`` worlds adds a N(0, WORLDS) sum)."""
    rng = random.Random(seed)
    at = looks()
    blocks = [(n - (at[k - 1] if k else 0)) // WORLDS for k, n in enumerate(at)]
    hits = 0
    for _ in range(paths):
        total = 0.0
        for n, b in zip(at, blocks, strict=True):
            total += rng.gauss(0.0, math.sqrt(b * WORLDS))
            if total / math.sqrt(n) > bar:
                hits += 1
                break
    return hits / paths


def test_three_looks_at_the_grade_bar_clear_a_boundary_2_5_percent_of_the_time() -> None:
    assert looks() == [WORLDS, 2 * WORLDS, 4 * WORLDS]
    # 200,000 paths: a share near 2.5 % has a standard error of 0.035 %
    assert 0.0240 < cleared(Z_LOOKS) < 0.0260
    assert cleared(Z) > 0.05  # ± 1.96 at every look: more than twice the 2.5 % it claims
