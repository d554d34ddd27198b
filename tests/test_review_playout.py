"""The review's play-outs (engine/review.py, step 3) against the table engine played one
line at a time: continuations that take the same actions share one line, and the
showdown is priced without playing the splits through the table; neither may change a
net."""

from __future__ import annotations

import random
from collections import Counter

from engine.bots import choose_split, distribution, modelled, view
from engine.chance import draw_at
from engine.game import Act, Action, Game, Phase
from engine.players import bot_action
from engine.review import CONTINUATIONS, _continuation, _play_out, _uniform
from engine.simulate import rebuy_empty

LEVELS = ("strong", "simple")


def one_line(g: Game, seat: int, dice: int, then: str) -> tuple[int, Game]:
    """``seat``'s net with its later bets by continuation ``then``: every action checked
    and applied by :meth:`Game.apply`, the splits played at the table's showdown and
    settled by it (the same random number per slot as the review's play-outs)."""
    count: Counter[int] = Counter()
    while g.phase is Phase.BETTING:
        actor = g.to_act
        hand = g.hand
        assert actor is not None and hand is not None
        slot = actor * 8 + hand.round
        policy = (_continuation(g, seat, then) if actor == seat
                  else distribution(view(g, actor), modelled(g, actor), g.rules))
        g.apply(draw_at(policy, _uniform(dice, slot * 64 + count[slot])))
        count[slot] += 1
    while g.phase is Phase.SHOWDOWN:
        actor = g.to_act
        assert actor is not None
        g.apply(choose_split(g, actor, modelled(g, actor)))
    result = g.history[-1].result
    assert result is not None
    return result.nets[seat], g


def spots(seed: int, sanhua: bool) -> list[Game]:
    """Tables at the learner's (seat 0) betting decisions of a few hands, two to five
    seats, bots of both levels; with ``sanhua`` seat 1 is dealt 三花十's three cards."""
    rng = random.Random(seed)
    players = [("you", None)] + [(f"b{i}", rng.choice(LEVELS)) for i in range(rng.randint(1, 4))]
    game = Game.new(players, seed=seed, bobo=300)
    out = []
    for _ in range(3):
        if game.phase is not Phase.BETWEEN:
            break
        rebuy_empty(game)
        stacked = game.stacked_deck({1: ["R10", "B10", "BJ"]}, seed) if sanhua else ()
        game.apply(Action(Act.DEAL, cards=stacked))
        while game.phase is Phase.BETTING:
            actor = game.to_act
            assert actor is not None
            if actor == 0:
                out.append(game.copy())
            game.apply(bot_action(game, actor, rng) if actor else
                       draw_at(distribution(view(game, 0), "strong", game.rules), rng.random()))
        while game.phase is Phase.SHOWDOWN:
            actor = game.to_act
            assert actor is not None
            game.apply(choose_split(game, actor, modelled(game, actor)))
    return out


def test_play_outs_agree_with_the_table_played_one_line_at_a_time() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        for g in spots(seed, sanhua=seed % 4 == 0):
            for d in range(3):
                dice = random.Random(f"{seed}:{d}").getrandbits(64)
                nets = _play_out(g.copy(), 0, dice, CONTINUATIONS)
                lines = [one_line(g.copy(), 0, dice, then) for then in CONTINUATIONS]
                assert nets == [net for net, _ in lines], (seed, d)
                seen["lines differ"] += len(set(nets)) > 1
                for _, end in lines:
                    h = end.history[-1]
                    if h.result is not None and h.result.how in ("showdown", "sanhua"):
                        seen["showdown"] += 1
                        seen["三花 declared"] += bool(h.sanhua)
                        seen["a fold before it"] += any(h.folded)
                        seen["a pot"] += h.pot_start > 0
    # every case the shortcut must get right was met
    assert min(seen.values()) > 0 and len(seen) == 5, seen
