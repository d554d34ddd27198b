"""Build the split advisor's strategy tables (needs numpy; never on a request path).

``python -m engine build-strategy [--rules xuanjing|app]`` writes
``engine/data/strategy-<preset>.json``.  The model is described in
:mod:`engine.advisor`; this is the computation:

* The 4,285 distinct hands *h*, each with three splits *s* (rows ``3h + s``) and
  a split key (头 rank, 尾 rank).  Whether split key *a* beats key *b* is a
  K × K table (吃 = both ≥ and one >).
* ``W[h, o]`` = the number of physical opponent hands of kind-multiset *o* left
  when you hold *h* (the product of C(copies left, count)); each row sums to
  C(28, 4) = 20,475.
* Fictitious play in integers: ``S_win`` / ``S_lose`` accumulate, over rounds,
  the win / lose counts of every (hand, split) against that round's pure best
  response.  The counts against a pure profile change, when opponent hand *o*
  moves from split *t1* to *t2*, by the column ``W[:, o] · (P[:, (o, t2)] −
  P[:, (o, t1)])`` — one vectorised operation — so each round costs only the
  hands that changed their mind.  After *T* rounds the average strategy is
  ``counts / T`` and the EVs against it are ``(S_win − S_lose) / (T · 20475)``,
  exactly.  Ties break towards the lowest split index, so the build is
  deterministic.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .advisor import (
    FORMAT,
    OPPONENT_HANDS,
    SEEN_HANDS,
    all_hands,
    hand_code,
    multiplicity,
    opponent_description,
    preset_for,
    ranking_fingerprint,
    table_filename,
)
from .cards import KINDS
from .hands import naive_split, splits
from .rules import Rules, get_rules

TARGET = 0.001  # stop when the average strategy's exploitability is below this
MAX_ROUNDS = 20_000
DATA_DIR = Path(__file__).resolve().parent / "data"

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BuildResult:
    table: dict[str, Any]  # the JSON document
    seconds: float
    rounds: int
    exploitability: Fraction


class _Game:
    """The arrays of the symmetric two-hand showdown game for one ranking."""

    def __init__(self, rules: Rules) -> None:
        hands = all_hands()
        n = self.n = len(hands)
        counts = np.zeros((n, len(KINDS)), dtype=np.int64)
        for i, h in enumerate(hands):
            for kind in h:
                counts[i, kind.index] += 1
        self.mult = np.array([multiplicity(h) for h in hands], dtype=np.int64)
        assert int(self.mult.sum()) == SEEN_HANDS

        # split keys → dense ids; win / lose between keys
        keys: dict[tuple[int, int], int] = {}
        key_hs = np.zeros(3 * n, dtype=np.int64)
        for i, h in enumerate(hands):
            for s, split in enumerate(splits(h, rules)):
                key_hs[3 * i + s] = keys.setdefault(split.key(rules), len(keys))
        self.key_hs = key_hs
        head = np.array([k[0] for k in keys], dtype=np.int64)
        tail = np.array([k[1] for k in keys], dtype=np.int64)
        ge = (head[:, None] >= head[None, :]) & (tail[:, None] >= tail[None, :])
        gt = (head[:, None] > head[None, :]) | (tail[:, None] > tail[None, :])
        win = (ge & gt).astype(np.int8)  # win[a, b]: key a beats key b
        # column b of win / lose, restricted to the rows (h, s): [b, 3h + s]
        self.win_col = np.ascontiguousarray(win.T[:, key_hs])
        self.lose_col = np.ascontiguousarray(win[:, key_hs])

        # wt[o, h] = W[h, o] (opponent o given my hand h), at most 2^4
        copies = np.array([k.copies for k in KINDS], dtype=np.int64)
        ctab = np.array([[comb(a, v) for v in range(3)] for a in range(3)], dtype=np.uint8)
        wt = np.ones((n, n), dtype=np.uint8)
        for j in range(len(KINDS)):
            for v in (1, 2):
                rows = np.nonzero(counts[:, j] == v)[0]
                if rows.size:
                    wt[rows] *= ctab[copies[j] - counts[:, j], v][None, :]
        assert (wt.sum(axis=0, dtype=np.int64) == OPPONENT_HANDS).all()
        self.wt = wt
        self.hidx = np.repeat(np.arange(n), 3)
        self.wt_rows = wt[:, self.hidx]  # [o, 3h + s]

    def counts_vs(self, mix: IntArray) -> tuple[IntArray, IntArray]:
        """Win / lose counts of every (hand, split) against ``mix`` (n × 3 integer weights)."""
        win = np.zeros(3 * self.n, dtype=np.int64)
        lose = np.zeros(3 * self.n, dtype=np.int64)
        for t in range(3):
            used = np.nonzero(mix[:, t])[0]
            if not used.size:
                continue
            k = self.key_hs[3 * used + t]
            order = np.argsort(k, kind="stable")
            used, k = used[order], k[order]
            starts = np.concatenate(([0], np.nonzero(np.diff(k))[0] + 1))
            weighted = self.wt[used].astype(np.int64) * mix[used, t][:, None]
            agg = np.add.reduceat(weighted, starts, axis=0)[:, self.hidx]  # [key j, 3h+s]
            present = k[starts]
            win += np.einsum("jr,jr->r", self.win_col[present].astype(np.int64), agg)
            lose += np.einsum("jr,jr->r", self.lose_col[present].astype(np.int64), agg)
        return win, lose


def _fictitious_play(game: _Game, naive: IntArray,
                     target: float) -> tuple[IntArray, IntArray, IntArray, int, Fraction]:
    n = game.n
    br = naive.copy()
    mix0 = np.zeros((n, 3), dtype=np.int64)
    mix0[np.arange(n), br] = 1
    cur_win, cur_lose = game.counts_vs(mix0)
    s_win = np.zeros(3 * n, dtype=np.int64)
    s_lose = np.zeros(3 * n, dtype=np.int64)
    counts = np.zeros((n, 3), dtype=np.int64)
    base = np.arange(n)
    rounds = 0
    while True:
        s_win += cur_win
        s_lose += cur_lose
        counts[base, br] += 1
        rounds += 1
        net = (s_win - s_lose).reshape(n, 3)
        new_br = np.argmax(net, axis=1)  # first maximum: lowest split index
        best = net[base, new_br]
        expl = Fraction(int((game.mult * best).sum()), SEEN_HANDS * rounds * OPPONENT_HANDS)
        if expl < target or rounds >= MAX_ROUNDS:
            return counts, s_win, s_lose, rounds, expl
        changed = np.nonzero(new_br != br)[0]
        for lo in range(0, changed.size, 256):
            o = changed[lo:lo + 256]
            k1 = game.key_hs[3 * o + br[o]]
            k2 = game.key_hs[3 * o + new_br[o]]
            w = game.wt_rows[o].astype(np.int64)
            cur_win += np.einsum("or,or->r", w, game.win_col[k2].astype(np.int64)
                                 - game.win_col[k1])
            cur_lose += np.einsum("or,or->r", w, game.lose_col[k2].astype(np.int64)
                                  - game.lose_col[k1])
        br = new_br


def build_table(rules: Rules, target: float = TARGET) -> BuildResult:
    """Solve the opponent model for this ranking and return the table's JSON document."""
    start = time.perf_counter()
    rules = get_rules(preset_for(rules))
    hands = all_hands()
    game = _Game(rules)
    naive = np.array([splits(h, rules).index(naive_split(h, rules)) for h in hands],
                     dtype=np.int64)
    counts, s_win, s_lose, rounds, expl = _fictitious_play(game, naive, target)
    # independent check of the incremental sums: recompute against the final mixture
    win, lose = game.counts_vs(counts)
    assert (win == s_win).all() and (lose == s_lose).all(), "incremental update drifted"
    exploitability = round(float(expl), 6)
    rows = []
    for i, h in enumerate(hands):
        r = slice(3 * i, 3 * i + 3)
        wl = [int(x) for pair in zip(s_win[r], s_lose[r], strict=True) for x in pair]
        rows.append([hand_code(h), *wl, *(int(c) for c in counts[i])])
    table: dict[str, Any] = {
        "format": FORMAT,
        "preset": preset_for(rules),
        "diwang": rules.diwang,
        "ranking": ranking_fingerprint(rules),
        "model": "one showdown vs one opponent holding 4 of the 28 unseen cards, all "
                 "C(28,4) hands weighted exactly; 三花 ignored; opponent = average strategy "
                 "of fictitious play from the naive split",
        "opponent": opponent_description(rounds, exploitability),
        "rounds": rounds,
        "denominator": rounds * OPPONENT_HANDS,
        "exploitability": exploitability,
        "exploitability_exact": [expl.numerator, expl.denominator],
        "columns": ["hand", "win0", "lose0", "win1", "lose1", "win2", "lose2",
                    "mix0", "mix1", "mix2"],
        "hands": rows,
    }
    return BuildResult(table, time.perf_counter() - start, rounds, expl)


def dumps(table: dict[str, Any]) -> str:
    """Compact JSON, one hand per line (small diffs when a table is rebuilt)."""
    head = {k: v for k, v in table.items() if k != "hands"}
    body = ",\n".join(json.dumps(row, ensure_ascii=False, separators=(",", ":"))
                      for row in table["hands"])
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    return text[:-1] + ',"hands":[\n' + body + "\n]}\n"


def write_table(rules: Rules, directory: Path = DATA_DIR) -> tuple[Path, BuildResult]:
    result = build_table(rules)
    path = directory / table_filename(preset_for(rules))
    path.write_text(dumps(result.table), encoding="utf-8")
    return path, result
