"""Drawing from an explicit discrete distribution (bots' policies, split mixtures)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def draw(options: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One item of ``(item, probability)`` pairs (probabilities summing to 1), drawn with
    one ``rng.random()``; rounding leftovers go to the last item."""
    return draw_at(options, rng.random())


def draw_at(options: Sequence[tuple[T, float]], r: float) -> T:
    """The item of ``(item, probability)`` pairs that the uniform number ``r`` in [0, 1)
    falls on (the items' probabilities laid end to end)."""
    for item, p in options:
        r -= p
        if r < 0:
            return item
    return options[-1][0]
