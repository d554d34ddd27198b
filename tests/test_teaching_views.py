"""The teaching table with Django's test client: the script is a legal hand for the
engine and ends as the texts say; every stop renders without writing anything; the
suggested button goes on, another one stays and says why, bad input is a 400."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from engine.game import Act, Phase
from tests.english import game_terms, untranslated
from tutorial import course, teaching
from tutorial.models_course import CourseProgress
from tutorial.models_table import PracticeTable

pytestmark = pytest.mark.django_db
STOPS = teaching.stops()
LAST = len(STOPS)


def url(n: int, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/course/table/{n}/" + (f"?{query}" if query else "")


def test_the_script_is_a_legal_hand_that_ends_as_told() -> None:
    for stop in STOPS:
        game = teaching.game_at(stop.number)
        if stop.you is not None:
            assert game.to_act == teaching.LEARNER, stop.title
            assert stop.you.kind in teaching.legal(game).acts, stop.title
            assert all(a in Act for a in map(Act, stop.why)), stop.title
        if stop.squeeze:
            assert game.hand is not None and game.hand.round == 3
    end = teaching.game_at(LAST)
    hand = end.hand
    assert end.phase is Phase.BETWEEN and hand is not None and hand.result is not None
    result = hand.result
    assert result.how == "showdown" and result.winner == teaching.LEARNER
    assert result.nets == [21, 0, -1, -20]
    assert [o["result"] for o in result.outcomes] == ["走"]
    assert "21" in STOPS[-1].text[1]


def test_every_stop_renders_and_nothing_is_written(client: Client) -> None:
    assert client.get("/course/table/")["Location"] == url(1)
    for stop in STOPS:
        response = client.get(url(stop.number))
        assert response.status_code == 200
        assert "sessionid" not in response.cookies
    assert Session.objects.count() == 0
    assert client.post(url(2), {"act": "call"}).status_code == 405  # buttons are GET forms
    assert client.head(url(2)).status_code == 200
    assert client.get(url(0)).status_code == 404
    assert client.get(url(LAST + 1)).status_code == 404


def test_hidden_cards_stay_hidden_until_the_showdown(client: Client) -> None:
    html = client.get(url(2)).content.decode()
    assert html.count("card card--back") == 6  # three bots' two hidden cards
    html = client.get(url(5)).content.decode()  # the squeeze: your 4th card is covered too
    assert html.count("card card--back") == 3 * 2 + 1  # and yours
    assert 'class="squeeze__cover"' in html
    html = client.get(url(LAST)).content.decode()
    assert "地牌一对" in html and "你：+21" in html


def test_the_suggested_button_goes_on(client: Client) -> None:
    for stop in STOPS:
        you = stop.you
        if you is None:
            continue
        params: dict[str, Any] = {"act": you.kind.value}
        if you.kind is Act.RAISE:
            params["amount"] = you.amount
        if you.kind is Act.SPLIT:
            query = "act=split&head=" + "&head=".join(you.cards[:2])
            response = client.get(f"/course/table/{stop.number}/?{query}")
        else:
            response = client.get(url(stop.number, **params))
        assert response.status_code == 302, stop.title
        assert response["Location"] == url(stop.number + 1)
    assert client.get(url(6, act="tuo"))["Location"] == url(7)  # 拖 to 40 = 发招 to 40


def test_another_button_says_why(client: Client) -> None:
    response = client.get(url(2, act="fold"))
    html = response.content.decode()
    assert response.status_code == 200 and "天牌是好牌" in html and 'class="teach-why"' in html
    html = client.get(url(6, act="raise", amount=60)).content.decode()
    assert "我们发招到40" in html
    html = client.get("/course/table/7/?act=split&head=♥Q&head=♥4").content.decode()
    assert "就是死" in html


def test_bad_input_is_a_400(client: Client) -> None:
    for bad in (url(2, act="check"),  # nothing to check: a bet is on
                url(2, act="split"),
                url(2, act="jump"),
                url(1, act="call"),  # nothing to press at this stop
                "/course/table/7/?act=split&head=♥Q",
                "/course/table/7/?act=split&head=♥Q&head=♣Q",  # not your card
                "/course/table/7/?act=split&head=♥Q&head=♥Q"):
        response = client.get(bad)
        assert response.status_code == 400, bad
        assert "现在不能这样做" in response.content.decode()


@pytest.mark.parametrize("amount", [None, "lots", "5", "1000", "9" * 30])
def test_a_bad_raise_amount_is_refused_with_the_limits_the_board_shows(
        client: Client, amount: str | None) -> None:
    board = client.get(url(2)).content.decode()
    low, high = (re.search(r'id="raise-amount"[^>]* min="(\d+)" max="(\d+)"', board)
                 or pytest.fail("no raise field")).groups()
    assert f"{low} 到 {high}" in board
    response = client.get(url(2, act="raise", **({} if amount is None else {"amount": amount})))
    assert response.status_code == 400
    assert f"返到多少：要写 {low} 到 {high} 之间的整数。" in response.content.decode()


def test_the_invitation_opens_a_simple_practice_table(client: Client) -> None:
    html = client.get(url(LAST)).content.decode()
    assert 'action="/table/"' in html and 'name="level" value="simple"' in html
    response = client.post("/table/", {"bots": "3", "level": "simple", "stakes": "1、3",
                                       "mango": "fixed", "sanhua": "on"})
    assert response.status_code == 303
    table = PracticeTable.objects.get()
    assert [s["bot"] for s in table.state["seats"]] == [None, "simple", "simple", "simple"]


def test_english_pages(client: Client) -> None:
    client.cookies["django_language"] = "en"
    terms = game_terms()
    for stop in STOPS:
        html = client.get(url(stop.number)).content.decode()
        assert untranslated(html, terms) == [], stop.title
    html = client.get(url(2, act="fold")).content.decode()
    assert untranslated(html, terms) == []
    assert "Call (瞧) to 3" in html and "Match the current bet" in html
    html = client.get(url(LAST)).content.decode()
    assert "You take the" in html and "You takes" not in html


def test_the_practice_table_start_page_offers_the_teaching_table(client: Client) -> None:
    html = client.get("/table/").content.decode()
    assert '<a href="/course/table/">' in html


# ---------------------------------------------------------------- completion (issue 15)
FINISH = next(stop for stop in STOPS if teaching.finishes(stop))


def split_fields(head: Any) -> dict[str, Any]:
    return {"act": "split", "head": list(head)}


def table_step(html: str) -> str:
    """The teaching table's step on a course map."""
    start = html.index("course-map__step--table")
    return html[html.rfind("<li", 0, start):html.index("</li>", start)]


def test_the_split_finishes_the_hand_and_is_a_post_form(client: Client) -> None:
    assert FINISH.number == LAST - 1 and FINISH.you is not None
    assert FINISH.you.kind is Act.SPLIT
    html = client.get(url(FINISH.number)).content.decode().split("<main", 1)[1]
    assert html.count('method="post"') == 2  # the split and the suggested 下一步
    assert html.count('name="csrfmiddlewaretoken"') == 2
    assert 'method="get"' not in html
    html = client.get(url(FINISH.number - 1)).content.decode()  # betting: GET forms
    assert 'method="post"' not in html.split("<main", 1)[1]


def test_finishing_the_teaching_table_records_it_and_the_map_shows_it(client: Client) -> None:
    assert FINISH.you is not None
    good = split_fields(FINISH.you.cards[:2])
    # Reading every stop, even the split as a GET link, writes nothing.
    for stop in STOPS:
        client.get(url(stop.number))
    query = "act=split&head=" + "&head=".join(FINISH.you.cards[:2])
    assert client.get(f"{url(FINISH.number)}?{query}")["Location"] == url(LAST)
    assert CourseProgress.objects.count() == 0 and Session.objects.count() == 0
    before = client.get("/course/").content.decode()
    assert "course-map__step--done" not in table_step(before)
    # The POST of the suggested split finishes the hand and records it.
    response = client.post(url(FINISH.number), good)
    assert response.status_code == 303 and response["Location"] == url(LAST)
    row = CourseProgress.objects.get(lesson=course.TEACHING)
    assert row.done and row.session_key == client.session.session_key
    first = row.completed_at
    for page in ("/course/", "/"):
        html = client.get(page).content.decode()
        step = table_step(html)
        assert "course-map__step--done" in step and "打完了" in step, page
        assert 'aria-current="step"' not in step, page
        # 下一步 leads to the first lesson not done yet (none is done here)
        first_lesson = course.lessons()[0].slug
        assert f'href="/course/{first_lesson}/" data-course-next' in html, page
    # Again: the first time is kept.
    assert client.post(url(FINISH.number), good).status_code == 303
    assert CourseProgress.objects.get(lesson=course.TEACHING).completed_at == first
    assert CourseProgress.objects.count() == 1


def test_after_the_lessons_and_the_table_next_is_the_practice_table(client: Client) -> None:
    assert FINISH.you is not None
    client.post(url(FINISH.number), split_fields(FINISH.you.cards[:2]))
    key = client.session.session_key
    for les in course.lessons():
        CourseProgress.objects.create(session_key=key, lesson=les.slug, run="111", stars=3,
                                      completed_at=timezone.now())
    for page in ("/course/", "/"):
        html = client.get(page).content.decode()
        assert 'href="/table/" data-course-next' in html, page
        assert 'aria-current="step"' not in html, page
    client.cookies["django_language"] = "en"
    html = client.get("/course/").content.decode()
    assert "Played" in table_step(html) and "Next step: to the practice table" in html


def test_a_wrong_or_bad_split_records_nothing(client: Client) -> None:
    response = client.post(url(FINISH.number), split_fields(["♥Q", "♥4"]))
    assert response.status_code == 200 and "就是死" in response.content.decode()
    for bad in ({"act": "split", "head": ["♥Q"]}, {"act": "split", "head": ["♥Q", "♣Q"]},
                {"act": "jump"}, {}):
        response = client.post(url(FINISH.number), bad)
        assert response.status_code == (200 if not bad else 400), bad
    assert client.post(url(2), {"act": "call"}).status_code == 405
    assert client.post(url(LAST), {}).status_code == 405
    assert CourseProgress.objects.count() == 0
