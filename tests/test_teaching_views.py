"""The teaching table with Django's test client: the script is a legal hand for the
engine and ends as the texts say; every stop renders without writing anything; the
suggested button goes on, another one stays and says why, bad input is a 400."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from engine.game import Act, Phase
from tests.english import game_terms, untranslated
from tutorial import teaching
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
                url(2, act="raise"),
                url(2, act="raise", amount="lots"),
                url(2, act="raise", amount=5),  # below the minimum raise
                url(2, act="raise", amount=1000),  # above the 钵钵
                url(1, act="call"),  # nothing to press at this stop
                "/course/table/7/?act=split&head=♥Q",
                "/course/table/7/?act=split&head=♥Q&head=♣Q",  # not your card
                "/course/table/7/?act=split&head=♥Q&head=♥Q"):
        response = client.get(bad)
        assert response.status_code == 400, bad
        assert "现在不能这样做" in response.content.decode()


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
    assert "Call (瞧) to 3" in html and "match the current bet" in html
    html = client.get(url(LAST)).content.decode()
    assert "You take the" in html and "You takes" not in html


def test_the_practice_table_start_page_offers_the_teaching_table(client: Client) -> None:
    html = client.get("/table/").content.decode()
    assert '<a href="/course/table/">' in html
