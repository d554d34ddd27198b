"""A whole session at one 扯旋 table as a state machine (RULES.md §4–6).

PokerKit-style: every action is a frozen :class:`Action`; :meth:`Game.verify` raises a
typed :class:`ActionError` with a readable message, :meth:`Game.apply` verifies and
applies.  :meth:`Game.legal_actions` tells a user interface which buttons to show.
The session is a log of actions: :func:`replay` rebuilds the same state from the
configuration and the log, and :meth:`Game.to_json` / :meth:`Game.from_json`
serialise the state for a database.

Seats are numbered 0…n-1 in counterclockwise order (the order of play).  Amounts are
*levels*: a player's commitment for the whole hand (返 to 20 means "my stake is now
20"), as the 旋经 counts them.

Decisions where RULES.md is silent (documented in the README, "Practice table"):

* Everyone's 皮 is at risk from the deal: a player's commitment starts at the 皮, the
  挡家's at the 发招; a call (瞧) raises it to the level.
* In rounds 2 and 3 the first bet (发招) obeys the raise limits: at least
  max(2 × level, raise floor).
* 拖 is a raise to exactly double the level, so it is only offered when double the
  level reaches the raise floor.
* Any all-in that lifts the level (even below the minimum raise) re-opens the action
  for everyone who has not matched it.
* A player whose every opponent still in is all in may only call (瞧) or fold (甩):
  betting stops when at most one player can act, and a bet nobody could answer is none.
* 休过河 needs every player still in to 休; if an all-in player is still in, a round
  in which everybody else 休 simply moves on to the next card.
* A 芒果 never takes a player's last 皮: a payer with less than 芒果 + 皮 pays what
  exceeds one 皮.
* If every player at the showdown declares 三花, nobody eats the 皮: the folded 皮
  stays in the pot for the next hand (no 芒果 is charged).
* 圈芒 follows the 旋经: the player who deals the first hand of the final orbit also
  deals its last hand (起头 … 扫尾); a 揍芒 or 休芒 inside it keeps the deal.  If that
  player has left when the deal comes back round to their seat (or leaves then), the
  orbit, and the session, is over: everyone still seated has dealt once.
* Equal best hands at a showdown, who eat the 皮 together, share the 芒果 pot as they
  share the 皮 (odd chips to the first).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any, TypeVar

from .cards import DECK, Card, CardError, Kind, parse_kind
from .groups import Group
from .hands import Key, Split, sanhua
from .mango import Mango, mango_amount, mango_payers
from .rules import PRESETS, Rules, RulesError, get_stakes, shared
from .settle import Seat, pot_shares, settle_ranked

BOT_LEVELS = ("simple", "strong", "expert")  # the computer players (engine/bots.py)
# one-line players for testing the bots (engine/probes.py), and top-N (1 ≤ N ≤ 100)
PROBE_LEVELS = ("always-qiao", "always-call", "min-raise", "fold-to-bet")


def is_probe(level: str) -> bool:
    """Whether ``level`` names a probe (engine/probes.py), ``top-N`` included."""
    head, _, n = level.partition("-")
    return level in PROBE_LEVELS or (head == "top" and n.isdigit() and 1 <= int(n) <= 100)

__all__ = [
    "ERROR_PARAMS", "PROBE_LEVELS", "Act", "Action", "ActionError", "ErrorCode", "Game",
    "HandResult", "Legal", "Phase", "SeatState", "card_by_label", "hand_from_dict",
    "hand_to_dict", "is_probe", "replay",
]

T = TypeVar("T")
_BY_LABEL: dict[str, Card] = {c.label: c for c in DECK}
MAX_REBUY = 1_000_000  # chips one re-buy may add
QIAO_SHOWN = 12  # the latest 敲 hands shown at a showdown a seat's record keeps


def card_by_label(label: str) -> Card:
    """``"♥Q"`` → the card; raises :class:`CardError`."""
    try:
        return _BY_LABEL[label]
    except KeyError:
        raise CardError(f"unknown card {label!r}") from None


class ErrorCode(StrEnum):
    """Why an action was refused: a stable machine code for user interfaces (which word
    the message themselves); :data:`ERROR_PARAMS` lists each code's parameters."""

    UNKNOWN_ACTION = "unknown_action"  # an action name that does not exist
    BAD_SEAT = "bad_seat"  # the seat field is not a whole number
    BAD_AMOUNT = "bad_amount"  # the amount field is not a whole number
    BAD_CARDS = "bad_cards"  # the cards field is not a list of labels
    SESSION_OVER = "session_over"
    BETWEEN_HANDS_ONLY = "between_hands_only"  # re-buy, leave, deal, end during a hand
    NO_SEAT = "no_seat"  # a hand action without a seat
    NOT_YOUR_TURN = "not_your_turn"
    NOBODY_TO_ACT = "nobody_to_act"
    NO_SANHUA = "no_sanhua"  # declaring 三花 without one (or with the option off)
    SHOWDOWN_SPLIT_ONLY = "showdown_split_only"  # a bet at the showdown
    CANNOT_CHECK = "cannot_check"  # 休 after a bet
    NOTHING_TO_CALL = "nothing_to_call"
    RAISE_UNAFFORDABLE = "raise_unaffordable"  # the minimum raise exceeds the 钵钵
    TUO_NOT_ALLOWED = "tuo_not_allowed"
    NOBODY_TO_ANSWER = "nobody_to_answer"  # a bet when every other player still in is all in
    CANNOT_COVER = "cannot_cover"  # a bet by a player whose 钵钵 does not exceed the level
    NOT_POSSIBLE = "not_possible"  # any other act not offered now
    RAISE_NEEDS_AMOUNT = "raise_needs_amount"
    RAISE_TOO_SMALL = "raise_too_small"
    RAISE_TOO_BIG = "raise_too_big"
    SPLIT_NEEDS_FOUR = "split_needs_four"
    SPLIT_NOT_YOUR_CARDS = "split_not_your_cards"
    NO_HAND = "no_hand"  # a hand action between hands
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_LEFT = "seat_left"
    REBUY_TOO_SMALL = "rebuy_too_small"
    REBUY_TOO_BIG = "rebuy_too_big"
    TOO_FEW_PLAYERS = "too_few_players"
    BOBO_EMPTY = "bobo_empty"  # someone must re-buy or leave before the deal
    QUAN_ALREADY = "quan_already"  # 圈芒 already started
    BAD_DECK = "bad_deck"  # a stacked deck that is not the 32 cards
    NOBODY_TO_PASS = "nobody_to_pass"


#: The parameters each :class:`ErrorCode` carries in :attr:`ActionError.params`.
#: ``act`` is an :class:`Act` value, ``name`` / ``who`` player names, the rest numbers.
ERROR_PARAMS: dict[ErrorCode, frozenset[str]] = {code: frozenset() for code in ErrorCode}
ERROR_PARAMS.update({
    ErrorCode.UNKNOWN_ACTION: frozenset({"act"}),
    ErrorCode.BETWEEN_HANDS_ONLY: frozenset({"act"}),
    ErrorCode.NOT_YOUR_TURN: frozenset({"name", "who"}),
    ErrorCode.RAISE_UNAFFORDABLE: frozenset({"min"}),
    ErrorCode.TUO_NOT_ALLOWED: frozenset({"level", "floor"}),
    ErrorCode.CANNOT_COVER: frozenset({"bobo", "level"}),
    ErrorCode.NOT_POSSIBLE: frozenset({"act"}),
    ErrorCode.RAISE_TOO_SMALL: frozenset({"min", "level", "floor"}),
    ErrorCode.RAISE_TOO_BIG: frozenset({"max"}),
    ErrorCode.SEAT_LEFT: frozenset({"name"}),
    ErrorCode.REBUY_TOO_SMALL: frozenset({"min"}),
    ErrorCode.REBUY_TOO_BIG: frozenset({"max"}),
    ErrorCode.BOBO_EMPTY: frozenset({"name", "min"}),
})


class ActionError(ValueError):
    """An action that is not legal in the current state (the state is unchanged).

    ``str(error)`` is a readable English sentence (for the CLI and engine users);
    ``error.code`` (:class:`ErrorCode`) and ``error.params`` (see :data:`ERROR_PARAMS`)
    let a user interface word the message in its own language."""

    def __init__(self, code: ErrorCode, message: str, **params: Any) -> None:
        super().__init__(message)
        if set(params) != ERROR_PARAMS[code]:
            raise TypeError(f"{code}: parameters {sorted(params)}, "
                            f"expected {sorted(ERROR_PARAMS[code])}")
        self.code = code
        self.message = message
        self.params: dict[str, Any] = params

    def __reduce__(self) -> tuple[Any, ...]:
        return (_action_error, (self.code, self.message, self.params))


def _action_error(code: ErrorCode, message: str, params: dict[str, Any]) -> ActionError:
    return ActionError(code, message, **params)


class Act(StrEnum):
    """Action kinds.  The value is the JSON / form name."""

    CALL = "call"  # 瞧 / 买: match the level
    RAISE = "raise"  # 返 (发招 when nobody has bet this round): a new level
    TUO = "tuo"  # 拖: raise to exactly double
    QIAO = "qiao"  # 敲: all-in (the whole 钵钵)
    CHECK = "check"  # 休
    FOLD = "fold"  # 甩
    SPLIT = "split"  # showdown: four cards as two groups
    SANHUA = "sanhua"  # showdown: declare 三花 (no result)
    REBUY = "rebuy"  # between hands: add chips (≥ the later-钵钵 minimum)
    LEAVE = "leave"  # between hands: leave the table with one's chips
    SIT = "sit"  # between hands: take one's seat again after leaving (入座)
    DEAL = "deal"  # between hands: deal the next hand
    END = "end"  # between hands: the agreed end time has come → 圈芒 final orbit

    @property
    def label(self) -> str:
        return _ACT_LABELS[self]

    # identity hash (members are singletons), as engine.cards.Kind: Enum's own hash is a
    # Python call, and legal action sets are hashed with every bot's view
    __hash__ = object.__hash__


_ACT_LABELS = {
    Act.CALL: "瞧", Act.RAISE: "返", Act.TUO: "拖", Act.QIAO: "敲", Act.CHECK: "休",
    Act.FOLD: "甩", Act.SPLIT: "扯牌", Act.SANHUA: "报三花", Act.REBUY: "补钵钵",
    Act.LEAVE: "离座", Act.SIT: "入座", Act.DEAL: "发牌", Act.END: "打圈芒",
}
BETTING = frozenset({Act.CALL, Act.RAISE, Act.TUO, Act.QIAO, Act.CHECK, Act.FOLD})


class Phase(StrEnum):
    BETWEEN = "between"  # before a deal: re-buys, leaving, dealing
    BETTING = "betting"  # rounds 1–3
    SHOWDOWN = "showdown"  # players split their cards
    OVER = "over"  # the session has ended


@dataclass(frozen=True)
class Action:
    """One action record.  ``amount``: the new level (RAISE/TUO/QIAO, filled in when
    applied) or the chips (REBUY).  ``cards``: the split as four card labels, the first
    two forming one group (SPLIT), or a stacked deck (DEAL): 32 positions, each a card
    label or "" for a card never dealt (filled with the cards left, in the deck's order:
    an export names only the cards that were dealt, :func:`dealt_deck`)."""

    kind: Act
    seat: int | None = None
    amount: int | None = None
    cards: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.amount is not None:
            out["amount"] = self.amount
        if self.cards:
            out["cards"] = list(self.cards)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        try:
            kind = Act(data["kind"])
        except (KeyError, ValueError):
            raise ActionError(ErrorCode.UNKNOWN_ACTION, f"unknown action {data.get('kind')!r}",
                              act=str(data.get("kind", ""))) from None
        seat, amount, cards = data.get("seat"), data.get("amount"), data.get("cards", ())
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ActionError(ErrorCode.BAD_SEAT, "seat must be a whole number")
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise ActionError(ErrorCode.BAD_AMOUNT, "amount must be a whole number")
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
            raise ActionError(ErrorCode.BAD_CARDS, "cards must be a list of card labels")
        return cls(kind, seat, amount, tuple(cards))


@dataclass(frozen=True)
class Legal:
    """What the player to act (or a seat between hands) may do now."""

    seat: int | None
    acts: tuple[Act, ...]
    call_to: int = 0  # the commitment after 瞧
    call_cost: int = 0  # chips a 瞧 adds
    min_raise: int | None = None  # smallest legal 返 level
    max_raise: int | None = None  # largest legal 返 level (the whole 钵钵)
    tuo: int | None = None  # the 拖 level
    qiao: int | None = None  # the 敲 level (the whole 钵钵)
    opening: bool = False  # a bet now is a 发招 (nobody has bet this round)

    def __contains__(self, act: object) -> bool:
        return act in self.acts


@dataclass
class SeatState:
    name: str
    bot: str | None = None  # None: a human; "simple" / "strong"
    bobo: int = 0  # chips in front of the player (a hand's stake is not yet deducted)
    bought: int = 0  # chips bought in so far (net = bobo - bought)
    left: bool = False
    # public history the bots read (engine.bots): hands the seat was dealt in, those
    # in which it 敲ed (counted as it 敲s), and the cards it held at its 敲 in the
    # latest hands (at most QIAO_SHOWN) where a showdown showed them, oldest first
    dealt_hands: int = 0
    qiao_hands: int = 0
    qiao_shown: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:  # JSON gives lists; copies share these tuples
        self.qiao_shown = tuple(tuple(cards) for cards in self.qiao_shown)

    @property
    def net(self) -> int:
        return self.bobo - self.bought


@dataclass
class HandResult:
    """How a hand ended and who got what (``nets`` per seat, including the pot)."""

    how: str  # "showdown" | "fold" | "xiu" (休过河) | "sanhua" (nobody compared)
    nets: list[int]
    winner: int | None  # who eats the 皮 (and the pot), if anybody
    pot_won: int  # 芒果 / carried 皮 the winner took
    carried: int  # what stays in the pot for the next hand
    mango_next: str | None  # "揍芒" / "休芒" charged next hand
    order: list[int] = field(default_factory=list)  # showdown order, best 尾 first
    transfers: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    returned: dict[str, int] = field(default_factory=dict)
    splits: dict[str, list[str]] = field(default_factory=dict)  # seat → [h1, h2, t1, t2]
    sanhua: dict[str, str] = field(default_factory=dict)
    # who shared ``pot_won`` (equal best hands at a showdown), best first; empty: the winner
    pot_takers: list[int] = field(default_factory=list)

    def pot_share(self, seat: int) -> int:
        """What ``seat`` took of the pot (:func:`engine.settle.pot_shares`)."""
        takers = self.pot_takers or ([] if self.winner is None else [self.winner])
        if seat not in takers:
            return 0
        return pot_shares(self.pot_won, len(takers))[takers.index(seat)]


@dataclass
class Hand:
    number: int
    dealer: int
    dangjia: int
    order: list[int]  # dealt-in seats, from the 挡家 counterclockwise
    cards: list[list[str]]  # per seat: 4 card labels ([] if not dealt in)
    committed: list[int]
    folded: list[bool]
    mango_paid: list[int]
    pot_start: int
    round: int = 1
    level: int = 0
    bet_this_round: bool = False
    acted: list[bool] = field(default_factory=list)
    checked: list[bool] = field(default_factory=list)
    leader: int | None = None
    to_act: int | None = None
    splits: dict[str, list[str]] = field(default_factory=dict)
    sanhua: dict[str, str] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    result: HandResult | None = None


@dataclass
class State:
    rules: dict[str, Any]
    seats: list[SeatState]
    seed: int
    dealer: int
    hand_no: int = 0
    phase: Phase = Phase.BETWEEN
    pot: int = 0  # 芒果 and carried 皮, won by whoever eats the 皮
    pending_mango: str | None = None
    zou_winner: int | None = None
    mango_count: int = 0
    quan_start: int | None = None  # dealer who began the 圈芒 orbit
    quan_moves: int = 0
    hand: Hand | None = None
    history: list[Hand] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    trimmed: int = 0  # log entries taken out by Game.take_finished (seq counts them)


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    return {"name": rules.name, "diwang": rules.diwang, "sanhua": rules.sanhua,
            "mango": rules.mango, "stakes": rules.stakes.name, "max_seats": rules.max_seats}


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    if not isinstance(data, Mapping):
        raise RulesError("the rules must be an object")
    base = PRESETS.get(str(data.get("name", "xuanjing")), Rules())
    rules = base.with_options(
        diwang=bool(data.get("diwang", base.diwang)),
        sanhua=bool(data.get("sanhua", base.sanhua)),
        mango=data.get("mango", base.mango),
        stakes=get_stakes(str(data.get("stakes", base.stakes.name))),
        max_seats=int(data.get("max_seats", base.max_seats)),
    )
    return shared(rules)


class Game:
    """One table's session.  Build with :meth:`Game.new`; drive with :meth:`apply`."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.rules = rules_from_dict(state.rules)

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        players: Sequence[tuple[str, str | None]],
        rules: Rules | None = None,
        seed: int = 0,
        bobo: int | Sequence[int] | None = None,
        dealer: int | None = None,
    ) -> Game:
        """A table with ``players`` as (name, bot level or None for a human).  ``bobo``:
        every player's first 钵钵 (default: the preset minimum), or one per seat."""
        rules = rules or Rules()
        n = len(players)
        if not rules.min_seats <= n <= rules.max_seats:
            raise RulesError(f"a table seats {rules.min_seats}–{rules.max_seats} players")
        names = [p[0] for p in players]
        for _, bot in players:
            if bot is not None and bot not in BOT_LEVELS and not is_probe(bot):
                raise RulesError(f"unknown bot level {bot!r} (use {', '.join(BOT_LEVELS)})")
        if len(set(names)) != n or any(not name.strip() for name in names):
            raise RulesError("every seat needs a different, non-empty name")
        stacks = [bobo] * n if bobo is None or isinstance(bobo, int) else list(bobo)
        amounts = [rules.stakes.first_bobo if b is None else b for b in stacks]
        if len(amounts) != n:
            raise RulesError("give one 钵钵 per seat")
        for a in amounts:
            if a < rules.stakes.first_bobo:
                raise RulesError(f"the first 钵钵 is at least {rules.stakes.first_bobo}")
        first = random.Random(seed).randrange(n) if dealer is None else dealer
        if not 0 <= first < n:
            raise RulesError("no such dealer seat")
        state = State(
            rules=rules_to_dict(rules),
            seats=[SeatState(name, bot, a, a) for (name, bot), a in zip(players, amounts,
                                                                       strict=True)],
            seed=seed,
            dealer=first,
        )
        state.config = {"players": [list(p) for p in players], "rules": state.rules,
                        "seed": seed, "bobo": amounts, "dealer": first}
        return cls(state)

    # ------------------------------------------------------------------ queries
    @property
    def seq(self) -> int:
        """The state's sequence number: how many actions have been applied."""
        return self.state.trimmed + len(self.state.log)

    def take_finished(self) -> tuple[list[Hand], list[dict[str, Any]]]:
        """Take the finished hands and the action log out of the state, for a caller that
        stores them elsewhere (so that the state stays small however long the session);
        the game plays on and :attr:`seq` keeps counting.  Returns (hands, log)."""
        st = self.state
        hands, log = st.history, st.log
        st.history, st.log = [], []
        st.trimmed += len(log)
        return hands, log

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def hand(self) -> Hand | None:
        return self.state.hand

    @property
    def to_act(self) -> int | None:
        h = self.state.hand
        return h.to_act if h is not None and self.state.phase is not Phase.BETWEEN else None

    @property
    def history(self) -> list[Hand]:
        """Finished hands of this session, oldest first."""
        return self.state.history

    @property
    def seats(self) -> list[SeatState]:
        return self.state.seats

    def seated(self) -> list[int]:
        return [i for i, s in enumerate(self.state.seats) if not s.left]

    def is_allin(self, seat: int) -> bool:
        h = self.state.hand
        return (h is not None and seat in h.order and not h.folded[seat]
                and h.committed[seat] >= self.state.seats[seat].bobo)

    def opener(self) -> int | None:
        """Who holds 发招 in the betting of round 2 or 3: the leader (highest new card)
        until they 休, then the next player who may still open (旋经: 「地牌休了以后，就该由
        他的下家……发招」); once somebody bets, the player who bet first.  None elsewhere."""
        h = self.state.hand
        if h is None or self.state.phase is not Phase.BETTING or h.round not in (2, 3):
            return None
        opening = (a["seat"] for a in h.actions if a.get("round") == h.round and a.get("lead"))
        return next(opening, h.to_act)

    def in_hand(self) -> list[int]:
        h = self.state.hand
        return [] if h is None else [s for s in h.order if not h.folded[s]]

    def visible_cards(self, seat: int, viewer: int | None = None) -> list[str]:
        """Cards of ``seat`` that ``viewer`` sees (all four after the showdown split)."""
        h = self.state.hand
        if h is None or not h.cards[seat]:
            return []
        dealt = self.dealt(seat)
        if viewer == seat:
            return h.cards[seat][:dealt]
        if h.result is not None and str(seat) in h.splits:
            return h.cards[seat]
        return h.cards[seat][2:dealt]  # cards 3 and 4 lie face up once dealt

    def dealt(self, seat: int) -> int:
        """How many cards ``seat`` has been dealt in the current (or last) hand."""
        h = self.state.hand
        return 0 if h is None else cards_dealt(h, seat)

    def legal_actions(self, seat: int | None = None) -> Legal:
        st = self.state
        if st.phase is Phase.OVER:
            return Legal(seat, ())
        if st.phase is Phase.BETWEEN:
            acts: list[Act] = []
            if seat is not None and 0 <= seat < len(st.seats):
                acts += [Act.SIT] if st.seats[seat].left else [Act.REBUY, Act.LEAVE]
            if self._deal_problem() is None:
                acts.append(Act.DEAL)
                if st.quan_start is None and st.hand_no > 0:  # 圈芒 ends a session begun
                    acts.append(Act.END)
            return Legal(seat, tuple(acts))
        h = st.hand
        assert h is not None
        actor = h.to_act
        if actor is None or (seat is not None and seat != actor):
            return Legal(seat, ())
        if st.phase is Phase.SHOWDOWN:
            return _showdown_legal(actor, sanhua(self.kinds(actor), self.rules) is not None)
        return self._betting_legal(actor)

    def _betting_legal(self, seat: int) -> Legal:
        h = self.state.hand
        assert h is not None
        return _betting_legal(seat, self.state.seats[seat].bobo, h.committed[seat], h.level,
                              self.rules.stakes.raise_floor,
                              not h.bet_this_round and h.round > 1,
                              self._actable_count() >= 2)

    def kinds(self, seat: int) -> tuple[Kind, ...]:
        h = self.state.hand
        assert h is not None
        return tuple(card_by_label(c).kind for c in h.cards[seat])

    # ------------------------------------------------------------------ actions
    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except ActionError:
            return False
        return True

    def verify(self, action: Action) -> Action:
        """Raise :class:`ActionError` unless ``action`` is legal now; return it normalised
        (the level of 拖 / 敲 filled in)."""
        st = self.state
        if st.phase is Phase.OVER:
            raise ActionError(ErrorCode.SESSION_OVER, "the session is over")
        kind = action.kind
        if st.phase is Phase.BETWEEN:
            return self._verify_between(action)
        h = st.hand
        assert h is not None
        if kind in (Act.REBUY, Act.LEAVE, Act.SIT, Act.DEAL, Act.END):
            raise ActionError(ErrorCode.BETWEEN_HANDS_ONLY,
                              f"{kind.label} is only possible between hands", act=kind.value)
        if action.seat is None:
            raise ActionError(ErrorCode.NO_SEAT, "say which seat acts")
        if action.seat != h.to_act:
            name = self._name(action.seat)
            if h.to_act is None:
                raise ActionError(ErrorCode.NOBODY_TO_ACT,
                                  f"it is not {name}'s turn (it is nobody's)")
            who = st.seats[h.to_act].name
            raise ActionError(ErrorCode.NOT_YOUR_TURN,
                              f"it is not {name}'s turn (it is {who}'s)", name=name, who=who)
        legal = self.legal_actions(action.seat)
        if kind not in legal.acts:
            if st.phase is Phase.SHOWDOWN:
                if kind is Act.SANHUA:
                    raise ActionError(ErrorCode.NO_SANHUA,
                                      "this hand holds no 三花 (or the 三花 option is off)")
                raise ActionError(ErrorCode.SHOWDOWN_SPLIT_ONLY,
                                  "at the showdown, split your cards (扯牌) or declare 三花")
            raise self._why_not(kind, legal)
        if kind is Act.SPLIT:
            self._check_split(action.seat, action.cards)
            return _normal(action, None, tuple(action.cards))
        if kind is Act.SANHUA:
            return _normal(action)
        if kind is Act.RAISE:
            amount = action.amount
            if amount is None:
                raise ActionError(ErrorCode.RAISE_NEEDS_AMOUNT, "a 返 needs an amount")
            assert legal.min_raise is not None and legal.max_raise is not None
            if amount < legal.min_raise:
                raise ActionError(
                    ErrorCode.RAISE_TOO_SMALL,
                    f"a raise goes to at least {legal.min_raise} (twice the level "
                    f"{h.level}, and never below {self.rules.stakes.raise_floor})",
                    min=legal.min_raise, level=h.level, floor=self.rules.stakes.raise_floor)
            if amount > legal.max_raise:
                raise ActionError(ErrorCode.RAISE_TOO_BIG,
                                  f"a raise cannot exceed your 钵钵 ({legal.max_raise})",
                                  max=legal.max_raise)
            return _normal(action, amount)
        if kind is Act.TUO:
            return _normal(action, legal.tuo)
        if kind is Act.QIAO:
            return _normal(action, legal.qiao)
        return _normal(action)

    def _why_not(self, kind: Act, legal: Legal) -> ActionError:
        h = self.state.hand
        assert h is not None
        floor = self.rules.stakes.raise_floor
        if kind in (Act.RAISE, Act.TUO, Act.QIAO):  # a bet: first what refuses every bet
            if self._actable_count() < 2:
                return ActionError(ErrorCode.NOBODY_TO_ANSWER,
                                   "everyone else still in is all in: nobody could answer "
                                   "a bet, so call (瞧) or fold (甩)")
            bobo = self.state.seats[h.to_act].bobo if h.to_act is not None else 0
            if bobo <= h.level:
                return ActionError(ErrorCode.CANNOT_COVER,
                                   f"your 钵钵 ({bobo}) does not go above the level "
                                   f"{h.level}: calling (瞧) puts it all in, or fold (甩)",
                                   bobo=bobo, level=h.level)
        if kind is Act.CHECK:
            return ActionError(ErrorCode.CANNOT_CHECK, "you cannot 休 after a bet")
        if kind is Act.CALL:
            return ActionError(ErrorCode.NOTHING_TO_CALL, "there is nothing to call: 休 or bet")
        if kind is Act.RAISE:
            least = max(2 * h.level, floor)
            return ActionError(ErrorCode.RAISE_UNAFFORDABLE,
                               f"a raise must reach {least}, "
                               "more than your 钵钵: 敲 (all-in) instead", min=least)
        if kind is Act.TUO:
            return ActionError(ErrorCode.TUO_NOT_ALLOWED,
                               f"拖 doubles the level to {2 * h.level}, which is below the "
                               f"raise floor {floor} or above your 钵钵",
                               level=2 * h.level, floor=floor)
        return ActionError(ErrorCode.NOT_POSSIBLE, f"{kind.label} is not possible now",
                           act=kind.value)

    def _check_split(self, seat: int, cards: Sequence[str]) -> None:
        h = self.state.hand
        assert h is not None
        if len(cards) != 4:
            raise ActionError(ErrorCode.SPLIT_NEEDS_FOUR,
                              "a split names your four cards: two for each group")
        if sorted(cards) != sorted(h.cards[seat]):
            raise ActionError(ErrorCode.SPLIT_NOT_YOUR_CARDS, "those are not your four cards")

    def _verify_between(self, action: Action) -> Action:
        st = self.state
        kind = action.kind
        if kind in BETTING or kind in (Act.SPLIT, Act.SANHUA):
            raise ActionError(ErrorCode.NO_HAND, "no hand is being played: deal first")
        if kind in (Act.REBUY, Act.LEAVE, Act.SIT):
            if action.seat is None or not 0 <= action.seat < len(st.seats):
                raise ActionError(ErrorCode.NO_SUCH_SEAT, "no such seat")
            if kind is Act.SIT:
                if not st.seats[action.seat].left:
                    raise ActionError(ErrorCode.NOT_POSSIBLE, "入座 is for a player who left",
                                      act=kind.value)
                return Action(kind, action.seat)
            if st.seats[action.seat].left:
                name = st.seats[action.seat].name
                raise ActionError(ErrorCode.SEAT_LEFT, f"{name} has left the table", name=name)
            if kind is Act.REBUY:
                minimum = self.rules.stakes.later_bobo
                if action.amount is None or action.amount < minimum:
                    raise ActionError(ErrorCode.REBUY_TOO_SMALL, f"a re-buy is at least {minimum}",
                                      min=minimum)
                if action.amount > MAX_REBUY:
                    raise ActionError(ErrorCode.REBUY_TOO_BIG,
                                      "that is more chips than this table allows",
                                      max=MAX_REBUY)
                return Action(kind, action.seat, action.amount)
            return Action(kind, action.seat)
        problem = self._deal_problem()
        if problem is not None:
            raise problem
        if kind is Act.END and st.quan_start is not None:
            raise ActionError(ErrorCode.QUAN_ALREADY,
                              "the 圈芒 last orbit is already being played")
        if kind is Act.END and st.hand_no == 0:
            raise ActionError(ErrorCode.NOT_POSSIBLE, "圈芒 ends a session: play a hand first",
                              act=kind.value)
        if kind is Act.DEAL and action.cards:
            named = [c for c in action.cards if c]
            if len(action.cards) != 32 or len(set(named)) != len(named) or \
                    not set(named) <= {c.label for c in DECK}:
                raise ActionError(ErrorCode.BAD_DECK,
                                  "a stacked deck must hold the 32 cards once each")
        return Action(kind, None, None, tuple(action.cards))

    def _deal_problem(self) -> ActionError | None:
        seated = self.seated()
        if len(seated) < 2:
            return ActionError(ErrorCode.TOO_FEW_PLAYERS, "at least two players must be seated")
        for i in seated:
            if self.state.seats[i].bobo <= 0:
                name = self.state.seats[i].name
                least = self.rules.stakes.later_bobo
                return ActionError(ErrorCode.BOBO_EMPTY,
                                   f"{name}'s 钵钵 is empty: re-buy (≥ {least}) or leave",
                                   name=name, min=least)
        return None

    def apply(self, action: Action) -> Action:
        """Verify and apply ``action``; return the normalised record that was logged."""
        done = self.verify(action)
        self._apply(done)
        return done

    def _apply(self, done: Action) -> None:
        """Apply ``done``, legal and normalised: what :meth:`verify` returned, or an
        action taken from :meth:`legal_actions` as :meth:`verify` would return it (the
        play-outs of engine.review, which apply hundreds of thousands of them)."""
        record = done.to_dict()
        self.state.log.append(record)
        h = self.state.hand
        entry: dict[str, Any] = {}
        if h is not None and self.state.phase is not Phase.BETWEEN:
            # The hand's own record also says when and how (for a readable log): the
            # round (4 = the showdown), whether a bet was the round's 发招, and for every
            # bet the player's commitment after it ("to") and whether it left them all-in.
            entry = {**record, "round": h.round}
            if done.kind in (Act.RAISE, Act.TUO, Act.QIAO) and not h.bet_this_round:
                entry["lead"] = True
            h.actions.append(entry)
        k = done.kind
        if k is Act.REBUY:
            assert done.seat is not None and done.amount is not None
            seat = self.state.seats[done.seat]
            seat.bobo += done.amount
            seat.bought += done.amount
        elif k is Act.LEAVE:
            assert done.seat is not None
            st = self.state
            st.seats[done.seat].left = True
            # fewer than two players; or the 圈芒 starter leaves when the deal has come
            # back round to them for the last hand (扫尾): the session is over
            if len(self.seated()) < 2 or (st.quan_start == done.seat == st.dealer
                                          and st.quan_moves >= 1):
                st.phase = Phase.OVER
        elif k is Act.SIT:
            assert done.seat is not None
            self.state.seats[done.seat].left = False
        elif k is Act.END:  # the orbit's first dealer: the next one to deal
            self.state.quan_start = self.next_dealer()
            self.state.quan_moves = 0
        elif k is Act.DEAL:
            self._deal(done.cards)
        elif k is Act.SPLIT or k is Act.SANHUA:
            self._showdown_act(done)
        else:
            self._bet(done)
            assert h is not None and done.seat is not None
            entry["to"] = h.committed[done.seat]
            if k in (Act.CALL, Act.RAISE, Act.TUO) and self.is_allin(done.seat):
                entry["allin"] = True  # a 瞧 (or 返, 拖) of the whole 钵钵: all-in like a 敲

    def do(self, kind: Act | str, seat: int | None = None, amount: int | None = None,
           cards: Sequence[str] = ()) -> Action:
        """Shorthand: ``game.do("raise", 2, 20)``."""
        return self.apply(Action(Act(kind), seat, amount, tuple(cards)))

    # ------------------------------------------------------------------ dealing
    def _passes(self, dealer: int, nxt: int, seat: int) -> bool:
        """Whether the deal going from ``dealer`` to ``nxt`` passes ``seat`` (a seat that
        has left, which the deal skips)."""
        n = len(self.state.seats)
        return 0 < (seat - dealer) % n < (nxt - dealer) % n

    def next_seat(self, seat: int, among: Iterable[int] | None = None) -> int:
        pool = set(self.seated() if among is None else among)
        n = len(self.state.seats)
        for step in range(1, n + 1):
            cand = (seat + step) % n
            if cand in pool:
                return cand
        raise ActionError(ErrorCode.NOBODY_TO_PASS, "nobody to pass to")

    def next_dealer(self) -> int:
        """The seat that deals the next hand: the dealer, or, if they have left, the next
        seated player."""
        dealer = self.state.dealer
        return dealer if dealer in self.seated() else self.next_seat(dealer)

    def upcoming_order(self) -> list[int]:
        """The dealt-in seats of the next hand, from its 挡家 counterclockwise."""
        seated = self.seated()
        first = self.next_seat(self.next_dealer())
        i = seated.index(first)
        return seated[i:] + seated[:i]

    def stacked_deck(self, hands: Mapping[int, Sequence[str | Kind]],
                     seed: int | None = None) -> tuple[str, ...]:
        """A deck order that deals ``hands`` (seat → up to 4 kind codes or card labels)
        in the next hand; the other cards are shuffled by ``seed``."""
        pool = list(DECK)
        chosen: dict[int, list[Card]] = {}
        for seat, wanted in hands.items():
            got: list[Card] = []
            for w in wanted:
                card = self._pick(pool, w)
                pool.remove(card)
                got.append(card)
            chosen[seat] = got
        random.Random(seed if seed is not None else self.state.seed).shuffle(pool)
        order = self.upcoming_order()
        n = len(order)
        deck: list[Card | None] = [None] * 32
        for pos, seat in enumerate(order):
            for j, card in enumerate(chosen.get(seat, [])):
                deck[j * n + pos] = card
        rest = iter(pool)
        return tuple((c if c is not None else next(rest)).label for c in deck)

    @staticmethod
    def _pick(pool: list[Card], wanted: str | Kind) -> Card:
        if isinstance(wanted, str) and wanted in _BY_LABEL:
            card = _BY_LABEL[wanted]
            if card in pool:
                return card
            raise CardError(f"{wanted} is dealt twice")
        kind = wanted if isinstance(wanted, Kind) else parse_kind(wanted)
        for card in pool:
            if card.kind is kind:
                return card
        raise CardError(f"no {kind.code} left in the deck")

    def _deal(self, stacked: Sequence[str]) -> None:
        st = self.state
        rules = self.rules
        seated = self.seated()
        st.dealer = self.next_dealer()
        order = self.upcoming_order()
        st.hand_no += 1
        n = len(st.seats)
        if stacked:
            rest = iter(c for c in DECK if c.label not in set(stacked))
            deck = [card_by_label(c) if c else next(rest) for c in stacked]
        else:
            deck = list(DECK)
            random.Random(st.seed * 1_000_003 + st.hand_no).shuffle(deck)
        cards: list[list[str]] = [[] for _ in range(n)]
        for pos, seat in enumerate(order):
            cards[seat] = [deck[j * len(order) + pos].label for j in range(4)]
            st.seats[seat].dealt_hands += 1
        # 芒果 before the deal
        mango_paid = [0] * n
        kind: Mango | None = None
        winner_name: str | None = None
        if st.quan_start is not None:
            kind = Mango.QUAN
        elif st.pending_mango is not None:
            kind = Mango(st.pending_mango)
            if st.zou_winner is not None:
                winner_name = st.seats[st.zou_winner].name
        events: list[str] = []
        if kind is not None:
            if kind is not Mango.QUAN:
                st.mango_count += 1
            amount = mango_amount(rules, kind, st.mango_count)
            payers = set(mango_payers(kind, [st.seats[i].name for i in seated], winner_name))
            for i in seated:
                payer = st.seats[i]
                if payer.name in payers:
                    pay = max(0, min(amount, payer.bobo - rules.stakes.pi))
                    payer.bobo -= pay
                    mango_paid[i] = pay
                    st.pot += pay
            events.append(f"{kind.value}: {sum(mango_paid)}")
        st.pending_mango = None
        st.zou_winner = None
        self._open_hand(Hand(number=st.hand_no, dealer=st.dealer, dangjia=order[0],
                             order=order, cards=cards, committed=[], folded=[],
                             mango_paid=mango_paid, pot_start=st.pot, events=events,
                             actions=[Action(Act.DEAL, None, None, tuple(stacked)).to_dict()]))

    def _open_hand(self, hand: Hand) -> None:
        """Start the betting of a freshly dealt ``hand`` (its cards, order and 芒果 set)."""
        st = self.state
        rules = self.rules
        n = len(st.seats)
        dangjia = hand.dangjia
        hand.committed = [0] * n
        for seat_i in hand.order:
            hand.committed[seat_i] = min(rules.stakes.pi, st.seats[seat_i].bobo)
        hand.committed[dangjia] = min(rules.stakes.opening, st.seats[dangjia].bobo)
        hand.folded = [False] * n
        hand.level = rules.stakes.opening
        hand.bet_this_round = True
        hand.acted = [False] * n
        hand.checked = [False] * n
        hand.acted[dangjia] = True
        st.hand = hand
        st.phase = Phase.BETTING
        hand.to_act = self._next_to_act(dangjia)
        if hand.to_act is None:
            self._end_round()

    def copy(self) -> Game:
        """An independent copy of the table (what ``copy.deepcopy`` gives, many times
        faster: play-outs copy tables thousands of times).  Finished hands and the
        configuration are shared: nothing changes them once they exist."""
        st = self.state
        state = _shallow(st)
        state.seats = [_shallow(s) for s in st.seats]
        state.history, state.log = list(st.history), list(st.log)
        h = st.hand
        if h is not None:
            hand = state.hand = _shallow(h)
            hand.order, hand.cards = list(h.order), [list(c) for c in h.cards]
            hand.committed, hand.folded = list(h.committed), list(h.folded)
            hand.mango_paid, hand.acted, hand.checked = (list(h.mango_paid), list(h.acted),
                                                         list(h.checked))
            hand.splits, hand.sanhua = dict(h.splits), dict(h.sanhua)
            hand.actions, hand.events = list(h.actions), list(h.events)
        new = _shallow(self)
        new.state = state
        return new

    def at_deal(self) -> Game:
        """A copy of this table as it was right after the current hand's deal (the same
        cards; no log, no history): what a play-out of the hand starts from."""
        h = self.state.hand
        if h is None or self.state.phase not in (Phase.BETTING, Phase.SHOWDOWN):
            raise ValueError("no hand in progress")
        state = copy.deepcopy(replace(self.state, hand=None, history=[], log=[]))
        for a in h.actions:  # the 敲 of this hand were counted as they came
            if a["kind"] == Act.QIAO.value:
                state.seats[a["seat"]].qiao_hands -= 1
        start = Game(state)
        start._open_hand(Hand(number=h.number, dealer=h.dealer, dangjia=h.dangjia,
                              order=list(h.order), cards=[list(c) for c in h.cards],
                              committed=[], folded=[], mango_paid=list(h.mango_paid),
                              pot_start=h.pot_start,
                              events=[e for e in h.events if not e.startswith("r")],
                              actions=[dict(h.actions[0])]))
        return start

    # ------------------------------------------------------------------ betting
    def _actable(self, seat: int) -> bool:
        h = self.state.hand
        assert h is not None
        return not h.folded[seat] and h.committed[seat] < self.state.seats[seat].bobo

    def _needs_to_act(self, seat: int) -> bool:
        h = self.state.hand
        assert h is not None
        if not self._actable(seat):
            return False
        if h.committed[seat] < h.level:
            return True
        if h.acted[seat]:
            return False
        return self._actable_count() >= 2

    def _actable_count(self) -> int:
        h = self.state.hand
        assert h is not None
        seats = self.state.seats
        return sum(1 for s in h.order if not h.folded[s] and h.committed[s] < seats[s].bobo)

    def _next_to_act(self, after: int) -> int | None:
        h = self.state.hand
        assert h is not None
        order = h.order
        n = len(order)
        i = order.index(after)
        for step in range(1, n + 1):
            cand = order[(i + step) % n]
            if self._needs_to_act(cand):
                return cand
        return None

    def _bet(self, a: Action) -> None:
        h = self.state.hand
        assert h is not None and a.seat is not None
        seat = a.seat
        bobo = self.state.seats[seat].bobo
        if a.kind is Act.FOLD:
            h.folded[seat] = True
            h.events.append(f"r{h.round}:fold:{seat}")
            alive = self.in_hand()
            if len(alive) == 1:
                self._fold_win(alive[0])
                return
        elif a.kind is Act.CHECK:
            h.checked[seat] = True
        elif a.kind is Act.CALL:
            h.committed[seat] = min(h.level, bobo)
        else:  # RAISE, TUO, QIAO
            assert a.amount is not None
            if a.kind is Act.QIAO:
                self.state.seats[seat].qiao_hands += 1
            new = a.amount
            h.committed[seat] = max(h.committed[seat], new)
            if new > h.level:
                h.level = new
                h.bet_this_round = True
                h.acted = [False] * len(h.acted)
        h.acted[seat] = True
        nxt = self._next_to_act(seat)
        h.to_act = nxt
        if nxt is None:
            self._end_round()

    def _end_round(self) -> None:
        h = self.state.hand
        assert h is not None
        alive = self.in_hand()
        if h.round >= 2 and not h.bet_this_round and alive and all(h.checked[s] for s in alive):
            self._xiu()
            return
        if h.round >= 3:
            self._start_showdown()
            return
        h.round += 1
        h.bet_this_round = False
        h.acted = [False] * len(h.acted)
        h.checked = [False] * len(h.checked)
        # the highest new face-up card leads; ties: nearest the dealer counterclockwise
        idx = h.round  # round 2 → card index 2, round 3 → card index 3
        start = self.next_seat(h.dealer, h.order)
        i0 = h.order.index(start)
        ring = h.order[i0:] + h.order[:i0]
        best: int | None = None
        for s in ring:
            if h.folded[s]:
                continue
            cls = card_by_label(h.cards[s][idx]).kind.single_class
            if best is None or cls > card_by_label(h.cards[best][idx]).kind.single_class:
                best = s
        assert best is not None
        h.leader = best
        first = best if self._needs_to_act(best) else self._next_to_act(best)
        h.to_act = first
        if first is None:
            self._end_round()

    # ------------------------------------------------------------------ endings
    def _fold_win(self, winner: int) -> None:
        st = self.state
        h = st.hand
        assert h is not None
        n = len(st.seats)
        nets = [0] * n
        for s in h.order:
            if s != winner:
                nets[s] = -h.committed[s]
                nets[winner] += h.committed[s]
        pot = st.pot
        nets[winner] += pot
        mango_next = Mango.ZOU.value if h.round == 1 else None
        self._finish(HandResult("fold", nets, winner, pot, 0, mango_next))
        st.pot = 0
        if mango_next is not None:
            st.pending_mango = mango_next
            st.zou_winner = winner

    def _folded_pi_to_pot(self) -> list[int]:
        """The hand ends with no winner: the folded players' 皮 goes to the pot for the
        next hand, everyone still in keeps their stake.  Returns the nets."""
        st = self.state
        h = st.hand
        assert h is not None
        nets = [0] * len(st.seats)
        for s in h.order:
            if h.folded[s]:
                nets[s] = -h.committed[s]
                st.pot += h.committed[s]
        return nets

    def _xiu(self) -> None:
        st = self.state
        h = st.hand
        assert h is not None
        nets = self._folded_pi_to_pot()
        self._finish(HandResult("xiu", nets, None, 0, st.pot, Mango.XIU.value))
        st.pending_mango = Mango.XIU.value

    def _start_showdown(self) -> None:
        h = self.state.hand
        assert h is not None
        self.state.phase = Phase.SHOWDOWN
        h.round = 4
        h.to_act = self._next_splitter()

    def _next_splitter(self) -> int | None:
        h = self.state.hand
        assert h is not None
        for s in h.order:
            if not h.folded[s] and str(s) not in h.splits and str(s) not in h.sanhua:
                return s
        return None

    def _showdown_act(self, a: Action) -> None:
        h = self.state.hand
        assert h is not None and a.seat is not None
        if a.kind is Act.SANHUA:
            declared = sanhua(self.kinds(a.seat), self.rules)
            assert declared is not None
            h.sanhua[str(a.seat)] = declared
        else:
            h.splits[str(a.seat)] = list(a.cards)
        h.to_act = self._next_splitter()
        if h.to_act is None:
            self._settle()

    def split_of(self, seat: int) -> Split | None:
        h = self.state.hand
        assert h is not None
        cards = h.splits.get(str(seat))
        if cards is None:
            return None
        return _labelled_split(tuple(cards), self.rules)[0]

    def _settle(self) -> None:
        st = self.state
        h = st.hand
        assert h is not None
        n = len(st.seats)
        seats: list[Seat] = []
        keys: dict[str, Key] = {}  # the (头, 尾) ranks of those who compare
        for s in h.order:
            name = str(s)
            if h.folded[s]:
                seats.append(Seat(name, h.committed[s], folded=True))
            elif name in h.sanhua:
                seats.append(Seat(name, h.committed[s], self._any_split(s),
                                  sanhua=h.sanhua[name]))
            else:
                split, keys[name] = _labelled_split(tuple(h.splits[name]), self.rules)
                seats.append(Seat(name, h.committed[s], split))
        if not keys:
            nets = self._folded_pi_to_pot()
            self._finish(HandResult("sanhua", nets, None, 0, st.pot, None,
                                    splits=dict(h.splits), sanhua=dict(h.sanhua)))
            return
        # the table is valid by construction: the settlement without settle()'s checks
        res = settle_ranked(seats, keys)
        nets = [0] * n
        for name, net in res.nets.items():
            nets[int(name)] = net
        winner = int(res.pi_to) if res.pi_to is not None else None
        # equal best hands ate the 皮 together: they share the pot too
        takers = [int(x) for x in res.pi_takers] if len(res.pi_takers) > 1 else []
        pot = st.pot if winner is not None else 0
        st.pot -= pot
        result = HandResult(
            "showdown", nets, winner, pot, st.pot, None, pot_takers=takers,
            order=[int(x) for x in res.order],
            transfers=[
                {"from": int(t.source), "to": int(t.to), "amount": t.amount,
                 "reason": t.reason, "entitled": t.entitled, "available": t.available,
                 "limited_by": t.limited_by}
                for t in res.transfers
            ],
            outcomes=[{"a": int(a), "b": int(b), "result": o.value}
                      for (a, b), o in res.outcomes.items() if int(a) < int(b)],
            returned={k: v for k, v in res.returned.items()},
            splits=dict(h.splits), sanhua=dict(h.sanhua),
        )
        for i in range(n):  # the pot into the nets (the result's own list)
            nets[i] += result.pot_share(i)
        self._finish(result)

    def _any_split(self, seat: int) -> Split:
        k = self.kinds(seat)
        return Split.of(Group.of(k[0], k[1]), Group.of(k[2], k[3]), self.rules)

    def _finish(self, result: HandResult) -> None:
        st = self.state
        h = st.hand
        assert h is not None
        h.result = result
        h.to_act = None
        if result.how in ("showdown", "sanhua"):  # every hand still in is shown
            for a in h.actions:  # a 敲 is all in: at most one per seat and hand
                if a["kind"] == Act.QIAO.value and not h.folded[a["seat"]]:
                    seat = st.seats[a["seat"]]
                    held = tuple(h.cards[a["seat"]][:a["round"] + 1])
                    seat.qiao_shown = (*seat.qiao_shown, held)[-QIAO_SHOWN:]
        for i, net in enumerate(result.nets):
            st.seats[i].bobo += net
        st.history.append(h)
        st.phase = Phase.BETWEEN
        # the deal
        keep = st.quan_start is not None and result.mango_next is not None
        if not keep:
            nxt = self.next_seat(h.dealer)
            if st.quan_start is not None:
                if st.quan_moves >= 1 and (h.dealer == st.quan_start
                                           or self._passes(h.dealer, nxt, st.quan_start)):
                    st.phase = Phase.OVER  # the 扫尾 was dealt, or its dealer has left
                st.quan_moves += 1
            st.dealer = nxt
        if st.quan_start is not None:
            st.pending_mango = None  # the orbit charges everyone anyway
        if len(self.seated()) < 2:
            st.phase = Phase.OVER

    # ------------------------------------------------------------------ helpers
    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.state.seats):
            return self.state.seats[seat].name
        return f"seat {seat}"

    def chips_total(self) -> int:
        """Every chip on the table: 钵钵 plus the pot (conserved: equals chips bought)."""
        return sum(s.bobo for s in self.state.seats) + self.state.pot

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return asdict(self.state)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        d = copy.deepcopy(dict(data))  # the game never shares lists with ``data``
        d["seats"] = [SeatState(**s) for s in d["seats"]]
        d["phase"] = Phase(d["phase"])
        d["hand"] = _hand_from(d["hand"]) if d.get("hand") else None
        d["history"] = [_hand_from(x) for x in d.get("history", [])]
        return cls(State(**d))

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_dict(json.loads(text))


def _normal(action: Action, amount: int | None = None, cards: tuple[str, ...] = ()
            ) -> Action:
    """``action`` with this amount and these cards (itself when it has them already)."""
    if action.amount == amount and action.cards == cards:
        return action
    return Action(action.kind, action.seat, amount, cards)


@lru_cache(maxsize=1 << 14)
def _labelled_split(labels: tuple[str, ...], rules: Rules) -> tuple[Split, Key]:
    """The split of four card labels (the first two one group) and its (头 rank, 尾 rank);
    kept: play-outs settle the same splits again and again."""
    k = [card_by_label(c).kind for c in labels]
    split = Split.of(Group.of(k[0], k[1]), Group.of(k[2], k[3]), rules)
    return split, split.key(rules)


@lru_cache(maxsize=64)
def _showdown_legal(seat: int, sanhua: bool) -> Legal:
    """What ``seat`` may do at the showdown (``sanhua``: it holds a 三花 it may declare)."""
    return Legal(seat, (Act.SPLIT, Act.SANHUA) if sanhua else (Act.SPLIT,))


@lru_cache(maxsize=1 << 14)
def _betting_legal(seat: int, bobo: int, committed: int, level: int, floor: int,
                   opening: bool, answered: bool) -> Legal:
    """What ``seat`` may do in a betting round (its 钵钵 and commitment, the level, the
    raise floor, whether a bet now is a 发招, whether anyone else still in could answer a
    bet: when every other player still in is all in, ``seat`` may only call or fold);
    kept: play-outs ask it again and again."""
    acts: list[Act] = []
    call_to = min(level, bobo)
    if committed < level:
        acts.append(Act.CALL)
    else:
        acts.append(Act.CHECK)
    min_raise = max(2 * level, floor)
    can_raise = answered and min_raise <= bobo
    if can_raise:
        acts.append(Act.RAISE)
    tuo = 2 * level if answered and floor <= 2 * level <= bobo else None
    if tuo is not None:
        acts.append(Act.TUO)
    if answered and bobo > level:
        acts.append(Act.QIAO)
    acts.append(Act.FOLD)
    return Legal(
        seat, tuple(acts), call_to=call_to, call_cost=max(0, call_to - committed),
        min_raise=min_raise if can_raise else None, max_raise=bobo if can_raise else None,
        tuo=tuo, qiao=bobo, opening=opening,
    )


def _shallow(obj: T) -> T:
    """A shallow copy of a plain object (no ``__reduce__`` round trip)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _hand_from(data: Mapping[str, Any]) -> Hand:
    d = dict(data)
    d["result"] = HandResult(**d["result"]) if d.get("result") else None
    return Hand(**d)


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """One hand as JSON-ready data (:func:`hand_from_dict` reads it back)."""
    return asdict(hand)


def hand_from_dict(data: Mapping[str, Any]) -> Hand:
    return _hand_from(data)


def dealt_deck(h: Hand) -> list[str]:
    """A DEAL action's deck that deals ``h`` again and names only the cards that were
    dealt ("" for the 3rd and 4th cards of a player who folded before getting them, and
    for the cards left in the deck)."""
    n = len(h.order)
    deck = [""] * 32
    for pos, seat in enumerate(h.order):
        for j in range(cards_dealt(h, seat)):
            deck[j * n + pos] = h.cards[seat][j]
    return deck


def _fold_round(h: Hand, seat: int) -> int:
    for e in h.events:
        parts = e.split(":")
        if len(parts) == 3 and parts[1] == "fold" and parts[2] == str(seat):
            return int(parts[0][1:])
    return h.round


def cards_dealt(h: Hand, seat: int) -> int:
    """How many cards ``seat`` was dealt in hand ``h`` (so far): two in round 1, one more
    in each later round it was still in, four once the hand reached the showdown."""
    if not h.cards[seat]:
        return 0
    return min(4, (_fold_round(h, seat) if h.folded[seat] else h.round) + 1)


def replay(config: Mapping[str, Any], log: Iterable[Mapping[str, Any]]) -> Game:
    """Rebuild a session from its configuration (``game.state.config``) and action log."""
    players = [(str(p[0]), p[1]) for p in config["players"]]
    game = Game.new(players, rules_from_dict(config["rules"]), int(config["seed"]),
                    list(config["bobo"]), int(config["dealer"]))
    for raw in log:
        game.apply(Action.from_dict(raw))
    return game
