"""The coach's own page /coach/: what it does, the switch, the visitor's sessions
(issue 14 §3: a room a newcomer finds by its name; progress across sessions)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.coach_hands import play_hands
from tests.english import unlinked
from tutorial.models_coach import HandReview
from tutorial.models_table import PracticeTable

pytestmark = pytest.mark.django_db


def test_a_newcomer_gets_the_page_and_no_session_is_written() -> None:
    client = Client()
    r = client.get("/coach/")
    assert r.status_code == 200
    html = unlinked(r.content.decode())
    assert "教练能做什么" in html and "你还没在练习牌桌上打完一手。" in html
    assert 'href="/table/"' in html
    assert "sessionid" not in r.cookies  # GET writes nothing


def test_english_page() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    html = unlinked(client.get("/coach/").content.decode())
    assert "What the coach does" in html and "practice table" in html


def test_sessions_list_finished_tables_with_their_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    table = play_hands(client, monkeypatch, 11, 2)
    other = Client()  # another visitor's table never shows
    play_hands(other, monkeypatch, 12, 1)
    html = client.get("/coach/").content.decode()
    assert html.count(f'href="/coach/{table.id}/"') == 1
    assert str(PracticeTable.objects.exclude(id=table.id).get().id) not in html
    row = html[html.index(f'href="/coach/{table.id}/"'):].split("</tr>")[0]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.split(r"<td[^>]*>", row)[1:]]
    assert cells[:2] == [str(table.hands.count()), "0"] and cells[2:] == ["—"] * 3
    assert not HandReview.objects.exists()  # the page computes no review


def test_switch_goes_back_to_the_coach_page() -> None:
    client = Client()
    r = client.post("/coach/switch", {"coach": "off", "next": "/coach/"})
    assert r.status_code == 303 and r["Location"] == "/coach/"
    assert "现在关着" in client.get("/coach/").content.decode()


def test_the_table_start_page_links_to_it() -> None:
    assert 'href="/coach/"' in Client().get("/table/").content.decode()


@pytest.mark.parametrize("kind", ["fold", "call", "raise", "tuo", "qiao", "check"])
def test_option_labels_are_capitalised_in_english(kind: str) -> None:
    from django.utils import translation

    from tutorial.views.coach import option_label

    with translation.override("en"):
        label = option_label({"kind": kind, "amount": 20})
    assert label[0].isupper() and label.endswith(" 20")
