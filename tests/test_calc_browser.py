"""The calculator in a real browser on a phone-sized window: the card picker, splits,
the result, copy link; screenshots in tests/artifacts/calc-*.png; axe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    """Like the ``screenshot`` fixture, but leaves the caret alone: Playwright hides it with
    an inline style that htmx would copy onto swapped-in inputs (a CSP violation that only
    a test could cause)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page, caret="initial")


def pick(page: Any, row: int, codes: list[str]) -> None:
    field = page.locator(f'[data-cards-field="c{row}"]')
    field.get_by_role("button", name="选牌").click()
    picker = page.locator("#card-picker")
    expect(picker).to_be_visible()
    for code in codes:
        picker.locator(f'.picker__kind[data-code="{code}"]').click()
    picker.get_by_role("button", name="选好了").click()
    expect(picker).to_be_hidden()


def choose_split(page: Any, row: int, index: int) -> None:
    radio = page.locator(f"#k{row}-{index}")
    if not radio.is_checked():
        with page.expect_response(lambda r: "/calc/" in r.url):
            radio.check()
        page.wait_for_load_state("networkidle")


def fill_seats(page: Any, seats: list[tuple[str, str, str]]) -> None:
    """Type (name, stake, cards) into the calculator's rows 1, 2, …"""
    for row, (name, stake, cards) in enumerate(seats, start=1):
        page.fill(f"#n{row}", name)
        page.fill(f"#s{row}", stake)
        page.fill(f"#c{row}", cards)


@pytest.mark.django_db(transaction=True)
def test_calculator_on_a_phone(
    live_server: Any, phone_page: Any, axe: Any
) -> None:
    page = phone_page
    page.goto(live_server.url + "/calc/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page)

    page.fill("#n1", "甲")
    page.fill("#s1", "100")
    pick(page, 1, ["B10", "B9", "R3", "B6"])
    assert page.input_value("#c1") == "B10 B9 R3 B6"
    # Only one 丁丁 in the deck: the picker no longer offers it.
    page.locator('[data-cards-field="c2"]').get_by_role("button", name="选牌").click()
    assert page.locator('.picker__kind[data-code="R3"]').is_disabled()
    assert page.locator('.picker__kind[data-code="B10"] .picker__count').inner_text() == "1"
    shot(page, "calc-phone-picker", full_page=False)
    axe(page)
    page.get_by_role("button", name="选好了").click()

    page.fill("#n2", "乙")
    page.fill("#s2", "80")
    pick(page, 2, ["R2", "R7", "BJ", "B5"])
    # A wrong card: take it back with its chip, then pick the right one.
    page.get_by_role("button", name="拿掉 小5 黑桃5").click()
    assert page.input_value("#c2") == "R2 R7 BJ"
    pick(page, 2, ["B8"])
    page.fill("#n3", "丙")
    page.fill("#s3", "50")
    page.fill("#c3", "rq r8 b5 b5")  # typing codes works too

    page.get_by_role("button", name="再加一家").click()
    page.locator("#n4").wait_for()
    page.fill("#n4", "丁")
    page.fill("#s4", "60")
    page.check("#f4")
    expect(page.locator('[data-cards-field="c4"]')).to_be_hidden()

    page.get_by_role("button", name="算账").click()
    page.locator("#result-title").wait_for()
    for row in (1, 2, 3):  # the players split as typed: 头 first
        choose_split(page, row, 0)
    result = page.locator(".result")
    assert "丙吃甲 50：丙自己只下了 50，最多从每家赢 50。" in result.inner_text()
    assert "甲从丁的皮里再拿 10：丙拿走 50 后只剩 10。" in result.inner_text()
    assert "+150" in result.locator(".nets").inner_text()
    assert "p=%E7%94%B2:100:B10,B9,R3,B6:0" in page.url  # the address is the table
    expect(page.locator("[data-copy]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page)
    shot(page, "calc-phone-result")
    page.locator(".result").screenshot(path=str(ARTIFACTS / "calc-phone-result-part.png"),
                                       caret="initial")
    page.locator('[data-seat="1"]').screenshot(path=str(ARTIFACTS / "calc-phone-seat.png"),
                                               caret="initial")

    # The shared link alone reproduces the table.
    shared = page.input_value("#share-url")
    page.goto(shared)
    assert "+150" in page.locator(".result .nets").inner_text()

    # In English.
    page.get_by_role("button", name="English").click()
    page.get_by_role("heading", name="Settling up", exact=True).wait_for()
    assert "甲 takes another 10 from 丁’s 皮" in page.inner_text(".result")
    axe(page)
    page.locator(".result").screenshot(path=str(ARTIFACTS / "calc-phone-result-en.png"),
                                       caret="initial")


def test_the_split_typed_is_settled_and_the_suggestion_shown_beside(
    live_server: Any, phone_page: Any, axe: Any
) -> None:
    """Regression (issue 15): the advisor's split used to be settled in place of the one
    typed (head first)."""
    page = phone_page
    page.goto(live_server.url + "/calc/")
    page.fill("#n1", "a")
    page.fill("#s1", "10")
    pick(page, 1, ["RQ", "R6", "B9", "R7"])  # head 天牌 猫猫, tail 黑9 膏药
    page.fill("#n2", "b")
    page.fill("#s2", "10")
    pick(page, 2, ["R8", "B10", "B4", "B5"])
    page.get_by_role("button", name="算账").click()
    page.locator("#result-title").wait_for()
    expect(page.locator("#k1-0")).to_be_checked()
    typed = page.locator('label[for="k1-0"]')
    expect(typed.locator(".badge--typed")).to_have_text("照填")
    expect(typed.locator(".badge:not(.badge--typed)")).to_have_count(0)
    advice = page.locator(".result .advice")
    expect(advice).to_contain_text("a 照填的分法算；建议的分法是头 天官九、尾 猫九五")
    expect(page.locator(".result .nets tbody tr").first).to_contain_text("-10")  # a loses
    shot(page, "calc-phone-typed-split")
    for part, selector in (("seat", 'fieldset[data-seat="1"]'), ("result", ".result")):
        page.locator(selector).screenshot(
            path=str(ARTIFACTS / f"calc-phone-typed-split-{part}.png"), caret="initial")
    axe(page)
    # Taking the suggestion is the person's own choice: settled that way, no note.
    suggested = page.locator(".split-option:has(.badge:not(.badge--typed)) input").first
    with page.expect_response(lambda r: "/calc/" in r.url):
        suggested.check()
    page.wait_for_load_state("networkidle")
    expect(page.locator(".result .advice")).to_have_count(0)
    expect(page.locator(".result .nets tbody tr").first).not_to_contain_text("-10")


@pytest.mark.django_db(transaction=True)
def test_calculator_errors_on_a_phone(
    live_server: Any, phone_page: Any, axe: Any
) -> None:
    page = phone_page
    page.goto(live_server.url + "/calc/")
    fill_seats(page, [("甲", "-3", "RQ RQ RQ"), ("乙", "10", "RQ ZZ B8 B7")])
    page.get_by_role("button", name="算账").click()
    page.locator("#s1-error").wait_for()
    assert "不能是负数" in page.inner_text("#s1-error")
    assert "这里是 3 张" in page.inner_text("#c1-error")
    assert "ZZ" in page.inner_text("#c2-error")
    axe(page)
    shot(page, "calc-phone-errors")


@pytest.mark.django_db(transaction=True)
def test_calculator_without_javascript(live_server: Any, chromium_browser: Any) -> None:
    context = chromium_browser.new_context(java_script_enabled=False, locale="zh-CN",
                                           viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + "/calc/")
    expect(page.locator("#card-picker")).to_be_hidden()
    fill_seats(page, [("a", "50", "RQ RQ R2 R2"), ("b", "150", "B9 B8 B7 B5")])
    page.get_by_role("button", name="算账").click()
    page.locator("#result-title").wait_for()
    assert "/calc/?p=a:50:RQ,RQ,R2,R2:0&p=b:150:B9,B8,B7,B5:0" in page.url
    assert "a 吃 b 50" in page.inner_text(".result")
    context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_fold_out_without_the_cards_at_360_px(live_server: Any, phone_page: Any,
                                               axe: Any, lang: str) -> None:
    """Everyone but 甲 folded: 甲's cards are left empty, the hand settles (甲 takes each
    皮 up to the 3 staked), and it is recorded into the night as a 揍芒, on a 360 px
    phone in both languages.  Screenshots calc-360-<lang>-fold-out*.png."""
    from datetime import timedelta

    from django.utils import timezone

    from tutorial.models_night import Night

    night = Night.objects.create(players=["甲", "乙", "丙", "丁"], stakes="1、3",
                                 starting_bobo=2000, end_at=timezone.now() + timedelta(hours=3))
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies([{"name": "django_language", "value": lang,
                               "url": live_server.url}])

    def fits() -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.goto(f"{live_server.url}/calc/?night={night.token}")
    assert [page.input_value(f"#n{i}") for i in range(1, 5)] == ["甲", "乙", "丙", "丁"]
    fits()
    page.fill("#s1", "3")
    for row in (2, 3, 4):
        page.fill(f"#s{row}", "1")
        page.check(f"#f{row}")
    expect(page.locator('[data-cards-field="c2"]')).to_be_hidden()
    assert page.input_value("#c1") == ""
    with page.expect_response(lambda r: "/calc/" in r.url and r.status == 200):
        page.locator("button[name=go]").click()
    result = page.locator(".result")
    expect(result).to_be_visible()
    expect(result.locator("table.nets tbody tr").first).to_contain_text("+3")
    said = ("别的人都甩了，只剩" if lang == "zh" else "Everyone but 甲 folded, so the 皮 goes to")
    expect(result).to_contain_text(said)
    assert "p=%E7%94%B2:3:&" in page.url or "p=甲:3:&" in page.url
    fits()
    axe(page)
    shot(page, f"calc-360-{lang}-fold-out")
    page.locator("button[name=end][value=zou]").click()
    page.locator("#next-title").wait_for()
    [last] = night.hand_records(1, 1)
    assert last.kind == "zou" and last.pot_to == "甲"
    assert last.nets == {"甲": 3, "乙": -1, "丙": -1, "丁": -1}
    expect(page.locator(".hands .hand").first.locator(".badge").first).to_contain_text("揍芒")
    fits()
    shot(page, f"calc-360-{lang}-fold-out-recorded")
