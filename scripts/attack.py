#!/usr/bin/env python3
"""Attack on the heavy work (issue 21 §1): do 8 hostile clients slow the site down?

Starts the production stack (scripts/serve_prod.sh via scripts/prodserver.py: gunicorn
and a task worker, DEBUG=0, a throwaway SQLite database unless DATABASE_URL is set),
measures the home page and a pair page idle (one client, requests one after another),
then again while 8 attacking client processes run for ``--duration`` seconds:

* ``review``: plays practice hands against strong bots as fast as it can (each hand's
  last action asks for its review) and asks for each hand's review again, reading 复盘;
* ``retry``: asks 再来一次 to price a 返 to a new amount each time, reading the answer;
* ``expert``: plays at a table of three expert bots (every bot step asks for a move).

It prints the p50 / p95 of both pages idle and under attack, their ratio (the target:
p95 under attack ≤ 3 × idle), and what the attackers got (statuses, results computed).
All attackers come from 127.0.0.1, so they share one client's rate limits; ``--no-limits``
lifts the limits to measure the queue alone.  Only 127.0.0.1 is contacted.

    .venv/bin/python scripts/attack.py [--duration 60] [--idle 20] [--clients 8]
                                       [--workers 5] [--no-limits]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.httpclient import Client
from scripts.prodserver import Browser, first_link, production_server

ROLES = ("review", "retry", "expert")


class Attacker(Client):
    """One visitor at a practice table (follows no redirects); ``board`` is the board's
    HTML as last seen."""

    def __init__(self, base: str) -> None:
        super().__init__(base, first="/table/")
        self.board = ""

    def open_table(self, level: str, bots: int) -> str:
        status, text, headers = self.request("POST", "/table/", {
            "bots": str(bots), "level": level, "stakes": "1、3", "mango": "fixed"})
        if status != 303:
            raise RuntimeError(f"could not open a table ({status}): {text[:300]}")
        self.board = self.request("GET", headers["location"], htmx=True)[1]
        return headers["location"]

    def step(self, url: str, number: int) -> bool:
        """One request of playing hand ``number`` at the table ``url`` as htmx does (the
        answer to each POST is the board): True once it is finished.  The learner checks
        or calls, and folds when neither is possible."""
        if f"{url.replace('/table/', '/coach/')}{number}/" in self.board:
            return True
        seq = re.search(r'data-seq="(\d+)"', self.board)
        acts = re.findall(r'name="act" value="(\w+)"', self.board)
        if seq is None or "every 500ms" in self.board:  # an expert thinking: poll
            time.sleep(0.5 if seq else 0)
            self.board = self.request("GET", url, htmx=True)[1]
            return False
        form: dict[str, str | list[str]]
        if 'class="bot-step"' in self.board:
            path, form = "bot", {}
        elif 'class="squeeze__form"' in self.board:
            path, form = "squeeze", {}
        elif "split" in acts:  # the first two cards in the head
            path, form = "act", {"act": "split",
                                 "head": re.findall(r'name="head" value="([^"]+)"', self.board)[:2]}
        elif "deal" in acts:
            path, form = "act", {"act": "deal"}
        elif "rebuy" in acts:
            path, form = "act", {"act": "rebuy", "amount": "100"}
        else:
            act = next((a for a in ("check", "call", "fold") if a in acts), None)
            if act is None:  # nothing to do here: look again as a person would
                time.sleep(0.5)
                self.board = self.request("GET", url, htmx=True)[1]
                return False
            path, form = "act", {"act": act}
        status, text, _ = self.request("POST", url + path, {"seq": seq[1], **form}, htmx=True)
        if status == 429:
            time.sleep(1)  # what the page's Retry-After asks
        self.board = text if status == 200 else self.request("GET", url, htmx=True)[1]
        return False

    def play(self, url: str, number: int, until: float) -> bool:
        while time.monotonic() < until:
            if self.step(url, number):
                return True
        return False

    def poll(self, path: str, done: str, until: float) -> bool:
        """Poll ``path`` every second as the page does until it shows ``done``."""
        while time.monotonic() < until:
            if done in self.request("GET", path, htmx=True, trigger="computing")[1]:
                return True
            time.sleep(1)
        return False


# what one attacker got: its role, its statuses and counts, results shown, its p50 (ms)
Outcome = tuple[str, list[tuple[int, int]], int, float]


def attack(role: str, base: str, until: float, out: multiprocessing.Queue[Outcome]) -> None:
    """One attacking client (see the module doc): asks as fast as it is answered, reads
    results at the pages' polling pace."""
    client = Attacker(base)
    computed = 0
    try:
        if role in ("review", "expert"):
            url = client.open_table("strong" if role == "review" else "expert",
                                    2 if role == "review" else 3)
            coach = url.replace("/table/", "/coach/")
            number = 1
            while client.play(url, number, until):
                if role == "review":  # asked again (a repeat: read, not recomputed)
                    client.request("POST", f"{coach}{number}/review",
                                   {"next": f"{coach}{number}/summary"})
                    computed += client.poll(f"{coach}{number}/summary", "coach-summary",
                                            until)
                else:
                    computed += 1
                number += 1
        else:
            url = client.open_table("strong", 2)
            coach = url.replace("/table/", "/coach/")
            number, low, high = 1, 0, 0
            while time.monotonic() < until and not low:
                client.play(url, number, until)
                client.poll(f"{coach}{number}/summary", "coach-summary", until)
                page = client.request("GET", f"{coach}{number}/retry/0/")[1]
                found = re.search(r'name="amount"[^>]*min="(\d+)" max="(\d+)"', page)
                if found:
                    low, high = int(found[1]), int(found[2])
                else:
                    number += 1  # no 返 to price in this hand's first decision: next hand
            amount = low
            while time.monotonic() < until and low:
                amount = amount + 1 if amount < high else low
                retry = f"{coach}{number}/retry/0/raise"
                status, _, _ = client.request("POST", f"{retry}/ask", {"amount": str(amount)})
                if status == 429:
                    time.sleep(1)
                    continue
                computed += client.poll(f"{retry}?amount={amount}", "coach-verdict", until)
    finally:
        out.put((role, sorted(client.statuses.items()), computed,
                 statistics.median(client.times) * 1000 if client.times else 0.0))


def timed_get(browser: Browser, path: str) -> float:
    start = time.perf_counter()
    status, _body, _headers = browser.get(path)
    elapsed = time.perf_counter() - start
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    return elapsed * 1000


def measure(browser: Browser, paths: list[str], seconds: float) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {p: [] for p in paths}
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        for path in paths:
            times[path].append(timed_get(browser, path))
        time.sleep(0.05)
    return times


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--idle", type=float, default=20)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=5, help="gunicorn workers")
    parser.add_argument("--no-limits", action="store_true", help="lift the rate limits")
    args = parser.parse_args()
    if args.no_limits:
        os.environ["RATE_LIMITS"] = "new=1000000/60,write=1000000/60,compute=1000000/60"
    with production_server(workers=args.workers) as base:
        browser = Browser(base)
        pair = first_link("/pairs/", r"/pairs/(?!four/)[^/?#]+/")(browser)
        assert pair, "no pair page found"
        paths = ["/", pair]
        measure(browser, paths, 3)  # warm up
        idle = measure(browser, paths, args.idle)
        out: multiprocessing.Queue[Outcome] = multiprocessing.Queue()
        until = time.monotonic() + args.duration
        procs = [multiprocessing.Process(target=attack, args=(ROLES[i % 3], base, until, out))
                 for i in range(args.clients)]
        for proc in procs:
            proc.start()
        time.sleep(min(5.0, args.duration / 10))  # the attackers open their tables
        busy = measure(browser, paths, max(1.0, until - time.monotonic()))
        results = [out.get(timeout=120) for _ in procs]
        for proc in procs:
            proc.join(timeout=30)
    print(f"attack: {args.clients} clients for {args.duration:.0f} s, gunicorn workers "
          f"{args.workers}, 1 task worker, rate limits {'lifted' if args.no_limits else 'on'}")
    print(f"{'page':<28}{'idle p50':>10}{'idle p95':>10}{'attack p50':>12}"
          f"{'attack p95':>12}{'p95 ratio':>11}")
    worst = 0.0
    for path in paths:
        ratio = p(busy[path], 95) / p(idle[path], 95)
        worst = max(worst, ratio)
        print(f"{path:<28}{p(idle[path], 50):>9.1f} {p(idle[path], 95):>9.1f} "
              f"{p(busy[path], 50):>11.1f} {p(busy[path], 95):>11.1f} {ratio:>10.2f}")
    print("(milliseconds; idle and under attack: "
          f"{sum(map(len, idle.values()))} and {sum(map(len, busy.values()))} requests)")
    for role, statuses, computed, median in sorted(results, key=str):
        print(f"  {role:<7} statuses {dict(statuses)}  results shown: {computed}  "
              f"its requests' p50 {median:.0f} ms")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(f"target p95 under attack ≤ 3 × idle: {'met' if worst <= 3 else 'NOT met'} "
          f"(worst {worst:.2f}×)")
    return 0 if worst <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
