"""The table says what happened (issue 15): the log round by round, the results that add
up to the session totals, leaving and sitting down again, the split hint, the words on
the buttons, the learner's group and the phase names."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engine.game import Act, Action, Game, Phase
from tests.english import unlinked
from tests.tables import game_of, save_game, table_of

pytestmark = pytest.mark.django_db


def create(client: Client, level: str = "simple") -> str:
    r = client.post("/table/", {"bots": "2", "level": level, "stakes": "1、3"})
    return str(r["Location"])


def play(g: Game, lead: bool = True) -> None:
    """Everyone calls; in rounds 2 and 3 the leader leads (发招); on to the showdown, where
    every seat splits its first two cards together."""
    while g.phase is Phase.BETTING:
        actor = g.to_act
        assert actor is not None and g.hand is not None
        legal = g.legal_actions()
        if Act.CHECK in legal and lead and g.hand.round >= 2:
            g.apply(Action(Act.RAISE, actor, legal.min_raise))
        else:
            g.apply(Action(Act.CALL if Act.CALL in legal else Act.CHECK, actor))
    while g.phase is Phase.SHOWDOWN and g.to_act is not None:
        g.apply(Action(Act.SPLIT, g.to_act, cards=tuple(g.hand.cards[g.to_act])))  # type: ignore[union-attr]


def dealt(client: Client) -> tuple[str, Game]:
    """A new table and its first hand, dealt (not stored) with the learner, seat 0,
    holding RQ B9 R8 R7 and speaking first; its url and game."""
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({0: ["RQ", "B9", "R8", "R7"]})))
    return url, g


def played(client: Client) -> tuple[str, Game]:
    """A table whose first hand was played out by :func:`play`; its url and game."""
    url, g = dealt(client)
    play(g)
    save_game(url, g)
    return url, g


def lines(html: str) -> list[str]:
    log = html.split('class="log__rounds"')[1].split("</details>")[0]
    return [re.sub(r"<[^>]+>", "", li) for li in re.findall(r"<li>(.*?)</li>", log, re.S)]


def test_the_log_reads_round_by_round(client: Client) -> None:
    url, _ = played(client)
    html = client.get(url).content.decode()
    titles = re.findall(r'<h3 class="log__title">(.*?)</h3>', html)
    assert titles == ["第一轮：每人两张暗牌", "第二轮：每人一张明牌", "第三轮：第四张，串开再翻",
                      "比牌：各自扯牌"]
    text = lines(html)
    assert "每人下皮 1" in text
    assert any(re.fullmatch(r"\S+ 是挡家，发招 3", t) for t in text)
    leads = [t for t in text if "发招，下到" in t]
    assert len(leads) == 2  # the first bet of rounds 2 and 3
    assert not any("返到" in t for t in text)  # nobody raised after a lead
    splits = [t for t in text if "扯牌：" in t]
    assert len(splits) == 3 and all("头 " in t and "｜尾 " in t for t in splits)
    mine = next(t for t in splits if t.startswith("你"))
    assert "♥Q ♠9" in mine and "天九王" in mine  # 头 天九王, labelled, with its cards


def test_the_log_names_the_cards_dealt_in_rounds_2_and_3(client: Client) -> None:
    url, g = played(client)
    text = lines(client.get(url).content.decode())
    third = next(t for t in text if t.startswith("发第三张（明牌）："))
    fourth = next(t for t in text if t.startswith("发第四张（串开后亮出）："))
    assert "你 ♥8（人牌）" in third and "你 ♥7（膏药）" in fourth
    h = g.hand
    assert h is not None
    for seat in (1, 2):
        assert h.cards[seat][2] in third and h.cards[seat][3] in fourth
    # each deal opens its round: after the round's title, before anybody speaks
    assert text.index(third) < text.index(fourth)
    assert next(t for t in text if "发招，下到" in t) in text[text.index(third):text.index(fourth)]


def test_the_fourth_card_being_squeezed_is_not_in_the_log(client: Client) -> None:
    url, g = dealt(client)
    while g.hand is not None and g.hand.round < 3:
        actor = g.to_act
        assert actor is not None
        legal = g.legal_actions()
        g.apply(Action(Act.CALL, actor) if Act.CALL in legal else
                Action(Act.RAISE, actor, legal.min_raise))
    save_game(url, g)
    html = client.get(url).content.decode()
    assert 'id="squeeze"' in html
    fourth = next(t for t in lines(html) if t.startswith("发第四张"))
    # the learner's own card (R7) stays hidden; a bot may hold the other red 7, shown
    mine = [part for part in fourth.split("：", 1)[1].split("，") if part.startswith("你")]
    assert mine == ["你 还盖着"]
    client.cookies["django_language"] = "en"  # not "You still face down": the card is
    fourth = next(t for t in lines(client.get(url).content.decode())
                  if t.startswith("The fourth card"))
    assert "yours still face down" in fourth and "You" not in fourth


def test_an_all_in_call_says_all_in(client: Client) -> None:
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1  # the learner speaks first in round 1
    g.seats[0].bobo = 40
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    g.apply(Action(Act.CALL, 0))
    g.apply(Action(Act.RAISE, 1, 80))
    g.apply(Action(Act.FOLD, 2))
    g.apply(Action(Act.CALL, 0))  # 40 of the 80: the whole 钵钵
    save_game(url, g)
    text = lines(client.get(url).content.decode())
    assert "你 瞧，跟到 40（全下了）" in text
    assert "你 瞧，跟到 3" in text  # the first call was not all-in


def test_the_log_in_english_says_you_and_they(client: Client,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutorial.views.table.secrets.randbits", lambda _bits: 2)
    url, g = played(client)
    assert g.hand is not None and g.hand.result is not None and g.hand.result.winner == 0
    client.get("/lang/?language=en&next=/")
    html = client.get(url).content.decode()
    text = lines(html)
    assert any(t.startswith("You call (瞧") for t in text)
    assert any(re.match(r"Bot \w+ calls \(瞧", t) for t in text)
    assert not any(t.startswith("You calls") or "You splits" in t for t in text)
    result = re.sub(r"<[^>]+>", "", html.split('class="result panel"')[1])
    assert "You take the 皮" in result and "You takes" not in result


def test_results_agree_with_the_session_totals_when_the_mango_pot_is_won(
        client: Client) -> None:
    """A 揍芒 is charged at the deal; whoever eats the 皮 takes the pot.  The hand's lines
    (play + 芒果) add up to each 钵钵's change, so they agree with the session totals."""
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({})))
    while g.phase is Phase.BETTING:  # round 1: the learner raises, the bots fold → 揍芒
        actor = g.to_act
        assert actor is not None
        g.apply(Action(Act.QIAO if actor == 0 else Act.FOLD, actor))
    assert g.state.pending_mango == "揍芒"
    before = [s.net for s in g.seats]
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({0: ["RQ", "B9", "R8", "R7"]})))
    play(g)
    assert g.history[-1].result is not None and g.history[-1].result.pot_won > 0
    save_game(url, g)
    html = client.get(url).content.decode()
    table = html.split('class="result__nets"')[1].split("</table>")[0]
    assert "芒果" in table
    rows = re.findall(r"<tr><td>(.*?)</td><td>([+-]?\d+)</td><td>([+-]?\d+)</td>"
                      r"<td><strong>([+-]?\d+)</strong></td></tr>", table)
    assert len(rows) == 3
    for seat, (_name, play_, mango, total) in enumerate(rows):
        assert int(play_) + int(mango) == int(total)
        assert int(total) == g.seats[seat].net - before[seat]
    assert sum(int(r[2]) for r in rows) == 0  # the pot came from the 芒果 paid this hand


def test_leaving_shows_it_and_offers_a_seat(client: Client) -> None:
    url = create(client)
    client.post(url + "act", {"seq": table_of(url).seq, "act": "leave"})
    html = client.get(url).content.decode()
    assert "你已经离座了" in html and 'value="sit"' in html and 'value="rebuy"' not in html
    me = html.split('data-seat="0"')[1].split("</li>")[0]
    assert "离座了" in me
    r = client.post(url + "act", {"seq": table_of(url).seq, "act": "sit"})
    assert r.status_code == 303 and not game_of(url).seats[0].left
    assert 'value="rebuy"' in client.get(url).content.decode()
    r = client.post(url + "act", {"seq": table_of(url).seq, "act": "sit"})  # seated already
    assert r.status_code == 400


def showdown(client: Client, cards: list[str]) -> str:
    url = create(client)
    g = game_of(url)
    g.state.dealer = 2  # the learner is 挡家 and splits first
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({0: cards})))
    while g.phase is Phase.BETTING:
        actor = g.to_act
        assert actor is not None
        legal = g.legal_actions()
        g.apply(Action(Act.QIAO if Act.QIAO in legal else Act.CALL, actor))
    assert g.to_act == 0
    save_game(url, g)
    t = table_of(url)
    t.squeezed = g.hand.number  # type: ignore[union-attr]
    t.save()
    return url


@pytest.mark.parametrize(("cards", "distinct"), [
    (["R8", "R8", "B5", "B5"], 2),  # 人牌一对 + 小5一对, or twice 人牌配小5
    (["RQ", "B9", "R8", "R7"], 3),
])
def test_the_hint_lists_each_distinct_split_once_with_its_cards(
        client: Client, cards: list[str], distinct: int) -> None:
    url = showdown(client, cards)
    html = client.get(url + "?hint=1").content.decode()
    assert f'<p class="hint__note" id="hint-note">这手牌有 {distinct} 种不同的分法' in html
    hint = html.split('<table class="hint stack-table" aria-describedby="hint-note">')[1].split(
        "</table>")[0]
    rows = re.findall(r"<tr(?: class=\"hint--best\")?><td data-label=", hint)
    assert len(rows) == distinct
    assert hint.count('data-card="') == 4 * distinct


def test_buttons_groups_and_phase_names(client: Client) -> None:
    assert 'value="simple" checked' in client.get("/table/").content.decode()
    url = create(client)
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck({0: ["RQ", "B9", "R8", "R7"]})))
    save_game(url, g)
    html = unlinked(client.get(url).content.decode())
    assert "跟到现在的注 3" in html and "不要了，输掉已下的 1" in html
    group = re.search(r'<p class="seat__group">(.*?)</p>', html).group(1)  # type: ignore[union-attr]
    assert '<a href="/pairs/RQ-B9/" lang="zh-Hans" data-group="RQ-B9">天九王</a>' in group
    assert re.fullmatch(r"你的两张暗牌：天九王（第 \d+ 大）", re.sub(r"<[^>]+>", "", group))
    assert html.count("seat__hole-mark") == 2  # the learner's two face-down cards
    assert '<span class="board__phase">第一轮</span>' in html
    url = showdown(client, ["RQ", "B9", "R8", "R7"])
    html = client.get(url).content.decode()
    assert '<span class="board__phase">比牌</span>' in html and "第 4 轮" not in html
    assert "你最大的一组" in html


def test_the_lead_badge_passes_on_after_a_check(client: Client) -> None:
    """旋经: 「地牌休了以后，就该由他的下家……发招」: the 发招 badge follows."""
    url, g = dealt(client)
    while g.hand is not None and g.hand.round < 2:
        g.apply(Action(Act.CALL, g.to_act))

    def badged() -> list[str]:
        html = client.get(url).content.decode()
        return re.findall(r'data-seat="(\d)">(?:(?!</li>).)*badge--lead', html, re.S)

    h = g.hand
    assert h is not None and h.round == 2
    leader = h.leader
    assert leader is not None
    save_game(url, g)
    assert badged() == [str(leader)]
    g.apply(Action(Act.CHECK, leader))
    nxt = g.to_act
    assert nxt is not None and nxt != leader
    save_game(url, g)
    assert badged() == [str(nxt)]
