"""再来一次 with any legal action (issue 14 §3): a 返 to the learner's own amount priced
by a worker and graded (tutorial/views/coach.py retry_raise, ask_raise; issue 21: asked
by a POST, once, the GET only reads and shows progress), bad amounts refused."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django_tasks_db.models import DBTaskResult

from engine.game import Act, Action
from engine.review import retry
from tests.coach_hands import coached
from tests.jobs import work
from tests.tables import table_of
from tutorial import coach
from tutorial.models_coach import HandReview, RetryPrice
from tutorial.models_jobs import ComputeJob

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> tuple[Client, str]:
    return coached(monkeypatch, hands=1)


def limits(client: Client, tid: str) -> tuple[int, int, dict[str, Any]]:
    """The legal 返 range of decision 0 of hand 1 as the retry page offers it."""
    html = client.get(f"/coach/{tid}/1/retry/0/").content.decode()
    found = re.search(r'name="amount"[^>]*min="(\d+)" max="(\d+)"', html)
    assert found, "the decision offers a 返 of one's own amount"
    data = HandReview.objects.get(table=table_of(f"/table/{tid}/"), number=1).data
    return int(found[1]), int(found[2]), data["decisions"][0]


def repricings() -> int:
    """Tasks queued to price a decision again (run or not)."""
    return DBTaskResult.objects.filter(task_path="tutorial.jobs.reprice").count()


def ask(client: Client, tid: str, amount: object) -> Any:
    return client.post(f"/coach/{tid}/1/retry/0/raise/ask", {"amount": amount})


def test_a_raise_of_ones_own_amount_is_priced_by_a_worker_and_graded(
        played: tuple[Client, str]) -> None:
    client, tid = played
    low, high, d = limits(client, tid)
    priced = {o.get("amount") for o in d["options"]}
    amount = next(a for a in range(low, high) if a not in priced)
    url = f"/coach/{tid}/1/retry/0/raise?amount={amount}"
    html = client.get(url).content.decode()  # not asked: a button that asks, no job
    assert "还没算" in html and f'action="/coach/{tid}/1/retry/0/raise/ask"' in html
    assert not ComputeJob.objects.exists()
    r = ask(client, tid, amount)
    assert r.status_code == 303 and r["Location"] == url
    assert ask(client, tid, amount).status_code == 303  # asked twice: one job, one task
    assert ComputeJob.objects.count() == 1 and repricings() == 1
    html = client.get(url).content.decode()
    assert "排队等着算" in html and f'hx-get="{url}"' in html and 'id="computing"' in html
    poll = {"HX-Request": "true", "HX-Trigger": "computing"}
    r = client.get(url, headers=poll)
    assert "排队等着算" in r.content.decode() and "<html" not in r.content.decode()
    work()
    assert not ComputeJob.objects.exists() and RetryPrice.objects.count() == 1
    r = client.get(url)
    assert r.status_code == 200
    html = r.content.decode()
    export = coach.export(table_of(f"/table/{tid}/"), 1)
    again = retry(export["config"], export["log"], 0, 0, Action(Act.RAISE, 0, amount), 40)
    mine = again.options[again.chosen]
    assert mine.action.amount == amount and mine.stderr > 0
    assert f"你选了“返 {amount}”" in html and again.grade in html
    best = ' <strong class="coach-mark">最好</strong>' if again.best == again.chosen else ""
    row = f"<th scope=\"row\">返 {amount}{best} <span class=\"coach-mark\">你选的</span>"
    assert row in html and f"</th><td>{mine.ev:.1f}</td>" in html.split(row)[1][:200]
    assert "重新算的" in html
    r = client.get(url, headers=poll)  # the poll that finds it: the answer replaces #answer
    assert r.status_code == 200 and r["HX-Retarget"] == "#answer"
    assert "<html" not in r.content.decode() and f"返 {amount}" in r.content.decode()
    # asked again later: read from the stored price, nothing queued
    assert ask(client, tid, amount).status_code == 303
    assert not ComputeJob.objects.exists() and repricings() == 1


def test_an_amount_the_review_priced_is_graded_from_the_stored_figures(
        played: tuple[Client, str], monkeypatch: pytest.MonkeyPatch) -> None:
    client, tid = played
    low, _high, d = limits(client, tid)
    assert any(o.get("amount") == low and o["kind"] == "raise" for o in d["options"])
    monkeypatch.setattr("tutorial.coach.reprice", lambda *a: pytest.fail("priced again"))
    r = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": low})
    assert r.status_code == 200 and f"你选了“返 {low}”" in r.content.decode()
    assert ask(client, tid, low).status_code == 303 and not ComputeJob.objects.exists()


@pytest.mark.parametrize(("amount", "message"), [
    ("", "返到多少要写一个整数"), ("x", "返到多少要写一个整数"), ("3.5", "返到多少要写一个整数"),
    ("-4", "返招至少要到"), ("²", "返到多少要写一个整数"), ("1", "返招至少要到"),
    ("99999999999999999999", "不能超过你的"), ("1" + "0" * 5000, "不能超过你的"),
    ("٣", "返到多少要写一个整数")])
def test_a_bad_amount_is_refused_and_changes_nothing(played: tuple[Client, str], amount: str,
                                                    message: str) -> None:
    client, tid = played
    limits(client, tid)
    before = list(HandReview.objects.values_list("number", "data"))
    r = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": amount})
    assert r.status_code == 400 and message in r.content.decode()
    r = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": amount}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and 'role="alert"' in r.content.decode()
    r = ask(client, tid, amount)
    assert r.status_code == 400 and message in r.content.decode()
    assert list(HandReview.objects.values_list("number", "data")) == before
    assert not ComputeJob.objects.exists()


def test_a_pick_in_other_digits_is_refused(played: tuple[Client, str]) -> None:
    client, tid = played
    r = client.get(f"/coach/{tid}/1/retry/0/", {"pick": "²"})
    assert r.status_code == 400 and "请从下面的选项里选一个" in r.content.decode()


def test_english(played: tuple[Client, str]) -> None:
    client, tid = played
    low, high, d = limits(client, tid)
    client.cookies["django_language"] = "en"
    html = client.get(f"/coach/{tid}/1/retry/0/").content.decode()
    assert "Or raise (返) to an amount of your own" in html
    assert f"Any amount from {low} to {high}" in html
    r = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": "x"})
    assert r.status_code == 400 and "Write the amount to raise to" in r.content.decode()
    from tests.english import game_terms, untranslated
    priced = {o.get("amount") for o in d["options"]}
    amount = next(a for a in range(low, high) if a not in priced)
    html = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": amount}).content.decode()
    assert "Not computed yet" in html and untranslated(html, game_terms()) == []
    ask(client, tid, amount)
    html = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": amount}).content.decode()
    assert "Waiting in the queue" in html and untranslated(html, game_terms()) == []
    work()
    html = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": amount}).content.decode()
    assert "priced afresh" in html and untranslated(html, game_terms()) == []


def test_an_amount_no_world_explains_fails_its_job(played: tuple[Client, str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.review import ReviewError

    def refuse(*args: Any) -> None:
        raise ReviewError("no world explains the bots' actions")

    client, tid = played
    low, _high, _d = limits(client, tid)
    monkeypatch.setattr("tutorial.coach.retry", refuse)
    ask(client, tid, low + 1)
    work()
    r = client.get(f"/coach/{tid}/1/retry/0/raise", {"amount": low + 1})
    assert r.status_code == 200 and "这次没算出来" in r.content.decode()
    assert not RetryPrice.objects.exists()


def test_asking_over_the_compute_limit(played: tuple[Client, str], settings: Any) -> None:
    """The 返 form (htmx target #answer) and the progress's button (target #computing):
    under htmx the short message in place with Retry-After, never a page inside the
    answer; without JavaScript the 429 page.  Nothing asked."""
    from tests.test_ratelimit import refused_in_place

    client, tid = played
    low, _high, _d = limits(client, tid)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "compute": (0, 60)}
    for target in ("answer", "computing"):
        r = client.post(f"/coach/{tid}/1/retry/0/raise/ask", {"amount": low + 1},
                        headers={"HX-Request": "true", "HX-Target": target})
        refused_in_place(r)
    r = client.post(f"/coach/{tid}/1/review", {"next": f"/coach/{tid}/1/"},
                    headers={"HX-Request": "true", "HX-Target": "computing"})
    refused_in_place(r)
    r = ask(client, tid, low + 1)
    assert r.status_code == 429 and 0 < int(r["Retry-After"]) <= 120  # two periods at most
    assert "<html" in r.content.decode() and "请求太频繁了" in r.content.decode()
    assert not ComputeJob.objects.exists() and repricings() == 0


def test_a_retry_of_the_best_is_graded_with_the_pair_error_not_against_itself() -> None:
    """The learner chose 瞧; 敲 120 (20.9 ± 3.2) beat it and was graded 好 with ± 0 against
    itself, while 拖 20 (23.6 ± 4.5) came out 难分: the best is now graded against the
    choice with the pair's own error, and turned round from the review's loss."""
    from tutorial.views.coach import _figures, _picked

    options = [{"kind": "call", "ev": 5.0, "stderr": 3.0, "then": "strong"},
               {"kind": "tuo", "amount": 20, "ev": 23.6, "stderr": 4.5, "then": "strong"},
               {"kind": "qiao", "amount": 120, "ev": 20.9, "stderr": 3.2, "then": "strong"}]
    with translation.override("zh-hans"):
        d = _figures({"options": options, "chosen": 0, "best": 2, "rival": 2, "loss": 15.9,
                      "loss_stderr": 2.0, "grade": "失误", "round": 2, "exact": False,
                      "win": 0.5, "win_stderr": 0.05, "call": None, "opening": 10})
        best = _picked(d, 2, 10)
    # 拖 20 shows more than 敲 120, marked best: the table says why
    assert "比较用的“敲 120”是在另一批牌局上挑出来的" in best["higher"]
    assert "“拖 20”的平均数更高" in best["higher"]
    assert "“拖 20”的平均数更高" in best["higher"]
    assert (best["loss"], best["se"]) == (-15.9, 2.0) and best["grade"] == "好"
    other = _picked(d, 1, 10)
    assert other["loss"] == pytest.approx(20.9 - 23.6) and other["se"] > 0
    assert _picked(d, 0, 10)["grade"] == "失误"


def test_a_bet_where_nobody_had_bet_is_offered_as_a_lead(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Where nobody had bet yet (休 among the options) the form offers to 发招 to an
    amount, as the option buttons and the table call that bet; elsewhere to 返."""
    client, tid = coached(monkeypatch, hands=3)
    table = table_of(f"/table/{tid}/")
    seen = set()
    for review in HandReview.objects.filter(table=table):
        for k, d in enumerate(review.data["decisions"]):
            lead = any(o["kind"] == "check" for o in d["options"])
            html = client.get(f"/coach/{tid}/{review.number}/retry/{k}/").content.decode()
            if 'name="amount"' not in html:
                continue
            seen.add(lead)
            assert ("或者发招到你自己定的数" in html) is lead
            assert ("或者返到你自己定的数" in html) is not lead
    assert seen == {True, False}, "the hands hold a lead and a 返 to price"
