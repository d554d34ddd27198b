"""Helpers shared by the practice-table tests: reach a table's stored state, change it
(to stack a deck or move the dealer), and open a table in a browser."""

from __future__ import annotations

import uuid
from typing import Any

from engine.game import Act, Action, Game, Hand, Phase
from engine.groups import Group
from tutorial import table_store
from tutorial.models_table import PracticeTable
from tutorial.table_log import split_view


def table_of(url: str) -> PracticeTable:
    """The table at ``url`` (a path like ``/table/<id>/`` or a full address)."""
    return PracticeTable.objects.get(pk=uuid.UUID(url.rstrip("/").split("/")[-1]))


def game_of(url: str) -> Game:
    return Game.from_dict(table_of(url).state)


def history_of(url: str) -> list[Hand]:
    """The table's finished hands, oldest first (stored as rows of their own)."""
    return table_store.history(table_of(url))


def save_game(url: str, game: Game, before: dict[str, Any] | None = None) -> None:
    """Store ``game`` as the table's state, as the views do after an action (finished
    hands become rows).  A hand dealt by the test replays only if ``before`` is the
    state just before its deal."""
    table_store.save(table_of(url), game, before)


def open_table(page: Any, live_server: Any, level: str, bots: int = 2) -> str:
    """Start a table with ``bots`` bots of ``level`` through the start form; its address."""
    page.goto(f"{live_server.url}/table/")
    page.select_option("#bots", str(bots))
    page.check(f"input[name=level][value={level}]")
    page.click("button[type=submit]:has-text('开桌')")
    page.wait_for_selector("#board")
    return str(page.url)


def at_showdown(url: str, hands: dict[int, list[str]] | None = None) -> None:
    """Everyone all-in in round 1, the learner squeezed: the learner splits (``hands``:
    the cards dealt, by seat; the learner's are RQ B9 R8 R7 by default)."""
    game = game_of(url)
    game.state.dealer = 2  # the learner is 挡家 and splits first
    game.apply(Action(Act.DEAL, cards=game.stacked_deck(hands or {0: ["RQ", "B9", "R8", "R7"]})))
    while game.to_act is not None and game.phase.value == "betting":
        legal = game.legal_actions()
        game.apply(Action(Act.QIAO if Act.QIAO in legal else Act.CALL, game.to_act))
    assert game.to_act == 0
    save_game(url, game)
    table = table_of(url)
    table.squeezed = game.hand.number  # type: ignore[union-attr]
    table.save()


def wait_for_result(page: Any, selector: str = ".result") -> None:
    """Wait in the browser for the hand's result, then for the board to stop moving: a bot
    left broke re-buys 0.7 s after the result is shown (the board's ``.bot-step`` form) and
    htmx swaps the whole board, detaching whatever a test had found in the old one."""
    page.wait_for_selector(selector, timeout=15000)
    page.wait_for_selector(".bot-step", state="detached")


def bots_fold_to_qiao(url: str, hands: int) -> None:
    """Play ``hands`` hands at the table: the learner 敲s, the bots fold (from the second
    hand on, the 挡家's 揍芒 is charged)."""
    game = game_of(url)
    for _hand in range(hands):
        game.apply(Action(Act.DEAL, cards=game.stacked_deck({})))
        while game.phase is Phase.BETTING:
            actor = game.to_act
            assert actor is not None
            game.apply(Action(Act.QIAO if actor == 0 else Act.FOLD, actor))
    save_game(url, game)


def shown_groups(url: str) -> set[Group]:
    """The groups of every split in the table's first hand."""
    hand = history_of(url)[0]
    assert hand.result is not None
    rules = game_of(url).rules
    views = [split_view(cards, rules) for cards in hand.result.splits.values()]
    return {g for v in views for g in (v.head_group, v.tail_group)}
