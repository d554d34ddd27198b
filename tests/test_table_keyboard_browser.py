"""The practice table without a mouse, in a real browser: the squeeze as you would squeeze
a real card, refusals under htmx (one message, in the board, nothing changed), a whole
hand by keyboard only, and axe after every kind of htmx swap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.game import Act, Action, Game
from tests.tables import open_table, save_game, table_of, wait_for_result
from tests.test_table_i18n import everyone_calls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = {0: ["RQ", "B9", "R8", "R8"], 1: ["B5", "B7", "B6", "B4"],
         2: ["B8", "R7", "R6", "R3"]}


def deal(url: str, hands: dict[int, list[str]] = HANDS) -> Game:
    """Deal the next hand with these cards; the human (seat 0) speaks first."""
    game = Game.from_dict(table_of(url).state)
    game.state.dealer = game.state.config["dealer"] = 1
    game.apply(Action(Act.DEAL, cards=game.stacked_deck(hands)))
    save_game(url, game)
    return game


def to_round3(url: str, game: Game) -> None:
    everyone_calls(game, until_round=3)
    save_game(url, game)


def quiesce(page: Any) -> None:
    """Let the bots finish their steps, then leave, so no request outlives the test."""
    page.wait_for_selector(".bot-step", state="detached", timeout=20_000)
    page.goto("about:blank")


def settle_transitions(page: Any) -> None:
    page.wait_for_timeout(450)  # the cover's transition is 0.25 s


def test_squeeze_reveals_the_corner_first(browser_page: Any, live_server: Any,
                                          screenshot: Callable[..., Any]) -> None:
    page = browser_page
    url = open_table(page, live_server, "simple")
    to_round3(url, deal(url))
    page.goto(url)
    cover = page.locator(".squeeze__cover")
    stage = page.locator("#squeeze")  # the panel: the focus ring is around the stage
    cover.focus()
    settle_transitions(page)
    stage.screenshot(path=str(screenshot(page, "table-squeeze-0")))
    # the card is not in the page until the learner starts to squeeze: then it is fetched
    assert page.locator(".squeeze__card .card--back").count() == 1
    assert page.locator(".squeeze__card [data-card]").count() == 0
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    settle_transitions(page)
    assert cover.get_attribute("aria-valuenow") == "4"
    expect(page.locator(".squeeze__card [data-card]")).to_have_count(1)
    stage.screenshot(path=str(screenshot(page, "table-squeeze-40")))
    for _ in range(4):
        page.keyboard.press("ArrowDown")
    settle_transitions(page)
    assert cover.get_attribute("aria-valuenow") == "8"
    stage.screenshot(path=str(screenshot(page, "table-squeeze-80")))


# ---------------------------------------------------------------- refusals under htmx
def _state(url: str) -> tuple[int, Any]:
    table = table_of(url)
    return table.seq, table.state


@pytest.mark.allow_http_errors  # the refusal is the point
def test_tampered_value_shows_one_message_in_the_board(browser_page: Any, live_server: Any,
                                                       screenshot: Callable[..., Any],
                                                       axe: Callable[..., Any]) -> None:
    page = browser_page
    url = open_table(page, live_server, "simple")
    deal(url)
    page.goto(url)
    before = _state(url)
    # a raise below the minimum, past the browser's own checks (as a tampered form would be)
    page.evaluate("""() => {
        const input = document.getElementById('raise-amount');
        input.removeAttribute('min'); input.value = '9';
    }""")
    with page.expect_response(lambda r: r.url.endswith("/act")) as response:
        page.click("button[data-act=raise]")
    assert response.value.status == 400
    page.wait_for_selector("#board .table-error")
    assert page.locator(".table-error").count() == 1
    assert page.locator("#htmx-status").count() == 0  # the site-wide "went wrong" stays quiet
    text = page.inner_text(".table-error")
    assert "返招至少要到 10" in text and "Not allowed" not in text
    page.wait_for_function("() => document.activeElement.classList.contains('table-error')")
    assert _state(url) == before
    assert page.locator("button[data-act=call]").count() == 1  # still your turn
    screenshot(page, "table-error-400")
    axe(page)
    # the next good action clears the message
    page.click("button[data-act=call]")
    page.wait_for_selector(".table-error", state="detached")


@pytest.mark.allow_http_errors  # the refusal is the point
def test_stale_tab_shows_one_message_and_changes_nothing(browser_page: Any, live_server: Any,
                                                         screenshot: Callable[..., Any],
                                                         axe: Callable[..., Any]) -> None:
    page = browser_page
    url = open_table(page, live_server, "simple")
    game = deal(url)
    page.goto(url)
    game.apply(Action(Act.CALL, 0))  # "another tab" calls
    save_game(url, game)
    before = _state(url)
    with page.expect_response(lambda r: r.url.endswith("/act")) as response:
        page.click("button[data-act=fold]")
    assert response.value.status == 409
    assert _state(url) == before  # read before the bots' next step (0.7 s later)
    page.wait_for_selector("#board .table-error")
    assert page.locator(".table-error").count() == 1
    assert page.locator("#htmx-status").count() == 0
    assert "过期" in page.inner_text(".table-error")
    assert not Game.from_dict(table_of(url).state).hand.folded[0]  # type: ignore[union-attr]
    # the board now shows the current table: the bots are to move
    assert page.locator(".bot-step").count() == 1
    screenshot(page, "table-error-409")
    axe(page)
    # a refusal stays readable: the bots wait longer before the next swap
    assert 'load delay:4s' in page.inner_html("#board")
    quiesce(page)


# ---------------------------------------------------------------- keyboard only
def _focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate(
        "(s) => !!document.activeElement && document.activeElement.matches(s)", selector))


def _focus_is_visible(page: Any) -> bool:
    return bool(page.evaluate("""() => {
        const el = document.activeElement;
        if (!el || el === document.body) return false;
        const look = (e) => { const s = getComputedStyle(e);
            return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; };
        if (look(el)) return true;
        const stage = el.closest('.squeeze__stage');  // the squeeze shows it on its stage
        return !!stage && look(stage);
    }"""))


def tab_to(page: Any, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is on ``selector``; every stop shows a focus ring."""
    for _ in range(limit):
        if _focused(page, selector):
            assert _focus_is_visible(page), selector
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {selector}")


def split_by_keyboard(page: Any, first: int, second: int) -> None:
    """Tick the ``first`` and ``second`` cards as the 头 with Space, submit with Enter."""
    for n in (first, second):
        tab_to(page, f".split__pick:nth-of-type({n}) input")
        page.keyboard.press("Space")
    tab_to(page, ".split button[type=submit]")
    page.keyboard.press("Enter")
    wait_for_result(page)


def _wait_for_turn(page: Any) -> str:
    """Wait until the human has something to do; say what."""
    for _ in range(100):
        for name, selector in (("result", ".result"), ("squeeze", ".squeeze__cover"),
                               ("split", ".split__pick"), ("act", ".actions button")):
            if page.locator(selector).count():
                return name
        page.wait_for_timeout(200)
    pytest.fail("the bots never finished")


def test_whole_table_by_keyboard(browser_page: Any, live_server: Any,
                                 screenshot: Callable[..., Any],
                                 axe: Callable[..., Any]) -> None:
    page = browser_page
    page.goto(f"{live_server.url}/table/")
    tab_to(page, "#bots")
    page.keyboard.press("ArrowDown")  # 3 → 4 bots … then back to 2
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    tab_to(page, "input[name=level][value=simple]")  # beginners start at the simple level
    page.keyboard.press("ArrowDown")  # radio group: simple → strong → back to simple
    assert page.is_checked("input[name=level][value=strong]")
    page.keyboard.press("ArrowUp")
    assert page.is_checked("input[name=level][value=simple]")
    tab_to(page, "button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board")
    url = str(page.url)
    assert len(Game.from_dict(table_of(url).state).seats) == 3
    # the first hand is stacked so that every step happens; the human speaks first
    deal(url, {0: ["R3", "JK", "B10", "B4"], 1: ["RQ", "RQ", "R2", "R2"],
               2: ["R8", "R8", "R4", "R4"]})
    page.reload()
    done: list[str] = []
    for _ in range(40):
        what = _wait_for_turn(page)
        if what == "result":
            break
        if what == "squeeze":
            axe(page)  # after the swap that brought the squeeze
            tab_to(page, ".squeeze__cover")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowDown")
            assert page.get_attribute(".squeeze__cover", "aria-valuenow") == "2"
            page.keyboard.press("End")
            page.wait_for_selector(".squeeze__cover", state="detached")
            done.append("squeeze")
            continue
        if what == "split":
            axe(page)
            split_by_keyboard(page, 1, 2)
            done.append("split")
            break
        if done == ["call"]:
            axe(page)  # mid-hand, after the bots' swaps
        seq = table_of(url).seq
        if "call" not in done and page.locator("button[data-act=call]").count():
            tab_to(page, "button[data-act=call]")
            page.keyboard.press("Enter")
            done.append("call")
        elif "raise" not in done and page.locator("#raise-amount").count():
            tab_to(page, "#raise-amount")
            minimum = int(page.get_attribute("#raise-amount", "min"))
            page.keyboard.press("Control+A")
            page.keyboard.type(str(minimum + 1))
            page.keyboard.press("Enter")
            done.append("raise")
        elif "tuo" not in done and page.locator("button[data-act=tuo]").count():
            tab_to(page, "button[data-act=tuo]")
            page.keyboard.press("Space")
            done.append("tuo")
        elif page.locator("button[data-act=call]").count():
            tab_to(page, "button[data-act=call]")
            page.keyboard.press("Enter")
        else:  # nobody has bet this round: open (发招) rather than 休过河
            act = next(a for a in ("raise", "tuo", "qiao", "check")
                       if page.locator(f"button[data-act={a}]").count())
            tab_to(page, f"button[data-act={act}]")
            page.keyboard.press("Enter")
            done.append(act)
        page.wait_for_selector(f"#board:not([data-seq='{seq}'])")
    assert {"call", "raise", "squeeze", "split"} <= set(done), done
    assert page.locator(".result").count() == 1
    screenshot(page, "table-keyboard-result")
    axe(page)
    # the next hand from the keyboard; then 敲 (all in) and, in the hand after, 甩
    for act in ("qiao", "fold"):
        page.wait_for_selector(".between")  # between hands, after any bot's re-buy
        if page.locator(".between", has_text="钵钵空了").count():  # the 敲 lost everything
            seq = table_of(url).seq
            tab_to(page, "#rebuy-amount")
            page.keyboard.press("Enter")  # re-buy the minimum, from the keyboard too
            page.wait_for_selector(f"#board:not([data-seq='{seq}'])")
        page.wait_for_selector("button.act--deal")
        tab_to(page, "button.act--deal")
        page.keyboard.press("Enter")
        page.wait_for_selector(".result", state="detached")
        for _ in range(40):
            what = _wait_for_turn(page)
            if what == "act" and page.locator(f"button[data-act={act}]").count():
                seq = table_of(url).seq
                tab_to(page, f"button[data-act={act}]")
                page.keyboard.press("Enter")
                page.wait_for_selector(f"#board:not([data-seq='{seq}'])")
                done.append(act)
                break
            if what == "result":
                break
            pytest.fail(f"unexpected {what} before {act}")
        for _ in range(40):
            what = _wait_for_turn(page)
            if what == "result":
                break
            if what == "squeeze":
                tab_to(page, ".squeeze__cover")
                page.keyboard.press("End")
                page.wait_for_selector(".squeeze__cover", state="detached")
            elif what == "split":
                split_by_keyboard(page, 1, 3)
            else:
                pytest.fail(f"the human had to act after {act}")
    assert "fold" in done or "qiao" in done, done
    quiesce(page)
