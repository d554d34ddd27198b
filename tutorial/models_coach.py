"""The coach (issue 14 §3): one stored review per finished practice hand.

A review prices every betting decision of the learner and their split
(:mod:`tutorial.coach`); it takes up to a second, so it is computed once, on the first
request that needs it, and kept here: a page view reads the row.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from tutorial.models_table import PracticeTable


class HandReview(models.Model):
    table = models.ForeignKey(PracticeTable, on_delete=models.CASCADE, related_name="reviews")
    number = models.PositiveIntegerField()  # the hand's number in the session
    data: models.JSONField[Any, Any] = models.JSONField()  # tutorial.coach.compute
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("number",)
        constraints = (models.UniqueConstraint(fields=("table", "number"),
                                               name="handreview_table_number"),)

    def __str__(self) -> str:
        return f"review of hand {self.number} of table {self.table_id}"
