"""Database queries per page, kept small (issue 8).

``PAGES`` maps a URL to the most queries one request to it may make.  Add a row when you
add a page (or an htmx fragment: mark it with ``htmx=True``).  Pages whose URL does not
resolve yet are skipped with a message, so rows can be added before the page lands.

The counting helper is pytest-django's ``django_assert_max_num_queries`` fixture:

    def test_my_view(client, django_assert_max_num_queries):
        with django_assert_max_num_queries(2):
            client.get("/my/page/")

On failure it lists every query that ran.  ``PAGES`` counts a first visit (no session
cookie) and a repeat visit in the same session (the cookie set by the first one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve


@dataclass(frozen=True)
class Page:
    url: str
    max_queries: int
    htmx: bool = False  # request it as an htmx fragment (HX-Request: true)
    headers: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.url + (" [htmx]" if self.htmx else "")


PAGES: list[Page] = [
    Page("/", 0),
    Page("/healthz", 4),  # applied migrations; the probe row updated in a savepoint
    # reference
    Page("/cards/", 0),
    Page("/pairs/", 0),
    Page("/pairs/?q=天九", 0),
    Page("/pairs/?q=天九", 0, htmx=True),
    Page("/pairs/RQ-B9/", 0),
    Page("/rules/", 0),
    Page("/splits/", 0),
    Page("/splits/?hand=RQ+R6+R7+B9", 0),
    # quiz: reading creates no session (the question is a signed token); the review counts
    # are one aggregate query.
    Page("/quiz/", 2),
    Page("/quiz/bigger/?seed=1&level=1", 0),
    Page("/quiz/progress/", 4),
    # course: GET never writes; a visitor with a session: the session and their progress
    Page("/course/", 0),
    Page("/course/groups/", 0),
    Page("/course/groups/1/?seed=1", 0),
    Page("/course/groups/2/?seed=1", 0, htmx=True),
    Page("/walkthroughs/", 0),
    Page("/walkthroughs/full-hand/1/", 0),
    Page("/table/", 0),
    Page("/calc/", 0),
    Page("/night/", 0),
    Page("/coach/", 0),
]


def _skip_if_missing(url: str) -> None:
    try:
        resolve(urlsplit(url).path)
    except Resolver404:
        pytest.skip(f"{url} is not there yet (no URL pattern): add the page, the row is ready")


def _get(client: Client, page: Page) -> Any:
    headers = dict(page.headers)
    if page.htmx:
        headers["HX-Request"] = "true"
    return client.get(page.url, headers=headers)


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES, ids=str)
def test_queries_per_page(
    page: Page, client: Client, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    _skip_if_missing(page.url)
    for visit in ("first", "repeat"):
        with django_assert_max_num_queries(page.max_queries):
            response = _get(client, page)
        assert response.status_code == 200, f"{page} ({visit} visit): {response.status_code}"
