"""Every betting decision of a practice hand priced (issue 14 §2, the engine part).

For one decision of the learner's seat, every legal alternative — 甩, 瞧 or 休, 拖, the
minimum 返, a large 返 (twice the minimum), 敲, and whatever the learner chose — gets
its expected chips for the whole hand (the learner's net when the hand ends), with a
standard error, computed from the learner's information only:

1. **Worlds.** The cards the learner cannot see (the others' hidden cards, every card
   still to come, the learner's own included) are dealt from the cards they have not
   seen.
2. **Bayes.** A world's weight is how likely the bots' actions so far in this hand were
   in it: the product, over every bot action since the deal, of the probability
   :func:`engine.bots.policy` gave that action (the bots' policies are explicit
   distributions computed from what each bot saw, so this is exact).  A bot sees only
   its own cards and what is public, so that product depends on the unseen cards only
   through each bot's two hidden cards: each bot's pair is drawn in proportion to its
   likelihood (exact over the pairs of kinds), the rest dealt at random, and the world
   keeps the importance weight of that proposal (:class:`_Worlds`): the same posterior
   as weighing uniformly dealt worlds, without spending play-outs on worlds that hardly
   count (the effective number of worlds stays close to the number sampled).
3. **Play-out.** In each world every alternative is applied and the hand is played to
   its end: the bots by their policies, the learner's later decisions by the ``strong``
   bot's policy (and its split), and the hand is settled for real by the table engine.
4. **Figures.** Self-normalised importance sampling over the worlds (the same worlds
   and random numbers for every alternative): the weighted mean, and its standard
   error ``sqrt(Σ w²(x − mean)²) / Σ w``.  Folding is exact: minus what the learner
   has committed (no play-out).

**Showdown wins.**  Each decision also carries how often the learner's hand wins at the
showdown: the Bayes-weighted share of the worlds (step 2) in which the learner comes out
ahead (net chips of the hand > 0) if the hand went to the showdown at once, nobody
betting or folding any more: every seat still in stakes the current level (what a 瞧
puts in; a short 钵钵 all of it), the cards still to come are those of the world, each
seat splits as its policy would (the learner by the ``strong`` bot's split, 三花 where
that declares it) and the real settlement (:func:`engine.settle.settle`: order by 尾, caps,
the best 尾 eats the 皮 and the 芒果 pot, equal hands share) decides.  A stand-off that
gives back every stake is not a win.  Its standard error is the same self-normalised one.

**Grades.**  The loss of the chosen action is the best alternative's EV minus the
chosen one's, in chips and in units of the opening 发招 (``rules.stakes.opening``).
It counts only when it is more than twice its standard error (computed from the paired
per-world differences); otherwise the grade is 好.  Thresholds in 发招 units:
below 0.5 好, below 2 不精确, below 6 失误, from 6 大错.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate
from typing import Any

from .bots import View, _sorted, choose_split, distribution, modelled, policy, view
from .cards import DECK, Kind
from .chance import draw
from .game import BETTING, Act, Action, Game, Phase, card_by_label, replay
from .groups import Group
from .hands import Split, sanhua
from .rules import Rules
from .settle import Seat, settle

__all__ = ["GRADES", "WORLDS", "Decision", "Priced", "ReviewError", "alternatives",
           "decision_json", "grade", "play_values", "price_decision", "retry", "review",
           "wins_showdown"]

WORLDS = 100  # sampled worlds per decision (scripts/bench_review.py: a review fits a request)
GRADES = ((0.5, "好"), (2.0, "不精确"), (6.0, "失误"), (math.inf, "大错"))


class ReviewError(ValueError):
    """A hand that cannot be reviewed (bad export, no decision of that seat)."""


@dataclass(frozen=True)
class Priced:
    action: Action
    ev: float
    stderr: float  # 0 when exact


@dataclass(frozen=True)
class Decision:
    round: int
    chosen: int  # index into options
    options: tuple[Priced, ...]
    best: int
    loss: float  # chips the chosen action gives up against the best
    loss_stderr: float
    grade: str
    worlds: int
    effective: float  # effective number of worlds after the Bayes weights
    win: float  # how often the hand wins at the showdown (module doc)
    win_stderr: float


def alternatives(game: Game, seat: int, chosen: Action | None = None) -> list[Action]:
    """The learner's options now (normalised; the chosen action included)."""
    legal = game.legal_actions(seat)
    out = [Action(Act.FOLD, seat),
           Action(Act.CALL if Act.CALL in legal else Act.CHECK, seat)]
    levels: list[tuple[Act, int]] = []
    if legal.tuo is not None:
        levels.append((Act.TUO, legal.tuo))
    if legal.min_raise is not None:
        levels.append((Act.RAISE, legal.min_raise))
        levels.append((Act.RAISE, 2 * legal.min_raise))
    if legal.qiao is not None and Act.QIAO in legal:
        levels.append((Act.QIAO, legal.qiao))
    seen: set[int] = set()
    for kind, level in levels:
        if level in seen or (kind is Act.RAISE and legal.max_raise is not None
                             and level >= legal.max_raise):
            continue
        seen.add(level)
        out.append(Action(kind, seat, level))
    if chosen is not None:
        done = game.verify(chosen)
        if not any(_same(done, a) for a in out):
            out.append(done)
    return [a for a in out if game.can(a)]


def _same(a: Action, b: Action) -> bool:
    bets = (Act.RAISE, Act.TUO, Act.QIAO)
    if a.kind in bets and b.kind in bets:
        return a.amount == b.amount
    return a.kind is b.kind


def grade(loss: float, loss_stderr: float, opening: int) -> str:
    """好 / 不精确 / 失误 / 大错 (see the module doc)."""
    if loss <= 2 * loss_stderr:
        return GRADES[0][1]
    units = loss / max(1, opening)
    return next(word for limit, word in GRADES if units < limit)


def _hand_start(game: Game) -> tuple[Game, list[Action]]:
    """The table right after this hand's deal, and the actions taken since."""
    hand = game.hand
    assert hand is not None
    return game.at_deal(), [Action.from_dict(a) for a in hand.actions[1:]]


Evidence = list[tuple[View, str, tuple[Kind, ...], Action]]


@lru_cache(maxsize=1 << 16)
def _chance(v: View, level: str, rules: Rules, action: Action) -> float:
    """The probability that a bot of ``level`` seeing ``v`` takes ``action``."""
    return sum(p for a, p in distribution(v, level, rules) if _same(a, action))


class _Worlds:
    """Steps 1–2 of the module doc as a sampler of worlds for ``seat`` (to act in
    ``game``; ``first``, ``past``: the table at the deal and the actions since).

    A bot's policy sees only its own cards and what is public, so the chance of its
    actions so far depends on the unseen cards through its own two hidden cards alone:
    the Bayes weight of a world is the product, over the bots, of a likelihood of their
    hidden pair.  Each bot's pair is drawn in proportion to that likelihood from the
    cards still unseen (exact over the pairs of kinds), the rest of the unseen cards are
    shuffled into every other unseen place, and the world keeps as its weight the
    product of the normalising sums (the importance weight of this proposal against
    the posterior: the same posterior as weighing uniformly dealt worlds, with far
    fewer wasted worlds when the bots have acted)."""

    def __init__(self, game: Game, seat: int, first: Game, past: Sequence[Action]) -> None:
        hand = game.hand
        assert hand is not None
        self.seat = seat
        self.base = game.copy()
        self.base.state.history, self.base.state.log = [], []
        visible = {s: set(game.visible_cards(s, seat)) for s in hand.order}
        self.unseen = [(s, i) for s in hand.order for i, label in enumerate(hand.cards[s])
                       if label not in visible[s]]
        known = {label for s in hand.order for label in visible[s]}
        self.pool = [c for c in DECK if c.label not in known]
        evidence: dict[int, Evidence] = {}
        g = first.copy()
        for a in past:
            if (a.seat is not None and a.seat != seat and g.seats[a.seat].bot
                    and a.kind in BETTING):
                up = tuple(card_by_label(c).kind for c in g.visible_cards(a.seat, seat))
                evidence.setdefault(a.seat, []).append(
                    (view(g, a.seat), modelled(g, a.seat), up, a))
            g.apply(a)
        copies = Counter(c.kind for c in self.pool)
        kinds = sorted(copies, key=lambda k: k.index)
        pairs = [(a, b) for i, a in enumerate(kinds) for b in kinds[i:]
                 if a is not b or copies[a] > 1]
        rules = game.rules
        self.labels: dict[Kind, list[str]] = {k: [c.label for c in self.pool if c.kind is k]
                                              for k in kinds}
        self.likely = [_Likely(b, {(ka, kb): math.prod(
            _chance(replace(v, own=_sorted((ka, kb, *up))), level, rules, a)
            for v, level, up, a in evidence[b]) for ka, kb in pairs}, copies)
            for b in hand.order if b in evidence]

    def draw(self, rng: random.Random) -> tuple[Game, float]:
        """A world (a copy of the table with every unseen card dealt) and its weight
        (0: no world explains the bots' actions)."""
        g = self.base.copy()
        cards = g.hand.cards  # type: ignore[union-attr]
        weight = 1.0
        taken: list[Kind] = []
        drawn: dict[tuple[int, int], str] = {}
        for like in self.likely:
            # the sum of the likelihood over the pairs the bots before left
            total = like.total - sum(like.row[k] for k in taken) + sum(
                like.of[ka, kb] for i, ka in enumerate(taken) for kb in taken[i + 1:])
            if total <= 1e-12 * like.total:
                return g, 0.0
            weight *= total
            while True:  # a pair in proportion to its likelihood, among those left
                i = bisect(like.cumulative, rng.random() * like.total)
                if i == len(like.pairs):  # rounding
                    continue
                ka, kb = like.pairs[i]
                pair = (rng.sample(self.labels[ka], 2) if ka is kb else
                        [rng.choice(self.labels[ka]), rng.choice(self.labels[kb])])
                if not set(pair) & set(drawn.values()):
                    break
            drawn[like.seat, 0], drawn[like.seat, 1] = pair
            taken += (ka, kb)
        rest = [c.label for c in self.pool if c.label not in drawn.values()]
        rng.shuffle(rest)
        it = iter(rest)
        for s, i in self.unseen:
            cards[s][i] = drawn[s, i] if (s, i) in drawn else next(it)
        return g, weight


class _Likely:
    """One bot's likelihood of each pair of kinds as its hidden cards (``of``), with
    what :meth:`_Worlds.draw` needs: the pairs' cumulative weight over the unseen
    physical cards, their total, and per kind the likelihood summed over the pairs one
    card of that kind makes with the others."""

    def __init__(self, seat: int, of: dict[tuple[Kind, Kind], float],
                 copies: Counter[Kind]) -> None:
        self.seat = seat
        self.of = of | {(kb, ka): p for (ka, kb), p in of.items()}
        self.pairs = list(of)
        self.cumulative = list(accumulate(
            p * (copies[ka] * (copies[ka] - 1) // 2 if ka is kb else copies[ka] * copies[kb])
            for (ka, kb), p in of.items()))
        self.total = self.cumulative[-1]
        self.row = {ka: sum(self.of.get((ka, kb), 0.0) * (n - (ka is kb))
                            for kb, n in copies.items()) for ka in copies}


def _play_out(g: Game, seat: int, rng: random.Random) -> int:
    """Play the hand to its end (every seat by :func:`engine.bots.modelled`: the bots by
    their policies, the learner and the expert by the strong one); ``seat``'s net."""
    while g.phase in (Phase.BETTING, Phase.SHOWDOWN):
        actor = g.to_act
        assert actor is not None
        g.apply(draw(policy(g, actor, modelled(g, actor)), rng))
    result = g.history[-1].result
    assert result is not None
    return result.nets[seat]


def wins_showdown(g: Game, seat: int) -> bool:
    """Whether ``seat`` comes out ahead if the hand went to the showdown now (module doc,
    "Showdown wins"); ``g`` holds every seat's four cards (a world)."""
    h = g.hand
    assert h is not None
    seats = []
    for s in h.order:
        if h.folded[s]:
            seats.append(Seat(str(s), h.committed[s], folded=True))
            continue
        stake = max(h.committed[s], min(h.level, g.seats[s].bobo))
        act = choose_split(g, s, modelled(g, s))
        k = [card_by_label(c).kind for c in act.cards] if act.cards else list(g.kinds(s))
        split = Split.of(Group.of(k[0], k[1]), Group.of(k[2], k[3]), g.rules)
        declared = sanhua(k, g.rules) if act.kind is Act.SANHUA else None
        seats.append(Seat(str(s), stake, split, sanhua=declared))
    result = settle(seats, g.rules)
    pot = g.state.pot if result.pi_to == str(seat) else 0
    return result.nets[str(seat)] + pot > 0


def play_values(game: Game, seat: int, options: Sequence[Action], worlds: int,
                rng: random.Random, start: tuple[Game, list[Action]] | None = None,
                wins: list[float] | None = None) -> tuple[list[float], list[list[float]]]:
    """Steps 1–3 of the module doc for ``seat`` (to act now): the Bayes weight of each
    world that explains the bots' actions, and ``seat``'s net in that world after each
    option (folding: minus what it committed, exact); ``wins`` (if given) gets 1 or 0
    per world: :func:`wins_showdown`.  Shared by :func:`price_decision` and the expert
    bot (:mod:`engine.expert`)."""
    hand = game.hand
    assert hand is not None
    first, past = start or _hand_start(game)
    sampler = _Worlds(game, seat, first, past)
    weights: list[float] = []
    values: list[list[float]] = [[] for _ in options]
    committed = hand.committed[seat]
    for _ in range(worlds):
        g, w = sampler.draw(rng)
        if w == 0:
            continue
        weights.append(w)
        if wins is not None:
            wins.append(float(wins_showdown(g, seat)))
        state = rng.getstate()
        for j, option in enumerate(options):
            if option.kind is Act.FOLD:
                values[j].append(-committed)
                continue
            rng.setstate(state)  # the same random numbers for every alternative
            trial = g.copy()
            trial.apply(option)
            values[j].append(_play_out(trial, seat, rng))
    return weights, values


def price_decision(game: Game, chosen: Action | None = None, worlds: int = WORLDS,
                   seed: int = 0, start: tuple[Game, list[Action]] | None = None
                   ) -> Decision:
    """Price every alternative of the decision ``game.to_act`` faces now (``start``: the
    table right after this hand's deal and the actions since, if the caller has them)."""
    seat = game.to_act
    hand = game.hand
    if seat is None or hand is None or game.phase is not Phase.BETTING:
        raise ReviewError("nobody is to bet now")
    options = alternatives(game, seat, chosen)
    wins: list[float] = []
    weights, values = play_values(game, seat, options, worlds, random.Random(seed), start,
                                  wins)
    committed = hand.committed[seat]
    if not weights:
        raise ReviewError("no world explains the bots' actions")
    total = sum(weights)
    means = [sum(w * x for w, x in zip(weights, xs, strict=True)) / total for xs in values]

    def error(xs: Sequence[float], mean: float) -> float:
        return math.sqrt(sum((w * (x - mean)) ** 2
                             for w, x in zip(weights, xs, strict=True))) / total

    priced = tuple(Priced(a, -float(committed), 0.0) if a.kind is Act.FOLD
                   else Priced(a, m, error(xs, m))
                   for a, xs, m in zip(options, values, means, strict=True))
    best = max(range(len(priced)), key=lambda i: priced[i].ev)
    pick = 1 if chosen is None else next(i for i, a in enumerate(options)
                                         if _same(game.verify(chosen), a))
    diffs = [b - c for b, c in zip(values[best], values[pick], strict=True)]
    loss = priced[best].ev - priced[pick].ev
    loss_se = error(diffs, loss)
    effective = total ** 2 / sum(w * w for w in weights)
    win = sum(w * x for w, x in zip(weights, wins, strict=True)) / total
    return Decision(hand.round, pick, priced, best, loss, loss_se,
                    grade(loss, loss_se, game.rules.stakes.opening), len(weights), effective,
                    win, error(wins, win))


def _decisions(config: Any, log: Sequence[Any], seat: int
               ) -> Iterator[tuple[Game, Action, tuple[Game, list[Action]]]]:
    """Each betting decision ``seat`` made in the last hand of the session: the table
    then (valid until the next one is asked for), the action taken, and the table right
    after the deal with the actions since."""
    deals = [i for i, a in enumerate(log) if isinstance(a, dict) and a.get("kind") == "deal"]
    if not deals:
        raise ReviewError("the log holds no hand")
    game = replay(config, log[:deals[-1] + 1])
    first = game.copy()
    first.state.history.clear()
    first.state.log.clear()
    past: list[Action] = []
    for raw in log[deals[-1] + 1:]:
        action = Action.from_dict(raw)
        if (game.phase is Phase.BETTING and action.seat == seat
                and action.kind in BETTING):
            yield game, action, (first, list(past))
        past.append(game.apply(action))


def review(config: Any, log: Sequence[Any], seat: int = 0, worlds: int = WORLDS,
           seed: int = 0) -> list[Decision]:
    """Every betting decision ``seat`` made in the last hand of the session
    (``config`` and ``log`` as in ``game.state``), priced."""
    out = [price_decision(game, action, worlds, seed + k, start)
           for k, (game, action, start) in enumerate(_decisions(config, log, seat))]
    if not out:
        raise ReviewError(f"seat {seat} made no betting decision in the last hand")
    return out


def retry(config: Any, log: Sequence[Any], seat: int, index: int, action: Action,
          worlds: int = WORLDS, seed: int = 0) -> Decision:
    """Decision ``index`` of :func:`review` priced again with ``action`` (any legal one,
    e.g. a 返 of another amount) as the choice: the same worlds' seed, every alternative
    and ``action`` priced and graded as :func:`review` does.  An action that is not legal
    there raises :class:`~engine.game.ActionError`."""
    for k, (game, _, start) in enumerate(_decisions(config, log, seat)):
        if k == index:
            return price_decision(game, action, worlds, seed + k, start)
    raise ReviewError(f"seat {seat} made no decision {index} in the last hand")


def decision_json(d: Decision) -> dict[str, Any]:
    return {
        "round": d.round,
        "chosen": d.chosen,
        "best": d.best,
        "options": [{**p.action.to_dict(), "ev": p.ev, "stderr": p.stderr}
                    for p in d.options],
        "loss": d.loss, "loss_stderr": d.loss_stderr, "grade": d.grade,
        "worlds": d.worlds, "effective_worlds": round(d.effective, 1),
        "win": d.win, "win_stderr": d.win_stderr,
    }

