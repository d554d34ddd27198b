"""Benchmark a game night's page and its live fragment at 50 and 2,000 entries (not a test).

    .venv/bin/python scripts/bench_night.py [--entries 50,2000] [--requests 200]

On a throwaway SQLite database (or DATABASE_URL), one night per mark is opened through
the site and its entries (hands that alternate winners) written as the view writes them
(``Night.add_event``, each with the state after it).  Then ``--requests`` GETs of the
shared page (``/night/v/<token>/``) and of the live fragment every viewer polls every
20 s (htmx, ``?live=1``) are timed through Django's test client, the marks taking turns
request by request (so that a change in the machine's load weighs on every mark alike).
Prints each one's p50 milliseconds (CPU time of this process, which runs the whole
request and SQLite) and its size in bytes.  The target (issue 21 §4): time and size at
2,000 entries within 20 % of 50 entries.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PLAYERS = ["甲", "乙", "丙", "丁"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", default="50,2000", help="marks, comma-separated")
    parser.add_argument("--requests", type=int, default=200, help="timed GETs per page")
    args = parser.parse_args()
    marks = sorted(int(x) for x in args.entries.split(","))
    from scripts.bench_site import throwaway_site

    with throwaway_site("write=1000000/60,new=1000/60"):
        results = measure({mark: night_with(mark) for mark in marks}, args.requests)
    base = results[marks[0]]
    for mark, figures in results.items():
        line = [f"{mark:>5} entries:"]
        for page, (ms, size) in figures.items():
            ratio = f" ({ms / base[page][0]:.2f}× time, {size / base[page][1]:.2f}× size)"
            line.append(f"{page} p50 {ms:.1f} ms, {size:,} B{ratio}")
        print("  ".join(line))


def night_with(entries: int) -> str:
    """A night with ``entries`` hands; its shared page's path."""
    from datetime import timedelta

    from django.db import transaction
    from django.test import Client
    from django.utils import timezone

    from tutorial.models_night import Night

    client = Client()
    form = {f"player{i + 1}": name for i, name in enumerate(PLAYERS)}
    response = client.post("/night/", {**form, "stakes": "1、3", "bobo": "2000",
                                       "end": "23:59", "tz": "UTC"})
    night = Night.objects.get(token=response["Location"].split("/")[2])
    night.end_at = timezone.now() + timedelta(hours=3)
    night.save()
    with transaction.atomic():
        for i in range(entries):
            winner, loser = (0, 1) if i % 2 else (1, 0)
            nets = {PLAYERS[winner]: 5, PLAYERS[loser]: -5}
            night.add_event("hand", {"kind": "show", "nets": nets, "pot_to": PLAYERS[winner]})
    assert night.state().hands == entries
    return f"/night/v/{night.view_token}/"


def measure(paths: dict[int, str], requests: int) -> dict[int, dict[str, tuple[float, int]]]:
    """p50 CPU milliseconds and size of the page and the live fragment of each night in
    ``paths`` (by mark), the nights taking turns."""
    from django.test import Client

    client = Client()
    kinds = {"page": ({}, ""), "live": ({"HTTP_HX_REQUEST": "true"}, "?live=1")}
    times: dict[tuple[int, str], list[float]] = {(m, k): [] for m in paths for k in kinds}
    sizes: dict[tuple[int, str], int] = {}
    for _ in range(requests):
        for mark, path in paths.items():
            for kind, (headers, query) in kinds.items():
                start = time.process_time()
                response = client.get(path + query, **headers)
                times[mark, kind].append((time.process_time() - start) * 1000)
                assert response.status_code == 200
                sizes[mark, kind] = len(response.content)
    return {mark: {kind: (statistics.median(times[mark, kind]), sizes[mark, kind])
                   for kind in kinds} for mark in paths}

if __name__ == "__main__":
    main()
