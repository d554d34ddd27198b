"""The shape shared by the rows that keep one visitor's progress: a row belongs to an
owner key (``session_key``: the session key of a visitor without an account, or
``user:<id>`` for a learner logged in; tutorial/accounts.py), and there is one row per
owner and thing learnt (a course lesson, a quiz kind, a review card's item)."""

from __future__ import annotations

from django.db import models


class VisitorRow(models.Model):
    """One visitor's row for one thing; a subclass names the thing's field in its
    constraints with :meth:`one_per_visitor`."""

    session_key = models.CharField(max_length=40)  # the owner key

    class Meta:
        abstract = True
        app_label = "tutorial"

    @staticmethod
    def one_per_visitor(field: str, name: str) -> list[models.BaseConstraint]:
        """The constraint that keeps one row per session key and ``field``."""
        return [models.UniqueConstraint(fields=["session_key", field], name=name)]
