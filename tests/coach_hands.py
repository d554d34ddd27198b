"""Practice hands played through the table's views, as the site stores them: a table
created through the start form, then every request a learner would send (the bots'
steps, the squeeze, a rebuy, the learner's moves by a seeded random policy).  The
coach's tests take finished hands from here; the leak test scans every response."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client

from engine.game import Act, Action, Game, Phase
from engine.players import bot_action
from engine.review import review
from engine.rules import Rules
from engine.simulate import play_hand, rebuy_empty
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


# ---------------------------------------------------------------------- engine-only hands
LEARNER_WEIGHTS = {Act.CALL: 8, Act.CHECK: 8, Act.RAISE: 2, Act.FOLD: 1, Act.QIAO: 0.3}


def learner_move(game: Game, rng: random.Random, weights: dict[Act, float] = LEARNER_WEIGHTS
                 ) -> Action:
    """A practising learner in seat 0: mostly 瞧 / 休, sometimes the minimum 返, 敲 or
    甩 (``weights``); the split as the ``strong`` bot splits."""
    if game.phase is Phase.SHOWDOWN:
        game.seats[HUMAN].bot = "strong"
        try:
            return bot_action(game, HUMAN, rng)
        finally:
            game.seats[HUMAN].bot = None
    legal = game.legal_actions(HUMAN)
    acts = [a for a in legal.acts if a in weights]
    act = rng.choices(acts, [weights[a] for a in acts])[0]
    if act is Act.RAISE:
        return Action(Act.RAISE, HUMAN, legal.min_raise)
    if act is Act.QIAO:
        return Action(Act.QIAO, HUMAN, legal.qiao)
    return Action(act, HUMAN)


def practice_exports(levels: list[str], hands: int, seed: int,
                     weights: dict[Act, float] = LEARNER_WEIGHTS
                     ) -> Iterator[dict[str, Any]]:
    """A practice session played by the engine alone (the learner in seat 0 by
    :func:`learner_move`, bots of ``levels``, deck seed ``seed``): after each of its
    ``hands`` hands, the export the coach reviews (``{"config", "log", "seat"}``)."""
    game = Game.new([("you", None)] + [(f"bot{i}", lv) for i, lv in enumerate(levels)],
                    Rules(), seed)
    rng = random.Random(seed)
    for _ in range(hands):
        rebuy_empty(game)
        play_hand(game, lambda g, seat: learner_move(g, rng, weights) if seat == HUMAN
                  else bot_action(g, seat, rng))
        yield {"config": game.state.config, "log": list(game.state.log), "seat": HUMAN}


# heads-up and four seats; the learner bets and folds more often than in LEARNER_WEIGHTS
# so that the set holds every kind of decision
FIXED_SESSIONS = ((["strong"], 7), (["strong", "simple", "strong"], 8),
                  (["simple"], 9), (["strong", "strong", "strong"], 10))
FIXED_WEIGHTS = {Act.CALL: 6, Act.CHECK: 6, Act.RAISE: 2, Act.FOLD: 1.5, Act.QIAO: 1}


def fixed_hands(per_session: int = 8) -> list[dict[str, Any]]:
    """The coach's fixed set of practice hands (issue 20): the first ``per_session`` hands
    of each of :data:`FIXED_SESSIONS` in which the learner made a betting decision."""
    out = []
    for levels, seed in FIXED_SESSIONS:
        kept = 0
        for data in practice_exports(levels, 40, seed, FIXED_WEIGHTS):
            if kept == per_session:
                break
            if decides(data):
                out.append(data)
                kept += 1
    return out


def decides(data: dict[str, Any]) -> bool:
    log = data["log"]
    deal = max(i for i, a in enumerate(log) if a["kind"] == "deal")
    return any(a.get("seat") == HUMAN and a["kind"] in ("call", "check", "raise", "fold",
                                                         "tuo", "qiao")
               for a in log[deal + 1:])
