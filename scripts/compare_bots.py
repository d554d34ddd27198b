"""Does a change of the bots' settings move a match?  Plays the same duplicate deals
(``simulate(..., duplicate=True)``) once with the settings as they are and once with
``--set NAME=VALUE`` (constants of ``engine.bots``), and prints the first player's mean
per hand under each and the paired difference with its 95 % interval: a deal that never
meets the change is played alike, so the difference is far tighter than two separate
runs would give (issue 20 §2: a policy fitted against the best reply needs many such
comparisons).

    nice -n 10 .venv/bin/python scripts/compare_bots.py --bots expert,strong \\
        --set FOLD_SHARE=0.6 --deals 3000 [--seed S] [--procs 2]
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import bots, expert, players, review
from engine.simulate import interval_of, parse_bots, simulate

CHUNK = 500  # deals per job (each job its own seed)


def settings(pairs: list[str]) -> dict[str, float]:
    """``NAME=VALUE`` pairs naming numeric constants of ``engine.bots``."""
    out: dict[str, float] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        current = getattr(bots, name, None)
        if not name.isupper() or isinstance(current, bool) or not isinstance(
                current, int | float):
            raise ValueError(f"{name!r} is not a numeric setting of engine.bots")
        try:
            out[name] = type(current)(value)
        except ValueError:
            raise ValueError(f"{pair!r}: {value!r} is not a {type(current).__name__}") from None
    return out


def _forget() -> None:
    """Empty every kept result of the modules whose figures follow the settings."""
    for module in (bots, players, review, expert):
        for thing in vars(module).values():
            clear = getattr(thing, "cache_clear", None)
            if callable(clear):
                clear()


def _first(out: list[float], got: list[float]) -> None:
    out.append(got[0])


def run(job: tuple[list[str], dict[str, float], int, int]) -> tuple[list[float], list[float]]:
    """One chunk: the first player's result on every deal, as set and with the change."""
    levels, change, deals, seed = job
    before = {name: getattr(bots, name) for name in change}
    results: list[list[float]] = [[], []]
    try:
        for i, values in enumerate((before, change)):
            for name, value in values.items():
                setattr(bots, name, value)
            _forget()
            simulate(levels, deals, seed, duplicate=True, on_deal=partial(_first, results[i]))
    finally:  # a worker process runs the next job with the settings as they were
        for name, value in before.items():
            setattr(bots, name, value)
        _forget()
    return results[0], results[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="expert,strong", help="levels, the measured one first")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of engine.bots to change (repeatable)")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--procs", type=int, default=2, help="processes (at most 2)")
    args = parser.parse_args(argv)
    try:
        levels = parse_bots(args.bots)
        change = settings(args.set)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not change or args.deals < 2:
        print("error: give at least one --set and --deals ≥ 2", file=sys.stderr)
        return 2
    jobs = [(levels, change, min(CHUNK, args.deals - start), args.seed * 1000 + k)
            for k, start in enumerate(range(0, args.deals, CHUNK))]
    base: list[float] = []
    changed: list[float] = []
    with Pool(max(1, min(2, args.procs))) as pool:
        for b, c in pool.imap(run, jobs):
            base += b
            changed += c
    what = ", ".join(f"{k}={v}" for k, v in change.items())
    differ = sum(1 for b, c in zip(base, changed, strict=True) if b != c)
    for label, xs in (("as set", base), (what, changed)):
        mean, ci = interval_of(xs)
        print(f"{levels[0]} against {','.join(levels[1:])}, {label}: {mean:+.3f} ± {ci:.3f} a hand")
    mean, ci = interval_of([c - b for b, c in zip(base, changed, strict=True)])
    print(f"difference ({what} − as set): {mean:+.3f} ± {ci:.3f} a hand over {len(base)} deals "
          f"({differ} played differently)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
