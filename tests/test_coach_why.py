"""The coach's sentence of why (issue 14 §3): the odds a call offered, how often the hand
wins at the showdown with its error, the 皮 — in Chinese and English."""

from __future__ import annotations

import pytest
from django.test import Client

from engine.review import review
from tests.coach_hands import play_hands
from tests.tables import table_of
from tutorial.models_coach import HandReview

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> tuple[Client, str]:
    monkeypatch.setattr("tutorial.coach.WORLDS", 40)
    monkeypatch.setattr("tutorial.coach.review",
                        lambda config, log, seat, worlds: review(config, log, seat, 40))
    client = Client()
    table = play_hands(client, monkeypatch, 11, 1)
    return client, str(table.id)


def test_the_sentence_says_how_often_the_hand_wins(played: tuple[Client, str]) -> None:
    client, tid = played
    html = client.get(f"/coach/{tid}/1/").content.decode()
    data = HandReview.objects.get(table=table_of(f"/table/{tid}/"), number=1).data
    assert data["decisions"]
    for d in data["decisions"]:
        assert 0 <= d["win"] <= 1 and d["win_stderr"] >= 0
        assert (f"赢的机会约 {100 * d['win']:.0f}%（误差 ±{100 * d['win_stderr']:.0f}%）"
                in html)
    client.cookies["django_language"] = "en"
    html = client.get(f"/coach/{tid}/1/").content.decode()
    for d in data["decisions"]:
        assert (f"comes out ahead about {100 * d['win']:.0f}% of the time "
                f"(± {100 * d['win_stderr']:.0f}%)") in html
