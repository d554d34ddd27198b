"""Every number read from a request goes through one parser with a length cap: a
5,000-digit integer (beyond Python's 4,300-digit int() limit) is a 4xx with a message."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from engine import quiz as q
from engine.numbers import MAX_DIGITS, NumberError, parse_int
from engine.rules import get_rules
from tests.tables import table_of
from tutorial.models_table import PracticeTable

HUGE = "9" * 5000


@given(st.integers(min_value=-(10**MAX_DIGITS) + 1, max_value=10**MAX_DIGITS - 1))
def test_whole_numbers_round_trip(number: int) -> None:
    assert parse_int(f" {number} ", -(10**MAX_DIGITS), 10**MAX_DIGITS) == number


@pytest.mark.parametrize(("text", "out_of_range", "too_small"), [
    (None, False, False), ("", False, False), ("x", False, False), ("--5", False, False),
    ("1.5", False, False), ("²", False, False), ("٣", False, False), ("1e3", False, False),
    (HUGE, True, False), ("-" + HUGE, True, True), ("11", True, False), ("-1", True, True),
    ("2", True, True), ("+2", True, True),
])
def test_bad_numbers_raise_one_typed_error(text: str | None, out_of_range: bool,
                                           too_small: bool) -> None:
    with pytest.raises(NumberError) as caught:
        parse_int(text, 3, 10)
    assert caught.value.out_of_range is out_of_range
    assert caught.value.too_small is too_small


@pytest.mark.django_db
def test_huge_bots_count_is_a_400(client: Client) -> None:
    response = client.post("/table/", {"bots": HUGE, "level": "simple", "stakes": "1、3",
                                       "mango": "fixed"})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not PracticeTable.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["seq", "amount"])
def test_huge_table_fields_are_a_4xx(client: Client, field: str) -> None:
    response = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3",
                                       "mango": "fixed"})
    url = response["Location"]
    before = table_of(url).seq
    data = {"seq": str(before), "act": "rebuy", "amount": "100", field: HUGE}
    response = client.post(url + "act", data)
    assert 400 <= response.status_code < 500
    assert "数字太大" in response.content.decode()
    assert table_of(url).seq == before


@pytest.mark.django_db
def test_huge_order_position_is_a_400(client: Client) -> None:
    response = client.get("/quiz/order/?seed=7&level=1")
    token = response.context["token"]
    question = q.generate("order", 7, 1, get_rules("xuanjing"))
    answer = dict(q.solve(question, get_rules("xuanjing")))
    answer[next(iter(answer))] = HUGE
    response = client.post("/quiz/order/", {"token": token, **answer})
    assert response.status_code == 400
    assert "quiz-problem" in response.content.decode()


@pytest.mark.django_db
def test_huge_quiz_seed_is_a_400(client: Client) -> None:
    response = client.get(f"/quiz/order/?seed={HUGE}&level=1")
    assert response.status_code == 400


@pytest.mark.django_db
def test_quiz_seed_beyond_a_database_integer_is_a_400(client: Client) -> None:
    # PostgreSQL's integer column holds at most 2**31 - 1: a larger seed was a 500 there
    assert client.get(f"/quiz/order/?seed={2**31}&level=1").status_code == 400
    assert client.get(f"/quiz/order/?seed={2**31 - 1}&level=1").status_code == 200
