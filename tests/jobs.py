"""Running the task queue inside a test: :func:`work` is the worker's own loop
(django-tasks' database worker, batch mode) in this process, so tests use the same
database backend as the site and see exactly what a worker would store."""

from __future__ import annotations

import time
from unittest import mock

from django_tasks_db.management.commands import db_worker

from tutorial.models_jobs import ComputeJob


def work(queue: str = "*") -> None:
    """Run every queued task (of ``queue``: "coach", "moves" or all) until none is left.
    (The worker closes stale connections between tasks; inside a test's transaction
    that would end the test's connection, so here it does not.)"""
    worker = db_worker.Worker(queue_names=[queue], interval=0, batch=True,
                              backend_name="default", startup_delay=False, max_tasks=None,
                              worker_id="test", excluded_queue_names=[])
    with mock.patch.object(db_worker, "close_old_connections", lambda: None):
        worker.run()
    # a task another worker (the live server's, tests/conftest.py) has taken: wait for it
    jobs = ComputeJob.objects.filter(failed=False)
    if queue != "*":
        moves = jobs.filter(key__startswith="move:")
        jobs = moves if queue == "moves" else jobs.exclude(pk__in=moves)
    deadline = time.monotonic() + 60
    while jobs.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
