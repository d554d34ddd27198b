"""A refused move keeps the board and says why, with and without JavaScript (issue 15),
and with DEBUG on as under `make run` (issue 23: django-htmx's DEBUG helper replaced the
whole document with any 4xx answer): one card ticked for a split, a re-buy far over the
limit, a 返 over the board's limit; 提示 after a refusal opens the hint."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.game import Act, Action
from tests.tables import at_showdown, game_of, open_table, save_game, table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.allow_http_errors]


@pytest.fixture(params=["js", "nojs", "js-debug"])
def page(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "js-debug":
        request.getfixturevalue("settings").DEBUG = True  # the live server's too
    yield request.getfixturevalue("nojs_page" if request.param == "nojs" else "browser_page")


def swapped(page: Any, url: str) -> None:
    """With JavaScript the refusal was swapped into the page (still at the table's address,
    the controls still htmx's); without it, the refused POST's answer is the page."""
    if page.evaluate("!!window.htmx"):
        expect(page).to_have_url(url)
        assert page.locator("#board form[hx-post]").count() >= 1


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
    swapped(page, url)
    assert page.locator(".split__pick").count() == 4  # the split panel is still there
    assert table_of(url).state == before
    screenshot(page, "table-refused-split")
    page.click("a:has-text('提示')")  # at …/act without JavaScript: still the table's hint
    expect(page.locator("#board table.hint")).to_be_visible()
    assert page.locator(".hint--best").count() >= 1


def test_rebuy_over_the_limit(page: Any, live_server: Any,
                              screenshot: Callable[..., Any]) -> None:
    url = open_table(page, live_server, "simple")
    page.goto(url)
    rebuy = page.locator("#rebuy-amount")
    assert rebuy.get_attribute("min") == "50" and rebuy.get_attribute("max") == "1000000"
    assert page.inner_text("#rebuy-limits") == "最少 50，最多 1,000,000"
    page.evaluate("document.getElementById('rebuy-amount').removeAttribute('max')")
    rebuy.fill("100000000")
    page.click("button:has-text('添')")
    refused(page, url, "补钵钵")
    swapped(page, url)
    assert "最多 1,000,000" in page.inner_text(".table-error")
    assert "amount" not in page.inner_text(".table-error")
    assert game_of(url).seats[0].bobo == 100
    screenshot(page, "table-refused-rebuy")


def test_raise_over_the_board_limit(page: Any, live_server: Any,
                                    screenshot: Callable[..., Any]) -> None:
    url = open_table(page, live_server, "simple")
    game = game_of(url)
    game.state.dealer = 1  # with two bots the learner speaks first
    game.apply(Action(Act.DEAL, cards=game.stacked_deck({})))
    save_game(url, game)
    page.goto(url)
    raise_field = page.locator("#raise-amount")
    limits = page.inner_text("#raise-limits")
    high = raise_field.get_attribute("max")
    assert f"最多 {high}" in limits
    before = table_of(url).state
    page.evaluate("document.getElementById('raise-amount').removeAttribute('max')")
    raise_field.fill("99999999")
    page.click("button.act--raise")
    refused(page, url, f"返到多少：数字太大，最多 {high}")
    swapped(page, url)
    assert table_of(url).state == before
    screenshot(page, "table-refused-raise")
