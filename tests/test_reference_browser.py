"""Reference pages in a real browser: live search, the 口诀, screenshots at two widths."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_live_search_updates_results_and_url(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    page.goto(live_server.url + "/pairs/")
    assert page.locator(".pair-row").count() == 151
    page.evaluate("window.__noReload = true")
    box = page.get_by_role("searchbox", name="查组牌")
    box.press_sequentially("tgj", delay=40)
    expect(page.locator(".pair-row")).to_have_count(2)
    assert page.evaluate("window.__noReload") is True, "the page reloaded"
    page.wait_for_url(live_server.url + "/pairs/?q=tgj")
    assert page.locator("#pair-count").inner_text() == "找到 2 组（共 151 组）。"
    names = page.locator(".pair-row__name").all_inner_texts()
    assert names == ["天官九", "天官九"]
    axe(page)
    # Playwright hides the caret of a focused input with an injected style, which the
    # site's CSP reports: take screenshots with nothing focused.
    box.blur()
    screenshot(page, "reference-pairs-search-zh")

    box.fill("天關九")
    page.wait_for_url(live_server.url + "/pairs/?q=%E5%A4%A9%E9%97%9C%E4%B9%9D")
    expect(page.locator("#pair-count")).to_have_text("找到 2 组（共 151 组）。")
    box.fill("RQ B9")
    expect(page.locator(".pair-row")).to_have_count(1)
    assert page.locator(".pair-row__name").inner_text() == "天九王"
    box.fill("没有这种牌")
    page.wait_for_selector(".empty")
    assert "没有找到" in page.locator(".empty").inner_text()
    assert page.evaluate("window.__noReload") is True

    # filters are GET params too, and update the list in place
    box.fill("")
    page.get_by_label("类别").select_option("pair")
    expect(page.locator(".pair-row")).to_have_count(15)
    page.wait_for_url(live_server.url + "/pairs/?cat=pair")
    # back to the previous URL: the browser's history works
    page.go_back()
    page.wait_for_url(lambda url: "cat=pair" not in url)


def test_catalogue_desktop_and_phone(
    live_server: Any, browser_page: Any, phone_page: Any, screenshot: Any, axe: Any
) -> None:
    browser_page.goto(live_server.url + "/pairs/")
    axe(browser_page)
    screenshot(browser_page, "reference-pairs-desktop", full_page=False)
    phone_page.goto(live_server.url + "/pairs/?q=9点")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(phone_page)
    screenshot(phone_page, "reference-pairs-phone")


def test_koujue_lights_up_cards(
    live_server: Any, browser_page: Any, screenshot: Any, axe: Any
) -> None:
    page = browser_page
    page.goto(live_server.url + "/cards/")
    assert page.locator(".card").count() == 32
    tian = page.get_by_role("button", name="天", exact=True)
    assert tian.get_attribute("aria-pressed") == "false"
    tian.focus()
    page.keyboard.press("Enter")
    assert tian.get_attribute("aria-pressed") == "true"
    assert page.locator(".kind.is-lit").evaluate_all("els => els.map(e => e.id)") == ["kind-RQ"]
    assert "天牌" in page.locator("[data-koujue-status]").inner_text()

    xsl = page.get_by_role("button", name="下四滥")
    xsl.focus()
    page.keyboard.press("Space")
    lit = page.locator(".kind.is-lit").evaluate_all("els => els.map(e => e.id)")
    assert lit == ["kind-B9", "kind-B8", "kind-B7", "kind-B5"]
    also = page.locator(".kind.is-also").evaluate_all("els => els.map(e => e.id)")
    assert also == ["kind-R3", "kind-JK"]
    assert tian.get_attribute("aria-pressed") == "false"
    axe(page)
    screenshot(page, "reference-cards-desktop")
    page.keyboard.press("Space")  # pressing again turns it off
    assert page.locator(".kind.is-lit").count() == 0


def test_koujue_without_javascript(chromium_browser: Any, live_server: Any) -> None:
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/cards/")
        page.get_by_role("link", name="梅", exact=True).click()
        assert page.url.endswith("#kind-B10")
        # the targeted card's border differs from its neighbour's once the transition ends
        # (polled from Python: with scripts off the page runs no polling of its own)
        def border(kind: str) -> str:
            return str(page.locator(f"#kind-{kind}").evaluate(
                "e => getComputedStyle(e).borderTopColor"))

        for _ in range(50):
            if border("B10") != border("B4"):
                break
            page.wait_for_timeout(100)
        assert border("B10") != border("B4")
        # the search form is a plain GET form
        page.goto(live_server.url + "/pairs/")
        page.get_by_role("searchbox").fill("tgj")
        page.get_by_role("button", name="查找").click()
        page.wait_for_url("**/pairs/?q=tgj*")
        assert page.locator(".pair-row").count() == 2
    finally:
        context.close()


def test_pages_on_phone_and_desktop(
    live_server: Any, browser_page: Any, phone_page: Any, screenshot: Any, axe: Any
) -> None:
    for path, name in (
        ("/cards/", "cards"),
        ("/pairs/RQ-R7/", "pair-detail"),
        ("/pairs/B4-R10/", "pair-unnamed"),
        ("/rules/", "rules"),
        ("/", "home"),
    ):
        for page, size in ((browser_page, "desktop"), (phone_page, "phone")):
            page.goto(live_server.url + path)
            if size == "phone":
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"{path} scrolls sideways on a phone"
            axe(page)
            screenshot(page, f"reference-{name}-{size}")


def test_english_pages(live_server: Any, browser_page: Any, screenshot: Any, axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/pairs/")
    page.get_by_role("button", name="English").click()
    page.wait_for_url(live_server.url + "/pairs/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h1").inner_text() == "All two-card groups"
    box = page.get_by_role("searchbox", name="Find a group")
    box.press_sequentially("tian guan jiu", delay=20)
    expect(page.locator(".pair-row")).to_have_count(2)
    assert page.locator(".pair-row__name").first.get_attribute("lang") == "zh-Hans"
    assert "Heaven" in page.locator(".pair-row__gloss").first.inner_text()
    axe(page)
    box.blur()
    screenshot(page, "reference-pairs-en")
    for path, name in (("/cards/", "cards"), ("/pairs/RQ-R7/", "pair"), ("/rules/", "rules")):
        page.goto(live_server.url + path)
        axe(page)
        screenshot(page, f"reference-{name}-en")
