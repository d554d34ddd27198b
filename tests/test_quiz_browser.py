"""Quizzes in a real browser: answer every kind, htmx swaps the feedback in without a
reload, axe passes after the swap; click-to-place ordering; no-JavaScript fallback."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from engine import quiz as q
from engine.rules import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
RULES = get_rules("xuanjing")


def answer_in_page(page: Any, question: q.Question, answer: dict[str, str]) -> None:
    """Operate the form like a person would, to give ``answer``."""
    if isinstance(question, q.OrderQuestion):
        order = sorted(answer, key=lambda k: int(answer[k]))
        for field in order:
            page.locator(f'[data-quiz-place="{field.removeprefix("pos_")}"]').click()
        page.get_by_role("button", name="交答案").click()
    elif isinstance(question, q.BiggerQuestion | q.NameQuestion) or (
        isinstance(question, q.CardsQuestion) and question.options
    ):
        name, value = next(iter(answer.items()))
        page.locator(f'button[name="{name}"][value="{value}"]').click()
    elif isinstance(question, q.CardsQuestion):
        page.get_by_label("第一张").select_option(answer["card1"])
        page.get_by_label("第二张").select_option(answer["card2"])
        page.get_by_role("button", name="交答案").click()
    else:  # split, showdown: radio buttons
        for name, value in answer.items():
            page.locator(f'input[name="{name}"][value="{value}"]').check()
        page.get_by_role("button", name="交答案").click()


CASES = [("bigger", 2), ("order", 1), ("name", 2), ("cards", 1), ("cards", 2), ("split", 3),
         ("showdown", 3), ("koujue", 3)]


@pytest.mark.parametrize(("slug", "level"), CASES)
def test_answer_each_kind_with_htmx(live_server: Any, browser_page: Any, screenshot: Any,
                                    axe: Any, slug: str, level: int) -> None:
    page = browser_page
    seed = 42
    page.goto(f"{live_server.url}/quiz/{slug}/?seed={seed}&level={level}")
    axe(page)
    screenshot(page, f"quiz-{slug}-{level}-question")
    page.evaluate("window.__noReload = true")
    question = q.generate(slug, seed, level, RULES)
    answer_in_page(page, question, q.solve(question, RULES))
    verdict = page.locator(".quiz-verdict")
    verdict.wait_for()
    assert "答对了" in verdict.inner_text()
    assert page.evaluate("window.__noReload") is True  # swapped, not reloaded
    # focus moves to the verdict right after the swap (fails after the default timeout)
    page.wait_for_function("() => document.activeElement.classList.contains('quiz-verdict')")
    axe(page)
    screenshot(page, f"quiz-{slug}-{level}-feedback")


def test_wrong_answer_then_next_question(live_server: Any, browser_page: Any,
                                         screenshot: Any) -> None:
    page = browser_page
    page.goto(f"{live_server.url}/quiz/bigger/?seed=5&level=1")
    question = q.generate("bigger", 5, 1, RULES)
    right = q.solve(question, RULES)["choice"]
    wrong = next(c for c in ("a", "b", "equal") if c != right)
    page.evaluate("window.__noReload = true")
    page.locator(f'button[name="choice"][value="{wrong}"]').click()
    page.locator(".quiz-feedback--wrong").wait_for()
    assert page.locator(".quiz-why").count() == 1
    screenshot(page, "quiz-bigger-wrong")
    page.locator("[data-quiz-next]").click()
    page.locator("form[data-quiz-form]").wait_for()
    assert page.evaluate("window.__noReload") is True
    assert "seed=" in page.url  # the new question has its own address


@pytest.mark.allow_http_errors  # a bad answer is refused with a 400
def test_order_reset_and_bad_input_message(live_server: Any, browser_page: Any) -> None:
    page = browser_page
    page.goto(f"{live_server.url}/quiz/order/?seed=3&level=1")
    buttons = page.locator("[data-quiz-place]")
    buttons.nth(0).click()
    assert page.locator('select[name="pos_0"]').input_value() == "1"
    assert buttons.nth(0).is_disabled()
    page.locator("[data-quiz-reset]").click()
    assert page.locator('select[name="pos_0"]').input_value() == ""
    # Submitting with nothing placed: the 400 message is swapped in, the form stays.
    page.get_by_role("button", name="交答案").click()
    page.locator(".quiz-problem").wait_for()
    assert "每一项都要选或填" in page.locator(".quiz-problem").inner_text()
    assert page.locator("#htmx-status").count() == 0  # not treated as a failure
    expect(page.locator("[data-quiz-place]").nth(0)).to_be_visible()  # JS set up again


def test_without_javascript_the_form_posts(live_server: Any, chromium_browser: Any,
                                           screenshot: Any) -> None:
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/quiz/order/?seed=9&level=2")
        expect(page.locator("[data-quiz-place]").first).to_be_hidden()
        question = q.generate("order", 9, 2, RULES)
        for field, value in q.solve(question, RULES).items():
            page.locator(f'select[name="{field}"]').select_option(value)
        page.get_by_role("button", name="交答案").click()
        page.locator(".quiz-verdict").wait_for()
        assert "答对了" in page.locator(".quiz-verdict").inner_text()
        screenshot(page, "quiz-order-nojs-feedback")
    finally:
        context.close()


def test_review_and_progress_pages(live_server: Any, browser_page: Any, screenshot: Any,
                                   axe: Any) -> None:
    page = browser_page
    page.goto(f"{live_server.url}/quiz/name/?seed=8&level=1")
    question = q.generate("name", 8, 1, RULES)
    right = q.solve(question, RULES)["name"]
    wrong = next(c for c in question.choices if c != right)  # type: ignore[attr-defined]
    page.locator(f'button[name="name"][value="{wrong}"]').click()
    page.locator(".quiz-feedback--wrong").wait_for()
    page.goto(f"{live_server.url}/quiz/progress/")
    assert "一共答了 1 题" in page.content()
    axe(page)
    screenshot(page, "quiz-progress")
    page.goto(f"{live_server.url}/quiz/")
    axe(page)
    screenshot(page, "quiz-index")


def test_phone_layout(live_server: Any, phone_page: Any, screenshot: Any, axe: Any) -> None:
    phone_page.goto(f"{live_server.url}/quiz/split/?seed=4&level=3")
    question = q.generate("split", 4, 3, RULES)
    answer_in_page(phone_page, question, q.solve(question, RULES))
    phone_page.locator(".quiz-verdict").wait_for()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "page scrolls sideways on a phone"
    axe(phone_page)
    screenshot(phone_page, "quiz-split-phone")


def test_english_feedback(live_server: Any, browser_page: Any, screenshot: Any,
                          axe: Any) -> None:
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "en",
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/quiz/showdown/?seed=42&level=2")
    question = q.generate("showdown", 42, 2, RULES)
    answer_in_page_en = q.solve(question, RULES)
    for name, value in answer_in_page_en.items():
        page.locator(f'input[name="{name}"][value="{value}"]').check()
    page.get_by_role("button", name="Answer").click()
    page.locator(".quiz-verdict").wait_for()
    assert "Right!" in page.locator(".quiz-verdict").inner_text()
    axe(page)
    screenshot(page, "quiz-showdown-en-feedback")


@pytest.mark.allow_http_errors
def test_rate_limited_answer_says_so(live_server: Any, browser_page: Any, settings: Any,
                                     screenshot: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "write": (1, 60)}
    page = browser_page
    for seed in (5, 6):
        page.goto(f"{live_server.url}/quiz/bigger/?seed={seed}&level=1")
        question = q.generate("bigger", seed, 1, RULES)
        answer_in_page(page, question, q.solve(question, RULES))
    expect(page.get_by_role("alert")).to_contain_text("请求太频繁了，请")  # … N 秒后再试
    expect(page.locator("#quiz-area .limit-refusal")).to_have_count(1)
    expect(page.locator("[data-quiz-form]")).to_be_visible()  # the question stays
    screenshot(page, "quiz-rate-limited")
