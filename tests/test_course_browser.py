"""The course in a real browser: from the home page's 下一步 through a lesson's exercises
(htmx swaps, no reload), stars, the map updating, 下一步 leading on; Chinese on a
desktop, English on a phone; and the same without JavaScript."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from engine import quiz as q
from tests.test_quiz_browser import answer_in_page
from tutorial import course

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SUBMIT = {"zh": "交答案", "en": "Submit"}


def answer_exercise(page: Any, lesson: course.Lesson, n: int, correct: bool) -> None:
    ex = lesson.exercises[n - 1]
    seed = int(parse_qs(urlsplit(page.url).query).get("seed", ["0"])[0])
    shown = course.question(ex, seed)
    if shown is None:
        value = ex.answer if correct else (ex.answer + 1) % len(ex.options)
        page.locator(f'button[name="choice"][value="{value}"]').click()
        return
    fields = q.solve(shown, course.RULES)
    if not correct:
        from tests.test_quiz_views import wrong_answer

        fields = wrong_answer(shown)
    answer_in_page(page, shown, fields)


def take_lesson(page: Any, lesson: course.Lesson, mistakes: int, shots: str | None,
                screenshot: Any) -> None:
    for ex in lesson.exercises:
        expect(page.locator(".quiz-prompt")).to_be_visible()
        if shots:
            screenshot(page, f"{shots}-question-{ex.n}")
        answer_exercise(page, lesson, ex.n, correct=ex.n > mistakes)
        expect(page.locator(".quiz-verdict")).to_be_visible()
        if ex.n < len(lesson.exercises):
            if shots and ex.n == 1:
                screenshot(page, f"{shots}-feedback")
            page.locator("[data-course-next]").click()
            expect(page.locator(".course-count")).to_contain_text(str(ex.n + 1))


def test_course_from_home_zh_desktop(live_server: Any, browser_page: Any, screenshot: Any,
                                     axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/")
    screenshot(page, "course-home-zh")
    page.locator("[data-course-next]").click()
    expect(page).to_have_url(f"{live_server.url}/course/hand/")
    axe(page)
    screenshot(page, "course-lesson-zh")
    # A reading link (here the cards page of the next lesson) leads back to the exercises.
    page.goto(live_server.url + "/course/cards/")
    page.locator(".course-read a").first.click()
    expect(page.locator(".course-return")).to_be_visible()
    screenshot(page, "course-return-zh")
    page.locator(".course-return a").click()
    expect(page).to_have_url(re.compile(r"/course/cards/1/\?seed=\d+$"))
    page.goto(live_server.url + "/course/hand/1/")
    page.evaluate("window.__noReload = true")
    hand = course.lessons()[0]
    take_lesson(page, hand, mistakes=1, shots="course-hand-zh", screenshot=screenshot)
    assert page.evaluate("window.__noReload") is True  # htmx swapped every step
    done = page.locator(".course-done")
    expect(done).to_contain_text("这一课学完了")
    expect(done.locator(".course-stars")).to_have_attribute("aria-label", "2 颗星（满分 3 颗）")
    axe(page)
    screenshot(page, "course-done-zh")
    # Again, without a mistake: three stars.
    page.get_by_role("link", name="再做一遍").click()
    take_lesson(page, hand, mistakes=0, shots=None, screenshot=screenshot)
    expect(page.locator(".course-done .course-stars")).to_have_attribute(
        "aria-label", "3 颗星（满分 3 颗）")
    # 下一步 leads to the next lesson; the map shows the first done and the second next.
    page.locator("[data-course-next]").click()
    expect(page).to_have_url(f"{live_server.url}/course/cards/")
    page.goto(live_server.url + "/course/")
    first = page.locator(".course-map__step").nth(0)
    expect(first).to_have_class("path__step course-map__step course-map__step--done")
    expect(page.locator(".course-map__step--next")).to_contain_text("认牌和口诀")
    screenshot(page, "course-map-zh")
    # A lesson with quiz questions (bigger, bigger, order).
    page.goto(live_server.url + "/course/groups/1/")
    take_lesson(page, course.lessons()[2], mistakes=0, shots="course-groups-zh",
                screenshot=screenshot)
    expect(page.locator(".course-done .course-stars")).to_have_attribute(
        "aria-label", "3 颗星（满分 3 颗）")
    page.goto(live_server.url + "/")
    expect(page.locator(".course-map__step--done")).to_have_count(2)
    expect(page.locator(".course-map__step--next")).to_contain_text("认牌和口诀")


def test_course_en_phone(live_server: Any, phone_page: Any, screenshot: Any, axe: Any) -> None:
    page = phone_page
    page.goto(f"{live_server.url}/lang/?language=en&next=/course/")
    expect(page.locator("h1")).to_have_text("Course")
    screenshot(page, "course-map-en-phone")
    page.locator(".course-map__step").nth(3).locator("a").click()  # the special groups
    expect(page.locator("h1")).to_have_text("The special groups")
    axe(page)
    screenshot(page, "course-lesson-en-phone")
    page.locator("[data-course-next]").click()
    special = course.lessons()[3]
    take_lesson(page, special, mistakes=0, shots="course-special-en-phone",
                screenshot=screenshot)
    expect(page.locator(".course-done")).to_contain_text("Lesson done")
    axe(page)
    screenshot(page, "course-done-en-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("[data-course-next]").click()
    expect(page.locator("h1")).to_have_text("Splitting: 头 and 尾")


def test_course_without_javascript(live_server: Any, chromium_browser: Any,
                                   screenshot: Any) -> None:
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/course/betting/1/")
        betting = course.lessons()[5]
        for ex in betting.exercises:
            answer_exercise(page, betting, ex.n, correct=True)
            expect(page.locator(".quiz-verdict")).to_contain_text("答对了")
            page.locator("[data-course-next]").click()
        expect(page).to_have_url(f"{live_server.url}/course/squeeze/")
        page.goto(live_server.url + "/course/")
        expect(page.locator(".course-map__step--done")).to_contain_text("下注的说法")
        screenshot(page, "course-map-nojs")
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "size"), [("zh", "desktop"), ("zh", "phone"), ("en", "desktop"),
                                            ("en", "phone")])
def test_last_lesson_leads_to_the_teaching_table(live_server: Any, browser_page: Any,
                                                 screenshot: Any, lang: str, size: str) -> None:
    page = browser_page
    if size == "phone":
        page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/lang/?language={'zh-hans' if lang == 'zh' else 'en'}"
              "&next=/course/mango/")
    page.locator("[data-course-next]").click()
    mango = course.lessons()[-1]
    take_lesson(page, mango, mistakes=2, shots=f"course-mango-{lang}-{size}",
                screenshot=screenshot)
    stars = page.locator(".course-done .course-stars")
    expect(stars).to_have_attribute("aria-label", "1 颗星（满分 3 颗）" if lang == "zh"
                                    else "1 of 3 stars")
    screenshot(page, f"course-mango-done-{lang}-{size}")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.locator("[data-course-next]").click()
    expect(page).to_have_url(f"{live_server.url}/course/table/1/")
    page.goto(live_server.url + "/course/")
    expect(page.locator(".course-map__step--done")).to_have_count(1)
    expect(page.locator(".course-map__step--next")).to_contain_text(
        "先看一整手" if lang == "zh" else "First, a whole hand")


def test_squeeze_lesson_uses_the_squeeze_quiz(live_server: Any, phone_page: Any,
                                              screenshot: Any, axe: Any) -> None:
    page = phone_page
    page.goto(live_server.url + "/course/squeeze/")
    expect(page.locator(".course-read")).to_contain_text("串牌：露出一角能看出什么")
    page.locator("[data-course-next]").click()
    squeeze = course.lessons()[6]
    take_lesson(page, squeeze, mistakes=0, shots="course-squeeze-phone", screenshot=screenshot)
    expect(page.locator(".course-done .course-stars")).to_have_attribute(
        "aria-label", "3 颗星（满分 3 颗）")
    axe(page)
