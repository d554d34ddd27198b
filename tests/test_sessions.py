"""Sessions (issue 21 §3): a session key the server did not issue owns nothing, and a
client that drops its cookie cannot create sessions without bound."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from tests.test_ratelimit import TABLE, answer
from tutorial.models_quiz import QuizQuestion
from tutorial.models_table import PracticeTable

FORGED = ["forgedkey1234567", "a" * 32, "x" * 65, "sesión-clé-12345", "abc def ghi jkl"]


@pytest.mark.django_db
@pytest.mark.parametrize("forged", FORGED)
def test_a_made_up_session_key_owns_nothing(forged: str) -> None:
    mine = Client()
    mine.cookies["sessionid"] = forged
    response = mine.post("/table/", TABLE)
    assert response.status_code == 303
    table = PracticeTable.objects.get()
    assert table.owner != forged
    assert Session.objects.filter(session_key=table.owner).exists()  # a key the server made
    assert mine.cookies["sessionid"].value == table.owner  # the made-up key was replaced
    assert mine.get(f"/table/{table.pk}/").status_code == 200
    other = Client()
    other.cookies["sessionid"] = forged
    assert other.get(f"/table/{table.pk}/").status_code == 404
    assert other.get("/table/").content.decode().count(str(table.pk)) == 0


@pytest.mark.django_db
def test_an_expired_or_deleted_session_is_a_new_visitor(client: Client) -> None:
    assert client.post("/table/", TABLE).status_code == 303
    first = PracticeTable.objects.get()
    Session.objects.filter(session_key=first.owner).update(expire_date=timezone.now())
    assert client.get(f"/table/{first.pk}/").status_code == 404
    assert client.post("/table/", TABLE).status_code == 303
    second = PracticeTable.objects.exclude(pk=first.pk).get()
    assert second.owner != first.owner


@pytest.mark.django_db
def test_cookieless_writes_create_a_bounded_number_of_sessions(settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "session": (5, 3600)}
    statuses = []
    for seed in range(8):  # a client that never sends the cookie back
        statuses.append(answer(Client(), seed).status_code)
    assert statuses == [200] * 5 + [429] * 3
    assert Session.objects.count() == 5 and QuizQuestion.objects.count() == 5
    refused = answer(Client(), 99)
    html = refused.content.decode()
    assert "没有带本站的 cookie" in html and int(refused["Retry-After"]) > 0
    # a browser that keeps the cookie goes on answering from the same address
    keeps = Client()
    keeps.cookies["sessionid"] = Session.objects.first().session_key  # type: ignore[union-attr]
    assert [answer(keeps, 200 + i).status_code for i in range(3)] == [200] * 3
    assert Session.objects.count() == 5
    english = Client()
    english.cookies["django_language"] = "en"
    assert "keep this site's cookie" in answer(english, 300).content.decode()


@pytest.mark.django_db
def test_a_session_lasts_a_year_only_once_the_visitor_comes_back(client: Client) -> None:
    assert answer(client, 1).status_code == 200
    session = Session.objects.get()
    assert session.expire_date < timezone.now() + timedelta(days=15)  # Django's two weeks
    assert answer(client, 2).status_code == 200
    session.refresh_from_db()
    assert session.expire_date > timezone.now() + timedelta(days=300)

