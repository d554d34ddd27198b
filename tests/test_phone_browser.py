"""Phones: at 360 px no page type scrolls sideways, in Chinese or in English, and no text
is squeezed to one character per line.

Measured in Chromium (every <details> opened): the document is no wider than the viewport,
no table scrolls sideways in its box (a table that does not fit becomes stacked, labelled
rows; on /quiz/progress/, with a review card, and /squeeze/ every table is stacked), and no
text (a table cell, a label …) of three characters or more breaks after every
character.  Screenshots: tests/artifacts/phone-360-<lang>-<page>.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import quiz as q
from engine.rules import get_rules
from tests.test_site_walk import CALC_RESULT
from tutorial import walkthroughs as wt

PHONE_360 = {"width": 360, "height": 780}
RULES = get_rules("xuanjing")


def _first_steps() -> list[str]:
    """The first and a middle step of every kind of walkthrough."""
    urls: list[str] = []
    seen: set[str] = set()
    for entry in wt.content()["walkthroughs"]:
        walkthrough = wt.get_walkthrough(entry["slug"])
        assert walkthrough is not None
        if entry["kind"] in seen:
            continue
        seen.add(entry["kind"])
        urls += [f"/walkthroughs/{entry['slug']}/1/",
                 f"/walkthroughs/{entry['slug']}/{len(walkthrough.steps) // 2 + 1}/"]
    return urls


PAGES = [
    "/", "/cards/", "/pairs/", "/pairs/?q=Q9", "/pairs/RQ-B9/", "/pairs/four/",
    "/rules/", "/rules/chart/", "/rules/app/", "/rules/compare/", "/splits/",
    "/splits/?hand=RQ+R6+R7+B9",
    "/squeeze/", "/glossary/", "/quiz/", "/quiz/progress/",
    "/quiz/bigger/?seed=7&level=1", "/quiz/split/?seed=7&level=1",
    "/quiz/showdown/?seed=7&level=3", "/quiz/order/?seed=7&level=3",
    "/course/", "/walkthroughs/", *_first_steps(),
    "/table/", "/calc/", CALC_RESULT, "/night/", "/coach/", "/accounts/login/",
    "/accounts/signup/", "/accounts/recover/",
]

# Pages whose every table is a .stack-table (stacked, labelled rows on a phone).
STACKED = {"/quiz/progress/", "/squeeze/"}

SHOTS = {"/", "/rules/", "/pairs/", "/glossary/", "/walkthroughs/full-hand/1/", "/splits/"}

# Elements wider than the viewport (the page would scroll sideways) and texts broken
# after every character.  Scrolling boxes (overflow-x: auto) may hold wider content.
MEASURE = """
() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1) && !scrolls(el)
        && getComputedStyle(el).position !== "fixed" && !el.closest(".skip-link")) {
      const where = `${Math.round(r.left)}–${Math.round(r.right)}`;
      wide.push(`${el.tagName.toLowerCase()}.${el.className} ${where}`);
    }
  }
  const narrow = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const skip = "[aria-hidden=true], svg, .card, .visually-hidden";
    if (text.length < 3 || !node.parentElement || node.parentElement.closest(skip)) continue;
    let hidden = false;  // visually hidden (a stacked table's 1 px header row)
    for (let p = node.parentElement; p && !hidden; p = p.parentElement) {
      hidden = p.getBoundingClientRect().width <= 2;
    }
    if (hidden) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0);
    const tops = new Set(rects.map(r => Math.round(r.top)));
    if (rects.length >= 3 && tops.size >= Math.min(text.replace(/\\s/g, "").length, 6)
        && Math.max(...rects.map(r => r.width)) < 40) {
      narrow.push(text.slice(0, 30));
    }
  }
  const sideways = [];  // a table that does not fit scrolls sideways in its box (or itself)
  const unstacked = [];  // a .stack-table still laid out as columns
  for (const table of document.body.querySelectorAll("table")) {
    const cell = table.querySelector("tbody td");
    if (table.matches(".stack-table") && cell && getComputedStyle(cell).display === "table-cell") {
      unstacked.push(`table.${table.className}`);
    }
    for (let p = table; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o !== "auto" && o !== "scroll") continue;
      if (p.scrollWidth > p.clientWidth + 1) {
        sideways.push(`table.${table.className} ${p.scrollWidth} > ${p.clientWidth}`);
      }
      break;
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8),
          narrow: narrow.slice(0, 8), sideways, unstacked};
}
"""


def _answer_one_question_wrong(page: Any, base: str) -> None:
    """A wrong answer: the visitor's progress gets a row and a review card."""
    page.goto(base + "/quiz/name/?seed=8&level=1")
    page.locator('button[name="name"]').first.wait_for()
    right = q.solve(q.generate("name", 8, 1, RULES), RULES)["name"]
    page.locator(f'button[name="name"]:not([value="{right}"])').first.click()
    page.locator(".quiz-feedback--wrong").wait_for()


def _slug(url: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", url.lower()).strip("-")[:60] or "home"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_no_page_scrolls_sideways_at_360px(live_server: Any, phone_page: Any, language: str,
                                           screenshot: Callable[..., Path]) -> None:
    page = phone_page
    page.set_viewport_size(PHONE_360)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    problems = []
    _answer_one_question_wrong(page, live_server.url)  # /quiz/progress/ lists a review card
    for url in PAGES:
        page.goto(live_server.url + url, timeout=60_000)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        found = page.evaluate(MEASURE)
        if url in STACKED and page.locator("table:not(.stack-table)").count():
            found["unstacked"].append("a table without .stack-table")
        if (found["scrollWidth"] > found["width"] or found["wide"] or found["narrow"]
                or found["sideways"] or found["unstacked"]):
            problems.append(f"{url}: {found}")
        if problems or url in SHOTS:
            screenshot(page, f"phone-360-{language}-{_slug(url)}")
    assert not problems, "\n".join(problems)


# Controls below the minimum target size: a button or field smaller than 24 × 24 CSS px;
# a link that small and not spaced as WCAG 2.2 (2.5.8) allows (a 24 px circle on its
# centre meets another control, or another small one's circle).  A link inside a sentence
# is exempt (its line of text is the target).
SMALL_TARGETS = """
() => {
  const controls = "header a, header button, main a, main button, main select, main summary,"
    + " main input:not([type=hidden])";
  const targets = [];
  for (const el of document.querySelectorAll(controls)) {
    const own = el.getBoundingClientRect();
    if (!own.width || !own.height || el.closest(".visually-hidden, .skip-link")) continue;
    if (el.tagName === "A" && getComputedStyle(el).display === "inline") {
      const block = el.parentElement.closest("p, li, dd, td, th, figcaption, h1, h2, h3, small");
      if (block && block.textContent.trim().length > el.textContent.trim().length) continue;
    }
    const r = own;
    targets.push({el, r, small: r.width < 23.5 || r.height < 23.5, link: el.tagName === "A",
                  x: r.left + r.width / 2, y: r.top + r.height / 2});
  }
  const gap = (t, r) => Math.hypot(Math.max(r.left - t.x, 0, t.x - r.right),
                                   Math.max(r.top - t.y, 0, t.y - r.bottom));
  const small = [];
  for (const t of targets) {
    if (!t.small) continue;
    const crowded = !t.link || targets.some(o => o !== t && !o.el.contains(t.el)
      && !t.el.contains(o.el)
      && (gap(t, o.r) < 12 || (o.small && Math.hypot(o.x - t.x, o.y - t.y) < 24)));
    if (crowded) {
      const name = (t.el.textContent || t.el.getAttribute("name") || "").trim();
      small.push(`${t.el.tagName.toLowerCase()} ${name.slice(0, 12)} `
                 + `${Math.round(t.r.width)}×${Math.round(t.r.height)}`);
    }
  }
  return small.slice(0, 10);
}
"""

TAP_PAGES = ["/table/", "/splits/table/", "/splits/", "/"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("width", [360, 390])
def test_tap_targets_and_the_language_button_on_phones(
        live_server: Any, phone_page: Any, language: str, width: int,
        screenshot: Callable[..., Path]) -> None:
    """Every control is at least 24 px each way; the header's 中文 / English buttons keep
    their words on one line (issue 23: 中 / 文 broke at 360 and 390 px)."""
    page = phone_page
    page.set_viewport_size({"width": width, "height": 780})
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    problems = []
    for url in TAP_PAGES:
        page.goto(live_server.url + url, timeout=60_000)
        small = page.evaluate(SMALL_TARGETS)
        if small:
            problems.append(f"{url}: {small}")
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > width:
            problems.append(f"{url}: {wide} px wide")
        for button in page.locator(".lang-switch__button").all():
            lines = button.evaluate(
                "b => { const r = document.createRange(); r.selectNodeContents(b);"
                " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }")
            if lines != 1:
                problems.append(f"{url}: {button.inner_text()!r} on {lines} lines")
        if url in ("/", "/table/"):
            screenshot(page, f"phone-{width}-{language}-taps-{_slug(url)}", full_page=url != "/")
    assert not problems, "\n".join(problems)
