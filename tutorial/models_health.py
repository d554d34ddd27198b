"""One row that /healthz rewrites to prove a write can commit (tutorial/health.py)."""

from __future__ import annotations

from django.db import models


class HealthProbe(models.Model):
    checked = models.DateTimeField()

    def __str__(self) -> str:
        return f"health probe {self.checked:%Y-%m-%d %H:%M:%S}"
