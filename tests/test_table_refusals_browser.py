"""A refused move keeps the board and says why, with and without JavaScript (issue 15):
one card ticked for a split, a re-buy far over the limit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tables import at_showdown, game_of, open_table, table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.allow_http_errors]


@pytest.fixture(params=["js", "nojs"])
def page(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield request.getfixturevalue("browser_page" if request.param == "js" else "nojs_page")


def refused(page: Any, url: str, message: str) -> None:
    """The whole page is still there: the site's header, the board, the message in it."""
    expect(page.locator("#board .table-error")).to_contain_text(message)
    assert page.locator(".site-header").count() == 1
    assert page.locator("#board .seats .seat").count() == 3
    assert page.locator("link[rel=stylesheet]").count() >= 1
    assert page.locator("#board").count() == 1
    # htmx is configured (base.html's htmx-config meta) to add no <style> of its own,
    # which the strict CSP would refuse with a console error
    assert page.evaluate("document.querySelectorAll('style, [style]').length") == 0


def test_split_with_one_card(page: Any, live_server: Any,
                             screenshot: Callable[..., Any]) -> None:
    url = open_table(page, live_server, "simple")
    at_showdown(url)
    page.goto(url)
    before = table_of(url).state
    page.locator(".split__pick input").nth(0).check()
    page.click(".split button:has-text('扯')")
    refused(page, url, "两张")
    assert page.locator(".split__pick").count() == 4  # the split panel is still there
    assert table_of(url).state == before
    screenshot(page, "table-refused-split")


def test_rebuy_over_the_limit(page: Any, live_server: Any,
                              screenshot: Callable[..., Any]) -> None:
    url = open_table(page, live_server, "simple")
    page.goto(url)
    rebuy = page.locator("#rebuy-amount")
    assert rebuy.get_attribute("min") == "50" and rebuy.get_attribute("max")
    page.evaluate("document.getElementById('rebuy-amount').removeAttribute('max')")
    rebuy.fill("100000000")
    page.click("button:has-text('添')")
    refused(page, url, "补钵钵")
    assert "amount" not in page.inner_text(".table-error")
    assert game_of(url).seats[0].bobo == 100
    screenshot(page, "table-refused-rebuy")
