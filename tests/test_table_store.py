"""A practice table's state does not grow with the hands played (issue 12): finished hands
are rows of their own, an action rewrites only the current hand, the history is paged,
the whole session still replays, and old tables are split by the migration."""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from engine.game import Game, Phase, replay
from engine.players import bot_action
from tests.tables import game_of, history_of, table_of
from tutorial import table_store
from tutorial.models_table import PracticeHand, PracticeTable

pytestmark = pytest.mark.django_db


def play_hands(game: Game, hands: int, seed: int = 1) -> None:
    """Bots play every seat (the learner's too) until ``hands`` more hands are done."""
    rng = random.Random(seed)
    target = game.state.hand_no + hands
    while not (game.phase is Phase.BETWEEN and game.state.hand_no >= target):
        if game.phase is Phase.OVER:
            return
        if game.phase is Phase.BETWEEN:
            broke = next((i for i, s in enumerate(game.seats) if not s.left and s.bobo <= 0),
                         None)
            if broke is not None:
                game.do("rebuy", broke, game.rules.stakes.later_bobo)
            else:
                game.do("deal")
            continue
        seat = game.to_act
        assert seat is not None
        game.apply(bot_action(game, seat, rng))


def old_style_session(hands: int) -> dict[str, Any]:
    """A session stored the old way: one state with every hand and the whole log."""
    game = Game.new([("你", None), ("电脑甲", "simple"), ("电脑乙", "strong")], seed=7)
    play_hands(game, hands)
    return json.loads(game.to_json())


def test_an_action_rewrites_only_the_current_hand(client: Client) -> None:
    url = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})["Location"]
    sizes = []
    for _ in range(12):
        table = table_of(url)
        game = Game.from_dict(table.state)
        before = table.state
        play_hands(game, 1, seed=table.seq)
        table_store.save(table, game, before)
        sizes.append(len(json.dumps(table_of(url).state)))
    state = table_of(url).state
    assert state["history"] == [] and len(state["log"]) <= 1 + 20 * 3
    assert max(sizes) < 2 * min(sizes) + 4000  # no growth with the hands played
    assert table_of(url).hands.count() == game_of(url).state.hand_no == 12


def test_the_views_store_finished_hands_as_rows_and_the_session_replays(
        client: Client) -> None:
    url = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})["Location"]
    rng = random.Random(3)
    while len(history_of(url)) < 3:
        g, t = game_of(url), table_of(url)
        h = g.hand
        if h is not None and h.result is None and 0 in g.in_hand() and t.squeezed != h.number \
                and (h.round >= 3 or g.phase is Phase.SHOWDOWN):
            client.post(url + "squeeze", {"seq": t.seq})
        elif g.phase is Phase.BETWEEN and g.seats[0].bobo <= 0:
            client.post(url + "act", {"seq": t.seq, "act": "rebuy", "amount": "50"})
        elif g.phase is Phase.BETWEEN and any(s.bobo <= 0 for s in g.seats):
            client.post(url + "bot", {"seq": t.seq})  # a bot re-buys
        elif g.phase is Phase.BETWEEN:
            client.post(url + "act", {"seq": t.seq, "act": "deal"})
        elif g.to_act == 0:
            action = bot_action(g, 0, rng)
            data = {"act": action.kind.value}
            if action.kind.value == "raise":
                data["amount"] = str(action.amount)
            if action.kind.value == "split":
                data["head"] = list(action.cards[:2])  # type: ignore[assignment]
            client.post(url + "act", {"seq": t.seq, **data})
        else:
            client.post(url + "bot", {"seq": t.seq})
    table = table_of(url)
    assert table.state["history"] == []
    rows = list(PracticeHand.objects.filter(table=table))
    assert [r.number for r in rows] == [1, 2, 3] and all(r.start is not None for r in rows)
    whole = table_store.full_game(table)
    assert whole.seq == table.seq
    again = replay(whole.state.config, whole.state.log)
    assert again.to_dict() == whole.to_dict()


def test_history_pages(client: Client) -> None:
    url = client.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3"})["Location"]
    table = table_of(url)
    game = Game.from_dict(table.state)
    play_hands(game, 45)
    table_store.save(table, game, None)
    first = client.get(url + "history").content.decode()
    assert first.count('class="history-hand') == 20 and 'data-hand="45"' in first
    assert "第 1 / 3 页" in first and "?page=2" in first
    last = client.get(url + "history?page=3").content.decode()
    assert last.count('class="history-hand') == 5 and 'data-hand="1"' in last
    # a page that is not one: said, 400, with the newest hands (never silently another)
    for bad in ("99", "0", "x", ""):
        r = client.get(url + "history", {"page": bad})
        html = r.content.decode()
        assert r.status_code == 400, bad
        assert "网址里的页码不对：要是 1 到 3 之间的整数。" in html and 'data-hand="45"' in html


def test_split_session_keeps_every_hand_and_replays() -> None:
    state = old_style_session(8)
    rows, small, start = table_store.split_session(state)
    assert [r["number"] for r in rows] == list(range(1, 9))
    assert small["history"] == [] and small["log"] == [] and small["trimmed"] == len(state["log"])
    assert [r["hand"] for r in rows] == state["history"]
    log: list[dict[str, Any]] = []
    for r in rows:
        log += r["start"]["log"] + r["log"]
    assert log == state["log"]
    assert start is not None and start["hand_no"] == 7
    broken = {**state, "log": state["log"][:-3]}  # no longer replays to the stored state
    rows, small, start = table_store.split_session(broken)
    assert len(rows) == 8 and all(r["start"] is None for r in rows) and start is None


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_existing_hands_into_rows() -> None:
    module = importlib.import_module("tutorial.migrations.0008_practicehand")
    before = [dep for dep in module.Migration.dependencies if dep[0] == "tutorial"]
    after = [("tutorial", "0008_practicehand")]
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(before)
        apps = executor.loader.project_state(before).apps
        Old = apps.get_model("tutorial", "PracticeTable")
        state = old_style_session(5)
        old = Old.objects.create(owner="someone", state=state, seq=len(state["log"]))
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        table = PracticeTable.objects.get(pk=old.pk)
        assert table.state["history"] == [] and table.hands.count() == 5
        whole = table_store.full_game(table)
        assert whole.seq == table.seq == len(state["log"])
        assert replay(whole.state.config, whole.state.log).to_dict() == whole.to_dict()
        executor = MigrationExecutor(connection)
        executor.migrate(before)  # and back: one state again
        assert Old.objects.get(pk=old.pk).state["log"] == state["log"]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
