"""Players' names and a night's title (issue 12): bidi overrides and zero-width characters
are stripped, a name that is empty after that is refused, names are unique after
normalisation within a night and within a calculator table, visitor text is shown
isolated (<bdi>), and the CSV file name does not reveal the night's row id."""

from __future__ import annotations

import unicodedata

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tutorial.models_night import Night
from tutorial.visitor_text import clean, key

pytestmark = pytest.mark.django_db

RLO, PDF, LRI, PDI = "\u202e", "\u202c", "\u2066", "\u2069"  # bidi override, isolate
ZWSP, ZWJ, BOM = "\u200b", "\u200d", "\ufeff"


def night_form(*names: str, title: str = "") -> dict[str, str]:
    data = {f"player{i}": n for i, n in enumerate(names, start=1)}
    return data | {"stakes": "1、3", "bobo": "2000", "end": "18:00", "title": title}


def test_clean_drops_bidi_and_zero_width_characters() -> None:
    assert clean(f"{RLO}甲{PDF}") == "甲"
    assert clean(f"A{ZWSP}l{ZWJ}i{BOM}ce{LRI}x{PDI}") == "Alicex"
    assert clean("  张\u3000 三\n") == "张 三"  # ideographic space, runs of whitespace
    assert clean("ＡＢＣ") == "ABC"  # full-width letters
    assert key("Bob") == key(f"b{ZWSP}ob") == key("ＢＯＢ")


@given(st.text())
def test_clean_leaves_nothing_that_reorders_or_hides(text: str) -> None:
    out = clean(text)
    assert all(unicodedata.category(c) not in ("Cc", "Cf") for c in out)
    assert out == out.strip() and clean(out) == out


def test_night_names_are_cleaned_and_unique_after_cleaning(client: Client) -> None:
    response = client.post("/night/", night_form("甲", f"甲{ZWSP}", f"{RLO}{ZWJ}", "bob", "BOB"))
    assert response.status_code == 400
    html = response.content.decode()
    assert html.count("每人名字要不一样") == 2  # 甲 twice, bob twice
    assert "只有看不见的字符" in html
    assert Night.objects.count() == 0

    response = client.post("/night/", night_form(f"{RLO}甲{PDF}", f"乙{ZWSP}",
                                                 title=f"周五{RLO}的局"))
    assert response.status_code == 302
    night = Night.objects.get()
    assert night.players == ["甲", "乙"] and night.title == "周五的局"
    page = client.get(response["Location"]).content.decode()
    assert '<bdi translate="no">周五的局</bdi>' in page
    assert '<bdi translate="no">甲</bdi> 发牌' in page
    assert RLO not in page and ZWSP not in page


def test_visitor_text_from_before_is_still_isolated(client: Client) -> None:
    response = client.post("/night/", night_form("甲", "乙"))
    night = Night.objects.get(token=response["Location"].split("/")[2])
    Night.objects.filter(pk=night.pk).update(title=f"{RLO}abc")  # stored before the fix
    page = client.get(response["Location"]).content.decode()
    assert f'<h1><bdi translate="no">{RLO}abc</bdi></h1>' in page


def test_calc_names_are_cleaned_and_unique_after_cleaning(client: Client) -> None:
    response = client.get("/calc/", {"p": ["甲:10:fold", f"甲{ZWSP}:10:RQ,R2,R8,R4",
                                           f"{RLO}:10:B10,B4,B6,BJ"]})
    assert response.status_code == 400
    html = response.content.decode()
    assert "每人名字要不一样" in html and "只有看不见的字符" in html
    ok = client.get("/calc/", {"p": [f"{RLO}甲:10:fold", "乙:10:RQ,R2,R8,R4:0",
                                     "丙:10:B10,B4,B6,BJ:0"]})
    assert ok.status_code == 200 and RLO not in ok.content.decode()
    assert '<bdi translate="no">甲</bdi>' in ok.content.decode()


def test_csv_file_name_reveals_no_row_id(client: Client) -> None:
    response = client.post("/night/", night_form("甲", "乙"))
    night = Night.objects.get(token=response["Location"].split("/")[2])
    exported = client.get(f"/night/v/{night.view_token}/csv")
    disposition = exported["Content-Disposition"]
    assert f"-{night.pk}.csv" not in disposition
    assert disposition.startswith('attachment; filename="chexuan-night-20')


BLANK = ["\u3164", "\uffa0", "\u2800", "\u115f", "\u1160", "\u3164\u2800 \u115f\u1160"]


@pytest.mark.parametrize("name", BLANK)
def test_names_that_render_blank_are_refused(client: Client, name: str) -> None:
    assert clean(name) == ""
    response = client.post("/night/", night_form("甲", name))
    assert response.status_code == 400 and "只有看不见的字符" in response.content.decode()
    assert client.post("/night/", night_form("甲", "乙", title=name)).status_code == 302
    assert Night.objects.get().title == ""  # a blank title is no title
    assert clean(f"甲{name}乙").replace(" ", "") == "甲乙"


@pytest.mark.parametrize(("a", "b"), [
    ("甲", "甲\u034f"), ("甲", "甲\ufe0f"), ("A", "\u0410"), ("Anna", "\u0410nna"),
    ("paypal", "раураl"), ("bob", "ＢＯＢ"), ("Alice", "alice"), ("甲 乙", "甲\u2800乙"),
])
def test_lookalike_names_are_one_player(client: Client, a: str, b: str) -> None:
    assert key(a) == key(b)
    response = client.post("/night/", night_form(a, b))
    assert response.status_code == 400 and "每人名字要不一样" in response.content.decode()
    assert Night.objects.count() == 0
    calc = client.get("/calc/", {"p": [f"{a}:10:fold", f"{b}:10:RQ,R2,R8,R4"]})
    assert calc.status_code == 400 and "每人名字要不一样" in calc.content.decode()


@pytest.mark.parametrize(("a", "b"), [("甲", "乙"), ("Anna", "Anne"), ("张三", "张 三")])
def test_different_names_stay_different(a: str, b: str) -> None:
    assert key(a) != key(b)


@given(st.text())
def test_key_is_stable_under_cleaning(text: str) -> None:
    assert key(clean(text)) == key(text)
