"""Practice hands for the coach's tests: a table created through the start form and
played through the table's views (the learner by a seeded random policy), so the
finished hands are stored exactly as the site stores them."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from engine.game import Act, Game, Phase
from tests.tables import game_of, table_of
from tutorial.models_table import PracticeTable

HUMAN = 0


def play_hands(client: Client, monkeypatch: pytest.MonkeyPatch, seed: int, hands: int,
               bots: int = 2, level: str = "strong") -> PracticeTable:
    """Open a table (deck seed ``seed``) and play until ``hands`` hands are finished."""
    monkeypatch.setattr("tutorial.views.table.secrets.randbits", lambda _bits: seed)
    r = client.post("/table/", {"bots": str(bots), "level": level, "stakes": "1、3",
                                "mango": "fixed"})
    url = r["Location"]
    rng = random.Random(seed)
    for _ in range(hands * 80):
        g, t = game_of(url), table_of(url)
        if t.hands.count() >= hands or g.phase is Phase.OVER:
            return t
        h = g.hand
        data: dict[str, object]
        if h is not None and h.result is None and HUMAN in g.in_hand() \
                and t.squeezed != h.number and (h.round >= 3 or g.phase is Phase.SHOWDOWN):
            path, data = "squeeze", {}
        elif g.phase is Phase.BETWEEN:
            if g.seats[HUMAN].bobo <= 0:
                path, data = "act", {"act": "rebuy", "amount": g.rules.stakes.later_bobo}
            elif any(s.bot and not s.left and s.bobo <= 0 for s in g.seats):
                path, data = "bot", {}
            else:
                path, data = "act", {"act": "deal"}
        elif g.to_act == HUMAN:
            path, data = "act", _move(g, rng)
        else:
            path, data = "bot", {}
        response = client.post(url + path, {"seq": t.seq, **data})
        assert response.status_code in (200, 303), (path, data, response.status_code)
    return table_of(url)


def _move(g: Game, rng: random.Random) -> dict[str, object]:
    legal = g.legal_actions(HUMAN)
    h = g.hand
    assert h is not None
    if g.phase is Phase.SHOWDOWN:
        return {"act": "split", "head": rng.sample(h.cards[HUMAN], 2)}
    weights = {Act.CALL: 8, Act.CHECK: 8, Act.RAISE: 2, Act.FOLD: 1}
    acts = [a for a in legal.acts if a in weights]
    act = rng.choices(acts, [weights[a] for a in acts])[0]
    if act is Act.RAISE:
        assert legal.min_raise is not None
        return {"act": "raise", "amount": legal.min_raise}
    return {"act": act.value}
