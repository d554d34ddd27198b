"""Computer players for the practice table and the simulator.

Every bot's betting is an explicit **policy**: :func:`distribution` gives a probability
distribution over the legal actions, computed only from what that seat can see (its
own cards, everybody's face-up cards, the bets so far, the 皮 and the pot), and
:func:`engine.players.bot_action` samples one action from it with the caller's seeded
RNG (:mod:`engine.players` picks the policy of every level, the expert's and the
probes' included).  The
distribution is a pure function of the seat's information, so the same situation
with other hidden cards can be priced (how likely were the bets seen so far?).

* ``simple`` looks only at the strength of its own cards and the price of a call: it
  bets (发招) all but about its weakest third of hands, calls when its cards beat a
  bar that rises with the call's share of the pot and with each player still to
  answer the bet, raises clearly better ones, and folds the rest,
  with a little noise (never a stray 敲 or 甩, nor a stray call of a 敲); facing a 敲
  it calls when its edge over the hands that player 敲s with beats the pot odds by a
  margin for each player still to answer and each one who called; it splits with
  :func:`engine.hands.naive_split`.
* ``strong`` estimates its edge against each opponent still in from their face-up
  cards (every raise an opponent made counts against it; against a 敲, its edge over
  the hands that player 敲s with), prices each action in
  chips — folding loses what it committed, calling plays the showdown at the new
  level for the 皮 and the pot, a bet or raise wins the others' stakes when they fold
  and plays a showdown against stronger hands when they call — and picks actions
  with probabilities growing with their price (a soft-max, so close calls mix and it
  bluffs now and then).  It splits with the advisor's best split.

Hand strength: ``s = P(win) − P(lose)`` of a four-card hand (naive split) against one
random four-card hand; partial hands average over their completions.

What a player 敲s with: every seat counts the hands it was dealt and those in which it
敲ed, and keeps the cards of its latest 敲 hands a showdown showed
(:class:`engine.game.SeatState`, public: everybody at the table sees it), and the
bots take a 敲 to come from the best :func:`qiao_share` of hands of as many cards
(:func:`edge_vs_top`): a player who 敲s every hand, or is caught 敲ing small ones, is
called light; one who 敲s once in twenty and shows the best hands is respected.  So no
one line of 敲 (always, or with the best N %) beats them for long
(``scripts/probes.py``).
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

from .advisor import advise, all_hands
from .cards import DECK, KINDS, Kind
from .game import Act, Action, Game, Legal, SeatState, card_by_label
from .hands import Key, Split, naive_split, sanhua, splits
from .rules import Rules, shared

__all__ = ["SHOVE_PRIOR", "Opponent", "Policy", "View", "choose_split", "distribution",
           "edge_vs_top", "modelled", "qiao_share", "share_above", "split_key", "strength",
           "view"]

Policy = tuple[tuple[Action, float], ...]  # actions with probabilities summing to 1

# strong bot: how much one raise by an opponent lowers our edge against them; the
# share of an opponent's hands that fold to a bet that doubles their stake, heads-up
# and when more players were dealt in (0.3 heads-up let the expert take the pots it
# left; 0.5 at four seats let a `top-25` 敲 break even: README, Exploitability); how much
# the hands that do call are stronger; the share of a showdown a 休 is worth in rounds
# 2–3; the soft-max temperature in units of the level
RAISE_SHADE = 0.12
RAISE_CAP = 2  # raises beyond this many say nothing more
SIZE_SHADE = 0.02  # per doubling of an opponent's stake over the largest other one,
# per player dealt in beyond two
FOLD_SHARE = 0.5
FOLD_SHARE_MORE = 0.3
OPEN_SHADE = 0.1
CALLED_SHADE = 0.25
CHECK_SHARE = 0.6
TEMPERATURE = 0.05
# simple bot (tuned against the probes, scripts/probes.py --bot simple): the strength it
# bets with when nobody has bet; the strength a call needs, plus this much times the
# call's share of the pot it would make; the margin over that for a raise; the
# probability of an action other than its main one; the strength a call needs more for
# each player still to answer the bet; facing a 敲, the edge it needs over the pot odds
# for each player still to answer it and for each player who has called it
SIMPLE_BET = -0.1
SIMPLE_CALL = -0.3
SIMPLE_PRICE = 0.4
SIMPLE_RAISE = 0.3
SIMPLE_NOISE = 0.05
SIMPLE_AHEAD = 0.2
SIMPLE_BEHIND = 0.05
SIMPLE_CALLED = 0.3
# the share of their hands a player is taken to 敲 with before any hand, worth this
# many hands (:func:`qiao_share`)
SHOVE_PRIOR = 0.25
SHOVE_WEIGHT = 4
SHOWN_WEIGHT = 4  # that estimate counts as this many 敲 hands shown at a showdown


@cache
def _key(kinds: tuple[Kind, ...], rules: Rules) -> Key:
    """(头 rank, 尾 rank) of the naive split of four sorted kinds."""
    s = naive_split(kinds, rules)
    return s.key(rules)


@cache
def _grid(rules: Rules) -> tuple[list[list[float]], list[list[float]], dict[Key, float], float]:
    """Counts of every (头, 尾) key over all C(32, 4) hands, with 2-D prefix sums:
    ``le[h][t]`` = hands with 头 ≤ h and 尾 ≤ t; ``ge`` likewise ≥."""
    counts: dict[Key, float] = {}
    for combo in combinations(range(len(DECK)), 4):
        kinds = _sorted(DECK[i].kind for i in combo)
        k = _key(kinds, rules)
        counts[k] = counts.get(k, 0.0) + 1.0
    return _prefix_sums(counts)


def _prefix_sums(counts: dict[Key, float]
                 ) -> tuple[list[list[float]], list[list[float]], dict[Key, float], float]:
    """:func:`_grid`'s tables for any weights of (头, 尾) keys."""
    size = max(max(h for h, _ in counts), max(t for _, t in counts)) + 2
    le = [[0.0] * size for _ in range(size)]
    ge = [[0.0] * size for _ in range(size)]
    for (h, t), c in counts.items():
        le[h][t] += c
        ge[h][t] += c
    for h in range(size):
        for t in range(size):
            le[h][t] += (le[h - 1][t] if h else 0) + (le[h][t - 1] if t else 0) - (
                le[h - 1][t - 1] if h and t else 0)
    for h in range(size - 1, -1, -1):
        for t in range(size - 1, -1, -1):
            ge[h][t] += (ge[h + 1][t] if h + 1 < size else 0) + (
                ge[h][t + 1] if t + 1 < size else 0) - (
                ge[h + 1][t + 1] if h + 1 < size and t + 1 < size else 0)
    return le, ge, counts, float(sum(counts.values()))


@cache
def _full_strength(kinds: tuple[Kind, ...], rules: Rules) -> float:
    le, ge, counts, total = _grid(rules)
    h, t = _key(kinds, rules)
    same = counts.get((h, t), 0.0)
    return ((le[h][t] - same) - (ge[h][t] - same)) / total


@cache
def strength(known: tuple[Kind, ...], rules: Rules) -> float:
    """Strength of a hand of which ``known`` (sorted kinds, 0–4) are known: the mean
    over the completions from the rest of the deck."""
    if len(known) == 4:
        return _full_strength(known, rules)
    if not known:
        return 0.0
    rest = _without(known)
    total = 0.0
    n = 0
    for combo in combinations(rest, 4 - len(known)):
        total += _full_strength(_sorted(known + combo), rules)
        n += 1
    return total / n if n else 0.0


@cache
def _strengths(cards: int, rules: Rules) -> tuple[float, ...]:
    """The strengths of every hand of ``cards`` physical cards, sorted."""
    return tuple(sorted(strength(_sorted(DECK[i].kind for i in combo), rules)
                        for combo in combinations(range(len(DECK)), cards)))


def share_above(known: tuple[Kind, ...], rules: Rules) -> float:
    """The share of all hands of ``len(known)`` cards at least as strong as ``known``
    (1 − its percentile)."""
    table = _strengths(len(known), rules)
    return (len(table) - bisect.bisect_left(table, strength(known, rules) - 1e-12)) / len(table)


def _without(seen: Iterable[Kind]) -> list[Kind]:
    """The kinds of the physical cards left in the deck once ``seen`` are out."""
    pool = [c.kind for c in DECK]
    for k in seen:
        pool.remove(k)
    return pool


@cache
def _hidden_keys(shown: tuple[Kind, ...], rules: Rules) -> tuple[tuple[Kind, Kind, Key], ...]:
    """Every pair of kinds an opponent showing ``shown`` may hide, with the (头, 尾) key
    of its hand."""
    hands = ((a, b, (*shown, a, b)) for a, b in combinations_with_replacement(KINDS, 2))
    return tuple((a, b, _key(_sorted(four), rules)) for a, b, four in hands
                 if all(four.count(k) <= k.copies for k in four))


class _Shown:
    """What :func:`_edge_vs_shown` needs of an opponent showing ``shown``: the cards left
    per kind (by index) once ``shown`` is out; per kind, the hidden pairs
    (:func:`_hidden_keys`) holding it; and the physical pairs left by (头, 尾) key."""

    def __init__(self, shown: tuple[Kind, ...], rules: Rules) -> None:
        left = [k.copies for k in KINDS]
        for k in shown:
            left[k.index] -= 1
        self.left = tuple(left)
        # per kind: (the other kind's index, -1 for a pair of it; 头; 尾; pairs left)
        holding: dict[Kind, list[tuple[int, int, int, int]]] = {k: [] for k in KINDS}
        self.at: dict[Key, int] = {}
        for a, b, (h, t) in _hidden_keys(shown, rules):
            w = _pairs(left, a.index, b.index)
            self.at[h, t] = self.at.get((h, t), 0) + w
            if a is b:
                holding[a].append((-1, h, t, w))
            else:
                holding[a].append((b.index, h, t, w))
                holding[b].append((a.index, h, t, w))
        self.holding = {k: tuple(v) for k, v in holding.items()}
        self.total = sum(self.at.values())
        self._sums: dict[Key, tuple[int, int]] = {}

    def sums(self, mine: Key) -> tuple[int, int]:
        """Pairs left (every card not shown) that a hand of key ``mine`` beats, and
        those that beat it (kept per key)."""
        out = self._sums.get(mine)
        if out is None:
            won = lost = 0
            for (h, t), w in self.at.items():
                dh, dt = mine[0] - h, mine[1] - t
                if dh >= 0 and dt >= 0 and dh + dt > 0:
                    won += w
                elif dh <= 0 and dt <= 0 and dh + dt < 0:
                    lost += w
            out = self._sums[mine] = (won, lost)
        return out


@cache
def _shown(shown: tuple[Kind, ...], rules: Rules) -> _Shown:
    return _Shown(shown, rules)


def _pairs(left: Sequence[int], ia: int, ib: int) -> int:
    """How many physical pairs of the kinds with indices ``ia``, ``ib`` (``left``: cards
    left per kind)."""
    return left[ia] * (left[ia] - 1) // 2 if ia == ib else left[ia] * left[ib]


@cache
def _edge_vs_shown(own: tuple[Kind, ...], shown: tuple[Kind, ...], rules: Rules) -> float:
    """Exact P(win) − P(lose) of four known cards against an opponent showing two
    cards face up, over the opponent's two hidden cards (physical cards weighted):
    the sums over every card not shown (:class:`_Shown`), corrected on the pairs
    that hold a kind of our own cards."""
    table = _shown(shown, rules)
    mine = _key(own, rules)
    won, lost = table.sums(mine)
    n = table.total
    left = list(table.left)
    for k in own:
        left[k.index] -= 1
    mh, mt = mine
    done: set[int] = set()
    for k in own:
        i = k.index
        if i in done:
            continue
        done.add(i)
        c = left[i]
        for j, h, t, before in table.holding[k]:
            if j in done:
                continue  # counted with that kind
            w = (c * (c - 1) // 2 if j < 0 else c * left[j]) - before
            if w:
                dh, dt = mh - h, mt - t
                if dh >= 0 and dt >= 0 and dh + dt > 0:
                    won += w
                elif dh <= 0 and dt <= 0 and dh + dt < 0:
                    lost += w
                n += w
    return (won - lost) / n


def edge(own: tuple[Kind, ...], shown: tuple[Kind, ...], rules: Rules) -> float:
    """Our edge against one opponent at the showdown, from what we see: exact once we
    hold four cards and they show two, else our strength minus what their face-up
    cards suggest."""
    if len(own) == 4 and len(shown) == 2:
        return _edge_vs_shown(own, shown, rules)
    return max(-1.0, min(1.0, strength(own, rules) - strength(shown, rules)))


@cache
def _completed(known: tuple[Kind, ...], rules: Rules) -> dict[Key, float]:
    """The (头, 尾) keys of the four-card hands ``known`` (2–4 sorted kinds) completes
    to, each with its share of the completions from the rest of the deck."""
    counts: dict[Key, float] = {}
    combos = list(combinations(_without(known), 4 - len(known)))
    for more in combos:
        k = _key(_sorted(known + more), rules)
        counts[k] = counts.get(k, 0.0) + 1.0 / len(combos)
    return counts


@cache
def _hands_of(cards: int, rules: Rules) -> tuple[tuple[float, dict[Key, float], int], ...]:
    """Every hand of ``cards`` cards by kinds: its :func:`share_above`, the keys it
    completes to (:func:`_completed`) and how many physical hands it stands for."""
    physical = Counter(_sorted(DECK[i].kind for i in combo)
                       for combo in combinations(range(len(DECK)), cards))
    return tuple((share_above(known, rules), _completed(known, rules), n)
                 for known, n in physical.items())


@cache
def _top_range(share: float, cards: int, rules: Rules
               ) -> tuple[list[list[float]], list[list[float]], dict[Key, float], float]:
    """:func:`_grid`'s tables for the four-card hands the best ``share`` of hands of
    ``cards`` cards (:func:`share_above`, every physical hand alike) complete to."""
    counts: dict[Key, float] = {}
    for above, completed, n in _hands_of(cards, rules):
        if above <= share + 1e-9:
            for k, w in completed.items():
                counts[k] = counts.get(k, 0.0) + n * w
    return _prefix_sums(counts)


@cache
def edge_vs_top(own: tuple[Kind, ...], share: float, rules: Rules) -> float:
    """P(win) − P(lose) at the showdown of the known cards ``own`` (sorted, 2–4)
    against a player holding one of the best ``share`` of hands of as many cards, both
    completed at random (their face-up cards and card removal left out)."""
    le, ge, counts, total = _top_range(share, len(own), rules)
    won = lost = 0.0
    for (h, t), w in _completed(own, rules).items():
        same = counts.get((h, t), 0.0)
        won += w * (le[h][t] - same)
        lost += w * (ge[h][t] - same)
    return (won - lost) / total


# ---------------------------------------------------------------------- the view
class Opponent(NamedTuple):
    """An opponent still in, as another seat sees them (a named tuple: views are built
    and hashed at every bet of a play-out)."""

    shown: tuple[Kind, ...]  # face-up cards, sorted
    raises: int  # 返 / 拖 / 敲 this hand
    committed: int
    bobo: int  # the most they can have in this hand
    qiao_share: float  # the share of their hands they 敲 with (:func:`qiao_share`)


class View(NamedTuple):
    """Everything a seat knows when it must bet: the policy's only input (a named tuple:
    one is built at every bet of a play-out, and compared when the policies' cache holds
    its like)."""

    seat: int
    round: int
    own: tuple[Kind, ...]  # own cards dealt so far, sorted
    opponents: tuple[Opponent, ...]
    committed: int
    bobo: int
    level: int
    pi: int  # the folded seats' 皮 plus the 芒果 pot
    legal: Legal
    floor: int  # the raise floor
    dealt: int = 2  # players dealt in this hand

    def __hash__(self) -> int:
        # the legal actions follow from the other fields (but for whether a bet now
        # opens): left out, their hash is one more Python call per view
        return hash((self.seat, self.round, self.own, self.opponents, self.committed,
                     self.bobo, self.level, self.pi, self.floor, self.dealt))


_ORDER = {k: k.index for k in KINDS}.__getitem__


def _sorted(kinds: Iterable[Kind]) -> tuple[Kind, ...]:
    """Kinds in single-card order (fast: no ``Kind.__lt__`` calls)."""
    return tuple(sorted(kinds, key=_ORDER))


@lru_cache(maxsize=1 << 16)
def _sorted_labels(labels: tuple[str, ...]) -> tuple[Kind, ...]:
    """The kinds of these cards, sorted (kept: a view is built at every bet)."""
    return _sorted(card_by_label(c).kind for c in labels)


_BETS = ("raise", "tuo", "qiao")


def qiao_share(seat: SeatState, rules: Rules) -> float:
    """The share of their hands a player 敲s with, as the others estimate it from the
    hands they saw (:data:`SHOVE_PRIOR` before any hand, worth :data:`SHOVE_WEIGHT`
    hands), corrected by the 敲 hands a showdown showed: hands spread over the best
    share ``r`` lie ``r / 2`` from the top on average, so each shown hand counts as
    twice its :func:`share_above` (at the cards it held when it 敲ed), and the
    estimate from the counts as :data:`SHOWN_WEIGHT` shown hands.  To the nearest 5 %
    (at least 5 %, at most all)."""
    return _qiao_share(seat.qiao_hands, seat.dealt_hands, seat.qiao_shown, rules)


@lru_cache(maxsize=1 << 12)
def _qiao_share(qiao_hands: int, dealt_hands: int, qiao_shown: tuple[tuple[str, ...], ...],
                rules: Rules) -> float:
    """:func:`qiao_share` of a seat's record (kept: every view of a play-out asks it
    for every opponent, and a record changes only at a 敲 or a hand's end)."""
    share = (qiao_hands + SHOVE_PRIOR * SHOVE_WEIGHT) / (dealt_hands + SHOVE_WEIGHT)
    if qiao_shown:
        shown = sum(2 * share_above(_sorted_labels(cards), rules) for cards in qiao_shown)
        share = (share * SHOWN_WEIGHT + shown) / (SHOWN_WEIGHT + len(qiao_shown))
    return min(1.0, max(0.05, round(20 * share) / 20))


def view(game: Game, seat: int) -> View:
    """What ``seat`` sees now (it must be the seat to act in a betting round)."""
    hand = game.hand
    assert hand is not None
    raises = dict.fromkeys(hand.order, 0)  # 返 / 拖 / 敲 this hand, per seat
    for a in hand.actions:
        if a["kind"] in _BETS:
            raises[a["seat"]] += 1
    own = _sorted_labels(tuple(game.visible_cards(seat, seat)))
    opps = tuple(
        Opponent(_sorted_labels(tuple(game.visible_cards(o, seat))), raises[o],
                 hand.committed[o], game.seats[o].bobo,
                 qiao_share(game.seats[o], game.rules))
        for o in game.in_hand() if o != seat)
    pi = sum(hand.committed[s] for s in hand.order if hand.folded[s]) + game.state.pot
    return View(seat, hand.round, own, opps, hand.committed[seat], game.seats[seat].bobo,
                hand.level, pi, game.legal_actions(seat), game.rules.stakes.raise_floor,
                len(hand.order))


# ---------------------------------------------------------------------- policies
def _options(v: View) -> tuple[Action, ...]:
    return _legal_options(v.legal, v.seat, v.bobo)


@lru_cache(maxsize=1 << 14)
def _legal_options(legal: Legal, seat: int, bobo: int) -> tuple[Action, ...]:
    """The actions a bot weighs (kept: play-outs meet the same legal actions again):
    甩 and 瞧, or 休; then the bet sizes — the minimum, and 敲 when the 钵钵 is short
    (at most two minimum raises deep): deep stacks grow the level one doubling at a
    time."""
    first = ([Action(Act.FOLD, seat), Action(Act.CALL, seat)] if Act.CALL in legal
             else [Action(Act.CHECK, seat)])
    levels: list[int] = []
    if legal.min_raise is not None:
        levels.append(legal.min_raise)
    if Act.QIAO in legal and bobo not in levels and (
            legal.min_raise is None or bobo <= 2 * legal.min_raise):
        levels.append(bobo)
    return (*first, *(_raise_action(legal, seat, bobo, level) for level in levels))


def _raise_action(legal: Legal, seat: int, bobo: int, level: int) -> Action:
    if level >= bobo and Act.QIAO in legal:
        return Action(Act.QIAO, seat, bobo)
    if level == legal.tuo:
        return Action(Act.TUO, seat, level)
    return Action(Act.RAISE, seat, level)


def _declarable(v: View, rules: Rules) -> bool:
    """Whether the seat holds 三花 (four cards): declared at the showdown, its stake
    comes back, so it never loses more than by folding."""
    return len(v.own) == 4 and sanhua(v.own, rules) is not None


def _simple(v: View, rules: Rules) -> Policy:
    s = strength(v.own, rules)
    options = _options(v)
    if _declarable(v, rules) and options[0].kind is Act.FOLD:
        options = options[1:]  # 三花: never fold (the call is free at worst)
    raises = [a for a in options if a.kind in (Act.RAISE, Act.TUO, Act.QIAO)]
    shares = [o.qiao_share for o in v.opponents if _shoved(o)]
    if Act.CALL in v.legal:
        cost = v.legal.call_cost
        middle = v.committed + sum(o.committed for o in v.opponents) + v.pi
        behind = sum(1 for o in v.opponents if not _matched(o, v.level))
        if shares:
            # a 敲: its edge over what that player 敲s with, against the pot odds and a
            # margin for each player still to answer it and each one who called it
            s = edge_vs_top(v.own, min(shares), rules)
            called = sum(1 for o in v.opponents if _matched(o, v.level) and not _shoved(o))
            need = ((cost - middle) / (cost + middle) + SIMPLE_BEHIND * behind
                    + SIMPLE_CALLED * called)
        else:
            # the dearer the call against what is in the middle, the stronger the hand,
            # and the more players still to answer the bet
            need = SIMPLE_CALL + SIMPLE_PRICE * cost / (cost + middle) + SIMPLE_AHEAD * behind
        if s > need + SIMPLE_RAISE and raises and v.level < 3 * v.floor:
            main = raises[0]
        else:
            main = options[1] if s > need and options[0].kind is Act.FOLD else options[0]
    elif s > SIMPLE_BET and raises:
        main = raises[0]  # 发招 with all but about its weakest third of hands
    else:
        main = options[0]
    # a little noise, only among the calm options: never a stray 敲 or 甩, nor a stray
    # call of a 敲
    calm = [a for a in options if a is main or a.kind not in (Act.QIAO, Act.FOLD)]
    if len(calm) == 1 or shares:
        return ((main, 1.0),)
    rest = SIMPLE_NOISE / (len(calm) - 1)
    return tuple((a, 1.0 - SIMPLE_NOISE if a is main else rest) for a in calm)


def _ev(v: View, action: Action, edges: Sequence[float]) -> float:
    """A rough price in chips (the hand's net from now on) of ``action``."""
    opps = v.opponents
    if action.kind is Act.FOLD:
        return -float(v.committed)

    def showdown(level: int, shades: Sequence[float], folds: Sequence[float]) -> float:
        ev = 0.0
        p_best = 1.0
        for o, d, shade, f in zip(opps, edges, shades, folds, strict=True):
            x = max(-1.0, d - shade)
            ev += f * o.committed + (1 - f) * min(level, o.bobo) * x
            p_best *= f + (1 - f) * (1 + x) / 2
        return ev + p_best * v.pi

    fold_share = FOLD_SHARE if v.dealt == 2 else FOLD_SHARE_MORE

    def answer(level: int) -> list[float]:
        """How often each opponent folds to ``level``: never once matched or all-in."""
        return [0.0 if _matched(o, level)
                else fold_share * min(1.0, (level - o.committed) / max(1, level))
                for o in opps]

    none = [0.0] * len(opps)
    if action.kind is Act.CALL:
        # the others still to answer the bet fold or call it with stronger hands
        folds = answer(v.legal.call_to)
        return showdown(v.legal.call_to, [CALLED_SHADE if f else 0.0 for f in folds], folds)
    if action.kind is Act.CHECK:
        value = showdown(max(v.level, v.committed), none, none)
        return value if v.round == 1 else CHECK_SHARE * value
    level = action.amount or v.bobo
    opening = v.legal.opening  # round 1 raises the forced 发招: a raise like any other
    shade = (OPEN_SHADE if opening else CALLED_SHADE) * (
        1 + math.log2(max(1.0, level / max(1, v.legal.min_raise or level))))
    return showdown(level, [shade] * len(opps), answer(level))


def _shade(v: View, o: Opponent) -> float:
    """How much what ``o`` has bet lowers our edge against them: each raise (at most
    :data:`RAISE_CAP` count), and, when more than two were dealt in, each doubling of
    their stake over the largest stake of the others (a 敲 into a small pot says more
    than a minimum 返, the more so the more players it must push out)."""
    others = max([v.floor, v.committed] + [p.committed for p in v.opponents if p is not o])
    return (RAISE_SHADE * min(o.raises, RAISE_CAP) + SIZE_SHADE * (v.dealt - 2)
            * math.log2(max(1.0, o.committed / others)))


def _matched(o: Opponent, level: int) -> bool:
    """Whether ``o`` has put in ``level`` already (or everything they have)."""
    return o.committed >= min(level, o.bobo)


def _shoved(o: Opponent) -> bool:
    """Whether ``o`` 敲ed (all in after a bet of their own)."""
    return o.raises > 0 and o.committed >= o.bobo


def _edge_against(v: View, o: Opponent, rules: Rules) -> float:
    """Our edge against ``o``: against the best of the hands ``o`` 敲s with
    (:func:`edge_vs_top`) when ``o`` 敲ed, else :func:`edge` lowered by what ``o`` bet
    (:func:`_shade`)."""
    if _shoved(o):
        return edge_vs_top(v.own, o.qiao_share, rules)
    return edge(v.own, o.shown, rules) - _shade(v, o)


def _strong(v: View, rules: Rules) -> Policy:
    edges = [_edge_against(v, o, rules) for o in v.opponents]
    options = _options(v)
    evs = [_ev(v, a, edges) for a in options]
    # 三花 may be declared at the showdown: nothing loses more than that
    if _declarable(v, rules):
        kept = [(a, max(e, 0.0)) for a, e in zip(options, evs, strict=True)
                if a.kind is not Act.FOLD]
        options, evs = tuple(a for a, _ in kept), [e for _, e in kept]
    tau = TEMPERATURE * max(v.level, v.floor)
    top = max(evs)
    weights = [math.exp((e - top) / tau) for e in evs]
    total = sum(weights)
    return tuple((a, w / total) for a, w in zip(options, weights, strict=True))


def distribution(v: View, level: str, rules: Rules) -> Policy:
    """The betting policy of a bot of ``level`` in the situation ``v``."""
    return _strong(v, rules) if level == "strong" else _simple(v, rules)


def modelled(game: Game, seat: int) -> str:
    """The level a play-out assumes for ``seat``: its bot level, but ``strong`` for a
    human (the learner) and for the ``expert`` (whose own policy plays out the hand)."""
    level = game.seats[seat].bot
    return "strong" if level in (None, "expert") else level


# ---------------------------------------------------------------------- showdown
def choose_split(game: Game, seat: int, level: str) -> Action:
    """The showdown action of a ``simple`` or ``strong`` bot: 三花 when it pays, else
    the chosen split (every level: :func:`engine.players.split`)."""
    hand = game.hand
    assert hand is not None
    labels = hand.cards[seat]
    index = _split_index(game.kinds(seat), level == "strong", game.rules)
    if index is None:
        return Action(Act.SANHUA, seat)
    pairs = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))[index]
    return Action(Act.SPLIT, seat, None, tuple(labels[i] for i in pairs))


@cache
def _split_index(kinds: tuple[Kind, ...], strong: bool, rules: Rules) -> int | None:
    """How a bot splits four kinds (in the order dealt): the index of its split in
    :func:`engine.hands.splits` (the advisor's best for ``strong``, else the naive
    split), or None to declare 三花 (when that pays)."""
    if strong:
        best, s = _advised(_sorted(kinds), rules)
        best_index = splits(kinds, rules).index(best)
    else:
        s = _full_strength(_sorted(kinds), rules)
        best_index = splits(kinds, rules).index(naive_split(kinds, rules))
    if sanhua(kinds, rules) and s < 0:
        return None
    return best_index


@cache
def split_key(kinds: tuple[Kind, ...], level: str, rules: Rules) -> Key | None:
    """The (头 rank, 尾 rank) of the split a bot of ``level`` makes of four kinds (in
    the order dealt), or None when it declares 三花: all a settlement needs of its hand
    (:func:`choose_split`'s choice; kept: play-outs settle the same hands again and
    again)."""
    index = _split_index(kinds, level == "strong", rules)
    return None if index is None else splits(kinds, rules)[index].key(rules)


@cache
def _advised(kinds: tuple[Kind, ...], rules: Rules) -> tuple[Split, float]:
    """The advisor's best split of four sorted kinds and its EV (kept: play-outs ask it
    again and again)."""
    advice = advise(kinds, rules)
    best = advice.splits[advice.best]
    return best.split, best.ev


def warm(rules: Rules) -> None:
    """Build the tables the bots read (about a second): the strength tables, every
    opponent's two face-up cards' hidden pairs (:func:`_shown`) and every four-card
    hand's advised split (:func:`_advised`) — before timing anything, and when a task
    worker starts (else its first reviews fill them)."""
    rules = shared(rules)  # the instance the games use
    _grid(rules)
    for a in KINDS:
        for b in KINDS:
            if a.index <= b.index and (a is not b or a.copies == 2):
                strength((a, b), rules)
                _shown((a, b), rules)
    for cards in (2, 3, 4):
        _strengths(cards, rules)
        for twentieths in range(1, 21):  # every share qiao_share gives
            _top_range(twentieths / 20, cards, rules)
    for four in all_hands():  # canonical: sorted as _advised's callers pass them
        _advised(four, rules)
