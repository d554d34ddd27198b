"""The companion pages in English: no untranslated interface text (Chinese words that
remain — game terms such as 皮 and 芒果, card and pair names — are glossed or tagged)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.english import game_terms, untranslated
from tutorial.models_night import Night

pytestmark = pytest.mark.django_db

TERMS = game_terms()


def leftover_chinese(html: str) -> list[str]:
    return untranslated(html[html.index("<main"):html.index("</main>")], TERMS)


def test_calc_in_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/calc/?p=ann:100:B10,B9,R3,B6:0&p=bo:80:R2,R7,BJ,B8:0"
                      "&p=cy:50:RQ,R8,B5,B5:0&p=di:60:fold").content.decode()
    assert leftover_chinese(html) == []
    assert "Where the money goes" in html


def test_night_in_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    assert leftover_chinese(client.get("/night/").content.decode()) == []
    response = client.post("/night/", {"player1": "ann", "player2": "bo", "player3": "cy",
                                       "stakes": "1、3", "bobo": "500", "end": "18:00"})
    night = Night.objects.get()
    page = client.get(response["Location"]).content.decode()
    assert leftover_chinese(page) == []
    client.post(response["Location"], {"do": "hand", "kind": "zou", "net0": "2", "net1": "-1",
                                       "net2": "-1", "pot_to": "ann", "after": "0"})
    client.post(response["Location"], {"do": "bill", "bill": "300"})
    page = client.get(response["Location"]).content.decode()
    assert leftover_chinese(page) == [], leftover_chinese(page)
    assert "Hand 1 recorded." in page or "Hand 2" in page
    view = client.get(f"/night/v/{night.view_token}/").content.decode()
    assert leftover_chinese(view) == []


def test_mango_words_are_the_glossarys(client: Client) -> None:
    """The hand list's badges and the CSV name 揍芒 and 休芒 by the glossary's English
    (fold-out mango, check mango), not 'check-through' or a description; the pot left by
    a 休过河 says 'everyone checked' as the glossary does."""
    from tests.english import unlinked
    from tests.test_night_flow import create, hand

    night = create(client)
    client.cookies["django_language"] = "en"
    hand(client, night, "xiu", 甲=-1)
    hand(client, night, "zou", pot_to="乙", 甲=-1, 乙=3, 丙=-1, 丁=-1)
    page = client.get(f"/night/{night.token}/").content.decode()
    csv_text = client.get(f"/night/v/{night.view_token}/csv").content.decode()
    for text in (page, csv_text):
        assert "休芒 (check mango)" in text and "揍芒 (fold-out mango)" in text
        assert "check-through" not in text and "all but one folded" not in text
    hand(client, night, "xiu", 甲=-1)
    page = client.get(f"/night/{night.token}/").content.decode()
    assert "still in the middle: 皮 and 芒果 left when everyone checked." in unlinked(page)
