"""The coach's pages (issue 14 §3): 复盘, the JSON export, 再来一次 — through the
client, figures checked against the engine, bad input answered 4xx."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.test import Client

from engine.game import replay
from engine.review import decision_json, review
from tests.coach_hands import play_hands
from tests.test_table_leaks import mentioned
from tutorial import coach
from tutorial.models_coach import HandReview
from tutorial.table_store import full_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> tuple[Client, str]:
    monkeypatch.setattr("tutorial.coach.WORLDS", 40)
    monkeypatch.setattr("tutorial.coach.review",
                        lambda config, log, seat, worlds: review(config, log, seat, 40))
    client = Client()
    table = play_hands(client, monkeypatch, 11, 2)
    return client, str(table.id)


def test_export_replays_the_hand_without_the_seed(played: tuple[Client, str]) -> None:
    client, tid = played
    r = client.get(f"/coach/{tid}/2/hand.json")
    assert r.status_code == 200
    assert "attachment" in r["Content-Disposition"]
    data = json.loads(r.content)
    assert data["seat"] == 0 and data["config"]["seed"] == 0
    from tests.tables import table_of
    whole = full_game(table_of(f"/table/{tid}/"))
    again = replay(data["config"], data["log"])
    assert [h.cards for h in again.history] == [h.cards for h in whole.history[:2]]
    assert [h.result.nets for h in again.history] == [h.result.nets for h in whole.history[:2]]


def test_review_page_figures_are_the_engines(played: tuple[Client, str]) -> None:
    client, tid = played
    r = client.get(f"/coach/{tid}/1/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "第 1 手复盘" in html
    from tests.tables import table_of
    table = table_of(f"/table/{tid}/")
    data = coach.export(table, 1)
    expected = [decision_json(d) for d in review(data["config"], data["log"], 0, 40)]
    stored = HandReview.objects.get(table=table, number=1).data
    for mine, theirs in zip(stored["decisions"], expected, strict=True):
        assert {k: mine[k] for k in theirs} == theirs
        assert mine["grade"] in html
    # every card of the hand is shown: it is over
    hand = table.hands.get(number=1).hand
    for seat in hand["order"]:
        from engine.game import card_by_label
        assert {card_by_label(c) for c in hand["cards"][seat]} <= mentioned(html)


def test_review_is_stored_and_read_back(played: tuple[Client, str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    client, tid = played
    assert client.get(f"/coach/{tid}/1/").status_code == 200
    monkeypatch.setattr("tutorial.coach.compute", lambda *a, **k: pytest.fail("recomputed"))
    assert client.get(f"/coach/{tid}/1/").status_code == 200


def test_retry_grades_a_pick(played: tuple[Client, str]) -> None:
    client, tid = played
    client.get(f"/coach/{tid}/1/")
    from tests.tables import table_of
    data = HandReview.objects.get(table=table_of(f"/table/{tid}/"), number=1).data
    d = data["decisions"][0]
    r = client.get(f"/coach/{tid}/1/retry/0/")
    assert r.status_code == 200 and "你这次怎么选" in r.content.decode()
    r = client.get(f"/coach/{tid}/1/retry/0/", {"pick": d["best"]})
    html = r.content.decode()
    assert r.status_code == 200 and "好" in html
    r = client.get(f"/coach/{tid}/1/retry/0/", {"pick": d["best"]}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "<html" not in r.content.decode()


@pytest.mark.parametrize("path", [
    "/coach/{t}/9/", "/coach/{t}/9/hand.json", "/coach/{t}/1/retry/99/", "/coach/{t}/0/",
    "/coach/00000000-0000-0000-0000-000000000000/1/"])
def test_missing_is_404(played: tuple[Client, str], path: str) -> None:
    client, tid = played
    assert client.get(path.format(t=tid)).status_code == 404


@pytest.mark.parametrize("pick", ["x", "99", "-1", ""])
def test_bad_pick_is_400(played: tuple[Client, str], pick: str) -> None:
    client, tid = played
    r = client.get(f"/coach/{tid}/1/retry/0/", {"pick": pick})
    assert r.status_code == 400 and "请从下面的选项里选一个" in r.content.decode()


def test_another_visitor_gets_404(played: tuple[Client, str]) -> None:
    _client, tid = played
    assert Client().get(f"/coach/{tid}/1/").status_code == 404
    assert Client().get(f"/coach/{tid}/1/hand.json").status_code == 404


def test_post_is_refused(played: tuple[Client, str]) -> None:
    client, tid = played
    assert client.post(f"/coach/{tid}/1/").status_code == 405


def test_cli_reads_the_export(played: tuple[Client, str]) -> None:
    client, tid = played
    body = client.get(f"/coach/{tid}/1/hand.json").content
    out = subprocess.run([sys.executable, "-m", "engine", "review", "--json", "--worlds", "40"],
                         input=body, capture_output=True, check=True)
    printed = json.loads(out.stdout)
    assert printed
