"""The practice table pages: every action and every rejection, via the test client."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pytest
from django.test import Client

from engine.game import Act, Action, Game, Phase
from tests.tables import at_showdown, game_of, history_of, save_game, table_of
from tests.test_table_i18n import everyone_calls
from tutorial.models_table import PracticeTable

pytestmark = pytest.mark.django_db


def create(client: Client, bots: int = 2, level: str = "simple", **extra: str) -> str:
    data = {"bots": str(bots), "level": level, "stakes": "1、3", "sanhua": "on",
            "mango": "fixed", **extra}
    response = client.post("/table/", data)
    assert response.status_code == 303
    url = response["Location"]
    assert re.fullmatch(r"/table/[0-9a-f-]{36}/", url)
    return url


def stacked(url: str, hands: Mapping[int, Sequence[str]], dealer: int = 1) -> Game:
    """Deal the next hand with these cards; with 2 bots and dealer 1 the human speaks
    first in round 1."""
    g = game_of(url)
    g.state.dealer = dealer
    g.apply(Action(Act.DEAL, cards=g.stacked_deck(hands)))
    save_game(url, g)
    return g


def post(client: Client, url: str, path: str, htmx: bool = True, **data: object) -> object:
    seq = data.pop("seq", table_of(url).seq)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url + path, {"seq": seq, **data}, **headers)


# ---------------------------------------------------------------- start, pages
def test_start_form(client: Client) -> None:
    html = client.get("/table/").content.decode()
    assert "开桌" in html and 'name="bots"' in html and 'name="diwang"' in html
    assert " style=" not in html and "<style" not in html


@pytest.mark.parametrize("data", [
    {"bots": "0"}, {"bots": "8"}, {"bots": "x"}, {"bots": "2", "level": "god"},
    {"bots": "2", "stakes": "9、9"}, {"bots": "2", "mango": "free"},
])
def test_start_rejects_bad_options(client: Client, data: dict[str, str]) -> None:
    response = client.post("/table/", {"level": "simple", "stakes": "1、3", **data})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert PracticeTable.objects.count() == 0


def test_options_reach_the_engine(client: Client) -> None:
    url = create(client, bots=3, level="mixed", stakes="5、10", diwang="on", mango="escalating")
    g = game_of(url)
    assert [s.bot for s in g.seats] == [None, "simple", "strong", "simple"]
    assert g.rules.stakes.name == "5、10" and g.rules.diwang and g.rules.mango == "escalating"
    assert g.seats[0].bobo == 500
    assert client.get("/table/").content.decode().count(url) == 1  # resume link


def test_full_page_and_fragment(client: Client) -> None:
    url = create(client)
    full = client.get(url).content.decode()
    assert "<html" in full and 'id="board"' in full and "table.js" in full
    assert " style=" not in full and "<style" not in full
    for tag in re.findall(r"<script[^>]*>", full):
        assert "src=" in tag
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<section id="board"') and "<html" not in fragment
    restore = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in restore.content.decode()  # an htmx history restore needs the page


def test_other_visitors_cannot_see_or_act(client: Client) -> None:
    url = create(client)
    other = Client()
    assert other.get(url).status_code == 404
    assert other.post(url + "act", {"seq": 0, "act": "deal"}).status_code == 404
    assert other.post(url + "bot", {"seq": 0}).status_code == 404
    assert other.get(url + "history").status_code == 404
    assert client.get("/table/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert client.get("/table/not-a-uuid/").status_code == 404
    assert table_of(url).seq == 0


def test_get_is_not_allowed_for_actions(client: Client) -> None:
    url = create(client)
    assert client.get(url + "act").status_code == 405


# ---------------------------------------------------------------- actions
def test_deal_and_bots_step_by_step(client: Client) -> None:
    url = create(client)
    g = game_of(url)
    g.state.dealer = 0  # 挡家 = bot 1, a bot (2) speaks first
    save_game(url, g)
    r = post(client, url, "act", act="deal")
    assert r.status_code == 200  # type: ignore[attr-defined]
    html = r.content.decode()  # type: ignore[attr-defined]
    assert 'hx-trigger="load delay:700ms, submit"' in html
    before = table_of(url).seq
    r = post(client, url, "bot")
    assert r.status_code == 200 and table_of(url).seq == before + 1  # type: ignore[attr-defined]


def test_no_js_post_redirects(client: Client) -> None:
    url = create(client)
    r = post(client, url, "act", htmx=False, act="deal")
    assert r.status_code == 303 and r["Location"] == url  # type: ignore[index,attr-defined]


def test_call_raise_tuo_qiao_fold(client: Client) -> None:
    url = create(client)
    stacked(url, {})
    html = client.get(url).content.decode()
    assert 'data-act="call"' in html and 'data-act="raise"' in html and 'data-act="qiao"' in html
    assert 'min="10"' in html and 'max="100"' in html
    assert post(client, url, "act", act="raise", amount=12).status_code == 200  # type: ignore[attr-defined]
    g = game_of(url)
    assert g.hand is not None and g.hand.committed[0] == 12
    # bots answer; play on until it is the human's turn again or the hand is over
    for _ in range(10):
        g = game_of(url)
        if g.to_act == 0 or g.phase is not Phase.BETTING:
            break
        post(client, url, "bot")
    g = game_of(url)
    if g.to_act == 0:
        legal = g.legal_actions()
        act = "tuo" if Act.TUO in legal else "qiao"
        assert post(client, url, "act", act=act).status_code == 200  # type: ignore[attr-defined]
    url2 = create(client)
    stacked(url2, {})
    assert post(client, url2, "act", act="qiao").status_code == 200  # type: ignore[attr-defined]
    assert game_of(url2).hand.committed[0] == 100  # type: ignore[union-attr]
    url3 = create(client)
    stacked(url3, {})
    assert post(client, url3, "act", act="fold").status_code == 200  # type: ignore[attr-defined]
    assert game_of(url3).hand.folded[0]  # type: ignore[union-attr]


def play_bots(client: Client, url: str, limit: int = 30) -> Game:
    for _ in range(limit):
        g = game_of(url)
        t = table_of(url)
        h = g.hand
        if h is not None and g.phase is Phase.BETTING and h.round >= 3 and 0 in g.in_hand() \
                and t.squeezed != h.number:
            assert post(client, url, "squeeze").status_code == 200  # type: ignore[attr-defined]
            continue
        if g.to_act is None or g.to_act == 0:
            return g
        assert post(client, url, "bot").status_code == 200  # type: ignore[attr-defined]
    return game_of(url)


def test_check_squeeze_split_hint_and_settlement(client: Client) -> None:
    url = create(client)
    stacked(url, {0: ["RQ", "B9", "R8", "R8"], 1: ["B5", "B7", "B6", "B4"],
                  2: ["B5", "B7", "B6", "B4"]})
    post(client, url, "act", act="call")
    g = play_bots(client, url)
    assert g.hand is not None
    while g.phase is Phase.BETTING and g.to_act == 0:
        legal = g.legal_actions()
        act = "check" if Act.CHECK in legal else "call"
        assert post(client, url, "act", act=act).status_code == 200  # type: ignore[attr-defined]
        g = play_bots(client, url)
    if g.phase is Phase.SHOWDOWN:
        html = client.get(url).content.decode()
        assert 'name="head"' in html
        hint = client.get(url + "?hint=1", HTTP_HX_REQUEST="true").content.decode()
        assert "hint--best" in hint and "★" in hint
        # a card not in the hand, one card, the same card twice: refused
        for head in (["♠Q", "♥Q"], ["♥Q"], ["♥Q", "♥Q"]):
            r = post(client, url, "act", act="split", head=head)
            assert r.status_code == 400  # type: ignore[attr-defined]
        mine = g.hand.cards[0]
        r = post(client, url, "act", act="split", head=[mine[0], mine[1]])
        assert r.status_code == 200  # type: ignore[attr-defined]
        g = play_bots(client, url)
    assert g.phase is Phase.BETWEEN
    html = client.get(url).content.decode()
    assert "结果" in html
    result = history_of(url)[-1].result
    assert result is not None
    if result.how == "showdown":
        assert "吃皮" in html and "比牌顺序" in html


def test_squeeze_blocks_bots_and_actions(client: Client) -> None:
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    # everyone calls round 1, round 2 all check except one bet, to reach round 3
    while g.phase is Phase.BETTING and g.hand is not None and g.hand.round < 3:
        legal = g.legal_actions()
        actor = g.to_act
        assert actor is not None
        if Act.CHECK in legal and g.hand.round == 2 and not g.hand.bet_this_round:
            g.apply(Action(Act.RAISE, actor, legal.min_raise))
        else:
            g.apply(Action(Act.CALL, actor))
    save_game(url, g)
    assert g.hand is not None and g.hand.round == 3
    html = client.get(url).content.decode()
    assert "squeeze__cover" in html and 'role="slider"' in html and "bot-step" not in html
    seq = table_of(url).seq
    assert post(client, url, "bot").status_code == 409  # type: ignore[attr-defined]
    assert post(client, url, "act", act="call").status_code in (400, 409)  # type: ignore[attr-defined]
    assert post(client, url, "squeeze").status_code == 200  # type: ignore[attr-defined]
    assert table_of(url).squeezed == g.hand.number and table_of(url).seq == seq
    assert post(client, url, "squeeze").status_code == 409  # type: ignore[attr-defined]
    assert "squeeze__cover" not in client.get(url).content.decode()


def test_sanhua_button(client: Client) -> None:
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({0: ["R10", "B10", "BJ", "B5"]})))
    everyone_calls(g)
    while g.to_act not in (0, None):
        from engine.bots import choose_split

        g.apply(choose_split(g, g.to_act, "simple"))
    save_game(url, g)
    t = table_of(url)
    t.squeezed = g.hand.number if g.hand else 0
    t.save()
    if g.to_act == 0:
        assert "报三花" in client.get(url).content.decode()
        assert post(client, url, "act", act="sanhua").status_code == 200  # type: ignore[attr-defined]


def test_between_hands_rebuy_end_leave(client: Client) -> None:
    url = create(client)
    html = client.get(url).content.decode()
    assert 'value="deal"' in html and 'value="rebuy"' in html
    assert 'value="end"' not in html and "打圈芒" not in html  # no hand played yet
    r = post(client, url, "act", act="end")
    assert r.status_code == 400 and "现在不能“打" in r.content.decode()  # type: ignore[attr-defined]
    assert post(client, url, "act", act="rebuy", amount=49).status_code == 400  # type: ignore[attr-defined]
    assert post(client, url, "act", act="rebuy", amount=60).status_code == 200  # type: ignore[attr-defined]
    assert game_of(url).seats[0].bobo == 160
    g = stacked(url, {})  # one hand: everyone folds to the 挡家
    for seat in (0, 1):
        g.apply(Action(Act.FOLD, seat))
    save_game(url, g)
    assert 'value="end"' in client.get(url).content.decode()
    assert post(client, url, "act", act="end").status_code == 200  # type: ignore[attr-defined]
    assert game_of(url).state.quan_start is not None
    assert 'value="end"' not in client.get(url).content.decode()
    assert post(client, url, "act", act="leave").status_code == 200  # type: ignore[attr-defined]
    g = game_of(url)
    assert g.seats[0].left


def test_bot_rebuys_when_empty(client: Client) -> None:
    url = create(client)
    g = game_of(url)
    g.state.seats[2].bobo = 0
    save_game(url, g)
    assert 'value="deal"' not in client.get(url).content.decode()
    assert post(client, url, "bot").status_code == 200  # type: ignore[attr-defined]
    assert game_of(url).seats[2].bobo == 50


# ---------------------------------------------------------------- rejections
def test_stale_and_replayed_posts_change_nothing(client: Client) -> None:
    url = create(client)
    stacked(url, {})
    seq = table_of(url).seq
    assert post(client, url, "act", act="call", seq=seq).status_code == 200  # type: ignore[attr-defined]
    state = table_of(url).state
    r = post(client, url, "act", act="call", seq=seq)  # the same POST again
    assert r.status_code == 409  # type: ignore[attr-defined]
    assert "过期" in r.content.decode()  # type: ignore[attr-defined]
    assert table_of(url).state == state
    r = post(client, url, "act", htmx=False, act="fold", seq=seq)
    assert r.status_code == 409 and "<html" in r.content.decode()  # type: ignore[attr-defined]
    assert post(client, url, "bot", seq=seq).status_code == 409  # type: ignore[attr-defined]


@pytest.mark.parametrize("data", [
    {"act": "raise", "amount": "-5"}, {"act": "raise", "amount": "9"},
    {"act": "raise", "amount": "101"}, {"act": "raise", "amount": "99999999999999"},
    {"act": "raise", "amount": "ten"}, {"act": "raise"}, {"act": "check"},
    {"act": "bogus"}, {"act": ""}, {"act": "deal"}, {"act": "split", "head": "♥Q"},
    {"act": "sanhua"}, {"act": "rebuy", "amount": "100"},
])
def test_tampered_values_are_refused(client: Client, data: dict[str, str]) -> None:
    url = create(client)
    stacked(url, {0: ["B5", "B7", "B6", "B4"]})
    state = table_of(url).state
    r = post(client, url, "act", **data)
    assert 400 <= r.status_code < 500  # type: ignore[attr-defined]
    assert 'role="alert"' in r.content.decode()  # type: ignore[attr-defined]
    assert table_of(url).state == state


@pytest.mark.parametrize(("amount", "says"), [
    ("99999999", "返到多少：数字太大，最多 100"), ("101", "返到多少：数字太大，最多 100"),
    ("9", "返招至少要到 10"), ("-5", "返招至少要到 10"),
])
def test_raise_refusal_states_the_limits_the_board_shows(client: Client, amount: str,
                                                         says: str) -> None:
    url = create(client)
    stacked(url, {})
    assert "最少 10，最多 100" in client.get(url).content.decode()
    for htmx in (True, False):
        r = post(client, url, "act", htmx=htmx, act="raise", amount=amount)
        assert r.status_code == 400  # type: ignore[attr-defined]
        assert says in r.content.decode()  # type: ignore[attr-defined]


def test_hint_link_after_a_refusal_asks_the_table_page(client: Client) -> None:
    """Without JavaScript a refused split is shown at …/act: its 提示 still opens the hint."""
    url = create(client)
    at_showdown(url)
    r = post(client, url, "act", htmx=False, act="split", head="x")
    assert r.status_code == 400  # type: ignore[attr-defined]
    html = r.content.decode()  # type: ignore[attr-defined]
    assert f'href="{url}?hint=1"' in html and f'hx-get="{url}?hint=1"' in html
    assert "hint--best" in client.get(url + "?hint=1").content.decode()


@pytest.mark.parametrize("seq", ["", "x", "-1", "99999999999"])
def test_bad_seq(client: Client, seq: str) -> None:
    url = create(client)
    r = client.post(url + "act", {"seq": seq, "act": "deal"})
    assert 400 <= r.status_code < 500
    assert table_of(url).seq == 0


def test_not_your_turn(client: Client) -> None:
    url = create(client)
    stacked(url, {}, dealer=0)  # a bot speaks first
    r = post(client, url, "act", act="call")
    assert r.status_code == 409  # type: ignore[attr-defined]
    assert "不是你" in r.content.decode()  # type: ignore[attr-defined]


def test_no_bot_to_move(client: Client) -> None:
    url = create(client)
    assert post(client, url, "bot").status_code == 409  # type: ignore[attr-defined]
    assert post(client, url, "squeeze").status_code == 409  # type: ignore[attr-defined]


# ---------------------------------------------------------------- persistence, history
def test_state_survives_a_restart_and_history_replays(client: Client) -> None:
    url = create(client)
    post(client, url, "act", act="deal")
    for _ in range(60):
        g = game_of(url)
        if g.phase is Phase.BETWEEN and history_of(url):
            break
        t = table_of(url)
        h = g.hand
        if h is not None and g.phase is Phase.BETTING and h.round >= 3 and 0 in g.in_hand() \
                and t.squeezed != h.number:
            post(client, url, "squeeze")
        elif g.to_act == 0:
            legal = g.legal_actions()
            if g.phase is Phase.SHOWDOWN:
                post(client, url, "act", act="split", head=h.cards[0][:2])  # type: ignore[union-attr]
            else:
                post(client, url, "act", act="check" if Act.CHECK in legal else "call")
        else:
            post(client, url, "bot")
    assert history_of(url)
    # a "restart": a fresh client with the same session cookie sees the same table
    again = Client()
    again.cookies = client.cookies
    assert again.get(url).status_code == 200
    html = client.get(url + "history").content.decode()
    assert "第 1 手" in html and "回放" in html
    step = client.get(url + "history?hand=1&step=1").content.decode()
    assert "第 1 手回放" in step and "下一步" in step
    assert client.get(url + "history?hand=9").status_code == 404
    r = client.get(url + "history?hand=x")
    assert r.status_code == 400 and "网址里的手的编号不对：要是不小于 1 的整数。" in \
        r.content.decode()
    # a step the hand does not have: said, 400 (never silently the deal or the end)
    last = int(re.search(r"第 0 / (\d+) 步", client.get(url + "history?hand=1").content
                         .decode())[1])  # type: ignore[index]
    assert client.get(url + f"history?hand=1&step={last}").status_code == 200
    for bad in ("abc", "", "-1", str(last + 1)):
        r = client.get(url + "history", {"hand": "1", "step": bad})
        assert r.status_code == 400, bad
        assert f"网址里的步数不对：要是 0 到 {last} 之间的整数。" in r.content.decode()
    # a stored hand whose actions cannot be replayed (edited by hand): "no such hand", not a 500
    row = table_of(url).hands.get(number=1)
    row.log = [*row.log[:1], {"kind": "dance"}]
    row.save()
    assert client.get(url + "history?hand=1&step=1").status_code == 404


def test_squeeze_even_when_everyone_was_all_in(client: Client) -> None:
    """All in before the fourth card: the cards are dealt out, but the visitor still
    squeezes the fourth card before splitting, and the bots wait for it."""
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({0: ["RQ", "B9", "R8", "R8"]})))
    while g.phase is Phase.BETTING:
        actor = g.to_act
        assert actor is not None
        legal = g.legal_actions()
        g.apply(Action(Act.QIAO if Act.QIAO in legal else Act.CALL, actor))
    assert g.phase is Phase.SHOWDOWN
    save_game(url, g)
    html = client.get(url).content.decode()
    assert "squeeze__cover" in html and "bot-step" not in html
    hand = g.hand
    assert hand is not None
    split = post(client, url, "act", act="split", head=hand.cards[0][:2])
    assert split.status_code in (400, 409)  # type: ignore[attr-defined]
    assert post(client, url, "squeeze").status_code == 200  # type: ignore[attr-defined]
    assert "squeeze__cover" not in client.get(url).content.decode()


def test_hint_shows_chances_as_the_split_rows_do(client: Client) -> None:
    """The hint's 吃/走/死 are whole percents summing to 100, a tiny chance "<1%"
    (engine.quiz.shown_percents, as the quiz, course, calculator and walkthroughs show
    them), not fractions like 0.981."""
    url = create(client)
    at_showdown(url, {0: ["RQ", "RQ", "R8", "R8"]})
    hint = client.get(url + "?hint=1", HTTP_HX_REQUEST="true").content.decode()
    cells = re.findall(r'data-label="(?:吃|走|死)">([^<]*)</td>', hint)
    assert cells and not any(c.startswith("0.") for c in cells)
    assert "&lt;1%" in cells  # 天牌一对 over 人牌一对: it loses less than 1 time in 100
    for row in zip(cells[0::3], cells[1::3], cells[2::3], strict=True):
        assert sum(int(c.rstrip("%")) for c in row if c[0].isdigit()) <= 100


def test_equal_best_hands_are_said_to_share_the_mango_pot() -> None:
    """Two equal best hands eat the 皮 together and share the pot: the result says so and
    each one's 芒果 line counts their half (engine: HandResult.pot_share)."""
    from django.template.loader import render_to_string

    from engine.game import Game
    from tutorial.views.table import _result_view

    g = Game.new([(x, None) for x in ("甲", "乙", "丙")], seed=7, dealer=0)
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    g.apply(Action(Act.RAISE, 2, 10))
    g.apply(Action(Act.FOLD, 0))
    g.apply(Action(Act.FOLD, 1))  # 揍芒: the pot is 10 at the next deal
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({
        2: ["B10", "B10", "R4", "B5"], 0: ["B4", "B4", "R4", "B5"], 1: ["B7", "B8", "R3", "B9"]})))
    while g.phase.value == "betting":
        actor = g.to_act
        legal = g.legal_actions()
        g.apply(Action(Act.CALL, actor) if Act.CALL in legal
                else Action(Act.RAISE, actor, legal.min_raise))
    while g.phase.value == "showdown":
        actor = g.to_act
        g.apply(Action(Act.SPLIT, actor, None, tuple(g.hand.cards[actor])))
    view = _result_view(g, g.history[-1])
    assert view is not None and view["pot_sharers"] == "丙、你"
    assert {n["name"]: n["mango"] for n in view["nets"]} == {"丙": 5, "你": 0, "乙": -5}
    html = render_to_string("table/result.html", {"result": view, "number": 2})
    assert "丙、你 头尾一样大，一起吃皮，平分芒果池 10" in html
