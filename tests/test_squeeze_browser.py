"""/squeeze/ in a real browser: the partly revealed cards, axe, screenshots."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_squeeze_page_draws_partly_revealed_cards(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    page.goto(live_server.url + "/squeeze/")
    first = page.locator("#head .sq").first
    box = first.bounding_box()
    assert box is not None and box["width"] > 40
    # The cover is there: at the first corner stage, most of the card is clipped away.
    clip = first.locator(".sq__card").evaluate("e => getComputedStyle(e).clipPath")
    assert clip.startswith("inset(")
    screenshot(page, "squeeze-page")
    page.goto(live_server.url + "/lang/?language=en&next=/squeeze/%23combo")
    page.locator("#combo").screenshot(path="tests/artifacts/squeeze-combo-en.png")
    page.locator("#head").screenshot(path="tests/artifacts/squeeze-head-en.png")
    page.locator("#seed").screenshot(path="tests/artifacts/squeeze-seed-en.png")
    page.goto(live_server.url + "/lang/?language=zh-hans&next=/squeeze/")
    # The try-it form works without JavaScript: a GET, the drawings come back.
    page.locator('select[name="card"]').select_option("B9s")
    page.locator('select[name="r"]').select_option("rows-1")
    page.locator('select[name="r2"]').select_option("lanes-1")
    page.get_by_role("button", name="串开看看").click()
    page.wait_for_selector("#try .sq--lanes-1")
    page.locator("#try").screenshot(path="tests/artifacts/squeeze-try.png")
    for section in ("head", "rows", "lanes", "edge", "combo"):
        page.locator(f"#{section} .sq-stages").first.screenshot(
            path=f"tests/artifacts/squeeze-{section}.png")
    axe(page)


def test_squeeze_quiz_tick_and_answer(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    from engine import quiz as q
    from engine.rules import get_rules

    page = browser_page
    question = q.generate("squeeze", 4, 2, get_rules("xuanjing"))
    assert isinstance(question, q.SqueezeQuestion)
    page.goto(live_server.url + "/quiz/squeeze/?seed=4&level=2")
    axe(page)
    screenshot(page, "squeeze-quiz-question")
    for kind in question.possible:
        page.locator(f'input[name="k_{kind.code}"]').check()
    page.get_by_role("button", name="交答案").click()
    page.wait_for_selector(".quiz-feedback--right")
    screenshot(page, "squeeze-quiz-right")
    axe(page)


def test_squeeze_walkthrough_step(live_server: Any, browser_page: Any, screenshot: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/walkthroughs/xj-squeeze-combo-1/3/")
    assert page.locator(".sq--lanes-1").count() == 1
    screenshot(page, "squeeze-walkthrough-combo-1")
