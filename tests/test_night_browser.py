"""A game night run from one phone (390×844): create, record a hand from the calculator,
a manual 揍芒, the read-only link; screenshots in tests/artifacts/night-*.png; axe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.test_calc_browser import choose_split, shot
from tutorial.models_night import Night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def test_a_night_on_one_phone(
    live_server: Any, phone_page: Any, chromium_browser: Any, axe: Any
) -> None:
    page = phone_page
    page.goto(live_server.url + "/night/")
    axe(page)
    for i, name in enumerate(["甲", "乙", "丙", "丁"], start=1):
        page.fill(f"#player{i}", name)
    page.fill("#end", "23:30")
    page.get_by_role("button", name="开始记分").click()
    page.locator("#next-title").wait_for()
    assert "甲 发牌，乙 是挡家" in page.inner_text(".next-hand")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page)
    night = Night.objects.get()

    # Hand 1 from the calculator: the names are already there.
    page.get_by_role("link", name="用算账器算这一手").click()
    assert page.input_value("#n1") == "甲" and page.input_value("#n4") == "丁"
    for row, (stake, cards) in enumerate(
        [("100", "B10 B9 R3 B6"), ("80", "R2 R7 BJ B8"), ("50", "RQ R8 B5 B5")], start=1
    ):
        page.fill(f"#s{row}", stake)
        page.fill(f"#c{row}", cards)
    page.fill("#s4", "60")
    page.check("#f4")
    page.get_by_role("button", name="算账").click()
    page.locator("#result-title").wait_for()
    for row in (1, 2, 3):
        choose_split(page, row, 0)
    assert "night=" not in page.input_value("#share-url")  # the shared link cannot edit
    page.get_by_role("button", name="记进“甲、乙、丙、丁”").click()
    page.locator("#next-title").wait_for()
    assert "第 1 手记好了" in page.inner_text(".messages")
    assert "+150" in page.inner_text(".standings")

    # Hand 2 by hand: a 揍芒 won by 乙.
    page.get_by_text("或者直接填输赢").click()
    page.check("#kind-zou")
    page.fill("#net0", "-3")
    page.fill("#net1", "9")
    page.fill("#net2", "-3")
    page.fill("#net3", "-3")
    page.check("#pot_to1")  # 乙
    page.get_by_role("button", name="记下这一手").click()
    page.get_by_text("第 2 手记好了").wait_for()
    assert "开牌前丢芒果（揍芒）：每人 5" in page.inner_text(".next-hand")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page)
    shot(page, "night-phone-organiser")
    page.locator(".chart").screenshot(path=str(ARTIFACTS / "night-phone-chart.png"),
                                      caret="initial")

    # A wrong manual entry: message next to the field, nothing recorded.
    page.get_by_text("或者直接填输赢").click()
    page.fill("#net0", "5")
    page.get_by_role("button", name="记下这一手").click()
    page.get_by_text("输赢加起来要等于 0").wait_for()
    assert night.state().hands == 2
    axe(page)

    # The others follow on the read-only link.
    other = chromium_browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    friend = other.new_page()
    friend.goto(live_server.url + f"/night/v/{night.view_token}/")
    assert friend.locator("form input[name=do]").count() == 0
    assert "+147" in friend.inner_text(".standings")  # 150 − 3 of the 揍芒
    axe(friend)
    shot(friend, "night-phone-readonly")
    other.close()

    # Undo the 揍芒.
    page.get_by_role("button", name="撤销：最后记的一手").click()
    page.get_by_text("撤销了最后一条记录").wait_for()
    assert night.state().hands == 1


def test_a_night_in_new_york(live_server: Any, chromium_browser: Any, axe: Any) -> None:
    """Regression (issue 15): a phone in another zone saw every time in China time; a
    揍芒 with blank amounts was recorded as "没有输赢"; the chart plotted stacks."""
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844},
                                           locale="zh-CN", timezone_id="America/New_York")
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(live_server.url + "/night/")
    assert page.input_value("#tz") == "America/New_York"  # filled in from the browser
    assert any(c["name"] == "tz" and c["value"] == "America%2FNew_York"
               for c in context.cookies())
    page.fill("#player1", "甲")
    page.fill("#player2", "乙")
    page.fill("#end", "23:30")
    page.get_by_role("button", name="开始记分").click()
    page.locator("#next-title").wait_for()
    meta = page.inner_text(".night-meta")
    assert "23:30 打圈芒" in meta and "时间按 America/New_York" in meta
    assert Night.objects.get().time_zone == "America/New_York"
    page.locator("main h1 + .night-meta").screenshot(
        path=str(ARTIFACTS / "night-zone-meta.png"), caret="initial")
    expect(page.locator(".chart__svg")).to_have_count(0)  # nothing to draw yet

    # A 揍芒 with no amounts: refused, the reason next to the folder's amount.
    page.get_by_text("或者直接填输赢").click()
    page.check("#kind-zou")
    page.check("#pot_to1")  # 乙
    page.get_by_role("button", name="记下这一手").click()
    expect(page.locator("#net0-error")).to_contain_text("至少输掉皮 1")
    assert Night.objects.get().events.count() == 0
    page.fill("#net0", "-1")
    page.fill("#net1", "1")
    page.get_by_role("button", name="记下这一手").click()
    page.get_by_text("第 1 手记好了").wait_for()
    expect(page.locator(".chart__zero")).to_have_count(1)
    shot(page, "night-new-york")
    page.locator(".chart").screenshot(path=str(ARTIFACTS / "night-chart-results.png"),
                                      caret="initial")
    axe(page)
    context.close()
    assert errors == []


@pytest.mark.allow_http_errors
def test_an_entry_over_the_rate_limit(live_server: Any, phone_page: Any,
                                      settings: Any) -> None:
    """The page's forms are boosted: over the limit, the short message comes first in the
    page's main part; the page stays, at its address, and nothing is recorded."""
    page = phone_page
    page.goto(live_server.url + "/night/")
    page.fill("#player1", "甲")
    page.fill("#player2", "乙")
    page.fill("#end", "23:30")
    page.get_by_role("button", name="开始记分").click()
    page.locator("#next-title").wait_for()
    page.wait_for_load_state()  # htmx (deferred) set up before the click below
    url, history = page.url, page.evaluate("history.length")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "write": (0, 60)}
    page.get_by_role("button", name="补钵钵").click()
    expect(page.locator("main > .limit-refusal[role=alert]")).to_contain_text("秒后再试")
    expect(page).to_have_url(url)
    expect(page.locator("#next-title")).to_be_visible()
    assert page.evaluate("history.length") == history  # no entry in the history
    assert Night.objects.get().events.count() == 0


def test_long_names_fit_a_360_px_phone_in_english(live_server: Any,
                                                  chromium_browser: Any) -> None:
    """Regression: with a player called Alexandria Smithson the English standings were
    366 px wide on a 360 px phone (the page scrolled sideways), and the names at the
    chart's line ends ran past the chart's right edge, cut off ("Alexa", "张三丰")."""
    from datetime import timedelta

    from django.utils import timezone

    names = ["张三丰大师傅来了", "李四", "Alexandria Smithson", "赵六"]
    night = Night.objects.create(players=names, stakes="1、3", starting_bobo=2000,
                                 end_at=timezone.now() + timedelta(hours=3))
    night.add_event("hand", {"kind": "show", "nets": {names[0]: 37, names[2]: -37},
                             "pot_to": names[0]})
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740})
    context.add_cookies([{"name": "django_language", "value": "en",
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/night/v/{night.view_token}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.querySelector('.standings table')"
                         ".getBoundingClientRect().right") <= 360
    labels = page.locator(".chart__label")
    assert labels.all_text_contents()[0] == "张三丰大师傅…"
    assert "Alexandria…" in labels.all_text_contents()
    svg_right = page.evaluate("document.querySelector('.chart__svg')"
                              ".getBoundingClientRect().right")
    for i in range(labels.count()):
        box = labels.nth(i).bounding_box()
        assert box is not None and box["x"] + box["width"] <= svg_right + 0.5
    context.close()


def test_large_results_fit_the_charts_axis(live_server: Any, chromium_browser: Any) -> None:
    """Regression: with results of 12500 the axis' figures (+20000, -20000) began left of
    the chart and lost their sign; its left margin now fits the widest figure."""
    from datetime import timedelta

    from django.utils import timezone

    names = ["甲", "乙", "丙"]
    night = Night.objects.create(players=names, stakes="1、3", starting_bobo=20000,
                                 end_at=timezone.now() + timedelta(hours=3))
    night.add_event("hand", {"kind": "show", "nets": {"甲": 12500, "乙": -12500},
                             "pot_to": "甲"})
    context = chromium_browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(f"{live_server.url}/night/v/{night.view_token}/")
    ticks = page.locator(".chart__tick[text-anchor=end]")
    assert "+20000" in ticks.all_text_contents() and "-20000" in ticks.all_text_contents()
    svg_left = page.evaluate("document.querySelector('.chart__svg')"
                             ".getBoundingClientRect().left")
    for i in range(ticks.count()):
        box = ticks.nth(i).bounding_box()
        assert box is not None and box["x"] >= svg_left, ticks.nth(i).text_content()
    context.close()


@pytest.mark.allow_http_errors  # the wrong tie is refused with a 400
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_ties_comebacks_and_the_calculators_fold_out_at_360_px(
        live_server: Any, phone_page: Any, axe: Any, lang: str) -> None:
    """The new entries on a 360 px phone, in both languages: a tie ticked by hand shares
    the pot; a wrong tie is refused next to the boxes; a player who left comes back; a
    calculator table where everyone but one folded is recorded as a 揍芒.  Screenshots
    night-360-<lang>-*.png."""
    from datetime import timedelta

    from django.utils import timezone

    names = ["甲", "乙", "丙", "丁"]
    night = Night.objects.create(players=names, stakes="1、3", starting_bobo=2000,
                                 end_at=timezone.now() + timedelta(hours=3))
    night.add_event("hand", {"kind": "zou", "nets": {"甲": -2, "乙": -2, "丙": 6, "丁": -2},
                             "pot_to": "丙"})  # 15 of 芒果 due
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies([{"name": "django_language", "value": lang,
                               "url": live_server.url}])
    edit = f"{live_server.url}/night/{night.token}/"
    page.goto(edit)
    page.wait_for_load_state()

    def submit(do: str) -> None:
        page.locator(f"form:has(input[name=do][value={do}]) button[type=submit]").click()

    def fits() -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # A tie on 头 and 尾, wrongly entered: one sharer losing — refused beside the boxes.
    page.locator("details.manual summary").click()
    page.check("#pot_to0")
    page.check("#pot_to1")
    for seat, net in enumerate(["10", "-5", "-5", "0"]):
        page.fill(f"#net{seat}", net)
    submit("hand")
    expect(page.locator("#pot_to-error")).to_contain_text("写成了输" if lang == "zh"
                                                          else "a loss is entered for")
    assert night.state().hands == 1
    fits()
    axe(page)
    page.locator("fieldset#pot_to").screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-tie-refused.png"), caret="initial")
    # Entered right: 甲 and 乙 share the 15, the odd chip to 甲.
    page.fill("#net1", "10")
    page.fill("#net2", "-10")
    page.fill("#net3", "-10")
    submit("hand")
    shared = "甲、乙 头尾一样大，平分桌上的 15" if lang == "zh" else "shared the 15 in the middle"
    expect(page.locator(".hands")).to_contain_text(shared)
    assert night.state().by_name("甲").bobo == 2011  # type: ignore[union-attr]
    fits()
    shot(page, f"night-360-{lang}-tie")
    page.locator(".hands .hand").first.screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-tie-hand.png"), caret="initial")

    # 乙 leaves and comes back with the same 钵钵.
    page.select_option("#leave-player", "乙")
    submit("leave")
    expect(page.locator("#back-player")).to_be_visible()
    fits()
    axe(page)
    page.locator("section[aria-labelledby=rebuy-title]").screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-come-back.png"), caret="initial")
    submit("back")
    expect(page.locator("#back-player")).to_have_count(0)
    player = night.state().by_name("乙")
    assert player is not None and player.active and player.bobo == 2010

    # The calculator: everyone but 甲 folded; recorded as a 揍芒.
    page.goto(f"{live_server.url}/calc/?p=甲:3:R2,R7,BJ,B8:0&p=乙:1:fold&p=丙:1:fold"
              f"&p=丁:1:fold&night={night.token}")
    expect(page.locator("#record-end")).to_be_visible()
    fits()
    axe(page)
    page.locator("form.record").screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-calc-fold-out.png"), caret="initial")
    page.locator("button[name=end][value=zou]").click()
    page.locator("#next-title").wait_for()
    last = night.hand_records(3, 3)[0]
    assert last.kind == "zou" and last.pot_to == "甲"
    expect(page.locator(".hands .hand").first.locator(".badge").first).to_contain_text("揍芒")
    fits()
    shot(page, f"night-360-{lang}-after-fold-out")
    page.locator(".next-hand").screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-after-fold-out-next.png"), caret="initial")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_orbit_waits_for_its_starter_at_360_px(live_server: Any, phone_page: Any,
                                                   axe: Any, lang: str) -> None:
    """The 圈芒 starter leaves when the deal has come back round to them for the 扫尾: the
    page says the orbit is over and why; they come back and deal it.  Screenshots
    night-360-<lang>-orbit-*.png."""
    from datetime import timedelta

    from django.utils import timezone

    names = ["甲", "乙", "丙"]
    night = Night.objects.create(players=names, stakes="1、3", starting_bobo=2000,
                                 end_at=timezone.now() - timedelta(minutes=1))
    for _ in range(3):  # 甲 起头, 乙, 丙: the deal comes back to 甲
        night.add_event("hand", {"kind": "show", "nets": {"乙": 1, "丙": -1},
                                 "pot_to": "乙", "quan": True})
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies([{"name": "django_language", "value": lang,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/night/{night.token}/")
    page.select_option("#leave-player", "甲")
    page.locator("form:has(input[name=do][value=leave]) button[type=submit]").click()
    expect(page.locator("#next-title")).to_contain_text(
        "圈芒打完了" if lang == "zh" else "The last orbit is over")
    expect(page.locator(".next-hand")).to_contain_text(
        "由 甲 扫尾" if lang == "zh" else "甲 deals the 扫尾")
    expect(page.locator(".record-hand")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe(page)
    page.locator(".next-hand").screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-orbit-starter-away.png"), caret="initial")
    page.locator("form:has(input[name=do][value=back]) button[type=submit]").click()
    expect(page.locator(".record-hand")).to_have_count(1)
    expect(page.locator(".next-hand")).to_contain_text(
        "甲 发牌" if lang == "zh" else "甲 deals")
    page.locator(".next-hand").screenshot(
        path=str(ARTIFACTS / f"night-360-{lang}-orbit-starter-back.png"), caret="initial")
