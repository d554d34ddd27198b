"""Where does the best reply win against a bot?  The ``expert`` (a best reply by
play-outs) plays duplicate deals against one level; at each of its betting decisions
its options are priced again on worlds of their own (:func:`engine.review.play_values`,
independent of the worlds the expert chose by, so its luck in choosing is not counted),
and the decision's **gain** is what the expert's distribution is worth there minus what
the level's own distribution would be worth in its place.  The gains are summed by kind
of spot — round, free or facing a bet (a 敲 or a smaller one), the level's likeliest
action, the expert's likeliest action — and printed per hand played, largest first,
with each kind's mean per decision and its 95 % interval (issue 20 §2: the spots a
policy fitted against the best reply must mend first).  The gains of one decision
assume the level's play after it, so their sum only approximates what the expert wins.

    nice -n 10 .venv/bin/python scripts/reply_gains.py --level strong --deals 1000 \\
        [--seats 2] [--worlds 60] [--seed S] [--procs 2] [--top 20]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import Policy, distribution, view
from engine.chance import draw
from engine.expert import expert_policy
from engine.game import Act, Action, Game, Phase
from engine.players import bot_action
from engine.review import alternatives, play_values, weighted_mean
from engine.simulate import interval_of, parse_bots, simulate

CHUNK = 100  # deals per job (each job its own seed)
Spot = tuple[int, str, str, str]  # round, what it faces, the level's action, the reply's


def _key(a: Action) -> tuple[Act, int | None]:
    return a.kind, a.amount


def _likeliest(policy: Policy) -> str:
    return max(policy, key=lambda item: item[1])[0].kind.name.lower()


def gain(game: Game, seat: int, reply: Policy, level: Policy, worlds: int,
         rng: random.Random) -> tuple[Spot, float] | None:
    """The kind of spot ``seat`` (to bet) is in and what ``reply`` is worth there minus
    what ``level`` is worth, both priced on ``worlds`` worlds of ``rng`` (None when no
    world explains the others' actions)."""
    hand = game.hand
    assert hand is not None
    options = alternatives(game, seat)
    weights, values = play_values(game, seat, options, worlds, rng)
    if not sum(weights):
        return None
    ev = {_key(a): weighted_mean(weights, xs)[0] for a, xs in zip(options, values, strict=True)}

    def worth(policy: Policy) -> float:
        return sum(p * ev[_key(a)] for a, p in policy)

    shoved = any(a["kind"] == "qiao" for a in hand.actions)
    free = Act.CALL not in game.legal_actions(seat)
    facing = "free" if free else "facing qiao" if shoved else "facing a bet"
    spot = (hand.round, facing, _likeliest(level), _likeliest(reply))
    return spot, worth(reply) - worth(level)


def _act(game: Game, seat: int, rng: random.Random, level: str, worlds: int,
         seen: list[tuple[Spot, float]]) -> Action:
    """The expert's action in its seats (its gain recorded in ``seen``), the bots' in theirs."""
    if game.seats[seat].bot != "expert" or game.phase is not Phase.BETTING:
        return bot_action(game, seat, rng)
    reply = expert_policy(game, seat)
    own = random.Random(f"gain:{game.state.seed}:{game.state.hand_no}:{game.seq}")
    got = gain(game, seat, reply, distribution(view(game, seat), level, game.rules), worlds, own)
    if got is not None:
        seen.append(got)
    return draw(reply, rng)


def run(job: tuple[str, int, int, int, int]) -> tuple[int, list[tuple[Spot, float]]]:
    """One chunk: (hands played, every decision's spot and gain)."""
    level, seats, deals, worlds, seed = job
    seen: list[tuple[Spot, float]] = []
    result = simulate(parse_bots(",".join(["expert"] + [level] * (seats - 1))), deals, seed,
                      duplicate=True, act=partial(_act, level=level, worlds=worlds, seen=seen))
    return result.played, seen


def table(played: int, seen: Sequence[tuple[Spot, float]], top: int) -> list[str]:
    """The report: the total gain per hand, then the ``top`` kinds of spot by gain."""
    by: dict[Spot, list[float]] = defaultdict(list)
    for spot, g in seen:
        by[spot].append(g)
    total = sum(g for _, g in seen)
    lines = [f"{played} hands, {len(seen)} decisions of the expert: gains sum to "
             f"{total / played:+.3f} a hand",
             f"{'round':>5}  {'spot':<12} {'bot':<6} {'expert':<6} {'decisions':>9} "
             f"{'a hand':>7}  a decision (95 %)"]
    for spot, gs in sorted(by.items(), key=lambda kv: -sum(kv[1]))[:top]:
        mean, ci = interval_of(gs)
        rnd, facing, bot, expert = spot
        lines.append(f"{rnd:>5}  {facing:<12} {bot:<6} {expert:<6} {len(gs):>9} "
                     f"{sum(gs) / played:+7.3f}  {mean:+.2f} ± {ci:.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="strong", help="the bots' level (strong or simple)")
    parser.add_argument("--seats", type=int, default=2, help="2 to 8")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=60, help="worlds per decision priced")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--procs", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--top", type=int, default=20, help="kinds of spot printed")
    args = parser.parse_args(argv)
    if args.level not in ("strong", "simple"):
        print("error: --level must be strong or simple", file=sys.stderr)
        return 2
    if not 2 <= args.seats <= 8 or args.deals < 1 or args.worlds < 2 or args.top < 1:
        print("error: --seats 2–8, --deals ≥ 1, --worlds ≥ 2, --top ≥ 1", file=sys.stderr)
        return 2
    jobs = [(args.level, args.seats, min(CHUNK, args.deals - start), args.worlds,
             args.seed * 1000 + k) for k, start in enumerate(range(0, args.deals, CHUNK))]
    played = 0
    seen: list[tuple[Spot, float]] = []
    with Pool(max(1, min(2, args.procs))) as pool:
        for n, s in pool.imap(run, jobs):
            played += n
            seen += s
    print("\n".join(table(played, seen, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
