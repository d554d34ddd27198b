"""The course's progress: one row per visitor (session key) and lesson.

``run`` holds the results of the current attempt at the lesson's exercises, one
character per exercise answered (``"1"`` right, ``"0"`` wrong).  Exercise *n* is
accepted only as the next one of the run (or as exercise 1, which starts a new
attempt); the update is conditional on the run read, so a replayed or racing POST
changes nothing.  A finished run marks the lesson done and keeps the best stars.

The teaching table (``/course/table/``) has a row too (``lesson="table"``, no exercises,
no stars): :func:`record_finished` marks it done when the learner finishes its hand.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tutorial.models_visitor import VisitorRow


def stars_for(run: str) -> int:
    """3 stars for no mistakes, 2 for one, 1 for more."""
    return max(1, 3 - run.count("0"))


class CourseProgress(VisitorRow):
    lesson = models.CharField(max_length=20)
    run = models.CharField(max_length=20, blank=True, default="")
    stars = models.PositiveSmallIntegerField(default=0)  # best finished run; 0 = none yet
    completed_at = models.DateTimeField(null=True, blank=True)  # first finished run
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta(VisitorRow.Meta):
        constraints = VisitorRow.one_per_visitor("lesson", "course_progress_unique")

    def __str__(self) -> str:
        return f"{self.lesson}: {self.stars}★ run={self.run!r}"

    @property
    def done(self) -> bool:
        return self.completed_at is not None


def record_answer(session_key: str, lesson: str, n: int, total: int, correct: bool
                  ) -> CourseProgress | None:
    """Record the answer to exercise ``n`` (1-based) of ``total``; None (and no change) when
    ``n`` is not the next exercise of the run."""
    row = CourseProgress.objects.filter(session_key=session_key, lesson=lesson).first()
    if n != 1 and (row is None or n != len(row.run) + 1):
        return None
    if row is None:
        row, _ = CourseProgress.objects.get_or_create(session_key=session_key, lesson=lesson)
    run = ("" if n == 1 else row.run) + ("1" if correct else "0")
    now = timezone.now()
    changes: dict[str, object] = {"run": run, "updated_at": now}
    if len(run) == total:
        changes["stars"] = max(row.stars, stars_for(run))
        changes["completed_at"] = row.completed_at or now
    claimed = CourseProgress.objects.filter(pk=row.pk, run=row.run).update(**changes)
    if not claimed:
        return None
    row.refresh_from_db()
    return row


def record_finished(session_key: str, lesson: str) -> CourseProgress:
    """Mark ``lesson`` (one without exercises) done; doing it again keeps the first time."""
    row, _ = CourseProgress.objects.get_or_create(session_key=session_key, lesson=lesson)
    now = timezone.now()
    CourseProgress.objects.filter(pk=row.pk, completed_at__isnull=True).update(
        completed_at=now, updated_at=now)
    row.refresh_from_db()
    return row
