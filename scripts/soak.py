"""Soak test: many practice tables played at once against the production stack.

    .venv/bin/python scripts/soak.py [--tables 50] [--duration 60] [--workers N] [--seed 1]

Starts gunicorn with the production settings on 127.0.0.1 (a free port; a throwaway SQLite
database unless DATABASE_URL is set) through scripts/prodserver.py, then runs one thread
per table for ``--duration`` seconds.  Each thread is a visitor with its own session: it
opens a table with the start form (random number and level of bots) and plays it the way
the page allows — it reads the legal actions from the forms in the board's HTML (the htmx
fragment) and posts one of them with the CSRF token: the bots' moves, the squeeze, 瞧 /
休 / 返 / 拖 / 敲 / 甩, a random split, the next deal, a re-buy when the 钵钵 is empty, and
a new table when a session ends.  Each visitor names its own address in X-Forwarded-For
(the server reads it through CLIENT_IP_HEADER, as behind a proxy), so the per-client rate
limits count every visitor apart.

At the end it stops the server and checks, from the database, every table it opened:
the chips are conserved (the sum of the 钵钵 plus the pot equals the chips bought in, and
equals ``Game.chips_total()``), and the stored game replays to the same state.  It prints
hands played, requests, errors (5xx, connection errors, any 4xx: the client only sends
what the page offers), p50/p99 latency and requests per second.  Exit status 1 on any
error or broken invariant.
"""

from __future__ import annotations

import argparse
import html.parser
import http.client
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.httpclient import Client  # noqa: E402
from scripts.prodserver import production_server  # noqa: E402


# --------------------------------------------------------------------------- forms
@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)  # hidden inputs
    checkboxes: dict[str, list[str]] = field(default_factory=dict)
    numbers: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # name: min, max
    classes: str = ""

    @property
    def act(self) -> str:
        return self.fields.get("act", "")


class _Forms(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self.current = Form(a.get("action", ""), classes=a.get("class", ""))
            self.forms.append(self.current)
        elif tag == "input" and self.current is not None and a.get("name"):
            kind = a.get("type", "text")
            if kind == "hidden":
                self.current.fields[a["name"]] = a.get("value", "")
            elif kind == "checkbox":
                self.current.checkboxes.setdefault(a["name"], []).append(a.get("value", ""))
            elif kind == "number":
                high = int(a["max"]) if a.get("max") else None
                self.current.numbers[a["name"]] = (int(a.get("min") or a.get("value") or 0), high)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


def forms(page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


# --------------------------------------------------------------------------- a visitor
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    by_server: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, seconds: float, error: str | None = None, server: str = "") -> None:
        with self.lock:
            self.by_server[server] += 1
            self.latencies.append(seconds)
            if error:
                self.errors.append(error)


class Visitor(Client):
    """A visitor playing practice tables from its own address; every request is counted in
    the shared ``stats``, and goes to the next of ``bases`` (soak_scale.py's two servers)."""

    BETTING_WEIGHTS: ClassVar[dict[str, int]] = {
        "call": 40, "check": 30, "raise": 12, "tuo": 6, "qiao": 2, "fold": 10}

    def __init__(self, bases: list[str], stats: Stats, rng: random.Random, address: str) -> None:
        super().__init__(bases[0], address=address)
        self.bases = bases
        self.sent = 0
        self.stats = stats
        self.rng = rng

    def connect(self) -> http.client.HTTPConnection:
        self.base = self.bases[self.sent % len(self.bases)]
        self.sent += 1
        return super().connect()

    def record(self, method: str, path: str, status: int, text: str, seconds: float) -> None:
        super().record(method, path, status, text, seconds)
        error = None
        if status == -1:
            error = f"{path}: {text}"
        elif status >= 400:
            error = f"{method} {path} -> {status}"
            if status < 500:
                error += ": " + " ".join(text.split())[:300]
        self.stats.record(seconds, error, self.base)

    def open_table(self) -> str | None:
        status, _page, _ = self.request("GET", "/table/")
        if status != 200:
            return None
        data = {"bots": str(self.rng.randint(1, 5)),
                "level": self.rng.choice(["simple", "strong", "mixed"]),
                "stakes": self.rng.choice(["1、3", "5、10", "5、20"]), "mango": "fixed"}
        if self.rng.random() < 0.5:
            data["sanhua"] = "on"
        status, _, head = self.request("POST", "/table/", data)
        if status != 303:
            return None
        url = head.get("location", "")
        with self.stats.lock:
            self.stats.tables.append(url.strip("/").split("/")[-1])
        return url

    def choose(self, board: list[Form]) -> Form | None:
        """One form to post, with its values filled in (the bots first, as the page does)."""
        by_kind = {f.action.rstrip("/").split("/")[-1]: f for f in board}
        if "bot" in by_kind:
            return by_kind["bot"]
        if "squeeze" in by_kind:
            return by_kind["squeeze"]
        acts = {f.act: f for f in board if f.act}
        if "split" in acts:
            if "sanhua" in acts and self.rng.random() < 0.5:
                return acts["sanhua"]
            form = acts["split"]
            cards = form.checkboxes.get("head", [])
            form.fields["head"] = self.rng.sample(cards, 2)  # type: ignore[assignment]
            return form
        betting = [a for a in acts if a in self.BETTING_WEIGHTS]
        if betting:
            act = self.rng.choices(betting, [self.BETTING_WEIGHTS[a] for a in betting])[0]
            form = acts[act]
            if act == "raise":
                low, high = form.numbers["amount"]
                top = min(high if high is not None else low, low * 2)
                form.fields["amount"] = str(self.rng.randint(low, max(low, top)))
            return form
        if "deal" in acts:
            return acts["deal"]
        if "rebuy" in acts:
            form = acts["rebuy"]
            form.fields["amount"] = str(form.numbers["amount"][0])
            return form
        return None

    def play(self, stop_at: float) -> None:
        url = self.open_table()
        while url and time.monotonic() < stop_at:
            status, page, _ = self.request("GET", url)
            steps = 0
            while status == 200 and time.monotonic() < stop_at:
                form = self.choose(forms(page))
                if form is None:
                    break  # the session is over: open another table
                status, page, _ = self.request("POST", form.action, form.fields, htmx=True)
                steps += 1
            if status != 200 or not steps:
                url = self.open_table() if time.monotonic() < stop_at else None
            elif time.monotonic() < stop_at:
                url = self.open_table()


def client_address(i: int) -> str:
    """Visitor ``i``'s address (documentation range 198.18.0.0/15): the rate limits count
    each visitor apart, as they would count people behind a proxy that names them."""
    return f"198.18.{i // 250}.{i % 250 + 1}"


# --------------------------------------------------------------------------- checks
def check_tables(ids: list[str]) -> tuple[int, list[str]]:
    """Hands played and broken invariants, read from the database."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")
    os.environ["DEBUG"] = "1"  # this process only reads the database
    import django

    django.setup()
    from engine.game import replay
    from tutorial import table_store
    from tutorial.models_table import PracticeTable

    problems: list[str] = []
    hands = 0
    rows = {str(t.pk): t for t in PracticeTable.objects.filter(
        pk__in=[uuid.UUID(i) for i in ids])}
    for table_id in ids:
        table = rows.get(table_id)
        if table is None:
            problems.append(f"{table_id}: not in the database")
            continue
        game = table_store.full_game(table)  # the finished hands are rows of their own
        hands += len(game.history)
        bobo = sum(s.bobo for s in game.state.seats)
        bought = sum(s.bought for s in game.state.seats)
        if bobo + game.state.pot != bought or game.chips_total() != bought:
            problems.append(f"{table_id}: 钵钵 {bobo} + pot {game.state.pot} != bought {bought}"
                            f" (chips_total {game.chips_total()})")
        if table.seq != game.seq:
            problems.append(f"{table_id}: stored seq {table.seq} != game seq {game.seq}")
        again = replay(game.state.config, game.state.log)
        if again.to_dict() != game.to_dict():
            problems.append(f"{table_id}: the log does not replay to the stored state")
    return hands, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="concurrent tables (threads)")
    parser.add_argument("--duration", type=float, default=60, help="seconds of play")
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn workers (default: serve_prod.sh's 2 × cores + 1)")
    parser.add_argument("--seed", type=int, default=1, help="the visitors' choices")
    parser.add_argument("--server-log", action="store_true", help="print gunicorn's log")
    args = parser.parse_args(argv)

    os.environ["CLIENT_IP_HEADER"] = "HTTP_X_FORWARDED_FOR"  # each visitor is its own client
    with tempfile.TemporaryDirectory(prefix="chexuan-soak-") as tmp:
        if not os.environ.get("DATABASE_URL"):
            os.environ.update(DATABASE_URL=f"sqlite:///{tmp}/soak.sqlite3", DATABASE_CREATE="1")
        stats = Stats()
        print(f"soak: {args.tables} tables for {args.duration:.0f} s on "
              f"{os.environ['DATABASE_URL'].split(':')[0]} …", flush=True)
        with production_server(workers=args.workers, quiet=not args.server_log) as base:
            stop_at = time.monotonic() + args.duration
            started = time.monotonic()
            threads = [
                threading.Thread(target=Visitor([base], stats, random.Random(args.seed * 1000 + i),
                                                client_address(i)).play,
                                 args=(stop_at,), daemon=True)
                for i in range(args.tables)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=args.duration + 120)
            elapsed = time.monotonic() - started
        hands, problems = check_tables(stats.tables)

    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    print(f"tables opened     {len(stats.tables)}")
    print(f"hands played      {hands}")
    print(f"requests          {len(lat)}  ({len(lat) / elapsed:.1f}/s over {elapsed:.1f} s)")
    print(f"errors            {len(stats.errors)}")
    print(f"latency           p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"chips conserved   {'yes' if not problems else 'NO'} "
          f"({len(stats.tables) - len(problems)}/{len(stats.tables)} tables)")
    for line in (stats.errors[:10] + problems[:10]):
        print("  " + line)
    return 1 if stats.errors or problems or not hands else 0


if __name__ == "__main__":
    sys.exit(main())
