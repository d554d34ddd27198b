"""The engine's figures stay bit-for-bit what was recorded (tests/golden.py): reviews of
practice hands, bot-only sessions, the expert's policy.  Speed work must not change
them; a deliberate change records them again (``scripts/golden_review.py --small
--record tests/golden_review.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden import figures


def test_figures_are_the_recorded_ones() -> None:
    want = json.loads((Path(__file__).parent / "golden_review.json").read_text())
    got = json.loads(json.dumps(figures(small=True)))  # as JSON stores them
    assert len(got["reviews"]) == len(want["reviews"]) == 14
    for g, w in zip(got["reviews"], want["reviews"], strict=True):
        assert g == w, (w["log"][-1], w["seed"])
    assert got["simulate"] == want["simulate"]
    assert got["expert"] == want["expert"]
