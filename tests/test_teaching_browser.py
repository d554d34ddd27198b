"""The teaching table in a real browser: the scripted first hand played through with the
table's own buttons (a wrong button first, to see why it is not suggested), the squeeze,
the split, the result and the invitation to the practice table; Chinese on a desktop,
English on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.test_phone_browser import MEASURE
from tutorial import course, teaching

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_through(page: Any, base: str, screenshot: Any, prefix: str) -> None:
    stops = teaching.stops()
    page.goto(base + "/course/table/")
    for stop in stops:
        expect(page.locator(".course-count")).to_contain_text(str(stop.number))
        screenshot(page, f"{prefix}-{stop.number}")
        you = stop.you
        if stop.squeeze:
            cover = page.locator(".squeeze__cover")
            cover.focus()
            for _ in range(10):
                page.keyboard.press("ArrowDown")  # the cover slides off; the form submits
            page.wait_for_url(re.compile(rf"/course/table/{stop.number + 1}/\??$"))
        elif you is None:
            if stop.number == len(stops):
                break
            page.locator("[data-course-next]").click()
        elif you.kind.value == "split":
            for label in you.cards[:2]:
                page.locator(f'input[type=checkbox][name="head"][value="{label}"]').check()
            page.locator('[data-act="split"]').click()
        elif you.kind.value == "raise":
            page.locator("#raise-amount").fill(str(you.amount))
            page.locator('button[data-act="raise"]').click()
        else:
            page.locator(f'button[data-act="{you.kind.value}"]').click()
    expect(page.locator(".result")).to_be_visible()


def test_teaching_table_zh_desktop(live_server: Any, browser_page: Any, screenshot: Any,
                                   axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/course/table/2/")
    page.locator('button[data-act="fold"]').click()  # not suggested: stays and says why
    expect(page.locator(".teach-why")).to_contain_text("天牌是好牌")
    expect(page).to_have_url(f"{live_server.url}/course/table/2/?act=fold")
    axe(page)
    screenshot(page, "teach-zh-why")
    play_through(page, live_server.url, screenshot, "teach-zh")
    expect(page.locator(".result")).to_contain_text("走")
    expect(page.locator(".result__nets")).to_contain_text("你：+21")
    axe(page)
    # The invitation starts a practice table with three simple bots.
    page.locator("[data-course-next]").click()
    expect(page.locator(".seat")).to_have_count(4)
    assert "/table/" in page.url
    expect(page.locator(".seat__name small").first).to_have_text("初级")


@pytest.mark.parametrize(("lang", "size"), [("zh", "phone"), ("en", "desktop"), ("en", "phone")])
def test_teaching_table_languages_and_sizes(live_server: Any, browser_page: Any, screenshot: Any,
                                            lang: str, size: str) -> None:
    page = browser_page
    if size == "phone":
        page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/lang/?language={'zh-hans' if lang == 'zh' else 'en'}"
              "&next=/course/")
    play_through(page, live_server.url, screenshot, f"teach-{lang}-{size}")
    expect(page.locator(".course-done")).to_contain_text(
        "第一手打完了" if lang == "zh" else "first hand")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_teaching_table_without_javascript(live_server: Any, chromium_browser: Any) -> None:
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/course/table/5/")
        page.get_by_role("button", name="翻开").click()  # the squeeze without a script
        expect(page).to_have_url(re.compile(r"/course/table/6/\??$"))
        page.locator('button[data-act="tuo"]').click()  # 拖 to 40 is the suggested bet
        expect(page).to_have_url(f"{live_server.url}/course/table/7/")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_no_sideways_scrolling_at_360px(live_server: Any, browser_page: Any, lang: str) -> None:
    page = browser_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/lang/?language={lang}&next=/course/")
    for url in ["/", "/course/", "/course/settle/", "/course/settle/1/?seed=5",
                "/course/split/1/?seed=5", "/course/cards/1/?seed=5",
                *[f"/course/table/{n}/" for n in range(1, len(teaching.stops()) + 1)]]:
        page.goto(live_server.url + url)
        found = page.evaluate(MEASURE)
        assert found["scrollWidth"] <= 360, (url, found)
        assert not found["narrow"], (url, found["narrow"])  # no text broken after each character


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_finishing_the_teaching_table_marks_it_done(live_server: Any, browser_page: Any,
                                                    screenshot: Any, lang: str) -> None:
    page = browser_page
    page.goto(f"{live_server.url}/lang/?language={'zh-hans' if lang == 'zh' else 'en'}"
              "&next=/course/")
    step = page.locator(".course-map__step--table")
    expect(step).not_to_have_class(re.compile("course-map__step--done"))
    play_through(page, live_server.url, screenshot, f"teach-done-{lang}")
    played = "打完了" if lang == "zh" else "Played"
    for address in ("/course/", "/"):
        page.goto(live_server.url + address)
        expect(step).to_have_class(re.compile("course-map__step--done"))
        expect(step.locator(".course-map__state")).to_have_text(played)
        # 下一步 still leads to the first lesson (none of them is done yet)
        first = f"/course/{course.lessons()[0].slug}/"
        expect(page.locator("[data-course-next]")).to_have_attribute("href", first)
    screenshot(page, f"teach-done-{lang}-home")
