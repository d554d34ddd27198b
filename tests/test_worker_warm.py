"""A task worker builds the tables the bots read before its first task
(engine.bots.warm), so that no learner's review waits for them."""

from __future__ import annotations

from typing import Any

import pytest

from engine import bots
from engine.review import review
from engine.rules import Rules
from tests.coach_hands import practice_exports
from tutorial.management.commands import worker


def test_the_worker_warms_the_bots_tables_before_running_tasks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(worker, "warm", calls.append)
    monkeypatch.setattr(worker.DBWorker, "handle", lambda *_a, **_o: calls.append("tasks"))
    worker.Command().handle(batch=True, nice=0)
    assert calls == [Rules(), "tasks"]


def test_after_warming_a_review_builds_no_split_advice_nor_face_up_table() -> None:
    bots.warm(Rules())
    advised, shown = bots._advised.cache_info().misses, bots._shown.cache_info().misses
    for export in practice_exports(["strong", "simple"], 3, 4):
        review(export["config"], export["log"], export["seat"], worlds=10)
    assert bots._advised.cache_info().misses == advised
    assert bots._shown.cache_info().misses == shown
