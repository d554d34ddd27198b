"""A task worker killed mid-job leaves the job to be retried (issue 21): a real worker
process (``manage.py worker``) on the tests' database (an SQLite file, or PostgreSQL
under ``scripts/test_postgres.sh -m concurrency``) takes a hand's review, is killed with
SIGKILL while computing it, and a second worker finishes it once the first one's lease
(``TASK_LEASE``) has run out; the review is stored once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests.coach_hands import play_hands
from tutorial.models_coach import HandReview
from tutorial.models_jobs import ComputeJob

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parent.parent


def database_url() -> str:
    """The tests' database as DATABASE_URL (what the worker processes connect to)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = f"{quote(db['USER'])}:{quote(db['PASSWORD'])}@" if db["USER"] else ""
    return f"postgres://{auth}{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker(lease: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": database_url(), "TASK_LEASE": str(lease),
           "DEBUG": "1"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--no-reload", "--no-startup-delay",
         "--interval", "0.05", "--nice", "0", "--verbosity", "0"],
        cwd=ROOT, env=env)


def wait(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_job_whose_worker_is_killed_is_run_again(monkeypatch: pytest.MonkeyPatch) -> None:
    if connection.vendor == "sqlite" and "mode=memory" in str(connection.settings_dict["NAME"]):
        pytest.skip("needs a database file the worker processes can open")
    table = play_hands(Client(), monkeypatch, 11, 1)  # its last action asked for the review
    job = ComputeJob.objects.get()
    first = worker(lease=600)
    try:
        wait(lambda: ComputeJob.objects.filter(pk=job.pk, started__isnull=False).exists(), 60)
        os.kill(first.pid, signal.SIGKILL)  # mid-job: the review takes a good part of a second
        first.wait()
    finally:
        if first.poll() is None:
            first.kill()
    task = DBTaskResult.objects.get()
    assert task.status == TaskResultStatus.RUNNING and not HandReview.objects.exists()
    second = worker(lease=2)
    try:
        wait(lambda: HandReview.objects.filter(table=table, number=1).exists(), 120)
        wait(lambda: not ComputeJob.objects.exists(), 30)
        task.refresh_from_db()
        wait(lambda: DBTaskResult.objects.get().status == TaskResultStatus.SUCCESSFUL, 30)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=30)
    task.refresh_from_db()
    assert len(task.worker_ids) == 2  # taken by the killed worker, then by the second
    assert HandReview.objects.count() == 1
