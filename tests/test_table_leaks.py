"""No hidden card reaches the learner before the showdown reveals it (issue 15).

Seeded sessions are played through the views (full pages and htmx fragments, the bots'
steps, the squeeze, the history and its replays) and every response is scanned for a
card the learner may not see yet: another player's face-down cards, the learner's own
fourth card while it is still being squeezed, and cards nobody was dealt.  The oracle
below says what the learner may see from the stored state, independently of the views.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import partial

import pytest
from django.test import Client
from django.utils import translation

from engine.cards import DECK, Card
from engine.game import Act, Action, Game, Hand, Phase, card_by_label
from tests.coach_hands import HUMAN, drive, start_table
from tests.tables import game_of, history_of, save_game, table_of
from tutorial.models_table import PracticeTable
from tutorial.templatetags.cards import card_context

pytestmark = pytest.mark.django_db
LABEL = re.compile(r"[♥♦♠♣](?:10|[2-9JQ])|JOKER")
ARIA = re.compile(r'aria-label="([^"]*)"')


def _aria_names() -> dict[str, Card]:
    with translation.override("zh-hans"):
        return {card_context(c)["label"]: c for c in DECK}


ARIA_NAMES = _aria_names()


def mentioned(html: str) -> set[Card]:
    """Every physical card named in ``html``: as a label (♥Q) or a drawn card's name."""
    cards = {card_by_label(m) for m in LABEL.findall(html)}
    cards |= {ARIA_NAMES[m] for m in ARIA.findall(html) if m in ARIA_NAMES}
    return cards


def _dealt(h: Hand, seat: int) -> int:
    """How many cards ``seat`` was dealt by the end of (or so far in) hand ``h``."""
    if h.folded[seat]:
        for e in h.events:
            r, what, who = e.split(":") if e.count(":") == 2 else ("", "", "")
            if what == "fold" and who == str(seat):
                return min(4, int(r[1:]) + 1)
    return min(4, h.round + 1)


def may_see(h: Hand, squeezed: int) -> set[Card]:
    """The cards of hand ``h`` the learner may see now."""
    seen: set[Card] = set()
    for seat in h.order:
        labels = h.cards[seat][: _dealt(h, seat)]
        if seat == HUMAN:
            pending = (h.result is None and not h.folded[HUMAN] and str(HUMAN) not in h.splits
                       and str(HUMAN) not in h.sanhua and h.round >= 3 and squeezed != h.number)
            seen |= {card_by_label(c) for c in (labels[:3] if pending else labels)}
        elif h.result is not None and str(seat) in h.result.splits:
            seen |= {card_by_label(c) for c in h.cards[seat]}
        else:
            seen |= {card_by_label(c) for c in labels[2:]}
    return seen


def check_board(html: str, url: str, what: str) -> None:
    g, t = game_of(url), table_of(url)
    allowed = may_see(g.hand, t.squeezed) if g.hand is not None else set()
    leaked = mentioned(html) - allowed
    assert not leaked, f"{what}: hidden cards in the response: {sorted(map(str, leaked))}"


def check_history(html: str, hands: list[Hand], what: str) -> None:
    parts = re.split(r'(?=<section class="(?:history-hand|replay))', html)
    assert not mentioned(parts[0]), f"{what}: cards outside any hand"
    for part in parts[1:]:
        number = int(re.search(r'data-hand="(\d+)"', part).group(1))  # type: ignore[union-attr]
        allowed = may_see(hands[number - 1], 0)
        leaked = mentioned(part) - allowed
        assert not leaked, f"{what}, hand {number}: hidden cards {sorted(map(str, leaked))}"


def learner_move(g: Game, rng: random.Random) -> dict[str, object]:
    legal = g.legal_actions(HUMAN)
    h = g.hand
    assert h is not None
    if g.phase is Phase.SHOWDOWN:
        if Act.SANHUA in legal and rng.random() < 0.3:
            return {"act": "sanhua"}
        return {"act": "split", "head": rng.sample(h.cards[HUMAN], 2)}
    weights = {Act.CALL: 8, Act.CHECK: 8, Act.RAISE: 2, Act.TUO: 1, Act.QIAO: 0.3, Act.FOLD: 0.5}
    acts = [a for a in legal.acts if a in weights]
    act = rng.choices(acts, [weights[a] for a in acts])[0]
    if act is Act.RAISE:
        assert legal.min_raise is not None and legal.max_raise is not None
        amount = min(legal.max_raise, legal.min_raise * rng.choice((1, 2)))
        return {"act": "raise", "amount": amount}
    return {"act": act.value}


def _htmx(step: int) -> dict[str, str]:
    """Every other request is an htmx one (a fragment), the others full pages."""
    return {"HTTP_HX_REQUEST": "true"} if step % 2 == 0 else {}


def session(client: Client, monkeypatch: pytest.MonkeyPatch, seed: int, bots: int,
            hands: int) -> Iterator[tuple[str, str, str]]:
    """Play ``hands`` hands; yield (what, html) for every response and the table's url."""
    url = start_table(client, monkeypatch, seed, bots=str(bots), level="mixed", sanhua="on")

    def done(g: Game, _t: PracticeTable) -> bool:
        return g.hand is not None and g.hand.result is not None and g.hand.number >= hands

    move = partial(learner_move, rng=random.Random(seed))
    for step, path, data, response in drive(client, url, move, hands * 60, done, _htmx):
        if response.status_code == 303:
            response = client.get(url)
        yield f"POST {path} {data}", url, response.content.decode()
        if step % 7 == 0:
            yield "GET board", url, client.get(url, **_htmx(step)).content.decode()


@pytest.mark.parametrize(("seed", "bots"), [(11, 2), (23, 3), (37, 5)])
def test_no_hidden_card_reaches_the_learner(client: Client, monkeypatch: pytest.MonkeyPatch,
                                            seed: int, bots: int) -> None:
    url = ""
    for what, url, html in session(client, monkeypatch, seed, bots, hands=10):
        check_board(html, url, what)
    hands = history_of(url)
    assert len(hands) >= 5
    check_history(client.get(url + "history").content.decode(), hands, "history")
    for number in range(1, len(hands) + 1):
        start = client.get(f"{url}history?hand={number}&step=0").content.decode()
        last = int(re.search(r"第 0 / (\d+) 步", start)[1])  # type: ignore[index]
        for step in sorted({0, min(3, last), min(8, last), last}):
            page = client.get(f"{url}history?hand={number}&step={step}").content.decode()
            check_history(page, hands, f"replay {number}/{step}")
    assert PracticeTable.objects.count() == 1


def round_three(client: Client, hands: dict[int, list[str]]) -> str:
    """A table in round 3 before the learner squeezed, everyone still in."""
    r = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})
    url = r["Location"]
    g = game_of(url)
    g.state.dealer = 1
    g.apply(Action(Act.DEAL, cards=g.stacked_deck(hands)))
    while g.phase is Phase.BETTING and g.hand is not None and g.hand.round < 3:
        actor = g.to_act
        assert actor is not None
        legal = g.legal_actions()
        if Act.CHECK in legal and g.hand.round == 2:  # a 发招, or the hand ends 休过河
            g.apply(Action(Act.RAISE, actor, legal.min_raise))
        else:
            g.apply(Action(Act.CALL, actor))
    assert g.hand is not None and g.hand.round == 3
    save_game(url, g)
    return url


def test_the_lead_waits_for_the_squeeze(client: Client) -> None:
    """Round 3 is led by the highest fourth card: showing who leads (or who acts first)
    before the learner squeezed would tell them how their covered card compares."""
    url = round_three(client, {0: ["B5", "B7", "B6", "RQ"], 1: ["B4", "B8", "B9", "R6"],
                               2: ["B4", "B8", "B9", "R7"]})
    html = client.get(url).content.decode()
    assert "squeeze__cover" in html
    assert "badge--lead" not in html and "seat--turn" not in html
    post = client.post(url + "squeeze", {"seq": table_of(url).seq}, HTTP_HX_REQUEST="true")
    html = post.content.decode()
    me = html.split('data-seat="0"')[1].split("</li>")[0]
    assert "badge--lead" in me and "seat--turn" in html.split('data-seat="0"')[0][-200:]


def test_the_squeezed_card_is_sent_only_on_request(client: Client) -> None:
    url = round_three(client, {0: ["B5", "B7", "B6", "RQ"]})
    fourth = card_by_label(game_of(url).hand.cards[HUMAN][3])  # type: ignore[union-attr]
    assert fourth not in mentioned(client.get(url).content.decode())
    assert Client().get(url + "squeeze-card").status_code == 404  # another visitor
    card = client.get(url + "squeeze-card")
    assert card.status_code == 200 and mentioned(card.content.decode()) == {fourth}
    assert table_of(url).squeezed == 0  # fetching it moves nothing: the bots still wait
    client.post(url + "squeeze", {"seq": table_of(url).seq})
    assert client.get(url + "squeeze-card").status_code == 409
