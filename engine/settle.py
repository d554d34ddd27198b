"""Settlement of a showdown with unequal stakes and folded players' 皮 (RULES.md §5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Protocol, TypeVar

from .cards import CardError, check_available
from .hands import Key, Outcome, Split, beats, compare_keys
from .rules import Rules


class SettleError(ValueError):
    """Raised for a table that cannot be settled (bad stakes, names, cards)."""


@dataclass(frozen=True)
class Seat:
    """One player at the showdown: a split, a fold (stake = 皮), or a 三花 declaration.
    The one player left when every other folded (a 揍芒, or a fold-out in a later round)
    may have no split: nothing is compared, so their cards do not matter."""

    name: str
    stake: int
    split: Split | None = None
    folded: bool = False
    sanhua: str | None = None  # "三花十" / "三花六": stake comes back, no result

    @property
    def in_showdown(self) -> bool:
        return self.split is not None and not self.folded and self.sanhua is None


@dataclass(frozen=True)
class Transfer:
    """Chips moving from a loser (or a folded 皮) to a winner, and what limited them."""

    source: str
    to: str
    amount: int
    reason: str  # "beat" (吃 the loser) or "pi" (takes from a folded 皮)
    entitled: int  # the winner's own stake: the most they may take from one player
    available: int  # what the source still had when this winner's turn came
    shared_with: tuple[str, ...] = ()  # equal 头 and 尾: what they took jointly is shared

    @property
    def limited_by(self) -> str:
        """``"stake"`` (the winner's own stake), ``"left"`` (what the source had left)
        or ``"shared"``."""
        if self.shared_with:
            return "shared"
        return "stake" if self.entitled <= self.available else "left"


@dataclass(frozen=True)
class Settlement:
    nets: dict[str, int]
    transfers: tuple[Transfer, ...]
    order: tuple[str, ...]  # showdown players by 尾 then 头, strongest first
    pi_to: str | None  # who eats the 皮 (and the 芒果 pot): the best 尾
    pi_takers: tuple[str, ...]  # the best 尾 and whoever equals it exactly: they share the 皮
    outcomes: dict[tuple[str, str], Outcome] = field(default_factory=dict)
    returned: dict[str, int] = field(default_factory=dict)  # 皮 nobody was entitled to


#: The key of a lone player who gave no cards: they are compared with nobody, so any
#: key does (RULES.md §5 then lets them take each folded 皮 up to their own stake).
ALONE_KEY: Key = (0, 0)


def settle(seats: Sequence[Seat], rules: Rules) -> Settlement:
    """Settle one hand.  Chips are conserved: the nets sum to zero."""
    _validate(seats)
    keys = {s.name: (s.split.head.rank(rules), s.split.tail.rank(rules))
            for s in seats if s.in_showdown and s.split is not None}
    alone = lone_player(seats)
    if alone is not None and alone.split is None:
        keys[alone.name] = ALONE_KEY
    return settle_ranked(seats, keys)


class _Folds(Protocol):
    @property
    def folded(self) -> bool: ...


_S = TypeVar("_S", bound=_Folds)


def lone_player(seats: Sequence[_S]) -> _S | None:
    """The one seat that did not fold when every other did (None otherwise)."""
    stayed = [s for s in seats if not s.folded]
    return stayed[0] if len(stayed) == 1 and len(seats) > 1 else None


def settle_ranked(seats: Sequence[Seat], keys: Mapping[str, Key]) -> Settlement:
    """The settlement itself, from each showdown player's (头 rank, 尾 rank) in ``keys``
    (nothing else about the cards matters).  Seats not in ``keys`` and not folded are
    三花 declarations.  No validation: :func:`settle` checks the table first."""
    players, tiers = _tiers(seats, keys)
    transfers: list[Transfer] = []
    nets, left = _run(seats, keys, players, tiers, transfers)
    return Settlement(
        nets=nets,
        transfers=tuple(transfers),
        order=tuple(s.name for s in players),
        pi_to=_pi_to(players),
        pi_takers=tuple(s.name for s in tiers[0]) if tiers else (),
        outcomes={(a.name, b.name): compare_keys(keys[a.name], keys[b.name])
                  for a in players for b in players if a is not b},
        returned={s.name: left[s.name] for s in seats if s.folded and left[s.name]},
    )


def net_ranked(seats: Sequence[Seat], keys: Mapping[str, Key], name: str, pot: int = 0
               ) -> int:
    """``settle_ranked(seats, keys).nets[name]`` without building the record (for
    pricing many showdowns), plus ``name``'s share of ``pot`` (the table's 芒果 pot) if
    ``name`` eats the 皮 (alone, or with equal best hands: :func:`pot_shares`)."""
    players, tiers = _tiers(seats, keys)
    net = _run(seats, keys, players, tiers, None)[0][name]
    if pot and tiers:
        takers = [s.name for s in tiers[0]]
        if name in takers:
            net += pot_shares(pot, len(takers))[takers.index(name)]
    return net


def _pi_to(players: Sequence[Seat]) -> str | None:
    """Who eats the 皮 (and the 芒果 pot): the best 尾, the first of ``players``."""
    return players[0].name if players else None


def _tiers(seats: Sequence[Seat], keys: Mapping[str, Key]
           ) -> tuple[list[Seat], list[list[Seat]]]:
    """The showdown players by 尾 then 头 (strongest first) and their tiers of equals."""
    players = [s for s in seats if s.name in keys and not s.folded]

    def strength(s: Seat) -> Key:
        head, tail = keys[s.name]
        return (tail, head)

    # Python's sort is stable: equal hands keep their seat order.
    players.sort(key=strength, reverse=True)
    return players, [list(g) for _, g in groupby(players, key=strength)]


def _run(seats: Sequence[Seat], keys: Mapping[str, Key], players: list[Seat],
         tiers: list[list[Seat]], record: list[Transfer] | None
         ) -> tuple[dict[str, int], dict[str, int]]:
    """Move the chips: each tier takes from those it beats, then from the 皮, in order.
    Returns the nets and what each seat has left; appends the transfers to ``record``."""
    left = {s.name: s.stake for s in seats}
    nets = dict.fromkeys((s.name for s in seats), 0)

    def take(tier: list[Seat], source: Seat, reason: str) -> None:
        available = left[source.name]
        shares = ([min(available, tier[0].stake)] if len(tier) == 1
                  else _share(available, [w.stake for w in tier]))
        names = tuple(w.name for w in tier) if len(tier) > 1 else ()
        for winner, amount in zip(tier, shares, strict=True):
            if record is not None:
                record.append(Transfer(source.name, winner.name, amount, reason, winner.stake,
                                       available, names))
            nets[winner.name] += amount
            nets[source.name] -= amount
        left[source.name] -= sum(shares)

    for tier in tiers:
        key = keys[tier[0].name]
        for loser in players:
            if beats(key, keys[loser.name]):
                take(tier, loser, "beat")
    for tier in tiers:
        for pi in seats:
            if pi.folded and left[pi.name]:
                take(tier, pi, "pi")
    return nets, left


def pot_shares(pot: int, takers: int) -> list[int]:
    """The 芒果 pot shared by the ``takers`` who ate the 皮 together, best first (RULES
    §5.4: equal best hands share what they take): evenly, the odd chips to the first."""
    each, extra = divmod(pot, takers)
    return [each + (1 if i < extra else 0) for i in range(takers)]


def _share(available: int, caps: Sequence[int]) -> list[int]:
    """Split ``min(available, sum(caps))`` as evenly as the caps allow (water-filling);
    odd chips go to the earliest seats."""
    total = min(available, sum(caps))
    shares = [0] * len(caps)
    open_ = [i for i, cap in enumerate(caps) if cap > 0]
    while total and open_:
        each, extra = divmod(total, len(open_))
        for rank_, i in enumerate(open_):
            give = min(caps[i] - shares[i], each + (1 if rank_ < extra else 0))
            shares[i] += give
            total -= give
        open_ = [i for i in open_ if shares[i] < caps[i]]
    return shares


def _validate(seats: Sequence[Seat]) -> None:
    if len(seats) < 2:
        raise SettleError("a showdown needs at least 2 seats")
    if len(seats) > 8:
        raise SettleError("at most 8 players sit at a table")
    names = [s.name for s in seats]
    if len(set(names)) != len(names) or any(not n.strip() for n in names):
        raise SettleError("every seat needs a different, non-empty name")
    for s in seats:
        if isinstance(s.stake, bool) or not isinstance(s.stake, int) or s.stake < 0:
            raise SettleError(f"{s.name}: the stake must be a whole number ≥ 0")
    alone = lone_player(seats)
    for s in seats:
        if not s.folded and s.split is None and s is not alone:
            raise SettleError(f"{s.name}: give four cards or mark the seat as folded")
        if s.sanhua is not None and s.split is None:
            raise SettleError(f"{s.name}: a 三花 declaration needs the four cards")
    if not any(s.in_showdown for s in seats) and (alone is None or alone.sanhua is not None):
        raise SettleError("nobody is left in the showdown")
    try:
        check_available(k for s in seats if s.split is not None for k in s.split.kinds)
    except CardError as e:
        raise SettleError(f"impossible table: {e}") from None
