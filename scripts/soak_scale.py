"""Scale-out soak: two app servers sharing one PostgreSQL database.

    .venv/bin/python scripts/soak_scale.py [--duration 60] [--tables 10] [--quizzers 6]
                                           [--nights 4] [--workers 2] [--seed 1]

Creates a throwaway PostgreSQL role and database (as scripts/test_postgres.sh does; needs
root or sudo, and Debian's postgresql), starts the production stack twice
(scripts/serve_prod.sh through scripts/prodserver.py) on two free ports against it, with
one SECRET_KEY (a session or CSRF cookie from one server is good on the other) and the
rate limits' counters in the shared database.  Then visitors run for ``--duration``
seconds, each request going to the other server than the one before:

- table players (scripts/soak.py's visitor): open a table, play hands, re-buy;
- quiz takers: a question of a random kind, seed and level, answered right; one time in
  five the same question again (it must not count again);
- scorekeepers: open a game night, record hands, re-buy, undo the last entry.

Every visitor names its own address (X-Forwarded-For, read through CLIENT_IP_HEADER), so
the per-client rate limits apply per visitor.  Afterwards, from the database: every
table's chips are conserved and its log replays (soak.check_tables); each quiz taker's
progress counts each distinct question once; each night holds exactly the entries its
scorekeeper saw acknowledged, in order (none lost, none doubled).  Prints the figures,
drops the database; exit status 1 on any error (5xx, 4xx, connection error) or broken
check.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import quiz as q  # noqa: E402
from engine.rules import get_rules  # noqa: E402
from scripts.prodserver import production_server  # noqa: E402
from scripts.soak import Stats, Visitor, check_tables, client_address  # noqa: E402

RULES = get_rules("xuanjing")
PLAYERS = ["甲", "乙", "丙", "丁"]


# --------------------------------------------------------------------------- PostgreSQL
def _as_postgres(*command: str) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return ["sudo", "-u", "postgres", *command]


def _psql(port: str, *statements: str) -> None:
    args = [arg for sql in statements for arg in ("-c", sql)]
    subprocess.run(_as_postgres("psql", "-q", "-p", port, "-v", "ON_ERROR_STOP=1", *args),
                   check=True, stdout=subprocess.DEVNULL)


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A new role and database on the local cluster (started if it was not); its URL."""
    version, cluster, port, status = subprocess.run(
        ["pg_lsclusters", "-h"], capture_output=True, text=True, check=True,
    ).stdout.split("\n")[0].split()[:4]
    started = status != "online"
    if started:
        subprocess.run(["pg_ctlcluster", version, cluster, "start"], check=True)
    name = f"chexuan_soak_{int(time.time())}_{os.getpid()}"
    password = secrets.token_hex(12)
    _psql(port, f"CREATE ROLE \"{name}\" LOGIN PASSWORD '{password}'",
          f"CREATE DATABASE \"{name}\" OWNER \"{name}\"")
    try:
        yield f"postgres://{name}:{password}@127.0.0.1:{port}/{name}"
    finally:
        _psql(port, f"DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)",
              f"DROP ROLE IF EXISTS \"{name}\"")
        if started:
            subprocess.run(["pg_ctlcluster", version, cluster, "stop"], check=False)


# --------------------------------------------------------------------------- visitors
class QuizTaker(Visitor):
    """Answers questions right; sometimes the same question twice (counted once)."""

    def __init__(self, bases: list[str], stats: Stats, rng: random.Random, address: str) -> None:
        super().__init__(bases, stats, rng, address)
        self.asked: dict[str, set[tuple[int, int]]] = {}  # kind: {(seed, level)}
        self.repeats = 0

    def session(self) -> str:
        return self.cookies.get("sessionid", "")

    def play(self, stop_at: float) -> None:
        while time.monotonic() < stop_at:
            slug = self.rng.choice(list(q.QUIZZES))
            seed, level = self.rng.randrange(100_000), self.rng.randint(1, 3)
            status, page, _ = self.request("GET", f"/quiz/{slug}/?seed={seed}&level={level}")
            token = re.search(r'name="token" value="([^"]+)"', page)
            if status != 200 or token is None:
                return
            answer = q.solve(q.generate(slug, seed, level, RULES), RULES)
            for _again in range(2 if self.rng.random() < 0.2 else 1):
                status, page, _ = self.request("POST", f"/quiz/{slug}/",
                                               {"token": token[1], **answer}, htmx=True)
                if status != 200:
                    return
                if "不再计分" in page:
                    self.repeats += 1
            self.asked.setdefault(slug, set()).add((seed, level))


class Scorekeeper(Visitor):
    """One game night: hands, re-buys and undos; remembers every acknowledged entry."""

    def __init__(self, bases: list[str], stats: Stats, rng: random.Random, address: str) -> None:
        super().__init__(bases, stats, rng, address)
        self.token = ""
        self.entries: list[tuple[int, str]] = []  # (seq, kind) the server acknowledged
        self.undone = 0

    def _after(self) -> int | None:
        status, page, _ = self.request("GET", f"/night/{self.token}/")
        match = re.search(r'name="after" value="(\d+)"', page)
        return int(match[1]) if status == 200 and match else None

    def play(self, stop_at: float) -> None:
        if self.request("GET", "/night/")[0] != 200:
            return
        form = {f"player{i}": name for i, name in enumerate(PLAYERS, start=1)}
        form |= {"stakes": "1、3", "bobo": "2000", "end": "23:59", "tz": "UTC"}
        status, _, head = self.request("POST", "/night/", form)
        if status != 302:
            return
        self.token = head.get("location", "").rstrip("/").split("/")[-1]
        while time.monotonic() < stop_at:
            after = self._after()
            if after is None:
                return
            roll = self.rng.random()
            if roll < 0.2 and self.entries:
                data, kind = {"do": "undo", "seq": str(after)}, ""
            elif roll < 0.3:
                data = {"do": "rebuy", "player": self.rng.choice(PLAYERS), "amount": "100",
                        "after": str(after)}
                kind = "rebuy"
            else:
                winner, loser = self.rng.sample(range(len(PLAYERS)), 2)
                amount = str(self.rng.randint(1, 20))
                data = {"do": "hand", "kind": "show", "pot_to": PLAYERS[winner],
                        f"net{winner}": amount, f"net{loser}": "-" + amount, "after": str(after)}
                kind = "hand"
            if self.request("POST", f"/night/{self.token}/", data)[0] != 302:
                return
            if kind:
                self.entries.append((after + 1, kind))
            else:
                self.entries.pop()
                self.undone += 1


# --------------------------------------------------------------------------- checks
def check_quiz(takers: list[QuizTaker]) -> tuple[int, list[str]]:
    """Answers counted, and every session whose progress is not one per distinct question."""
    from tutorial.models_quiz import QuizProgress, QuizQuestion

    counted, problems = 0, []
    for taker in takers:
        key = taker.session()
        progress = {p.kind: p.answered for p in QuizProgress.objects.filter(session_key=key)}
        expected = {kind: len(asked) for kind, asked in taker.asked.items()}
        rows = QuizQuestion.objects.filter(session_key=key).count()
        counted += rows
        if progress != expected or rows != sum(expected.values()):
            problems.append(f"quiz {key[:8]}…: progress {progress}, {rows} rows, "
                            f"expected {expected}")
    return counted, problems


def check_nights(keepers: list[Scorekeeper]) -> tuple[int, list[str]]:
    """Entries kept, and every night whose entries are not the acknowledged ones or whose
    stored states (each entry's ``after``) are not those its entries give."""
    from tutorial.models_night import Night, rebuilt

    kept, problems = 0, []
    for keeper in keepers:
        night = Night.objects.filter(token=keeper.token).first()
        if night is None:
            problems.append(f"night {keeper.token[:8]}…: not in the database")
            continue
        stored = list(night.events.order_by("seq").values_list("seq", "kind"))
        kept += len(stored)
        if stored != keeper.entries:
            problems.append(f"night {keeper.token[:8]}…: stored {stored[-5:]} (of {len(stored)})"
                            f" != acknowledged {keeper.entries[-5:]} (of {len(keeper.entries)})")
        events = list(night.events.order_by("seq"))
        if [(e.hand, e.after) for e in events] != list(rebuilt(night, events)):
            problems.append(f"night {keeper.token[:8]}…: a stored state is not its entries'")
    return kept, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of load")
    parser.add_argument("--tables", type=int, default=10, help="table players (threads)")
    parser.add_argument("--quizzers", type=int, default=6, help="quiz takers (threads)")
    parser.add_argument("--nights", type=int, default=4, help="scorekeepers (threads)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--seed", type=int, default=1, help="the visitors' choices")
    parser.add_argument("--server-log", action="store_true", help="print gunicorn's logs")
    args = parser.parse_args(argv)

    stats = Stats()
    with throwaway_postgres() as url, ExitStack() as servers:
        os.environ.update(DATABASE_URL=url, SECRET_KEY=secrets.token_urlsafe(50),
                          CLIENT_IP_HEADER="HTTP_X_FORWARDED_FOR")
        bases = [servers.enter_context(production_server(args.workers, not args.server_log))
                 for _ in range(2)]  # one after the other: the first one migrates
        print(f"soak_scale: {' and '.join(bases)} on one PostgreSQL database, "
              f"{args.duration:.0f} s …", flush=True)
        kinds = [Visitor] * args.tables + [QuizTaker] * args.quizzers \
            + [Scorekeeper] * args.nights
        visitors = [kind(bases, stats, random.Random(args.seed * 1000 + i), client_address(i))
                    for i, kind in enumerate(kinds)]
        stop_at = time.monotonic() + args.duration
        started = time.monotonic()
        threads = [threading.Thread(target=v.play, args=(stop_at,), daemon=True)
                   for v in visitors]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.duration + 120)
        elapsed = time.monotonic() - started
        servers.close()  # stop both servers before reading the database
        hands, table_problems = check_tables(stats.tables)
        takers = [v for v in visitors if isinstance(v, QuizTaker)]
        keepers = [v for v in visitors if isinstance(v, Scorekeeper)]
        answers, quiz_problems = check_quiz(takers)
        entries, night_problems = check_nights(keepers)
        from django.db import connections

        connections.close_all()

    problems = table_problems + quiz_problems + night_problems
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    per_server = " + ".join(str(stats.by_server[b]) for b in bases)
    print(f"requests          {len(lat)} ({per_server} per server; "
          f"{len(lat) / elapsed:.1f}/s over {elapsed:.1f} s)")
    print(f"errors            {len(stats.errors)}")
    print(f"latency           p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"tables            {len(stats.tables)} opened, {hands} hands; chips conserved and "
          f"log replays: {len(stats.tables) - len(table_problems)}/{len(stats.tables)}")
    print(f"quiz              {answers} answers counted, "
          f"{sum(t.repeats for t in takers)} repeats not counted; progress right: "
          f"{len(takers) - len(quiz_problems)}/{len(takers)} visitors")
    print(f"nights            {len(keepers)} nights, {entries} entries kept "
          f"({sum(k.undone for k in keepers)} undone); none lost or doubled: "
          f"{len(keepers) - len(night_problems)}/{len(keepers)} nights")
    for line in stats.errors[:10] + problems[:10]:
        print("  " + line)
    return 1 if stats.errors or problems or not hands or not answers or not entries else 0


if __name__ == "__main__":
    sys.exit(main())
