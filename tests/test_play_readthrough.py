"""The practice table's and the coach's read-through (December 2026): each test pins a
sentence or an answer that was wrong before."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engine.game import Act, Action, Phase
from tests.coach_hands import coached
from tests.tables import game_of, save_game
from tests.test_language import problems
from tutorial.models_table import PracticeTable

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """The page's words without their markup (terms are links to the glossary)."""
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize(("lang", "message"), [
    ("zh-hans", "没有这种注码：只能打 1、3，5、10 或 5、20"),
    ("en", "No such stakes: choose 1、3, 5、10 or 5、20"),
])
def test_unknown_stakes_are_refused_in_the_page_language(client: Client, lang: str,
                                                         message: str) -> None:
    client.cookies["django_language"] = lang
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "7、7"})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in text(html)
    assert "unknown stakes preset" not in html  # the engine's English message
    assert PracticeTable.objects.count() == 0


def test_a_mango_line_says_mango_pot_without_a_gloss_of_its_own(client: Client) -> None:
    """The log's 芒果 line: the glossary glosses the kind's first use (休芒 is "check
    mango"); a later use said "揍芒 (mango)", a second, wrong gloss."""
    r = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})
    url = str(r["Location"])
    g = game_of(url)
    for _hand in range(3):  # the learner 敲s, the bots fold: 揍芒 charged in hands 2 and 3
        g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
        while g.phase is Phase.BETTING:
            actor = g.to_act
            assert actor is not None
            g.apply(Action(Act.QIAO if actor == 0 else Act.FOLD, actor))
    save_game(url, g)
    client.cookies["django_language"] = "en"
    html = client.get(url + "history").content.decode()
    assert text(html).count("paid into the mango pot, which now holds") == 2
    assert not re.search(r"[揍休圈]芒 \(mango\)", html)
    assert problems(html) == []


def test_the_review_and_try_again_pages_have_no_gloss_inside_brackets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's note on the continuations and 再来一次's 返 help put 敲 inside
    brackets, where its first use got its gloss: "(… 敲 (qiāo, all-in) …)"."""
    client, tid = coached(monkeypatch, hands=1)
    client.cookies["django_language"] = "en"
    review = client.get(f"/coach/{tid}/1/").content.decode()
    assert "the way that suits each choice best: like the strong bot" in text(review)
    retry = client.get(f"/coach/{tid}/1/retry/0/").content.decode()
    assert re.search(r"Any amount from \d+ to (\d+); raising to \1 is 敲", text(retry))
    for page in (review, retry):
        assert problems(page) == []
