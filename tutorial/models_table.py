"""The practice table against bots: one row per table, the engine state as JSON.

The state is saved after every action; ``seq`` (the number of actions applied) is the
optimistic-concurrency token every POST must carry, so a double click, a replayed POST
or a second tab acting on stale state changes nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import models


class PracticeTable(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.CharField(max_length=64, db_index=True)  # the visitor's session key
    state: models.JSONField[Any, Any] = models.JSONField()
    seq = models.PositiveIntegerField(default=0)
    squeezed = models.PositiveIntegerField(default=0)  # last hand whose 4th card was squeezed
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated",)

    def __str__(self) -> str:
        return f"table {self.id} (seq {self.seq})"
