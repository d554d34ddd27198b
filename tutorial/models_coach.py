"""The coach (issue 14 §3): one stored review per finished practice hand.

A review prices every betting decision of the learner and their split
(:mod:`tutorial.coach`); it takes up to a second or two, so a worker computes it once
(:mod:`tutorial.jobs`) and keeps it here: a page view reads the row.  A 返 of the
learner's own amount priced again (再来一次) is kept the same way, one row per amount.
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


class RetryPrice(models.Model):
    """Decision ``k`` of hand ``number`` priced again with a 返 to ``amount`` as the
    choice (:func:`tutorial.coach.reprice`), shaped like a stored decision."""

    table = models.ForeignKey(PracticeTable, on_delete=models.CASCADE,
                              related_name="retry_prices")
    number = models.PositiveIntegerField()
    k = models.PositiveIntegerField()  # the decision's index in the hand's review
    amount = models.PositiveIntegerField()
    data: models.JSONField[Any, Any] = models.JSONField()

    class Meta:
        constraints = (models.UniqueConstraint(fields=("table", "number", "k", "amount"),
                                               name="retryprice_unique"),)

    def __str__(self) -> str:
        return f"decision {self.k} of hand {self.number} with a raise to {self.amount}"
