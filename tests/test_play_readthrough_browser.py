"""The practice table's history on a phone (read-through, December 2026): a hand's
result keeps its tables inside its panels in English, where the 芒果 column's heading
carries its gloss."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tables import bots_fold_to_qiao, open_table

# How far each result table sticks out of the panel around it, and the player names
# (first column) broken over two lines.
MEASURE = """
() => {
  const out = {outside: [], broken: []};
  for (const table of document.querySelectorAll(".history-hand .result__nets")) {
    const right = table.getBoundingClientRect().right;
    for (let p = table.parentElement; p; p = p.parentElement) {
      if (!p.classList.contains("panel")) continue;
      const edge = p.getBoundingClientRect().right - parseFloat(getComputedStyle(p).paddingRight);
      if (right > edge + 1) out.outside.push(`${Math.round(right)} > ${Math.round(edge)}`);
    }
    for (const cell of table.querySelectorAll("tbody td:first-child")) {
      const lh = parseFloat(getComputedStyle(cell).lineHeight);
      const range = document.createRange();
      range.selectNodeContents(cell);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) out.broken.push(cell.textContent);
    }
  }
  return out;
}
"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_history_keeps_the_results_tables_inside_their_panels_at_360px(
        live_server: Any, phone_page: Any) -> None:
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 780})
    url = open_table(page, live_server, "simple", bots=2)
    bots_fold_to_qiao(url, 2)  # hand 2 pays a 揍芒
    page.context.add_cookies([{"name": "django_language", "value": "en",
                               "url": live_server.url}])
    page.goto(url + "history")
    assert page.locator(".history-hand .result__nets th", has_text="芒果").count()
    found = page.evaluate(MEASURE)
    assert found == {"outside": [], "broken": []}
