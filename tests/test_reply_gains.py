"""scripts/reply_gains.py: where the best reply wins against a bot (issue 20 §2)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from types import ModuleType

import pytest

from engine import expert
from engine.bots import distribution, view
from engine.game import Act, Action
from engine.review import alternatives, price_pair
from tests.test_bots import decisions


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reply_gains", "scripts/reply_gains.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_policy_gains_nothing_over_itself() -> None:
    script = _script()
    seen = 0
    for game, seat in decisions(["strong", "strong"], 3, 3):
        mine = distribution(view(game, seat), "strong", game.rules)
        got = script.gain(game, seat, mine, mine, 6, random.Random(1))
        assert got is not None and got[1] == 0.0
        seen += 1
    assert seen


@pytest.mark.parametrize("seed", [2, 5])
def test_the_gain_of_one_action_over_another_agrees_with_an_independent_price(
        seed: int) -> None:
    """Pure policies: the gain of 敲 over 瞧 / 休 is their difference in chips, within
    three standard errors of the same pair priced on independent worlds."""
    script = _script()
    game, seat = next((g, s) for g, s in decisions(["strong", "strong"], seed, 4)
                      if Act.QIAO in g.legal_actions(s))
    options = alternatives(game, seat)
    qiao = next(a for a in options if a.kind is Act.QIAO)
    calm = options[1]
    got = script.gain(game, seat, ((qiao, 1.0),), ((calm, 1.0),), 300, random.Random(seed))
    assert got is not None
    spot, g = got
    assert spot[0] == game.hand.round and spot[2:] == (calm.kind.name.lower(), "qiao")
    check, se = price_pair(game, qiao, calm, ("strong", "strong"), 600, seed)
    assert abs(g - check) < 3 * se * 1.5  # both sampled: the two errors combined


def test_a_spot_facing_a_qiao_is_named_so() -> None:
    script = _script()
    for game, seat in decisions(["strong", "strong"], 4, 40):
        hand = game.hand
        assert hand is not None
        if Act.CALL in game.legal_actions(seat) and any(
                a["kind"] == "qiao" for a in hand.actions):
            mine = distribution(view(game, seat), "strong", game.rules)
            got = script.gain(game, seat, mine, ((Action(Act.FOLD, seat), 1.0),), 4,
                              random.Random(0))
            assert got is not None and got[0][1] == "facing qiao"
            return
    pytest.fail("nobody 敲ed")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "scripts/reply_gains.py", "--procs", "1", *args],
                          capture_output=True, text=True, timeout=300)


def test_the_script_prints_the_table_and_refuses_bad_input(
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = run("--deals", "3", "--worlds", "4", "--top", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("6 hands, ") and "gains sum to" in lines[0]
    assert 1 <= len(lines) - 2 <= 3
    for bad in (["--level", "expert"], ["--seats", "1"], ["--deals", "0"], ["--worlds", "1"]):
        out = run(*bad)
        assert out.returncode == 2 and out.stderr.startswith("error:"), bad
    # the same run twice prints the same table (the expert's and the pricing's random
    # numbers come from the seed)
    monkeypatch.setattr(expert, "WORLDS", 8)
    script = _script()
    one = script.run(("strong", 2, 2, 4, 7))
    assert one == script.run(("strong", 2, 2, 4, 7)) and one[0] == 4 and one[1]
