"""Walkthroughs in a real browser: clicking, keyboard arrows, the squeeze, axe, screenshots."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_click_and_arrow_through_a_walkthrough(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    base = live_server.url + "/walkthroughs/xj-2p-2/"
    page.goto(live_server.url + "/walkthroughs/")
    screenshot(page, "walkthroughs-index")
    axe(page)
    page.get_by_role("link", name="两家扯 例2").first.click()
    page.wait_for_url(base + "1/")
    assert page.locator("#wt-step-title").inner_text() == "这一例讲什么"
    axe(page)
    # next links (htmx swaps the step, the URL follows)
    page.locator("[data-wt-next]").click()
    page.wait_for_url(base + "2/")
    assert "甲" in page.locator("#wt-step-title").inner_text()
    page.wait_for_function("() => document.activeElement.id === 'wt-step-title'")
    assert page.title().startswith("甲分牌")
    # keyboard arrows
    for n in range(3, 8):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(base + f"{n}/")
    expect(page.locator(".wt-slip")).to_be_visible()
    assert "乙" in page.locator("[data-facts]").get_attribute("data-facts")
    screenshot(page, "walkthrough-xj-2p-2-slip")
    axe(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(base + "6/")
    page.go_back()
    page.wait_for_url(base + "7/")
    page.locator(".wt-slip").wait_for(state="visible")
    page.goto(base + "4/")
    screenshot(page, "walkthrough-xj-2p-2-compare")


def test_multi_player_and_advice(live_server: Any, browser_page: Any, screenshot: Any,
                                 axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/walkthroughs/xj-mp-2/2/")
    screenshot(page, "walkthrough-xj-mp-2-impossible")
    axe(page)
    page.goto(live_server.url + "/walkthroughs/xj-mp-3-bobo/6/")
    screenshot(page, "walkthrough-bobo-variant")
    page.goto(live_server.url + "/walkthroughs/app-split-2/8/")
    screenshot(page, "walkthrough-app-split-2-advice")
    axe(page)


def _squeeze_step(client_url: str, page: Any) -> int:
    page.goto(client_url + "1/")
    dots = page.locator(".wt-dots__link")
    for i in range(dots.count()):
        if "串" in (dots.nth(i).inner_text() + (dots.nth(i).get_attribute("href") or "")):
            return i + 1
    return 0


def test_full_hand_and_squeeze(live_server: Any, browser_page: Any, screenshot: Any,
                               axe: Any) -> None:
    page = browser_page
    base = live_server.url + "/walkthroughs/full-hand/"
    page.goto(base + "1/")
    screenshot(page, "walkthrough-hand-seats")
    axe(page)
    # find the squeeze step by its title among the step links
    links = page.locator(".wt-dots__link")
    n = next(i + 1 for i in range(links.count()) if "串" in links.nth(i).inner_text())
    page.goto(base + f"{n - 1}/")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(base + f"{n}/")
    live = page.locator(".wt-squeeze__live")
    live.wait_for(state="visible")
    expect(page.locator(".wt-squeeze__stages")).to_be_hidden()
    cover = page.locator(".squeeze__cover")
    cover.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    hint = page.locator('.wt-squeeze__hint[data-stage="corner"]')
    hint.wait_for(state="visible")
    assert "圆头" in hint.inner_text()
    screenshot(page, "walkthrough-squeeze-corner")
    for _ in range(4):
        page.keyboard.press("ArrowDown")
    pips = page.locator('.wt-squeeze__hint[data-stage="pips"]')
    pips.wait_for(state="visible")
    assert "人牌" in pips.inner_text()
    screenshot(page, "walkthrough-squeeze-pips")
    # arrows on the slider move the cover, not the step
    assert page.url == base + f"{n}/"
    page.get_by_role("button", name="一下翻开").click()
    whole = page.locator('.wt-squeeze__hint[data-stage="whole"]')
    whole.wait_for(state="visible")
    assert "人牌一对" in whole.inner_text()
    page.wait_for_timeout(800)
    assert page.url == base + f"{n}/"
    screenshot(page, "walkthrough-squeeze-whole")
    axe(page)
    # the last step: the next hand
    total = links.count()
    page.goto(base + f"{total}/")
    screenshot(page, "walkthrough-hand-next")


def test_squeeze_without_javascript(live_server: Any, chromium_browser: Any,
                                    screenshot: Any) -> None:
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN",
                                           viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/walkthroughs/full-hand/1/")
    links = page.locator(".wt-dots__link")
    n = next(i + 1 for i in range(links.count()) if "串" in links.nth(i).inner_text())
    page.goto(live_server.url + f"/walkthroughs/full-hand/{n}/")
    stages = page.locator(".wt-squeeze__stage")
    assert stages.count() == 3
    expect(page.locator(".wt-squeeze__live")).to_be_hidden()
    screenshot(page, "walkthrough-squeeze-nojs")
    page.locator("[data-wt-next]").click()
    page.wait_for_url(live_server.url + f"/walkthroughs/full-hand/{n + 1}/")
    context.close()


def test_english_step(live_server: Any, browser_page: Any, screenshot: Any, axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/walkthroughs/xj-mp-2/8/")
    page.get_by_role("button", name="English").click()
    page.wait_for_url(live_server.url + "/walkthroughs/xj-mp-2/8/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator(".wt-slip h3").inner_text() == "The text and the rules disagree"
    screenshot(page, "walkthrough-xj-mp-2-verdict-en")
    axe(page)
