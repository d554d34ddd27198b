"""/splits/ "at the table" in a real browser: fill the form on /splits/, htmx swaps the
answer in (and the address becomes shareable), a refusal keeps the form; English,
phone, no JavaScript; screenshots and axe."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def fill(page: Any) -> None:
    page.locator("#t-cards").fill("rq r6 r7 b9")
    page.locator("#t-stake").fill("20")
    page.locator("#t-v1").fill("B10 R8")
    page.locator("#t-s1").fill("20")
    page.locator("#t-pi").fill("3 10")


def test_price_a_showdown_with_htmx(live_server: Any, browser_page: Any, screenshot: Any,
                                    axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/splits/#at-table")
    fill(page)
    page.locator("#t-cards").press("Enter")
    answer = page.locator("#table-answer")
    expect(answer).to_be_visible()
    expect(page.locator("h1")).to_have_text("分牌的学问")  # still the /splits/ page
    expect(page).to_have_url(re.compile(r"/splits/table/\?cards=rq\+r6\+r7\+b9"))
    expect(answer.locator("tbody tr")).to_have_count(3)
    expect(answer.locator(".sp-row--best")).to_contain_text("分法一")
    expect(page.locator("[data-effect]")).to_contain_text("皮改变了最好的分法")
    axe(page)
    answer.scroll_into_view_if_needed()
    screenshot(page, "splits-table-zh", full_page=False)
    # a refusal keeps the form and says what is wrong, next to the field
    page.locator("#t-v1").fill("RQ RQ")
    page.locator("#t-v1").press("Enter")
    expect(page.locator("#table-error")).to_contain_text("整副牌只有 2 张，桌上填了 3 张")
    expect(page.locator("#t-cards")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("h1")).to_have_text("分牌的学问")
    axe(page)
    screenshot(page, "splits-table-error-zh", full_page=False)


def test_english_phone_and_no_javascript(live_server: Any, chromium_browser: Any,
                                         phone_page: Any, screenshot: Any, axe: Any) -> None:
    page = phone_page
    page.goto(live_server.url + "/lang/?language=en&next=/splits/table/"
              "%3Fcards%3DRQ%2BR6%2BR7%2BB9%26stake%3D20%26v1%3DB10%2BR8%26s1%3D20"
              "%26v2%3DB4%2BB7%26s2%3D15%26pi%3D3%2B10")
    expect(page.locator("h1")).to_have_text("Splitting at the table")
    expect(page.locator("#table-answer tbody tr")).to_have_count(3)
    expect(page.locator("#table-answer")).to_contain_text("standard error")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    axe(page)
    screenshot(page, "splits-table-en-phone")
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN")
    try:
        plain = context.new_page()
        plain.goto(live_server.url + "/splits/")
        fill(plain)
        plain.locator("#t-cards").press("Enter")
        plain.wait_for_url("**/splits/table/?cards=*")
        expect(plain.locator("h1")).to_have_text("在牌桌上分牌")
        expect(plain.locator("#table-answer tbody tr")).to_have_count(3)
    finally:
        context.close()
