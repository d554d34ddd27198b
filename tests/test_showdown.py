"""The split at a real showdown (engine/showdown.py, issue 14 §1): figures against
brute-force play-outs, the CLI contract, bad input."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advisor import strategy_for
from engine.cards import DECK
from engine.hands import naive_split, sanhua, splits
from engine.settle import Seat, net_ranked, pot_shares, settle
from engine.showdown import Situation, parse_situation, price

ONE = {"me": {"cards": ["RQ", "R6", "R7", "B9"], "stake": 20},
       "opponents": [{"visible": ["B10", "R8"], "stake": 20}], "folded": [3, 10], "pot": 9}
THREE = {"me": {"cards": ["R10", "B10", "BJ", "R8"], "stake": 40},
         "opponents": [{"visible": ["RQ", "B5"], "stake": 40},
                       {"visible": ["B4", "B7"], "stake": 15},
                       {"visible": ["R2", "JK"], "stake": 60}],
         "folded": [3, 20], "pot": 7}


def play_outs(s: Situation, n: int, seed: int) -> tuple[list[float], list[float]]:
    """Brute force: deal the physical unseen cards, let each opponent draw a split from
    the advisor's mixture, settle the whole table with engine.settle (the 芒果 pot to
    those who eat the 皮, shared)."""
    rng = random.Random(seed)
    pool = [c.kind for c in DECK]
    for k in (*s.mine, *(k for o in s.opponents for k in o.visible)):
        pool.remove(k)
    mine = splits(s.mine, s.rules)
    options: list[tuple[Any, str | None]] = [(x, None) for x in mine]
    if sanhua(s.mine, s.rules):
        options.append((mine[0], sanhua(s.mine, s.rules)))
    sums = [0.0] * len(options)
    squares = [0.0] * len(options)
    for _ in range(n):
        rng.shuffle(pool)
        seats = [Seat(f"f{i}", st, folded=True) for i, st in enumerate(s.folded)]
        for i, o in enumerate(s.opponents):
            kinds = (*o.visible, *pool[2 * i:2 * i + 2])
            split = rng.choices(splits(kinds, s.rules), strategy_for(kinds, s.rules))[0]
            seats.append(Seat(f"o{i}", o.stake, split))
        for j, (split, declared) in enumerate(options):
            result = settle([Seat("me", s.stake, split, sanhua=declared), *seats], s.rules)
            net = result.nets["me"]
            if "me" in result.pi_takers:
                net += pot_shares(s.pot, len(result.pi_takers))[
                    result.pi_takers.index("me")]
            sums[j] += net
            squares[j] += net * net
    means = [x / n for x in sums]
    return means, [math.sqrt(max(0.0, q / n - m * m) / (n - 1))
                   for q, m in zip(squares, means, strict=True)]


@pytest.mark.parametrize(("data", "seed"), [(ONE, 1), (THREE, 2)])
def test_figures_agree_with_brute_force_play_outs(data: dict[str, Any], seed: int) -> None:
    s = parse_situation(data)
    priced = price(s)
    means, errors = play_outs(s, 4000, seed)
    assert len(priced.options) == len(means)
    assert priced.exact is (len(s.opponents) == 1)
    for option, mean, error in zip(priced.options, means, errors, strict=True):
        if priced.exact:
            assert option.stderr == 0
        assert abs(option.ev - mean) <= 3 * math.hypot(option.stderr, error) + 1e-9, (
            option, mean, error)


def test_three_hua_declared_is_worth_nothing_and_the_pi_matters() -> None:
    s = parse_situation(THREE)
    priced = price(s)
    declared = priced.options[-1]
    assert declared.split is None and declared.sanhua == "三花十"
    assert declared.ev == 0 and declared.stderr == 0
    without = parse_situation({**ONE, "folded": [], "pot": 0})
    with_pi = price(parse_situation({**ONE, "pot": 0}))
    with_pot = price(parse_situation(ONE))
    for a, b, c in zip(price(without).options, with_pi.options, with_pot.options,
                       strict=True):
        assert b.ev >= a.ev  # a 皮 can only add
        assert b.ev <= c.ev <= b.ev + ONE["pot"]  # the pot goes with the 皮
    assert len(parse_situation({**THREE, "rules": "app"}).opponents) == 3


def test_sampling_is_seeded_and_its_error_shrinks_with_samples() -> None:
    s = parse_situation(THREE)
    assert price(s, 300, seed=5) == price(s, 300, seed=5)
    small, large = price(s, 200, seed=1), price(s, 1600, seed=1)
    for a, b in zip(small.options[:3], large.options[:3], strict=True):
        assert b.stderr < a.stderr


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 6), st.integers(0, 2))
def test_fast_net_equals_the_settlement(rng: random.Random, players: int, folds: int) -> None:
    rules = parse_situation(ONE).rules
    kinds = [c.kind for c in DECK]
    rng.shuffle(kinds)
    seats = [Seat(f"p{i}", rng.randrange(0, 60),
                  naive_split(tuple(kinds[4 * i:4 * i + 4]), rules))
             for i in range(players)]
    seats += [Seat(f"f{i}", rng.randrange(0, 30), folded=True) for i in range(folds)]
    result = settle(seats, rules)
    keys = {s.name: s.split.key(rules) for s in seats if s.split is not None}
    pot = rng.randrange(0, 20)
    takers = list(result.pi_takers)
    for seat in seats:
        share = pot_shares(pot, len(takers))[takers.index(seat.name)] if seat.name in takers else 0
        assert net_ranked(seats, keys, seat.name) == result.nets[seat.name]
        assert net_ranked(seats, keys, seat.name, pot) == result.nets[seat.name] + share


def run(data: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "showdown", *args], input=data,
                          capture_output=True, text=True, timeout=120)


def test_cli_json_contract() -> None:
    out = run(json.dumps(THREE), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == {"options", "best", "model"}
    assert [set(o) for o in report["options"]] == [{"head", "tail", "ev", "stderr"}] * 3 + [
        {"sanhua", "ev", "stderr"}]
    assert report["options"][report["best"]]["ev"] == max(o["ev"] for o in report["options"])
    assert "sampled" in report["model"]
    text = run(json.dumps(ONE))
    assert text.returncode == 0 and "★" in text.stdout and "模型：精确计算" in text.stdout


@pytest.mark.parametrize("bad", [
    "{", "[]", json.dumps({**ONE, "opponents": []}),
    json.dumps({**ONE, "me": {"cards": ["RQ", "RQ", "B9"], "stake": 5}}),
    json.dumps({**ONE, "me": {"cards": ["RQ", "RQ", "B9", "B9"], "stake": 0}}),
    json.dumps({**ONE, "me": {"cards": ["RQ", "RQ", "B9", "B9"], "stake": True}}),
    json.dumps({**ONE, "opponents": [{"visible": ["RQ", "ZZ"], "stake": 5}]}),
    json.dumps({**ONE, "opponents": [{"visible": ["RQ", "RQ"], "stake": 5}]}),  # 3 天牌
    json.dumps({**ONE, "folded": [-1]}), json.dumps({**ONE, "folded": [1] * 7}),
    json.dumps({**ONE, "rules": "nope"}),
])
def test_cli_bad_input_exits_2_with_one_line(bad: str) -> None:
    out = run(bad, "--json")
    assert out.returncode == 2
    assert out.stdout == "" and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_each_distinct_split_is_priced_once() -> None:
    """B9 B9 R8 R8 splits into 9+9 | 8+8 one way and 9+8 | 9+8 two ways: two options,
    not three (a split listed twice in the coach's table, issue 20 §6)."""
    data = {"me": {"cards": ["B9", "B9", "R8", "R8"], "stake": 20},
            "opponents": [{"visible": ["B10", "R7"], "stake": 20}], "folded": []}
    options = price(parse_situation(data)).options
    assert len(options) == 2
    assert len({(o.split.head, o.split.tail) for o in options if o.split}) == 2


def test_paired_errors_match_the_spread_of_differences_over_seeds() -> None:
    """Each difference's paired standard error (one pricing) against the spread of that
    difference over 40 independent pricings: the same within sampling noise."""
    s = parse_situation(THREE)
    runs = [price(s, 300, seed=seed) for seed in range(40)]
    for i, j in ((0, 1), (0, 2), (1, 2), (0, 3)):
        diffs = [r.options[i].ev - r.options[j].ev for r in runs]
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
        claimed = sum(r.diff_error(i, j) for r in runs) / len(runs)
        assert 0.65 < claimed / spread < 1.5, (i, j, claimed, spread)
        assert runs[0].diff_error(i, j) == runs[0].diff_error(j, i)
    assert price(parse_situation(ONE)).diff_error(0, 1) == 0  # exact
