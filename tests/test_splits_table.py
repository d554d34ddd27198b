"""/splits/ "at the table" (/splits/table/): the split at a real showdown, priced by
engine.showdown, with and without the folded seats' 皮."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.showdown import parse_situation, price
from tests.english import game_terms, untranslated

pytestmark = pytest.mark.django_db

SPOT = {"cards": "RQ R6 R7 B9", "stake": "20", "v1": "B10 R8", "s1": "20", "pi": "3 10"}
SITUATION = {"me": {"cards": ["RQ", "R6", "R7", "B9"], "stake": 20},
             "opponents": [{"visible": ["B10", "R8"], "stake": 20}], "folded": [3, 10]}


def text(html: str) -> str:
    """The page's text (glossary terms are links at their first use)."""
    return re.sub(r"<[^>]+>", "", html)


def evs(html: str) -> list[str]:
    return re.findall(r'data-ev="([^"]+)"', html)


def chips(x: float) -> str:
    text = f"{abs(x):.1f}"
    return text if text == "0.0" else ("+" if x > 0 else "-") + text


def test_blank_form_on_the_splits_page(client: Client) -> None:
    html = client.get("/splits/").content.decode()
    assert 'id="at-table"' in html and 'href="#at-table"' in html
    assert 'action="/splits/table/"' in html and 'hx-get="/splits/table/"' in html
    assert 'id="table-answer"' not in html and 'id="table-error"' not in html


def test_answer_is_the_engine_pricing_and_shows_what_the_pi_changes(client: Client) -> None:
    response = client.get("/splits/table/", SPOT)
    assert response.status_code == 200
    html = response.content.decode()
    with_pi = price(parse_situation(SITUATION))
    without = price(parse_situation({**SITUATION, "folded": []}))
    assert evs(html) == [chips(o.ev) for o in with_pi.options]
    assert with_pi.best != without.best  # this spot is the example: the 皮 decides
    assert "皮改变了最好的分法" in text(html) and "算上 13 的皮" in text(html)
    assert html.count("sp-row--best") == 1 and "不算皮时最好" in text(html)
    assert "数字是精确的" in text(html)


def test_several_opponents_are_sampled_with_their_error(client: Client) -> None:
    params = {**SPOT, "v2": "B4 B7", "s2": "15", "v3": "R2 JK", "s3": "60", "pi": ""}
    html = text(client.get("/splits/table/", params).content.decode())
    assert html.count("±&nbsp;") >= 3 and "标准误差" in html
    assert "桌上没有皮：最好的分法是" in html
    assert "期望（不算皮）" not in html


def test_sanhua_is_an_option_where_allowed(client: Client) -> None:
    html = client.get("/splits/table/", {**SPOT, "cards": "R10 B10 BJ R8"}).content.decode()
    assert "三花十" in text(html) and "不分牌，这一手不输不赢" in text(html)
    assert len(evs(html)) == 4


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"cards": "RQ R6 R7"}, "cards", "你的牌是四张，你填了 3 张。"),
    ({"cards": "RQ R6 R7 XX"}, "cards", "不认识"),
    ({"stake": "0"}, "stake", "你的下注要填 1 到 100,000 的整数。"),
    ({"stake": "²"}, "stake", "你的下注要填"),
    ({"v1": "B10"}, "v1", "对手 1 的明牌是两张，你填了 1 张。"),
    ({"s1": ""}, "s1", "对手 1 的下注要填"),
    ({"v1": "", "s1": ""}, "v1", "至少填一个还没甩牌的对手"),
    ({"v1": "RQ RQ"}, "cards", "整副牌只有 2 张，桌上填了 3 张。"),
    ({"pi": "3 -1"}, "pi", "每家甩牌的皮要填 0 到"),
    ({"pi": "1 1 1 1 1 1 1"}, "pi", "一桌最多坐 8 人。"),
])
def test_bad_input_is_refused_by_the_field(client: Client, change: dict[str, str], field: str,
                                           message: str) -> None:
    response = client.get("/splits/table/", {**SPOT, **change})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in text(html) and 'role="alert"' in html
    assert re.search(rf'name="{field}"[^>]*aria-invalid="true"', html)
    assert 'id="table-answer"' not in html
    fragment = client.get("/splits/table/", {**SPOT, **change}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200  # htmx swaps it in, the page stays
    assert fragment.content.decode().lstrip().startswith('<div id="table-tool"')
    assert "HX-Push-Url" not in fragment


def test_htmx_gets_the_tool_only_and_a_shareable_address(client: Client) -> None:
    response = client.get("/splits/table/", SPOT, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="table-tool"') and "<html" not in html
    assert response["HX-Push-Url"].startswith("/splits/table/?cards=RQ+R6+R7+B9")
    full = client.get(response["HX-Push-Url"]).content.decode()
    assert "<html" in full and evs(full) == evs(html)


def test_english_is_complete(client: Client) -> None:
    client.cookies["django_language"] = "en"
    terms = game_terms()
    for params in (SPOT, {**SPOT, "v2": "B4 B7", "s2": "15", "pi": ""},
                   {**SPOT, "cards": "R10 B10 BJ R8"}, {**SPOT, "stake": "x"}, {}):
        html = client.get("/splits/table/", params).content.decode()
        assert '<html lang="en"' in html
        assert untranslated(html, terms) == [], params
    english = client.get("/splits/table/", SPOT).content.decode()
    assert "The 皮 changes the best split" in text(english)
    # the 头 / 尾 pills are labels: a first-use gloss there fell out of the pill, unseen
    pills = re.findall(r'<span class="sp-group__word"[^>]*>(.*?)</span>', english)
    assert pills and all("<" not in p for p in pills), pills


def test_no_csrf_token_and_cached(client: Client) -> None:
    first = client.get("/splits/table/", SPOT).content.decode()
    assert "csrfmiddlewaretoken" not in first
    assert client.get("/splits/table/", SPOT).content.decode() == first


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(["cards", "stake", "v1", "s1", "v2", "s2", "pi", "rules"]),
                       st.text(max_size=30)))
def test_any_input_is_200_or_400(params: dict[str, Any]) -> None:
    response = Client().get("/splits/table/", params)
    assert response.status_code in (200, 400)
    assert "Traceback" not in response.content.decode()
