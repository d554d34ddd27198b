"""Regression (issue 15): /night/ showed every time in China time whatever the visitor's
zone (23:30 typed in UTC showed as 07:30), and so did its CSV and the quiz's due times.
Now a night keeps the zone it was created in (the creator's browser zone, filled in by
calc.js, or typed) and names it; other pages use the browser's zone from the ``tz``
cookie (site.js) and name the zone they show times in."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.english import unlinked
from tutorial.models_night import Night, NightEvent
from tutorial.models_quiz import ReviewCard

pytestmark = pytest.mark.django_db


def create(client: Client, **extra: str) -> Night:
    data = {"player1": "甲", "player2": "乙", "stakes": "1、3", "bobo": "2000",
            "end": "23:30", **extra}
    response = client.post("/night/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Night.objects.get(token=response["Location"].split("/")[2])


def test_a_night_in_utc_shows_utc_times(client: Client) -> None:
    night = create(client, tz="UTC")
    assert night.time_zone == "UTC"
    assert (night.end_at.astimezone(UTC).hour, night.end_at.astimezone(UTC).minute) == (23, 30)
    page = unlinked(client.get(f"/night/{night.token}/").content.decode())
    assert "23:30 打圈芒" in page and '时间按 <bdi translate="no">UTC</bdi>' in page
    assert 'name="end" type="time" value="23:30"' in page

    # A hand recorded at 23:40 UTC is listed at 23:40, in the page and in the CSV.
    client.post(f"/night/{night.token}/", {"do": "hand", "kind": "show", "pot_to": "甲",
                                           "net0": "5", "net1": "-5", "after": "0"})
    at = datetime(2026, 12, 1, 23, 40, tzinfo=UTC)
    NightEvent.objects.filter(night=night).update(at=at)
    page = client.get(f"/night/v/{night.view_token}/").content.decode()
    assert '<span class="muted">23:40</span>' in page and "07:40" not in page
    rows = list(csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode("utf-8-sig"))))
    assert rows[0][1] == "时间（UTC）" and rows[1][1] == "2026-12-01 23:40"

    # Moving the 圈芒 time is in the night's zone too.
    client.post(f"/night/{night.token}/", {"do": "end", "end": "22:15"})
    night.refresh_from_db()
    assert night.end_at.astimezone(UTC).strftime("%H:%M") == "22:15"


def test_the_zone_defaults_to_the_visitors_and_is_checked(client: Client) -> None:
    client.cookies["tz"] = "Europe/London"
    form = client.get("/night/").content.decode()
    assert 'name="tz" value="Europe/London"' in form
    assert create(client).time_zone == "Europe/London"  # no tz field sent: the cookie's
    client.cookies.pop("tz")
    assert create(client).time_zone == "Asia/Shanghai"  # neither: the site's, shown
    assert "data-tz" in form  # calc.js fills in the browser's zone on a fresh form…
    bad = client.post("/night/", {"player1": "甲", "player2": "乙", "stakes": "1、3",
                                  "bobo": "2000", "end": "23:30", "tz": "Mars/Olympus"})
    assert bad.status_code == 400 and "不认识的时区" in bad.content.decode()
    assert "data-tz" not in bad.content.decode()  # …but leaves what was typed alone


def test_quiz_due_times_in_the_visitors_zone(client: Client) -> None:
    session = client.session
    session["seen"] = True
    session.save()
    due = timezone.now() + timedelta(hours=3)
    ReviewCard.objects.create(session_key=session.session_key, item="rank:RQ-B9", due=due)
    client.cookies["tz"] = "UTC"
    html = client.get("/quiz/").content.decode()
    shown = due.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    assert f"下一张在 {shown}（UTC）到期" in html
    progress = client.get("/quiz/progress/").content.decode()
    assert shown in progress and "(UTC)" in progress
