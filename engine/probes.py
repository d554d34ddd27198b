"""Probes: players with one line of strategy, to test that the bots cannot be exploited
by it (issue 20 §2; ``scripts/probes.py`` prints the table).

Each probe is a betting policy over the same :class:`engine.bots.View` as the bots, and
splits at the showdown like the ``strong`` bot:

* ``always-qiao``: 敲 whenever it may (else 瞧 / 休);
* ``always-call``: 瞧 every bet, 休 when nobody has bet;
* ``min-raise``: the minimum 返 whenever it may (else 瞧 / 休);
* ``fold-to-bet``: 休 when it is free, 甩 to any bet;
* ``top-N`` (e.g. ``top-20``): 敲 with the best N % of hands (:func:`engine.bots.share_above`:
  by strength among all hands of as many cards), else 休 when free and 甩 to a bet.
"""

from __future__ import annotations

from collections.abc import Callable

from .bots import Policy, View, share_above
from .game import PROBE_LEVELS, Act, Action, is_probe
from .rules import Rules

__all__ = ["PROBES", "is_probe", "probe_distribution"]

ProbePolicy = Callable[[View, Rules], Policy]


def _one(action: Action) -> Policy:
    return ((action, 1.0),)


def _passive(v: View) -> Policy:
    """瞧 a bet, 休 when nobody has bet."""
    return _one(Action(Act.CALL if Act.CALL in v.legal else Act.CHECK, v.seat))


def _qiao(v: View, rules: Rules) -> Policy:
    return _one(Action(Act.QIAO, v.seat, v.bobo)) if Act.QIAO in v.legal else _passive(v)


def _call(v: View, rules: Rules) -> Policy:
    return _passive(v)


def _min_raise(v: View, rules: Rules) -> Policy:
    if v.legal.min_raise is None:
        return _passive(v)
    level = v.legal.min_raise
    kind = Act.TUO if level == v.legal.tuo else Act.RAISE
    return _one(Action(kind, v.seat, level))


def _tight(v: View) -> Policy:
    """休 when free, 甩 to a bet."""
    return _one(Action(Act.CHECK if Act.CHECK in v.legal else Act.FOLD, v.seat))


def _fold(v: View, rules: Rules) -> Policy:
    return _tight(v)


def _top(percent: int) -> ProbePolicy:
    def top(v: View, rules: Rules) -> Policy:
        if share_above(v.own, rules) <= percent / 100 and Act.QIAO in v.legal:
            return _one(Action(Act.QIAO, v.seat, v.bobo))
        return _tight(v)
    return top


PROBES: dict[str, ProbePolicy] = dict(zip(PROBE_LEVELS, (_qiao, _call, _min_raise, _fold),
                                          strict=True))


def probe_distribution(v: View, level: str, rules: Rules) -> Policy:
    """The betting policy of the probe ``level`` in the situation ``v``."""
    if level in PROBES:
        return PROBES[level](v, rules)
    if not is_probe(level):
        raise ValueError(f"unknown probe {level!r}")
    return _top(int(level.partition("-")[2]))(v, rules)
