"""The practice table against bots: one row per table, one row per finished hand.

``PracticeTable.state`` is the engine state without its finished hands and without the
log before the current hand (``engine.game.Game.take_finished``), so it stays small
however long the session: an action reads and rewrites only that.  Each finished hand is
a ``PracticeHand`` row: the state just before its deal (replays start there), its
actions from the deal on, and the hand itself.  ``tutorial/table_store.py`` moves hands
out and puts a whole session back together.

``seq`` (the number of actions applied) is the optimistic-concurrency token every POST
must carry, so a double click, a replayed POST or a second tab acting on stale state
changes nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import models


class PracticeTable(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.CharField(max_length=64, db_index=True)  # owner key (tutorial/accounts.py)
    state: models.JSONField[Any, Any] = models.JSONField()
    seq = models.PositiveIntegerField(default=0)
    squeezed = models.PositiveIntegerField(default=0)  # last hand whose 4th card was squeezed
    # the state just before the current (or last) hand was dealt: its replay starts there
    hand_start: models.JSONField[Any, Any] = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated",)

    def __str__(self) -> str:
        return f"table {self.id} (seq {self.seq})"


class PracticeHand(models.Model):
    table = models.ForeignKey(PracticeTable, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    # the state just before the deal (None for a hand whose start could not be rebuilt)
    start: models.JSONField[Any, Any] = models.JSONField(null=True, blank=True)
    log: models.JSONField[Any, Any] = models.JSONField(default=list)  # the deal, then the acts
    hand: models.JSONField[Any, Any] = models.JSONField()  # engine.game.hand_to_dict

    class Meta:
        ordering = ("number",)
        constraints = (models.UniqueConstraint(fields=("table", "number"),
                                               name="practicehand_table_number"),)

    def __str__(self) -> str:
        return f"hand {self.number} of table {self.table_id}"
