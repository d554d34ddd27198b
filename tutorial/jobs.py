"""Heavy work off the request path (issue 21): a hand's review, a 返 of the learner's own
amount priced again (再来一次), an expert bot's move.

They run as django-tasks tasks in worker processes (``manage.py worker``; the queue lives
in the database, django-tasks' database backend, so it runs on SQLite and PostgreSQL
with no extra service).  Requests only ask and read:

* :func:`ask` is the one way to ask for a job: a POST (the table's action that ends a
  hand, the bot step, 复盘's "compute" button, the 返 form), never a GET.  Each job has a
  key naming its result (:func:`review_key`, :func:`reprice_key`, :func:`move_key`); a
  ``ComputeJob`` row with that key (unique) is created in the same transaction as the
  task, so the same job asked twice runs once, and a job whose result is stored is not
  asked again (the caller checks the result first).
* :func:`state` tells a page how its job stands (queued, running, failed, or not
  asked), so it shows progress and polls (htmx) until the result is there.
* A task stores its result keyed the same way (``HandReview``, ``RetryPrice``, the
  table's next state), then deletes its job row; an exception marks the row failed (a
  new ask runs it again).  A worker killed mid-job leaves the task running in the queue:
  every worker gives such a task back to the queue once it has run longer than
  ``settings.TASK_LEASE`` seconds (:func:`requeue_stale`); every task is idempotent
  (its result is written once, a stale move is dropped), so a second run is harmless.
"""

from __future__ import annotations

import gc
import uuid
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from engine.bots import warm
from engine.game import Game
from engine.rules import Rules
from tutorial import coach, table_store
from tutorial.models_jobs import ComputeJob
from tutorial.models_table import PracticeTable

QUEUED, RUNNING, FAILED = "queued", "running", "failed"


def ready() -> None:
    """What a worker does before its first task: build the tables the bots read
    (:func:`engine.bots.warm`, about a second, which its first reviews would otherwise
    fill while a learner waits), then take everything the process holds so far out of
    the garbage collector's way (``gc.freeze``: those tables live as long as the
    process, and every full collection during a review's play-outs walked them again —
    about a tenth of a review's time)."""
    warm(Rules())
    gc.freeze()


def review_key(table_id: uuid.UUID, number: int) -> str:
    return f"review:{table_id}:{number}"


def reprice_key(table_id: uuid.UUID, number: int, k: int, amount: int) -> str:
    return f"reprice:{table_id}:{number}:{k}:{amount}"


def move_key(table_id: uuid.UUID, seq: int) -> str:
    return f"move:{table_id}:{seq}"


def state(key: str) -> str | None:
    """How job ``key`` stands: QUEUED, RUNNING, FAILED, or None (not asked, or done)."""
    job = ComputeJob.objects.filter(key=key).values_list("started", "failed").first()
    if job is None:
        return None
    started, failed = job
    return FAILED if failed else RUNNING if started is not None else QUEUED


def ask(key: str, enqueue: Callable[[], object]) -> bool:
    """Ask for job ``key`` (``enqueue`` queues its task); False if it is asked already
    and has not failed.  Callers check first that the result is not stored."""
    with transaction.atomic():
        job, created = ComputeJob.objects.get_or_create(key=key)
        if not created:
            if not job.failed:
                return False
            job.failed, job.started = False, None
            job.save(update_fields=["failed", "started"])
        enqueue()
    return True


def _run(key: str, work: Callable[[], None]) -> None:
    ComputeJob.objects.filter(key=key).update(started=timezone.now())
    try:
        work()
    except Exception:
        ComputeJob.objects.filter(key=key).update(failed=True)
        raise
    ComputeJob.objects.filter(key=key).delete()


# ---------------------------------------------------------------------- the tasks
@task(queue_name="coach")
def review_hand(key: str, table_id: str, number: int) -> None:
    """Compute and store the review of hand ``number`` (:func:`tutorial.coach.store`)."""
    _run(key, lambda: coach.store(PracticeTable.objects.get(pk=table_id), number))


@task(queue_name="coach", priority=5)
def reprice(key: str, table_id: str, number: int, k: int, amount: int) -> None:
    """Price decision ``k`` again with a 返 to ``amount`` (:func:`coach.store_reprice`)."""
    _run(key, lambda: coach.store_reprice(PracticeTable.objects.get(pk=table_id), number, k,
                                          amount))


@task(queue_name="moves", priority=10)
def bot_move(key: str, table_id: str, seq: int, coach_on: bool) -> None:
    """The bot to act at action ``seq`` of the table moves (a move asked at an older
    ``seq`` is dropped: the table went on)."""
    _run(key, lambda: _bot_move(table_id, seq, coach_on))


def _bot_move(table_id: str, seq: int, coach_on: bool) -> None:
    table = PracticeTable.objects.get(pk=table_id)
    game = Game.from_dict(table.state)
    seat = table_store.bot_turn(game)
    if table.seq != seq or seat is None:
        return
    table_store.play_bot(game, seat)  # the thinking, outside the transaction
    with transaction.atomic():
        table = PracticeTable.objects.select_for_update().get(pk=table_id)
        if table.seq != seq:
            return
        advance(table, game, table.state, coach_on)


def advance(table: PracticeTable, game: Game, before: dict[str, object],
            coach_on: bool) -> None:
    """Store ``game`` after an action (:func:`tutorial.table_store.save`) and, with the
    coach on, ask for the review of every hand it finished.  Inside a transaction."""
    finished = [h.number for h in game.history]
    table_store.save(table, game, before)
    for number in finished if coach_on else ():
        ask_review(table, number)


def ask_review(table: PracticeTable, number: int) -> bool:
    key = review_key(table.id, number)
    return ask(key, lambda: review_hand.enqueue(key, str(table.id), number))


def ask_reprice(table: PracticeTable, number: int, k: int, amount: int) -> bool:
    key = reprice_key(table.id, number, k, amount)
    return ask(key, lambda: reprice.enqueue(key, str(table.id), number, k, amount))


def ask_move(table: PracticeTable, coach_on: bool) -> bool:
    key = move_key(table.id, table.seq)
    return ask(key, lambda: bot_move.enqueue(key, str(table.id), table.seq, coach_on))


def asked_reviews(table: PracticeTable) -> set[int]:
    """The hands of ``table`` whose review is queued or running."""
    keys = ComputeJob.objects.filter(key__startswith=review_key(table.id, 0)[:-1],
                                     failed=False).values_list("key", flat=True)
    return {int(key.rsplit(":", 1)[1]) for key in keys}


def requeue_stale(lease: int | None = None) -> int:
    """Give back to the queue every task that has been running longer than ``lease``
    seconds (default ``settings.TASK_LEASE``): its worker was killed.  How many."""
    since = timezone.now() - timedelta(seconds=settings.TASK_LEASE if lease is None else lease)
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING,
                                       started_at__lt=since).update(
        status=TaskResultStatus.READY, started_at=None)


def prune(days: int | None = None) -> None:
    """Delete the queue's rows of tasks finished (done or failed) more than ``days`` days
    ago (default ``settings.TASK_RESULT_DAYS``), with django-tasks' own
    ``prune_db_task_results``, and the rows of jobs that failed as long ago.  Nothing
    queued or running goes, nor any result: those are ``HandReview``, ``RetryPrice`` and
    the table, which the pages read."""
    days = settings.TASK_RESULT_DAYS if days is None else days
    call_command("prune_db_task_results", queue_name="*", min_age_days=days, verbosity=0)
    ComputeJob.objects.filter(failed=True,
                              started__lt=timezone.now() - timedelta(days=days)).delete()
