"""``manage.py worker``: run the queued heavy work (tutorial/jobs.py).

django-tasks' ``db_worker`` on every queue, plus what it lacks: a task whose worker was
killed mid-job stays "running" in the queue, so every few seconds this worker gives back
to the queue each task running longer than ``settings.TASK_LEASE`` seconds
(:func:`tutorial.jobs.requeue_stale`).  By default the worker lowers its own priority
(``--nice 10``) so that the web servers sharing its machine answer first.  Run as many as
you like, on any machine that reaches the database.
"""

from __future__ import annotations

import os
import threading
from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.db import connection
from django_tasks_db.management.commands.db_worker import Command as DBWorker

from tutorial.jobs import requeue_stale


def _watch(every: float) -> None:
    while True:
        try:
            requeue_stale()
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
        super().handle(*args, **options)
