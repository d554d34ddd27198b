"""``python -m engine``: the engine's command line (a stable contract).

Every subcommand prints readable Chinese by default and exact JSON with ``--json``.
Bad input exits with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .advisor import AdvisorError, advise
from .cards import CardError, parse_kinds
from .game import Act, ActionError
from .groups import Group, ranked
from .hands import Split, parse_hand, sanhua
from .numbers import MAX_DIGITS, NumberError, parse_int
from .review import WORLDS, ReviewError, decision_json, review
from .rules import Rules, RulesError, get_rules
from .settle import Seat, SettleError, settle
from .showdown import SAMPLES, Pricing, ShowdownError, parse_situation, price, pricing_json


class InputError(ValueError):
    """Bad input from the command line or stdin."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def group_json(group: Group, rules: Rules) -> dict[str, Any]:
    names = group.names()
    return {
        "cards": [k.code for k in group.kinds],
        "name": names.name,
        "aliases": [a.name for a in names.aliases],
        "category": group.category(rules).value,
        "points": group.points_or_none(rules),
        "rank": group.rank(rules),
        "pinyin": names.pinyin or "",
    }


def _brief(group: Group, rules: Rules) -> dict[str, Any]:
    return {"cards": [k.code for k in group.kinds], "name": group.names().name,
            "rank": group.rank(rules)}


def catalogue(rules: Rules, as_json: bool) -> str:
    groups = ranked(rules)
    if as_json:
        return json.dumps([group_json(g, rules) for g in groups], ensure_ascii=False)
    lines = []
    for g in groups:
        names = g.names()
        alias = f"（又名 {'、'.join(a.name for a in names.aliases)}）" if names.aliases else ""
        label = names.name or f"{g.display_name()}（无传统名称）"
        lines.append(f"{g.rank(rules):>3}  {g.high.code:>3} {g.low.code:<3}  "
                     f"{g.category(rules).label:<3}  {label}{alias}")
    return "\n".join(lines)


def split_report(codes: Sequence[str] | str, rules: Rules) -> dict[str, Any]:
    """The three splits with their exact EV and 吃/走/死 odds (see :mod:`engine.advisor`)."""
    kinds = parse_hand(codes)
    advice = advise(kinds, rules)
    return {
        "cards": [k.code for k in kinds],
        "splits": [
            {"head": _brief(a.split.head, rules), "tail": _brief(a.split.tail, rules),
             "ev": a.ev, "p_win": a.p_win, "p_push": a.p_push, "p_lose": a.p_lose}
            for a in advice.splits
        ],
        "best": advice.best,
        "naive": advice.naive,
        "sanhua": sanhua(kinds, rules),
        "opponent": advice.opponent,
        "exploitability": advice.exploitability,
    }


def _split_text(report: dict[str, Any]) -> str:
    lines = [f"手牌 {' '.join(report['cards'])}"]
    listed: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for i, s in enumerate(report["splits"]):
        # a hand holding two cards of one kind pairs up the same two groups twice: list once
        key = (tuple(s["head"]["cards"]), tuple(s["tail"]["cards"]))
        if key in listed:
            continue
        listed.add(key)
        mark = "★" if i == report["best"] else " "
        head = Group.parse(" ".join(s["head"]["cards"])).display_name()
        tail = Group.parse(" ".join(s["tail"]["cards"])).display_name()
        lines.append(f"{mark} 头 {' '.join(s['head']['cards']):<8} {head:<6} "
                     f"尾 {' '.join(s['tail']['cards']):<8} {tail:<6} 期望 {s['ev']:+.3f}  "
                     f"吃 {s['p_win']:.1%} 走 {s['p_push']:.1%} 死 {s['p_lose']:.1%}")
    best, naive = report["splits"][report["best"]], report["splits"][report["naive"]]
    if best["ev"] > naive["ev"]:
        lines.append("注：最佳分法不是“头最大”的分法"
                     f"（照头最大分，期望少 {best['ev'] - naive['ev']:.3f}）")
    if report["sanhua"]:
        lines.append(f"可报{report['sanhua']}：本手不输不赢（期望按分牌比牌计算，未计三花）")
    lines.append(f"对手模型：按接近均衡的混合策略分牌（可利用度 {report['exploitability']:.6f}）；"
                 "一对一比牌，对手从其余 28 张中随机拿 4 张")
    return "\n".join(lines)


def build_strategy(presets: Sequence[str], out: Path | None) -> list[str]:
    """Rebuild the advisor's strategy tables (needs numpy: requirements-dev.txt)."""
    try:
        from .strategy_build import DATA_DIR, write_table
    except ImportError as e:
        raise InputError(f"build-strategy needs numpy ({e}); "
                         "install requirements-dev.txt") from None
    folder = out or DATA_DIR
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise InputError(f"--out {folder}: not a folder this user can write to")
    lines = []
    for name in presets:
        path, result = write_table(get_rules(name), folder)
        lines.append(f"{path}: {result.rounds} rounds, exploitability "
                     f"{float(result.exploitability):.6f}, {result.seconds:.1f} s")
    return lines


def parse_table(data: Any) -> tuple[list[Seat], Rules]:
    """Read the ``settle`` JSON: ``{"rules": name, "seats": [...]}``."""
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        raise InputError('expected an object {"rules": ..., "seats": [...]}')
    rules = get_rules(str(data.get("rules", "xuanjing")))
    seats = []
    for i, raw in enumerate(data["seats"], 1):
        if not isinstance(raw, dict):
            raise InputError(f"seat {i}: expected an object")
        name, stake = raw.get("name"), raw.get("stake")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"seat {i}: a non-empty name is required")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
            raise InputError(f"seat {name}: stake must be a whole number ≥ 0")
        if raw.get("folded") is True:
            seats.append(Seat(name, stake, folded=True))
            continue
        if "head" not in raw and "tail" not in raw:  # the one left when all others folded
            seats.append(Seat(name, stake))
            continue
        groups = []
        for part in ("head", "tail"):
            cards = raw.get(part)
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise InputError(f"seat {name}: {part} must be a list of 2 card codes")
            if len(cards) != 2:
                raise InputError(f"seat {name}: {part} must have 2 cards, got {len(cards)}")
            groups.append(Group.of(*parse_kinds(cards)))
        split = Split.of(groups[0], groups[1], rules)
        declared = None
        if raw.get("sanhua") is True:
            declared = sanhua(split.kinds, rules)
            if declared is None:
                raise InputError(f"seat {name}: this hand cannot declare 三花")
        seats.append(Seat(name, stake, split, sanhua=declared))
    return seats, rules


def settle_report(data: Any) -> dict[str, Any]:
    seats, rules = parse_table(data)
    result = settle(seats, rules)
    out_seats = []
    for s in seats:
        entry: dict[str, Any] = {"name": s.name, "stake": s.stake, "net": result.nets[s.name]}
        if s.folded:
            entry["folded"] = True
        elif s.split is not None:
            entry["head"] = _brief(s.split.head, rules)
            entry["tail"] = _brief(s.split.tail, rules)
            if s.sanhua:
                entry["sanhua"] = s.sanhua
        out_seats.append(entry)
    return {
        "rules": rules.name,
        "seats": out_seats,
        "pi_to": result.pi_to,
        "order": list(result.order),
        "outcomes": [
            {"player": a, "opponent": b, "result": o.value}
            for (a, b), o in result.outcomes.items()
        ],
        "transfers": [
            {"from": t.source, "to": t.to, "amount": t.amount, "reason": t.reason,
             "entitled": t.entitled, "available": t.available, "limited_by": t.limited_by}
            for t in result.transfers
        ],
        "returned": result.returned,
    }


def _settle_text(report: dict[str, Any]) -> str:
    lines = [f"比牌顺序（尾大先）：{' > '.join(report['order'])}；吃皮：{report['pi_to']}"]
    for t in report["transfers"]:
        why = "吃" if t["reason"] == "beat" else "吃皮"
        cap = {"stake": "以自己的下注为限", "left": "对方只剩这么多",
               "shared": "头尾一样大，平分"}[t["limited_by"]]
        lines.append(f"{t['to']} {why} {t['from']} {t['amount']}（{cap}）")
    for name, amount in report["returned"].items():  # as the /calc/ page says it
        lines.append(f"{name} 的皮还剩 {amount}：没有人够资格再拿（每人最多拿自己下的数），"
                     f"退回给 {name}")
    for s in report["seats"]:
        lines.append(f"{s['name']}: {s['net']:+d}")
    return "\n".join(lines)


def _showdown_text(report: dict[str, Any], pricing: Pricing, seed: int) -> str:
    lines = []
    for i, o in enumerate(report["options"]):
        mark = "★" if i == report["best"] else " "
        what = ("报三花" if o.get("sanhua") else
                f"头 {' '.join(o['head']):<8} 尾 {' '.join(o['tail']):<8}")
        err = f" ± {o['stderr']:.2f}" if o["stderr"] else ""
        lines.append(f"{mark} {what} 期望 {o['ev']:+.2f}{err} 筹码")
    counted = (f"精确计算 {pricing.deals} 种暗牌组合" if pricing.exact else
               f"抽样 {pricing.deals} 副牌（种子 {seed}）")
    lines.append(f"模型：{counted}；对手的暗牌取自没见过的牌，按分牌建议的均衡混合策略分牌，"
                 "不报三花；按真实规则结算")
    return "\n".join(lines)


def _review(data: Any, worlds: int, seed: int, as_json: bool) -> str:
    """``{"config", "log", "seat"}`` (a session's ``game.state``): the last hand reviewed."""
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict) or not \
            isinstance(data.get("log"), list):
        raise InputError('expected an object {"config": {...}, "log": [...], "seat": n}')
    seat = data.get("seat", 0)
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InputError("seat must be a whole number")
    try:
        decisions = review(data["config"], data["log"], seat, worlds, seed)
    except (ReviewError, ActionError, RulesError) as e:
        raise InputError(str(e)) from None
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise InputError(f"not a practice hand's export: {e!r}") from None
    report = [decision_json(d) for d in decisions]
    if as_json:
        return json.dumps({"decisions": report}, ensure_ascii=False)
    lines = []
    for d in report:
        labels = [Act(o["kind"]).label + (f" {o['amount']}" if "amount" in o else "")
                  for o in d["options"]]
        # The loss is the rival's chips minus the choice's, on the same worlds: below 0
        # the choice did better (README "Decisions priced").
        rival = labels[d.get("rival", d["best"])]
        if d["loss"] < 0:
            low, high = -d["high"], -d["low"]
            versus = f"比“{rival}”多赢 {-d['loss']:.1f}"
        else:
            low, high = d["low"], d["high"]
            versus = f"比“{rival}”少赢 {d['loss']:.1f}"
        if d["exact"]:  # every world counted: no interval, no error
            lines.append(f"第 {d['round']} 轮：{d['grade']}（{versus}，精确；"
                         f"比到底赢 {100 * d['win']:.0f}%）")
        else:
            lines.append(f"第 {d['round']} 轮：{d['grade']}（{versus}，95% 区间 "
                         f"{low:.1f} 到 {high:.1f}；比到底赢 {100 * d['win']:.0f}% ± "
                         f"{100 * d['win_stderr']:.0f}%）")
        for i, o in enumerate(d["options"]):
            mark = "★" if i == d["best"] else "→" if i == d["chosen"] else " "
            error = f"± {o['stderr']:.1f}" if o["stderr"] or not d["exact"] else "精确"
            lines.append(f"  {mark} {labels[i]} 期望 {o['ev']:+.1f} {error}")
        top = max(range(len(d["options"])), key=lambda i: d["options"][i]["ev"])
        if round(d["options"][top]["ev"], 1) > round(d["options"][d["best"]]["ev"], 1):
            lines.append(f"  注：比较用的“{rival}”是在另一批牌局上挑出来的。在这张表的牌局上"
                         f"“{labels[top]}”的平均数更高，但在同一批牌局上挑出来的最高数总会偏高，"
                         "所以不拿它来比。")
    return "\n".join(lines)


MAX_SAMPLES = 100_000  # showdown --samples: about 8 s of one core with five opponents
MAX_WORLDS = 2_000  # review --worlds: about 20 × the default review
MAX_HANDS = 100_000  # simulate --hands


def _json_int(text: str) -> int:
    try:
        return parse_int(text, -10**MAX_DIGITS, 10**MAX_DIGITS)
    except NumberError:
        raise InputError(f"a number on stdin has more than {MAX_DIGITS} digits") from None


def _stdin_json() -> Any:
    """The JSON on stdin; its whole numbers through :func:`~engine.numbers.parse_int`."""
    try:
        return json.load(sys.stdin, parse_int=_json_int)
    except json.JSONDecodeError as e:
        raise InputError(f"broken JSON on stdin: {e.msg} (line {e.lineno})") from None
    except RecursionError:
        raise InputError("the JSON on stdin is nested too deeply") from None


def _count(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ``low … high`` (else a one-line usage error)."""

    def count(text: str) -> int:
        try:
            return parse_int(text, low, high)
        except NumberError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low} "
                                             f"to {high}") from None

    return count


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m engine", description="扯旋 rules engine")
    as_json = _Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="exact JSON output")
    common = _Parser(add_help=False, parents=[as_json])
    common.add_argument("--rules", default="xuanjing", help="rule set: xuanjing (default) or app")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("catalogue", parents=[common], help="all 151 two-card groups, strongest first")
    p_split = sub.add_parser("split", parents=[common], help="the three splits of a hand")
    p_split.add_argument("cards", nargs="*", help="four card codes; none: one hand per stdin line")
    sub.add_parser("settle", parents=[common], help="settle a showdown read as JSON from stdin")
    p_show = sub.add_parser("showdown", parents=[common],
                            help="expected chips of every split at a showdown read as JSON")
    p_show.add_argument("--samples", type=_count(1, MAX_SAMPLES), default=SAMPLES,
                        help=f"deals sampled when enumeration is too big (default {SAMPLES}, "
                        f"at most {MAX_SAMPLES})")
    p_show.add_argument("--seed", type=int, default=0, help="random seed of the sampling")
    # review has no --rules: the hand is replayed under the rules of its own config
    p_review = sub.add_parser("review", parents=[as_json],
                              help="price every betting decision of a practice hand (JSON; "
                              "the hand's own rules)")
    p_review.add_argument("--worlds", type=_count(1, MAX_WORLDS), default=WORLDS,
                          help=f"sampled worlds per decision (default {WORLDS}, "
                          f"at most {MAX_WORLDS})")
    p_review.add_argument("--seed", type=int, default=0, help="random seed")
    p_build = sub.add_parser("build-strategy", help="rebuild the split advisor's strategy tables")
    p_build.add_argument("--rules", choices=["xuanjing", "app"], action="append",
                         help="rule preset to build (repeatable; default: both)")
    p_build.add_argument("--out", type=Path, help="directory to write to (default engine/data)")
    p_sim = sub.add_parser("simulate", parents=[common], help="bot-only hands at a table")
    p_sim.add_argument("--hands", type=_count(1, MAX_HANDS), default=1000,
                       help=f"hands to play (at most {MAX_HANDS})")
    p_sim.add_argument("--bots", default="strong,simple", help="bot levels, e.g. strong,simple")
    p_sim.add_argument("--seed", type=int, default=0, help="random seed")
    p_sim.add_argument("--fresh", action="store_true",
                       help="start every hand with every 钵钵 at the first 钵钵")
    p_sim.add_argument("--duplicate", action="store_true",
                       help="play every deal once per rotation of the seats (implies --fresh; "
                       "--hands counts deals)")
    args = parser.parse_args(argv)
    try:
        if args.command == "build-strategy":
            print("\n".join(build_strategy(args.rules or ["xuanjing", "app"], args.out)))
            return 0
        if args.command == "review":
            print(_review(_stdin_json(), args.worlds, args.seed, args.json))
            return 0
        rules = get_rules(args.rules)
        if args.command == "catalogue":
            print(catalogue(rules, args.json))
        elif args.command == "split":
            hands = [args.cards] if args.cards else [line.split() for line in sys.stdin
                                                     if line.strip()]
            for hand in hands:
                report = split_report(hand, rules)
                print(json.dumps(report, ensure_ascii=False) if args.json
                      else _split_text(report))
        elif args.command == "settle":
            data = _stdin_json()
            if isinstance(data, dict) and "rules" not in data:
                data["rules"] = args.rules
            report = settle_report(data)
            print(json.dumps(report, ensure_ascii=False) if args.json else _settle_text(report))
        elif args.command == "showdown":
            situation = parse_situation(_stdin_json(), args.rules)
            pricing = price(situation, args.samples, args.seed)
            report = pricing_json(pricing)
            print(json.dumps(report, ensure_ascii=False) if args.json
                  else _showdown_text(report, pricing, args.seed))
        elif args.command == "simulate":
            from .simulate import parse_bots, report_text, simulate

            result = simulate(parse_bots(args.bots), args.hands, args.seed, rules, args.fresh,
                              args.duplicate)
            print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json
                  else report_text(result))
    except (CardError, RulesError, SettleError, InputError, AdvisorError, ShowdownError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
