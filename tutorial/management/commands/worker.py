"""``manage.py worker``: run the queued heavy work (tutorial/jobs.py).

django-tasks' ``db_worker`` on every queue, plus what it lacks: a task whose worker was
killed mid-job stays "running" in the queue, so every few seconds this worker gives back
to the queue each task running longer than ``settings.TASK_LEASE`` seconds
(:func:`tutorial.jobs.requeue_stale`); and finished tasks' rows would pile up, so once an
hour it prunes those older than ``settings.TASK_RESULT_DAYS`` days
(:func:`tutorial.jobs.prune`).  Before its first task it gets ready
(:func:`tutorial.jobs.ready`: the bots' tables built, the garbage collector told to leave
them be).  By default the worker lowers its own priority
(``--nice 10``) so that the web servers sharing its machine answer first.  Run as many as
you like, on any machine that reaches the database.
"""

from __future__ import annotations

import os
import threading
import time
from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.db import connection
from django_tasks_db.management.commands.db_worker import Command as DBWorker

from tutorial.jobs import prune, ready, requeue_stale

PRUNE_EVERY = 3600.0  # seconds between two prunings by one worker


def tend(pruned: float) -> float:
    """One round of the worker's housekeeping: give back the tasks of dead workers, and
    prune if the last pruning (``pruned``, ``time.monotonic()``) is PRUNE_EVERY seconds
    old; when it last pruned."""
    requeue_stale()
    if time.monotonic() - pruned >= PRUNE_EVERY:
        prune()
        pruned = time.monotonic()
    return pruned


def _watch(every: float) -> None:
    pruned = float("-inf")  # never: prune at the start
    while True:
        try:
            pruned = tend(pruned)
        except Exception:  # a locked or unreachable database: try again later
            pass
        finally:
            connection.close()
        threading.Event().wait(every)


class Command(DBWorker):
    help = "Run the site's task worker (heavy work: reviews, prices, expert moves)"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.set_defaults(queue_name="*", interval=0.2)
        parser.add_argument("--nice", type=int, default=10,
                            help="lower this process's priority by N (default 10)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["nice"]:
            os.nice(options["nice"])
        if not options.get("batch"):
            every = max(1.0, settings.TASK_LEASE / 3)
            threading.Thread(target=_watch, args=(every,), daemon=True).start()
        ready()
        super().handle(*args, **options)
