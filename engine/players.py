"""Every computer player by its level: the one place that picks a policy by level.

The levels are the bots of :mod:`engine.bots` (``simple``, ``strong``), the
``expert`` (:mod:`engine.expert`, which prices its options by play-outs of the bots)
and the probes of :mod:`engine.probes` (one-line players for testing the bots, which
split like the ``strong`` bot).  This module sits above all three, so none of them
imports another to reach a player it does not define.
"""

from __future__ import annotations

import random

from .bots import Policy, choose_split, distribution, view
from .chance import draw
from .expert import expert_policy, expert_split
from .game import Act, Action, Game, Phase, is_probe
from .probes import probe_distribution

__all__ = ["bot_action", "policy", "split"]


def policy(game: Game, seat: int, level: str | None = None) -> Policy:
    """The distribution over the actions of the player in ``seat`` (the seat to act;
    between hands, a seat whose 钵钵 is empty re-buys); ``level`` overrides the seat's."""
    level = level or game.seats[seat].bot or "simple"
    if game.phase is Phase.BETWEEN:
        if game.seats[seat].bobo <= 0:
            return ((Action(Act.REBUY, seat, game.rules.stakes.later_bobo), 1.0),)
        raise ValueError("a bot has nothing to do between hands")
    if game.phase is Phase.SHOWDOWN:
        return ((split(game, seat, level), 1.0),)
    if level == "expert":
        return expert_policy(game, seat)
    if is_probe(level):
        return probe_distribution(view(game, seat), level, game.rules)
    return distribution(view(game, seat), level, game.rules)


def split(game: Game, seat: int, level: str) -> Action:
    """The showdown action of the player of ``level`` in ``seat``: the expert prices
    its options at this showdown, a probe splits like the ``strong`` bot."""
    if level == "expert":
        return expert_split(game, seat)
    return choose_split(game, seat, "strong" if is_probe(level) else level)


def bot_action(game: Game, seat: int, rng: random.Random) -> Action:
    """What the player in ``seat`` does now: one draw from :func:`policy`."""
    return draw(policy(game, seat), rng)
