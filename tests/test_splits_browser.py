"""/splits/ in a real browser: submit a hand with the GET form (no JavaScript needed),
read the three splits, a refused hand, English, a phone; screenshots and axe."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from engine.advisor import advise
from engine.cards import parse_kinds
from engine.rules import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_submit_a_hand(live_server: Any, browser_page: Any, screenshot: Any, axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/splits/")
    expect(page.locator(".sp-example")).to_have_count(10)
    axe(page)
    screenshot(page, "splits-page-zh")
    box = page.get_by_label("你的四张牌")
    box.fill("rq r6 r7 b9")
    box.press("Enter")
    page.wait_for_url("**/splits/?hand=rq+r6+r7+b9#tool")
    options = page.locator(".sp-option")
    expect(options).to_have_count(3)
    advice = advise(parse_kinds("RQ R6 R7 B9"), get_rules("xuanjing"))
    best = page.locator(".sp-option--best")
    expect(best).to_have_count(1)
    assert best.get_attribute("class") == options.nth(advice.best).get_attribute("class")
    naive = options.nth(advice.naive)
    assert "sp-option--naive" in (naive.get_attribute("class") or "")
    expect(naive.locator(".sp-chip")).to_have_text("头最大")
    # the meters have accessible names (their labels) and values
    win = page.get_by_role("meter", name="吃").first
    assert float(win.get_attribute("value") or 0) == pytest.approx(advice.splits[0].p_win, abs=1e-4)
    expect(page.locator(".sp-why")).to_contain_text("尾却从第")
    # the pair names link to their pages
    href = options.nth(advice.best).locator(".sp-group__name").first.get_attribute("href")
    assert href == f"/pairs/{advice.splits[advice.best].split.head.code}/"
    axe(page)
    box.blur()
    page.locator("#tool").scroll_into_view_if_needed()
    screenshot(page, "splits-hand-zh", full_page=False)
    # the result alone, at full height
    from tests.conftest import ARTIFACTS

    page.locator("#result").screenshot(path=str(ARTIFACTS / "splits-result-zh.png"))


@pytest.mark.allow_http_errors  # the refused hand answers 400
def test_refused_hand_and_example_link(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    response = page.goto(live_server.url + "/splits/?hand=RQ+RQ+RQ+B9#tool")
    assert response is not None and response.status == 400
    error = page.locator("#hand-error")
    expect(error).to_contain_text("整副牌只有 2 张，你填了 3 张")
    box = page.get_by_label("你的四张牌")
    expect(box).to_have_attribute("aria-invalid", "true")
    axe(page)
    screenshot(page, "splits-error-zh", full_page=False)
    # an example hand opens in the tool
    page.locator(".sp-example__gain a").first.click()
    page.wait_for_url("**/splits/?hand=*#tool")
    expect(page.locator(".sp-option")).to_have_count(3)
    expect(page.locator("#hand-error")).to_have_count(0)


def test_english_and_phone(
    live_server: Any, browser_page: Any, phone_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    page.goto(live_server.url + "/lang/?language=en&next=/splits/%3Fhand%3DRQ%2BR6%2BR7%2BB9")
    expect(page.locator("h1")).to_have_text("The art of splitting")
    expect(page.locator(".sp-option")).to_have_count(3)
    axe(page)
    page.locator("#tool").scroll_into_view_if_needed()
    screenshot(page, "splits-hand-en", full_page=False)
    phone_page.goto(live_server.url + "/splits/?hand=RQ+B10+B9+B9")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(phone_page)
    screenshot(phone_page, "splits-phone-zh")
