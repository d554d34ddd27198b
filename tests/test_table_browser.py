"""The practice table in a real browser: whole hands to settlement, with the squeeze
(keyboard and no-JS fallback) and the split by clicking cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.game import Act, Action
from tests.tables import at_showdown, game_of, open_table, save_game, wait_for_result
from tests.test_phone_browser import MEASURE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STRONG_BOTS = {0: ["R3", "JK", "B10", "B4"], 1: ["RQ", "RQ", "R2", "R2"],
               2: ["R8", "R8", "R4", "R4"]}


def stack(url: str, hands: dict[int, list[str]]) -> None:
    """Deal the first hand with these cards; the human (seat 0) speaks first."""
    game = game_of(url)
    game.state.dealer = game.state.config["dealer"] = 1  # as if the table began so
    before = game.to_dict()  # the hand's replay starts here
    game.apply(Action(Act.DEAL, cards=game.stacked_deck(hands)))
    save_game(url, game, before)


def play_hand(page: Any, screenshot: Callable[..., Any], squeeze_keys: bool = True) -> None:
    """Call/open until the showdown; squeeze; split the first two cards together."""
    squeezed = False
    for _ in range(80):
        if page.locator(".result").count():
            return
        if page.locator(".squeeze__cover").count():
            screenshot(page, "table-squeeze-start")
            cover = page.locator(".squeeze__cover")
            if squeeze_keys:
                cover.focus()
                for _step in range(5):
                    page.keyboard.press("ArrowDown")
                assert cover.get_attribute("aria-valuenow") == "5"
                screenshot(page, "table-squeeze-half")
                for _step in range(5):
                    page.keyboard.press("ArrowDown")
            else:
                page.click(".squeeze__form button")
            page.wait_for_selector(".squeeze__cover", state="detached")
            squeezed = True
            continue
        if page.locator(".split").count():
            screenshot(page, "table-split")
            page.click(".split a:has-text('提示')")
            page.wait_for_selector(".hint")
            picks = page.locator(".split__pick")
            picks.nth(0).click()
            picks.nth(1).click()
            page.click(".split button:has-text('扯')")
            wait_for_result(page)
            assert squeezed
            return
        raise_button = page.locator("button[data-act=raise]")
        if raise_button.count() and page.locator("button[data-act=check]").count():
            raise_button.click()  # 发招 in rounds 2–3 so that the hand goes on
        elif page.locator("button[data-act=call]").count():
            page.click("button[data-act=call]")
        elif page.locator("button[data-act=check]").count():
            page.click("button[data-act=check]")  # too few chips left to 发招
        else:
            page.wait_for_timeout(400)  # the bots act, one per 0.7 s
            continue
        page.wait_for_timeout(300)
    pytest.fail("the hand did not finish")


def test_whole_hand_with_squeeze_and_split(browser_page: Any, live_server: Any,
                                           screenshot: Callable[..., Any],
                                           axe: Callable[..., Any]) -> None:
    page = browser_page
    url = open_table(page, live_server, "strong")
    stack(url, STRONG_BOTS)
    page.goto(url)
    screenshot(page, "table-round1")
    axe(page)
    assert page.locator("button[data-act=call]").count() == 1
    play_hand(page, screenshot)
    result = page.locator(".result")
    assert "吃皮" in result.inner_text()
    assert page.locator(".transfers tr").count() >= 2
    screenshot(page, "table-result")
    axe(page)
    # the next hand starts with one click; a reload keeps everything
    page.click("button:has-text('下一手')")
    page.wait_for_selector(".seat--turn")
    page.reload()
    assert page.locator(".board__info").inner_text().count("第 2 手") == 1
    page.goto(url + "history")
    assert "第 1 手" in page.inner_text("main")
    page.click("a:has-text('回放')")
    page.wait_for_selector(".replay")
    screenshot(page, "table-history")


def test_whole_hand_without_javascript(nojs_page: Any, live_server: Any,
                                       screenshot: Callable[..., Any]) -> None:
    page = nojs_page
    url = open_table(page, live_server, "strong")
    stack(url, STRONG_BOTS)
    page.goto(url)
    for _ in range(80):
        if page.locator(".result").count():
            break
        if page.locator(".bot-step").count():
            page.click(".bot-step button")  # no polling without JS: step by hand
            continue
        if page.locator(".squeeze__form").count():
            page.click(".squeeze__form button")
            continue
        if page.locator(".split").count():
            page.locator(".split__pick input").nth(0).check()
            page.locator(".split__pick input").nth(2).check()
            page.click(".split button:has-text('扯')")
            continue
        if page.locator("button[data-act=raise]").count() and \
                page.locator("button[data-act=check]").count():
            page.click("button[data-act=raise]")
        elif page.locator("button[data-act=check]").count():
            page.click("button[data-act=check]")  # too few chips left to 发招
        else:
            page.click("button[data-act=call]")
    assert page.locator(".result").count() == 1
    screenshot(page, "table-nojs-result")


@pytest.mark.allow_http_errors  # the refusal is the point
def test_stale_tab_is_told(browser_page: Any, live_server: Any) -> None:
    page = browser_page
    url = open_table(page, live_server, "strong")
    stack(url, STRONG_BOTS)
    page.goto(url)
    other = page.context.new_page()
    other.goto(url)
    other.click("button[data-act=call]")
    other.wait_for_timeout(300)
    page.click("button[data-act=fold]")  # this tab is now stale
    page.wait_for_selector(".table-error")
    assert "过期" in page.inner_text(".table-error")
    other.close()


def fits(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_HEIGHT


PHONE_HEIGHT = 844


@pytest.mark.parametrize("bots", [2, 5])
def test_phone_layout(phone_page: Any, live_server: Any, screenshot: Callable[..., Any],
                      bots: int) -> None:
    """At 390×844 the learner's cards and the panel that asks them to act show together,
    without scrolling (the opponents are one compact line each)."""
    url = open_table(phone_page, live_server, "simple", bots)
    stack(url, STRONG_BOTS)
    phone_page.goto(url)
    phone_page.wait_for_selector(".actions")
    screenshot(phone_page, f"table-phone-{bots}", full_page=False)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400
    for selector in (".seat--me .seat__cards", ".actions button[data-act=call]",
                     ".actions button[data-act=fold]"):
        assert fits(phone_page, selector), selector
    screenshot(phone_page, f"table-phone-{bots}-full")


def test_phone_result_splits_fit_in_english(phone_page: Any, live_server: Any,
                                            screenshot: Callable[..., Any]) -> None:
    """At 360 px a finished hand's splits (头 | 尾, cards, group names glossed in English)
    stay inside the result panel: nothing is cut off at its right edge, the 头/尾 label
    is one line, no name breaks after every character, the page does not scroll sideways
    and the transfers are stacked rows."""
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 780})
    url = open_table(page, live_server, "simple", 2)
    at_showdown(url, {0: ["RQ", "B9", "R8", "R7"], 1: ["B10", "B4", "R6", "B6"],
                      2: ["R2", "R2", "B8", "R3"]})
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(url)
    picks = page.locator(".split__pick")
    picks.nth(0).click()
    picks.nth(1).click()
    page.locator(".split form button[type=submit]").first.click()
    wait_for_result(page, ".result__splits")
    page.locator(".result").scroll_into_view_if_needed()
    screenshot(page, "table-phone-360-en-result")
    cut = page.evaluate("""() => {
      const panel = document.querySelector('.result').getBoundingClientRect();
      const out = [];
      for (const el of document.querySelectorAll('.result__splits li, .result__splits li *')) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.right > panel.right + 0.5 || r.left < panel.left - 0.5)) {
          out.push(`${el.className || el.tagName} ${Math.round(r.left)}–${Math.round(r.right)}`);
        }
      }
      return out.slice(0, 8);
    }""")
    found = page.evaluate(MEASURE)  # no sideways scroll, no name one character per line
    assert not cut and not found["wide"] and not found["narrow"], (cut, found)
    # every transfer is a stacked, labelled row (its "why" is not squeezed into a column)
    assert page.locator(".transfers td").first.evaluate(
        "td => getComputedStyle(td).display") == "block"
    for group in page.locator(".result__group").all():  # "Head (头 tóu)" is one line
        label = group.locator(".result__part")
        assert label.count() == 1 and label.evaluate(
            "el => el.getClientRects().length") == 1, group.inner_text()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_split_hint_fits_a_phone(phone_page: Any, live_server: Any,
                                     screenshot: Callable[..., Any], language: str) -> None:
    """At 390 px the hint's six columns made the whole page 540 px wide (447 in Chinese);
    then they scrolled inside their own box, 吃/走/死 out of sight. Now each split is a
    stacked, labelled row: nothing to scroll."""
    page = phone_page
    url = open_table(page, live_server, "simple", 2)
    at_showdown(url)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(url + "?hint=1")
    page.wait_for_selector(".hint")
    screenshot(page, f"table-phone-hint-{language}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width
    box = page.evaluate("""() => { const b = document.querySelector('.table-scroll');
      return [b.scrollWidth, b.clientWidth, b.getBoundingClientRect().right]; }""")
    assert box[2] <= page.viewport_size["width"], box
    assert box[0] <= box[1] + 1, box  # the box has nothing to scroll either
