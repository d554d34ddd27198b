"""Walk every page type in Chinese and in English.

* every page answers 200 in both languages;
* an English page shows no untranslated interface text: outside elements marked
  ``lang="zh"`` (or ``translate="no"``, or hidden from everyone), the only Chinese left is
  game vocabulary (pair and card names, the betting words …), which stays Chinese by design.

Plain pages are URLs (``PAGES``); pages that need state first (a quiz answer's feedback,
a review card that is due, a table in the middle of a hand, a game night) are built by
the ``SCENARIOS`` functions through the forms, in the language of the test.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine import quiz as q
from engine.game import Game, Phase
from engine.rules import get_rules
from tests.english import game_terms, untranslated
from tutorial import course
from tutorial import walkthroughs as wt
from tutorial.models_night import Night
from tutorial.models_table import PracticeTable

RULES = get_rules("xuanjing")


def _walkthrough_steps() -> list[str]:
    """One step of each step kind (and the first step of each walkthrough kind)."""
    urls: list[str] = []
    seen: set[str] = set()
    for entry in wt.content()["walkthroughs"]:
        walkthrough = wt.get_walkthrough(entry["slug"])
        assert walkthrough is not None
        for n, step in enumerate(walkthrough.steps, 1):
            key = step.kind if n > 1 else f"first:{entry['kind']}"
            if key not in seen:
                seen.add(key)
                urls.append(f"/walkthroughs/{entry['slug']}/{n}/")
    return urls


CALC_RESULT = ("/calc/?p=%E7%94%B2:100:B10,B9,R3,B6:0&p=%E4%B9%99:80:R2,R7,BJ,B8:0"
               "&p=%E4%B8%99:50:RQ,R8,B5,B5:0&p=%E4%B8%81:60:fold&rules=xuanjing")

# 老王 / 小李 / Anna: names typed by a visitor, shown back in English sentences.
CALC_NAMES = ("/calc/?p=%E8%80%81%E7%8E%8B:100:B10,B9,R3,B6:0&p=%E5%B0%8F%E6%9D%8E:80:R2,R7,BJ,B8:0"
              "&p=Anna:60:fold")

PAGES = [
    "/",
    "/cards/",
    "/pairs/",
    "/pairs/?q=tgj",
    "/pairs/?q=%E5%A4%A9%E9%97%9C%E4%B9%9D",
    "/pairs/?q=zzzz",
    "/pairs/?q=%E9%93%B6%E8%A1%8C%E5%8D%A1",  # Chinese that is no pair name
    "/pairs/RQ-B9/",
    "/pairs/B4-R10/",
    "/pairs/R3-JK/",
    "/pairs/R8-B8/",
    "/rules/",
    "/rules/chart/",
    "/rules/app/",
    "/rules/compare/",
    "/splits/",
    "/splits/?hand=RQ+R6+R7+B9",
    "/squeeze/",
    "/pairs/four/",
    "/pairs/?q=%E4%B9%9D%E6%9C%88%E4%B9%9D",  # 九月九: a four-card name
    "/pairs/?q=%E8%8A%92%E6%9E%9C",  # 芒果: a rule word
    "/pairs/?q=heaven+nine",  # an English gloss
    "/quiz/",
    "/quiz/review/",
    "/quiz/progress/",
    *[f"/quiz/{slug}/?seed=7&level={level}"
      for slug, spec in q.QUIZZES.items() for level in range(1, spec.levels + 1)],
    "/quiz/bigger/?seed=7&level=9",  # a refused question (400 page) in both languages
    "/course/",
    *[f"/course/{les.slug}/" for les in course.lessons()],
    "/course/hand/1/",
    "/walkthroughs/",
    *_walkthrough_steps(),
    "/table/",
    "/calc/",
    CALC_RESULT,
    "/calc/?p=%E7%94%B2:100:RQ",  # a refused table: the form with its errors
    CALC_NAMES,  # players' own names (echoed input) in the explanation
    "/night/",
    "/glossary/",
    "/coach/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/recover/",
]
STATUS = {"/quiz/bigger/?seed=7&level=9": 400, "/calc/?p=%E7%94%B2:100:RQ": 400}


# --------------------------------------------------------------------------- scenarios
def _quiz_token(client: Client, slug: str, level: int) -> tuple[str, q.Question]:
    response = client.get(f"/quiz/{slug}/?seed=11&level={level}")
    assert response.status_code == 200
    match = re.search(r'name="token" value="([^"]+)"', response.content.decode())
    assert match
    return match.group(1), q.generate(slug, 11, level, RULES)


def _wrong(question: q.Question, right: dict[str, str]) -> dict[str, str]:
    """A wrong answer (the feedback then explains why); the right one if none is easy."""
    if isinstance(question, q.BiggerQuestion):
        return {"choice": next(c for c in ("a", "b", "equal") if c != right["choice"])}
    if isinstance(question, q.OrderQuestion):
        n = len(question.items)
        return {k: str(n + 1 - int(v)) for k, v in right.items()}
    if isinstance(question, q.SplitQuestion):
        return {"split": str(next(o.index for o in question.options if not o.best))}
    return right


def quiz_feedback(slug: str, level: int, wrong: bool) -> Callable[[Client], Any]:
    def run(client: Client) -> Any:
        token, question = _quiz_token(client, slug, level)
        answer = q.solve(question, RULES)
        if wrong:
            answer = _wrong(question, answer)
        return client.post(f"/quiz/{slug}/", {"token": token, **answer})
    return run


def quiz_review_due(client: Client, monkeypatch: pytest.MonkeyPatch) -> Any:
    token, question = _quiz_token(client, "name", 1)
    client.post("/quiz/name/", {"token": token, **q.solve(question, RULES)})
    later = timezone.now() + timedelta(days=30)
    monkeypatch.setattr("tutorial.views.quiz.now", lambda: later)
    response = client.get("/quiz/review/")
    assert 'name="token"' in response.content.decode()
    client.get("/quiz/progress/")
    return response


def quiz_progress_after_answers(client: Client) -> Any:
    for slug in q.QUIZZES:
        quiz_feedback(slug, 1, slug == "bigger")(client)
    return client.get("/quiz/progress/")


def _table(client: Client) -> str:
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3",
                                       "sanhua": "on", "mango": "fixed"})
    assert response.status_code == 303
    url: str = response["Location"]
    return url


def _table_game(url: str) -> tuple[PracticeTable, Game]:
    table = PracticeTable.objects.get(pk=uuid.UUID(url.split("/")[2]))
    return table, Game.from_dict(table.state)


def table_mid_hand(client: Client) -> Any:
    url = _table(client)
    table, _ = _table_game(url)
    assert client.post(url + "act", {"seq": table.seq, "act": "deal"}).status_code == 303
    return client.get(url)


def table_after_hand(client: Client) -> Any:
    """Fold whenever it is our turn, let the bots play, until the hand is settled."""
    url = _table(client)
    table, _ = _table_game(url)
    client.post(url + "act", {"seq": table.seq, "act": "deal"})
    for _ in range(80):
        table, game = _table_game(url)
        if game.phase is Phase.BETWEEN and game.hand is not None:
            break
        if game.to_act == 0:
            client.post(url + "act", {"seq": table.seq, "act": "fold"})
        else:
            client.post(url + "bot", {"seq": table.seq})
    else:
        pytest.fail("the hand did not end")
    return client.get(url)


# A night's title is the visitor's own text.  In the page it is marked translate="no";
# the document <title> cannot carry markup, so there (only) the test removes it.
NIGHT_TITLE = "周五小局"


def _night(client: Client) -> str:
    data = {"player1": "甲", "player2": "老王", "player3": "Anna", "stakes": "1、3",
            "bobo": "500", "end": "23:30", "rules": "xuanjing", "title": NIGHT_TITLE}
    response = client.post("/night/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    location: str = response["Location"]
    return location


def _language_of(client: Client) -> dict[str, str]:
    """Headers that ask a fresh client (another visitor) for the same language."""
    if client.cookies.get("django_language") is not None:
        return {"Cookie": "django_language=en"}
    return {"Accept-Language": "zh-CN"}


def night_organiser(client: Client) -> Any:
    url = _night(client)
    page = client.get(url).content.decode()
    after = re.search(r'name="after" value="(\d+)"', page)
    client.post(url, {"do": "hand", "kind": "show", "net0": "6", "net1": "-3", "net2": "-3",
                      "pot_to": "", "after": after.group(1) if after else "0"})
    return client.get(url)


def night_read_only(client: Client) -> Any:
    url = _night(client)
    night = Night.objects.get(token=url.split("/")[2])
    assert f"/night/v/{night.view_token}/" in client.get(url).content.decode()
    return Client().get(f"/night/v/{night.view_token}/", headers=_language_of(client))


def calc_for_a_night(client: Client) -> Any:
    night = Night.objects.get(token=_night(client).split("/")[2])
    return client.get(CALC_NAMES + f"&night={night.token}")


ACCOUNT_PASSWORD = "river-card-2718"


def _signed_up(client: Client) -> Any:
    return client.post("/accounts/signup/", {"username": "walker", "password1": ACCOUNT_PASSWORD,
                                             "password2": ACCOUNT_PASSWORD})


def account_page(url: str) -> Callable[[Client], Any]:
    def run(client: Client) -> Any:
        _signed_up(client)
        return client.get(url)
    return run


def login_refused(client: Client) -> Any:
    return client.post("/accounts/login/", {"username": "nobody", "password": "wrong"})


SCENARIOS: dict[str, Callable[..., Any]] = {
    "account-signup-codes": _signed_up,
    **{f"account{url.replace('/', '-')}": account_page(url)
       for url in ("/accounts/", "/accounts/password/", "/accounts/delete/", "/cards/")},
    "account-login-refused": login_refused,
    **{f"quiz-feedback-{slug}-{level}": quiz_feedback(slug, level, wrong=level == 1)
       for slug, spec in q.QUIZZES.items() for level in (1, spec.levels)},
    "quiz-review-due": quiz_review_due,
    "quiz-progress-after-answers": quiz_progress_after_answers,
    "table-mid-hand": table_mid_hand,
    "table-after-hand": table_after_hand,
    "night-organiser": night_organiser,
    "night-read-only": night_read_only,
    "calc-for-a-night": calc_for_a_night,
}


def _run(name: str, client: Client, monkeypatch: pytest.MonkeyPatch) -> Any:
    scenario = SCENARIOS[name]
    if scenario is quiz_review_due:
        return scenario(client, monkeypatch)
    return scenario(client)


@pytest.fixture(scope="module")
def terms() -> list[str]:
    return game_terms()


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_page_in_chinese(client: Client, url: str) -> None:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert response.status_code == STATUS.get(url, 200)
    assert 'lang="zh-Hans"' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("url", PAGES)
def test_page_in_english_has_no_untranslated_text(
    client: Client, url: str, terms: list[str]
) -> None:
    client.cookies["django_language"] = "en"
    response = client.get(url)
    assert response.status_code == STATUS.get(url, 200)
    html = response.content.decode()
    assert '<html lang="en"' in html
    assert untranslated(html, terms) == []


@pytest.mark.django_db
@pytest.mark.parametrize("name", SCENARIOS)
def test_stateful_page_in_chinese(client: Client, name: str,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-CN"
    response = _run(name, client, monkeypatch)
    assert response.status_code == 200
    assert 'lang="zh-Hans"' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("name", SCENARIOS)
def test_stateful_page_in_english_has_no_untranslated_text(
    client: Client, name: str, terms: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client.cookies["django_language"] = "en"
    response = _run(name, client, monkeypatch)
    assert response.status_code == 200
    html = response.content.decode().replace(f"<title>{NIGHT_TITLE} · ", "<title>")
    assert '<html lang="en"' in html
    assert untranslated(html, terms) == []


def test_the_checker_catches_untranslated_text(terms: list[str]) -> None:
    html = '<p>Hello 天官九</p><p lang="zh">随便什么</p><button aria-label="关闭">x</button>'
    assert untranslated(html, terms) == ["关闭"]
