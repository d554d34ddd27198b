"""The practice table's and the coach's read-through (December 2026): each test pins a
sentence or an answer that was wrong before."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tutorial.models_table import PracticeTable

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """The page's words without their markup (terms are links to the glossary)."""
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize(("lang", "message"), [
    ("zh-hans", "没有这种注码：只能打 1、3，5、10 或 5、20"),
    ("en", "No such stakes: choose 1、3, 5、10 or 5、20"),
])
def test_unknown_stakes_are_refused_in_the_page_language(client: Client, lang: str,
                                                         message: str) -> None:
    client.cookies["django_language"] = lang
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "7、7"})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in text(html)
    assert "unknown stakes preset" not in html  # the engine's English message
    assert PracticeTable.objects.count() == 0
