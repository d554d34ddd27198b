"""Benchmark a practice-table action after 100 and after 5,000 hands (not a test).

    .venv/bin/python scripts/bench_table.py [--hands 100,5000] [--actions 600]

On a throwaway SQLite database (or DATABASE_URL), one table per mark is opened through
the site and its hands are played by the bots straight on the engine, each stored as the
views store it (``tutorial.table_store.save``: a finished hand becomes a row).  Then
``--actions`` real requests per table are timed through Django's test client (the whole
view: session, rate limit, lock, load, act, save, render of the board fragment), the
tables taking turns so that each meets the same process and machine: the bots' steps,
the learner's moves chosen by the simple bot, squeezes and deals, as a player makes them.
Prints p50 / p90 milliseconds per action (CPU time of this process, which runs the
whole request and SQLite: other jobs on a busy machine do not count), the stored
state's size and the rows.  The target (issue 12): p50 after 5,000 hands within 10 % of
p50 after 100.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="100,5000", help="marks, comma-separated")
    parser.add_argument("--actions", type=int, default=600, help="timed actions per mark")
    args = parser.parse_args()
    marks = sorted(int(x) for x in args.hands.split(","))
    from scripts.bench_site import throwaway_site

    with throwaway_site("write=1000000/60"):  # one client makes every table action
        run(marks, args.actions)


class Bench:
    """One table of its own (own visitor) and the requests a player makes at it."""

    def __init__(self, seed: int) -> None:
        from django.test import Client

        from tutorial.models_table import PracticeTable

        self.client = Client()
        data = {"bots": "3", "level": "mixed", "stakes": "1、3"}
        self.url = self.client.post("/table/", data)["Location"]
        self.table = PracticeTable.objects.get(pk=self.url.strip("/").split("/")[-1])
        self.rng = random.Random(seed)

    def fill(self, hands: int) -> None:
        """Bots play every seat until ``hands`` hands are done, stored hand by hand."""
        from engine.game import Game, Phase
        from engine.players import bot_action
        from tutorial import table_store

        table = self.table
        table.refresh_from_db()
        game = Game.from_dict(table.state)
        before = table.state
        while game.state.hand_no < hands or game.phase is not Phase.BETWEEN:
            if game.phase is Phase.BETWEEN:
                broke = [i for i, s in enumerate(game.seats) if s.bobo <= 0]
                if broke:
                    game.do("rebuy", broke[0], game.rules.stakes.later_bobo)
                    continue
                before = game.to_dict()
                game.do("deal")
                continue
            seat = game.to_act
            assert seat is not None
            game.apply(bot_action(game, seat, self.rng))
            if game.phase is Phase.BETWEEN:
                table_store.save(table, game, before)
                table.squeezed = game.state.hand_no
        table_store.save(table, game, before)

    def step(self) -> float:
        """One request as a player makes it; its CPU time in ms."""
        from engine.game import Game, Phase
        from engine.players import bot_action

        table = self.table
        table.refresh_from_db()
        g = Game.from_dict(table.state)
        h = g.hand
        data: dict[str, object] = {"seq": table.seq}
        if h is not None and h.result is None and 0 in g.in_hand() and table.squeezed != h.number \
                and (h.round >= 3 or g.phase is Phase.SHOWDOWN):
            path = "squeeze"
        elif g.phase is Phase.BETWEEN:
            broke = [i for i, s in enumerate(g.seats) if s.bobo <= 0]
            path = "bot" if broke and broke[0] != 0 else "act"
            if path == "act":
                data.update({"act": "rebuy", "amount": 50} if broke else {"act": "deal"})
        elif g.to_act == 0:
            action = bot_action(g, 0, self.rng)
            path = "act"
            data["act"] = action.kind.value
            if action.kind.value == "raise":
                data["amount"] = action.amount
            if action.kind.value == "split":
                data["head"] = list(action.cards[:2])
        else:
            path = "bot"
        start = time.process_time()
        response = self.client.post(self.url + path, data, HTTP_HX_REQUEST="true")
        elapsed = (time.process_time() - start) * 1000
        if response.status_code != 200:
            raise SystemExit(f"{path} {data}: HTTP {response.status_code}")
        return elapsed


def run(marks: list[int], actions: int) -> None:
    """One table per mark, filled to it; then the tables' actions are timed in turn, so
    that every mark meets the same process (warm caches, allocator, machine load)."""
    benches = [Bench(seed) for seed in range(len(marks))]
    for bench, mark in zip(benches, marks, strict=True):
        bench.fill(mark)
    for _ in range(100):  # warm up: templates, the advisor's table, every kind of page
        for bench in benches:
            bench.step()
    times: list[list[float]] = [[] for _ in marks]
    for _ in range(actions):
        for i, bench in enumerate(benches):
            times[i].append(bench.step())
    results = []
    for mark, bench, spent in zip(marks, benches, times, strict=True):
        spent.sort()
        bench.table.refresh_from_db()
        p50, p90 = statistics.median(spent), spent[int(0.9 * len(spent))]
        size = len(json.dumps(bench.table.state, ensure_ascii=False).encode())
        results.append(p50)
        print(f"after {mark:>5} hands: p50 {p50:6.2f} ms  p90 {p90:6.2f} ms  "
              f"state {size / 1024:5.1f} KB  hand rows {bench.table.hands.count()}", flush=True)
    if len(results) > 1:
        change = (results[-1] / results[0] - 1) * 100
        verdict = "within" if abs(change) <= 10 else "NOT within"
        print(f"p50 after {marks[-1]} vs {marks[0]} hands: {change:+.1f} % ({verdict} 10 %)")


if __name__ == "__main__":
    main()
