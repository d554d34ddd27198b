"""Regression (issue 15): the scorekeeper says what happened.

* A 揍芒 hand with blank amounts was recorded as "没有输赢"; RULES.md §4/§6: everyone
  else folded in round 1 and a folder loses at least the 皮 to the one left, so such a
  hand is refused with the reason next to each amount.
* The chart plotted 钵钵 including re-buys (a big loser who re-bought ended up the top
  line); it plots each player's result with a line at zero.  An empty night drew an axis
  with nothing on it; now it draws nothing.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.english import unlinked
from tests.test_night_flow import bobo, create, hand, last_hands, post, url
from tutorial.views.night import chart

pytestmark = pytest.mark.django_db


def test_a_zou_hand_with_blank_amounts_is_refused(client: Client) -> None:
    night = create(client)
    response = hand(client, night, expect=400, kind="zou", pot_to="乙")
    html = unlinked(response.content.decode())
    assert html.count("至少输掉皮 1") == 3  # 甲, 丙, 丁 folded: each lost the 皮 at least
    assert "揍芒：甲 甩了牌" in html and "没有输赢" not in html.split('id="hands-title"')[1]
    assert night.last_seq == 0
    # A folder who lost only part of the 皮 is refused too; the 皮 itself is enough.
    hand(client, night, expect=400, kind="zou", pot_to="乙", 甲=-1, 乙=2, 丙=-1, 丁=0)
    hand(client, night, kind="zou", pot_to="乙", 甲=-1, 乙=3, 丙=-1, 丁=-1)
    assert last_hands(night)[0].nets == {"甲": -1, "乙": 3, "丙": -1, "丁": -1}


def test_the_chart_plots_results_not_stacks(client: Client) -> None:
    night = create(client)
    hand(client, night, pot_to="乙", 甲=-2000, 乙=2000)  # 甲 loses everything
    post(client, night, do="rebuy", player="甲", amount=3000)  # …and buys in big
    hand(client, night, pot_to="甲", 甲=10, 丙=-10)
    assert bobo(night)["甲"] == 3010  # the biggest stack, yet down 1990
    drawn = chart(night, night.state())
    assert drawn is not None
    assert drawn.rows == [(0, [0, 0, 0, 0]), (1, [-2000, 2000, 0, 0]),
                          (2, [-1990, 2000, -10, 0])]  # no extra point for the re-buy
    lowest = max(drawn.series, key=lambda s: s.label_y)
    assert lowest.name == "甲"
    page = client.get(url(night)).content.decode()
    zero = re.search(r'class="chart__zero"[^>]*y1="([\d.]+)"', page)
    assert zero and float(zero[1]) == drawn.zero_y
    assert '<span translate="no">甲</span> 现在 -1990' in page
    assert "输赢走势" in page


def test_an_empty_night_draws_no_axis(client: Client) -> None:
    night = create(client)
    assert chart(night, night.state()) is None
    page = client.get(url(night)).content.decode()
    assert "chart__svg" not in page and "记下第一手以后，这里画出每人的输赢" in page


def test_amounts_out_of_range_say_what_the_limits_are(client: Client) -> None:
    night = create(client)
    page = client.get(url(night)).content.decode()
    assert "补多少（50 到 10,000,000）" in page  # the re-buy input shows its limits
    for amount in ("100000000", "49", "x"):
        response = post(client, night, 400, do="rebuy", player="甲", amount=amount)
        assert "补钵钵写 50 到 10,000,000 之间的整数" in response.content.decode()
    huge = hand(client, night, expect=400, pot_to="甲", 甲="99999999999", 乙="-5")
    assert "太大了：最多写 10,000,000" in huge.content.decode()
    lost = hand(client, night, expect=400, pot_to="甲", 甲="5", 乙="-99999999999")
    assert "乙 只有 2000，最多输 2000" in lost.content.decode()
    assert night.last_seq == 0
