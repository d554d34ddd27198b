"""Settlement calculator (``/calc/``): a real table's showdown, settled and explained.

The whole table lives in the URL so a result can be shared.  Compact scheme (one
``p`` per player, in seat order)::

    /calc/?p=甲:100:B10,B9,R3,B6:0&p=乙:80:R2,R7,BJ,B8:0&p=丁:60:fold&rules=xuanjing

``p = name:stake:cards[:choice]``

* ``cards``: four kind codes (RULES.md §1) separated by ``,`` (spaces, ``-``, ``.``
  and ``+`` also work), or ``fold`` for a player who folded (their stake is 皮).  The
  one player left when every other folded (a 揍芒, or a fold-out in a later round)
  compares with nobody: their cards may be left empty (``甲:3:``), or be the two of
  round 1 (``甲:3:R2,R7``); no ``choice`` then.
* ``choice``: ``0`` / ``1`` / ``2`` = the split in :func:`engine.hands.splits` order
  (``0``, the default, = the first two cards against the last two: the split as typed,
  头 first); ``s`` = declare 三花.  The table is settled as entered; the advisor's
  suggestion is shown beside the choice, never put in its place.
* ``rules``: ``xuanjing`` (default) or ``app``.

The HTML form submits long field names (``n1 s1 c1 f1 k1 … n8 …``); a valid table
is redirected to the compact URL.  ``night=<organiser token>`` adds a button that
records the result to that game night (it is never part of the shared link).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from engine.cards import KINDS, CardError, Kind, parse_kind
from engine.hands import Split, naive_split, sanhua, splits
from engine.numbers import MAX_AMOUNT, NumberError, parse_int
from engine.quiz import shown_percents
from engine.rules import PRESETS, Rules, get_rules
from engine.settle import Seat, SettleError, Settlement, lone_player, settle
from tutorial.explain import Explanation, explain
from tutorial.fragments import is_htmx
from tutorial.models_night import night_by_token
from tutorial.pagecache import same_for_newcomers
from tutorial.query import BadQuery, query_int
from tutorial.rulesets import RULES_LABELS
from tutorial.visitor_text import clean, key

MAX_SEATS = 8
MIN_ROWS = 3
NAME_MAX = 20
CHOICES = ("0", "1", "2", "s")
FOLD_WORDS = frozenset({"fold", "folded", "x", "甩"})


# --------------------------------------------------------------------------- advice


@dataclass(frozen=True)
class Suggestion:
    """The suggested split of a hand: an index into ``splits(kinds)``, and per-split
    吃/走/死 chances when the advisor is available."""

    best: int
    chances: tuple[tuple[float, float, float], ...] | None = None
    source: str = "naive"


def suggest(kinds: tuple[Kind, ...], rules: Rules) -> Suggestion:
    """The advisor's split (``engine.advisor.advise``), or the naive split if the
    advisor or its table is missing.  The one place to switch."""
    try:
        from engine.advisor import advise

        advice = advise(kinds, rules)
    except (ImportError, RuntimeError, OSError, ValueError):
        return Suggestion(splits(kinds, rules).index(naive_split(kinds, rules)))
    chances = tuple((s.p_win, s.p_push, s.p_lose) for s in advice.splits)
    return Suggestion(advice.best, chances, "advisor")


# --------------------------------------------------------------------------- input


@dataclass
class SplitOption:
    index: int
    split: Split
    suggested: bool
    chances: tuple[float, float, float] | None

    @property
    def value(self) -> str:
        return str(self.index)

    @property
    def percents(self) -> tuple[str, str, str] | None:
        """吃 / 走 / 死 chances (one opponent, see engine.advisor) as the split quiz prints
        them: whole percents summing to 100, a tiny chance "<1" rather than "0"."""
        if self.chances is None:
            return None
        win, push, lose = shown_percents(*self.chances)
        return (win, push, lose)


@dataclass
class SeatInput:
    """One row of the form, as typed, with its errors and what the engine made of it."""

    row: int
    name: str = ""
    stake_text: str = ""
    cards_text: str = ""
    folded: bool = False
    choice: str = "0"
    errors: dict[str, str] = field(default_factory=dict)
    stake: int | None = None
    kinds: tuple[Kind, ...] = ()
    options: list[SplitOption] = field(default_factory=list)
    sanhua: str | None = None
    split: Split | None = None

    @property
    def blank(self) -> bool:
        return not (self.name or self.stake_text or self.cards_text or self.folded)

    @property
    def suggestion(self) -> SplitOption | None:
        """The advisor's split when it is not the one entered (shown beside it)."""
        return next((o for o in self.options if o.suggested and o.value != self.choice), None)

    @property
    def declares_sanhua(self) -> bool:
        return self.choice == "s" and self.sanhua is not None

    def compact(self) -> str:
        cards = "fold" if self.folded else ",".join(k.code for k in self.kinds)
        text = f"{self.name}:{self.stake}:{cards}"
        if self.split is not None:  # always explicit: a link means the same split everywhere
            text += f":{self.choice}"
        return text

    def seat(self) -> Seat:
        assert self.stake is not None
        if self.folded:
            return Seat(self.name, self.stake, folded=True)
        return Seat(self.name, self.stake, self.split,
                    sanhua=self.sanhua if self.declares_sanhua else None)


@dataclass
class CalcTable:
    seats: list[SeatInput]
    rules_name: str = "xuanjing"
    errors: list[str] = field(default_factory=list)
    submitted: bool = False

    @property
    def rules(self) -> Rules:
        return get_rules(self.rules_name)

    @property
    def filled(self) -> list[SeatInput]:
        return [s for s in self.seats if not s.blank]

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(s.errors for s in self.seats)

    def query(self) -> str:
        """The compact, shareable query string (without ``night``)."""
        pairs = [("p", s.compact()) for s in self.filled]
        if self.rules_name != "xuanjing":
            pairs.append(("rules", self.rules_name))
        return urlencode(pairs, safe=":,")


def _split_codes(text: str) -> list[str]:
    return [p for p in re.split(r"[\s,.+\-、，]+", text.strip()) if p]


def parse_query(data: QueryDict) -> CalcTable:
    """Read the table from a GET query (compact ``p`` or the form's long fields)."""
    rules_name = data.get("rules", "xuanjing").strip().lower()
    errors: list[str] = []
    if rules_name not in PRESETS:
        errors.append(_("不认识的规则“%(name)s”：规则只能选《旋经》（xuanjing）或 "
                        "app 规则（app）。") % {"name": rules_name[:20]})
        rules_name = "xuanjing"
    seats: list[SeatInput] = []
    if "p" in data:
        raw = data.getlist("p")
        if len(raw) > MAX_SEATS:
            errors.append(_("一桌最多 %(n)d 个人。") % {"n": MAX_SEATS})
            raw = raw[:MAX_SEATS]
        for i, item in enumerate(raw, start=1):
            parts = item.split(":")
            seat = SeatInput(i)
            if len(parts) < 3 or len(parts) > 4:
                seat.name = item[:NAME_MAX]
                seat.errors["name"] = _("这一项看不懂：要写成 名字:下的数:四张牌（或 fold）。")
            else:
                seat.name, seat.stake_text = parts[0].strip(), parts[1].strip()
                cards = parts[2].strip()
                if cards.lower() in FOLD_WORDS:
                    seat.folded = True
                else:
                    seat.cards_text = " ".join(_split_codes(cards))
                seat.choice = parts[3].strip().lower() if len(parts) == 4 else "0"
            seats.append(seat)
    else:
        for i in range(1, MAX_SEATS + 1):
            seat = SeatInput(
                i,
                name=data.get(f"n{i}", "").strip(),
                stake_text=data.get(f"s{i}", "").strip(),
                cards_text=" ".join(_split_codes(data.get(f"c{i}", ""))),
                folded=data.get(f"f{i}", "") in ("1", "on", "true"),
                choice=data.get(f"k{i}", "0").strip().lower() or "0",
            )
            seats.append(seat)
    table = CalcTable(seats, rules_name, errors)
    return table


def validate(table: CalcTable) -> None:
    """Check every filled row, resolve splits; errors go next to the field at fault."""
    rules = table.rules
    table.submitted = True
    seen: Counter[str] = Counter()
    deck: Counter[Kind] = Counter()
    alone = lone_player(table.filled)
    for seat in table.filled:
        _validate_name(seat, seen)
        _validate_stake(seat)
        if seat.choice not in CHOICES:
            seat.errors["choice"] = _("分法只能是 0、1、2 或 s（三花）。")
            seat.choice = "0"
        if seat.folded:
            seat.kinds = ()
            continue
        _validate_cards(seat, deck, rules, alone=seat is alone)
    if alone is not None and alone.stake is not None and "stake" not in alone.errors:
        most = max((s.stake or 0 for s in table.filled if s.folded), default=0)
        if most > alone.stake:  # RULES §4: the one left takes all 皮, never less
            alone.errors["stake"] = _(
                "别人都甩了，只剩 %(name)s：甩牌是因为跟不起更大的注，所以 %(name)s 下的不会比"
                "甩牌的人少（甩牌的人最多下了 %(most)d）。") % {"name": alone.name, "most": most}
    players = table.filled
    if len(players) < 2:
        table.errors.append(_("至少要两个人才算得了账。"))
    elif not table.has_errors and not any(not s.folded and not s.declares_sanhua
                                          for s in players):
        table.errors.append(_("至少要有一个人亮牌比大小（不能都甩牌或都报三花）。"))


def _validate_name(seat: SeatInput, seen: Counter[str]) -> None:
    typed, seat.name = seat.name, clean(seat.name)
    if "name" in seat.errors:  # the compact form could not be read: that message stays
        return
    if not seat.name:
        seat.errors["name"] = (_("这个名字只有看不见的字符，写上能看见的字。") if typed.strip()
                               else _("写上名字。"))
    elif ":" in seat.name or len(seat.name) > NAME_MAX:
        seat.errors["name"] = _("名字最多 %(n)d 个字，不能有冒号。") % {"n": NAME_MAX}
    else:
        seen[key(seat.name)] += 1
        if seen[key(seat.name)] > 1:
            seat.errors["name"] = _("这个名字前面已经有了，每人名字要不一样。")


def _validate_stake(seat: SeatInput) -> None:
    text = seat.stake_text
    if not text:
        seat.errors["stake"] = _("写上这一手下了多少。")
    else:
        try:
            seat.stake = parse_int(text, 0, MAX_AMOUNT)
        except NumberError as e:
            if not e.out_of_range:
                seat.errors["stake"] = _("下的数要写整数。")
            elif text.lstrip().startswith("-"):
                seat.errors["stake"] = _("下的数不能是负数。")
            else:
                seat.errors["stake"] = _("下的数太大了。")
            return
        if seat.stake == 0 and not seat.folded:
            # everyone has at least the 皮 at risk (RULES): nothing to win or lose with 0
            seat.errors["stake"] = _("留到比牌的人至少下了皮：下的数不能是 0。")


def _validate_cards(seat: SeatInput, deck: Counter[Kind], rules: Rules, *,
                    alone: bool = False) -> None:
    """The seat's cards: four, split as chosen; ``alone`` (everyone else folded: nothing
    is compared) also none, or the two dealt in round 1 (after a 揍芒), and no split."""
    codes = seat.cards_text.split()
    if not codes and alone:
        return
    if not codes:
        seat.errors["cards"] = _("写上四张牌，或者勾上“甩了”。")
        return
    kinds: list[Kind] = []
    for code in codes:
        try:
            kinds.append(parse_kind(code))
        except CardError:
            seat.errors["cards"] = _("不认识的牌码“%(code)s”。牌码有：%(codes)s。") % {
                "code": code[:10], "codes": " ".join(k.code for k in KINDS)}
            return
    if alone and len(kinds) not in (2, 4):
        seat.errors["cards"] = _("别的人都甩了，这一家不用比牌：牌可以不写，或者写第一轮的两张"
                                 "（揍芒只发了两张）、或者四张；这里是 %(n)d 张。") % {
            "n": len(kinds)}
        return
    if len(kinds) != 4 and not alone:
        seat.errors["cards"] = _("要四张牌，这里是 %(n)d 张。") % {"n": len(kinds)}
        return
    for kind in kinds:
        deck[kind] += 1
        if deck[kind] > kind.copies:
            seat.errors["cards"] = _(
                "%(name)s（%(code)s）整副牌只有 %(copies)d 张，算上这里已经 %(n)d 张了。") % {
                "name": kind.name_zh, "code": kind.code, "copies": kind.copies, "n": deck[kind]}
            return
    seat.kinds = tuple(kinds)
    if len(kinds) == 2:  # the one left after a 揍芒: two cards, no split
        return
    hand_splits = splits(seat.kinds, rules)
    hint = suggest(seat.kinds, rules)
    # A hand holding a pair of one kind can split the same way twice: one option each,
    # numbered by its first index (a choice of the later index means the same split).
    first = [hand_splits.index(s) for s in hand_splits]
    best = first[hint.best]
    for i, s in enumerate(hand_splits):
        if first[i] == i:
            seat.options.append(SplitOption(
                i, s, i == best, hint.chances[i] if hint.chances else None))
    seat.sanhua = sanhua(seat.kinds, rules)
    if seat.choice == "s" and seat.sanhua is None:
        seat.errors["choice"] = _("这手牌不是三花，不能报三花。")
        seat.choice = "0"
    if seat.choice != "s":
        seat.choice = str(first[int(seat.choice)])
    seat.split = hand_splits[0 if seat.choice == "s" else int(seat.choice)]


# --------------------------------------------------------------------------- view


@dataclass
class Result:
    settlement: Settlement
    seats: list[Seat]
    text: Explanation

    @property
    def rows(self) -> list[tuple[Seat, int]]:
        return [(s, self.settlement.nets[s.name]) for s in self.seats]

    @property
    def alone(self) -> str | None:
        """The one player still in when everyone else folded (None otherwise)."""
        found = lone_player(self.seats)
        return found.name if found is not None else None


def compute(table: CalcTable) -> Result | None:
    """Validate and settle; None (with errors recorded) when the table is not valid."""
    validate(table)
    if table.has_errors:
        return None
    seats = [s.seat() for s in table.filled]
    try:
        result = settle(seats, table.rules)
    except SettleError as e:  # already validated; keep the page alive anyway
        table.errors.append(str(e))
        return None
    return Result(result, seats, explain(result, seats, table.rules))


def _rows(table: CalcTable, wanted: int) -> None:
    """Pad the form to ``wanted`` rows (at least MIN_ROWS, at most MAX_SEATS)."""
    count = len(table.filled)
    target = min(MAX_SEATS, max(MIN_ROWS, count + 1 if count < MAX_SEATS else count, wanted))
    kept = [s for s in table.seats if not s.blank]
    for i, seat in enumerate(kept, start=1):
        seat.row = i
    while len(kept) < target:
        kept.append(SeatInput(len(kept) + 1))
    table.seats = kept


@require_safe
def calc(request: HttpRequest) -> HttpResponse:
    if request.GET.get("night"):  # a night's players change as it goes on: never cached
        return _calc(request)
    return _calc_for_newcomers(request)


def _calc(request: HttpRequest) -> HttpResponse:
    data = request.GET
    table = parse_query(data)
    bad_address = bool(table.errors)  # unknown rules, too many players: said with a 400
    night_token = data.get("night", "")[:64]
    night = night_by_token(night_token)
    if night is not None and not table.filled:
        _prefill(table, [p.name for p in night.active_players()])
    result = None
    asked = "go" in data or "p" in data
    if asked:
        result = compute(table)
    if result is not None and "p" not in data and not is_htmx(request):
        # The form's long fields: go to the short, shareable address.
        extra = f"&night={night_token}" if night is not None else ""
        return HttpResponseRedirect(f"{request.path}?{table.query()}{extra}")
    try:  # "再加一家" asks for this many rows
        _rows(table, query_int(data, "more", pgettext("address", "行数"), 1, MAX_SEATS, 0))
        bad_query = False
    except BadQuery as e:
        _rows(table, 0)
        table.errors.append(e.message)
        bad_query = True
    query = table.query() if result is not None else ""
    context = {
        "table": table,
        "result": result,
        "kinds": KINDS,
        "presets": list(RULES_LABELS.items()),
        "share_url": request.build_absolute_uri(f"{request.path}?{query}") if query else "",
        "query": query,
        "night": night,
        "night_token": night_token if night is not None else "",
        "used": _used_counts(table),
        "next_rows": min(MAX_SEATS, len(table.seats) + 1),
    }
    status = 400 if (table.has_errors and asked) or bad_query or bad_address else 200
    template = "calc/calc.html#calc-body" if is_htmx(request) else "calc/calc.html"
    response = render(request, template, context, status=200 if is_htmx(request) else status)
    if is_htmx(request) and result is not None:
        extra = f"&night={night_token}" if night is not None else ""
        response["HX-Push-Url"] = f"{request.path}?{query}{extra}"
    return response


_calc_for_newcomers = same_for_newcomers(_calc)


def _prefill(table: CalcTable, names: list[str]) -> None:
    table.seats = [SeatInput(i, name=n) for i, n in enumerate(names[:MAX_SEATS], start=1)]


def _used_counts(table: CalcTable) -> list[tuple[Kind, int]]:
    """Each kind and how many copies are still in the deck, for the card picker."""
    used: Counter[Kind] = Counter()
    for seat in table.seats:
        if seat.folded:
            continue
        for code in seat.cards_text.split():
            try:
                used[parse_kind(code)] += 1
            except CardError:
                pass
    return [(k, max(k.copies - used[k], 0)) for k in KINDS]
