"""Two devices, one learner (issue 22 §3), against a live production server (gunicorn,
4 workers) on SQLite and on PostgreSQL (``scripts/test_postgres.sh -m concurrency``):
answers sent from both devices at the same moment are all counted, once each; the same
answer sent from both counts once; two devices logging in at the same moment both bring
their anonymous progress in."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.test_night_concurrency import at_once, server_on_test_database
from tests.test_quiz_concurrency import Visitor

pytestmark = pytest.mark.concurrency
PASSWORD = "river-card-2718"
GENEROUS = "login=1000/600,login-account=1000/600,signup=1000/600"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with server_on_test_database(RATE_LIMITS=GENEROUS) as address:
        yield address


def answered(device: Visitor) -> int:
    page = device.request("GET", "/quiz/progress/")[1]
    match = re.search(r"一共答了 (\d+) 题", page)
    return int(match[1]) if match else 0


def answer(device: Visitor, slug: str, seed: int) -> dict[str, str]:
    token, solved = device.question(slug, seed)
    return {"token": token, **solved}


def signed_up(server: str, name: str) -> Visitor:
    device = Visitor(server)
    status, text, _ = device.request("POST", "/accounts/signup/", {
        "username": name, "password1": PASSWORD, "password2": PASSWORD})
    assert status == 200 and "<code>" in text, text[:2000]
    return device


def logged_in(server: str, name: str) -> Visitor:
    device = Visitor(server)
    status, text, _ = device.request("POST", "/accounts/login/",
                                     {"username": name, "password": PASSWORD})
    assert status == 302, text[:2000]
    return device


def test_answers_from_two_devices_at_once_all_count_once(server: str) -> None:
    laptop = signed_up(server, "two-devices")
    phone = logged_in(server, "two-devices")
    assert laptop.cookies["sessionid"] != phone.cookies["sessionid"]
    seed = 10
    for slug in ("bigger", "name", "bigger"):  # a new progress row, then existing ones
        posts = []
        for device in (laptop, phone, laptop, phone):
            seed += 1
            posts.append((device, "POST", f"/quiz/{slug}/", answer(device, slug, seed)))
        results = at_once(posts)
        assert [status for status, _ in results] == [200] * 4
        assert not any("不再计分" in text for _, text in results)
    assert answered(laptop) == answered(phone) == 12
    # the same answer sent from both devices together counts once
    same = answer(laptop, "bigger", 99)
    results = at_once([(laptop, "POST", "/quiz/bigger/", same),
                       (phone, "POST", "/quiz/bigger/", same)] * 3)
    assert [status for status, _ in results] == [200] * 6
    assert sum("不再计分" not in text for _, text in results) == 1
    assert answered(laptop) == answered(phone) == 13
    # both see the same due reviews
    due = [re.search(r'<dl class="quiz-due__numbers">.*?</dl>', device.request("GET", "/quiz/")[1],
                     re.S) for device in (laptop, phone)]
    assert due[0] and due[1] and due[0][0] == due[1][0]
    assert int(re.findall(r"<dd>(\d+)</dd>", due[0][0])[-1]) > 0  # cards in all

def test_two_devices_logging_in_together_both_bring_their_progress(
        server: str) -> None:
    signed_up(server, "merge-race")
    devices = [Visitor(server) for _ in range(4)]
    for i, device in enumerate(devices):  # each answers anonymously first
        for seed in range(3):
            form = answer(device, "bigger", 500 + 10 * i + seed)
            assert device.request("POST", "/quiz/bigger/", form)[0] == 200
        assert answered(device) == 3
    results = at_once([(device, "POST", "/accounts/login/",
                        {"username": "merge-race", "password": PASSWORD})
                       for device in devices])
    assert [status for status, _ in results] == [302] * 4
    assert len({device.cookies["sessionid"] for device in devices}) == 4
    for device in (*devices, logged_in(server, "merge-race")):
        assert answered(device) == 12
