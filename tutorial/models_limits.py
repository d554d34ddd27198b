"""Request counters for the per-client rate limits (tutorial/ratelimit.py)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models


class RateCount(models.Model):
    """Requests of one client in one scope during one fixed window."""

    key = models.CharField(max_length=100)  # "<scope>:<client address>"
    window = models.BigIntegerField()  # unix time // the scope's period
    count = models.PositiveIntegerField(default=1)
    expires = models.BigIntegerField(db_index=True)  # unix time after which the row is useless

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["key", "window"], name="rate_count_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key} @{self.window}: {self.count}"
