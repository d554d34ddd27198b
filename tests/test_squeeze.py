"""串牌: the engine's reveals (engine/squeeze.py), the /squeeze/ page and the squeeze quiz."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from engine import quiz as q
from engine import squeeze as sq
from engine.cards import DECK, KINDS, Card, CardError, Kind
from engine.rules import get_rules
from tests.english import game_terms, untranslated

RULES = get_rules("xuanjing")
REVEALS = [(w, d) for w in sq.Way for d in range(1, sq.DEPTHS[w] + 1)]


# --------------------------------------------------------------------------- engine


@given(st.sampled_from(DECK), st.lists(st.sampled_from(REVEALS), max_size=3))
def test_the_card_itself_is_always_possible_and_more_reveals_never_widen(
    card: Card, reveals: list[sq.Reveal]
) -> None:
    found = sq.possible(card, reveals)
    assert card.kind in found
    for more in REVEALS:
        assert set(sq.possible(card, [*reveals, more])) <= set(found)


@pytest.mark.parametrize("card", DECK, ids=str)
def test_the_whole_corner_or_both_pip_columns_tell_the_card(card: Card) -> None:
    assert sq.possible(card, [(sq.Way.HEAD, 3)]) == (card.kind,)
    assert sq.possible(card, [(sq.Way.ROWS, 2)]) == (card.kind,)


def test_the_xuanjing_clues() -> None:
    heart = {k: Card(k, "♥") for k in KINDS if "♥" in k.suits}
    # 串头子: a red round head is 天牌, 人牌, 猫猫 or 地牌; left break 地牌, right break 猫猫.
    assert set(sq.possible(heart[Kind.R6], [(sq.Way.HEAD, 1)])) == {
        Kind.RQ, Kind.R8, Kind.R6, Kind.R2}
    assert sq.sight(heart[Kind.R2], sq.Way.HEAD, 2).clue == "左断"
    assert sq.sight(heart[Kind.R6], sq.Way.HEAD, 2).clue == "右断"
    assert sq.sight(Card(Kind.B9, "♠"), sq.Way.HEAD, 3).clue == "弯边"
    assert sq.sight(Card(Kind.B6, "♣"), sq.Way.HEAD, 3).clue == "拱背子"
    # 串花子: rows; a diamond with no side pips is 地牌, a heart may be 丁丁.
    assert sq.possible(Card(Kind.R2, "♦"), [(sq.Way.ROWS, 1)]) == (Kind.R2,)
    assert set(sq.possible(heart[Kind.R2], [(sq.Way.ROWS, 1)])) == {Kind.R2, Kind.R3}
    # 组合串 example 1: four rows (9 or 10), the middle pip comes late: 黑9.
    nine = Card(Kind.B9, "♣")
    assert set(sq.possible(nine, [(sq.Way.ROWS, 1)])) == {Kind.B9, Kind.B10}
    assert sq.possible(nine, [(sq.Way.ROWS, 1), (sq.Way.LANES, 1)]) == (Kind.B9,)
    # 组合串 example 2: a single red column, then a round head: 地牌.
    assert sq.possible(heart[Kind.R2], [(sq.Way.LANES, 1), (sq.Way.HEAD, 1)]) == (Kind.R2,)
    # 串边子: an edge is 天牌 or 斧头, red is 天牌.
    assert set(sq.possible(heart[Kind.RQ], [(sq.Way.EDGE, 1)])) == {Kind.RQ, Kind.BJ}
    assert sq.possible(heart[Kind.RQ], [(sq.Way.EDGE, 2)]) == (Kind.RQ,)


@pytest.mark.parametrize("claim", sq.SEED_CLAIMS, ids=lambda c: c.words)
def test_every_card_the_xuanjing_names_for_a_clue_shows_it(claim: sq.SeedClaim) -> None:
    assert set(claim.kinds) <= set(claim.engine_kinds)


def test_cards_in_view_drop_out_but_never_the_card_itself() -> None:
    card = Card(Kind.R2, "♥")
    assert sq.possible(card, [(sq.Way.ROWS, 1)], seen=[Kind.R3]) == (Kind.R2,)
    assert sq.possible(card, [(sq.Way.ROWS, 1)], seen=[Kind.R2, Kind.R2]) == (Kind.R2, Kind.R3)


def test_bad_reveals_are_refused() -> None:
    for text in ("head-4", "rows-0", "nose-1", "head", "lanes-x"):
        with pytest.raises(CardError):
            sq.parse_reveal(text)
    assert sq.parse_reveal("lanes-2") == (sq.Way.LANES, 2)


# --------------------------------------------------------------------------- quiz


@pytest.mark.parametrize("level", [1, 2, 3])
def test_quiz_questions_are_answerable(level: int) -> None:
    for seed in range(60):
        question = q.generate("squeeze", seed, level, RULES)
        assert isinstance(question, q.SqueezeQuestion)
        n = len(question.possible)
        assert n == 1 if level == 1 else n >= 1
        verdict = q.check(question, q.solve(question, RULES), RULES)
        assert verdict.correct
        assert [i for i, _ in verdict.items] == [
            f"squeeze:{w.value}-{d}:{question.card.kind.code}" for w, d in question.reveals]


def test_quiz_wrong_and_bad_answers() -> None:
    question = q.generate("squeeze", 3, 2, RULES)
    assert isinstance(question, q.SqueezeQuestion)
    first = question.possible[0]
    verdict = q.check(question, {f"k_{first.code}": "1", "k_B5": "1"}, RULES)
    assert isinstance(verdict, q.SqueezeVerdict)
    assert not verdict.correct and verdict.missed == question.possible[1:]
    with pytest.raises(q.QuizError) as missing:
        q.check(question, {}, RULES)
    assert missing.value.code == "missing"
    with pytest.raises(q.QuizError) as invalid:
        q.check(question, {"k_XX": "1"}, RULES)
    assert invalid.value.code == "invalid"


def test_a_review_item_focuses_the_question() -> None:
    assert q.review_items_for("squeeze:head-2:R2") == ("squeeze", 2)
    question = q.generate("squeeze", 9, 2, RULES, "squeeze:head-2:R2")
    assert isinstance(question, q.SqueezeQuestion)
    assert question.card.kind is Kind.R2 and question.reveals == ((sq.Way.HEAD, 2),)
    for bad in ("squeeze:head-9:R2", "squeeze:head-2:ZZ", "squeeze:R2"):
        with pytest.raises(q.QuizError):
            q.review_items_for(bad)


# --------------------------------------------------------------------------- pages


@pytest.mark.django_db
def test_squeeze_page_teaches_every_way_and_clue(client: Client) -> None:
    html = client.get("/squeeze/").content.decode()
    for way in sq.Way:
        assert f'id="{way.value}"' in html and way.label in html
    for key in sq.CLUES:
        if not key.isascii():
            assert f'id="clue-{key}"' in html, key
    for word in ("组合串", "串花子", "串路子", "串边子", "左断", "右断", "弯边", "拱背子", "平头",
                 "定了", "鸭儿", "火箭"):
        assert word in html
    assert 'style="' not in html and "<script>" not in html


@pytest.mark.django_db
def test_squeeze_page_in_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/squeeze/").content.decode()
    assert "Combined squeeze" in html and "red: round head" in html
    assert untranslated(html, game_terms()) == []


@pytest.mark.django_db
def test_squeeze_quiz_round_trip_and_review_card(client: Client) -> None:
    page = client.get("/quiz/squeeze/?seed=4&level=2").content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token and 'type="checkbox"' in page and "sq--" in page
    question = q.generate("squeeze", 4, 2, RULES)
    response = client.post("/quiz/squeeze/", {"token": token.group(1),
                                              **q.solve(question, RULES)})
    assert response.status_code == 200 and "答对了" in response.content.decode()
    progress = client.get("/quiz/progress/").content.decode()
    assert "串牌" in progress and 'href="/squeeze/"' in progress


@pytest.mark.django_db
def test_squeeze_quiz_refuses_a_bad_answer_and_records_nothing(client: Client) -> None:
    page = client.get("/quiz/squeeze/?seed=4&level=2").content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token
    for bad in ({"k_XX": "1"}, {}):
        response = client.post("/quiz/squeeze/", {"token": token.group(1), **bad})
        assert response.status_code == 400
    from tutorial.models_quiz import QuizProgress, ReviewCard
    assert not QuizProgress.objects.exists() and not ReviewCard.objects.exists()


@pytest.mark.django_db
def test_a_missed_squeeze_comes_back_in_review(client: Client,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import UTC, datetime, timedelta

    from tutorial.models_quiz import ReviewCard
    from tutorial.views.quiz import Issued

    moment = [datetime(2026, 3, 2, 2, 0, tzinfo=UTC)]
    monkeypatch.setattr("tutorial.views.quiz.now", lambda: moment[0])
    page = client.get("/quiz/squeeze/?seed=4&level=2").content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token
    client.post("/quiz/squeeze/", {"token": token.group(1), "k_B5": "1"})  # wrong: Again
    card = ReviewCard.objects.get()
    assert card.item.startswith("squeeze:") and card.lapses == 1
    moment[0] += timedelta(minutes=5)
    review = client.get("/quiz/review/").content.decode()
    assert "sq--" in review and 'type="checkbox"' in review
    issued = Issued.from_token(re.search(r'name="token" value="([^"]+)"', review).group(1))  # type: ignore[union-attr]
    assert issued.focus == card.item
    assert "串牌" in client.get("/quiz/progress/").content.decode()


@pytest.mark.django_db
def test_try_a_squeeze_on_the_page(client: Client) -> None:
    html = client.get("/squeeze/", {"card": "R2h", "r": "lanes-1", "r2": "head-1"}).content.decode()
    start = html.index('id="try"')
    tried = html[start:]
    assert "sq--lanes-1" in tried and "sq--head-1" in tried
    assert 'value="R2h" selected' in tried
    for bad in ({"card": "R2x", "r": "head-1"}, {"card": "R3d", "r": "head-1"},
                {"card": "R2h", "r": "head-9"}, {"card": "R2h"}, {"card": "R2h", "r": "head-1",
                                                                 "r2": "nose-1"}):
        response = client.get("/squeeze/", bad)
        assert response.status_code == 400, bad
        assert 'role="alert"' in response.content.decode()
    client.cookies["django_language"] = "en"
    query = {"card": "JK", "r": "edge-2", "r2": "rows-2"}
    english = client.get("/squeeze/", query).content.decode()
    assert "Squeeze a card yourself" in english
    assert untranslated(english, game_terms()) == []


def test_pushing_up_counts_every_pip_in_view() -> None:
    """The drawing halfway up shows a 4's bottom two pips and a 6's or a 7's four, and the
    whole card at the top: the answer counted only the columns (和牌 / 猫猫 / 膏药 for any
    of them, even with every pip in view)."""
    lanes = sq.Way.LANES
    four, six, seven = (Card(Kind[k], "♥") for k in ("R4", "R6", "R7"))
    assert sq.possible(four, [(lanes, 1)]) == sq.possible(six, [(lanes, 1)])
    assert sq.possible(four, [(lanes, 2)]) == (Kind.R4,)
    assert sq.possible(six, [(lanes, 2)]) == sq.possible(seven, [(lanes, 2)]) == (Kind.R6,
                                                                                 Kind.R7)
    for card in DECK:
        if card.kind.rank_label in sq.PIPS:
            assert sq.possible(card, [(lanes, 3)]) == (card.kind,), card
    assert sq.sight(four, lanes, 2).text == "♥ 两路，露出 2 朵"
    assert sq.sight(four, lanes, 1).text == "♥ 两路"
    # the clue the 旋经 names is unchanged: 红两路 is still 和牌, 猫猫 or 膏药
    claim = next(c for c in sq.SEED_CLAIMS if c.words == "红两路")
    assert set(claim.engine_kinds) == {Kind.R4, Kind.R6, Kind.R7}


def test_the_lanes_label_in_english_counts_the_pips(client: Client) -> None:
    from django.utils import translation

    from tutorial.squeeze import sight_label

    with translation.override("en"):
        label = sight_label(sq.sight(Card(Kind.R6, "♥"), sq.Way.LANES, 2))
    assert label == "♥ two columns, 4 pips showing"


def test_the_first_stage_of_the_corner_tells_a_ten_by_its_ring() -> None:
    """The drawing's first stage shows the 1 and the top of the 0 beside it: a 10 is
    told from a J or the joker there, not only at the second stage."""
    head = sq.Way.HEAD
    assert sq.possible(Card(Kind.B10, "♠"), [(head, 1)]) == (Kind.B10,)
    assert sq.possible(Card(Kind.BJ, "♠"), [(head, 1)]) == (Kind.BJ,)  # black: no joker
    assert sq.sight(Card(Kind.R10, "♥"), head, 1).clue == "带圈"


@pytest.mark.django_db
def test_english_squeeze_options_and_answers_name_the_card(client: Client) -> None:
    """The squeeze quiz (and the course's 串牌 lesson, which asks it) offered 天牌, 地牌 …
    in Chinese only on English pages: an English learner had to guess which card each
    was. Each option, answer and "can still be" list now names the card too ("天牌 (red
    Q)"); the Chinese page is unchanged."""
    options = re.compile(r'<label class="sq-option">.*?</label>', re.S)
    zh = client.get("/quiz/squeeze/?seed=5&level=1").content.decode()
    assert len(options.findall(zh)) == 17 and "sq-kind__card" not in zh
    client.cookies["django_language"] = "en"
    for level in (1, 2):
        html = client.get(f"/quiz/squeeze/?seed=5&level={level}").content.decode()
        found = options.findall(html)
        assert len(found) == 17
        assert all('sq-kind__card' in o for o in found)
        assert '<span lang="zh-Hans">天牌</span> <span class="sq-kind__card" lang="en">(red Q)' \
            in html
        assert "(black 10)" in html and "(big joker)" in html and "(red 3)" in html
    course = client.get("/course/squeeze/2/", follow=True).content.decode()
    assert len(options.findall(course)) == 17 and "(red 2)" in course
    page = client.get("/quiz/squeeze/?seed=5&level=1").content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token
    question = q.generate("squeeze", 5, 1, RULES)
    answered = client.post("/quiz/squeeze/", {"token": token.group(1),
                                              **q.solve(question, RULES)}).content.decode()
    words = f"({'red' if question.card.kind.color == 'red' else 'black'} "
    caption = answered.split('class="quiz-answer"')[0].rsplit("<figcaption>", 1)[1]
    assert words in caption and "sq-kind__card" in answered[answered.index("quiz-answer"):]
    squeeze = client.get("/squeeze/").content.decode()
    assert '<span lang="zh-Hans">地牌</span> <span class="sq-kind__card" lang="en">(red 2)' \
        in squeeze
