"""A task worker gets ready before its first task (tutorial.jobs.ready): it builds the
tables the bots read (engine.bots.warm), so that no learner's review waits for them, and
takes them out of the garbage collector's way."""

from __future__ import annotations

from typing import Any

import pytest

from engine import bots
from engine.review import review
from engine.rules import Rules
from tests.coach_hands import practice_exports
from tutorial import jobs
from tutorial.management.commands import worker


def test_the_worker_gets_ready_before_running_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(worker, "ready", lambda: calls.append("ready"))
    monkeypatch.setattr(worker.DBWorker, "handle", lambda *_a, **_o: calls.append("tasks"))
    worker.Command().handle(batch=True, nice=0)
    assert calls == ["ready", "tasks"]


def test_getting_ready_builds_the_tables_then_freezes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(jobs, "warm", calls.append)
    monkeypatch.setattr(jobs.gc, "freeze", lambda: calls.append("freeze"))
    jobs.ready()
    assert calls == [Rules(), "freeze"]


def test_after_warming_a_review_builds_no_split_advice_nor_face_up_table() -> None:
    bots.warm(Rules())
    advised, shown = bots._advised.cache_info().misses, bots._shown.cache_info().misses
    for export in practice_exports(["strong", "simple"], 3, 4):
        review(export["config"], export["log"], export["seat"], worlds=10)
    assert bots._advised.cache_info().misses == advised
    assert bots._shown.cache_info().misses == shown
