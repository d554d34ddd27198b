"""/pairs/four/ in a real browser: axe and a screenshot; a search hit links to an entry."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_four_card_names_page(live_server: Any, browser_page: Any, screenshot: Any,
                              axe: Any) -> None:
    page = browser_page
    page.goto(live_server.url + "/pairs/?q=%E4%B9%9D%E6%9C%88%E4%B9%9D")
    page.locator('.four-hits a[href="/pairs/four/#jiuyuejiu"]').click()
    page.wait_for_url("**/pairs/four/#jiuyuejiu")
    assert page.locator("#jiuyuejiu").is_visible()
    screenshot(page, "four-card-names", full_page=True)
    axe(page)
