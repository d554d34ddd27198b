"""Drawing from an explicit discrete distribution (bots' policies, split mixtures)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def draw(options: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One item of ``(item, probability)`` pairs (probabilities summing to 1), drawn with
    one ``rng.random()``; rounding leftovers go to the last item."""
    r = rng.random()
    for item, p in options:
        r -= p
        if r < 0:
            return item
    return options[-1][0]
