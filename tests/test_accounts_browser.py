"""Accounts in real browsers (issue 22): a visitor opens a table without an account, signs
up from the header (the recovery codes shown once), and the table is in the account; a
phone (360 px) with a table of its own logs in to the same account and then holds both;
logging out leaves them in the account.  Screenshots in tests/artifacts/accounts-*.png
(zh and en, 1280 and 360 px); axe on every account page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tutorial.models_table import PracticeTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "river-card-2718"


def open_table(page: Any, base: str) -> str:
    page.goto(base + "/table/")
    page.get_by_role("button", name="开桌").click()
    page.wait_for_url("**/table/*-*/")
    return str(page.url)


def mine(page: Any, base: str) -> list[str]:
    page.goto(base + "/table/")
    return sorted(page.locator("main a[href^='/table/']").evaluate_all(
        "links => links.map(a => a.getAttribute('href')).filter(h => h.length > 20)"))


def test_sign_up_merge_then_log_in_on_a_phone(
    live_server: Any, browser_page: Any, phone_page: Any, axe: Any,
    screenshot: Callable[..., Any],
) -> None:
    base = live_server.url
    laptop = browser_page
    first = open_table(laptop, base)
    laptop.get_by_role("link", name="登录/注册").click()
    axe(laptop)
    laptop.get_by_role("link", name="注册一个").click()
    laptop.fill("#id_username", "learner")
    laptop.fill("#id_password1", PASSWORD)
    laptop.fill("#id_password2", PASSWORD)
    axe(laptop)
    laptop.get_by_role("button", name="注册").click()
    # the click returns before the codes page has come (the password is hashed first)
    expect(laptop.locator(".recovery-codes code")).to_have_count(10)
    codes = laptop.locator(".recovery-codes code").all_inner_texts()
    assert len(set(codes)) == 10
    axe(laptop)
    screenshot(laptop, "accounts-codes-1280")
    laptop.get_by_role("link", name="存好了，继续").click()
    expect(laptop.locator(".recovery-codes")).to_have_count(0)
    assert "learner" in laptop.inner_text(".account-nav")
    axe(laptop)
    screenshot(laptop, "accounts-account-1280")
    assert mine(laptop, base) == [first.removeprefix(base)]

    # a phone with a table of its own logs in: it lands back where it was, with both
    phone = phone_page
    phone.set_viewport_size({"width": 360, "height": 780})
    second = open_table(phone, base)
    for language in ("en", "zh-hans"):  # the header fits at 360 px
        phone.goto(base + f"/lang/?language={language}&next=/table/")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, language
        screenshot(phone, f"accounts-header-{language}-360", full_page=False)
    phone.get_by_role("link", name="登录/注册").click()
    phone.fill("#id_username", "learner")
    phone.fill("#id_password", PASSWORD)
    screenshot(phone, "accounts-login-360")
    phone.get_by_role("button", name="登录").click()
    phone.wait_for_url(base + "/table/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    both = sorted([first.removeprefix(base), second.removeprefix(base)])
    assert mine(phone, base) == both == mine(laptop, base)
    assert PracticeTable.objects.filter(owner__startswith="user:").count() == 2
    response = phone.goto(first)  # the phone plays on at the laptop's table
    assert response is not None and response.status == 200

    # English account page on the phone
    phone.goto(base + "/lang/?language=en&next=/accounts/")
    assert "Download my data" in phone.inner_text("main")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    axe(phone)
    screenshot(phone, "accounts-account-en-360")

    # logging out keeps everything in the account
    phone.get_by_role("button", name="Log out").click()
    phone.wait_for_url(base + "/")
    assert "Log in / sign up" in phone.inner_text(".account-nav")
    assert mine(phone, base) == []
    assert mine(laptop, base) == both


def test_delete_account_in_the_browser(live_server: Any, browser_page: Any, axe: Any,
                                       screenshot: Callable[..., Any]) -> None:
    base = live_server.url
    page = browser_page
    open_table(page, base)
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", "leaver")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="注册").click()
    expect(page.locator(".recovery-codes code")).to_have_count(10)  # signed up
    page.goto(base + "/accounts/")
    page.get_by_role("link", name="删除账号……").click()
    axe(page)
    screenshot(page, "accounts-delete-1280")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="输入密码，永久删除").click()
    page.wait_for_url(base + "/")
    assert "账号和里面的一切都删除了" in page.inner_text(".messages")
    assert not PracticeTable.objects.exists()


def browser_log_in(page: Any, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/?next=/coach/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="登录").click()
    page.wait_for_url(base + "/coach/")


def test_the_coach_switch_follows_the_account_from_laptop_to_phone(
    live_server: Any, browser_page: Any, phone_page: Any, axe: Any,
    monkeypatch: pytest.MonkeyPatch, screenshot: Callable[..., Any],
) -> None:
    """Turned off on the laptop, the coach is off on the phone (360 px) logged in to the
    same account: the coach's page says so and the table's result offers to turn it on;
    turned on again on the phone, it is on at the laptop."""
    from django.contrib.auth.models import User
    from django.test import Client

    from tests.coach_hands import play_hands

    base = live_server.url
    User.objects.create_user("switcher", password=PASSWORD)
    client = Client()
    assert client.post("/accounts/login/", {"username": "switcher",
                                            "password": PASSWORD}).status_code == 302
    table = play_hands(client, monkeypatch, 11, 1)  # a finished hand in the account
    laptop, phone = browser_page, phone_page
    phone.set_viewport_size({"width": 360, "height": 780})
    browser_log_in(laptop, base, "switcher")
    browser_log_in(phone, base, "switcher")
    expect(phone.locator(".coach-switch button[value=off]")).to_be_visible()
    laptop.locator(".coach-switch button").click()
    expect(laptop.locator(".coach-switch button[value=on]")).to_be_visible()

    for language in ("zh-hans", "en"):
        phone.goto(base + f"/lang/?language={language}&next=/coach/")
        expect(phone.locator(".coach-switch button[value=on]")).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, language
        axe(phone)
        screenshot(phone, f"accounts-coach-off-{language}-360")
        phone.goto(base + f"/table/{table.id}/")
        expect(phone.locator(".coach-hook .coach-switch button[value=on]")).to_be_visible()
        expect(phone.locator(".coach-hook__summary")).to_have_count(0)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, language
        phone.locator(".coach-hook").scroll_into_view_if_needed()
        screenshot(phone, f"accounts-coach-off-table-{language}-360", full_page=False)
    phone.goto(base + "/lang/?language=zh-hans&next=/coach/")

    phone.locator(".coach-switch button").click()  # on again, on the phone
    expect(phone.locator(".coach-switch button[value=off]")).to_be_visible()
    laptop.reload()
    expect(laptop.locator(".coach-switch button[value=off]")).to_be_visible()
    expect(laptop.locator("#switch-title + form p")).to_have_text(
        "现在开着：每手打完，牌桌下面马上出教练的评语。")


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_change_password_clicked_twice_keeps_the_phone_logged_in(
    live_server: Any, phone_page: Any, axe: Any, screenshot: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch, lang: str,
) -> None:
    """A double click: the form submitted again 0.3 s later, while the first POST is on
    its way; the browser drops the first answer (and the new session cookie in it) and
    shows the second.  The second is made to reach the server after the first changed the
    password (its session is read 3 s late), so it carries the session the first one
    replaced.  The phone (360 px) stays logged in, is told the form was sent twice, and
    the password is the new one."""
    import time

    from django.contrib.auth.models import User

    from tutorial.sessions import SessionStore

    loads: list[int] = []
    load = SessionStore.load

    def second_late(self: SessionStore) -> Any:
        loads.append(1)
        time.sleep({1: 0.6, 2: 3}.get(len(loads), 0))  # the first answers after 0.3 s
        return load(self)

    base = live_server.url
    User.objects.create_user("clicker", password=PASSWORD)
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 780})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    page.goto(base + "/accounts/login/?next=/accounts/password/")
    page.fill("#id_username", "clicker")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(base + "/accounts/password/")
    new = "another-pass-3141"
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", new)
    page.fill("#id_new_password2", new)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    monkeypatch.setattr(SessionStore, "load", second_late)
    page.evaluate("""() => { const form = document.querySelector('main form.account-form');
        form.requestSubmit(); setTimeout(() => form.requestSubmit(), 300); }""")
    expect(page.locator(".messages")).to_be_visible(timeout=20000)  # the first is aborted
    assert len(posts) == 2
    expect(page.locator(".messages")).to_contain_text(
        "改密码的表单提交了两次" if lang == "zh-hans" else "The form was sent twice")
    assert page.url == base + "/accounts/"
    assert "clicker" in page.inner_text(".account-nav")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe(page)
    screenshot(page, f"accounts-password-twice-{lang}-360", full_page=False)
    page.reload()
    assert "clicker" in page.inner_text(".account-nav")  # still logged in
    assert User.objects.get(username="clicker").check_password(new)
