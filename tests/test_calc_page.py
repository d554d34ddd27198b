"""Settlement calculator (/calc/): every seed settlement example entered through the
form gives the engine's result; the URL scheme; bad input is answered next to the field."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from engine import Seat, Split, get_rules, settle
from tests.english import unlinked
from tutorial.explain import explain, plain

pytestmark = pytest.mark.django_db
XJ = get_rules("xuanjing")

# 000 旋经 multi-player example 3 (engine/data/examples.json "xj-mp-3-bobo"), cards typed
# 头 first: choice 0 = the first two cards against the last two.
JIA = "B10 B9 R3 B6"
YI = "R2 R7 BJ B8"
BING = "RQ R8 B5 B5"
# 003's a/b/c (tests/test_engine_settle.py): a and b push, both beat c.
A = "RQ RQ R2 B4"
B = "R8 R8 B10 B7"
C = "R4 R4 B4 B8"


def form(*seats: tuple[str, int | str, str], **extra: str) -> dict[str, str]:
    """The GET fields the HTML form sends: n/s/c/k per row, f for folded."""
    data = {"go": "1", **extra}
    for i, (name, stake, cards) in enumerate(seats, start=1):
        data[f"n{i}"] = name
        data[f"s{i}"] = str(stake)
        if cards == "fold":
            data[f"f{i}"] = "1"
        else:
            data[f"c{i}"] = cards
            data[f"k{i}"] = "0"
    return data


def submit(client: Client, data: dict[str, str]) -> Any:
    response = client.get("/calc/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(response["Location"])
    assert page.status_code == 200
    return page


def engine_nets(seats: list[tuple[str, int, str]]) -> dict[str, int]:
    built = []
    for name, stake, cards in seats:
        if cards == "fold":
            built.append(Seat(name, stake, folded=True))
        else:
            c = cards.split()
            built.append(Seat(name, stake, Split.parse(" ".join(c[:2]), " ".join(c[2:]), XJ)))
    return settle(built, XJ).nets


EXAMPLES = {
    "xj-mp-3-bobo": ([("甲", 100, JIA), ("乙", 80, YI), ("丙", 50, BING)],
                     {"甲": -50, "乙": -50, "丙": 100}),
    "xj-mp-3-folded-pi-60": ([("甲", 100, JIA), ("乙", 80, YI), ("丙", 50, BING),
                              ("丁", 60, "fold")],
                             {"甲": -40, "乙": -50, "丙": 150, "丁": -60}),
    "app-settle-1": ([("a", 100, A), ("b", 100, B), ("c", 100, C)],
                     {"a": 0, "b": 100, "c": -100}),
    "app-settle-1-c150": ([("a", 100, A), ("b", 100, B), ("c", 150, C)],
                          {"a": 50, "b": 100, "c": -150}),
    "app-settle-2": ([("a", 50, "RQ RQ R2 R2"), ("b", 200, "R8 R8 R4 R4"),
                      ("c", 150, "B9 B8 B7 B5")],
                     {"a": 100, "b": 50, "c": -150}),
}


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_seed_examples_through_the_form(client: Client, example: str) -> None:
    seats, expected = EXAMPLES[example]
    page = submit(client, form(*seats))
    result = page.context["result"]
    assert result.settlement.nets == expected == engine_nets(seats)
    html = page.content.decode()
    for name, net in expected.items():
        shown = f"+{net}" if net > 0 else str(net)
        assert re.search(rf"{re.escape(name)}.*?</th>.*?{re.escape(shown)}</span>", html, re.S)


def test_000_explanations_name_the_caps(client: Client) -> None:
    seats, _ = EXAMPLES["xj-mp-3-folded-pi-60"]
    page = submit(client, form(*seats))
    text = re.sub(r"<[^>]+>", "", page.content.decode())
    assert "丙吃甲 50：丙自己只下了 50，最多从每家赢 50。" in text
    assert "丙吃乙 50：丙自己只下了 50，最多从每家赢 50。" in text
    assert "甲从丁的皮里再拿 10：丙拿走 50 后只剩 10。" in text
    assert "丙的尾最大，先吃皮" in text
    assert "甲和乙走（不输不赢）" in text


def test_003_explanation_of_what_is_left(client: Client) -> None:
    seats, _ = EXAMPLES["app-settle-2"]
    text = re.sub(r"<[^>]+>", "", submit(client, form(*seats)).content.decode())
    assert "a 吃 b 50：a 自己只下了 50，最多从每家赢 50。" in text
    assert "b 吃 c 100：c 下了 150，a 拿走 50 后只剩 100。" in text


def test_equal_hands_share(client: Client) -> None:
    seats = [("x", 100, "B10 B10 R7 B9"), ("y", 100, "B6 B6 R6 R10"), ("z", 150, "B9 B8 B7 B5")]
    page = submit(client, form(*seats))
    assert page.context["result"].settlement.nets == {"x": 75, "y": 75, "z": -150}
    assert "头尾完全一样大，一起吃" in re.sub(r"<[^>]+>", "", page.content.decode())
    assert "能拿的 150 平分，每人 75。" in re.sub(r"<[^>]+>", "", page.content.decode())


def test_equal_hands_share_as_evenly_as_their_stakes_allow(client: Client) -> None:
    """Equal hands with unequal stakes: 40 and 10 of 50 is not an even split, and the
    sentence does not call it one (it said 平分 beside them)."""
    url = ("/calc/?p=甲:40:RQ,R8,B7,B5:0&p=乙:10:RQ,B8,B7,B5:0&p=丙:100:R6,B9,R10,BJ:0"
           "&p=丁:30:fold")
    text = re.sub(r"<[^>]+>", "", client.get(url).content.decode())
    assert "一起吃丙：能拿的 50 尽量平分：甲 40，乙 10（每人最多拿自己下的数" in text
    assert "零头给座位在前的人，这一条是本站定的" in text  # RULES §5.4 is silent on it
    assert "能拿的 50 平分" not in text
    client.cookies["django_language"] = "en"
    text = re.sub(r"<[^>]+>", "", client.get(url).content.decode())
    assert ("the 50 they may take is split as evenly as their stakes allow: 甲 40, 乙 10"
            in text)
    assert "an odd chip goes to the earlier seat, a rule we chose" in text


def test_long_form_redirects_to_the_compact_url(client: Client) -> None:
    seats, _ = EXAMPLES["xj-mp-3-folded-pi-60"]
    response = client.get("/calc/", form(*seats))
    assert response["Location"] == (
        "/calc/?p=" + quote("甲") + ":100:B10,B9,R3,B6:0&p=" + quote("乙")
        + ":80:R2,R7,BJ,B8:0&p=" + quote("丙") + ":50:RQ,R8,B5,B5:0&p=" + quote("丁")
        + ":60:fold")


def test_compact_url_is_readable_and_shareable(client: Client) -> None:
    page = client.get("/calc/?p=a:50:RQ,RQ,R2,R2&p=b:200:R8-R8-R4-R4:0&p=c:150:B9 B8 B7 B5")
    assert page.status_code == 200
    assert page.context["result"].settlement.nets == {"a": 100, "b": 50, "c": -150}
    html = page.content.decode()
    assert 'id="share-url"' in html and "http://testserver/calc/?p=a:50:RQ,RQ,R2,R2" in html
    assert "data-copy=" in html  # the copy button (shown by calc.js)


def test_split_choice_changes_the_result(client: Client) -> None:
    # Typed as 天牌+黑9 | 猫猫+膏药: choice 0 = 天九王 / 猫膏三; choice 1 = 天猫八 / 九七六.
    base = "/calc/?p=a:10:RQ,B9,R6,R7:{}&p=b:10:R8,B8,R4,B4:0"
    zero = client.get(base.format(0)).context
    one = client.get(base.format(1)).context
    assert zero["table"].seats[0].split != one["table"].seats[0].split
    assert zero["table"].seats[0].split.head.display_name() == "天九王"
    html = client.get(base.format(1)).content.decode()
    assert 'name="k1" value="1" checked' in html


def test_the_split_is_settled_as_typed_with_the_suggestion_beside(client: Client) -> None:
    """Regression (issue 15): the advisor's split was settled instead of the one typed."""
    # Typed 天牌 猫猫 | 黑9 膏药 (head first): loses to b; the advisor's 天官九 | 猫九五
    # would push.
    page = client.get("/calc/?p=a:10:RQ,R6,B9,R7&p=b:10:R8,B10,B4,B5")
    seat = page.context["table"].seats[0]
    typed = Split.parse("RQ R6", "B9 R7", XJ)
    assert seat.split == typed and seat.choice == "0"
    [suggested] = [o for o in seat.options if o.suggested]
    assert suggested.split != typed and seat.suggestion == suggested
    b = Split.parse("R8 B10", "B4 B5", XJ)
    expected = settle([Seat("a", 10, typed), Seat("b", 10, b)], XJ).nets
    assert page.context["result"].settlement.nets == expected == {"a": -10, "b": 10}
    html = page.content.decode()
    assert 'name="k1" value="0" checked' in html
    assert "a</bdi> 照填的分法算；建议的分法是头" in html and "没有替你改" in html
    # The form (no choice sent) settles as typed too, and the link says so.
    response = client.get("/calc/", form(("a", 10, "RQ R6 B9 R7"), ("b", 10, "R8 B10 B4 B5"))
                          | {"k1": "", "k2": ""})
    assert response["Location"].endswith("p=a:10:RQ,R6,B9,R7:0&p=b:10:R8,B10,B4,B5:0")
    # Choosing the suggestion is the person's choice: then no note.
    chose = client.get(f"/calc/?p=a:10:RQ,R6,B9,R7:{suggested.index}&p=b:10:R8,B10,B4,B5")
    assert chose.context["table"].seats[0].split == suggested.split
    assert "没有替你改" not in chose.content.decode()


def test_sanhua_declaration(client: Client) -> None:
    url = "/calc/?p=a:30:R10,B10,BJ,B5:s&p=b:30:RQ,RQ,R2,B4:0&p=c:30:R4,R4,B4,B8:0"
    page = client.get(url)
    assert page.status_code == 200
    assert page.context["result"].settlement.nets == {"a": 0, "b": 30, "c": -30}
    assert "报 <span lang=\"zh-Hans\">三花十</span>" in page.content.decode()
    bad = client.get("/calc/?p=a:30:RQ,RQ,R2,B4:s&p=b:30:R4,R4,B4,B8:0")
    assert bad.status_code == 400
    assert "这手牌不是三花" in unlinked(bad.content.decode())


def test_a_hand_where_no_chips_move_says_why(client: Client) -> None:
    """"All 走" only when pairs were compared and every one was 走; when one player
    declares 三花 nobody is compared, and the page says only that no chips moved."""
    zou = client.get("/calc/?p=a:10:R6,B8,RQ,B7&p=b:10:B7,B10,BJ,JK")
    assert zou.context["result"].settlement.nets == {"a": 0, "b": 0}
    assert "这一手都是走" in unlinked(zou.content.decode())
    sanhua = client.get("/calc/?p=a:10:R10,B10,BJ,R3:s&p=b:10:RQ,B9,R2,R8:0")
    assert sanhua.context["result"].settlement.nets == {"a": 0, "b": 0}
    text = unlinked(sanhua.content.decode())
    assert "这一手没有钱易手" in text and "都是走" not in text


def test_app_rules_use_diwang(client: Client) -> None:
    # 地牌+黑9: 1 point under 旋经, 地九王 (above 天杠) under the app rules.
    url = "/calc/?p=a:10:R2,B9,B5,B7:0&p=b:10:RQ,R8,B6,B8:0"
    assert client.get(url).context["result"].settlement.nets["a"] == -10
    assert client.get(url + "&rules=app").context["result"].settlement.nets["a"] == 0


def errors_of(response: Any) -> dict[int, dict[str, str]]:
    return {s.row: s.errors for s in response.context["table"].seats if s.errors}


@pytest.mark.parametrize(
    ("data", "row", "field", "message"),
    [
        (form(("a", 10, "RQ RQ R2 R2"), ("b", 10, "RQ B9 B8 B7")), 2, "cards", "整副牌只有 2 张"),
        (form(("a", 10, "R3 R2 R8 R4"), ("b", 10, "R3 B9 B8 B7")), 2, "cards", "只有 1 张"),
        (form(("a", -5, "RQ RQ R2 R2"), ("b", 10, "B9 B8 B7 B5")), 1, "stake", "不能是负数"),
        (form(("a", "", "RQ RQ R2 R2"), ("b", 10, "B9 B8 B7 B5")), 1, "stake", "下了多少"),
        (form(("a", "ten", "RQ RQ R2 R2"), ("b", 10, "B9 B8 B7 B5")), 1, "stake", "整数"),
        (form(("a", 10, "RQ RQ XX R2"), ("b", 10, "B9 B8 B7 B5")), 1, "cards", "不认识的牌码“XX”"),
        (form(("a", 10, "RQ RQ R2"), ("b", 10, "B9 B8 B7 B5")), 1, "cards", "这里是 3 张"),
        (form(("a", 10, "RQ RQ R2 R2"), ("a", 10, "B9 B8 B7 B5")), 2, "name", "名字前面已经有了"),
        (form(("", 10, "RQ RQ R2 R2"), ("b", 10, "B9 B8 B7 B5")), 1, "name", "写上名字"),
        (form(("a", 10, "RQ RQ R2 R2"), ("b", 10, "")), 2, "cards", "写上四张牌"),
    ],
)
def test_bad_input_is_shown_next_to_the_field(
    client: Client, data: dict[str, str], row: int, field: str, message: str
) -> None:
    response = client.get("/calc/", data)
    assert response.status_code == 400
    errors = errors_of(response)
    assert message in errors[row][field], errors
    html = response.content.decode()
    assert f'id="{field[0]}{row}-error"' in html
    assert 'aria-invalid="true"' in html


def test_one_player_only(client: Client) -> None:
    response = client.get("/calc/", form(("a", 10, "RQ RQ R2 R2")))
    assert response.status_code == 400
    assert "至少要两个人" in response.content.decode()


def test_everyone_folded(client: Client) -> None:
    response = client.get("/calc/?p=a:10:fold&p=b:10:fold")
    assert response.status_code == 400
    assert "至少要有一个人亮牌" in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "p=garbage",
        "p=a:1&p=b",
        "p=a:b:c:d:e:f",
        "p=" + "x" * 5000,
        "p=a:99999999999999999999:RQ,RQ,R2,R2&p=b:1:B9,B8,B7,B5",
        "p=a:10:RQ,RQ,R2,R2:9&p=b:10:B9,B8,B7,B5",
        "p=a:10:RQ,RQ,R2,R2&p=b:10:B9,B8,B7,B5&rules=nonsense",
        "&".join(f"p=p{i}:10:fold" for i in range(12)),
        "p=%00:%00:%00",
        "n1=a&s1=1&c1=%F0%9F%82%A1&go=1",
        "night=../../etc&p=a:1:fold",
        "more=999",
        "more=abc",
    ],
)
def test_garbage_never_crashes(client: Client, query: str) -> None:
    response = client.get("/calc/?" + query)
    assert response.status_code in (200, 400)
    assert "Traceback" not in response.content.decode()


def test_more_rows(client: Client) -> None:
    page = client.get("/calc/", {"n1": "a", "more": "5"})
    assert page.status_code == 200
    assert len(page.context["table"].seats) == 5
    assert 'name="n5"' in page.content.decode()
    eight = client.get("/calc/?" + "&".join(f"p=p{i}:10:fold" for i in range(8)))
    assert 'name="more"' not in eight.content.decode()


@pytest.mark.parametrize("more", ["abc", "999", "0", "", "٣"])
def test_bad_row_count_is_said_with_a_400(client: Client, more: str) -> None:
    """A row count that is not 1-8 (the 再加一家 button's value): said, 400, the form as
    it was (never silently ignored)."""
    page = client.get("/calc/", {"n1": "a", "more": more})
    html = page.content.decode()
    assert page.status_code == 400
    assert "网址里的行数不对：要是 1 到 8 之间的整数。" in html
    assert len(page.context["table"].seats) == 3 and 'value="a"' in html


def test_card_picker_offers_only_cards_left(client: Client) -> None:
    page = client.get("/calc/?p=a:10:RQ,RQ,R3,B4&p=b:10:B9,B8,B7,B5")
    html = page.content.decode()
    assert re.search(r'data-code="RQ"[^>]*disabled', html)
    assert re.search(r'data-code="R3"[^>]*disabled', html)
    assert not re.search(r'data-code="B4"[^>]*disabled', html)


def test_htmx_gets_the_fragment_and_pushes_the_url(client: Client) -> None:
    seats, _ = EXAMPLES["app-settle-1"]
    response = client.get("/calc/", form(*seats), headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="calc-body"')
    assert "<html" not in html
    assert response["HX-Push-Url"].startswith("/calc/?p=a:100:")
    bad = client.get("/calc/", form(("a", -1, A), ("b", 1, B)), headers={"HX-Request": "true"})
    assert bad.status_code == 200 and "不能是负数" in bad.content.decode()


def test_no_inline_script_or_style(client: Client) -> None:
    html = client.get("/calc/?p=a:10:RQ,RQ,R2,R2&p=b:10:B9,B8,B7,B5&p=c:5:fold").content.decode()
    assert " style=" not in html and "<style" not in html
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag


def test_explain_module_api() -> None:
    seats = [Seat("甲", 100, Split.parse("B10 B9", "R3 B6", XJ)),
             Seat("乙", 80, Split.parse("R2 R7", "BJ B8", XJ)),
             Seat("丙", 50, Split.parse("RQ R8", "B5 B5", XJ)),
             Seat("丁", 60, folded=True)]
    text = explain(settle(seats, XJ), seats, XJ)
    last = plain(text.transfers[-1])
    assert last == "甲从丁的皮里再拿 10：丙拿走 50 后只剩 10。"
    assert len(text.hands) == 4 and len(text.outcomes) == 3 and text.pi is not None
    assert plain(text.nets[2]) == "丙赢 150。"
    assert text.all()[0] == text.hands[0]
    assert '<span lang="zh-Hans" data-group="B5-B5">小5一对</span>' in text.hands[2]


def test_english_explanations(client: Client) -> None:
    client.cookies["django_language"] = "en"
    seats, _ = EXAMPLES["xj-mp-3-folded-pi-60"]
    page = submit(client, form(*seats))
    text = re.sub(r"<[^>]+>", "", page.content.decode())
    assert "Settling up" in text
    assert "丙 takes 50 from 甲: 丙 staked only 50, so 丙 can win at most 50 from each player." \
        in text


def test_english_keeps_chinese_words_tagged(client: Client) -> None:
    client.cookies["django_language"] = "en"
    seats, _ = EXAMPLES["xj-mp-3-folded-pi-60"]
    html = submit(client, form(*seats)).content.decode()
    result = html[html.index('id="result-title"'):html.index('class="share"')]
    # Every run of Chinese text in the explanations sits in a lang="zh-Hans" element.
    for line in re.findall(r"<li>(.*?)</li>", result, re.S):
        text = re.sub(r'<span lang="zh-Hans"[^>]*>.*?</span>', "", line)
        assert not re.search(r"[\u4e00-\u9fff]", re.sub(r"<[^>]+>", "", text)), line


def test_split_chances_read_as_the_quiz_prints_them(client: Client) -> None:
    """The calculator rounded 吃 / 走 / 死 one by one (0.35 % read "0%", 0.43 % too, and a
    row need not sum to 100): now the split quiz's whole percents, a tiny chance "<1%"."""
    html = client.get("/calc/?p=a:10:B4,B8,B7,B5&p=b:10:RQ,RQ,R2,R2").content.decode()
    odds = re.findall(r'split-option__odds">([^<]*)<', html)
    assert "对一个随机对手：吃 1% · 走 13% · 死 86%" in odds  # 0.43 % gets the leftover point
    assert "对一个随机对手：吃 &lt;1% · 走 9% · 死 91%" in odds
    assert "对一个随机对手：吃 98% · 走 2% · 死 0%" in odds  # 天 and 地 pairs never lose both


# Everyone but 甲 folded (a 揍芒, or a fold-out in a later round): nothing is compared.
FOLDERS = (("乙", 1, "fold"), ("丙", 3, "fold"), ("丁", 2, "fold"))


@pytest.mark.parametrize(("cards", "compact"), [("", ""), ("R2 R7", "R2,R7"),
                                                ("R2 R7 BJ B8", "R2,R7,BJ,B8:0")])
def test_the_one_left_alone_needs_no_cards(client: Client, cards: str, compact: str) -> None:
    """The player left when everyone else folded is asked no cards (after a 揍芒 only two
    were dealt): none, two or four are taken, and the hand settles the same (RULES.md §4:
    they take every 皮)."""
    response = client.get("/calc/", form(("甲", 3, cards), *FOLDERS))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert response["Location"] == ("/calc/?p=" + quote("甲") + f":3:{compact}&p=" + quote("乙")
                                    + ":1:fold&p=" + quote("丙") + ":3:fold&p=" + quote("丁")
                                    + ":2:fold")
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.context["result"].settlement.nets == {"甲": 6, "乙": -1, "丙": -3, "丁": -2}
    text = plain(page.content.decode()).replace(" ", "")
    assert "皮还剩" not in text  # every 皮 is taken whole
    if not cards:
        assert "甲下了3：别的人都甩了，甲不用亮牌比大小。" in text
    assert "别的人都甩了，只剩甲，皮归甲（甩牌的人一共留下6）" in text
    assert "的尾最大" not in text  # nobody's 尾 was compared
    client.cookies["django_language"] = "en"
    english = plain(client.get(response["Location"]).content.decode())
    assert "Everyone but 甲 folded, so the 皮 goes to 甲" in english


def test_the_one_left_alone_put_in_at_least_what_any_folder_did(client: Client) -> None:
    """A player folds rather than match a bigger bet, so the one left alone put in at
    least as much as each folder; typed otherwise, the calculator took each 皮 only up to
    甲's stake and gave the rest back, beside "皮归甲" (RULES §4: the one left takes all
    皮).  Refused, with the reason, in both languages."""
    seats = (("甲", 3, ""), ("乙", 1, "fold"), ("丙", 8, "fold"))
    response = client.get("/calc/", form(*seats))
    assert response.status_code == 400
    assert errors_of(response)[1]["stake"] == (
        "别人都甩了，只剩 甲：甩牌是因为跟不起更大的注，所以 甲 下的不会比甩牌的人少"
        "（甩牌的人最多下了 8）。")
    client.cookies["django_language"] = "en"
    response = client.get("/calc/", form(*seats))
    assert "cannot have put in less than a player who folded" in errors_of(response)[1]["stake"]
    assert client.get("/calc/", form(("甲", 8, ""), *seats[1:])).status_code == 302


@pytest.mark.parametrize(("seats", "row", "message"), [
    ((("甲", 3, "R2"), *FOLDERS), 1,
     "牌可以不写，或者写第一轮的两张（揍芒只发了两张）、或者四张；这里是 1 张"),
    ((("甲", 3, "R2 R7 BJ"), *FOLDERS), 1, "这里是 3 张"),
    ((("甲", 3, ""), ("乙", 3, "RQ RQ R2 R2"), ("丙", 1, "fold")), 1, "写上四张牌"),
    ((("甲", 3, "R2 R7"), ("乙", 3, "RQ RQ R2 R2"), ("丙", 1, "fold")), 1, "要四张牌，这里是 2 张"),
])
def test_cards_are_still_asked_of_those_who_compare(client: Client, seats: Any, row: int,
                                                    message: str) -> None:
    """Only the one left alone may skip the cards (or give two); two players still in
    compare, so each gives four."""
    response = client.get("/calc/", form(*seats))
    assert response.status_code == 400
    assert message in errors_of(response)[row]["cards"], errors_of(response)


def test_english_asks_the_one_alone_for_no_cards(client: Client) -> None:
    client.cookies["django_language"] = "en"
    html = client.get("/calc/").content.decode()
    assert "When everyone else folded, the one player left compares with nobody" in html
    response = client.get("/calc/", form(("甲", 3, "R2"), *FOLDERS))
    html = response.content.decode()
    assert "leave the cards empty, enter four, or enter just the two of round 1" in html
    # The 揍芒 of the reason is glossed in brackets: the reason itself is not in brackets
    # (it read "(a 揍芒 (zòu máng, fold-out mango) deals only two)").
    from tests.test_language import problems
    assert problems(html) == []
    assert "since a" in html and "deals no more. This has 1." in html
