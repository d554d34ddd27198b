"""The coach's own page in a real browser: found from the table's start page, the
switch, the sessions table stacked on a phone; zh and en; axe; screenshots."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.coach_hands import play_hands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDER_THAN_VIEW = "() => document.documentElement.scrollWidth > window.innerWidth"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_find_switch_and_sessions_on_a_phone(live_server: Any, phone_page: Any,
                                             monkeypatch: pytest.MonkeyPatch, screenshot: Any,
                                             axe: Any, lang: str) -> None:
    client = Client()
    table = play_hands(client, monkeypatch, 11, 1)
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 780})
    page.context.add_cookies([
        {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url},
        {"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(live_server.url + "/table/")
    page.locator('a[href="/coach/"]').first.click()
    expect(page.locator("h1")).to_have_text("教练" if lang == "zh-hans" else "Coach")
    expect(page.locator(f'a[href="/coach/{table.id}/"]')).to_be_visible()
    assert not page.evaluate(WIDER_THAN_VIEW)
    axe(page)
    screenshot(page, f"coach-index-{lang}-phone")
    page.locator(".coach-switch button").click()  # off, and back on this page
    expect(page).to_have_url(live_server.url + "/coach/")
    expect(page.locator(".coach-switch button[value=on]")).to_be_visible()
