"""Golden check for speed work on the engine: the figures of the review, the bots'
sessions and the expert must stay bit-for-bit the same.

``--record FILE`` writes, ``--check FILE`` compares (exit status 1 on a difference):

* the review (``engine.review.review``, default worlds, seed 0 and 3) of the coach's
  fixed practice hands (``tests/coach_hands.py``, :func:`fixed_hands`) and of the first
  hands of ``scripts/bench_review.py``'s sessions — the logs themselves come from the
  bots' policies, so they are compared too;
* a bot-only session of ``simple`` / ``strong`` bots (``engine.simulate``);
* the expert's policy at the spots of a short expert session.

Record before a change, check after it.  Takes a few minutes of one core.

    .venv/bin/python scripts/golden_review.py --record /tmp/golden.json
    .venv/bin/python scripts/golden_review.py --check /tmp/golden.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")

import django  # tests/coach_hands.py imports the site's test helpers

django.setup()

from engine.bots import bot_action, policy  # noqa: E402
from engine.game import Game, Phase  # noqa: E402
from engine.review import decision_json, review  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.simulate import rebuy_empty, simulate  # noqa: E402
from tests.coach_hands import decides, fixed_hands, practice_exports  # noqa: E402


def figures(quick: bool) -> dict[str, Any]:
    """Everything compared (``quick``: a smaller set, for a first look)."""
    exports = fixed_hands(2 if quick else 8)
    for levels in (["simple"] * 3, ["strong"] * 3, ["simple", "strong", "simple"]):
        exports += [d for d in practice_exports(levels, 2 if quick else 5, 1) if decides(d)]
    out: dict[str, Any] = {"reviews": []}
    for n, data in enumerate(exports):
        for seed in (0,) if quick or n % 3 else (0, 3):
            out["reviews"].append({
                "log": data["log"], "seed": seed,
                "decisions": [decision_json(d) for d in
                              review(data["config"], data["log"], 0, seed=seed)]})
        print(f"review {n + 1}/{len(exports)}", file=sys.stderr, flush=True)
    out["simulate"] = [untimed(simulate(levels, 60 if quick else 300, seed).to_dict())
                       for levels, seed in ((["simple", "strong"], 1),
                                            (["strong", "simple", "strong", "strong"], 2))]
    out["expert"] = expert_spots(2 if quick else 4)
    return out


def untimed(result: dict[str, Any]) -> dict[str, Any]:
    """A simulation's figures without its timing."""
    return {k: v for k, v in result.items() if k not in ("seconds", "hands_per_second")}


def expert_spots(hands: int) -> list[Any]:
    """The expert's policy at every decision of a short session (expert, strong, simple)."""
    game = Game.new([("e", "expert"), ("s", "strong"), ("t", "simple")], Rules(), 4)
    rng = random.Random(4)
    out: list[Any] = []
    for _ in range(hands):
        rebuy_empty(game)
        game.do("deal")
        while game.phase is not Phase.BETWEEN:
            seat = game.to_act
            assert seat is not None
            if seat == 0:
                out.append([[a.to_dict(), p] for a, p in policy(game, 0)])
            game.apply(bot_action(game, seat, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", type=Path)
    what.add_argument("--check", type=Path)
    parser.add_argument("--quick", action="store_true", help="a smaller set")
    args = parser.parse_args()
    got = json.loads(json.dumps(figures(args.quick)))
    if args.record:
        args.record.write_text(json.dumps(got))
        print(f"recorded {len(got['reviews'])} reviews in {args.record}")
        return
    want = json.loads(args.check.read_text())
    bad = [k for k in want if want[k] != got.get(k)]
    for i, (w, g) in enumerate(zip(want["reviews"], got["reviews"], strict=False)):
        if w != g:
            print(f"review {i} differs", file=sys.stderr)
    print("identical" if not bad else f"DIFFERENT: {', '.join(bad)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
