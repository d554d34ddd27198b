"""Every betting decision of a practice hand priced (issue 14 §2, the engine part).

For one decision of the learner's seat, every legal alternative — 甩 (not while 休 is
free: :func:`alternatives`), 瞧 or 休, 拖, the minimum 返, a large 返 (twice the minimum),
敲, and whatever the learner chose — gets
its expected chips for the whole hand (the learner's net when the hand ends), with a
standard error, computed from the learner's information only:

1. **Worlds.** The cards the learner cannot see (the others' hidden cards, every card
   still to come, the learner's own included) are dealt from the cards they have not
   seen.
2. **Bayes.** A world's weight is how likely the bots' actions so far in this hand were
   in it: the product, over every bot action since the deal, of the probability
   :func:`engine.bots.distribution` gave that action (the bots' policies are explicit
   distributions computed from what each bot saw, so this is exact).  A bot sees only
   its own cards and what is public, so that product depends on the unseen cards only
   through each bot's two hidden cards.  (An action to which the bot's model gives no
   pair a chance — an expert bot's, modelled as the strong bot's — tells nothing and is
   left out; if the actions left are explained by no pair together, the bot's pairs weigh
   as dealt.)  The bots' pairs are drawn one bot after the
   other, each in proportion to its likelihood times the likelihood of the next bots
   (the next two for the first bot, the next one for the second) summed exactly over the
   pairs they may then hold (over the pairs of kinds: :meth:`_Worlds._table`); the rest
   is dealt at random, and the world keeps the importance weight of that proposal
   against the posterior.  With at most three bots that acted (every table of up to
   four seats) the worlds come from the posterior itself and all weigh the same; with
   more, the bots from the fourth on are drawn by their own likelihood, and their
   weights vary as they did for every bot before.  (Before, each bot's pair was drawn by
   its own likelihood alone: where folded bots' actions pointed at few pairs the
   weights spread, and a self-normalised mean over 100 worlds came out biased.)
   **Strata.**  The first bot's pair (a bot still in the hand) is drawn stratified:
   its pairs are ordered by the strength of its hand with the cards it shows, and a
   batch of ``n`` worlds takes two worlds from each of ``n / 2`` equal slices of their
   cumulative weight (:meth:`_Sample.grow`).  Where that hand decides most (round
   3, every card dealt) the estimates move two to three times less from seed to seed
   than with independent worlds; the standard errors come from the two worlds of each
   slice (:func:`_spread`), so they tell that spread, no less.  (Before any bot has
   acted, every world is drawn independently; the same formula holds.)
3. **Play-out.**  In a world an alternative is applied and the hand is played to its
   end: the bots by their policies, the learner's later betting decisions by a
   *continuation* (below), the learner's split as the ``strong`` bot splits, and the
   hand is settled by the table engine's settlement (:func:`engine.settle.net_ranked`
   of every seat's split, without playing the splits through the table).  Every
   alternative and continuation of a world uses the same random numbers, aligned by
   decision: the k-th action of a seat in a round takes the same uniform number in
   every line of that world (:func:`_play_out`), so the paired differences are as
   little noisy as they can be; continuations that take the same actions are one line,
   played once.
4. **The learner's best continuation.**  The learner's future is their own best play,
   not a bot's: each alternative is priced with the best of :data:`CONTINUATIONS` for
   the learner's later betting decisions — ``strong`` (the strong bot's policy),
   ``qiao`` (敲 at the next decision, whenever 敲 is legal, else 瞧 / 休) and ``call``
   (瞧 / 休 to the end, never 甩 nor 返) — the one with the highest mean on the
   *selection* worlds.  So 瞧 now and 敲 next (slow-playing 天对) is priced as that line.
5. **Selection, then evaluation.**  On ``worlds`` *selection* worlds every
   alternative is priced with every continuation; each keeps its best continuation,
   and the *rival* is the best of the alternatives other than the learner's choice.
   Every alternative (with its continuation) is then priced on ``worlds`` *other*,
   independent worlds (the evaluation): self-normalised importance sampling, the
   weighted mean and its standard error ``sqrt(Σ (t₂ᵢ − t₂ᵢ₊₁)²) / Σ w`` over the
   slices' pairs of terms ``t = w (x − mean)`` (:func:`weighted_mean`; where every
   slice's two worlds agree but the slices do not, the independent worlds' error
   ``sqrt(Σ t²) / Σ w``; for a difference that came out the same in every world, the
   rule of three's bound instead of 0: :meth:`_Sample.paired`).
   The loss is the rival's mean minus the choice's, paired on the evaluation worlds
   (negative when the choice did better): unbiased, never the distance to a maximum
   picked on the same noisy worlds.  If the evaluation shows another alternative
   better than the rival by more than :data:`Z` paired standard errors, the rival may
   not be the best, and the grade is 难分.  (Before, that alternative became the rival
   and was priced on fresh worlds; but the evaluation was then kept only when it did
   not find one, that is when the rival had come out well on it, and the loss came out
   too high: +0.23 ± 0.12 chips against +0.13 ± 0.12 now in
   ``scripts/grade_stability.py``'s bias check.)  Folding is exact: minus what the learner has
   committed (no play-out).
6. **Grade.**  The loss's 95 % interval (± :data:`Z_LOOKS` standard errors), in units
   of the opening 发招 (``rules.stakes.opening``), is compared with the bands below 0.5
   好, below 2 不精确, below 6 失误, from 6 大错.  While it crosses a boundary the
   evaluation of the rival and the choice doubles its worlds, up to :data:`MAX_WORLDS`,
   as long as the standard error shrinking as one over the root of the worlds could
   still clear the boundary; if it still crosses one, the grade is 难分 (too close to
   call) and the figures say why.  The interval is looked at up to three times (at
   ``WORLDS``, twice and four times as many), and each look is a chance to clear a
   boundary by luck: at ± 1.96 standard errors a loss that sits on a boundary would
   clear it on one given side 5.6 % of the time instead of 2.5 %.  ± :data:`Z_LOOKS`
   keeps that at 2.5 % over the three looks together, so that a definite grade is
   95 % sure for the whole procedure (``tests/test_review_looks.py`` checks the
   constant by simulating the looks).
7. **瞧 against 甩.**  Facing a bet, the evaluation worlds of 瞧 also give the share of
   worlds in which 瞧 ends the hand better than folding now, the mean gain there and
   the mean loss elsewhere, and the share it needs to break even (loss / (gain + loss)):
   瞧's share exceeds the share it needs exactly when 瞧's mean beats 甩's on those
   worlds.  Standard errors by the delta method.

**Exact prices.**  In round 3 with one other player still in, every card in play is
dealt and the only ones the learner cannot see are that player's two hidden cards (and
those of bots that folded, which change nothing but the weights): then nothing is
sampled (:meth:`_Worlds.exact`, :func:`_exactly`).  Every pair of kinds that player may
hold is a world, weighted by its likelihood (step 2) times the ways to hold it times
the folded bots' likelihood summed over the pairs the other cards leave them (at most
two folded bots that acted: :func:`_summed`), and in each world
every option with every continuation is followed down every action the policies may
take, each ending weighted by its probability (:func:`_endings`).  The means, the
continuations, the rival, the loss, the showdown share and 瞧's figures are then exact:
no standard error, a definite grade, the same under every seed.

**Showdown wins.**  Each decision also carries how often the learner's hand wins at the
showdown: the Bayes-weighted share of the worlds (step 2) in which the learner comes out
ahead (net chips of the hand > 0) if the hand went to the showdown at once, nobody
betting or folding any more: every seat still in stakes the current level (what a 瞧
puts in; a short 钵钵 all of it), the cards still to come are those of the world, each
seat splits as its policy would (the learner by the ``strong`` bot's split, 三花 where
that declares it) and the real settlement (:func:`engine.settle.net_ranked`: order by 尾,
caps, the best 尾 eats the 皮 and the 芒果 pot, equal hands share) decides.  A stand-off that
gives back every stake is not a win.  Its standard error is the same self-normalised one.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, NamedTuple

from .bots import (
    Policy,
    View,
    _sorted,
    distribution,
    modelled,
    split_key,
    strength,
    view,
)
from .cards import DECK, Kind
from .chance import draw_at
from .game import BETTING, Act, Action, Game, Phase, card_by_label, replay
from .rules import Rules
from .settle import Seat, net_ranked

__all__ = [
    "CLOSE",
    "CONTINUATIONS",
    "GRADES",
    "MAX_WORLDS",
    "WORLDS",
    "Z_LOOKS",
    "CallFigures",
    "Decision",
    "Priced",
    "ReviewError",
    "Z",
    "alternatives",
    "band",
    "decision_json",
    "decisions",
    "grade",
    "interval",
    "play_values",
    "price_decision",
    "price_pair",
    "retry",
    "review",
    "weighted_mean",
    "wins_showdown",
]

WORLDS = 100  # selection worlds, and as many other evaluation worlds; scripts/bench_review.py
MAX_WORLDS = 4 * WORLDS  # the evaluation grows (doubling) up to this many worlds
Z = 1.96  # a 95 % interval: the estimate ± Z standard errors
Z_LOOKS = 2.32  # the loss's 95 % interval over the grade's three looks (module doc step 6)
CONTINUATIONS = ("strong", "qiao", "call")  # the learner's later decisions (module doc)
GRADES = ((0.5, "好"), (2.0, "不精确"), (6.0, "失误"), (math.inf, "大错"))
CLOSE = "难分"  # too close to call: the loss's 95 % interval crosses a grade's boundary
AHEAD = (2, 1)  # how many later bots the first and the second bot's draws look ahead to


class ReviewError(ValueError):
    """A hand that cannot be reviewed (bad export, no decision of that seat)."""


@dataclass(frozen=True)
class Priced:
    action: Action
    ev: float
    stderr: float  # 0 when exact
    worlds: int  # the evaluation worlds it was priced on
    then: str  # the learner's continuation after it (CONTINUATIONS; "" for 甩)


@dataclass(frozen=True)
class CallFigures:
    """瞧 against 甩 now (module doc, step 7): the share of worlds in which 瞧 ends the
    hand better than folding now, the share it needs to break even, and the mean gain
    and loss against folding in those worlds and the others."""

    share: float
    share_stderr: float
    needs: float
    needs_stderr: float
    gain: float
    loss: float


@dataclass(frozen=True)
class Decision:
    round: int
    chosen: int  # index into options
    options: tuple[Priced, ...]
    best: int  # the rival if it beat the choice on the evaluation worlds, else the choice
    rival: int  # the best of the other alternatives on the selection worlds
    loss: float  # the rival's chips minus the choice's (negative: the choice did better)
    loss_stderr: float
    grade: str
    worlds: int
    effective: float  # effective number of worlds after the Bayes weights
    win: float  # how often the hand wins at the showdown (module doc)
    win_stderr: float
    call: CallFigures | None  # when facing a bet
    exact: bool = False  # every world counted (_Worlds.exact): no figure is estimated

    @property
    def interval(self) -> tuple[float, float]:
        """The loss's 95 % interval (:func:`interval`)."""
        return interval(self.loss, self.loss_stderr)


def interval(loss: float, loss_stderr: float) -> tuple[float, float]:
    """A loss's 95 % interval over the grade's looks: ± :data:`Z_LOOKS` standard errors
    (module doc step 6) — the grade, the figures beside it and the session report's
    count of a loss all read this one."""
    return loss - Z_LOOKS * loss_stderr, loss + Z_LOOKS * loss_stderr


def alternatives(game: Game, seat: int, chosen: Action | None = None) -> list[Action]:
    """The learner's options now (normalised; the chosen action included).  甩 is none
    while 休 is free (unless it was chosen): 休 and then 甩 at the next bet loses no more,
    and every check all round gives the stakes back."""
    legal = game.legal_actions(seat)
    out = [Action(Act.CALL if Act.CALL in legal else Act.CHECK, seat)]
    if Act.CHECK not in legal:
        out.insert(0, Action(Act.FOLD, seat))
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
    hidden pair.  The bots' pairs are drawn from the cards still unseen one bot after
    the other, with the next bots' likelihood looked ahead to (:meth:`draw`), the rest
    of the unseen cards are shuffled into every other unseen place, and the world keeps
    the importance weight of this proposal against the posterior (the same posterior as
    weighing uniformly dealt worlds; with at most three bots that acted, every world
    weighs the same)."""

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
        self.pool_labels = [c.label for c in self.pool]
        evidence: dict[int, Evidence] = {}
        g = first.copy()
        for a in past:
            if (a.seat is not None and a.seat != seat and g.seats[a.seat].bot
                    and a.kind in BETTING):
                up = tuple(card_by_label(c).kind for c in g.visible_cards(a.seat, seat))
                evidence.setdefault(a.seat, []).append(
                    (view(g, a.seat), modelled(g, a.seat), up, a))
            g.apply(a)
        self.copies = copies = Counter(c.kind for c in self.pool)
        kinds = sorted(copies, key=lambda k: k.index)
        pairs = [(a, b) for i, a in enumerate(kinds) for b in kinds[i:]
                 if a is not b or copies[a] > 1]
        rules = game.rules
        self.labels: dict[Kind, list[str]] = {k: [c.label for c in self.pool if c.kind is k]
                                              for k in kinds}
        self.likely: list[_Likely] = []
        # the bots still in first: the first one's pair is drawn stratified (draw's u),
        # its pairs in the order of its hand's strength with the cards it shows now
        for b in sorted(evidence, key=lambda b: (hand.folded[b], hand.order.index(b))):
            chances = [[_chance(v._replace(own=_sorted((ka, kb, *up))), level, rules, a)
                        for ka, kb in pairs] for v, level, up, a in evidence[b]]
            # an action the model gives no pair a chance of (an expert bot's, read as the
            # strong bot's: modelled) tells nothing of the cards; and actions no pair
            # explains together leave the bot's pairs as dealt
            kept = [row for row in chances if any(row)]
            products = [math.prod(row[i] for row in kept) for i in range(len(pairs))]
            of = dict(zip(pairs, products if any(products) else [1.0] * len(pairs),
                          strict=True))
            if not self.likely:
                shown = tuple(card_by_label(c).kind for c in visible[b])
                of = dict(sorted(of.items(), key=lambda item: strength(
                    _sorted((*item[0], *shown)), rules)))
            self.likely.append(_Likely(b, of, copies))
        self.tables: dict[tuple[int, tuple[Kind, ...]], _Table] = {}
        # a table's total below this share of its bots' likelihood is no world at all
        self.scale = [math.prod(like.total for like in [self.likely[j], *self._after(j)])
                      for j in range(len(self.likely))]

    def exact(self) -> list[tuple[Game, float]] | None:
        """Every world and its Bayes weight, when every card still in play is dealt and
        the only ones ``seat`` cannot see are the two hidden cards of the one other player
        still in (round 3, that player a bot that acted) and those of at most two bots
        that folded: a world per pair of kinds that player may hold (how the hand ends
        depends on those kinds only), weighted by its likelihood times the ways to hold
        it times the folded bots' likelihood summed over the pairs the rest of the cards
        leave them (:meth:`_Likely.left`); else None."""
        hand = self.base.hand
        assert hand is not None
        if not self.likely:
            return None
        like, folded = self.likely[0], self.likely[1:]
        if ([s for s in hand.order if not hand.folded[s] and s != self.seat] != [like.seat]
                or len(folded) > 2 or any(
                    not hand.folded[s] and (s, i) not in ((like.seat, 0), (like.seat, 1))
                    for s, i in self.unseen)):
            return None
        worlds = []
        table = self._table(0, ())
        for (ka, kb), weight in zip(table.pairs, table.weights, strict=True):
            if weight <= 0:
                continue
            a, b = self.labels[ka], self.labels[kb]
            pair = a[:2] if ka is kb else [a[0], b[0]]
            g = self.base.copy()
            cards = g.hand.cards  # type: ignore[union-attr]
            rest = iter(label for label in self.pool_labels if label not in pair)
            for s, i in self.unseen:  # the folded bots' cards change nothing: any will do
                cards[s][i] = (pair[i] if s == like.seat else next(rest))
            worlds.append((g, weight))
        return worlds or None

    def _after(self, j: int) -> list[_Likely]:
        """The bots bot ``j``'s table looks ahead to: the next two for the first bot, the
        next one for the second, none for the others (a table for every world's cards
        would cost more than their weights' spread)."""
        return self.likely[j + 1:j + 1 + (AHEAD[j] if j < len(AHEAD) else 0)]

    def _table(self, j: int, taken: tuple[Kind, ...]) -> _Table:
        """Bot ``j``'s pairs of kinds once cards of the kinds ``taken`` are out (kept:
        worlds meet the same cards out again)."""
        key = (j, taken)
        if key not in self.tables:
            like = self.likely[j]
            after = self._after(j)
            out = Counter(taken)
            ways = [_ways(ka, kb, self.copies, out) for ka, kb in like.pairs]
            summed = (after[0].lefts(taken, like.pairs) if len(after) == 1 else
                      [_summed(after, (*taken, ka, kb), self.copies) if w else 0.0
                       for (ka, kb), w in zip(like.pairs, ways, strict=True)])
            ahead = [max(0.0, a) if w else 0.0 for a, w in zip(summed, ways, strict=True)]
            weights = [like.of[pair] * w * a
                       for pair, w, a in zip(like.pairs, ways, ahead, strict=True)]
            self.tables[key] = _Table(like.pairs, weights, list(accumulate(weights)), ahead)
        return self.tables[key]

    def draw(self, rng: random.Random, u: float) -> tuple[Game, float]:
        """A world (a copy of the table with every unseen card dealt) and its weight
        (0: no world explains the bots' actions); ``u`` in [0, 1) picks the first bot's
        pair (its place in the pairs' cumulative weight, weakest hands first).

        Each bot's pair is drawn in proportion to its weight in :meth:`_table` given the
        cards the bots before it hold; the world's weight is the product, over the bots,
        of the table's total over the weight the bot before it gave those cards (the
        importance weight against the posterior).  With at most three bots that acted
        the tables look ahead to every later bot, so worlds come from the posterior
        itself and all weigh the same.  A bot whose table looks ahead to nobody (the
        last, and every bot from the third on) has its pair drawn from its table before
        any card was out, again until none of its cards is taken (the same distribution,
        without a table for every world; its total is :meth:`_Likely.left`)."""
        g = self.base.copy()
        cards = g.hand.cards  # type: ignore[union-attr]
        weight = 1.0
        ahead = 1.0  # what the bot before gave the cards taken: its lookahead's sum
        taken: tuple[Kind, ...] = ()
        drawn: dict[tuple[int, int], str] = {}
        for j, like in enumerate(self.likely):
            alone = not self._after(j)
            table = self._table(j, () if alone else taken)
            total = like.left(taken) if alone else table.cumulative[-1]
            if total <= 1e-12 * self.scale[j]:
                return g, 0.0
            weight *= total / ahead
            used = set(drawn.values())
            while True:  # alone: again while a card is taken; else once
                i = min(bisect(table.cumulative, (u if j == 0 else rng.random())
                               * table.cumulative[-1]), len(table.pairs) - 1)
                ka, kb = table.pairs[i]
                free_a, free_b = ([c for c in self.labels[k] if alone or c not in used]
                                  for k in (ka, kb))
                pair = (rng.sample(free_a, 2) if ka is kb else
                        [rng.choice(free_a), rng.choice(free_b)])
                if not set(pair) & used:
                    break
            ahead = table.ahead[i]
            drawn[like.seat, 0], drawn[like.seat, 1] = pair
            taken = _sorted((*taken, ka, kb))
        used = set(drawn.values())
        rest = [label for label in self.pool_labels if label not in used]
        rng.shuffle(rest)
        it = iter(rest)
        for s, i in self.unseen:
            cards[s][i] = drawn[s, i] if (s, i) in drawn else next(it)
        return g, weight


class _Table(NamedTuple):
    """One bot's pairs of kinds once some cards are out (:meth:`_Worlds._table`): each
    pair's weight (its likelihood × the ways to hold it × ``ahead``), their cumulative
    sum, and ``ahead``: the likelihood of the bots after it summed over the pairs they
    may then hold (the next two bots for the first bot, the next one for the others:
    :func:`_summed`)."""

    pairs: list[tuple[Kind, Kind]]
    weights: list[float]
    cumulative: list[float]
    ahead: list[float]


class _Likely:
    """One bot's likelihood of each pair of kinds as its hidden cards (``of``), with
    what :meth:`left` needs: the likelihood summed over the unseen physical pairs
    (``total``), and per kind the likelihood summed over the pairs one card of that
    kind makes with the others."""

    def __init__(self, seat: int, of: dict[tuple[Kind, Kind], float],
                 copies: Counter[Kind]) -> None:
        self.seat = seat
        self.of = of | {(kb, ka): p for (ka, kb), p in of.items()}
        self.pairs = list(of)
        self.total = sum(p * _ways(ka, kb, copies, Counter()) for (ka, kb), p in of.items())
        self.row = {ka: sum(self.of.get((ka, kb), 0.0) * (n - (ka is kb))
                            for kb, n in copies.items()) for ka in copies}

    def left(self, taken: Sequence[Kind]) -> float:
        """The likelihood summed over the physical pairs left once cards of the kinds
        ``taken`` are out of the unseen cards (inclusion and exclusion: a pair holds two
        cards, so the pairs of two taken cards were subtracted twice)."""
        return self.total - sum(self.row[k] for k in taken) + sum(
            self.of[ka, kb] for i, ka in enumerate(taken) for kb in taken[i + 1:])

    def lefts(self, taken: Sequence[Kind], pairs: Sequence[tuple[Kind, Kind]]
              ) -> list[float]:
        """:meth:`left` of ``(*taken, ka, kb)`` for each pair of kinds of ``pairs``,
        expanded: what is left once ``taken`` is out, less the pairs a card of ka or of
        kb makes, plus those counted twice (ka with kb, each with the taken cards)."""
        left = self.left(taken)
        of, row = self.of, self.row
        cross = {k: sum(of.get((x, k), 0.0) for x in taken) for k in row}
        return [left - row[ka] - row[kb] + of[ka, kb] + cross[ka] + cross[kb]
                for ka, kb in pairs]


def _ways(ka: Kind, kb: Kind, copies: Counter[Kind], out: Counter[Kind]) -> int:
    """The ways to hold one card of kind ``ka`` and one of ``kb`` among the unseen cards
    (``copies`` of each kind) once ``out`` (cards by kind) are out."""
    na, nb = copies[ka] - out[ka], copies[kb] - out[kb]
    return na * (na - 1) // 2 if ka is kb else na * nb


def _summed(bots: Sequence[_Likely], taken: Sequence[Kind], copies: Counter[Kind]) -> float:
    """The likelihood of ``bots`` (at most two) summed over the pairs they may hold
    once cards of the kinds ``taken`` are out: the exact weight those pairs give
    ``taken``."""
    if not bots:
        return 1.0
    if len(bots) == 1:
        return bots[0].left(taken)
    first, second = bots
    out = Counter(taken)
    return sum(first.of[ka, kb] * ways * left
               for (ka, kb), left in zip(first.pairs, second.lefts(taken, first.pairs),
                                         strict=True)
               if (ways := _ways(ka, kb, copies, out)) > 0)  # else not there to hold


@lru_cache(maxsize=1 << 16)
def _distribution(v: View, level: str, rules: Rules) -> Policy:
    """:func:`engine.bots.distribution`, kept: play-outs meet the same views again."""
    return distribution(v, level, rules)


def _betting(g: Game, seat: int, level: str) -> Policy:
    """The policy of ``level`` for ``seat`` to bet now (the expert as modelled)."""
    return _distribution(view(g, seat), level, g.rules)


def _continuation(g: Game, seat: int, then: str) -> Policy:
    """The learner's later betting decision by continuation ``then`` (module doc)."""
    if then == "strong":
        return _betting(g, seat, "strong")
    legal = g.legal_actions(seat)
    if then == "qiao" and Act.QIAO in legal and legal.qiao is not None:
        return ((Action(Act.QIAO, seat, legal.qiao), 1.0),)
    return ((Action(Act.CALL if Act.CALL in legal else Act.CHECK, seat), 1.0),)


_MASK = (1 << 64) - 1


def _uniform(dice: int, key: int) -> float:
    """The uniform number in [0, 1) of slot ``key`` of a world's ``dice`` (splitmix64):
    independent for different slots, the same whenever the slot comes again."""
    z = (dice + (key + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 11) / (1 << 53)


def _play_out(g: Game, seat: int, dice: int, thens: Sequence[str],
              count: dict[int, int] | None = None) -> list[int]:
    """Play the hand to its end once per continuation in ``thens`` (the others by
    :func:`engine.bots.modelled`: the bots by their policies, a human or the expert by
    the strong one; ``seat``'s later betting decisions by the continuation, its split by
    the strong bot's); ``seat``'s net after each.  The k-th action of a seat in a round
    is drawn with the uniform number of that slot of the world's ``dice``, so the
    alternatives of a world meet the same random numbers where their lines meet the
    same decisions (common random numbers that stay aligned).  Continuations whose
    lines take the same actions are the same line: it is played once, and forks where
    ``seat``'s continuations draw different actions (``count``: the actions so far per
    slot; ``g`` plays the last line)."""
    count = {} if count is None else count
    if not _play(g, seat, dice, count):
        return [_net(g, seat)] * len(thens)
    slot = seat * 8 + g.state.hand.round  # type: ignore[union-attr]
    k = count.get(slot, 0)
    count[slot] = k + 1
    u = _uniform(dice, slot * 64 + k)
    lines: dict[Action, list[int]] = {}
    for i, then in enumerate(thens):
        lines.setdefault(draw_at(_continuation(g, seat, then), u), []).append(i)
    out = [0] * len(thens)
    last = len(lines) - 1
    for n, (action, members) in enumerate(lines.items()):
        line, slots = (g, count) if n == last else (g.copy(), dict(count))
        line._apply(action)
        nets = _play_out(line, seat, dice, [thens[i] for i in members], slots)
        for i, net in zip(members, nets, strict=True):
            out[i] = net
    return out


def _play(g: Game, seat: int, dice: int, count: dict[int, int]) -> bool:
    """Play the others' bets on (:func:`_play_out`; ``count``: the actions so far per
    slot) until ``seat`` is to bet (True) or the betting ends (False: the hand's end
    or its showdown, priced by :func:`_net`)."""
    state = g.state
    while state.phase is Phase.BETTING:
        hand = state.hand
        assert hand is not None
        actor = hand.to_act
        assert actor is not None
        if actor == seat:
            return True
        slot = actor * 8 + hand.round
        k = count.get(slot, 0)
        count[slot] = k + 1
        # the policies' actions are legal and normalised (taken from the legal sets):
        # applied without verify, which would cost a tenth of the review
        g._apply(draw_at(_betting(g, actor, modelled(g, actor)), _uniform(dice, slot * 64 + k)))
    return False


def _endings(g: Game, seat: int, thens: Sequence[str], ps: Sequence[float],
             out: Sequence[list[tuple[float, int]]]) -> None:
    """Every way the hand ``g`` may end, with ``seat``'s later bets by each continuation
    of ``thens``: appends (probability times that continuation's ``ps``, ``seat``'s net)
    to ``out``'s list of that continuation — :func:`_play` without dice, every action
    its policy may take followed.  Continuations that take the same action share its
    line (each with its own probability of taking it)."""
    state = g.state
    while state.phase is Phase.BETTING:
        hand = state.hand
        assert hand is not None
        actor = hand.to_act
        assert actor is not None
        lines: dict[Action, list[tuple[int, float]]] = {}  # action: (continuation, p)
        if actor == seat:
            for i, then in enumerate(thens):
                for a, q in _continuation(g, seat, then):
                    if q > 0:
                        lines.setdefault(a, []).append((i, q))
        else:
            lines = {a: [(i, q) for i in range(len(thens))]
                     for a, q in _betting(g, actor, modelled(g, actor)) if q > 0}
        if len(lines) > 1:
            for a, members in lines.items():
                branch = g.copy()
                branch._apply(a)
                _endings(branch, seat, [thens[i] for i, _ in members],
                         [ps[i] * q for i, q in members], [out[i] for i, _ in members])
            return
        (only,) = lines  # every continuation takes it, with probability 1
        g._apply(only)
    net = _net(g, seat)
    for p, ends in zip(ps, out, strict=True):
        ends.append((p, net))


def _net(g: Game, seat: int) -> int:
    """``seat``'s net in the hand ``g`` just played to its end, or to its showdown
    (:func:`_showdown_net`)."""
    if g.state.phase is Phase.SHOWDOWN:
        return _showdown_net(g, seat)
    result = g.history[-1].result
    assert result is not None
    return result.nets[seat]


def wins_showdown(g: Game, seat: int) -> bool:
    """Whether ``seat`` comes out ahead if the hand went to the showdown now (module doc,
    "Showdown wins"); ``g`` holds every seat's four cards (a world)."""
    return _showdown_net(g, seat) > 0


def _showdown_net(g: Game, seat: int) -> int:
    """``seat``'s net if the hand went to the showdown now: every seat still in matches
    the level (or goes all in) and splits as its modelled level does
    (:func:`engine.bots.split_key`), the table's pot to whoever takes the 皮 — what the
    table engine settles that showdown to, without playing the splits through it (a
    play-out's showdown is priced so).  Where every hand still in declares 三花 nobody
    compares: every stake stays where it is (a stand-off)."""
    h = g.hand
    assert h is not None
    seats = []
    keys = {}
    for s in h.order:
        name = str(s)
        if h.folded[s]:
            seats.append(Seat(name, h.committed[s], folded=True))
            continue
        seats.append(Seat(name, max(h.committed[s], min(h.level, g.seats[s].bobo))))
        key = split_key(g.kinds(s), modelled(g, s), g.rules)
        if key is not None:  # else 三花 declared: its stake comes back
            keys[name] = key
    if not keys:
        return -h.committed[seat] if h.folded[seat] else 0
    return net_ranked(seats, keys, str(seat), g.state.pot)


class _Sample:
    """Worlds drawn by one random stream and the learner's net in each after options
    (each option with its continuation), priced on the first ``len(values[j])`` worlds;
    folding is exact (no play-out)."""

    def __init__(self, sampler: _Worlds, options: Sequence[Action], committed: int,
                 rng: random.Random, wins: bool = False) -> None:
        self.sampler, self.options, self.committed, self.rng = sampler, options, committed, rng
        self.weights: list[float] = []
        self.values: dict[tuple[int, str], list[float]] = {}
        self.wins: list[float] | None = [] if wins else None
        self.drawn = 0

    def grow(self, n: int, priced: Sequence[tuple[int, Sequence[str]]]) -> None:
        """Draw ``n`` more worlds (rounded up to even) and price options ``priced``
        (index, continuations) in each, with the same random numbers for every option
        and continuation.  The worlds are drawn two to a stratum: the ``n / 2`` equal
        slices of the first bot's pairs, weakest first (:meth:`_Worlds.draw`), so that
        worlds ``2i`` and ``2i + 1`` share one (:func:`_spread`).  A world no pair
        explains keeps its place with weight 0."""
        seat, rng = self.sampler.seat, self.rng
        strata = (n + 1) // 2
        for k in range(2 * strata):
            self.drawn += 1
            g, w = self.sampler.draw(rng, (k // 2 + rng.random()) / strata)
            self.weights.append(w)
            if self.wins is not None:
                self.wins.append(float(w > 0 and wins_showdown(g, seat)))
            dice = rng.getrandbits(64)
            for j, thens in priced:
                option = self.options[j]
                if w == 0:
                    nets = [0] * len(thens)
                elif option.kind is Act.FOLD:
                    nets = [-self.committed] * len(thens)
                else:
                    trial = g.copy()
                    trial.apply(option)
                    nets = _play_out(trial, seat, dice, thens)
                for then, net in zip(thens, nets, strict=True):
                    self.values.setdefault((j, then), []).append(net)

    def mean(self, key: tuple[int, str]) -> tuple[float, float, int]:
        """Option ``key``'s weighted mean, its standard error, and its number of worlds."""
        xs = self.values[key]
        return (*weighted_mean(self.weights[:len(xs)], xs), len(xs))

    def paired(self, a: tuple[int, str], b: tuple[int, str]) -> tuple[float, float, bool]:
        """The mean of option ``a`` minus option ``b`` over the worlds both were priced
        on, its standard error from the per-world differences, and whether every world
        gave the same difference.  Then the sample's error is 0, though a world it
        missed may differ: by the rule of three such worlds weigh less than ``3 / n`` (``n`` the
        effective number of worlds) with 95 % confidence, and there the difference
        may be off by as much as the largest net seen, so the error is that much
        (``3 * largest / n``) over :data:`Z`: an error shrinking as ``1 / n``, not as
        one over its root."""
        xa, xb = self.values[a], self.values[b]
        n = min(len(xa), len(xb))
        weights = self.weights[:n]
        mean, se = weighted_mean(weights, [x - y for x, y in zip(xa, xb, strict=False)])
        alike = se <= 1e-9 * (1 + abs(mean)) and a != b  # 0 but for the sum's rounding
        if alike:
            largest = max(abs(x) for x in (*xa[:n], *xb[:n]))
            se = 3 * largest / _effective(weights) / Z
        return mean, se, alike


def _effective(weights: Sequence[float]) -> float:
    """The effective number of worlds of importance weights: ``(Σw)² / Σw²``."""
    return sum(weights) ** 2 / sum(w * w for w in weights)


def weighted_mean(weights: Sequence[float], xs: Sequence[float]) -> tuple[float, float]:
    """The self-normalised weighted mean of worlds drawn by :meth:`_Sample.grow` and its
    standard error (:func:`_spread` of each world's term ``w (x − mean)``, over ``Σ w``)."""
    total = sum(weights)
    m = sum(w * x for w, x in zip(weights, xs, strict=True)) / total
    return m, _spread([w * (x - m) for w, x in zip(weights, xs, strict=True)]) / total


def _spread(terms: Sequence[float]) -> float:
    """The root of the variance of ``sum(terms)`` for worlds drawn two to a stratum:
    ``sqrt(Σ (t₂ᵢ − t₂ᵢ₊₁)²)``, each stratum's two worlds independent, so a
    difference between strata (the first bot's hand) adds nothing (stratified sampling
    with two draws a stratum).  When the two worlds of every stratum agree but the
    strata do not (the bot's hand decided everything), two worlds a stratum cannot show
    the spread left within one: then the error of independent worlds, ``sqrt(Σ t²)``,
    an upper bound — never 0, which the pages would call exact."""
    assert len(terms) % 2 == 0, "worlds come in pairs"
    spread = math.sqrt(sum((a - b) ** 2 for a, b in zip(terms[::2], terms[1::2],
                                                         strict=True)))
    independent = math.sqrt(sum(t * t for t in terms))
    return independent if spread <= 1e-9 * independent else spread


def play_values(game: Game, seat: int, options: Sequence[Action], worlds: int,
                rng: random.Random, start: tuple[Game, list[Action]] | None = None,
                ) -> tuple[list[float], list[list[float]]]:
    """Steps 1–3 of the module doc for ``seat`` (to act now), its later decisions by the
    ``strong`` policy: the Bayes weight of each world that explains the bots' actions,
    and ``seat``'s net in that world after each option (folding: minus what it
    committed, exact).  The expert bot prices its decisions so (:mod:`engine.expert`)."""
    hand = game.hand
    assert hand is not None
    sample = _Sample(_Worlds(game, seat, *(start or _hand_start(game))), options,
                     hand.committed[seat], rng)
    sample.grow(worlds, [(j, ("strong",)) for j in range(len(options))])
    return sample.weights, [sample.values.get((j, "strong"), []) for j in range(len(options))]


def band(loss: float, loss_stderr: float, opening: int) -> str | None:
    """The grade whose band holds the loss's whole 95 % interval (:func:`interval`; bands
    in units of the opening 发招: below 0.5 好, below 2 不精确, below 6 失误, from 6 大错),
    or None when the interval crosses a boundary.  The
    interval's ends are rounded to 1e-9 openings first: a loss of exactly 6 openings
    summed over weighted worlds may come out 5.999999999…, and must still be 大错."""
    low, high = (round(end / max(1, opening), 9) for end in interval(loss, loss_stderr))
    floor = -math.inf
    for limit, word in GRADES:
        if floor <= low and high < limit:
            return word
        floor = limit
    return None


def grade(loss: float, loss_stderr: float, opening: int) -> str:
    """:func:`band`, or 难分 (too close to call) when the interval crosses a boundary."""
    return band(loss, loss_stderr, opening) or CLOSE


def price_decision(game: Game, chosen: Action | None = None, worlds: int = WORLDS,
                   seed: int = 0, start: tuple[Game, list[Action]] | None = None
                   ) -> Decision:
    """Price every alternative of the decision ``game.to_act`` faces now (``start``: the
    table right after this hand's deal and the actions since, if the caller has them):
    the module doc's steps 1–5."""
    seat = game.to_act
    hand = game.hand
    if seat is None or hand is None or game.phase is not Phase.BETTING:
        raise ReviewError("nobody is to bet now")
    options = alternatives(game, seat, chosen)
    pick = next(i for i, a in enumerate(options) if (
        a.kind in (Act.CALL, Act.CHECK) if chosen is None else _same(game.verify(chosen), a)))
    sampler = _Worlds(game, seat, *(start or _hand_start(game)))
    every = sampler.exact()
    if every is not None:
        return _exactly(game, seat, options, pick, every)
    committed = hand.committed[seat]
    opening = game.rules.stakes.opening
    # selection: every option with every continuation
    select = _Sample(sampler, options, committed, random.Random(f"select:{seed}"))
    select.grow(max(1, worlds), [(j, CONTINUATIONS) for j in range(len(options))])
    if not any(select.weights):
        raise ReviewError("no world explains the bots' actions")
    then = [max(CONTINUATIONS, key=lambda c: select.mean((j, c))[0]) for j in
            range(len(options))]
    keys = [(j, then[j]) for j in range(len(options))]
    # the rival: the best of the other alternatives on the selection worlds
    rival = max((j for j in range(len(options)) if j != pick),
                key=lambda j: select.mean(keys[j])[0], default=pick)
    # evaluation: fresh worlds, each option with its chosen continuation
    sample = _Sample(sampler, options, committed, random.Random(f"evaluate:{seed}"), wins=True)
    sample.grow(worlds, [(j, (then[j],)) for j in range(len(options))])
    # another option clearly better than the rival on these worlds: no grade (module doc)
    settled = not _beaten(sample, keys, rival, pick)
    loss, loss_se, alike = sample.paired(keys[rival], keys[pick])
    while band(loss, loss_se, opening) is None and _hopeful(loss, loss_se, sample.drawn,
                                                            opening, alike):
        sample.grow(min(sample.drawn, MAX_WORLDS - sample.drawn),
                    [(rival, (then[rival],)), (pick, (then[pick],))])
        loss, loss_se, alike = sample.paired(keys[rival], keys[pick])
    priced = tuple(Priced(a, -float(committed), 0.0, sample.mean(keys[j])[2], "")
                   if a.kind is Act.FOLD else Priced(a, *sample.mean(keys[j]), then[j])
                   for j, a in enumerate(options))
    weights = sample.weights
    assert sample.wins is not None
    win, win_se = weighted_mean(weights, sample.wins)
    effective = _effective(weights)
    call = next((j for j, a in enumerate(options) if a.kind is Act.CALL), None)
    verdict = grade(loss, loss_se, opening) if settled else CLOSE
    return Decision(hand.round, pick, priced, rival if loss > 0 else pick, rival, loss,
                    loss_se, verdict, len(weights), effective, win, win_se,
                    None if call is None else _call_figures(
                        sample.weights[:len(sample.values[keys[call]])],
                        sample.values[keys[call]], committed))


def _exactly(game: Game, seat: int, options: Sequence[Action], pick: int,
             worlds: Sequence[tuple[Game, float]]) -> Decision:
    """:func:`price_decision` when every world can be counted (:meth:`_Worlds.exact`):
    every option with every continuation over every world and every way the hand may
    end from there (:func:`_endings`); each option's continuation and the rival are the
    highest means, and the figures are exact (no standard error)."""
    hand = game.hand
    assert hand is not None
    committed = hand.committed[seat]
    ends: dict[tuple[int, str], list[tuple[float, int]]] = {
        (j, then): [] for j in range(len(options)) for then in CONTINUATIONS}
    for g, weight in worlds:
        for j, option in enumerate(options):
            lines = [ends[j, c] for c in CONTINUATIONS]
            if option.kind is Act.FOLD:
                for line in lines:
                    line.append((weight, -committed))
                continue
            trial = g.copy()
            trial.apply(option)
            _endings(trial, seat, CONTINUATIONS, [weight] * len(lines), lines)
    total = sum(weight for _, weight in worlds)
    mean = {key: sum(q * x for q, x in e) / total for key, e in ends.items()}
    then = [max(CONTINUATIONS, key=lambda c: mean[j, c]) for j in range(len(options))]
    rival = max((j for j in range(len(options)) if j != pick), key=lambda j: mean[j, then[j]],
                default=pick)
    loss = mean[rival, then[rival]] - mean[pick, then[pick]]
    priced = tuple(Priced(a, mean[j, then[j]], 0.0, len(worlds),
                          "" if a.kind is Act.FOLD else then[j]) for j, a in enumerate(options))
    win = sum(w for g, w in worlds if wins_showdown(g, seat)) / total
    call = next((j for j, a in enumerate(options) if a.kind is Act.CALL), None)
    figures = None
    if call is not None:
        weights, nets = zip(*ends[call, then[call]], strict=True)
        figures = _call_figures(weights, nets, committed, exact=True)
    return Decision(hand.round, pick, priced, rival if loss > 0 else pick, rival, loss, 0.0,
                    grade(loss, 0.0, game.rules.stakes.opening), len(worlds),
                    _effective([w for _, w in worlds]), win, 0.0, figures, exact=True)


def price_pair(game: Game, a: Action, b: Action, thens: tuple[str, str], worlds: int,
               seed: int, start: tuple[Game, list[Action]] | None = None
               ) -> tuple[float, float]:
    """Option ``a`` minus option ``b`` for the seat to act (their continuations
    ``thens``) over ``worlds`` worlds of a stream of their own, and its standard error:
    an independent check of a decision's loss (tests, ``scripts/grade_stability.py``)."""
    seat = game.to_act
    hand = game.hand
    assert seat is not None and hand is not None
    sample = _Sample(_Worlds(game, seat, *(start or _hand_start(game))), [a, b],
                     hand.committed[seat], random.Random(f"check:{seed}"))
    sample.grow(worlds, [(0, (thens[0],)), (1, (thens[1],))])
    return sample.paired((0, thens[0]), (1, thens[1]))[:2]


def _hopeful(loss: float, loss_stderr: float, drawn: int, opening: int, alike: bool
             ) -> bool:
    """Whether :data:`MAX_WORLDS` worlds could clear the nearest boundary (the standard
    error shrinking as one over the root of the worlds, or as one over the worlds when
    every world gave the same difference: :meth:`_Sample.paired`): else more worlds
    are wasted."""
    if drawn >= MAX_WORLDS:
        return False
    edge = min(abs(loss - limit * opening) for limit, _ in GRADES[:-1])
    shrink = drawn / MAX_WORLDS
    return edge > Z_LOOKS * loss_stderr * (shrink if alike else math.sqrt(shrink))


def _beaten(sample: _Sample, keys: Sequence[tuple[int, str]], rival: int, pick: int) -> bool:
    """Whether an option other than ``pick`` beats option ``rival``'s mean by more than
    ``Z`` standard errors of the paired difference on ``sample``'s worlds."""
    for j in range(len(keys)):
        if j not in (rival, pick):
            diff, se, _ = sample.paired(keys[j], keys[rival])
            if diff > Z * se:
                return True
    return False


def _needs(means: Sequence[float]) -> float:
    """The share of worlds 瞧 must end better than 甩 in to break even, from the means of
    the columns of :func:`_call_figures` (better or not, the gain, the loss)."""
    share, up, down = means
    below = up * (1 - share) + down * share
    return (0.0 if down <= 0 else 1.0) if below <= 0 else min(1.0, down * share / below)


def _call_figures(weights: Sequence[float], xs: Sequence[float], committed: int,
                  exact: bool = False) -> CallFigures:
    """瞧 against 甩 on the worlds 瞧 was priced on (module doc, step 7): ``xs`` 瞧's net
    in each, ``weights`` theirs; ``exact``: every world counted (no standard errors)."""
    gains = [x + committed for x in xs]  # 瞧's net minus 甩's, per world
    columns = [[float(d > 0) for d in gains], [max(d, 0.0) for d in gains],
               [max(-d, 0.0) for d in gains]]
    if exact:
        means = [sum(w * x for w, x in zip(weights, c, strict=True)) / sum(weights)
                 for c in columns]
        share, share_se, need, need_se = means[0], 0.0, _needs(means), 0.0
    else:
        share, share_se = weighted_mean(weights, columns[0])
        need, need_se = _linearised(weights, columns, _needs)
    won = sum(w for w, d in zip(weights, gains, strict=True) if d > 0)
    lost = sum(weights) - won
    up = sum(w * d for w, d in zip(weights, gains, strict=True) if d > 0) / won if won else 0.0
    down = (-sum(w * d for w, d in zip(weights, gains, strict=True) if d <= 0) / lost
            if lost else 0.0)
    return CallFigures(share, share_se, need, need_se, up, down)


def _linearised(weights: Sequence[float], columns: Sequence[Sequence[float]],
                f: Callable[[Sequence[float]], float]) -> tuple[float, float]:
    """``f`` of the columns' weighted means, and its standard error by the delta method
    (a numerical gradient, each world's influence weighted as in :func:`weighted_mean`)."""
    total = sum(weights)
    means = [sum(w * x for w, x in zip(weights, xs, strict=True)) / total for xs in columns]
    value = f(means)
    grad = []
    for k, m in enumerate(means):
        h = 1e-6 * max(1.0, abs(m))
        grad.append((f([*means[:k], m + h, *means[k + 1:]]) - value) / h)
    influence = [sum(g * (xs[i] - m) for g, xs, m in zip(grad, columns, means, strict=True))
                 for i in range(len(weights))]
    return value, _spread([w * x for w, x in zip(weights, influence, strict=True)]) / total


def decisions(config: Any, log: Sequence[Any], seat: int
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
           for k, (game, action, start) in enumerate(decisions(config, log, seat))]
    if not out:
        raise ReviewError(f"seat {seat} made no betting decision in the last hand")
    return out


def retry(config: Any, log: Sequence[Any], seat: int, index: int, action: Action,
          worlds: int = WORLDS, seed: int = 0) -> Decision:
    """Decision ``index`` of :func:`review` priced again with ``action`` (any legal one,
    e.g. a 返 of another amount) as the choice: the same worlds' seed, every alternative
    and ``action`` priced and graded as :func:`review` does.  An action that is not legal
    there raises :class:`~engine.game.ActionError`."""
    for k, (game, _, start) in enumerate(decisions(config, log, seat)):
        if k == index:
            return price_decision(game, action, worlds, seed + k, start)
    raise ReviewError(f"seat {seat} made no decision {index} in the last hand")


def decision_json(d: Decision) -> dict[str, Any]:
    return {
        "round": d.round,
        "chosen": d.chosen,
        "best": d.best,
        "rival": d.rival,
        "options": [{**p.action.to_dict(), "ev": p.ev, "stderr": p.stderr,
                     "worlds": p.worlds, "then": p.then} for p in d.options],
        "loss": d.loss, "loss_stderr": d.loss_stderr, "low": d.interval[0],
        "high": d.interval[1], "grade": d.grade,
        "worlds": d.worlds, "effective_worlds": round(d.effective, 1), "exact": d.exact,
        "win": d.win, "win_stderr": d.win_stderr,
        "call": None if d.call is None else {
            "share": d.call.share, "share_stderr": d.call.share_stderr,
            "needs": d.call.needs, "needs_stderr": d.call.needs_stderr,
            "gain": d.call.gain, "loss": d.call.loss},
    }

