"""Root URLs: health check and the tutorial app (which has the language switch)."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

logger = logging.getLogger(__name__)


def healthz(request: HttpRequest) -> HttpResponse:
    """Readiness probe: 200 "ok" when the database answers a trivial query, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: database check failed")
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", include("tutorial.urls")),
]
