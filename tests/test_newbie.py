"""A newcomer's walk through the course, the teaching table and the practice table (on a
phone, in both languages): the words and pages it found wanting, checked with Django's
test client.  The browser half is tests/test_newbie_browser.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from engine import quiz as q
from tutorial.views.coach import leads, option_label

pytestmark = pytest.mark.django_db


def page(path: str, lang: str = "zh") -> str:
    client = Client()
    if lang == "en":
        client.cookies["django_language"] = "en"
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def text(path: str, lang: str = "zh") -> str:
    """The page's words (game terms are links: their tags would split a sentence)."""
    return re.sub(r"<[^>]+>", "", page(path, lang))


def test_every_exercise_page_of_the_squeeze_lesson_loads_the_squeeze_styles() -> None:
    # 下一步 swaps the next question in with htmx and keeps the page's <head>: opened on
    # the written first question, the page must already carry the squeeze quiz's styles,
    # or the half-squeezed card of question 2 is drawn whole (the answer given away)
    assert "css/squeeze.css" in page("/course/squeeze/1/")
    assert "css/squeeze.css" in page("/course/squeeze/4/")
    assert "css/squeeze.css" not in page("/course/hand/1/")


def test_the_cards_lesson_names_the_classes_its_exercise_asks_for() -> None:
    # its first exercise orders 天 地 人 和 中三 下腰 下四滥: the lesson names all of them
    # (the 旋经: 梅十 板凳 长三 "归类为“中三牌”", the 下腰 four "归类为“下腰牌”",
    # 黑9 黑8 黑7 小5 "归类为“下四滥”")
    zh = text("/course/cards/")
    assert "归为中三" in zh and "归为下腰" in zh and "归为下四滥" in zh
    en = text("/course/cards/", "en")
    for name in ("中三", "下腰", "下四滥"):
        assert f"the class called {name}" in en


def test_the_split_lesson_says_what_the_texts_it_names_are() -> None:
    zh = text("/course/split/")
    assert "网上扯旋游戏的两份规则文字" in zh and "讲扯旋最详细的" in zh
    en = text("/course/split/", "en")
    assert "the rule texts of online Chexuan games" in en
    assert "the most detailed text on the game" in en


def test_the_betting_lesson_says_what_1_3_means() -> None:
    # 000: "1分、3分，简称1、3"; the 挡家 "发招3分"; whoever folds "输1分……叫“皮”"
    assert "注码“1、3”就是说皮 1 分、发招 3 分" in text("/course/betting/")
    assert "stakes named after that 1 and the 3 of the lead" in text("/course/betting/", "en")


def test_the_special_lesson_gives_the_english_names_the_feedback_uses() -> None:
    en = page("/course/special/", "en")
    assert "Heaven bar" in en and "Earth bar" in en and "Heaven-nine king" in en


def test_the_teaching_squeeze_says_the_bots_cards_are_shown_and_which_way_to_drag() -> None:
    zh = text("/course/table/5/")
    assert "电脑们已经把自己的串开亮了出来" in zh and "把盖着的牌往下拖" in zh
    en = text("/course/table/5/", "en")
    assert "the bots have already squeezed theirs open" in en
    assert "drag the cover down" in en
    assert "往下拖开" in text("/course/squeeze/")


def test_the_teaching_result_keeps_each_group_with_its_cards() -> None:
    html = page("/course/table/8/")
    assert html.count('class="result__group"') == 4  # 头 and 尾 of you and 电脑甲
    assert " · " not in html.split('class="result__splits"')[1].split("</ul>")[0]


def test_the_bigger_quiz_says_first_and_second_not_left_and_right() -> None:
    # on a phone the two groups stand one above the other
    for path in ("/quiz/bigger/?seed=5&level=1", "/course/groups/1/?seed=5"):
        zh = page(path)
        assert "第一组大" in zh and "第二组大" in zh and "左边" not in zh
        en = page(path, "en")
        assert "The first is bigger" in en and "Left is bigger" not in en


def test_the_koujue_table_lists_each_card_name_whole() -> None:
    members = dict(q.class_members())
    assert members["中三"] == ("梅十", "板凳", "长三") and members["杂牌"] == ("丁丁", "大鬼")


def test_the_practice_table_says_current_bet_in_english_as_the_teaching_table_does() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3",
                                       "sanhua": "on", "mango": "fixed"})
    url = str(response["Location"])
    client.post(url + "act", {"seq": 0, "act": "deal"})
    html = client.get(url).content.decode()
    assert "Current bet: 3" in html and "Level: 3" not in html


def test_the_coach_calls_a_bet_nobody_had_made_a_lead() -> None:
    lead: dict[str, Any] = {"options": [{"kind": "check"}, {"kind": "raise", "amount": 10},
                        {"kind": "qiao", "amount": 100}]}
    raise_: dict[str, Any] = {"options": [{"kind": "call"}, {"kind": "raise", "amount": 20},
                          {"kind": "fold"}]}
    assert leads(lead) and not leads(raise_)
    with translation.override("zh-hans"):
        assert option_label(lead["options"][1], leads(lead)) == "发招 10"
        assert option_label(raise_["options"][1], leads(raise_)) == "返 20"
    with translation.override("en"):
        assert option_label(lead["options"][1], True) == "Lead (发招) 10"
        assert option_label(raise_["options"][1]) == "Raise (返) 20"


def test_the_review_does_not_promise_four_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    # a hand that ends before round three has dealt two or three cards to a player
    from tests.coach_hands import coached

    client, tid = coached(monkeypatch, hands=1)
    html = client.get(f"/coach/{tid}/1/").content.decode()
    assert "每家发到的牌" in html and "每家的四张牌" not in html


def test_the_teaching_lead_button_is_not_explained_as_a_raise() -> None:
    # step 6: nobody has bet in round three; the button says 发招 (Lead)
    zh = text("/course/table/6/")
    assert "这一轮的第一注，至少翻一倍" in zh and "加注，至少翻一倍" not in zh
    assert "the first bet of the round, at least double" in text("/course/table/6/", "en")
    assert "加注，至少翻一倍" in text("/course/table/3/")  # a raise is still a raise


def test_the_squeeze_lesson_says_its_questions_need_the_clues() -> None:
    # its questions name a half-squeezed card from clues (a break on the right, two
    # columns) that the lesson's three sentences never showed
    assert "后面的题考的就是这个" in text("/course/squeeze/")
    assert "The questions ask exactly that" in text("/course/squeeze/", "en")


def test_the_lead_badge_and_the_mango_choice_read_right_on_a_phone() -> None:
    """The teaching table's badge beside "You" read "You speaks first"; the table's 芒果
    choice "The same every time (Xuanjing rules)" was cut off in its box at 360 px, and
    its Chinese named the 旋经 without title marks."""
    stops = [page(f"/course/table/{n}/", "en") for n in range(1, 8)]
    badges = {b for s in stops for b in re.findall(r'badge--lead">([^<]*)<', s)}
    assert badges == {"first to speak"}
    assert "每次一样多（《旋经》规则）" in page("/table/")
    english = page("/table/", "en")
    assert "Fixed (Xuanjing rules)" in english and "Escalating (app rules)" in english
