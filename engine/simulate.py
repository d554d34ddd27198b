"""Bot-only sessions: ``python -m engine simulate --hands N --bots strong,simple``."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from .bots import warm
from .game import BOT_LEVELS, Act, Action, Game, Phase, is_probe
from .players import bot_action
from .rules import Rules, RulesError


@dataclass(frozen=True)
class BotResult:
    name: str
    level: str
    net: int
    mean: float  # per hand
    ci95: float  # half-width of the 95 % interval of the mean
    rebuys: int


class Actor(Protocol):
    """How a player acts: :func:`engine.players.bot_action`'s signature."""

    def __call__(self, game: Game, seat: int, rng: random.Random) -> Action: ...


ENDINGS = ("fold", "xiu", "showdown")  # folded out, 休过河, reached the showdown


@dataclass(frozen=True)
class SimResult:
    hands: int
    seconds: float
    bots: tuple[BotResult, ...]
    endings: dict[str, int]  # hands by how they ended (ENDINGS)
    rotations: int = 1  # times each deal was played (duplicate: one per seat)

    @property
    def played(self) -> int:
        return self.hands * self.rotations

    @property
    def hands_per_second(self) -> float:
        return self.played / self.seconds if self.seconds else math.inf

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands, "rotations": self.rotations, "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "bots": [{"name": b.name, "level": b.level, "net": b.net,
                      "mean_per_hand": round(b.mean, 4), "ci95": round(b.ci95, 4),
                      "rebuys": b.rebuys} for b in self.bots],
            "endings": dict(self.endings),
        }


def parse_bots(text: str) -> list[str]:
    levels = [x.strip().lower() for x in text.split(",") if x.strip()]
    for lv in levels:
        if lv not in BOT_LEVELS and not is_probe(lv):
            raise RulesError(f"unknown bot level {lv!r} (use {', '.join(BOT_LEVELS)}"
                             ", or a probe: always-qiao, always-call, min-raise, "
                             "fold-to-bet, top-N)")
    if not 2 <= len(levels) <= 8:
        raise RulesError("give 2 to 8 bots, e.g. --bots strong,simple")
    return levels


def rebuy_empty(game: Game) -> list[int]:
    """Re-buy (the later 钵钵) every seat whose 钵钵 is empty; the seats that re-bought."""
    empty = [i for i, seat in enumerate(game.seats) if seat.bobo <= 0]
    for i in empty:
        game.apply(Action(Act.REBUY, i, game.rules.stakes.later_bobo))
    return empty


def play_hand(game: Game, choose: Callable[[Game, int], Action]) -> None:
    """Deal the next hand and play it to its end, each seat acting by ``choose(game, seat)``."""
    game.apply(Action(Act.DEAL))
    while game.phase is not Phase.BETWEEN:
        actor = game.to_act
        assert actor is not None
        game.apply(choose(game, actor))


def refill(game: Game) -> None:
    """Set every seat's 钵钵 back to the first 钵钵 (chips bought or cashed out to do so
    count in ``bought``, so each seat's net is unchanged)."""
    for seat in game.seats:
        seat.bought += game.rules.stakes.first_bobo - seat.bobo
        seat.bobo = game.rules.stakes.first_bobo


def simulate(levels: Sequence[str], hands: int, seed: int = 0,
             rules: Rules | None = None, fresh: bool = False,
             duplicate: bool = False,
             on_deal: Callable[[list[float]], None] | None = None,
             act: Actor = bot_action) -> SimResult:
    """Play ``hands`` hands with one bot per level; bots re-buy when their 钵钵 empties.
    ``fresh``: every hand starts with every 钵钵 at the first 钵钵 (:func:`refill`), so
    stacks do not drift (a fixed depth; lower variance). ``duplicate`` (implies
    ``fresh``): every deal is played once in each rotation of the seating, at tables of
    one seed and one first 挡家, so that every player holds every seat's cards once (as
    in duplicate bridge); a player's result on a deal is its mean over the rotations, so
    part of the luck of the cards cancels and ``hands`` counts deals; rotation 0 deals
    what the plain run of the seed deals. Each hand of a duplicate run draws the bots'
    random choices afresh from (seed, rotation, deal), so two runs whose bots differ
    in one spot play every deal that never meets it alike (paired comparisons,
    ``scripts/compare_bots.py``). ``on_deal``: called after every deal with each
    player's result on it (in ``levels`` order). ``act(game, seat, rng)``: how a player
    acts (:func:`engine.players.bot_action`; a caller may watch the decisions, as
    ``scripts/reply_gains.py`` does)."""
    rules = rules or Rules()
    if hands < 1:
        raise RulesError("play at least one hand")
    warm(rules)
    n = len(levels)
    # strong1, simple2; a probe ending in a digit gets a "#": top-25#3, not top-253
    names = [f"{lv}{'#' if lv[-1].isdigit() else ''}{i + 1}" for i, lv in enumerate(levels)]
    rotations = n if duplicate else 1
    fresh = fresh or duplicate
    # in rotation r, player i sits at seat (i + r) % n: seat s holds player (s - r) % n
    tables = [Game.new([(names[(s - r) % n], levels[(s - r) % n]) for s in range(n)],
                       rules, seed) for r in range(rotations)]
    rng = random.Random(seed)
    sums = [0.0] * n
    squares = [0.0] * n
    nets = [0] * n
    rebuys = [0] * n
    endings = dict.fromkeys(ENDINGS, 0)
    start = time.perf_counter()
    for k in range(hands):
        got = [0.0] * n
        for r, game in enumerate(tables):
            if duplicate:
                rng = random.Random(f"{seed}:{r}:{k}")
            if fresh:
                refill(game)
            for s in rebuy_empty(game):
                rebuys[(s - r) % n] += 1
            before = [seat.net for seat in game.seats]
            play_hand(game, partial(act, rng=rng))
            result = game.history[-1].result
            assert result is not None
            # everyone declaring 三花 still reached the showdown
            endings["showdown" if result.how == "sanhua" else result.how] += 1
            for s, seat in enumerate(game.seats):
                got[(s - r) % n] += (seat.net - before[s]) / rotations
            # keep memory flat over long runs
            game.state.history.clear()
            game.state.log.clear()
        for i, d in enumerate(got):
            sums[i] += d
            squares[i] += d * d
        if on_deal is not None:
            on_deal(got)
    seconds = time.perf_counter() - start
    for r, game in enumerate(tables):
        for s, seat in enumerate(game.seats):
            nets[(s - r) % n] += seat.net
    results = [BotResult(names[i], levels[i], nets[i], *interval(sums[i], squares[i], hands),
                         rebuys[i]) for i in range(n)]
    return SimResult(hands, seconds, tuple(results), endings, rotations)


def interval(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of ``n`` figures from their sum and the sum of their squares, and the
    half-width of its 95 % interval."""
    mean = total / n
    var = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def interval_of(xs: Sequence[float]) -> tuple[float, float]:
    """:func:`interval` of the figures ``xs``."""
    return interval(sum(xs), sum(x * x for x in xs), len(xs))


def report_text(result: SimResult) -> str:
    lines = [f"{result.played} 手，{result.seconds:.1f} 秒，每秒 {result.hands_per_second:.0f} 手"]
    if result.rotations > 1:
        lines.append(f"复式：{result.hands} 副牌，每副轮换座位打 {result.rotations} 次，"
                     "每手的数是一副牌各次的平均")
    width = max(10, *(len(b.name) for b in result.bots))
    for b in result.bots:
        # one deal gives no spread to measure: no interval rather than "± 0.000"
        spread = (f" ± {b.ci95:.3f} (95%)" if result.hands > 1 else
                  "（只一副牌，没有区间）" if result.rotations > 1 else "（只一手，没有区间）")
        lines.append(f"{b.name:<{width}} 净 {b.net:+8d}  每手 {b.mean:+.3f}{spread}"
                     f"  添钵 {b.rebuys}")
    words = {"fold": "甩得只剩一家", "xiu": "休过河", "showdown": "比牌"}
    lines.append("结局：" + "，".join(
        f"{words[k]} {v}（{v / result.played:.1%}）" for k, v in result.endings.items()))
    return "\n".join(lines)
