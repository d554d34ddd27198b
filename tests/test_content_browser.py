"""The rules sections added for issue 13 and the pages added for issues 13 and 15
(/rules/app/, /rules/compare/), in a real browser: no sideways scroll on a phone, no
accessibility violations, a screenshot of each new section in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SECTIONS = [("/rules/", "deal"), ("/rules/", "play"), ("/rules/", "terms"), ("/rules/", "about"),
            ("/rules/", "variants"), ("/rules/app/", "differences"), ("/rules/app/", "app-words"),
            ("/rules/compare/", "order"), ("/rules/compare/", "equal"),
            ("/rules/compare/", "diwang"), ("/splits/", "thumb")]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_new_sections_on_phone_and_desktop(
    live_server: Any, browser_page: Any, phone_page: Any, axe: Any, size: str, language: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser_page if size == "desktop" else phone_page
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    for path in dict.fromkeys(p for p, _ in SECTIONS):
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{path} scrolls sideways"
        axe(page)
        if size == "phone" and path in ("/rules/", "/rules/app/"):
            # tables of prose stack into labelled rows instead of narrow columns
            tables = page.locator(".stack-table")
            assert tables.count() >= 1, path
            display = tables.first.locator("td").first.evaluate(
                "td => getComputedStyle(td).display")
            assert display in ("block", "flex"), path  # flex: a number
        for anchor in (a for p, a in SECTIONS if p == path):
            slug = path.strip("/").replace("/", "-")
            name = f"content-{slug}-{anchor}-{language}-{size}.png"
            page.locator(f"#{anchor}").screenshot(path=str(ARTIFACTS / name))
