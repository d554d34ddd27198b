"""The engine CLI contract: JSON shapes and exit status 2 on bad input."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys

import pytest


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_catalogue_json() -> None:
    out = run("catalogue", "--json")
    assert out.returncode == 0
    groups = json.loads(out.stdout)
    assert len(groups) == 151
    keys = {"cards", "name", "aliases", "category", "points", "rank", "pinyin"}
    assert all(set(g) == keys for g in groups)
    assert sum(g["name"] is None for g in groups) == 14
    top = groups[0]
    assert top["cards"] == ["R3", "JK"] and top["name"] == "丁二皇" and top["points"] is None
    wang = next(g for g in groups if g["cards"] == ["RQ", "B9"])
    assert wang["category"] == "tianjiuwang"
    ranks = [g["rank"] for g in groups]
    assert ranks == sorted(ranks, reverse=True)


def test_catalogue_app_rules_have_diwang() -> None:
    groups = json.loads(run("catalogue", "--json", "--rules", "app").stdout)
    diwang = next(g for g in groups if g["cards"] == ["R2", "B9"])
    assert diwang["category"] == "diwang" and diwang["points"] is None


def test_catalogue_text() -> None:
    out = run("catalogue")
    assert out.returncode == 0 and "天官九" in out.stdout and "无传统名称" in out.stdout


def test_split_json_and_stdin() -> None:
    report = json.loads(run("split", "RQ", "R2", "RQ", "B4", "--json").stdout)
    assert len(report["splits"]) == 3
    assert {"head", "tail", "ev"} <= set(report["splits"][0])
    assert 0 <= report["best"] < 3
    lines = run("split", "--json", stdin="RQ R2 RQ B4\nR3 JK B9 B8\n").stdout.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["splits"] for line in lines)


def test_settle_json_either_order() -> None:
    table = {"seats": [
        {"name": "a", "stake": 50, "head": ["B4", "B5"], "tail": ["RQ", "B8"]},
        {"name": "b", "stake": 200, "head": ["R2", "B8"], "tail": ["R4", "B4"]},
        {"name": "c", "stake": 10, "folded": True},
    ]}
    out = run("settle", "--json", stdin=json.dumps(table))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["pi_to"] == "a"
    nets = {s["name"]: s["net"] for s in report["seats"]}
    assert nets == {"a": 60, "b": -50, "c": -10}
    assert report["seats"][0]["head"]["cards"] == ["RQ", "B8"]


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("split", "RQ", "R2", "XX", "B4"), ""),
        (("split", "RQ", "R2", "B4"), ""),
        (("split", "RQ", "RQ", "RQ", "B4"), ""),
        (("split", "--json"), "RQ R2\n"),
        (("catalogue", "--rules", "vegas"), ""),
        (("settle", "--json"), "{broken"),
        (("settle", "--json"), "[]"),
        (("settle", "--json"), '{"seats": [{"name": "a", "stake": -5, "folded": true}]}'),
        (("settle", "--json"), '{"rules": "nope", "seats": []}'),
        (("settle", "--json"), json.dumps({"seats": [
            {"name": "a", "stake": 5, "head": ["RQ", "RQ"], "tail": ["B4", "B5"]},
            {"name": "b", "stake": 5, "head": ["RQ", "B8"], "tail": ["R4", "B4"]}]})),
        (("settle", "--json"), json.dumps({"seats": [
            {"name": "a", "stake": 5, "head": ["RQ"], "tail": ["B4", "B5"]},
            {"name": "b", "stake": 5, "folded": True}]})),
        (("settle", "--json"), json.dumps({"seats": [
            {"name": "a", "stake": "5", "folded": True}]})),
    ],
)
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], stdin: str) -> None:
    out = run(*args, stdin=stdin)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@functools.cache
def _hostile_inputs() -> list[tuple[tuple[str, ...], str]]:
    """Issue 21 §8: each of these was a traceback (exit 1), a hang or an exit 0."""
    from tests.test_review import export
    from tests.test_showdown import ONE

    hand = export()
    huge = "1" + "0" * 5000
    nested = "[" * 100_000 + "]" * 100_000
    config = hand["config"]
    return [
        *[((command,), nested) for command in ("settle", "showdown", "review")],
        (("settle",), json.dumps({"seats": [{"name": "a", "stake": 1, "folded": True}]}
                              ).replace('"stake": 1', f'"stake": {huge}')),
        (("showdown",), json.dumps(ONE).replace('"stake": 20', f'"stake": {huge}', 1)),
        (("review",), json.dumps(hand)[:-1] + f', "extra": {huge}}}'),
        (("showdown",), json.dumps({**ONE, "me": {**ONE["me"], "stake": 10**400},
                                    "opponents": [{**o, "stake": 10**400}
                                                  for o in ONE["opponents"]]})),
        (("review",), json.dumps({**hand, "config": {**config, "rules": "x"}})),
        (("review",), json.dumps({**hand, "config": {**config, "bobo": [10**300] * 3}})),
        (("review", "--worlds", "5"), json.dumps({**hand, "config": {**config, "players": [
            [name, bot and "godlike"] for name, bot in config["players"]]}})),
        (("build-strategy", "--out", "/nonexistent/folder"), ""),
        (("showdown", "--samples", "100000000"), json.dumps(ONE)),
        (("review", "--worlds", "10000000"), json.dumps(hand)),
        (("simulate", "--hands", "1000000000"), ""),
    ]


@pytest.mark.parametrize("case", range(14))
def test_hostile_input_exits_2_with_one_line_quickly(case: int) -> None:
    args, stdin = _hostile_inputs()[case]
    out = subprocess.run([sys.executable, "-m", "engine", *args], input=stdin,
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 2, (args, out.stderr[-300:])
    assert out.stdout == "" and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("error: ")


def test_text_output_speaks_chinese() -> None:
    """The default (text) output is Chinese: the split's opponent model and the
    showdown's model were English sentences in the middle of it."""
    split = run("split", "RQ", "R6", "R7", "B9")
    assert split.returncode == 0
    assert "对手模型：按接近均衡的混合策略分牌（可利用度 0.0009" in split.stdout
    assert "fictitious" not in split.stdout and "exploitability" not in split.stdout
    spot = {"me": {"cards": ["RQ", "R6", "R7", "B9"], "stake": 20},
            "opponents": [{"visible": ["B10", "R8"], "stake": 20}], "folded": [3, 10]}
    show = run("showdown", stdin=json.dumps(spot))
    assert show.returncode == 0
    assert "模型：精确计算 325 种暗牌组合；" in show.stdout
    assert "exact" not in show.stdout and "settlement" not in show.stdout
    sampled = run("showdown", "--samples", "50", "--seed", "3",
                  stdin=json.dumps({**spot, "opponents": [
                      {"visible": ["B10", "R8"], "stake": 20}, {"visible": ["B4", "B7"],
                                                                "stake": 15},
                      {"visible": ["R2", "JK"], "stake": 60}]}))
    assert "模型：抽样 50 副牌（种子 3）；" in sampled.stdout
    # --json keeps the exact English model for programs
    assert "exact over 325" in json.loads(run("showdown", "--json",
                                              stdin=json.dumps(spot)).stdout)["model"]


def test_review_text_names_the_rival() -> None:
    """The loss is the rival's chips minus the choice's: a negative one read '少赢 -7.0'."""
    from tests.test_review import export

    out = run("review", "--worlds", "20", stdin=json.dumps(export()))
    assert out.returncode == 0, out.stderr
    heads = [line for line in out.stdout.splitlines() if line.startswith("第 ")]
    assert heads and all(re.search(r"（比“[^”]+”(多|少)赢 \d", h) for h in heads), heads
    assert "少赢 -" not in out.stdout and "多赢 -" not in out.stdout
    report = json.loads(run("review", "--json", "--worlds", "20",
                            stdin=json.dumps(export())).stdout)["decisions"]
    assert all(("多赢" if d["loss"] < 0 else "少赢") in h
               for d, h in zip(report, heads, strict=True))
    assert any(d["loss"] < 0 for d in report) and any(d["loss"] > 0 for d in report)


def test_review_takes_no_rules_flag() -> None:
    """review replays the hand under its own config's rules: --rules was accepted and
    ignored; it is now a usage error."""
    from tests.test_review import export

    out = run("review", "--rules", "app", stdin=json.dumps(export()))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: unrecognized arguments: --rules")


def test_closed_pipe_is_no_traceback() -> None:
    """`python -m engine … | head` closed stdout early: BrokenPipeError's traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "engine", "split", "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write("RQ R2 R4 B4\n" * 400)
    proc.stdin.close()
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_simulate_names_and_one_hand() -> None:
    """A probe ending in a digit read as another probe (top-25 in seat 4: 'top-254'), and
    one hand printed '± 0.000' as if its mean were certain."""
    out = run("simulate", "--hands", "1", "--bots", "strong,top-25,simple")
    assert out.returncode == 0, out.stderr
    assert "top-25#2 " in out.stdout and "strong1 " in out.stdout and "simple3 " in out.stdout
    assert "± 0.000" not in out.stdout and out.stdout.count("（只一手，没有区间）") == 3
    names = [b["name"] for b in json.loads(run("simulate", "--json", "--hands", "2", "--bots",
                                                "strong,top-25").stdout)["bots"]]
    assert names == ["strong1", "top-25#2"]
    assert "(95%)" in run("simulate", "--hands", "2").stdout


def test_settle_text_says_what_goes_back() -> None:
    """The text left out the 皮 nobody could take: 丙's 60 of 100 went back unsaid."""
    table = {"seats": [
        {"name": "甲", "stake": 10, "head": ["RQ", "RQ"], "tail": ["R3", "JK"]},
        {"name": "乙", "stake": 30, "head": ["R2", "R7"], "tail": ["BJ", "B8"]},
        {"name": "丙", "stake": 100, "folded": True}]}
    out = run("settle", stdin=json.dumps(table))
    assert out.returncode == 0, out.stderr
    assert "丙 的皮还剩 60：没有人够资格再拿（每人最多拿自己下的数），退回给 丙" in out.stdout
    assert "丙: -40" in out.stdout


def test_split_text_lists_a_pairing_of_the_same_groups_once() -> None:
    """RQ R2 RQ B4 pairs up 天官六 / 天地公子 twice (the two 天 cards swap): the text
    listed that split twice; the JSON keeps all three pairings (its indices)."""
    out = run("split", "RQ", "R2", "RQ", "B4")
    assert out.returncode == 0
    assert out.stdout.count("天官六") == 1 and out.stdout.count("★") == 1
    assert len(json.loads(run("split", "RQ", "R2", "RQ", "B4", "--json").stdout)["splits"]) == 3


def test_settle_the_one_left_alone_without_cards() -> None:
    """Everyone but 甲 folded: 甲 needs no cards (nothing is compared); two players
    without cards are refused (exit 2)."""
    table = {"seats": [
        {"name": "甲", "stake": 3},
        {"name": "乙", "stake": 1, "folded": True},
        {"name": "丙", "stake": 8, "folded": True}]}
    out = run("settle", "--json", stdin=json.dumps(table))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert {s["name"]: s["net"] for s in report["seats"]} == {"甲": 4, "乙": -1, "丙": -3}
    assert report["pi_to"] == "甲" and report["returned"] == {"丙": 5}
    text = run("settle", stdin=json.dumps(table))
    assert text.returncode == 0, text.stderr
    table["seats"][1] = {"name": "乙", "stake": 1}
    assert run("settle", "--json", stdin=json.dumps(table)).returncode == 2
