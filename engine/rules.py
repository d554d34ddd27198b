"""Rule options and named rule sets (RULES.md §7)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal


class RulesError(ValueError):
    """Raised for an unknown rule set, option or stakes preset."""


@dataclass(frozen=True)
class Stakes:
    """A stakes preset (RULES.md §4): all amounts in chips."""

    name: str
    pi: int  # 皮, everyone's ante at risk
    opening: int  # 发招, the 挡家's forced opening bet
    raise_floor: int  # a raise goes to at least this level
    mango: int  # 芒果 per player (fixed mode)
    first_bobo: int  # minimum first 钵钵
    later_bobo: int  # minimum re-buy


STAKES: dict[str, Stakes] = {
    s.name: s
    for s in (
        Stakes("1、3", 1, 3, 10, 5, 100, 50),
        Stakes("5、10", 5, 10, 50, 10, 500, 300),
        Stakes("5、20", 5, 20, 50, 20, 1000, 500),
    )
}
_STAKES_ALIASES = {"1-3": "1、3", "5-10": "5、10", "5-20": "5、20", "1,3": "1、3",
                   "5,10": "5、10", "5,20": "5、20"}

MangoMode = Literal["fixed", "escalating"]


@dataclass(frozen=True)
class Rules:
    """One table's rule options.  Build with :func:`get_rules` or ``replace``."""

    name: str = "xuanjing"
    diwang: bool = False  # 地王 (地牌+黑9) ranks between 天九王 and 天杠
    sanhua: bool = True  # 三花十 / 三花六 may be declared for a no-result hand
    mango: MangoMode = "fixed"
    stakes: Stakes = STAKES["1、3"]
    max_seats: int = 8

    @property
    def min_seats(self) -> int:
        return 2

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def _hash(self) -> int:
        """The hash, computed once (play-outs look the rules up in their caches hundreds
        of thousands of times), of values that hash alike in every process (a pickled
        copy keeps it)."""
        s = self.stakes
        return hash((self.diwang, self.sanhua, self.max_seats, s.pi, s.opening,
                     s.raise_floor, s.mango, s.first_bobo, s.later_bobo))

    def with_options(self, **options: object) -> Rules:
        """A copy with options changed; values are checked, unknown names raise."""
        known = {"diwang", "sanhua", "mango", "stakes", "max_seats"}
        for key, value in options.items():
            if key not in known:
                raise RulesError(f"unknown rule option {key!r}")
            if key in ("diwang", "sanhua") and not isinstance(value, bool):
                raise RulesError(f"option {key} must be true or false")
            if key == "mango" and value not in ("fixed", "escalating"):
                raise RulesError("option mango must be 'fixed' or 'escalating'")
            if key == "max_seats" and (not isinstance(value, int) or not 2 <= value <= 8):
                raise RulesError("option max_seats must be between 2 and 8")
        if "stakes" in options and not isinstance(options["stakes"], Stakes):
            options["stakes"] = get_stakes(str(options["stakes"]))
        return replace(self, **options)  # type: ignore[arg-type]


PRESETS: dict[str, Rules] = {
    "xuanjing": Rules(),
    "app": Rules(name="app", diwang=True, mango="escalating", max_seats=6),
}


_SHARED: dict[Rules, Rules] = {}


def shared(rules: Rules) -> Rules:
    """The one instance of these rules that every game uses (the first one asked for):
    play-outs look the rules up in their caches, found at once by identity."""
    return _SHARED.setdefault(rules, rules)


def get_rules(name: str) -> Rules:
    """The named rule set (``xuanjing`` or ``app``); raise :class:`RulesError`."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(
            f"unknown rule set {name!r} (use one of {', '.join(PRESETS)})"
        ) from None


def get_stakes(name: str) -> Stakes:
    """A stakes preset by name (``1、3``, ``5、10``, ``5、20``; ``1-3`` also works)."""
    key = _STAKES_ALIASES.get(name.strip(), name.strip())
    try:
        return STAKES[key]
    except KeyError:
        raise RulesError(
            f"unknown stakes preset {name!r} (use one of {', '.join(STAKES)})") from None
