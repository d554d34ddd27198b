"""A word out of a fixed list in the address (``?rules=``, ``?cat=``) that is not in the
list is said on the page with a 400, in both languages, never quietly replaced by the
default (tutorial.query.query_choice)."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

RULES_ZH = "网址里的规则“nonsense”不对：只能是 xuanjing、app 中的一个。"
RULES_EN = "The address is wrong: the rules can only be xuanjing or app, not “nonsense”."


def get(client: Client, url: str, language: str, **params: str) -> tuple[int, str]:
    client.cookies["django_language"] = language
    response = client.get(url, params)
    return response.status_code, unescape(response.content.decode())


@pytest.mark.parametrize("url", ["/pairs/", "/pairs/RQ-RQ/", "/splits/", "/splits/table/"])
@pytest.mark.parametrize(("language", "says"), [("zh-hans", RULES_ZH), ("en", RULES_EN)])
def test_unknown_rules_are_said_with_a_400(client: Client, url: str, language: str,
                                           says: str) -> None:
    status, html = get(client, url, language, rules="nonsense")
    assert status == 400 and says in html, url
    assert 'role="alert"' in html
    for good in ("app", "xuanjing", ""):  # "" or no rules at all: the default rules
        assert get(client, url, language, rules=good)[0] == 200, (url, good)
    assert get(client, url, language)[0] == 200


@pytest.mark.parametrize(("language", "says"), [
    ("zh-hans", "网址里的类别“king”不对：只能是 dingerhuang、pair、tianjiuwang、diwang、gang、"
                "points、zhou 中的一个。"),
    ("en", "The address is wrong: the category can only be dingerhuang, pair, "
           "tianjiuwang, diwang, gang, points or zhou, not “king”."),
])
def test_unknown_category_is_said_with_a_400(client: Client, language: str, says: str) -> None:
    status, html = get(client, "/pairs/", language, cat="king")
    assert status == 400 and says in html
    assert html.count('class="pair-row"') == 151  # every group, and the page says why
    assert get(client, "/pairs/", language, cat="pair")[0] == 200
    assert get(client, "/pairs/", language, cat="")[0] == 200  # the form's "every category"
    # htmx (the filter form): the fragment says it too
    client.cookies["django_language"] = language
    response = client.get("/pairs/", {"cat": "king"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and says in unescape(response.content.decode())


def test_splits_table_prices_nothing_under_unknown_rules(client: Client) -> None:
    status, html = get(client, "/splits/table/", "zh-hans", rules="nonsense",
                       cards="RQ R6 R7 B9", stake="20", v1="B10 R8", s1="20")
    assert status == 400 and RULES_ZH in html and 'aria-invalid="true"' in html


@pytest.mark.parametrize(("language", "says"), [
    ("zh-hans", "不认识的规则“nonsense”"), ("en", "nonsense"),
])
def test_calculator_with_unknown_rules_is_a_400_even_before_it_is_asked(
        client: Client, language: str, says: str) -> None:
    status, html = get(client, "/calc/", language, rules="nonsense")
    assert status == 400 and says in html
    assert get(client, "/calc/", language, rules="app")[0] == 200


@pytest.mark.parametrize(("language", "says"), [
    ("zh-hans", "网址里的提示不对：只能是 1。"),
    ("en", "The address is wrong: the hint can only be 1."),
])
def test_practice_table_hint_other_than_1_is_said(client: Client, language: str,
                                                  says: str) -> None:
    from tests.tables import at_showdown
    from tests.test_table_views import create

    url = create(client)
    at_showdown(url)
    status, html = get(client, url, language, hint="yes")
    assert status == 400 and says in html and "hint--best" not in html
    status, html = get(client, url, language, hint="1")
    assert status == 200 and "hint--best" in html
