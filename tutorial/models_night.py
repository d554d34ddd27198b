"""Game-night scorekeeper: a night, its event log, and the state derived from it.

A night is stored as its settings plus an append-only list of events (a hand, a
re-buy, a player leaving, a player who left coming back).  Everything else — 钵钵,
dealer, 芒果 due, the pot, the 圈芒 orbit, the hand's record — follows from the events
(:meth:`NightState.apply`).
Each event row stores the night's state after it (``after``, written in the same
transaction as the event, by :meth:`Night.add_event`), so a page reads the latest row
and the hands it shows, never the whole night (issue 21 §4), and undoing the last entry
is still just deleting the last event: the state is then the one stored with the event
before.  :func:`rebuilt` derives the states from the events alone (the migration that
added them; the tests check that both agree).

Decisions (RULES.md §4 and §6, 000's 积分制):

* 芒果 is charged at the start of the hand it belongs to: after a 揍芒 every player
  but the one left alone pays, after a 休芒 everybody pays; the pot (芒果 plus any
  皮 left by a 休过河) goes to whoever eats the 皮 of a hand with a result.
* 圈芒: the first hand recorded at or after the agreed end time starts one last
  orbit.  Every hand of the orbit everybody pays 芒果 once (a 揍芒 or 休芒 adds no
  extra charge and keeps the same dealer).  The player who deals the first orbit
  hand (起头) also deals the last (扫尾, as 000 describes it), so with N players
  the orbit is N + 1 hands that end with a result; ``QUAN_STARTER_DEALS_LAST``
  switches to exactly N hands.
* A player with an empty 钵钵 must re-buy (at least the later-钵钵 minimum) or
  leave before the next hand is recorded.
* A player who left keeps their 钵钵 and their result, and may come back (``back``)
  with that 钵钵, no re-buy, to their own seat; the deal reaches them when it next
  comes round to their seat.  An empty 钵钵 comes back through a re-buy.
* A 圈芒 starter who is away when the deal comes back round to them for the closing
  hand (扫尾) ends the orbit (:attr:`NightState.quan_over`) — unless they come back,
  then they deal it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from decimal import ROUND_DOWN, Decimal
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import models
from django.utils import timezone

from engine.mango import Mango, mango_amount, mango_payers
from engine.rules import Rules, get_rules
from engine.settle import pot_shares
from tutorial.language import listing

QUAN_STARTER_DEALS_LAST = True
CENT = Decimal("0.01")

HAND_KINDS = ("show", "zou", "xiu")  # a hand with a result / 揍芒 / 休芒


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Night(models.Model):
    """One evening of 扯旋.  ``token`` edits, ``view_token`` only reads."""

    token = models.CharField(max_length=40, unique=True, default=new_token)
    view_token = models.CharField(max_length=40, unique=True, default=new_token)
    title = models.CharField(max_length=60, blank=True)
    players = models.JSONField(default=list)  # names in seat order (counterclockwise)
    stakes = models.CharField(max_length=8, default="1、3")
    rules_name = models.CharField(max_length=16, default="xuanjing")
    starting_bobo = models.PositiveIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    end_at = models.DateTimeField()
    # The zone the night's times are entered and shown in (an IANA name; the creator's
    # browser zone, or the one they typed).
    time_zone = models.CharField(max_length=64, default="Asia/Shanghai")
    bill = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tutorial"

    def __str__(self) -> str:
        return self.title or listing(self.players)

    @property
    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.time_zone)
        except (ValueError, ZoneInfoNotFoundError):  # pragma: no cover - checked on entry
            return ZoneInfo(settings.TIME_ZONE)

    @property
    def rules(self) -> Rules:
        return night_rules(self)

    @property
    def last_seq(self) -> int:
        """The number of the latest entry (0 before the first): forms carry it so a
        double tap or a stale second phone cannot record the same hand twice."""
        seq = self.events.order_by("-seq").values_list("seq", flat=True).first()
        return int(seq or 0)

    def latest(self) -> NightEvent | None:
        return self.events.order_by("-seq").first()

    def state(self, now: datetime | None = None) -> NightState:
        """The night now: the state stored with its latest entry."""
        after = self.events.order_by("-seq").values_list("after", flat=True).first()
        return self.state_after(after, now)

    def state_after(self, after: dict[str, Any] | None,
                    now: datetime | None = None) -> NightState:
        """The state stored as ``after`` (an entry's), or before the first entry (None)."""
        state = start(self) if after is None else NightState.from_dict(self, after)
        state.end_reached = (now or timezone.now()) >= self.end_at
        return state

    def active_players(self) -> list[PlayerState]:
        return [p for p in self.state().players if p.active]

    def add_event(self, kind: str, data: dict[str, Any]) -> NightState:
        """Append an entry, with the state after it (from the state stored with the
        latest entry); that state.  Inside the transaction that holds the night's row."""
        last = self.latest()
        state = self.state_after(last.after if last else None)
        event = NightEvent(night=self, seq=last.seq + 1 if last else 1, kind=kind, data=data)
        record = state.apply(event)
        event.hand = record.number if record else None
        event.after = state.to_dict(record)
        event.save()
        return state

    def hand_records(self, first: int, last: int) -> list[HandRecord]:
        """The hands numbered ``first`` … ``last``, newest first."""
        rows = self.events.filter(hand__gte=first, hand__lte=last).order_by("-hand")
        return [HandRecord.of(row) for row in rows]

    def points(self, hands: Iterable[int]) -> list[Point]:
        """Everyone's result after each of ``hands`` (hand numbers; 0 = before the first)."""
        wanted = list(hands)
        stored = dict(self.events.filter(hand__in=wanted).values_list("hand", "after"))
        return [Point(h, {name: 0 for name in self.players} if h == 0
                      else results(self.players, stored[h])) for h in wanted]


class NightEvent(models.Model):
    """One entry of the night: ``hand`` / ``rebuy`` / ``leave`` / ``back`` (a player who
    left rejoins) with its data (JSON)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8)
    data = models.JSONField(default=dict)
    at = models.DateTimeField(default=timezone.now)
    hand = models.PositiveIntegerField(null=True)  # the hand's number (a hand entry)
    # The night's state after this entry (NightState.to_dict) and, for a hand, its record.
    after = models.JSONField(default=dict)

    class Meta:
        app_label = "tutorial"
        ordering = ("seq",)
        constraints = (
            models.UniqueConstraint(fields=("night", "seq"), name="night_event_seq_unique"),
        )
        indexes = (models.Index(fields=("night", "hand"), name="night_event_hand"),)

    def __str__(self) -> str:
        return f"{self.night_id}#{self.seq} {self.kind}"


# --------------------------------------------------------------------------- replay


@dataclass
class PlayerState:
    seat: int
    name: str
    bobo: int
    bought: int  # starting 钵钵 plus re-buys
    active: bool = True
    rebuys: int = 0

    @property
    def net(self) -> int:
        return self.bobo - self.bought


@dataclass(frozen=True)
class Charge:
    """The 芒果 of one hand: why, how much each, and who paid what."""

    kind: Mango
    amount: int
    paid: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.paid.values())


@dataclass
class HandRecord:
    number: int
    seq: int
    dealer: str
    kind: str  # show / zou / xiu
    quan: bool
    charge: Charge | None
    nets: dict[str, int]
    pot: int  # chips in the middle when the hand was played (carried 皮 + 芒果)
    pot_to: str | None
    carried: int  # 皮 left in the middle by a 休过河
    calc: str
    at: datetime
    # Players with exactly equal 头 and 尾 who ate the 皮 together (RULES.md §5.4) share
    # the pot: what each took (empty when one player took it all).
    shares: dict[str, int] = field(default_factory=dict)

    def took(self, name: str) -> int:
        """How much of the pot player ``name`` took in this hand."""
        if self.shares:
            return self.shares.get(name, 0)
        return self.pot if self.pot_to == name else 0

    def moved(self, name: str) -> int:
        """How much player ``name``'s 钵钵 moved in this hand: the settlement's net, less
        the 芒果 they paid before the deal, plus what they took of the pot."""
        paid = self.charge.paid.get(name, 0) if self.charge else 0
        return self.nets.get(name, 0) - paid + self.took(name)

    def to_dict(self) -> dict[str, Any]:
        """As stored in its entry's ``after`` (the entry holds ``seq`` and ``at``)."""
        data = asdict(self)
        del data["seq"], data["at"]
        if self.charge is not None:
            data["charge"]["kind"] = self.charge.kind.value
        return data

    @classmethod
    def of(cls, event: NightEvent) -> HandRecord:
        """The record stored with a hand's entry."""
        data = dict(event.after["hand"])
        charge = data.pop("charge")
        if charge is not None:
            charge = Charge(Mango(charge["kind"]), charge["amount"], charge["paid"])
        return cls(**data, charge=charge, seq=event.seq, at=event.at)


@dataclass
class Point:
    """Everyone's result so far (钵钵 minus what they bought in, so a re-buy does not
    move it) after ``hands`` hands."""

    hands: int
    net: dict[str, int]


#: What :meth:`NightState.to_dict` stores besides the players (the clock's
#: ``end_reached`` is not derived from the entries: it is set when a state is read).
STORED = ("dealer", "pot", "pending_winner", "mango_count", "quan_start", "quan_moves",
          "quan_hands", "quan_done", "hands", "low", "high")


@dataclass
class NightState:
    players: list[PlayerState]
    rules: Rules
    dealer: int  # seat of the next hand's dealer
    pot: int = 0
    pending: Mango | None = None
    pending_winner: str | None = None
    mango_count: int = 0
    quan_start: int | None = None  # seat of the 起头 dealer
    quan_moves: int = 0
    quan_hands: int = 0
    quan_done: bool = False
    hands: int = 0  # hands recorded
    low: int = 0  # the lowest and the highest result anyone has had after a hand (or 0)
    high: int = 0
    end_reached: bool = False

    # ---- stored with each entry

    def to_dict(self, hand: HandRecord | None = None) -> dict[str, Any]:
        """The state as an entry's ``after`` (JSON), with ``hand``'s record if any."""
        data: dict[str, Any] = {name: getattr(self, name) for name in STORED}
        data["pending"] = self.pending.value if self.pending else None
        data["players"] = [{"bobo": p.bobo, "bought": p.bought, "active": p.active,
                            "rebuys": p.rebuys} for p in self.players]
        if hand is not None:
            data["hand"] = hand.to_dict()
        return data

    @classmethod
    def from_dict(cls, night: Night, data: dict[str, Any]) -> NightState:
        players = [PlayerState(i, name, **p)
                   for i, (name, p) in enumerate(zip(night.players, data["players"],
                                                     strict=True))]
        return cls(players, night_rules(night),
                   pending=Mango(data["pending"]) if data["pending"] else None,
                   **{name: data[name] for name in STORED})

    # ---- queries

    def by_name(self, name: str) -> PlayerState | None:
        return next((p for p in self.players if p.name == name), None)

    @property
    def active(self) -> list[PlayerState]:
        return [p for p in self.players if p.active]

    @property
    def broke(self) -> list[PlayerState]:
        """Players at 0 who must re-buy or leave before the next hand."""
        return [p for p in self.active if p.bobo <= 0]

    @property
    def in_quan(self) -> bool:
        """The next hand belongs to the 圈芒 orbit."""
        return not self.quan_over and (self.quan_start is not None or self.end_reached)

    @property
    def quan_over(self) -> bool:
        """The 圈芒 orbit is over: its closing hand was played (``quan_done``), or the deal
        has come back round to the starter (起头) for the closing hand (扫尾) and the
        starter is not at the table — everyone else has dealt their orbit hand, and the
        deal would pass the starter's seat into a second round.  If the starter rejoins,
        they deal the 扫尾 and the orbit ends after it."""
        if self.quan_done:
            return True
        start = self.quan_start
        return (start is not None and self.quan_moves > 0 and self.dealer == start
                and not self.players[start].active)

    @property
    def starter_name(self) -> str:
        """The 圈芒 starter (起头), once the orbit has started."""
        return self.players[self.quan_start].name if self.quan_start is not None else ""

    @property
    def dealer_seat(self) -> int:
        """The seat that deals the next hand: the deal skips a player who has left."""
        if self.players[self.dealer].active:
            return self.dealer
        return self._next_active(self.dealer)

    @property
    def dealer_name(self) -> str:
        return self.players[self.dealer_seat].name

    @property
    def dangjia_name(self) -> str:
        """挡家: the first player after the dealer, who receives cards first."""
        return self.players[self._next_active(self.dealer_seat)].name

    @property
    def can_play(self) -> bool:
        return not self.quan_over and len(self.active) >= 2 and not self.broke

    @property
    def quan_total(self) -> int:
        n = len(self.active)
        return n + 1 if QUAN_STARTER_DEALS_LAST else n

    def next_charge(self) -> Charge | None:
        """The 芒果 the next hand starts with (None if nothing is due)."""
        return self._charge(self.in_quan)

    def standings(self) -> list[PlayerState]:
        return sorted(self.players, key=lambda p: (-p.net, p.seat))

    # ---- mechanics

    def _next_active(self, seat: int) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.players[candidate].active:
                return candidate
        return seat

    def _starter_left_behind(self, dealer: int) -> bool:
        """The 圈芒 starter has left, and the deal would pass their empty seat after
        ``dealer``: nobody can deal the closing hand in their place without dealing
        twice, so this hand (the last before their seat) closes the orbit — with N
        players still in it, N + 1 hands, as the page counts."""
        start = self.quan_start
        if start is None or self.players[start].active:
            return False
        n = len(self.players)
        for step in range(1, n + 1):
            seat = (dealer + step) % n
            if seat == start:
                return True
            if self.players[seat].active:
                return False
        return False  # pragma: no cover - the loop meets the starter's seat

    def _charge(self, quan: bool) -> Charge | None:
        names = [p.name for p in self.active]
        if quan:
            kind = Mango.QUAN
            payers = names
        elif self.pending is not None:
            kind = self.pending
            payers = mango_payers(kind, names, self.pending_winner)
        else:
            return None
        amount = mango_amount(self.rules, kind, self.mango_count + 1)
        paid = {}
        for name in payers:
            player = self.by_name(name)
            assert player is not None
            paid[name] = min(amount, max(player.bobo, 0))
        return Charge(kind, amount, paid)

    def play(self, event: NightEvent) -> HandRecord:
        data = event.data
        quan = bool(data.get("quan")) and not self.quan_done
        if not self.players[self.dealer].active:
            self.dealer = self._next_active(self.dealer)
        if quan and self.quan_start is None:
            self.quan_start = self.dealer
        charge = self._charge(quan)
        if charge is not None:
            for name, amount in charge.paid.items():
                player = self.by_name(name)
                assert player is not None
                player.bobo -= amount
            self.pot += charge.total
            if charge.kind is not Mango.QUAN:
                self.mango_count += 1
        kind = str(data.get("kind", "show"))
        nets = {str(k): int(v) for k, v in dict(data.get("nets", {})).items()}
        for name, net in nets.items():
            player = self.by_name(name)
            if player is not None:
                player.bobo += net
        pot_before = self.pot
        pot_to = data.get("pot_to") or None
        split: dict[str, int] = {}
        carried = 0
        if kind == "xiu":
            carried = -sum(nets.values())
            self.pot += carried
            pot_to = None
            self.pending, self.pending_winner = Mango.XIU, None
        else:
            winner = self.by_name(str(pot_to)) if pot_to else None
            if winner is not None:
                takers = [p for p in (self.by_name(str(n)) for n in data.get("pot_share", ()))
                          if p is not None and p.active]
                shared = takers if len(takers) > 1 else [winner]
                shares = dict(zip([p.name for p in shared], pot_shares(self.pot, len(shared)),
                                  strict=True))
                for p in shared:
                    p.bobo += shares[p.name]
                if len(shared) > 1:  # the record names the shares of a pot eaten together
                    split = shares
                self.pot = 0
            if kind == "zou":
                self.pending, self.pending_winner = Mango.ZOU, pot_to
            else:
                self.pending, self.pending_winner = None, None
        dealer = self.dealer
        self.hands += 1
        record = HandRecord(
            number=self.hands, seq=event.seq, dealer=self.players[dealer].name,
            kind=kind, quan=quan, charge=charge, nets=nets, pot=pot_before,
            pot_to=str(pot_to) if pot_to else None, carried=carried,
            calc=str(data.get("calc", "")), at=event.at, shares=split)
        if quan:
            self.pending, self.pending_winner = None, None  # 圈芒 charges every hand anyway
            self.quan_hands += 1
            if kind == "show":
                if QUAN_STARTER_DEALS_LAST:
                    done = self.quan_moves > 0 and (
                        dealer == self.quan_start or self._starter_left_behind(dealer))
                else:
                    done = self.quan_moves + 1 >= len(self.active)
                self.quan_moves += 1
                self.dealer = self._next_active(dealer)
                self.quan_done = done
        else:
            self.dealer = self._next_active(dealer)
        now = [p.net for p in self.players]
        self.low, self.high = min(self.low, *now), max(self.high, *now)
        return record

    def apply(self, event: NightEvent) -> HandRecord | None:
        """Play ``event`` on the state; the hand's record if it is a hand."""
        player = self.by_name(str(event.data.get("player", "")))
        if event.kind == "hand":
            return self.play(event)
        if player is not None and event.kind == "rebuy":
            amount = int(event.data.get("amount", 0))
            player.bobo += amount
            player.bought += amount
            player.rebuys += 1
            player.active = True
        elif player is not None and event.kind == "leave":
            player.active = False
        elif player is not None and event.kind == "back":  # rejoins with the 钵钵 they kept
            player.active = True
        return None


TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{10,40}")  # the shape of both tokens (new_token)


def night_by_token(token: str) -> Night | None:
    """The night this organiser token edits, or None."""
    if not TOKEN_RE.fullmatch(token):
        return None
    return Night.objects.filter(token=token).first()


def night_rules(night: Night) -> Rules:
    return get_rules(night.rules_name).with_options(stakes=night.stakes)


def start(night: Night) -> NightState:
    """The night before its first entry."""
    players = [
        PlayerState(i, name, night.starting_bobo, night.starting_bobo)
        for i, name in enumerate(night.players)
    ]
    return NightState(players, night_rules(night),
                      dealer=night.first_dealer % max(len(players), 1))


def rebuilt(night: Night, events: Iterable[NightEvent]) -> Iterator[tuple[int | None,
                                                                          dict[str, Any]]]:
    """For each of the night's ``events`` (in order, from the first), the ``hand`` and
    ``after`` it stores, derived from the events alone."""
    state = start(night)
    for event in events:
        record = state.apply(event)
        yield (record.number if record else None), state.to_dict(record)


def results(players: list[str], after: dict[str, Any]) -> dict[str, int]:
    """Everyone's result (钵钵 minus what they bought in) in a stored ``after``."""
    return {name: p["bobo"] - p["bought"]
            for name, p in zip(players, after["players"], strict=True)}


# --------------------------------------------------------------------------- dinner


@dataclass(frozen=True)
class DinnerShare:
    name: str
    role: str  # "loser" pays half, "winner" pays nothing, "rest" share the other half
    amount: Decimal


def dinner_split(nets: dict[str, int], bill: Decimal) -> list[DinnerShare]:
    """积分制 dinner: the biggest loser pays half the bill, the biggest winner nothing,
    everyone else shares the other half equally.

    Ties: players tied for the biggest loss share the loser's half; players tied for
    the biggest win all pay nothing.  If nobody is left to share the other half (two
    players, or everyone else tied for the win), the loser(s) pay it too.  If all
    results are equal there is no loser or winner: everyone pays the same.  Amounts
    are rounded down to the cent and the leftover cents go to the loser(s) first."""
    names = list(nets)
    if not names:
        return []
    cents = int((bill * 100).to_integral_value(ROUND_DOWN))
    low, high = min(nets.values()), max(nets.values())
    if low == high:
        return _shares(names, [], cents, "rest")
    losers = [n for n in names if nets[n] == low]
    winners = [n for n in names if nets[n] == high]
    rest = [n for n in names if n not in losers and n not in winners]
    if not rest:
        return _shares(losers, winners, cents, "loser")
    half = cents // 2
    out = _shares(losers, [], cents - half, "loser")  # the odd cent goes to the loser
    out += _shares(rest, [], half, "rest")
    out += [DinnerShare(n, "winner", Decimal("0.00")) for n in winners]
    order = {n: i for i, n in enumerate(names)}
    return sorted(out, key=lambda s: order[s.name])


def _shares(payers: list[str], free: list[str], cents: int, role: str) -> list[DinnerShare]:
    each, extra = divmod(cents, len(payers))
    out = [
        DinnerShare(n, role, (Decimal(each + (1 if i < extra else 0)) / 100).quantize(CENT))
        for i, n in enumerate(payers)
    ]
    return out + [DinnerShare(n, "winner", Decimal("0.00")) for n in free]
