"""Accessibility of every page type in a real browser, in Chinese and in English.

* axe-core (the ``axe`` fixture: no serious or critical violation) on every page type,
  and again after each htmx swap: search results, a quiz answer's feedback, a
  walkthrough step change, a table action, a calculator result;
* keyboard: Tab reaches every focusable element in order, each one shows a visible focus
  indicator (its computed outline / box-shadow / border differs from the unfocused
  state) and Tab never gets stuck (no keyboard trap).  The table's keyboard-only play
  is tested in tests/test_table_keyboard_browser.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.game import Act, Action, Game
from tutorial import walkthroughs as wt
from tutorial.models_table import PracticeTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CALC_RESULT = ("/calc/?p=%E8%80%81%E7%8E%8B:100:B10,B9,R3,B6:0&p=%E4%B9%99:80:R2,R7,BJ,B8:0"
               "&p=Anna:60:fold")


def _walkthrough_steps() -> list[str]:
    """One step of each step kind."""
    urls, seen = [], set()
    for entry in wt.content()["walkthroughs"]:
        walkthrough = wt.get_walkthrough(entry["slug"])
        assert walkthrough is not None
        for n, step in enumerate(walkthrough.steps, 1):
            if step.kind not in seen:
                seen.add(step.kind)
                urls.append(f"/walkthroughs/{entry['slug']}/{n}/")
    return urls


STATIC_PAGES = [
    "/", "/cards/", "/pairs/", "/pairs/?q=zzzz", "/pairs/RQ-B9/", "/rules/", "/splits/",
    "/quiz/", "/quiz/review/", "/quiz/progress/",
    *[f"/quiz/{slug}/?seed=7&level=1"
      for slug in ("bigger", "order", "name", "cards", "split", "showdown", "koujue")],
    "/quiz/name/?seed=7&level=3", "/quiz/cards/?seed=7&level=2",
    "/walkthroughs/", *_walkthrough_steps(),
    "/table/", "/calc/", CALC_RESULT, "/night/", "/glossary/", "/coach/",
]


def _english(page: Any, live_server: Any) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "en",
                               "url": live_server.url}])


def _open_table(page: Any, live_server: Any) -> str:
    """A table mid-hand: the start form, then the first hand dealt."""
    page.goto(f"{live_server.url}/table/")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_selector("#board")
    url = str(page.url)
    table = PracticeTable.objects.get(pk=uuid.UUID(url.rstrip("/").split("/")[-1]))
    game = Game.from_dict(table.state)
    game.state.dealer = 1  # with 2+ bots the visitor speaks first
    game.apply(Action(Act.DEAL))
    table.state, table.seq = game.to_dict(), game.seq
    table.save()
    return url


def _open_night(page: Any, live_server: Any) -> tuple[str, str]:
    """A night's organiser and read-only URLs, made through the form."""
    page.goto(f"{live_server.url}/night/")
    for i, name in enumerate(["甲", "老王", "Anna"], start=1):
        page.fill(f"#player{i}", name)
    page.fill("#end", "23:30")
    page.locator("form button[type=submit]").last.click()
    page.locator("#next-title").wait_for()
    organiser = str(page.url)
    view = str(page.input_value("#view-url"))
    return organiser, view


# Every page type, in a few parts (one test each) that pytest-xdist's workers share.
PAGES = [*STATIC_PAGES, "table", "night"]
PARTS = 4


def _page_urls(page: Any, live_server: Any, part: int) -> list[str]:
    """The URLs of one part of PAGES: the table mid-hand and the night's organiser and
    read-only pages are made when the part holds them."""
    urls = []
    for name in PAGES[part::PARTS]:
        if name == "table":
            urls.append(_open_table(page, live_server))
        elif name == "night":
            urls += _open_night(page, live_server)
        else:
            urls.append(live_server.url + name)
    return urls


# --------------------------------------------------------------------------- axe
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("language", ["zh", "en"])
def test_every_page_type_passes_axe(live_server: Any, browser_page: Any, axe: Any,
                                    language: str, part: int) -> None:
    page = browser_page
    if language == "en":
        _english(page, live_server)
    failures = []
    for url in _page_urls(page, live_server, part):
        page.goto(url)
        try:
            axe(page)
        except pytest.fail.Exception as e:
            failures.append(f"{url}: {e}")
    assert not failures, "\n".join(failures)


def _swap(page: Any, action: Callable[[], Any]) -> None:
    """Run ``action`` and wait until htmx has swapped the response in."""
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
        action()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, "
                           ".htmx-settling')")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_axe_after_htmx_swaps(live_server: Any, browser_page: Any, axe: Any,
                              screenshot: Callable[..., Any], language: str) -> None:
    page = browser_page
    if language == "en":
        _english(page, live_server)
    base = live_server.url

    # search results
    page.goto(base + "/pairs/")
    _swap(page, lambda: page.fill("#pair-q", "tgj"))
    assert "天官九" in page.inner_text("#pair-results")
    axe(page)
    _swap(page, lambda: page.fill("#pair-q", "zzzz"))
    axe(page)

    # a quiz answer's feedback
    page.goto(base + "/quiz/bigger/?seed=7&level=1")
    _swap(page, page.locator(".quiz-pick").first.click)
    page.locator(".quiz-verdict").wait_for()
    axe(page)
    screenshot(page, f"a11y-quiz-feedback-{language}")

    # a walkthrough step change
    page.goto(base + "/walkthroughs/xj-2p-1/1/")
    _swap(page, page.locator("a[rel=next]").first.click)
    assert page.url.endswith("/2/")
    axe(page)

    # a table action
    url = _open_table(page, live_server)
    page.goto(url)
    button = page.locator("#board form[hx-post$='/act'] button[type=submit]").first
    _swap(page, button.click)
    axe(page)
    screenshot(page, f"a11y-table-action-{language}")

    # a calculator result
    page.goto(base + CALC_RESULT.split("?")[0])
    for i, (name, stake, cards) in enumerate(
            [("甲", "100", "B10 B9 R3 B6"), ("乙", "80", "R2 R7 BJ B8")], start=1):
        page.fill(f"#n{i}", name)
        page.fill(f"#s{i}", stake)
        page.fill(f"#c{i}", cards)
    _swap(page, page.locator("#calc-form button[name=go]").click)
    assert page.locator("#calc-body").count()
    axe(page)
    screenshot(page, f"a11y-calc-result-{language}")


# --------------------------------------------------------------------------- keyboard
# After each Tab, in one round trip: where the focus is, and whether it shows — the
# focused element's computed outline / box-shadow / border / background (and its
# parent's: a ring may be drawn around a component with :has(:focus-visible)) compared
# with the same element blurred; the focus is then put back where it was.
FOCUS_INFO = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const style = () => [el, el.parentElement].map(e => { const s = getComputedStyle(e);
    return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor,
            s.backgroundColor, s.textDecorationLine].join('|'); }).join(' / ');
  let shows = true;
  if (window.__kbLast !== el) {  // (Tab inside a time input's fields: measured once)
    const focused = style();
    el.blur();
    const unfocused = style();
    el.focus({focusVisible: true, preventScroll: true});
    shows = focused !== unfocused;
  }
  window.__kbLast = el;
  const r = el.getBoundingClientRect();
  return {tag: el.tagName, shows: shows, visible: r.width > 0 && r.height > 0,
          text: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim()
            .slice(0, 40),
          key: el.tagName + '#' + el.id + '.' + el.className + ':' +
            (el.getAttribute('href') || el.getAttribute('name') || '') + ':' +
            Math.round(r.x + scrollX) + ',' + Math.round(r.y + scrollY)};
}"""
FOCUSABLE = """() => [...document.querySelectorAll(
  'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]')]
  .filter(el => !el.disabled && el.tabIndex >= 0 && !el.closest('[inert],[hidden]')
    && getComputedStyle(el).visibility !== 'hidden' && el.getClientRects().length).length"""


def _tab_through(page: Any, url: str | None) -> list[str]:
    """Tab from the top of the page (``url``, or the current one) to the end."""
    problems: list[str] = []
    if url is not None:
        page.goto(url)
    url = str(page.url)
    expected = page.evaluate(FOCUSABLE)
    seen: list[str] = []
    repeats = 0
    page.locator("body").focus()
    for _ in range(expected + 20):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUS_INFO)
        if info is None:  # focus left the document: the end of the tab order
            break
        if seen and info["key"] == seen[0]:
            break  # wrapped around to the start
        if seen and info["key"] == seen[-1]:
            # a date/time input takes a few Tabs (hours, minutes …); more is a trap
            repeats += 1
            if repeats > 4:
                problems.append(f"{url}: focus stuck on {info}")
                break
            continue
        repeats = 0
        seen.append(info["key"])
        if not info["shows"]:
            problems.append(f"{url}: no visible focus on {info['tag']} {info['text']!r}")
        if not info["visible"]:
            problems.append(f"{url}: focus on an invisible element {info}")
    if len(set(seen)) < min(expected, 3):
        problems.append(f"{url}: only {len(set(seen))} of {expected} elements reached")
    return problems


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("language", ["zh", "en"])
def test_keyboard_reaches_everything_with_visible_focus(
        live_server: Any, browser_page: Any, language: str, part: int) -> None:
    page = browser_page
    if language == "en":
        _english(page, live_server)
    problems: list[str] = []
    for url in _page_urls(page, live_server, part):
        if language == "en" and "?" not in url and url.endswith(("/cards/", "/rules/")):
            continue  # long pages of links, the same in both languages
        problems += _tab_through(page, url)
    assert not problems, "\n".join(problems)


def test_the_focus_check_catches_a_missing_indicator(live_server: Any,
                                                    browser_page: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/")
    page.evaluate("""() => document.querySelectorAll('.site-nav__link').forEach(a => {
        a.style.setProperty('outline', 'none', 'important');
        a.style.setProperty('box-shadow', 'none', 'important'); })""")
    problems = _tab_through(page, None)
    assert any("no visible focus on A" in p for p in problems), problems


def test_skip_link_is_first_and_moves_focus_to_main(live_server: Any,
                                                     browser_page: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/rules/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    expect(page.locator(".skip-link")).to_be_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
