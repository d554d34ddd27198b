"""The split advisor (engine/advisor.py) and its committed strategy tables."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import combinations, permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import advisor
from engine.advisor import advise, load_table, naive_differences, strategy_for
from engine.cards import DECK, Card, Kind, parse_kinds
from engine.groups import Group
from engine.hands import Outcome, Split, compare, naive_split, splits
from engine.rules import Rules, get_rules

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("xuanjing", "app")

# Hands and the split a seed text chose for them (RULES.md sources).
SEED_SPLITS = [
    # 000 旋经 two-player example: 甲 天牌 地牌 天牌 板凳; 乙 人牌 长三 斧头 黑9
    ("RQ R2 RQ B4", "RQ RQ", "R2 B4"),
    ("R8 B6 BJ B9", "R8 BJ", "B6 B9"),
    # 000: 天牌 猫猫 膏药 黑9 split as 天九王 + 六七三
    ("RQ R6 R7 B9", "RQ B9", "R6 R7"),
    # 003 example 1: a = 天杠 + 九点, b = 地杠 + 八点
    ("RQ B8 B4 B5", "RQ B8", "B4 B5"),
    ("R2 B8 R4 B4", "R2 B8", "R4 B4"),
    # 003 example 2: both ways each player may split
    ("R2 R2 B7 R8", "R2 R8", "R2 B7"),
    ("R2 R2 B7 R8", "R2 R2", "R8 B7"),
    ("RQ B7 B8 BJ", "RQ B8", "B7 BJ"),
    ("RQ B7 B8 BJ", "RQ B7", "B8 BJ"),
]


def hand(text: str) -> tuple[Kind, ...]:
    return parse_kinds(text)


# --------------------------------------------------------------------------- brute force


@cache
def stored_mixtures(preset: str) -> dict[str, tuple[int, list[int]]]:
    """The stored opponent mixture, read straight from the JSON (not via the advisor)."""
    raw = json.loads(resources.files("engine.data").joinpath(f"strategy-{preset}.json")
                     .read_text("utf-8"))
    return {row[0]: (raw["rounds"], row[7:10]) for row in raw["hands"]}


def physical(kinds: tuple[Kind, ...]) -> list[Card]:
    """Concrete cards for these kinds (the deck's first free card of each kind)."""
    cards: list[Card] = []
    for k in kinds:
        cards.append(next(c for c in DECK if c.kind is k and c not in cards))
    assert len(set(cards)) == 4
    return cards


@cache
def brute_force(kinds: tuple[Kind, ...], rules: Rules) -> list[tuple[Fraction, Fraction]]:
    """(p_win, p_lose) of each split over all C(28, 4) physical opponent hands."""
    preset = "app" if rules.diwang else "xuanjing"
    mixtures = stored_mixtures(preset)
    mine = splits(kinds, rules)
    rest = [c for c in DECK if c not in physical(kinds)]
    assert len(rest) == 28
    seen: Counter[tuple[Kind, ...]] = Counter()
    for cards in combinations(rest, 4):
        seen[tuple(sorted((c.kind for c in cards), key=lambda k: k.index))] += 1
    assert sum(seen.values()) == 20475
    out = []
    for s in mine:
        win = lose = Fraction(0)
        for theirs, n in seen.items():
            rounds, mix = mixtures[" ".join(k.code for k in theirs)]
            for t, count in zip(splits(theirs, rules), mix, strict=True):
                if count:
                    result = compare(s, t, rules)
                    p = Fraction(n * count, 20475 * rounds)
                    win += p if result is Outcome.WIN else 0
                    lose += p if result is Outcome.LOSE else 0
        out.append((win, lose))
    return out


def test_physical_helper() -> None:
    assert {c.label for c in physical(hand("RQ RQ R3 JK"))} == {"♥Q", "♦Q", "♥3", "JOKER"}


@pytest.mark.parametrize(("preset", "text"), [
    ("xuanjing", "RQ R2 RQ B4"),
    ("xuanjing", "RQ R6 R7 B9"),
    ("app", "R2 B9 R3 JK"),  # 地王 ranks only under `app`
])
def test_brute_force_matches_table(preset: str, text: str) -> None:
    rules = get_rules(preset)
    kinds = hand(text)
    advice = advise(kinds, rules)
    for a, (win, lose) in zip(advice.splits, brute_force(kinds, rules), strict=True):
        assert a.p_win == pytest.approx(float(win), abs=1e-9)
        assert a.p_lose == pytest.approx(float(lose), abs=1e-9)
        assert a.ev == pytest.approx(float(win - lose), abs=1e-9)


@pytest.mark.parametrize(("text", "head", "tail"), SEED_SPLITS)
def test_seed_splits(text: str, head: str, tail: str) -> None:
    """The advisor's view of each split a seed chose: computed, and its place among the three
    agrees with an independent brute-force count."""
    rules = get_rules("xuanjing")
    kinds = hand(text)
    advice = advise(kinds, rules)
    chosen = Split.of(Group.parse(head), Group.parse(tail), rules)
    options = [a.split for a in advice.splits]
    assert chosen in options
    i = options.index(chosen)
    evs = [a.ev for a in advice.splits]
    place = sorted(evs, reverse=True).index(evs[i])  # 0: best
    exact = [float(w - lo) for w, lo in brute_force(kinds, rules)]
    assert sorted(exact, reverse=True).index(exact[i]) == place
    assert evs[i] == pytest.approx(exact[i], abs=1e-9)
    # a chosen split that dominates another (头 and 尾 both ≥) is never worse
    for j, other in enumerate(options):
        if (chosen.head.rank(rules) >= other.head.rank(rules)
                and chosen.tail.rank(rules) >= other.tail.rank(rules)):
            assert evs[i] >= evs[j]


def test_seed_example_findings() -> None:
    """Facts that follow from dominance alone, whatever the opponent does."""
    rules = get_rules("xuanjing")
    # 甲's 天牌一对 + 地官六 dominates: RQ-R2/RQ-B4 has a weaker 头 and 尾
    advice = advise(hand("RQ R2 RQ B4"), rules)
    assert advice.splits[advice.best].split.head == Group.parse("RQ RQ")
    # 003 ex. 1: a's 天杠 + 九点 beats b's 地杠 + 八点 in both groups
    a = Split.of(Group.parse("RQ B8"), Group.parse("B4 B5"), rules)
    b = Split.of(Group.parse("R2 B8"), Group.parse("R4 B4"), rules)
    assert compare(a, b, rules) is Outcome.WIN


# --------------------------------------------------------------------------- invariants


@pytest.mark.parametrize("preset", PRESETS)
def test_table_invariants(preset: str) -> None:
    rules = get_rules(preset)
    table = load_table(rules)
    hands = advisor.all_hands()
    assert len(hands) == 4285 == len(table.rows)
    assert sum(advisor.multiplicity(h) for h in hands) == 35960
    d = table.denominator
    assert d == table.rounds * 20475
    best_total = 0
    for kinds in hands:
        row = table.rows[kinds]
        options = splits(kinds, rules)
        nets = []
        for s, w, lo in zip(options, row.wins, row.losses, strict=True):
            assert 0 <= w and 0 <= lo and w + lo <= d  # p_push ≥ 0, the three sum to 1
            nets.append(w - lo)  # so −1 ≤ EV ≤ 1
            assert -d <= w - lo <= d
            del s
        for i, a in enumerate(options):  # dominance
            for j, b in enumerate(options):
                if a.head.rank(rules) >= b.head.rank(rules) and \
                        a.tail.rank(rules) >= b.tail.rank(rules):
                    assert nets[i] >= nets[j], (kinds, i, j)
        assert sum(row.mix) == table.rounds and min(row.mix) >= 0
        best_total += advisor.multiplicity(kinds) * max(nets)
    exploitability = Fraction(best_total, 35960 * d)
    assert exploitability < Fraction(1, 1000)
    assert table.exploitability == pytest.approx(float(exploitability), abs=1e-6)
    assert "fictitious-play" in table.opponent


@pytest.mark.parametrize("preset", PRESETS)
def test_mixture_is_symmetric_zero_sum(preset: str) -> None:
    """The mixture against itself is worth exactly 0: Σ p(h) Σ σ(h,s) EV(h,s) = 0."""
    table = load_table(get_rules(preset))
    total = 0
    for kinds, row in table.rows.items():
        total += advisor.multiplicity(kinds) * sum(
            c * (w - lo) for c, w, lo in zip(row.mix, row.wins, row.losses, strict=True))
    assert total == 0


def test_opponent_weights() -> None:
    mine = hand("RQ RQ R3 B9")
    assert sum(advisor.opponent_weight(mine, o) for o in advisor.all_hands()) == 20475
    assert advisor.opponent_weight(mine, hand("RQ R2 R2 R8")) == 0
    assert advisor.opponent_weight(mine, hand("B9 R2 R2 R8")) == 2


cards = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True)


@settings(max_examples=200, deadline=None)
@given(cards=cards, preset=st.sampled_from(PRESETS))
def test_advice_invariants(cards: list[Card], preset: str) -> None:
    rules = get_rules(preset)
    kinds = tuple(c.kind for c in cards)
    advice = advise(kinds, rules)
    evs = [a.ev for a in advice.splits]
    assert advice.best == evs.index(max(evs))
    assert advice.splits[advice.naive].split == naive_split(kinds, rules)
    for a in advice.splits:
        assert -1 <= a.ev <= 1
        assert a.p_win + a.p_push + a.p_lose == pytest.approx(1, abs=1e-12)
        assert min(a.p_win, a.p_push, a.p_lose) >= 0
        assert a.ev == pytest.approx(a.p_win - a.p_lose, abs=1e-12)
    assert [a.split for a in advice.splits] == list(splits(kinds, rules))
    mix = strategy_for(kinds, rules)
    assert sum(mix) == pytest.approx(1) and min(mix) >= 0
    assert advice.exploitability < 0.001 and advice.opponent.startswith("fictitious-play")


@settings(max_examples=50, deadline=None)
@given(cards=cards)
def test_order_does_not_matter(cards: list[Card]) -> None:
    rules = get_rules("xuanjing")
    kinds = tuple(c.kind for c in cards)
    def mixture(order: tuple[Kind, ...]) -> dict[Split, float]:
        by_split: dict[Split, float] = {}
        for s, p in zip(splits(order, rules), strategy_for(order, rules), strict=True):
            by_split[s] = by_split.get(s, 0.0) + p
        return by_split

    ref_advice = advise(kinds, rules)
    ref = {a.split: a.ev for a in ref_advice.splits}
    ref_mix = mixture(kinds)
    for perm in permutations(kinds):
        advice = advise(perm, rules)
        assert {a.split: a.ev for a in advice.splits} == ref
        assert advice.splits[advice.best].ev == ref_advice.splits[ref_advice.best].ev
        assert mixture(perm) == pytest.approx(ref_mix)


def test_rules_map_to_the_preset_with_the_same_ranking() -> None:
    custom = get_rules("xuanjing").with_options(diwang=True, sanhua=False)
    assert load_table(custom) is load_table(get_rules("app"))
    assert load_table(get_rules("xuanjing").with_options(sanhua=False)).preset == "xuanjing"
    # 地王 changes the EVs
    kinds = hand("R2 B9 R8 B6")
    assert advise(kinds, custom).splits != advise(kinds, get_rules("xuanjing")).splits


def test_wrong_ranking_is_refused() -> None:
    raw = json.loads(resources.files("engine.data").joinpath("strategy-xuanjing.json")
                     .read_text("utf-8"))
    with pytest.raises(advisor.AdvisorError):
        advisor.parse_table(raw, get_rules("app"))


def test_naive_differences() -> None:
    d = naive_differences(get_rules("xuanjing"))
    assert 0 < d.hands < d.total_hands == 4285
    assert 0 < d.probability < 1 and 0 < d.mean_gain <= d.mean_gain_when_differs
    assert d.examples and all(e.gain > 0 for e in d.examples)
    assert [e.gain for e in d.examples] == sorted((e.gain for e in d.examples), reverse=True)
    for e in d.examples[:3]:
        advice = advise(e.kinds, get_rules("xuanjing"))
        assert advice.splits[advice.best].ev == pytest.approx(e.ev_best)
        assert advice.splits[advice.naive].split == e.naive


def test_builder_reproduces_committed_table(tmp_path: Path) -> None:
    """Deterministic build (≤ 10 s): the committed xuanjing table is what the builder makes."""
    pytest.importorskip("numpy")
    from engine.strategy_build import write_table

    path, result = write_table(get_rules("xuanjing"), tmp_path)
    committed = resources.files("engine.data").joinpath("strategy-xuanjing.json")
    assert path.read_text("utf-8") == committed.read_text("utf-8")
    assert result.exploitability < Fraction(1, 1000)


# --------------------------------------------------------------------------- CLI


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_cli_split_json() -> None:
    out = run("split", "RQ", "R6", "R7", "B9", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) >= {"cards", "splits", "best", "naive", "sanhua", "opponent",
                           "exploitability"}
    assert report["cards"] == ["RQ", "R6", "R7", "B9"]
    assert len(report["splits"]) == 3
    for s in report["splits"]:
        assert set(s) >= {"head", "tail", "ev", "p_win", "p_push", "p_lose"}
        assert set(s["head"]) >= {"cards", "name", "rank"}
        assert s["p_win"] + s["p_push"] + s["p_lose"] == pytest.approx(1)
    evs = [s["ev"] for s in report["splits"]]
    assert report["best"] == evs.index(max(evs))
    advice = advise(hand("RQ R6 R7 B9"), get_rules("xuanjing"))
    assert evs == [a.ev for a in advice.splits]
    assert report["opponent"] == advice.opponent
    assert report["exploitability"] < 0.001


def test_cli_split_stdin_and_rules() -> None:
    out = run("split", "--json", "--rules", "app", stdin="R2 B9 R8 B6\n\nRQ RQ R2 R2\n")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["cards"] for r in lines] == [["R2", "B9", "R8", "B6"], ["RQ", "RQ", "R2", "R2"]]
    app = advise(hand("R2 B9 R8 B6"), get_rules("app"))
    assert [s["ev"] for s in lines[0]["splits"]] == [a.ev for a in app.splits]


def test_cli_split_text() -> None:
    out = run("split", "R10", "B10", "BJ", "R2")
    assert out.returncode == 0, out.stderr
    assert "期望" in out.stdout and "吃" in out.stdout and "走" in out.stdout
    assert "死" in out.stdout and "三花十" in out.stdout and "可利用度" in out.stdout


@pytest.mark.parametrize(("args", "stdin"), [
    (("split", "RQ", "RQ", "RQ", "B4", "--json"), ""),
    (("split", "RQ", "XX", "R7", "B9"), ""),
    (("split", "--json"), "RQ R6 R7\n"),
    (("build-strategy", "--rules", "nope"), ""),
])
def test_cli_bad_input(args: tuple[str, ...], stdin: str) -> None:
    out = run(*args, stdin=stdin)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr
