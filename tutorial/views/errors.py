"""Error pages that need a view of their own (404 and 500 are plain templates)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the site's page instead of Django's (which has inline style,
    refused by the Content-Security-Policy)."""
    return render(request, "403_csrf.html", status=403)
