"""GET and HEAD never write: cookie-less visitors reading quiz pages (and every other
page) create no session and no row."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.test_prod_queries import PAGES

pytestmark = pytest.mark.django_db

QUIZ_PAGES = ["/quiz/", "/quiz/progress/", "/quiz/review/", "/quiz/bigger/",
              *(f"/quiz/{slug}/?seed={seed}&level=1"
                for slug in ("bigger", "order", "name", "cards", "showdown", "koujue")
                for seed in range(3))]


def _rows() -> int:
    return sum(model.objects.count() for model in apps.get_app_config("tutorial").get_models()
               if model.__name__ != "HealthProbe")


def test_cookie_less_quiz_reads_create_no_session_and_no_row() -> None:
    before = _rows()
    for i in range(100):
        url = QUIZ_PAGES[i % len(QUIZ_PAGES)]
        for method in ("get", "head"):
            response = getattr(Client(), method)(url)
            assert response.status_code in (200, 302), (method, url)
            assert "sessionid" not in response.cookies
    assert Session.objects.count() == 0
    assert _rows() == before


@pytest.mark.parametrize("url", [p.url for p in PAGES if p.url != "/healthz"])
def test_no_page_read_writes(url: str) -> None:
    client = Client()
    for method in ("get", "head", "get"):  # the second GET carries the first one's cookies
        with CaptureQueriesContext(connection) as queries:
            getattr(client, method)(url)
        writes = [q["sql"] for q in queries.captured_queries
                  if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.IGNORECASE)]
        assert writes == [], f"{method.upper()} {url} wrote: {writes}"


def test_review_skips_a_card_of_an_older_site_without_deleting_it() -> None:
    from django.utils import timezone

    from tutorial.models_quiz import ReviewCard

    client = Client()
    session = client.session
    session["seen"] = True
    session.save()
    key = session.session_key
    past = timezone.now() - timezone.timedelta(hours=1)
    ReviewCard.objects.create(session_key=key, item="nosuchkind:RQ-B9", due=past)
    later = past + timezone.timedelta(minutes=1)
    ReviewCard.objects.create(session_key=key, item="rank:RQ-B9", due=later)
    assert client.get("/quiz/review/").status_code == 200
    assert ReviewCard.objects.filter(session_key=key).count() == 2


def test_coach_reads_write_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The coach's pages (issue 21): a review stored, one queued, one not asked, a 返
    priced by the review and one not priced — their GETs, HEADs and htmx polls only read
    (asking for work is a POST)."""
    from tests.coach_hands import coached
    from tutorial.models_coach import HandReview

    client, tid = coached(monkeypatch, hands=3)
    HandReview.objects.filter(number__in=(2, 3)).delete()
    assert client.post(f"/coach/{tid}/2/review").status_code == 303  # queued, not run
    data = HandReview.objects.get(number=1).data["decisions"][0]
    priced = [o["amount"] for o in data["options"] if o.get("amount")]
    retry = f"/coach/{tid}/1/retry/0/"
    urls = ["/coach/", f"/coach/{tid}/", f"/coach/{tid}/1/", f"/coach/{tid}/1/?step=1",
            f"/coach/{tid}/1/summary", f"/coach/{tid}/1/hand.json", retry, f"{retry}?pick=0",
            *(f"{retry}raise?amount={a}" for a in (*priced[:1], max(priced) - 1)),
            f"/coach/{tid}/2/", f"/coach/{tid}/2/summary", f"/coach/{tid}/3/",
            f"/coach/{tid}/3/summary"]
    poll = {"HX-Request": "true", "HX-Trigger": "computing"}
    for url in urls:
        for method, headers in (("get", {}), ("head", {}), ("get", poll)):
            with CaptureQueriesContext(connection) as queries:
                status = getattr(client, method)(url, headers=headers).status_code
            assert status in (200, 204, 405), (method, url, status)  # 405: HEAD refused
            writes = [q["sql"] for q in queries.captured_queries
                      if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.IGNORECASE)]
            assert writes == [], f"{method.upper()} {url} wrote: {writes}"
