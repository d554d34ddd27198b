"""Duplicate runs of the simulator (``simulate(..., duplicate=True)``, ``simulate
--duplicate``): every deal is played once in each rotation of the seating, so every
player holds every seat's cards, in that seat's place, once; a player's figure on a deal
is its mean over the rotations."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from typing import Any

import pytest

from engine import bots
from engine import simulate as sim
from engine.game import Game
from engine.simulate import simulate

Seen = list[tuple[int, int, dict[str, tuple[str, ...]], dict[str, int]]]


def recorded(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """Patch the simulator's hand loop to note, after each hand, (hand number, 挡家 seat,
    the cards every player was dealt, every player's chips won) in the order the hands
    are played."""
    seen: Seen = []
    play = sim.play_hand

    def noting(game: Game, choose: Any) -> None:
        before = {seat.name: seat.net for seat in game.seats}
        play(game, choose)
        hand = game.history[-1]
        seen.append((game.state.hand_no, hand.dealer,
                     {seat.name: tuple(hand.cards[s]) for s, seat in enumerate(game.seats)},
                     {seat.name: seat.net - before[seat.name] for seat in game.seats}))

    monkeypatch.setattr(sim, "play_hand", noting)
    return seen


@pytest.mark.parametrize("levels", [["strong", "simple"], ["top-25", "strong", "simple", "strong"]])
def test_every_player_holds_every_seats_cards_once(monkeypatch: pytest.MonkeyPatch,
                                                   levels: list[str]) -> None:
    seen = recorded(monkeypatch)
    n, deals = len(levels), 5
    result = simulate(levels, deals, seed=9, duplicate=True)
    assert (result.hands, result.rotations, result.played) == (deals, n, deals * n)
    assert len(seen) == deals * n
    names = [b.name for b in result.bots]
    for d in range(deals):
        rotations = seen[d * n:(d + 1) * n]  # one deal in every rotation, in turn
        assert {number for number, _, _, _ in rotations} == {d + 1}
        assert len({dealer for _, dealer, _, _ in rotations}) == 1  # one 挡家 seat
        hands = {frozenset(cards.values()) for _, _, cards, _ in rotations}
        assert len(hands) == 1  # the same four-card hands dealt to the same seats
        for name in names:  # ... and each player holds each of them once
            assert len({cards[name] for _, _, cards, _ in rotations}) == n
        # in rotation r player i sits where player i + r sat in rotation 0: its cards
        for r in range(1, n):
            for i, name in enumerate(names):
                assert rotations[r][2][name] == rotations[0][2][names[(i + r) % n]]
    for b in result.bots:  # and what each player won is counted as its own
        assert b.net == sum(won[b.name] for _, _, _, won in seen)


def test_rotation_zero_deals_as_the_plain_run(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = recorded(monkeypatch)
    plain = simulate(["strong", "simple"], 6, seed=4, fresh=True)
    dealt = [cards for _, _, cards, _ in seen]
    seen.clear()
    duplicate = simulate(["strong", "simple"], 6, seed=4, duplicate=True)
    assert [cards for _, _, cards, _ in seen[::2]] == dealt
    assert plain.rotations == 1 and duplicate.rotations == 2


def test_a_players_figure_is_its_mean_over_the_rotations() -> None:
    """Two players who play alike and never draw at random (a probe) get the same figure on
    every deal: each plays each seat once. Two different ones: the figures of the
    rotations add up to the nets."""
    same = simulate(["min-raise", "min-raise"], 200, seed=5, duplicate=True)
    assert same.bots[0].mean == same.bots[1].mean and same.bots[0].net == same.bots[1].net
    other = simulate(["always-qiao", "strong", "simple"], 120, seed=6, duplicate=True)
    for b in other.bots:
        assert b.mean * other.hands == pytest.approx(b.net / other.rotations)
        assert b.rebuys == 0  # every hand from the first 钵钵
    assert sum(b.net for b in other.bots) <= 0  # chips may sit in the 芒果 pot
    assert sum(other.endings.values()) == other.played


def test_cli_duplicate() -> None:
    args = [sys.executable, "-m", "engine", "simulate", "--hands", "30", "--bots",
            "strong,simple", "--seed", "2", "--duplicate"]
    out = subprocess.run([*args, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["hands"] == 30 and data["rotations"] == 2
    assert sum(data["endings"].values()) == 60
    text = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert text.stdout.startswith("60 手") and "复式：30 副牌" in text.stdout


def test_probes_script_duplicate() -> None:
    """scripts/probes.py --duplicate: one row per probe and seat count, counted in deals."""
    out = subprocess.run([sys.executable, "scripts/probes.py", "--probes", "top-25,fold-to-bet",
                          "--seats", "2,3", "--hands", "4", "--procs", "1", "--duplicate"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "(duplicate)" in out.stdout and "| probe | seats | deals |" in out.stdout
    rows = [line for line in out.stdout.splitlines() if line.startswith("| `")]
    assert sorted(r.split(" | ")[0:2] for r in rows) == [
        ["| `fold-to-bet`", "2"], ["| `fold-to-bet`", "3"],
        ["| `top-25`", "2"], ["| `top-25`", "3"]]
    assert all(r.split(" | ")[2] == "4" for r in rows)


def test_every_deal_is_reported_and_drawn_afresh() -> None:
    """``on_deal`` sees each deal's results (their means are the figures), and a deal's
    random choices depend on the deal alone: a shorter run plays its deals alike."""
    seen: list[list[float]] = []
    result = simulate(["strong", "simple", "strong"], 30, seed=8, duplicate=True,
                      on_deal=seen.append)
    assert len(seen) == 30
    for i, b in enumerate(result.bots):
        assert sum(got[i] for got in seen) / 30 == pytest.approx(b.mean)
    again: list[list[float]] = []
    simulate(["strong", "simple", "strong"], 10, seed=8, duplicate=True, on_deal=again.append)
    assert again == seen[:10]


def compare(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "scripts/compare_bots.py", "--procs", "1", *args],
                          capture_output=True, text=True, timeout=120)


def test_compare_bots_pairs_the_deals() -> None:
    """scripts/compare_bots.py: a setting left as it is plays every deal alike (a
    difference of exactly 0); a real change plays some deals otherwise, not all."""
    same = compare("--bots", "strong,simple", "--set", f"TEMPERATURE={bots.TEMPERATURE}",
                   "--deals", "40")
    assert same.returncode == 0, same.stderr
    assert "+0.000 ± 0.000 a hand over 40 deals (0 played differently)" in same.stdout
    moved = compare("--bots", "strong,simple", "--set", "FOLD_SHARE=0.9", "--deals", "60")
    assert moved.returncode == 0, moved.stderr
    differ = int(moved.stdout.split("(")[-1].split()[0])
    assert 0 < differ < 60
    for bad in (["--set", "NOPE=1"], ["--set", "FOLD_SHARE=x"], ["--set", "view=1"], []):
        out = compare(*bad)
        assert out.returncode == 2 and out.stderr.startswith("error:"), bad


def test_compare_bots_leaves_the_settings_as_they_were() -> None:
    """A worker process runs job after job: each one starts from the settings as set."""
    spec = importlib.util.spec_from_file_location("compare_bots", "scripts/compare_bots.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    share = bots.FOLD_SHARE
    job = (["strong", "simple"], {"FOLD_SHARE": 0.9}, 20, 3)
    first = script.run(job)
    assert bots.FOLD_SHARE == share
    assert script.run(job) == first and first[0] != first[1]
