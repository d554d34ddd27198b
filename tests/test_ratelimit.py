"""Per-client rate limits on the requests that create rows: a clear 429 page in Chinese
and English with Retry-After, nothing created, GETs never limited, each client counted on
its own, and the counting atomic under real parallel requests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, RequestFactory

from engine import quiz as q
from engine.rules import get_rules
from tests.test_night_concurrency import Phone, server_on_test_database, together
from tutorial.models_limits import RateCount
from tutorial.models_night import Night
from tutorial.models_quiz import QuizQuestion
from tutorial.models_table import PracticeTable
from tutorial.ratelimit import client_address

TABLE = {"bots": "2", "level": "simple", "stakes": "1、3", "mango": "fixed"}
NIGHT = {"player1": "甲", "player2": "乙", "stakes": "1、3", "bobo": "2000", "end": "23:59",
         "tz": "UTC"}


@pytest.fixture
def low(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Low limits, and the limiter's clock held still: a test's requests all count at one
    moment (the count slides with the clock)."""
    settings.RATE_LIMITS = {"new": (2, 600), "write": (3, 60), "session": (1000, 3600)}
    monkeypatch.setattr("tutorial.ratelimit.time.time", lambda: 1_000_030.0)
    return settings


def answer(client: Client, seed: int, **extra: Any) -> Any:
    html = client.get(f"/quiz/bigger/?seed={seed}&level=1").content.decode()
    token = re.search(r'name="token" value="([^"]+)"', html)
    assert token
    question = q.generate("bigger", seed, 1, get_rules("xuanjing"))
    return client.post("/quiz/bigger/", {"token": token[1],
                                         **q.solve(question, get_rules("xuanjing"))}, **extra)


@pytest.mark.django_db
def test_new_tables_over_the_limit_get_a_429_page(client: Client, low: Any) -> None:
    assert [client.post("/table/", TABLE).status_code for _ in range(2)] == [303, 303]
    response = client.post("/table/", TABLE)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 600
    html = response.content.decode()
    assert "请求太频繁了" in html and "秒后再试" in html
    assert " style=" not in html
    assert PracticeTable.objects.count() == 2
    assert client.get("/table/").status_code == 200  # reading is never limited
    client.cookies["django_language"] = "en"
    english = client.post("/table/", TABLE).content.decode()
    assert "Too many requests" in english and "try again in" in english
    assert "请求太频繁了" not in english


@pytest.mark.django_db
def test_new_nights_over_the_limit(client: Client, low: Any) -> None:
    assert [client.post("/night/", NIGHT).status_code for _ in range(3)] == [302, 302, 429]
    assert Night.objects.count() == 2


@pytest.mark.django_db
def test_quiz_answers_over_the_limit_and_clients_are_counted_apart(client: Client,
                                                                   low: Any) -> None:
    assert [answer(client, seed).status_code for seed in range(4)] == [200, 200, 200, 429]
    assert QuizQuestion.objects.count() == 3
    # another address has its own count
    assert answer(client, 9, REMOTE_ADDR="192.0.2.7").status_code == 200
    # htmx gets the 429 too (site.js shows a message)
    assert answer(client, 10, HTTP_HX_REQUEST="true").status_code == 429


@pytest.mark.django_db
def test_proxy_header_names_the_client(client: Client, low: Any) -> None:
    low.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    for seed in range(3):
        assert answer(client, seed, HTTP_X_FORWARDED_FOR=f"spoofed, 198.51.100.{seed}"
                      ).status_code == 200
    # one IPv6 /64 is one client
    statuses = [answer(client, 10 + i, HTTP_X_FORWARDED_FOR=f"2001:db8::{i}").status_code
                for i in range(4)]
    assert statuses == [200, 200, 200, 429]


@pytest.mark.parametrize(("header", "client"), [
    ("1.2.3.4", "1.2.3.4"), ("1.2.3.4:5678", "1.2.3.4"), (" 10.0.0.1, 1.2.3.4:80 ", "1.2.3.4"),
    ("2001:db8::1", "2001:db8::"), ("[2001:db8::1]", "2001:db8::"),
    ("[2001:db8::1]:80", "2001:db8::"), ("[2001:db8:0:1::5]:443", "2001:db8:0:1::"),
    # not an address the proxy wrote: the request counts as coming from REMOTE_ADDR
    ("garbage", "192.0.2.9"), ("", "192.0.2.9"), ("1.2.3.4:port", "192.0.2.9"),
    ("[2001:db8::1", "192.0.2.9"), ("[2001:db8::1]x", "192.0.2.9"), ("1.2.3.4:5:6", "192.0.2.9"),
    ("[1.2.3.4]:99999999", "192.0.2.9"),
])
def test_proxy_header_values_with_ports_and_brackets(settings: Any, header: str,
                                                     client: str) -> None:
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.9", HTTP_X_FORWARDED_FOR=header)
    assert client_address(request) == client


@pytest.mark.django_db
def test_the_window_passes_and_old_counters_go(client: Client, low: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1_000_000.0]
    monkeypatch.setattr("tutorial.ratelimit.time.time", lambda: clock[0])
    assert [answer(client, seed).status_code for seed in range(4)] == [200, 200, 200, 429]
    clock[0] += 60
    assert answer(client, 5).status_code == 200
    clock[0] += 600
    client.post("/table/", TABLE)
    # the expired windows were deleted; the first answer's session window (an hour) is left
    assert sorted(key.split(":")[0] for key in RateCount.objects.values_list("key", flat=True)
                  ) == ["new", "session"]


@pytest.mark.django_db
def test_the_count_slides_across_a_window_edge(client: Client, low: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Three answers (the limit a minute) just before a window's edge, then more just after
    it: with fixed windows the second window started from nothing (twice the limit in a few
    seconds); the count now slides, so they are refused until enough of the three are a
    minute old, and Retry-After says when."""
    clock = [999_960.0 + 50]  # 50 s into a window of 60
    monkeypatch.setattr("tutorial.ratelimit.time.time", lambda: clock[0])
    assert [answer(client, seed).status_code for seed in range(3)] == [200, 200, 200]
    clock[0] = 1_000_020.0 + 5  # 5 s into the next window: 3 × 55/60 + 1 > 3
    refused = answer(client, 3)
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert wait == 35  # the refused try counts: 3 × (1 − f) + 1 + 1 ≤ 3 at f = 2/3
    clock[0] += wait - 1
    assert answer(client, 4).status_code == 429
    clock[0] += 1 + 120  # two windows on, nothing of before weighs in
    assert [answer(client, seed).status_code for seed in range(5, 9)] == [200, 200, 200, 429]


@pytest.fixture(scope="module")
def limited_server() -> Iterator[str]:
    # On PostgreSQL every production server of the run shares one database, and the other
    # concurrency tests create nights from this same address: a window length of its own
    # gives this server's counters window numbers nobody else uses.
    with server_on_test_database(RATE_LIMITS="new=5/7919") as address:
        yield address


@pytest.mark.concurrency
def test_parallel_requests_are_counted_atomically(limited_server: str) -> None:
    phone = Phone(limited_server)
    results = together("/night/", [(phone, NIGHT)] * 20)
    statuses = sorted(status for status, _ in results)
    assert statuses == [302] * 5 + [429] * 15, statuses


# ---- a refusal under htmx: a short message put first in the swap's target, never a page
def refused_in_place(response: Any, boosted: bool = False) -> str:
    """``response`` is the rate limit's htmx answer: 429 with Retry-After, the short
    message alone (no page), put first in the element htmx was to swap (a boosted form's:
    the page's main part, with no history entry); its text."""
    html = response.content.decode()
    # the wait: at most two periods (the count slides; the longest period here is 3600 s)
    assert response.status_code == 429 and 0 < int(response["Retry-After"]) <= 7200
    assert html.startswith('<p class="limit-refusal" role="alert">') and "<html" not in html
    assert f"请 {response['Retry-After']} 秒后再试" in html
    assert response["HX-Reswap"] == "afterbegin"
    if boosted:
        assert response["HX-Retarget"] == "#main" and response["HX-Push-Url"] == "false"
    else:
        assert "HX-Retarget" not in response
    return html


HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.django_db
def test_a_quiz_answer_over_the_limit_under_htmx(client: Client, low: Any) -> None:
    for seed in range(3):
        assert answer(client, seed, **HTMX).status_code == 200
    refused_in_place(answer(client, 3, **HTMX))
    assert QuizQuestion.objects.count() == 3
    page = answer(client, 4)  # without JavaScript: the page
    assert page.status_code == 429 and "<html" in page.content.decode()


@pytest.mark.django_db
def test_a_course_answer_over_the_limit_under_htmx(client: Client, low: Any) -> None:
    low.RATE_LIMITS["write"] = (0, 60)
    response = client.post("/course/groups/1/", {"seed": "11", "choice": "0"}, **HTMX)
    refused_in_place(response)


@pytest.mark.django_db
def test_a_table_action_over_the_limit_under_htmx(client: Client, low: Any) -> None:
    url = client.post("/table/", TABLE)["Location"]
    table = PracticeTable.objects.get()
    low.RATE_LIMITS["write"] = (0, 60)
    for path in ("act", "bot", "squeeze"):
        refused_in_place(client.post(f"{url}{path}", {"seq": table.seq, "act": "deal"}, **HTMX))
    page = client.post(f"{url}act", {"seq": table.seq, "act": "deal"})
    assert page.status_code == 429 and "<html" in page.content.decode()
    assert PracticeTable.objects.get().seq == table.seq


@pytest.mark.django_db
def test_a_night_entry_over_the_limit_under_htmx_boost(client: Client, low: Any) -> None:
    client.post("/night/", NIGHT)
    night = Night.objects.get()
    low.RATE_LIMITS["write"] = (0, 60)
    entry = {"do": "rebuy", "player": "甲", "amount": "500", "after": "0"}
    response = client.post(f"/night/{night.token}/", entry,
                           HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true")
    refused_in_place(response, boosted=True)
    assert night.events.count() == 0


@pytest.mark.django_db
def test_the_message_without_a_session_cookie_says_why(client: Client, low: Any) -> None:
    low.RATE_LIMITS["session"] = (0, 3600)
    html = refused_in_place(answer(client, 1, **HTMX))
    assert "cookie" in html
    client.cookies["django_language"] = "en"
    english = answer(client, 2, **HTMX).content.decode()
    assert "Too many requests: try again in" in english and "cookie" in english
