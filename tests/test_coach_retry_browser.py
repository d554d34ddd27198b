"""再来一次 with a 返 of one's own amount in a real browser: the form asks a worker (a
POST), htmx polls and swaps the graded answer in (Chinese, desktop; English, phone), a
refused amount shows its message, and without JavaScript the page says it is being
computed with a link to look again. Screenshots and axe."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.coach_hands import coached
from tests.test_coach_browser import own, refresh_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """One hand played through the views; (table id, the owner's session cookie)."""
    client, tid = coached(monkeypatch, 1, 60)
    return tid, client.cookies["sessionid"].value


def own_amount(page: Any) -> int:
    """An amount the review did not price (one above the minimum 返)."""
    low = int(page.locator("#raise-amount").get_attribute("min"))
    high = int(page.locator("#raise-amount").get_attribute("max"))
    assert low + 1 < min(2 * low, high)
    return low + 1


@pytest.mark.allow_http_errors
def test_own_raise_with_htmx(live_server: Any, browser_page: Any, table: tuple[str, str],
                             screenshot: Any, axe: Any) -> None:
    tid, cookie = table
    page = browser_page
    own(page, live_server, cookie)
    url = f"{live_server.url}/coach/{tid}/1/retry/0/"
    page.goto(url)
    expect(page.locator("#raise-busy")).to_be_hidden()  # not just transparent (axe, readers)
    axe(page)
    amount = own_amount(page)
    page.get_by_label("或者返到你自己定的数").fill(str(amount))
    page.get_by_role("button", name="返到这个数").click()
    expect(page.locator("#answer .coach-verdict")).to_contain_text(f"返 {amount}", timeout=60000)
    expect(page.locator("#answer .coach-options__chosen th")).to_contain_text(
        re.compile(rf"返 {amount}( 最好)? 你选的"))  # then the continuation, on a line of its own
    expect(page.locator("#answer .coach-why")).to_contain_text("的牌局会赢钱")
    expect(page).to_have_url(url)  # swapped, not loaded
    expect(page.locator("#raise-busy")).to_be_hidden()  # no half-faded text for axe to find
    axe(page)
    screenshot(page, "coach-retry-raise-zh")
    # past the browser's own checks, the server's refusal is swapped in with its message
    page.locator("#raise-amount").evaluate("e => { e.removeAttribute('min'); }")
    page.get_by_label("或者返到你自己定的数").fill("1")
    page.get_by_role("button", name="返到这个数").click()
    expect(page.locator("#answer [role=alert]")).to_contain_text("返招至少要到")
    expect(page.locator("#answer .coach-verdict")).to_have_count(0)
    axe(page)


def test_own_raise_english_phone(live_server: Any, phone_page: Any, table: tuple[str, str],
                                 screenshot: Any, axe: Any) -> None:
    tid, cookie = table
    page = phone_page
    own(page, live_server, cookie, "en")
    page.goto(f"{live_server.url}/coach/{tid}/1/retry/0/")
    amount = own_amount(page)
    page.get_by_label("Or raise (返) to an amount of your own").fill(str(amount))
    page.get_by_role("button", name="Raise to this").click()
    expect(page.locator("#answer .coach-verdict")).to_contain_text("You chose", timeout=60000)
    expect(page.locator("#answer")).to_contain_text("priced afresh")
    axe(page)
    screenshot(page, "coach-retry-raise-en-phone")


def test_own_raise_without_javascript(live_server: Any, nojs_page: Any,
                                      table: tuple[str, str]) -> None:
    tid, cookie = table
    page = nojs_page
    own(page, live_server, cookie)
    page.goto(f"{live_server.url}/coach/{tid}/1/retry/0/")
    amount = own_amount(page)
    page.get_by_label("或者返到你自己定的数").fill(str(amount))
    page.get_by_role("button", name="返到这个数").click()
    expect(page).to_have_url(f"{live_server.url}/coach/{tid}/1/retry/0/raise?amount={amount}")
    refresh_until(page, page.locator("#answer .coach-verdict"))  # a worker prices it
    expect(page.locator("#answer .coach-verdict")).to_contain_text(f"返 {amount}")


@pytest.mark.allow_http_errors
def test_refused_amount_with_debug_on(live_server: Any, browser_page: Any,
                                      table: tuple[str, str], settings: Any) -> None:
    """`make run` has DEBUG=1: the refusal is still swapped into the answer, not the page."""
    settings.DEBUG = True
    tid, cookie = table
    page = browser_page
    own(page, live_server, cookie)
    url = f"{live_server.url}/coach/{tid}/1/retry/0/"
    page.goto(url)
    page.locator("#raise-amount").evaluate("e => { e.removeAttribute('min'); }")
    page.get_by_label("或者返到你自己定的数").fill("1")
    page.get_by_role("button", name="返到这个数").click()
    expect(page.locator("#answer [role=alert]")).to_contain_text("返招至少要到")
    expect(page).to_have_url(url)
    assert page.locator(".site-header").count() == 1


@pytest.mark.allow_http_errors
def test_over_the_compute_limit(live_server: Any, browser_page: Any, nojs_page: Any,
                                table: tuple[str, str], settings: Any, screenshot: Any,
                                axe: Any) -> None:
    """A 返 asked for over the rate limit: with htmx a short message in the answer's place
    (the page around it stays, and the form works again once the limit allows); without
    JavaScript the 429 page."""
    tid, cookie = table
    page = browser_page
    own(page, live_server, cookie)
    url = f"{live_server.url}/coach/{tid}/1/retry/0/"
    page.goto(url)
    amount = own_amount(page)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "compute": (0, 60)}
    for _ in range(2):  # a second refusal replaces the first
        page.get_by_label("或者返到你自己定的数").fill(str(amount))
        page.get_by_role("button", name="返到这个数").click()
        expect(page.locator("#answer .limit-refusal[role=alert]")).to_contain_text("秒后再试")
        expect(page.locator(".limit-refusal")).to_have_count(1)
    expect(page).to_have_url(url)
    assert page.locator(".site-header").count() == 1 and page.locator("#answer").count() == 1
    expect(page.locator("#htmx-status")).to_have_count(0)  # not "something went wrong"
    axe(page)
    screenshot(page, "coach-retry-rate-limited")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "compute": (60, 60)}
    page.get_by_role("button", name="返到这个数").click()
    expect(page.locator("#answer .coach-verdict")).to_contain_text(f"返 {amount}", timeout=60000)
    expect(page.locator(".limit-refusal")).to_have_count(0)

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "compute": (0, 60)}
    own(nojs_page, live_server, cookie)
    nojs_page.goto(url)
    nojs_page.get_by_label("或者返到你自己定的数").fill(str(amount + 1))
    nojs_page.get_by_role("button", name="返到这个数").click()
    expect(nojs_page.get_by_role("heading", level=1)).to_have_text("请求太频繁了")
    expect(nojs_page.locator(".site-header")).to_have_count(1)
