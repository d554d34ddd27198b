"""串牌 helpers shared by the /squeeze/ page, the squeeze quiz and the squeeze walkthroughs:
one drawing of a partly revealed card (:class:`Stage`, drawn by
``templates/squeeze/_reveal.html``) and the words for what it shows."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import npgettext, pgettext

from engine import squeeze as sq
from engine.cards import Card, Kind
from tutorial.language import english


def sight_label(s: sq.Sight) -> str:
    """"红圆头" on Chinese pages, "red: round head" on English ones ("♥ two columns, 4
    pips showing" once 串路子 has passed the bottom row)."""
    if not english():
        return s.text
    clue = pgettext("squeeze", s.clue)
    if s.pips:
        n = len(s.pips)
        return f"{s.suit} {clue}, " + npgettext("squeeze", "露出 %(n)s 朵", "露出 %(n)s 朵",
                                                   n) % {"n": n}
    if s.suit:
        return f"{s.suit} {clue}"
    if s.colour and s.clue not in ("红了", "黑边"):
        return f"{pgettext('squeeze', s.colour)}: {clue}"
    return clue


@dataclass(frozen=True)
class Stage:
    """One drawing: ``card`` pushed out to ``depth`` of ``way`` (after ``before``, for 组合串)."""

    card: Card
    way: sq.Way
    depth: int
    before: tuple[sq.Reveal, ...] = ()

    @property
    def reveals(self) -> tuple[sq.Reveal, ...]:
        return (*self.before, (self.way, self.depth))

    @property
    def sight(self) -> sq.Sight:
        return sq.sight(self.card, self.way, self.depth)

    @property
    def label(self) -> str:
        return sight_label(self.sight)

    @property
    def stage_label(self) -> str:
        return pgettext("squeeze", sq.STAGE_LABELS[(self.way, self.depth)])

    @property
    def possible(self) -> tuple[Kind, ...]:
        return sq.possible(self.card, self.reveals)

    @property
    def clue_meaning(self) -> str:
        return pgettext("squeeze", sq.CLUES[self.sight.clue].meaning)


def parse_card(code: str) -> Card:
    """``"R2:♦"`` → the 2 of diamonds."""
    kind, suit = code.split(":")
    return Card(Kind[kind], suit)
