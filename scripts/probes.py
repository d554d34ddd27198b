"""Can one line of strategy beat the bots?  Each probe (engine/probes.py) plays against
one bot (heads-up) and against three (four seats), every hand from the first 钵钵
(``simulate(..., fresh=True)``); prints the probe's mean per hand with its 95 % interval
and the verdict (the bots win when the whole interval is below zero). The ``expert``
level, a best reply by play-outs, may stand in for a probe: what it wins heads-up is the
bots' exploitability (issue 20 §2). ``--duplicate`` plays every deal once per rotation
of the seats (``simulate(..., duplicate=True)``): the same interval from fewer hands.

    nice -n 10 .venv/bin/python scripts/probes.py --hands 50000 [--bot strong] [--procs 2]
    nice -n 10 .venv/bin/python scripts/probes.py --probes expert --seats 2 --duplicate \
        --hands 20000 --bot strong
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.simulate import interval, parse_bots, simulate

PROBES = ("always-qiao", "always-call", "min-raise", "fold-to-bet", "top-10", "top-25",
          "top-50")
CHUNK = 2500  # hands per job (each job its own seed)


def run(job: tuple[str, str, int, int, int, bool]) -> tuple[str, int, int, float, float]:
    """One chunk: (probe, seats, hands, sum of the probe's nets, sum of their squares);
    duplicate: hands are deals, a net the probe's mean over the rotations of a deal."""
    probe, bot, seats, hands, seed, duplicate = job
    nets: list[float] = []
    simulate(parse_bots(",".join([probe] + [bot] * (seats - 1))), hands, seed,
             fresh=True, duplicate=duplicate, on_deal=lambda got: nets.append(got[0]))
    return probe, seats, hands, sum(nets), sum(x * x for x in nets)


def row(probe: str, seats: int, n: int, s: float, sq: float) -> str:
    """One line of the table: the probe's mean per hand, its 95 % interval, the verdict."""
    mean, ci = interval(s, sq, n)
    verdict = ("bots win" if mean + ci < 0 else "probe wins" if mean - ci > 0
               else "not separated")
    return f"| `{probe}` | {seats} | {n:,} | {mean:+.2f} ± {ci:.2f} | {verdict} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per probe and seat count")
    parser.add_argument("--bot", default="strong", help="the bots' level (simple, strong)")
    parser.add_argument("--probes", default=",".join(PROBES), help="comma-separated probes")
    parser.add_argument("--seats", default="2,4", help="seat counts, e.g. 2,4")
    parser.add_argument("--procs", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--duplicate", action="store_true",
                        help="play every deal once per rotation of the seats (--hands counts "
                        "deals; simulate --duplicate)")
    args = parser.parse_args(argv)
    probes = [p.strip() for p in args.probes.split(",") if p.strip()]
    seat_counts = [int(s) for s in args.seats.split(",")]
    try:
        parse_bots(",".join([*probes, args.bot]))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.hands < 2 or not all(2 <= n <= 8 for n in seat_counts):
        print("error: --hands ≥ 2 and seats 2–8", file=sys.stderr)
        return 2
    jobs = []
    for probe in probes:
        for seats in seat_counts:
            left, k = args.hands, 0
            while left > 0:
                n = min(CHUNK, left)
                jobs.append((probe, args.bot, seats, n, args.seed * 1000 + k, args.duplicate))
                left, k = left - n, k + 1
    chunks = {(p, n): sum(1 for j in jobs if (j[0], j[2]) == (p, n))
              for p in probes for n in seat_counts}
    totals: dict[tuple[str, int], list[float]] = {}
    print(f"probes against `{args.bot}` bots, every hand from the first 钵钵"
          + (", every deal once per rotation of the seats (duplicate)" if args.duplicate
             else ""))
    print(f"| probe | seats | {'deals' if args.duplicate else 'hands'} "
          "| probe's mean per hand (95 %) | verdict |")
    print("|---|---|---|---|---|", flush=True)
    with Pool(max(1, min(2, args.procs))) as pool:
        for probe, seats, n, s, sq in pool.imap_unordered(run, jobs):
            t = totals.setdefault((probe, seats), [0, 0.0, 0.0, 0])
            t[0] += n
            t[1] += s
            t[2] += sq
            t[3] += 1
            if t[3] == chunks[(probe, seats)]:  # a row is printed as soon as it is done
                print(row(probe, seats, int(t[0]), t[1], t[2]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
