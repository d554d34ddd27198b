"""Phones: every step of every walkthrough fits in about one and a half phone screens.

At 360×780 the step (its dots, title, hands or seats, text, tables and pager) is at most
1,170 px tall, in Chinese and in English.  The tallest step's height is printed.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_language import _all_steps
from tests.test_phone_browser import PHONE_360

MAX_HEIGHT = 1170  # 1.5 × 780
PARTS = 4  # the steps in four tests, which pytest-xdist's workers share


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_walkthrough_step_fits_one_and_a_half_phone_screens(
        live_server: Any, phone_page: Any, language: str, part: int) -> None:
    page = phone_page
    page.set_viewport_size(PHONE_360)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    heights = {}
    for url in _all_steps()[part::PARTS]:
        page.goto(live_server.url + url, timeout=60_000)
        heights[url] = round(page.locator("article.wt-step").bounding_box()["height"])
    tallest = max(heights, key=heights.__getitem__)
    print(f"{language}, part {part}: {len(heights)} steps, tallest {tallest} {heights[tallest]} px")
    too_tall = {url: h for url, h in heights.items() if h > MAX_HEIGHT}
    print(f"{len(too_tall)} taller than {MAX_HEIGHT} px:",
          sorted(too_tall.items(), key=lambda item: -item[1])[:12])
    assert not too_tall, too_tall
