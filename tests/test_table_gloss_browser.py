"""English table in a real browser: after the learner splits (htmx), the result shows each
group name with its pinyin and English gloss at its first use (issue 15)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.english import glossed_once
from tests.tables import at_showdown, game_of, open_table, shown_groups, wait_for_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_english_result_glosses_group_names(browser_page: Any, live_server: Any,
                                            screenshot: Callable[..., Any]) -> None:
    page = browser_page
    url = open_table(page, live_server, "simple")
    # every seat's cards stacked: a random deal once showed two groups of one name (R8-R7
    # and R8-B7, both 人十五) glossed twice; tests/test_table_gloss.py keeps that case
    at_showdown(url, {0: ["RQ", "B9", "R8", "R7"], 1: ["B5", "B7", "B6", "B4"],
                      2: ["B8", "R7", "R6", "R3"]})
    page.context.add_cookies([{"name": "django_language", "value": "en",
                               "url": live_server.url}])
    page.goto(url)
    mine = game_of(url).hand.cards[0]  # type: ignore[union-attr]
    for label in mine[:2]:
        page.check(f".split__pick input[value='{label}']")
    page.click(".split button[type=submit]")
    wait_for_result(page, ".result .result__splits")
    glossed_once(page.content(), shown_groups(url))
    screenshot(page, "table-result-en-glossed")
