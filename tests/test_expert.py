"""The expert bot (engine/expert.py, issue 14 §4) and the hand-start copy it prices from."""

from __future__ import annotations

import random

import pytest

from engine import expert
from engine.chance import draw
from engine.game import BOT_LEVELS, Act, Action, Game, Phase, replay
from engine.players import policy
from engine.rules import Rules
from engine.showdown import at_table, price
from engine.simulate import parse_bots, simulate
from tests.test_bots import decisions


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert, "WORLDS", 8)  # the tests check shape, not strength
    monkeypatch.setattr(expert, "SPLIT_SAMPLES", 100)


def test_expert_is_a_bot_level() -> None:
    assert "expert" in BOT_LEVELS
    assert parse_bots("expert,strong,strong,strong") == ["expert", "strong", "strong", "strong"]


@pytest.mark.parametrize("levels", [["expert", "strong"], ["strong", "expert", "simple"]])
def test_policy_is_a_distribution_over_legal_actions(levels: list[str]) -> None:
    seen = 0
    for game, seat in decisions(levels, 3, 4):
        if game.seats[seat].bot != "expert":
            continue
        options = policy(game, seat)
        assert abs(sum(p for _, p in options) - 1) < 1e-9
        assert all(p > 0 and game.can(a) for a, p in options)
        seen += 1
    assert seen


def test_same_table_same_decisions() -> None:
    for game, seat in decisions(["expert", "strong"], 5, 2):
        if game.seats[seat].bot == "expert":
            assert policy(game, seat) == policy(Game.from_dict(game.to_dict()), seat)
    one = simulate(["expert", "strong"], 3, seed=4).to_dict()
    two = simulate(["expert", "strong"], 3, seed=4).to_dict()
    assert one["bots"] == two["bots"] and one["endings"] == two["endings"]


@pytest.mark.parametrize("seed", range(4))
def test_never_folds_a_sure_winner(seed: int) -> None:
    """丁二皇 and a pair of 天牌 cannot lose: once it holds all four, 甩 has no chance."""
    game = Game.new([("e", "expert"), ("s", "strong"), ("t", "strong")], Rules(), seed)
    game.apply(Action(Act.DEAL, cards=game.stacked_deck({0: ["R3", "JK", "RQ", "RQ"]}, seed)))
    rng = random.Random(seed)
    checked = 0
    while game.phase is not Phase.BETWEEN:
        actor = game.to_act
        assert actor is not None
        options = policy(game, actor)
        if actor == 0 and game.phase is Phase.BETTING and game.dealt(0) == 4:
            assert all(a.kind is not Act.FOLD for a, _ in options)
            checked += 1
        game.apply(draw(options, rng))
    result = game.history[-1].result
    assert result is not None and result.nets[0] >= 0
    if result.how == "showdown":
        assert result.nets[0] > 0


def test_split_is_priced_at_the_table() -> None:
    game = Game.new([("e", "expert"), ("s", "strong")], Rules(), 1)
    game.apply(Action(Act.DEAL, cards=game.stacked_deck({0: ["RQ", "R6", "R7", "B9"]}, 1)))
    while game.phase is Phase.BETTING:
        actor = game.to_act
        assert actor is not None
        legal = game.legal_actions(actor)
        if actor == 1 and Act.CHECK in legal:  # bet, so that nobody 休过河
            game.apply(Action(Act.RAISE, 1, legal.min_raise))
        else:
            game.apply(Action(Act.CALL if Act.CALL in legal else Act.CHECK, actor))
    while game.phase is Phase.SHOWDOWN and game.to_act != 0:
        game.apply(policy(game, 1)[0][0])
    assert game.to_act == 0
    action = expert.expert_split(game, 0)
    assert game.can(action)
    pricing = price(at_table(game, 0, game.state.pot))
    best = pricing.options[pricing.best].split
    assert best is not None and sorted(action.cards[2:]) == sorted(
        c for c in game.hand.cards[0] if c not in action.cards[:2])  # type: ignore[union-attr]


def test_at_deal_is_the_table_right_after_the_deal() -> None:
    n = 0
    for game, _ in decisions(["strong", "simple", "strong"], 8, 12):
        hand = game.hand
        assert hand is not None
        deal = len(game.state.log) - len(hand.actions) + 1
        want = replay(game.state.config, game.state.log[:deal]).to_dict()
        got = game.at_deal().to_dict()
        for d in (want, got):
            d["log"], d["history"] = [], []
        assert got == want
        n += 1
    assert n
