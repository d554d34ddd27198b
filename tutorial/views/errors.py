"""Error pages that need a view of their own (404 and 500 are plain templates), and the
405 page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the site's page instead of Django's (which has inline style,
    refused by the Content-Security-Policy)."""
    return render(request, "403_csrf.html", status=403)


class NotAllowedMiddleware:
    """A 405 (``require_POST``, ``require_safe``, the page cache's own) has an empty body:
    the site's page says which methods the address takes instead, ``Allow`` kept."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (response.status_code != 405 or response.streaming
                or not isinstance(response, HttpResponse) or response.content):
            return response
        allowed = response.get("Allow", "")
        page = render(request, "405.html", {"allowed": allowed}, status=405)
        page["Allow"] = allowed
        return page
