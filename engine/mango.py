"""芒果 (mango) rules as data (RULES.md §6)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from .rules import Rules


class Mango(Enum):
    """Why 芒果 is charged for the next hand."""

    ZOU = "揍芒"  # round 1 ended with one player left: everyone else pays
    XIU = "休芒"  # the hand ended 休过河: everyone pays
    QUAN = "圈芒"  # the final orbit after the agreed end time: everyone, every hand


def mango_amount(rules: Rules, kind: Mango, nth: int = 1) -> int:
    """Chips each payer puts in.  ``nth`` counts the 芒果 of this session (escalating mode:
    first 皱芒 2 / 休芒 5, second 5, third and later 10, times the 皮)."""
    if rules.mango == "fixed" or kind is Mango.QUAN:
        return rules.stakes.mango
    factor = (2 if kind is Mango.ZOU else 5) if nth <= 1 else 5 if nth == 2 else 10
    return factor * rules.stakes.pi


def mango_payers(kind: Mango, players: Sequence[str], winner: str | None = None) -> list[str]:
    """Who pays: for 揍芒 everyone but the player who was left alone; otherwise everyone."""
    if kind is Mango.ZOU:
        return [p for p in players if p != winner]
    return list(players)
