"""The coach in a real browser: 复盘 of a played hand, 再来一次 with htmx, the session
report; English on a phone; without JavaScript. Screenshots and axe."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.coach_hands import coached
from tests.tables import table_of
from tutorial.models_coach import HandReview

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """Two hands played through the views; (table id, the owner's session cookie)."""
    client, tid = coached(monkeypatch, 2, 60)
    return tid, client.cookies["sessionid"].value


def own(page: Any, live_server: Any, cookie: str, lang: str = "zh-hans") -> None:
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url},
                              {"name": "django_language", "value": lang, "url": live_server.url}])


def refresh_until(page: Any, done: Any) -> None:
    """Without JavaScript the visitor taps 刷新 until a worker is done (a loaded machine may
    take a while). Each look waits for the loaded page to show the result or the note that
    it is being computed, so a reload that lands on the result is never read as a page
    without the note."""
    computing = page.locator("#computing")
    for _ in range(60):
        expect(done.or_(computing).first).to_be_visible()
        if done.count():
            return
        expect(computing).to_contain_text("算")
        page.wait_for_timeout(1000)
        with page.expect_navigation():
            computing.get_by_role("link", name="刷新").click()
    expect(done.first).to_be_visible()


def test_review_and_retry(live_server: Any, browser_page: Any, table: tuple[str, str],
                          screenshot: Any, axe: Any) -> None:
    tid, cookie = table
    page = browser_page
    own(page, live_server, cookie)
    page.goto(f"{live_server.url}/table/{tid}/")  # the coach's verdict comes into the result
    expect(page.locator(".coach-hook .coach-summary .coach-grade").first).to_be_visible()
    expect(page.locator("#board .result")).to_be_visible()  # the verdict did not replace it
    axe(page)
    page.locator(".coach-hook").scroll_into_view_if_needed()
    screenshot(page, "coach-table-hook-zh", full_page=False)
    page.goto(f"{live_server.url}/table/{tid}/history")
    page.get_by_role("link", name="复盘这一手").last.click()
    expect(page.locator("h1")).to_have_text("第 1 手复盘")
    page.wait_for_load_state()  # htmx (deferred) set up: a click before is a plain one
    page.locator("#replay").get_by_role("link", name="下一步", exact=True).click()  # htmx
    expect(page.locator("#replay")).to_contain_text("第 1 /")
    page.locator("#replay").get_by_role("link", name="下一步", exact=True).click()
    expect(page.locator("#replay")).to_contain_text("第 2 /")
    first = page.locator(".coach-decision").first
    expect(first.locator(".coach-grade")).to_be_visible()
    expect(first.locator(".coach-options tbody tr").first).to_be_visible()
    axe(page)
    screenshot(page, "coach-review-zh")
    first.get_by_role("link", name="再来一次").click()
    expect(page.locator("h1")).to_have_text("再来一次")
    page.wait_for_load_state()
    page.locator(".coach-choices button").first.click()
    expect(page.locator("#answer .coach-verdict")).to_be_visible()
    expect(page).to_have_url(f"{live_server.url}/coach/{tid}/1/retry/0/")  # swapped, not loaded
    axe(page)
    screenshot(page, "coach-retry-zh")
    page.get_by_role("link", name="回到第 1 手复盘").click()
    page.get_by_role("link", name="回到牌桌").click()
    page.get_by_role("link", name="本场教练报告").click()  # both hands reviewed by now
    expect(page.locator("svg.coach-chart")).to_be_visible()
    axe(page)
    screenshot(page, "coach-report-zh")


def test_english_phone(live_server: Any, phone_page: Any, table: tuple[str, str],
                       screenshot: Any, axe: Any) -> None:
    tid, cookie = table
    page = phone_page
    own(page, live_server, cookie, "en")
    page.goto(f"{live_server.url}/coach/{tid}/2/")
    expect(page.locator("h1")).to_have_text("Review of hand 2")
    axe(page)
    screenshot(page, "coach-review-en-phone")
    page.goto(f"{live_server.url}/coach/{tid}/2/retry/0/")
    page.locator(".coach-choices button").last.click()
    expect(page.locator("#answer .coach-verdict")).to_contain_text("You chose")
    screenshot(page, "coach-retry-en-phone")


def test_retry_without_javascript(live_server: Any, nojs_page: Any,
                                  table: tuple[str, str]) -> None:
    tid, cookie = table
    page = nojs_page
    own(page, live_server, cookie)
    page.goto(f"{live_server.url}/coach/{tid}/1/retry/0/")
    page.locator(".coach-choices button").first.click()
    expect(page).to_have_url(f"{live_server.url}/coach/{tid}/1/retry/0/?pick=0")
    expect(page.locator("#answer .coach-verdict")).to_be_visible()


def slow_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's reviews take 2 s more, so that a test sees the progress first."""
    import time

    from tutorial import coach

    compute = coach.compute

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(2)
        return compute(*args, **kwargs)

    monkeypatch.setattr("tutorial.coach.compute", slow)


def test_a_review_not_computed_shows_progress_then_the_result(
        live_server: Any, browser_page: Any, table: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch, screenshot: Any, axe: Any) -> None:
    from tutorial.models_coach import HandReview

    tid, cookie = table
    HandReview.objects.filter(number=2).delete()  # as if the coach had been off
    slow_reviews(monkeypatch)
    page = browser_page
    own(page, live_server, cookie)
    page.goto(f"{live_server.url}/coach/{tid}/2/")  # htmx asks for it (a POST) on load
    expect(page.locator("#computing")).to_contain_text("正在算", timeout=5000)
    axe(page)
    screenshot(page, "coach-review-computing-zh")
    expect(page.locator(".coach-decision").first).to_be_visible(timeout=15000)
    expect(page.locator("h1")).to_have_text("第 2 手复盘")
    assert HandReview.objects.filter(number=2).count() == 1


def test_a_review_not_computed_without_javascript(
        live_server: Any, nojs_page: Any, table: tuple[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tutorial.models_coach import HandReview

    tid, cookie = table
    HandReview.objects.filter(number=2).delete()
    slow_reviews(monkeypatch)
    page = nojs_page
    own(page, live_server, cookie)
    page.goto(f"{live_server.url}/coach/{tid}/2/")
    expect(page.locator("#computing")).to_contain_text("还没算")
    page.get_by_role("button", name="现在算").click()
    expect(page).to_have_url(f"{live_server.url}/coach/{tid}/2/")
    expect(page.locator("#computing")).to_contain_text("算")
    refresh_until(page, page.locator(".coach-decision"))


# Badges and marks whose text wraps inside them: more than one line box.
BROKEN = """
() => [...document.querySelectorAll('.coach-grade, .coach-mark')].filter(el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                       .map(r => Math.round(r.top)));
  return tops.size > 1;
}).map(el => el.textContent.trim())
"""


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_badges_and_marks_do_not_break_on_a_phone(live_server: Any, phone_page: Any,
                                                  table: tuple[str, str], lang: str,
                                                  screenshot: Any) -> None:
    """大错 / 失误 badges and 你选的 / 最好 marks stay on one line at 360 px (issue 20 §6)."""
    tid, cookie = table
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 780})
    own(page, live_server, cookie, lang)
    for url in (f"/coach/{tid}/1/", f"/coach/{tid}/2/", f"/coach/{tid}/"):
        page.goto(live_server.url + url)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert page.evaluate(BROKEN) == [], url
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
    page.goto(f"{live_server.url}/coach/{tid}/2/retry/0/")
    page.locator(".coach-choices button").first.click()
    expect(page.locator("#answer .coach-mark").first).to_be_visible()
    assert page.locator("#answer .coach-mark").count() >= 1
    assert page.evaluate(BROKEN) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, f"coach-retry-marks-{lang}-phone")


def test_an_option_above_the_best_is_explained_on_a_phone(
        live_server: Any, phone_page: Any, table: tuple[str, str], screenshot: Any,
        axe: Any) -> None:
    """An alternative made to show a higher mean than the one marked 最好: the note under
    its table, in English, readable at 360 px."""
    tid, cookie = table
    stored = HandReview.objects.get(table=table_of(f"/table/{tid}/"), number=2)
    k, d = next((k, d) for k, d in enumerate(stored.data["decisions"])
                if not d["exact"] and len(d["options"]) > 3)
    other = next(i for i in range(len(d["options"]))
                 if i not in (d["best"], d["chosen"], d["rival"]))
    d["options"][other]["ev"] = d["options"][d["best"]]["ev"] + 5
    stored.save()
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 780})
    own(page, live_server, cookie, "en")
    page.goto(f"{live_server.url}/coach/{tid}/2/")
    note = page.locator(f"#decision-{k} .coach-options + .coach-note")
    expect(note).to_contain_text("was picked on a separate set of deals")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe(page)
    note.scroll_into_view_if_needed()
    screenshot(page, "coach-higher-note-en-phone", full_page=False)
