"""/healthz: ready only when the database has the app's schema and takes a write.

A trivial ``SELECT 1`` answered 200 for a read-only database file, a missing file (SQLite
created an empty one) and a file deleted under the running server, while every page gave
a 500.  So the check reads the applied migrations, compares them with the migration files,
and commits an update of the single ``HealthProbe`` row (created again if a flush removed
it).  On SQLite it opens a fresh connection first: a kept connection still writes to a
deleted file's inode.
"""

from __future__ import annotations

import logging
from functools import cache

from django.db import DatabaseError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from tutorial.models_health import HealthProbe

logger = logging.getLogger(__name__)


@cache
def _migrations() -> frozenset[tuple[str, str]]:
    """Every migration on disk, as (app, name); read once per process."""
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def problem() -> str | None:
    """Why the database cannot serve the site, or None when it can."""
    if connection.vendor == "sqlite" and not connection.in_atomic_block:
        connection.close()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT app, name FROM django_migrations")
            missing = _migrations() - {(app, name) for app, name in cursor.fetchall()}
        if missing:
            return "database not migrated"
        moment = timezone.now()
        with transaction.atomic():
            if not HealthProbe.objects.filter(pk=1).update(checked=moment):
                HealthProbe.objects.get_or_create(pk=1, defaults={"checked": moment})
    except DatabaseError:
        logger.exception("healthz: database check failed")
        return "database unavailable"
    return None


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Readiness probe: 200 "ok", or 503 with the reason (plain text)."""
    reason = problem()
    if reason is not None:
        logger.error("healthz: %s", reason)
        return HttpResponse(reason, status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
