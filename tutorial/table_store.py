"""Storing a practice table so that an action costs the same after 5,000 hands as after 5.

The table row keeps the engine state without its finished hands and without the log
before the current segment (``Game.take_finished``); every finished hand becomes a
``PracticeHand`` row with the state just before its deal (``start``) and its own actions
(``log``, the deal first).  A whole session can be put back together from the rows
(:func:`full_game`), and an old table that kept everything in one state is split the same
way (:func:`split_session`, used by migration 0008).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from engine.game import Action, Game, Hand, Phase, hand_from_dict, hand_to_dict, replay
from engine.players import bot_action
from tutorial.models_table import PracticeHand, PracticeTable


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def _hand_number(state: Mapping[str, Any] | None) -> int:
    hand = (state or {}).get("hand")
    return int(hand["number"]) if hand else 0


def hand_rows(hands: list[Hand], log: list[dict[str, Any]],
              start: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Rows for the hands ``Game.take_finished`` returned: the last one was dealt from
    ``start`` (its actions are the rest of ``log``); any earlier ones have no start."""
    rows = []
    for hand in hands:
        mine = (hand is hands[-1] and start is not None
                and int(start.get("hand_no", -1)) + 1 == hand.number)
        rows.append({"number": hand.number, "start": start if mine else None,
                     "log": log[len(start["log"]):] if mine and start else [],
                     "hand": hand_to_dict(hand)})
    return rows


def save(table: PracticeTable, game: Game, before: Mapping[str, Any] | None) -> None:
    """Store ``game`` after an action; ``before`` is the stored state before it (kept as
    the hand's start when the action dealt a new hand)."""
    if before is not None and game.hand is not None and _hand_number(before) != game.hand.number:
        table.hand_start = dict(before)
    if game.history:
        hands, log = game.take_finished()
        PracticeHand.objects.bulk_create(
            PracticeHand(table=table, **row) for row in hand_rows(hands, log, table.hand_start))
    table.state = game.to_dict()
    table.seq = game.seq
    table.save()


def bot_turn(game: Game) -> int | None:
    """The bot seat that acts next, if any (between hands: a bot that must re-buy)."""
    if game.phase is Phase.BETWEEN:
        for i, seat in enumerate(game.seats):
            if seat.bot and not seat.left and seat.bobo <= 0:
                return i
        return None
    actor = game.to_act
    if actor is not None and game.seats[actor].bot:
        return actor
    return None


def heavy(game: Game, seat: int) -> bool:
    """Whether the bot in ``seat`` thinks too long for a request: the expert plays every
    alternative out (about 0.1–0.3 s of CPU), so a worker moves it (:mod:`tutorial.jobs`);
    the other levels take a millisecond or two."""
    return game.seats[seat].bot == "expert"


def play_bot(game: Game, seat: int) -> None:
    """The bot in ``seat`` acts; its random numbers come from the table's seed and action
    count, so the same table plays the same wherever this runs."""
    rng = random.Random(game.state.seed * 7919 + game.seq)
    game.apply(bot_action(game, seat, rng))


def history(table: PracticeTable) -> list[Hand]:
    """Every finished hand of the table, oldest first (reads every row: for tests and
    checks; pages read one page of rows)."""
    return [hand_from_dict(row.hand) for row in table.hands.order_by("number")]


def replayed(row: PracticeHand, actions: int | None = None) -> Game:
    """Finished hand ``row`` from its start through its first ``actions`` logged actions
    (all of them when None); a log that does not replay raises what the engine raises."""
    game = Game.from_dict(row.start)
    for raw in row.log[:actions]:
        game.apply(Action.from_dict(raw))
    return game


def full_game(table: PracticeTable) -> Game:
    """The whole session as one game: finished hands and the log from the first action
    (``replay(config, log)`` of it gives the same state).  ValueError if a hand's start
    is missing (a session that could not be split)."""
    game = Game.from_dict(table.state)
    log: list[dict[str, Any]] = []
    hands: list[Hand] = []
    for row in table.hands.order_by("number"):
        if row.start is None:
            raise ValueError(f"hand {row.number} has no start")
        log += row.start["log"] + row.log
        hands.append(hand_from_dict(row.hand))
    game.state.history = hands + game.state.history
    game.state.log = log + game.state.log
    game.state.trimmed = 0
    return game


def split_session(state: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any],
                                                     dict[str, Any] | None]:
    """A whole stored session (full log and history) as (hand rows, the table's state,
    the current hand's start), by replaying its log; a session whose log does not replay
    to it keeps its hands without starts (no replay for those)."""
    try:
        game = replay(state["config"], [])
        rows: list[dict[str, Any]] = []
        start: dict[str, Any] | None = None
        for raw in state["log"]:
            if raw["kind"] == "deal":
                start = game.to_dict()
            game.apply(Action.from_dict(raw))
            if game.history:
                rows += hand_rows(*game.take_finished(), start)
        blank = {"history": [], "log": [], "trimmed": 0}
        if _json({**game.to_dict(), **blank}) != _json({**state, **blank}):
            raise ValueError("the log does not replay to the stored state")
        return rows, game.to_dict(), start
    except Exception:  # any broken old state: keep its hands, without replays
        old = Game.from_dict(state)
        hands, _log = old.take_finished()
        rows = [{"number": h.number, "start": None, "log": [], "hand": hand_to_dict(h)}
                for h in hands]
        return rows, old.to_dict(), None
