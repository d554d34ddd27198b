"""Game-night scorekeeper (/night/): a whole evening through the organiser's link —
芒果 (揍芒, 休芒, 圈芒), a hand from the calculator, re-buys, undo, the 圈芒 orbit, the
dinner split, the read-only link and the CSV export."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db import IntegrityError
from django.test import Client
from django.utils import timezone

from tests.english import unlinked
from tutorial.models_night import HandRecord, Night, dinner_split

pytestmark = pytest.mark.django_db

PLAYERS = ["甲", "乙", "丙", "丁"]
SEAT = {name: i for i, name in enumerate(PLAYERS)}
CALC_000 = ("p=甲:100:B10,B9,R3,B6:0&p=乙:80:R2,R7,BJ,B8:0&p=丙:50:RQ,R8,B5,B5:0"
            "&p=丁:60:fold")


def create(client: Client, **overrides: str) -> Night:
    data = {f"player{i + 1}": name for i, name in enumerate(PLAYERS)}
    data |= {"stakes": "1、3", "bobo": "2000", "end": "18:00", "rules": "xuanjing", **overrides}
    response = client.post("/night/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    night = Night.objects.get(token=response["Location"].split("/")[2])
    night.end_at = timezone.now() + timedelta(hours=3)  # independent of the clock
    night.save()
    return night


def url(night: Night) -> str:
    return f"/night/{night.token}/"


def post(client: Client, night: Night, expect: int = 302, **data: Any) -> Any:
    night.refresh_from_db()
    data.setdefault("after", str(night.last_seq))
    response = client.post(url(night), {k: str(v) for k, v in data.items()})
    assert response.status_code == expect, _errors(response)
    return response


def _errors(response: Any) -> str:
    html = response.content.decode()
    found = re.findall(r'class="(?:field-error|form-errors)"[^>]*>([^<]*)<', html)
    return f"{response.status_code}: {found or html[:2000]}"


def hand(client: Client, night: Night, kind: str = "show", pot_to: str = "",
         expect: int = 302, **nets: int) -> Any:
    fields = {f"net{SEAT[name]}": value for name, value in nets.items()}
    return post(client, night, expect, do="hand", kind=kind, pot_to=pot_to, **fields)


def bobo(night: Night) -> dict[str, int]:
    return {p.name: p.bobo for p in night.state().players}


def last_hands(night: Night, n: int = 1) -> list[HandRecord]:
    """The night's last ``n`` hands, newest first."""
    hands = night.state().hands
    return night.hand_records(hands - n + 1, hands)


def test_create_checks_its_fields(client: Client) -> None:
    response = client.post("/night/", {"player1": "甲", "player2": "甲", "stakes": "5、20",
                                       "bobo": "600", "end": "25:00"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "每人名字要不一样" in html
    assert "头一次的钵钵至少 1000" in html
    assert "几点打圈芒" in html
    assert Night.objects.count() == 0
    alone = client.post("/night/", {"player1": "甲", "stakes": "1、3", "bobo": "100",
                                    "end": "18:00"})
    assert alone.status_code == 400 and "至少要两个人" in alone.content.decode()
    # a rule set the form does not offer (a tampered form): said beside the choice
    odd = client.post("/night/", {"player1": "甲", "player2": "乙", "stakes": "1、3",
                                  "bobo": "2000", "end": "18:00", "rules": "zz"})
    assert odd.status_code == 400 and "选一种芒果算法" in odd.content.decode()
    assert Night.objects.count() == 0


def test_end_time_is_today_or_tomorrow(client: Client) -> None:
    night = create(client)
    night.refresh_from_db()
    response = client.post("/night/", {"player1": "a", "player2": "b", "stakes": "1、3",
                                       "bobo": "100", "end": "00:00", "tz": "Asia/Shanghai"})
    created = Night.objects.get(token=response["Location"].split("/")[2])
    assert timezone.now() < created.end_at <= timezone.now() + timedelta(days=1)


def test_a_whole_night(client: Client) -> None:
    night = create(client)
    page = unlinked(client.get(url(night)).content.decode())
    assert '<bdi translate="no">甲</bdi> 发牌，<bdi translate="no">乙</bdi> 是挡家' in page

    # 1: an ordinary hand (no 芒果 yet).
    hand(client, night, pot_to="甲", 甲=30, 乙=-10, 丙=-10, 丁=-10)
    assert bobo(night) == {"甲": 2030, "乙": 1990, "丙": 1990, "丁": 1990}

    # 2: 揍芒 — 丙 alone after round 1; next hand 甲 乙 丁 pay 5 each.
    hand(client, night, kind="zou", pot_to="丙", 甲=-2, 乙=-2, 丙=6, 丁=-2)
    page = unlinked(client.get(url(night)).content.decode())
    assert '<bdi translate="no">丙</bdi> 发牌，<bdi translate="no">丁</bdi> 是挡家' in page
    assert "开牌前丢芒果（揍芒）：每人 5" in page
    assert "桌上的芒果和皮一共 15" in page

    # 3: from the calculator (000's example); 丙 eats the 皮 and the 15 of 芒果.
    calc = client.get(f"/calc/?night={night.token}").content.decode()
    assert 'value="甲"' in calc and 'value="丁"' in calc  # names prefilled
    result = client.get(f"/calc/?{CALC_000}&night={night.token}").content.decode()
    assert f'action="/night/{night.token}/"' in result and 'name="do" value="calc"' in result
    post(client, night, do="calc", q=CALC_000)
    assert bobo(night) == {"甲": 1983, "乙": 1933, "丙": 2161, "丁": 1923}
    [last] = last_hands(night)
    assert last.charge is not None and last.charge.total == 15
    assert last.pot_to == "丙" and last.calc.startswith("p=")

    # 4: 休芒 — 甲 folded and left 1 of 皮 in the middle; next hand everybody pays 5.
    hand(client, night, kind="xiu", 甲=-1)
    assert night.state().pot == 1
    page = unlinked(client.get(url(night)).content.decode())
    assert "开牌前丢芒果（休芒）：每人 5" in page and "一共 21" in page

    # 5: 乙 eats the 皮: the 1 carried plus 4 × 5 of 芒果.
    hand(client, night, pot_to="乙", 乙=20, 丁=-20)
    assert bobo(night) == {"甲": 1977, "乙": 1969, "丙": 2156, "丁": 1898}

    # Bad hands change nothing.
    before = night.last_seq
    hand(client, night, expect=400, pot_to="乙", 乙=20, 丁=-19)  # does not sum to 0
    hand(client, night, expect=400, 乙=5000, 丁=-5000)  # 丁 has only 1898
    hand(client, night, expect=400, kind="zou", 乙=2, 丁=-2)  # 揍芒 needs the winner
    hand(client, night, expect=400, kind="xiu", 乙=2, 丁=-2)  # nobody wins a 休过河
    hand(client, night, expect=400, kind="nonsense")
    post(client, night, 400, do="calc", q="p=甲:100:RQ")
    post(client, night, 400, do="calc", q="p=甲:5000:RQ,RQ,R2,R2&p=乙:10:B9,B8,B7,B5")
    post(client, night, 400, do="whatever")
    assert night.last_seq == before

    # A double tap: the same form twice records once.
    hand(client, night, pot_to="丙", 丙=1898, 丁=-1898)  # 丁 loses everything
    stale = client.post(url(night), {"do": "hand", "kind": "show", "after": str(before),
                                     "net2": "1", "net3": "-1", "pot_to": "丙"})
    assert stale.status_code == 409 and "可能点了两次" in stale.content.decode()
    assert bobo(night)["丁"] == 0

    # Re-buys: 丁 must re-buy at least 50 (later 钵钵 of 1、3) before the next hand.
    page = unlinked(client.get(url(night)).content.decode())
    assert '<bdi translate="no">丁</bdi> 的钵钵输光了' in page
    hand(client, night, expect=400, pot_to="甲", 甲=1, 乙=-1)
    post(client, night, 400, do="rebuy", player="丁", amount=30)
    post(client, night, do="rebuy", player="丁", amount=50)
    assert bobo(night)["丁"] == 50
    # Undo the re-buy, then re-buy 100 instead.
    night.refresh_from_db()
    post(client, night, do="undo", seq=night.last_seq)
    assert bobo(night)["丁"] == 0
    post(client, night, do="rebuy", player="丁", amount=100)
    state = night.state()
    assert state.by_name("丁").bought == 2100  # type: ignore[union-attr]
    assert sum(p.bobo for p in state.players) + state.pot == 8100

    # 圈芒: the organiser starts it (the agreed time has come).
    assert night.state().dealer_name == "丙"
    post(client, night, do="quan")
    page = unlinked(client.get(url(night)).content.decode())
    assert "到点了，打圈芒！" in page
    assert ('这一手由 <bdi translate="no">丙</bdi> 起头，打满一圈，最后一手还由 '
            '<bdi translate="no">丙</bdi> 发（扫尾）') in page
    assert "开牌前丢芒果（圈芒）：每人 5" in page

    # Orbit hand 1: a 揍芒 — the deal stays with 丙, everyone pays 5 again (no extra).
    hand(client, night, kind="zou", pot_to="甲", 甲=3, 乙=-1, 丙=-1, 丁=-1)
    state = night.state()
    assert state.dealer_name == "丙" and last_hands(night)[0].quan
    assert state.next_charge().kind.value == "圈芒"  # type: ignore[union-attr]
    assert state.next_charge().amount == 5  # type: ignore[union-attr]
    dealers = []
    for winner in ["乙", "丙", "丁", "甲", "乙"]:  # 丙 起头 … 丙 扫尾: N + 1 dealt hands
        dealers.append(night.state().dealer_name)
        hand(client, night, pot_to=winner)
    assert dealers == ["丙", "丁", "甲", "乙", "丙"]
    state = night.state()
    assert state.quan_done and all(h.quan for h in last_hands(night, 6))
    assert all(h.charge and h.charge.total == 20 for h in last_hands(night, 6))
    page = unlinked(client.get(url(night)).content.decode())
    assert "圈芒打完了，今晚结束" in page
    hand(client, night, expect=400, pot_to="甲")  # the night is over
    assert sum(p.bobo for p in state.players) + state.pot == 8100

    # Final standings and the dinner.
    post(client, night, do="bill", bill="400")
    page = unlinked(client.get(url(night)).content.decode())
    nets = {p.name: p.net for p in night.state().players}
    loser = min(nets, key=lambda n: nets[n])
    winner = max(nets, key=lambda n: nets[n])
    cell = '</span></th><td class="num">'
    assert f'<bdi translate="no">{loser}</bdi> <span class="badge">输得最多{cell}200.00' in page
    assert f'<bdi translate="no">{winner}</bdi> <span class="badge">赢得最多{cell}0.00' in page
    post(client, night, 400, do="bill", bill="lots")

    # The chart: one line per player, title/desc, and the data table.
    assert page.count('<polyline class="chart__line') == 4
    assert '<title id="chart-title">' in page and '<p id="chart-desc" hidden>' in page
    assert "看数据表" in page

    # Read-only link: shows everything, edits nothing.
    view = f"/night/v/{night.view_token}/"
    read = client.get(view)
    html = read.content.decode()
    assert read.status_code == 200 and "只读" in html
    assert 'name="do"' not in html and night.token not in html
    assert 'hx-trigger="every 20s"' in html
    before = night.last_seq
    for data in ({"do": "undo", "seq": str(before)}, {"do": "bill", "bill": "1"}):
        assert client.post(view, data).status_code == 405
    night.refresh_from_db()
    assert night.last_seq == before and night.bill == Decimal("400.00")
    live = client.get(view + "?live=1", headers={"HX-Request": "true"}).content.decode()
    assert live.lstrip().startswith('<div id="live"') and "<html" not in live

    # CSV export.
    exported = client.get(f"/night/v/{night.view_token}/csv")
    assert exported["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[0][:6] == ["序号", "时间（Asia/Shanghai）", "记录", "发牌", "芒果", "皮归"]
    hands = [r for r in rows[1:] if r[0]]
    assert len(hands) == night.state().hands == 12
    assert rows[-1][2] == "总输赢"
    assert [int(x) for x in rows[-1][6:10]] == [nets[n] for n in PLAYERS]
    assert any("补钵钵 100" in r[2] for r in rows)


def test_undo_the_last_hand(client: Client) -> None:
    night = create(client)
    hand(client, night, kind="zou", pot_to="乙", 甲=-1, 乙=3, 丙=-1, 丁=-1)
    hand(client, night, pot_to="甲", 甲=5, 乙=-5)
    assert night.state().dealer_name == "丙"
    night.refresh_from_db()
    post(client, night, do="undo", seq=night.last_seq)
    state = night.state()
    assert state.hands == 1 and state.dealer_name == "乙"
    assert state.next_charge() is not None  # the 揍芒 is due again
    assert bobo(night) == {"甲": 1999, "乙": 2003, "丙": 1999, "丁": 1999}
    post(client, night, 409, do="undo", seq="999")  # stale undo refused


def test_undo_removes_only_the_entry_the_form_showed(client: Client) -> None:
    night = create(client)
    hand(client, night, pot_to="甲", 甲=5, 乙=-5)
    seen = night.last_seq
    post(client, night, do="rebuy", player="丙", amount=100)  # from another phone
    post(client, night, 409, do="undo", seq=seen)
    assert night.last_seq == seen + 1 and night.state().hands == 1
    assert client.post(url(night), {"do": "undo", "seq": str(seen)},
                       headers={"HX-Request": "true"}).status_code == 200  # htmx swaps it
    assert night.last_seq == seen + 1


def test_a_lost_race_on_the_event_number_is_the_stale_answer(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    night = create(client)

    def duplicate(self: Night, kind: str, data: dict[str, Any]) -> None:
        raise IntegrityError("UNIQUE constraint failed: night_event_seq_unique")

    monkeypatch.setattr(Night, "add_event", duplicate)
    response = hand(client, night, expect=409, pot_to="甲", 甲=5, 乙=-5)
    assert "可能点了两次" in response.content.decode()


def test_no_entry_takes_a_stack_below_zero(client: Client,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The last line of defence after the form checks: the entry is rolled back."""
    night = create(client)
    monkeypatch.setattr("tutorial.views.night._record_manual", lambda night, state, data: {
        "kind": "show", "nets": {"甲": -2500, "乙": 2500}, "pot_to": "乙", "quan": False})
    response = hand(client, night, expect=400)
    assert "钵钵会变成负数" in unlinked(response.content.decode())
    assert night.last_seq == 0 and bobo(night)["甲"] == 2000


def test_a_player_leaves_and_the_deal_skips_them(client: Client) -> None:
    night = create(client)
    post(client, night, do="leave", player="乙")
    hand(client, night, pot_to="甲", 甲=1, 丙=-1)
    state = night.state()
    assert state.dealer_name == "丙"  # 甲 dealt, 乙 has left
    page = unlinked(client.get(url(night)).content.decode())
    assert "（离场）" in page
    hand(client, night, expect=400, pot_to="甲", 甲=1, 乙=-1)  # 乙 is not at the table


def test_the_orbit_ends_when_its_starter_has_left(client: Client) -> None:
    """The 圈芒 starter (起头) leaves after dealing the first orbit hand: the orbit still
    ends, with the hand dealt just before their empty seat — N + 1 hands for the N
    players still in, as the page counts (it never ended: the deal never came back to
    the starter)."""
    night = create(client)
    hand(client, night, 甲=10, 乙=-10, pot_to="甲")  # 甲 deals
    night.end_at = timezone.now() - timedelta(minutes=1)
    night.save()
    hand(client, night, 甲=10, 乙=-10, pot_to="甲")  # 乙 deals the first orbit hand
    assert night.state().quan_start == SEAT["乙"]
    post(client, night, do="leave", player="乙")
    dealers = []
    for _ in range(3):
        dealers.append(night.state().dealer_name)
        hand(client, night, 甲=10, 丙=-10, pot_to="甲")
    assert dealers == ["丙", "丁", "甲"]
    state = night.state()
    assert state.quan_done and state.quan_moves == state.quan_total == 4
    assert sum(p.net for p in state.players) == -state.pot == 0
    hand(client, night, expect=400, 甲=10, 丙=-10, pot_to="甲")
    # "Start the last orbit now" from a stale page: refused, the time unchanged.
    night.refresh_from_db()
    end_at = night.end_at
    response = post(client, night, 400, do="quan")
    assert "圈芒已经开始了" in response.content.decode()
    night.refresh_from_db()
    assert night.end_at == end_at
    # The CSV marks the orbit's hands, with no space before the Chinese bracket.
    labels = [row[2] for row in csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode()))]
    assert labels.count("比牌（圈芒）") == 4 and "比牌 （圈芒）" not in labels
    client.cookies["django_language"] = "en"
    labels = [row[2] for row in csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode()))]
    assert labels.count("Showdown (last orbit)") == 4


def test_equal_heads_and_tails_share_the_pot(client: Client) -> None:
    """甲 and 乙 hold exactly equal 头 and 尾 and eat the 皮 together (RULES.md §5.4): they
    share the 芒果 in the middle too (all of it went to 甲, the first by seat)."""
    night = create(client)
    hand(client, night, "zou", pot_to="丙", 甲=-1, 乙=-1, 丙=3, 丁=-1)  # 3 × 5 of 芒果 next
    q = ("p=甲:100:R8,R2,B4,B5:0&p=乙:60:R8,R2,B4,B5:0&p=丙:100:B9,B8,R6,R7:0"
         "&p=丁:31:fold")
    before = bobo(night)
    post(client, night, do="calc", q=q)
    last = last_hands(night)[0]
    assert last.pot == 15 and last.shares == {"甲": 8, "乙": 7}
    after = bobo(night)
    # each takes 50 from 丙 and half of 丁's 31 (16 / 15), less the 5 of 芒果, plus a share
    assert after["甲"] - before["甲"] == 50 + 16 - 5 + 8
    assert after["乙"] - before["乙"] == 50 + 15 - 5 + 7
    state = night.state()
    assert state.pot == 0 and sum(p.net for p in state.players) == 0
    page = unlinked(client.get(url(night)).content.decode())
    assert "头尾一样大，平分桌上的 15" in page and "另吃桌上的 15" not in page
    rows = list(csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode().lstrip("\ufeff"))))
    assert rows[2][5] == "甲、乙"
    assert [int(v) for v in rows[-1][6:10]] == [p.net for p in state.players]
    client.cookies["django_language"] = "en"
    page = unlinked(client.get(url(night)).content.decode())
    assert "had exactly equal heads and tails and shared the 15 in the middle" in page


def test_wrong_tokens(client: Client) -> None:
    night = create(client)
    assert client.get("/night/not-a-real-token-at-all/").status_code == 404
    assert client.post("/night/not-a-real-token-at-all/", {"do": "undo"}).status_code == 404
    assert client.get(f"/night/v/{night.token}/").status_code == 404  # edit token ≠ view token
    assert client.get("/night/v/x/csv").status_code == 404
    assert client.post(f"/night/{night.view_token}/", {"do": "quan"}).status_code == 404


def test_csrf_is_required(client: Client) -> None:
    night = create(client)
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(url(night), {"do": "quan", "after": "0"})
    assert response.status_code == 403


def test_this_browser_lists_its_nights(client: Client) -> None:
    night = create(client, title="周六牌局")
    html = client.get("/night/").content.decode()
    assert "周六牌局" in html and url(night) in html
    assert url(night) not in Client().get("/night/").content.decode()


def test_escalating_mango_under_app_rules(client: Client) -> None:
    night = create(client, rules="app")
    hand(client, night, kind="zou", pot_to="甲", 甲=3, 乙=-1, 丙=-1, 丁=-1)
    assert night.state().next_charge().amount == 2  # type: ignore[union-attr]  # 皱芒 2 × 皮
    hand(client, night, kind="xiu")
    assert night.state().next_charge().amount == 5  # type: ignore[union-attr]  # second: 5
    hand(client, night, kind="xiu")
    assert night.state().next_charge().amount == 10  # type: ignore[union-attr]  # then 10


def test_dinner_split_rules() -> None:
    bill = Decimal("400")

    def split(nets: dict[str, int], amount: Decimal = bill) -> dict[str, str]:
        return {s.name: str(s.amount) for s in dinner_split(nets, amount)}

    assert split({"a": -300, "b": 100, "c": 50, "d": 150}) == {
        "a": "200.00", "b": "100.00", "c": "100.00", "d": "0.00"}
    # Two tied biggest losers share the half; two tied winners pay nothing.
    assert split({"a": -100, "b": -100, "c": 0, "d": 100, "e": 100}) == {
        "a": "100.00", "b": "100.00", "c": "200.00", "d": "0.00", "e": "0.00"}
    # Two players: nobody to share the other half, the loser pays it all.
    assert split({"a": -5, "b": 5}) == {"a": "400.00", "b": "0.00"}
    # Everybody even: share alike; odd cents go to the first seats.
    assert split({"a": 0, "b": 0, "c": 0}, Decimal("100")) == {
        "a": "33.34", "b": "33.33", "c": "33.33"}
    assert split({"a": -1, "b": 0, "c": 0, "d": 1}, Decimal("100.01")) == {
        "a": "50.01", "b": "25.00", "c": "25.00", "d": "0.00"}


def test_csv_defuses_formulas(client: Client) -> None:
    response = client.post("/night/", {"player1": "=1+1", "player2": "@b", "stakes": "1、3",
                                       "bobo": "100", "end": "18:00"})
    night = Night.objects.get(token=response["Location"].split("/")[2])
    rows = list(csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode("utf-8-sig"))))
    assert rows[0][6:8] == ["'=1+1 输赢", "'@b 输赢"]


def test_the_csv_columns_add_up_to_the_total_row(client: Client) -> None:
    """Each hand's column counts the 芒果 paid and the pot taken, as the total does (an
    audit found 30 − 1 + 20 = 49 above a total of 54)."""
    night = create(client)
    hand(client, night, pot_to="甲", 甲=30, 乙=-10, 丙=-10, 丁=-10)
    hand(client, night, kind="zou", pot_to="丙", 甲=-2, 乙=-2, 丙=6, 丁=-2)
    hand(client, night, pot_to="甲", 甲=20, 乙=-20)  # 甲 takes the 15 of 芒果 too
    rows = list(csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode().lstrip("\ufeff"))))
    first = 6  # the players' result columns come after six others
    hands, total = rows[1:-1], rows[-1]
    for i, name in enumerate(PLAYERS):
        column = sum(int(r[first + i]) for r in hands)
        assert column == int(total[first + i]) == bobo(night)[name] - 2000, name
