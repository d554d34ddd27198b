"""Whether a request wants a page's fragment or the whole page (the views' one test)."""

from __future__ import annotations

from django.http import HttpRequest

__all__ = ["is_htmx"]


def is_htmx(request: HttpRequest) -> bool:
    """An htmx request that wants a fragment (not a history restore, which needs the page)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not getattr(htmx, "history_restore_request", False)
