"""A newcomer's walk on a phone, in a real browser: what the course's exercises showed
wrongly at phone width (see tests/test_newbie.py for the words)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from engine import quiz as q
from tutorial import course

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 11
#: whatever of the page sticks out past the right edge of the screen
OFF_SCREEN = """() => [...document.querySelectorAll('main *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(e => e.tagName + ' ' + (e.innerText || '').slice(0, 30))"""


def english(page: Any, live_server: Any) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "en",
                               "url": live_server.url}])


def test_the_squeeze_question_after_next_shows_a_half_squeezed_card(
        live_server: Any, phone_page: Any, screenshot: Any) -> None:
    # question 1 is a written one; 下一步 brings question 2, the squeeze quiz, in with
    # htmx: its styles must be there already, or the card is drawn whole (the answer)
    page = phone_page
    lesson = course.lesson("squeeze")
    assert lesson is not None
    page.goto(f"{live_server.url}/course/squeeze/1/")
    page.locator(f'button[name="choice"][value="{lesson.exercises[0].answer}"]').click()
    page.locator("[data-course-next]").click()
    expect(page.locator(".sq").first).to_be_visible()
    screenshot(page, "newbie-squeeze-after-next")
    assert page.evaluate("!!document.querySelector('link[href*=\"squeeze.css\"]')")
    face = page.locator(".sq .sq__card").first.bounding_box()
    back = page.locator(".sq .sq__back").first.bounding_box()
    assert face is not None and back is not None
    # the face lies under the back (part of it peeping out), not drawn below it
    assert face["y"] < back["y"] + back["height"] / 2


def test_a_written_option_with_a_term_stays_one_run_of_text(
        live_server: Any, phone_page: Any) -> None:
    page = phone_page
    english(page, live_server)
    page.goto(f"{live_server.url}/course/hand/2/")
    option = page.locator('button[name="choice"][value="1"]')  # … a 头 and a 尾; 头 meets 头 …
    expect(option).to_contain_text("meets")
    box = option.bounding_box()
    assert box is not None and box["height"] < 120  # it was 460 px: a line per fragment


def test_the_split_answer_fits_a_phone(live_server: Any, phone_page: Any,
                                       screenshot: Any) -> None:
    page = phone_page
    english(page, live_server)
    page.goto(f"{live_server.url}/course/split/1/?seed={SEED}")
    page.locator('form.quiz-question input[type="radio"]').first.check()
    page.locator("form.quiz-question button[type=submit]").last.click()
    expect(page.locator(".quiz-verdict")).to_be_visible()
    screenshot(page, "newbie-split-answer-phone")
    assert page.evaluate(OFF_SCREEN) == []
    expect(page.locator(".quiz-table--splits td[data-label]").first).to_be_visible()


def test_the_koujue_answer_fits_a_phone_and_keeps_class_names_whole(
        live_server: Any, phone_page: Any, screenshot: Any) -> None:
    page = phone_page
    english(page, live_server)
    page.goto(f"{live_server.url}/course/cards/1/?seed={SEED}")
    # 中三 beside its gloss: one line, not 中 over 三
    name = page.locator(".quiz-order__what .quiz-class").filter(has_text="中三")
    box = name.bounding_box()
    assert box is not None and box["width"] > box["height"]
    lesson = course.lesson("cards")
    assert lesson is not None
    shown = course.question(lesson.exercises[0], SEED)
    assert shown is not None
    for field, place in q.solve(shown, course.RULES).items():
        page.select_option(f'select[name="{field}"]', place)
    page.locator("form.quiz-question button[type=submit]").last.click()
    expect(page.locator(".quiz-verdict")).to_be_visible()
    screenshot(page, "newbie-koujue-answer-phone")
    table = page.locator(".quiz-feedback table.quiz-table")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth + 1")
    assert page.evaluate(OFF_SCREEN) == []
