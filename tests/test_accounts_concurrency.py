"""Two devices, one learner (issue 22 §3), against a live production server (gunicorn,
4 workers) on SQLite and on PostgreSQL (``scripts/test_postgres.sh -m concurrency``):
answers sent from both devices at the same moment are all counted, once each; the same
answer sent from both counts once; two devices logging in at the same moment both bring
their anonymous progress in."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from engine import quiz as q
from tests.test_night_concurrency import at_once, server_on_test_database
from tests.test_quiz_concurrency import Visitor
from tests.test_quiz_views import wrong_answer
from tutorial import course
from tutorial.views.quiz import RULES

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


def course_answers(device: Visitor, slug: str) -> None:
    """Take lesson ``slug`` without a mistake."""
    lesson = course.lesson(slug)
    assert lesson is not None
    for ex in lesson.exercises:
        shown = course.question(ex, 11)
        fields = {"choice": str(ex.answer)} if shown is None else q.solve(shown, course.RULES)
        status, text, _ = device.request("POST", f"/course/{slug}/{ex.n}/",
                                         {"seed": "11", **fields})
        assert status == 200, text[:2000]


def stars(device: Visitor) -> int:
    page = device.request("GET", "/course/")[1]
    match = re.search(r"得了 (\d+) 颗星", page)
    assert match, page[:3000]
    return int(match[1])


def test_devices_with_lessons_in_opposite_orders_log_in_together(server: str) -> None:
    """Each merge takes the account's rows in one order (a device's own order made two
    merges wait for each other on PostgreSQL: a deadlock, one login a 500 and that
    device's progress left behind under its old session key)."""
    signed_up(server, "lesson-race")
    lessons = ["groups", "special", "cards", "split"]
    for _round in range(3):
        devices = [Visitor(server) for _ in range(4)]
        for i, device in enumerate(devices):
            for slug in (lessons if i % 2 else lessons[::-1]):
                course_answers(device, slug)
        results = at_once([(device, "POST", "/accounts/login/",
                            {"username": "lesson-race", "password": PASSWORD})
                           for device in devices])
        assert [status for status, _ in results] == [302] * 4, [t[:300] for _, t in results]
        for device in devices:
            assert stars(device) == 3 * len(lessons)


def shared_items(rounds: int) -> list[tuple[str, int, int, int]]:
    """(item, bigger seed, another bigger seed, order seed): three questions whose wrong
    answers each rate ``item`` Again; no seed twice."""
    used: set[int] = set()
    found = []

    def again(slug: str, seed: int) -> set[str]:
        shown = q.generate(slug, seed, 1, RULES)
        return {item for item, ok in q.check(shown, wrong_answer(shown), RULES).items
                if not ok}

    bigger = {s: again("bigger", s) for s in range(1, 600)}
    order = {s: again("order", s) for s in range(1, 600)}
    for item in sorted(set().union(*bigger.values())):
        b = [s for s, items in bigger.items() if item in items and s not in used][:2]
        o = [s for s, items in order.items() if item in items and s not in used][:1]
        if len(b) == 2 and o:
            found.append((item, b[0], b[1], o[0]))
            used.update((*b, *o))
        if len(found) == rounds:
            return found
    raise AssertionError("not enough shared items")


def wrong(device: Visitor, slug: str, seed: int) -> dict[str, str]:
    token, _ = device.question(slug, seed)
    return {"token": token, **wrong_answer(q.generate(slug, seed, 1, RULES))}


def test_two_kinds_answered_at_once_on_two_devices_rate_a_shared_card_twice(
        server: str) -> None:
    """哪个大 on the phone and 排顺序 on the laptop, sent at once, both rate the review
    card they share (each kind locks its own progress row: the card is locked too)."""
    laptop = signed_up(server, "shared-card")
    phone = logged_in(server, "shared-card")
    picks = shared_items(6)
    for _item, first, _second, _order in picks:  # the cards exist
        assert phone.request("POST", "/quiz/bigger/", wrong(phone, "bigger", first))[0] == 200
    posts = []
    for _item, _first, second, order in picks:
        posts += [(laptop, "POST", "/quiz/order/", wrong(laptop, "order", order)),
                  (phone, "POST", "/quiz/bigger/", wrong(phone, "bigger", second))]
    results = at_once(posts)
    assert [status for status, _ in results] == [200] * len(posts), [
        t[:300] for s, t in results if s != 200]
    cards = {c["item"]: c for c in json.loads(laptop.request("GET", "/accounts/data.json")[1])
             ["review_cards"]}
    for item, *_ in picks:
        assert (cards[item]["reviews"], cards[item]["lapses"]) == (3, 3), item


def test_the_same_username_signed_up_on_two_devices_at_once(server: str) -> None:
    """One account; the other devices are told the name is taken (400), never a 500."""
    devices = [Visitor(server) for _ in range(4)]
    results = at_once([(device, "POST", "/accounts/signup/", {
        "username": "twin", "password1": PASSWORD, "password2": PASSWORD})
        for device in devices])
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 400, 400, 400], statuses
    assert sum("<code>" in text for _, text in results) == 1
    assert all("已存在" in text for status, text in results if status == 400)


class Laptop(Visitor):
    """A visitor that notes every session cookie an answer hands it."""

    def __init__(self, server: str) -> None:
        self.handed: list[str] = []
        super().__init__(server)

    def _keep_cookies(self, headers: list[tuple[str, str]]) -> None:
        for name, value in headers:
            match = re.match(r"sessionid=([^;]*)", value)
            if name.lower() == "set-cookie" and match and match[1]:
                self.handed.append(match[1])
        super()._keep_cookies(headers)


def logged_in_with(server: str, name: str, password: str) -> Visitor:
    device = Visitor(server)
    status, text, _ = device.request("POST", "/accounts/login/",
                                     {"username": name, "password": password})
    assert status == 302, text[:2000]
    return device


def test_a_password_change_sent_twice_at_once_keeps_the_device_logged_in(
        server: str) -> None:
    """A double (and a triple) click on 改密码: the same form POSTed at the same moment
    with the same session.  Every answer sends the device to the account page (none to
    the login page, no error); every session cookie they hand out is logged in, whichever
    the browser keeps; the password is the new one; the other devices are logged out."""
    signed_up(server, "double-click")
    laptop = Laptop(server)
    assert laptop.request("POST", "/accounts/login/", {"username": "double-click",
                                                       "password": PASSWORD})[0] == 302
    old = PASSWORD
    for round_, clicks in enumerate((2, 3, 2, 3)):
        phone = logged_in_with(server, "double-click", old)
        new = f"river-card-{round_}-{clicks}-9182"
        form = {"old_password": old, "new_password1": new, "new_password2": new}
        laptop.handed.clear()
        results = at_once([(laptop, "POST", "/accounts/password/", form)] * clicks)
        assert [status for status, _ in results] == [302] * clicks, [
            t[:300] for _, t in results]
        assert len(laptop.handed) == clicks  # each answer gave the device a session
        assert laptop.request("GET", "/accounts/")[0] == 200
        for key in laptop.handed:  # whichever answer's cookie the browser keeps
            other = Visitor(server)
            other.cookies["sessionid"] = key
            assert other.request("GET", "/accounts/")[0] == 200, key
        assert phone.request("GET", "/accounts/")[0] == 302  # logged out
        status, _, _ = Visitor(server).request("POST", "/accounts/login/", {
            "username": "double-click", "password": old})
        assert status == 200  # the old password is refused
        logged_in_with(server, "double-click", new)
        old = new
