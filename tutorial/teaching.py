"""The teaching table (/course/table/): one scripted first hand against three bots.

The hand is data (``tutorial/content/teaching.json``): a stacked deck, the bots' actions
and the learner's suggested action at each stop.  Nothing is stored: stop *n* is the
engine's state after replaying every action before it (:mod:`engine.game`), so the
same instructive hand is played every time and the numbers shown are the engine's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.game import Act, Action, Game, Legal, card_by_label
from engine.groups import Group
from engine.rules import Rules, get_stakes

CONTENT = Path(__file__).resolve().parent / "content" / "teaching.json"
LEARNER = 0


@dataclass(frozen=True)
class Stop:
    number: int  # 1-based
    title: str
    text: tuple[str, ...]
    bots: tuple[Action, ...]  # applied before the stop is shown
    you: Action | None  # the learner's suggested action (None: just go on)
    why: dict[str, str]  # act -> why it is not suggested here
    squeeze: bool
    next_label: str


@dataclass(frozen=True)
class Try:
    """The learner pressed ``act``: ``ok`` if it is the suggested one (the hand goes on);
    otherwise ``why`` says what is suggested instead."""

    act: Act
    ok: bool
    why: str = ""


def _action(raw: list[Any], deck: tuple[str, ...]) -> Action:
    kind = Act(raw[0])
    if kind is Act.DEAL:
        return Action(kind, cards=deck)
    seat = raw[1]
    extra: Any = raw[2] if len(raw) > 2 else None
    if kind is Act.SPLIT:
        return Action(kind, seat, cards=tuple(extra))
    return Action(kind, seat, extra)


@cache
def script() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CONTENT.read_text("utf-8"))
    return data


def rules() -> Rules:
    return Rules().with_options(stakes=get_stakes(script()["stakes"]))


def _new_game() -> Game:
    data = script()
    return Game.new([(name, bot) for name, bot in data["players"]], rules(), seed=data["seed"],
                    bobo=data["bobo"], dealer=data["dealer"])


@cache
def deck() -> tuple[str, ...]:
    hands = {int(seat): cards for seat, cards in script()["cards"].items()}
    return _new_game().stacked_deck(hands, seed=script()["seed"])


@cache
def stops() -> tuple[Stop, ...]:
    out = []
    for i, raw in enumerate(script()["stops"], 1):
        you = raw.get("you")
        suggested = None
        if you is not None:
            kind = Act(you["kind"])
            suggested = Action(kind, LEARNER, you.get("amount"), tuple(you.get("cards", ())))
        out.append(Stop(i, raw["title"], tuple(raw["text"]),
                        tuple(_action(a, deck()) for a in raw.get("bots", ())), suggested,
                        dict(raw.get("why", {})), bool(raw.get("squeeze")),
                        raw.get("next", "")))
    return tuple(out)


def game_at(number: int) -> Game:
    """The table as stop ``number`` shows it (every earlier action applied)."""
    game = _new_game()
    for stop in stops()[:number]:
        for action in stop.bots:
            game.apply(action)
        if stop.number < number and stop.you is not None:
            game.apply(stop.you)
    return game


def finishes(stop: Stop) -> bool:
    """Does the learner's action at ``stop`` end the hand (the split before the result)?"""
    if stop.you is None or stop.number == len(stops()):
        return False
    after = game_at(stop.number + 1).hand
    return after is not None and after.result is not None


def legal(game: Game) -> Legal:
    return game.legal_actions(LEARNER)


def attempt(stop: Stop, game: Game, act: Act, amount: int | None, head: list[str]) -> Try:
    """Judge the button the learner pressed at ``stop``.  Raise ``ValueError`` for a button
    the table does not offer now, a missing or impossible amount, or cards not theirs."""
    you = stop.you
    allowed = legal(game)
    if you is None or act not in allowed:
        raise ValueError("not offered")
    if act is Act.SPLIT:
        mine = game.visible_cards(LEARNER, LEARNER)
        if len(head) != 2 or len(set(head)) != 2 or any(c not in mine for c in head):
            raise ValueError("cards")
        rest = [c for c in mine if c not in head]
        made = _groups([*head, *rest])
        ok = you.kind is Act.SPLIT and set(made) == set(_groups(list(you.cards)))
        return Try(act, ok, "" if ok else stop.why.get("split", ""))
    if act is Act.RAISE:
        if amount is None or not (allowed.min_raise or 0) <= amount <= (allowed.max_raise or 0):
            raise ValueError("amount")
    suggested = you.kind is act and (act is not Act.RAISE or amount == you.amount)
    if you.kind is Act.RAISE and act is Act.TUO and allowed.tuo == you.amount:
        suggested = True  # 拖 to the suggested level is the same bet
    return Try(act, suggested, "" if suggested else stop.why.get(act.value, ""))


def _groups(labels: list[str]) -> tuple[Group, Group]:
    kinds = [card_by_label(c).kind for c in labels]
    return Group.of(kinds[0], kinds[1]), Group.of(kinds[2], kinds[3])
