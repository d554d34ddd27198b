"""Game-night entries players asked for (the gaps the scorekeeper left):

* a tie entered by hand: several players with equal 头 and 尾 ate the 皮 together and
  share the 芒果 pot, the odd chip to the first by seat, as a hand from the calculator;
* a hand from the calculator where everyone but one folded is recorded as it ended: a
  揍芒 (first round) or a win after later rounds — it was always 比牌;
* a player who left comes back with the 钵钵 they kept, no re-buy;
* the 圈芒 starter (起头) who is away when the deal comes back round for the closing hand
  (扫尾): the orbit is over, and if they come back they deal it — the deal went round a
  second time instead.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import timezone

from tests.english import unlinked
from tests.test_night_flow import bobo, create, hand, last_hands, post, url
from tutorial.models_night import Night

pytestmark = pytest.mark.django_db

LONE = "p=甲:3:R2,R7,BJ,B8:0&p=乙:1:fold&p=丙:1:fold&p=丁:1:fold"  # 甲 alone, others folded


def text(response: Any) -> str:
    """The page's words, without tags (names are marked ``<bdi translate="no">``)."""
    return re.sub(r"<[^>]+>", "", response.content.decode())


def shared(client: Client, night: Night, takers: list[str], expect: int = 302,
           kind: str = "show", **nets: int) -> Any:
    """A hand entered by hand with ``takers`` ticked as eating the 皮."""
    night.refresh_from_db()
    seats = {name: i for i, name in enumerate(night.players)}
    data: dict[str, Any] = {"do": "hand", "kind": kind, "after": str(night.last_seq),
                            "pot_to": takers}
    data |= {f"net{seats[name]}": str(value) for name, value in nets.items()}
    response = client.post(url(night), data)
    assert response.status_code == expect, response.content.decode()[:3000]
    return response


def test_a_tie_entered_by_hand_shares_the_pot(client: Client) -> None:
    night = create(client)
    hand(client, night, kind="zou", pot_to="丙", 甲=-2, 乙=-2, 丙=6, 丁=-2)  # 15 of 芒果 due
    page = client.get(url(night)).content.decode()
    assert 'type="checkbox" id="pot_to1" name="pot_to" value="乙"' in page
    assert "分不匀的零头给座位在前的人（这一条是本站定的）" in page  # RULES §5.4 is silent
    # 乙 and 甲 tie on 头 and 尾 and eat the 皮 together: 15 shared, the odd chip to 甲
    # (first by seat, whatever order the form sends them in).
    shared(client, night, ["乙", "甲"], 甲=10, 乙=10, 丙=-10, 丁=-10)
    [last] = last_hands(night)
    assert last.shares == {"甲": 8, "乙": 7} and last.pot == 15 and last.pot_to == "甲"
    assert bobo(night) == {"甲": 2011, "乙": 2010, "丙": 1996, "丁": 1983}
    page = text(client.get(url(night)))
    assert "甲、乙 头尾一样大，平分桌上的 15" in page
    rows = list(csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode("utf-8-sig"))))
    assert rows[2][5] == "甲、乙" and rows[2][6:10] == ["13", "12", "-10", "-15"]
    # One ticked player takes it all, as before.
    hand(client, night, kind="zou", pot_to="丙", 甲=-2, 乙=-2, 丙=6, 丁=-2)
    shared(client, night, ["丁"], 丁=10, 丙=-10)
    assert last_hands(night)[0].shares == {} and last_hands(night)[0].pot_to == "丁"


def test_bad_ties_are_refused_and_nothing_is_saved(client: Client) -> None:
    night = create(client)
    hand(client, night, kind="zou", pot_to="丙", 甲=-2, 乙=-2, 丙=6, 丁=-2)
    before = night.last_seq
    cases = [
        (["甲", "甲"], "show", {"甲": 10, "丙": -10}, "每人只能选一次"),
        (["甲", "戊"], "show", {"甲": 10, "丙": -10}, "选桌上的人"),
        (["甲", "乙"], "zou", {"甲": 2, "乙": 2, "丙": -1, "丁": -3}, "揍芒只剩一个人"),
        (["甲", "乙"], "show", {"甲": 10, "乙": -5, "丙": -5}, "乙 写成了输"),
        ([], "show", {"甲": 10, "丙": -10}, "选谁吃了皮"),
    ]
    for takers, kind, nets, message in cases:
        response = shared(client, night, takers, 400, kind, **nets)
        html = unlinked(response.content.decode())
        assert message in html, message
        assert 'id="pot_to-error"' in html
    night.refresh_from_db()
    assert night.last_seq == before and night.state().pot == 0


def test_a_hand_from_the_calculator_keeps_how_it_ended(client: Client) -> None:
    night = create(client)
    # The calculator asks, for a table where everyone but 甲 folded, how it ended.
    page = client.get(f"/calc/?{LONE}&night={night.token}").content.decode()
    assert 'name="end" value="zou"' in page and 'name="end" value="show"' in page
    assert "还是后面几轮才甩的" in unlinked(page)
    showdown = client.get(f"/calc/?p=甲:5:R2,R7,BJ,B8:0&p=乙:5:RQ,R8,B5,B5:0"
                          f"&night={night.token}").content.decode()
    assert 'name="end"' not in showdown
    # Without the answer, or a 揍芒 on a showdown: refused, nothing recorded.
    response = post(client, night, 400, do="calc", q=LONE)
    assert "只剩 甲" in unlinked(response.content.decode())
    post(client, night, 400, do="calc", q=LONE, end="whatever")
    showdown_q = "p=甲:5:R2,R7,BJ,B8:0&p=乙:5:RQ,R8,B5,B5:0"
    response = post(client, night, 400, do="calc", q=showdown_q, end="zou")
    assert "才是揍芒" in unlinked(response.content.decode())
    # A folder who put in nothing did not lose the 皮: not a 揍芒.
    response = post(client, night, 400, do="calc", end="zou",
                    q="p=甲:2:R2,R7,BJ,B8:0&p=乙:1:fold&p=丙:1:fold&p=丁:0:fold")
    assert "丁 甩了牌，至少输掉皮 1" in unlinked(response.content.decode())
    assert night.last_seq == 0
    # 揍芒: recorded as one, and the next hand 乙 丙 丁 pay 芒果.
    post(client, night, do="calc", q=LONE, end="zou")
    [last] = last_hands(night)
    assert last.kind == "zou" and last.pot_to == "甲" and last.calc.startswith("p=")
    state = night.state()
    charge = state.next_charge()
    assert charge is not None and charge.kind.value == "揍芒"
    assert set(charge.paid) == {"乙", "丙", "丁"}
    page = unlinked(client.get(url(night)).content.decode())
    assert '<span class="badge">揍芒</span>' in page
    # Everyone but one folded in a later round: a win, no 芒果 after it.
    post(client, night, do="calc", q=LONE, end="show")
    [last] = last_hands(night)
    assert last.kind == "show" and last.charge is not None  # the 揍芒's 芒果, paid
    assert night.state().next_charge() is None


def test_a_player_who_left_comes_back_without_a_rebuy(client: Client) -> None:
    night = create(client)
    hand(client, night, pot_to="乙", 乙=40, 丙=-40)  # 甲 deals
    post(client, night, do="leave", player="乙")
    page = unlinked(client.get(url(night)).content.decode())
    assert 'name="do" value="back"' in page and "谁回到桌上" in page
    hand(client, night, pot_to="丙", 丙=5, 丁=-5)  # 丙 deals (乙's seat skipped)
    post(client, night, 400, do="back", player="甲")  # still at the table
    post(client, night, 400, do="back", player="戊")
    post(client, night, 409, do="back", player="乙", after="1")  # a stale form
    post(client, night, do="back", player="乙")
    state = night.state()
    player = state.by_name("乙")
    assert player is not None and player.active
    assert (player.bobo, player.bought, player.rebuys, player.net) == (2040, 2000, 0, 40)
    assert state.dealer_name == "丁"  # the deal goes on; it reaches 乙 next time round
    page = unlinked(client.get(url(night)).content.decode())
    assert "（离场）" not in page and "撤销：乙 回到桌上" in page
    hand(client, night, pot_to="乙", 乙=5, 丁=-5)  # 丁 deals
    hand(client, night, pot_to="乙", 乙=5, 丁=-5)  # 甲 deals
    assert night.state().dealer_name == "乙"
    rows = list(csv.reader(io.StringIO(
        client.get(f"/night/v/{night.view_token}/csv").content.decode("utf-8-sig"))))
    assert any(r[2] == "乙 回到桌上" for r in rows)


def test_an_empty_bobo_comes_back_through_a_rebuy(client: Client) -> None:
    night = create(client)
    hand(client, night, pot_to="乙", 乙=2000, 丙=-2000)
    post(client, night, do="leave", player="丙")
    response = post(client, night, 400, do="back", player="丙")
    html = unlinked(response.content.decode())
    assert "丙 的钵钵是 0：补钵钵（至少 50）就回到桌上" in html
    assert 'id="back-player-error"' in html
    assert '<details class="manual">' in html  # the error is not the hand form's: closed
    post(client, night, do="rebuy", player="丙", amount=100)
    assert night.state().by_name("丙").active  # type: ignore[union-attr]


def test_the_page_names_the_dealer_still_at_the_table(client: Client) -> None:
    """甲 was to deal and left: the page said 甲 deals (the hand was dealt by 乙)."""
    night = create(client)
    post(client, night, do="leave", player="甲")
    page = unlinked(client.get(url(night)).content.decode())
    assert '<bdi translate="no">乙</bdi> 发牌，<bdi translate="no">丙</bdi> 是挡家' in page
    hand(client, night, pot_to="乙", 乙=1, 丙=-1)
    assert last_hands(night)[0].dealer == "乙"


def start_orbit(client: Client, night: Night) -> list[str]:
    """The orbit starts with 甲 (起头); 甲 乙 丙 丁 deal a hand each: the deal comes back
    to 甲 for the closing hand (扫尾)."""
    night.end_at = timezone.now() - timedelta(minutes=1)
    night.save()
    dealers = []
    for _ in range(4):
        dealers.append(night.state().dealer_name)
        hand(client, night, pot_to="乙", 乙=1, 丙=-1)
    return dealers


def test_the_starter_away_for_the_closing_hand_ends_the_orbit(client: Client) -> None:
    night = create(client)
    assert start_orbit(client, night) == ["甲", "乙", "丙", "丁"]
    post(client, night, do="leave", player="甲")
    state = night.state()
    assert state.quan_over and not state.quan_done and not state.can_play
    page = text(client.get(url(night)))
    assert "圈芒打完了，今晚结束" in page
    assert "该 甲 扫尾（发最后一手）了，可 甲 已经离场" in page
    # The sources are 旋经 and two app pages, not one book (it said 书上没有说), and the
    # site's choices are 本站定的 as on the rules page.
    assert "起头的人离场怎么办，资料里都没讲，是本站定的" in page and "书上" not in page
    # 扫尾 is one word: its 尾 is not linked to the glossary's 尾 (tail).
    assert '扫<a class="term"' not in client.get(url(night)).content.decode()
    response = hand(client, night, expect=400, pot_to="乙", 乙=1, 丙=-1)
    assert "圈芒已经打完" in unlinked(response.content.decode())
    assert night.state().hands == 4  # the deal went round again: 乙 丙 丁 dealt twice


def test_the_starter_who_comes_back_deals_the_closing_hand(client: Client) -> None:
    night = create(client)
    start_orbit(client, night)
    post(client, night, do="leave", player="甲")
    post(client, night, do="back", player="甲")
    state = night.state()
    assert not state.quan_over and state.dealer_name == "甲"
    hand(client, night, pot_to="乙", 乙=1, 丙=-1)
    state = night.state()
    assert state.quan_done and state.quan_moves == state.quan_total == 5
    assert [h.dealer for h in last_hands(night, 5)] == ["甲", "丁", "丙", "乙", "甲"]
    post(client, night, do="leave", player="乙")
    response = post(client, night, 400, do="back", player="乙")  # the night is over
    assert "圈芒已经打完，今晚不再回到桌上" in unlinked(response.content.decode())


def test_a_starter_back_after_the_deal_passed_their_seat(client: Client) -> None:
    """甲 starts the orbit with a 揍芒 (the deal stays), leaves, and the deal passes 甲's
    seat; 甲 comes back: the orbit ends when the deal comes back round to 甲, who deals
    the closing hand — everyone deals once a hand with a result."""
    night = create(client)
    night.end_at = timezone.now() - timedelta(minutes=1)
    night.save()
    hand(client, night, kind="zou", pot_to="乙", 甲=-1, 乙=3, 丙=-1, 丁=-1)  # 甲 起头
    post(client, night, do="leave", player="甲")
    hand(client, night, pot_to="乙", 乙=1, 丙=-1)  # 乙 deals: the deal has passed 甲
    post(client, night, do="back", player="甲")
    dealers = []
    while night.state().can_play:
        dealers.append(night.state().dealer_name)
        hand(client, night, pot_to="乙", 乙=1, 丙=-1)
        assert len(dealers) <= 4
    assert dealers == ["丙", "丁", "甲"]
    assert night.state().quan_done


def test_the_new_entries_in_english(client: Client) -> None:
    """The tie, the calculator's question, coming back and the orbit that ends while its
    starter is away, in English: no interface text left in Chinese, the glossary's words,
    English punctuation, no bracket inside a bracket."""
    from tests.english import game_terms, untranslated
    from tests.test_language import problems

    terms = game_terms()

    def check(html: str) -> str:
        main = html[html.index("<main"):html.index("</main>")]
        assert untranslated(main, terms) == []
        assert problems(html) == []
        words = re.sub(r"<[^>]+>", "", main)
        assert not re.search(r"\([^()]*\(", words), words
        return words

    client.cookies["django_language"] = "en"
    night = create(client)
    hand(client, night, kind="zou", pot_to="丙", 甲=-2, 乙=-2, 丙=6, 丁=-2)
    words = check(shared(client, night, ["甲", "乙"], 400, 甲=10, 乙=-5, 丙=-5).content.decode())
    assert "nobody beats them, so they cannot lose this hand, yet a loss is entered for 乙" in words
    # Two sharers entered as losing: one sentence for both (it said "甲 and 乙 is").
    words = check(shared(client, night, ["甲", "乙"], 400, 甲=-5, 乙=-5, 丙=10).content.decode())
    assert "yet a loss is entered for 甲 and 乙." in words and " is entered as" not in words
    shared(client, night, ["甲", "乙"], 甲=10, 乙=10, 丙=-10, 丁=-10)
    words = check(client.get(url(night)).content.decode())
    assert "tick them all" in words and "shared the 15 in the middle" in words
    words = check(client.get(f"/calc/?{LONE}&night={night.token}").content.decode())
    assert "Everyone but 甲 folded. Did they all fold in the first round" in words
    assert "folded in a later round" in words
    check(post(client, night, 400, do="calc", q=LONE).content.decode())
    hand(client, night, pot_to="乙", 乙=1996, 丙=-1996)  # 丙 is left with 0
    post(client, night, do="leave", player="丙")
    post(client, night, do="leave", player="丁")
    words = check(post(client, night, 400, do="back", player="丙").content.decode())
    assert "丙 has an empty 钵钵" in words and "Re-buys · leaving · coming back" in words
    post(client, night, do="back", player="丁")
    assert "丁 came back" in check(client.get(url(night)).content.decode())
    night.end_at = timezone.now() - timedelta(minutes=1)
    night.save()
    for _ in range(3):  # 丁 starts the orbit; 甲, 乙 deal; the deal comes back to 丁
        hand(client, night, pot_to="乙", 乙=1, 丁=-1)
    post(client, night, do="leave", player="丁")
    words = check(client.get(url(night)).content.decode())
    assert "turn to deal the last hand, the 扫尾, but 丁 has left" in words
    assert ("The sources do not say what happens when the player who started the orbit"
            " leaves: this is our choice." in words)


@pytest.mark.parametrize("cards", ["", "R2,R7"])
def test_a_fold_out_from_the_calculator_without_the_cards_is_recorded(
        client: Client, cards: str) -> None:
    """The calculator takes the one left alone without their cards (or with the two of
    round 1): the hand is recorded as a 揍芒 or a later fold-out as with four cards."""
    night = create(client)
    lone = f"p=甲:3:{cards}&p=乙:1:fold&p=丙:1:fold&p=丁:1:fold"
    page = client.get(f"/calc/?{lone}&night={night.token}").content.decode()
    assert 'name="end" value="zou"' in page and 'name="end" value="show"' in page
    post(client, night, do="calc", q=lone, end="zou")
    [last] = last_hands(night)
    assert last.kind == "zou" and last.pot_to == "甲" and unquote(last.calc) == lone
    assert last.nets == {"甲": 3, "乙": -1, "丙": -1, "丁": -1}
    charge = night.state().next_charge()
    assert charge is not None and set(charge.paid) == {"乙", "丙", "丁"}
    post(client, night, do="calc", q=lone, end="show")
    [last] = last_hands(night)
    assert last.kind == "show" and last.nets == {"甲": 3, "乙": -1, "丙": -1, "丁": -1}


@pytest.mark.parametrize(("do", "field"), [("rebuy", "rebuy-player"), ("leave", "leave-player"),
                                           ("back", "back-player")])
def test_a_wrong_player_is_said_beside_the_list(client: Client, do: str, field: str) -> None:
    """A player who cannot re-buy, leave or come back: a 400, the message under the list,
    and the list marked invalid and described by it (for screen readers), as every other
    field of the night's forms."""
    night = create(client)
    post(client, night, do="leave", player="乙")  # someone away: the come-back form shows
    html = post(client, night, 400, do=do, player="戊").content.decode()
    select = re.search(rf'<select id="{field}"[^>]*>', html)
    assert select and 'aria-invalid="true"' in select[0], html[:500]
    assert f'aria-describedby="{field}-error"' in select[0]
    assert re.search(rf'<p class="field-error" id="{field}-error">[^<]+</p>', html)


def test_the_re_buy_list_starts_at_a_broke_player(client: Client) -> None:
    """The re-buy form, the leave form and the come-back form are one form each with
    its own list: the re-buy list chooses the first player left with nothing (one option
    selected: a list of one choice cannot have two), the others no one."""
    night = create(client, bobo="100")
    hand(client, night, 甲=300, 乙=-100, 丙=-100, 丁=-100)
    post(client, night, do="leave", player="丙")
    html = client.get(url(night)).content.decode()
    lists = {field: re.search(rf'<select id="{field}"[^>]*>(.*?)</select>', html, re.S)
             for field in ("rebuy-player", "leave-player", "back-player")}
    assert all(lists.values()), html[:500]
    chosen = {f: re.findall(r'<option[^>]*value="([^"]+)" selected', m[1])
              for f, m in lists.items() if m}
    assert chosen == {"rebuy-player": ["乙"], "leave-player": [], "back-player": []}
    assert re.findall(r'value="([^"]+)"', lists["back-player"][1]) == ["丙"]
