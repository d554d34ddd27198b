"""tutorial.percentages: the one way pages round shares; the texts read as the shares do."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tutorial.percentages import percentage, percentages
from tutorial.views.splits import percent, percents


def test_the_split_advisor_never_shows_a_real_chance_as_zero() -> None:
    assert percent(0.0004) == "0.04%"  # read "0.0%"
    assert percent(0.25) == "25.0%"
    assert percents(0.002, 0.0021) == ("0.20%", "0.21%")


def test_fewest_decimals_that_keep_three_shares_in_order() -> None:
    assert percentages(0.5, 0.3, 0.2) == ("50", "30", "20")
    assert percentages(0.501, 0.499, 0.0) == ("50.1", "49.9", "0.0")
    assert percentage(0.123, least=1) == "12.3"
    assert percentage(0.000001, least=1) == "<0.01"
    assert percentage(0.9999999) == ">99.99"


@given(st.lists(st.floats(0, 1), min_size=1, max_size=3))
def test_zero_and_hundred_only_when_exact(shares: list[float]) -> None:
    for share, text in zip(shares, percentages(*shares), strict=True):
        if text[0].isdigit():
            assert (float(text) == 0) == (share == 0)
            assert (float(text) == 100) == (share == 1)
