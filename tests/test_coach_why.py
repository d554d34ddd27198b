"""The coach's sentence of why (issue 14 §3): the odds a call offered, how often the hand
wins at the showdown with its error, the 皮 — in Chinese and English."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.coach_hands import coached
from tests.tables import table_of
from tutorial.models_coach import HandReview
from tutorial.views.coach import percent

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> tuple[Client, str]:
    return coached(monkeypatch, hands=1)


def test_the_sentence_says_how_often_the_hand_wins(played: tuple[Client, str]) -> None:
    client, tid = played
    html = client.get(f"/coach/{tid}/1/").content.decode()
    data = HandReview.objects.get(table=table_of(f"/table/{tid}/"), number=1).data
    assert data["decisions"]
    for d in data["decisions"]:
        assert 0 <= d["win"] <= 1 and d["win_stderr"] >= 0
        assert (f"赢的机会约 {100 * d['win']:.0f}%（误差 ±{percent(d['win_stderr'])}%）"
                in html)
    client.cookies["django_language"] = "en"
    html = client.get(f"/coach/{tid}/1/").content.decode()
    for d in data["decisions"]:
        assert (f"comes out ahead about {100 * d['win']:.0f}% of the time "
                f"(± {percent(d['win_stderr'])}%)") in html


def test_a_small_error_is_never_shown_as_zero() -> None:
    assert [percent(x) for x in (0, 0.004, 0.0123, 0.5)] == ["0", "0.4", "1", "50"]
