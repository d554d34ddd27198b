"""/rules/chart/ printed to PDF by Chromium: exactly one A4 page in each language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).parent / "artifacts"
A4_CONTENT = {"width": 718, "height": 1047}  # 190 x 277 mm at 96 px per inch


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_the_page_counter() -> None:
    assert pdf_pages(b"<< /Type /Pages >> << /Type /Page >> << /Type/Page >>") == 2


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_chart_prints_on_one_a4_page(
    live_server: Any, browser_page: Any, screenshot: Any, language: str
) -> None:
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(live_server.url + "/rules/chart/")
    screenshot(page, f"chart-{language}")
    page.emulate_media(media="print")
    page.set_viewport_size(A4_CONTENT)  # what the sheet holds inside its 10 mm margins
    screenshot(page, f"chart-print-{language}")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"chart-{language}.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 1
