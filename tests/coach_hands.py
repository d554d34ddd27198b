"""Practice hands played through the table's views, as the site stores them: a table
created through the start form, then every request a learner would send (the bots'
steps, the squeeze, a rebuy, the learner's moves by a seeded random policy).  The
coach's tests take finished hands from here; the leak test scans every response."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial

import pytest
from django.http import HttpResponse
from django.test import Client

from engine.game import Act, Game, Phase
from engine.review import review
from tests.jobs import work
from tests.tables import game_of, table_of
from tutorial.models_table import PracticeTable

HUMAN = 0
Move = Callable[[Game], dict[str, object]]


def start_table(client: Client, monkeypatch: pytest.MonkeyPatch, seed: int,
                **form: str) -> str:
    """Open a table (deck seed ``seed``) through the start form; its url."""
    monkeypatch.setattr("tutorial.views.table.secrets.randbits", lambda _bits: seed)
    return str(client.post("/table/", {"stakes": "1、3", "mango": "fixed", **form})["Location"])


def next_request(g: Game, squeezed: int, move: Move) -> tuple[str, dict[str, object]]:
    """The view the learner posts to next and its data (``move`` picks the learner's acts)."""
    h = g.hand
    if h is not None and h.result is None and HUMAN in g.in_hand() and squeezed != h.number \
            and (h.round >= 3 or g.phase is Phase.SHOWDOWN):
        return "squeeze", {}
    if g.phase is Phase.BETWEEN:
        if g.seats[HUMAN].bobo <= 0:
            return "act", {"act": "rebuy", "amount": g.rules.stakes.later_bobo}
        if any(s.bot and not s.left and s.bobo <= 0 for s in g.seats):
            return "bot", {}
        return "act", {"act": "deal"}
    if g.to_act == HUMAN:
        return "act", move(g)
    return "bot", {}


def drive(client: Client, url: str, move: Move, steps: int,
          done: Callable[[Game, PracticeTable], bool],
          headers: Callable[[int], dict[str, str]] = lambda _step: {},
          ) -> Iterator[tuple[int, str, dict[str, object], HttpResponse]]:
    """Post the learner's requests to the table at ``url`` until ``done`` (or the game is
    over, or ``steps`` requests were sent); yield (step, path, data, response) for each."""
    for step in range(steps):
        g, t = game_of(url), table_of(url)
        if done(g, t) or g.phase is Phase.OVER:
            return
        path, data = next_request(g, t.squeezed, move)
        response = client.post(url + path, {"seq": t.seq, **data}, **headers(step))
        assert response.status_code in (200, 303), (path, data, response.status_code)
        work("moves")  # an expert's move, asked of the worker by a bot step
        yield step, path, data, response


def play_hands(client: Client, monkeypatch: pytest.MonkeyPatch, seed: int, hands: int,
               bots: int = 2, level: str = "strong") -> PracticeTable:
    """Open a table (deck seed ``seed``) and play until ``hands`` hands are finished."""
    url = start_table(client, monkeypatch, seed, bots=str(bots), level=level)
    for _ in drive(client, url, partial(_move, rng=random.Random(seed)), hands * 80,
                   lambda _g, t: t.hands.count() >= hands):
        pass
    return table_of(url)


def coached(monkeypatch: pytest.MonkeyPatch, hands: int, worlds: int = 40
            ) -> tuple[Client, str]:
    """A client and the id of its table with ``hands`` hands played (deck seed 11), the
    coach reviewing (and re-pricing) with ``worlds`` worlds so that the tests stay quick."""
    monkeypatch.setattr("tutorial.coach.WORLDS", worlds)
    monkeypatch.setattr("tutorial.coach.review",
                        lambda config, log, seat, _worlds: review(config, log, seat, worlds))
    client = Client()
    table = play_hands(client, monkeypatch, 11, hands)
    work()  # the reviews the hands' last actions asked for
    return client, str(table.id)


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
