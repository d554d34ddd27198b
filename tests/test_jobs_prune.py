"""The queue does not grow without bound (issue 21 §1): every worker prunes, once an
hour, the rows of tasks finished more than TASK_RESULT_DAYS days ago and the rows of jobs
that failed as long ago (tutorial/jobs.py prune); a task queued or running, a recent one,
and every stored result (the reviews and prices the pages read) stay."""

from __future__ import annotations

import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests.coach_hands import coached
from tests.jobs import work
from tests.tables import table_of
from tutorial import jobs
from tutorial.management.commands import worker
from tutorial.models_coach import HandReview
from tutorial.models_jobs import ComputeJob

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def task(status: TaskResultStatus, age: timedelta) -> DBTaskResult:
    """A row of the queue in ``status``, finished (or started) ``age`` ago."""
    result = jobs.review_hand.enqueue(f"review:x:{time.monotonic_ns()}", "x", 1)
    row = DBTaskResult.objects.get(pk=result.id)
    when = timezone.now() - age
    row.status = status
    row.started_at = when if status != TaskResultStatus.READY else None
    row.finished_at = when if status in (TaskResultStatus.SUCCESSFUL,
                                          TaskResultStatus.FAILED) else None
    row.save()
    return row


def job(key: str, age: timedelta, failed: bool) -> ComputeJob:
    return ComputeJob.objects.create(key=key, started=timezone.now() - age, failed=failed)


def test_old_finished_rows_go_and_everything_else_stays(settings: Any) -> None:
    settings.TASK_RESULT_DAYS = 7
    old = [task(TaskResultStatus.SUCCESSFUL, 8 * DAY), task(TaskResultStatus.FAILED, 8 * DAY)]
    kept = [task(TaskResultStatus.SUCCESSFUL, 6 * DAY), task(TaskResultStatus.FAILED, DAY),
            task(TaskResultStatus.READY, 30 * DAY), task(TaskResultStatus.RUNNING, 30 * DAY)]
    failed_long_ago = job("review:a:1", 8 * DAY, failed=True)
    jobs_kept = [job("review:a:2", DAY, failed=True),  # failed recently: the page says so
                 job("review:a:3", 30 * DAY, failed=False)]  # asked, being computed
    jobs.prune()
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == {t.pk for t in kept}
    assert not DBTaskResult.objects.filter(pk__in=[t.pk for t in old]).exists()
    assert set(ComputeJob.objects.all()) == set(jobs_kept)
    assert not ComputeJob.objects.filter(pk=failed_long_ago.pk).exists()


def test_the_age_is_a_setting(settings: Any) -> None:
    row = task(TaskResultStatus.SUCCESSFUL, 2 * DAY)
    settings.TASK_RESULT_DAYS = 3
    jobs.prune()
    assert DBTaskResult.objects.filter(pk=row.pk).exists()
    settings.TASK_RESULT_DAYS = 1
    jobs.prune()
    assert not DBTaskResult.objects.filter(pk=row.pk).exists()


def test_a_stored_review_stays_readable_after_its_task_is_pruned(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    client, tid = coached(monkeypatch, 1)  # a hand played and reviewed by a worker
    assert DBTaskResult.objects.filter(status=TaskResultStatus.SUCCESSFUL).exists()
    settings.TASK_RESULT_DAYS = 0
    jobs.prune()
    assert not DBTaskResult.objects.exists()
    assert HandReview.objects.filter(table=table_of(f"/table/{tid}/"), number=1).exists()
    page = client.get(f"/coach/{tid}/1/")
    assert page.status_code == 200 and 'id="computing"' not in page.content.decode()


def test_a_job_that_failed_long_ago_can_be_asked_again(
        monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    client, tid = coached(monkeypatch, 1)
    table = table_of(f"/table/{tid}/")
    HandReview.objects.all().delete()  # as if its review had failed
    key = jobs.review_key(table.id, 1)
    job(key, 8 * DAY, failed=True)
    assert "这次没算出来" in client.get(f"/coach/{tid}/1/").content.decode()
    settings.TASK_RESULT_DAYS = 7
    jobs.prune()
    assert "还没算" in client.get(f"/coach/{tid}/1/").content.decode()
    assert client.post(f"/coach/{tid}/1/review").status_code == 303
    work()
    assert HandReview.objects.filter(table=table, number=1).exists()


def test_the_worker_prunes_once_an_hour(settings: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    settings.TASK_RESULT_DAYS = 7
    first = task(TaskResultStatus.SUCCESSFUL, 8 * DAY)
    pruned = worker.tend(float("-inf"))  # a worker starting: prunes at once
    assert not DBTaskResult.objects.filter(pk=first.pk).exists()
    second = task(TaskResultStatus.SUCCESSFUL, 8 * DAY)
    assert worker.tend(pruned) == pruned  # within the hour: not again
    assert DBTaskResult.objects.filter(pk=second.pk).exists()
    later = pruned + worker.PRUNE_EVERY + 1
    monkeypatch.setattr(worker, "time", SimpleNamespace(monotonic=lambda: later))
    assert worker.tend(pruned) == later
    assert not DBTaskResult.objects.filter(pk=second.pk).exists()

