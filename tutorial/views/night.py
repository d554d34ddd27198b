"""Game-night scorekeeper (``/night/``): players, stakes, hands, 芒果, re-buys, 圈芒,
running totals with a chart, undo, final standings, the 积分制 dinner split, CSV.

URLs (``include``d at ``night/``):

* ``/night/``                    create a night (POST); lists the nights of this browser
* ``/night/<token>/``            the organiser's page; every change is a POST here with
                                 ``do=hand|calc|rebuy|leave|back|undo|quan|end|bill``
* ``/night/v/<view_token>/``     read-only page for the others (htmx polls it)
* ``/night/v/<view_token>/csv``  CSV export of every entry
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    QueryDict,
)
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_safe

from engine.mango import Mango
from engine.numbers import MAX_AMOUNT, NumberError, parse_int
from engine.rules import STAKES
from engine.settle import Seat, SettleError, lone_player, settle
from tutorial.accounts import night_tokens, remember_night
from tutorial.fragments import is_htmx
from tutorial.language import listing, listing_html
from tutorial.models_night import (
    TOKEN_RE,
    HandRecord,
    Night,
    NightEvent,
    NightState,
    dinner_split,
)
from tutorial.pagecache import same_for_newcomers
from tutorial.query import BadQuery, query_int
from tutorial.ratelimit import rate_limited
from tutorial.templatetags.amounts import signed
from tutorial.templatetags.typed import typed
from tutorial.timezones import zone_named
from tutorial.views.calc import compute, parse_query
from tutorial.visitor_text import clean, key

MAX_PLAYERS = 8
NAME_MAX = 20
HANDS_PER_PAGE = 50  # hands listed per page (newest first; ?page=2 … the older ones)
CHART_POINTS = 50  # points per line of the chart, however long the night


def _night_or_404(**lookup: str) -> Night:
    value = next(iter(lookup.values()))
    if not TOKEN_RE.fullmatch(value):
        raise Http404
    night = Night.objects.filter(**lookup).first()
    if night is None:
        raise Http404
    return night


def _int(text: str, lo: int, hi: int) -> int | None:
    try:
        return parse_int(text, lo, hi)
    except NumberError:
        return None


def _name_error(name: str) -> str | None:
    if ":" in name or len(name) > NAME_MAX:
        return _("名字最多 %(n)d 个字，不能有冒号。") % {"n": NAME_MAX}
    return None


# --------------------------------------------------------------------------- create


def _parse_end(text: str, zone: ZoneInfo, now: datetime) -> datetime | None:
    """``HH:MM`` in the night's zone, today (tomorrow if that has passed)."""
    match = re.fullmatch(r"(\d{1,2}):(\d{2})", text.strip())
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        return None
    local = now.astimezone(zone)
    end = local.replace(hour=int(match[1]), minute=int(match[2]), second=0, microsecond=0)
    if end <= local:
        end += timedelta(days=1)
    return end


def _create(data: QueryDict) -> tuple[Night | None, dict[str, str], dict[str, Any]]:
    errors: dict[str, str] = {}
    typed = [data.get(f"player{i}", "") for i in range(1, MAX_PLAYERS + 1)]
    names = [clean(t) for t in typed]
    given = [n for n in names if n]
    seen: set[str] = set()
    for i, (raw, name) in enumerate(zip(typed, names, strict=True), start=1):
        if name:
            problem = _name_error(name) or (
                _("这个名字前面已经有了，每人名字要不一样。") if key(name) in seen else None)
            seen.add(key(name))
        elif raw.strip():
            problem = _("这个名字只有看不见的字符，写上能看见的字。")
        else:
            continue
        if problem:
            errors[f"player{i}"] = problem
    if len(given) < 2 and "player1" not in errors:
        errors["players"] = _("至少要两个人。")
    stakes_name = data.get("stakes", "")
    stakes = STAKES.get(stakes_name)
    if stakes is None:
        errors["stakes"] = _("选一种打法。")
    bobo_text = data.get("bobo", "").strip()
    bobo = _int(bobo_text, 0, MAX_AMOUNT)
    if bobo is None:
        errors["bobo"] = _("钵钵要写整数，最多 %(max)s。") % {"max": f"{MAX_AMOUNT:,}"}
    elif stakes is not None and bobo < stakes.first_bobo:
        errors["bobo"] = _("打 %(stakes)s，头一次的钵钵至少 %(min)d。") % {
            "stakes": stakes.name, "min": stakes.first_bobo}
    zone_name = data.get("tz", "").strip()[:64] or timezone.get_current_timezone_name()
    zone = zone_named(zone_name)
    end = _parse_end(data.get("end", ""), zone, timezone.now()) if zone else None
    if zone is None:
        errors["tz"] = _("不认识的时区：写成 Asia/Shanghai、Europe/London 这样的名字。")
    elif end is None:
        errors["end"] = _("写上几点打圈芒，比如 18:00。")
    rules_name = data.get("rules", "xuanjing")
    if rules_name not in ("xuanjing", "app"):
        errors["rules"] = _("选一种芒果算法。")
    title = clean(data.get("title", ""))[:60]
    values = {"names": names, "stakes": stakes_name, "bobo": bobo_text, "title": title,
              "end": data.get("end", ""), "tz": zone_name, "rules": rules_name}
    if errors:
        return None, errors, values
    assert end is not None and bobo is not None and zone is not None
    night = Night.objects.create(title=title, players=given, stakes=stakes_name,
                                 rules_name=rules_name, starting_bobo=bobo, end_at=end,
                                 time_zone=zone_name)
    return night, errors, values


@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("new")
@same_for_newcomers
def night_home(request: HttpRequest) -> HttpResponse:
    errors: dict[str, str] = {}
    values: dict[str, Any] = {"names": [""] * MAX_PLAYERS, "stakes": "1、3", "bobo": "2000",
                              "end": "", "title": "", "rules": "xuanjing",
                              "tz": timezone.get_current_timezone_name()}
    if request.method == "POST":
        night, errors, values = _create(request.POST)
        if night is not None:
            remember_night(request, night)
            messages.success(request, _("开好了。这个页面的地址能改记分，只给记分的人；"
                                        "给大家看用页面下方的只读链接。"))
            return HttpResponseRedirect(reverse("night_edit", args=[night.token]))
    tokens = night_tokens(request)
    mine_nights = list(Night.objects.filter(token__in=tokens).order_by("-created")[:20])
    context = {
        "errors": errors,
        "values": values,
        "slots": [(i, name, errors.get(f"player{i}", ""))
                  for i, name in enumerate(values["names"], start=1)],
        "stakes": list(STAKES.values()),
        "mine": mine_nights,
    }
    status = 400 if errors and not is_htmx(request) else 200
    return render(request, "night/home.html", context, status=status)


# --------------------------------------------------------------------------- record


@dataclass
class Problem(Exception):
    errors: dict[str, str]
    status: int = 400


def _stale() -> Problem:
    """A form made before the last change (a double tap, a second phone, a lost race)."""
    return Problem({"form": _("记分在这之间已经改过了（可能点了两次）。看看最新的记录再来。")},
                   status=409)


def _check_fresh(night: Night, data: QueryDict) -> None:
    if data.get("after", "") != str(night.last_seq):
        raise _stale()


def _check_can_play(state: NightState) -> None:
    if state.quan_over:
        raise Problem({"form": _("圈芒已经打完，今晚不再记新的一手。")})
    if state.broke:
        raise Problem({"form": _("%(names)s 的钵钵输光了：先补钵钵或离场，再记下一手。") % {
            "names": listing([p.name for p in state.broke])}})
    if len(state.active) < 2:
        raise Problem({"form": _("桌上不到两个人，记不了。")})


def _after_mango(state: NightState) -> dict[str, int]:
    charge = state.next_charge()
    paid = charge.paid if charge else {}
    return {p.name: p.bobo - paid.get(p.name, 0) for p in state.active}


def _record_manual(night: Night, state: NightState, data: QueryDict) -> dict[str, Any]:
    kind = data.get("kind", "")
    if kind not in ("show", "zou", "xiu"):
        raise Problem({"kind": _("选这一手是怎么结束的。")})
    errors: dict[str, str] = {}
    left = _after_mango(state)
    nets: dict[str, int] = {}
    for p in state.active:
        text = data.get(f"net{p.seat}", "").strip() or "0"
        try:
            value = parse_int(text, -left[p.name], MAX_AMOUNT)
        except NumberError as e:
            if not text.startswith("-") or not e.out_of_range:
                errors[f"net{p.seat}"] = (
                    _("写整数（输了写负数），没输没赢写 0。") if not e.out_of_range
                    else _("太大了：最多写 %(max)s。") % {"max": f"{MAX_AMOUNT:,}"})
                continue
            value = -MAX_AMOUNT  # more than this player has: said below
        if value < -left[p.name]:
            errors[f"net{p.seat}"] = _("%(name)s 只有 %(left)d，最多输 %(left)d。") % {
                "name": p.name, "left": left[p.name]}
        if kind == "xiu" and value > 0:
            errors[f"net{p.seat}"] = _("休过河没人赢：甩牌的人写留下的皮（负数），其余写 0。")
        nets[p.name] = value
    chosen = [n.strip() for n in data.getlist("pot_to") if n.strip()]
    # Several players who ate the 皮 together share the pot, in seat order (the odd chips
    # to the first, as the calculator gives them).
    takers = [p.name for p in state.active if p.name in chosen]
    pot_to = takers[0] if takers else ""
    charge = state.next_charge()
    pot = state.pot + (charge.total if charge else 0)
    if kind != "xiu":
        if not errors and sum(nets.values()) != 0:
            errors["nets"] = _("输赢加起来要等于 0，现在是 %(sum)s。") % {
                "sum": signed(sum(nets.values()))}
        if any(n not in left for n in chosen):
            errors["pot_to"] = _("选桌上的人。")
        elif len(set(chosen)) != len(chosen):
            errors["pot_to"] = _("每人只能选一次。")
        elif kind == "zou" and not pot_to:
            errors["pot_to"] = _("揍芒：选最后剩下的那个人。")
        elif kind == "zou" and len(takers) > 1:
            errors["pot_to"] = _("揍芒只剩一个人：只选最后剩下的那个人。")
        elif not pot_to and pot > 0:
            errors["pot_to"] = _("桌上有 %(pot)d 的芒果和皮：选谁吃了皮。") % {"pot": pot}
        elif kind == "zou":
            _check_zou(night, state, nets, pot_to, left, errors)
        elif len(takers) > 1 and not errors:
            losers = [n for n in takers if nets[n] < 0]
            if losers:  # the best 尾 (and its equals) is beaten by nobody
                errors["pot_to"] = _("一起吃皮的人尾最大，谁也吃不了他们，这一手不会输："
                                     "%(names)s 写成了输。") % {"names": listing(losers)}
    if errors:
        raise Problem(errors)
    record: dict[str, Any] = {"kind": kind, "nets": {k: v for k, v in nets.items() if v},
                              "pot_to": pot_to if kind != "xiu" else "", "quan": state.in_quan}
    if kind == "show" and len(takers) > 1:
        record["pot_share"] = takers
    return record


def _check_zou(night: Night, state: NightState, nets: dict[str, int], last: str,
               left: dict[str, int], errors: dict[str, str]) -> None:
    """揍芒 (RULES.md §4 and §6): everyone else folded in round 1, and a player who folds
    loses at least the 皮 (all they have, if less) to the one left: a 揍芒 always has a
    result, never "没有输赢"."""
    pi = night.rules.stakes.pi
    for p in state.active:
        least = min(pi, left[p.name])
        if p.name != last and f"net{p.seat}" not in errors and nets[p.name] > -least:
            errors[f"net{p.seat}"] = _(
                "揍芒：%(name)s 甩了牌，至少输掉皮 %(pi)d（写 -%(pi)d 或输得更多）。") % {
                "name": p.name, "pi": least}


def _record_calc(night: Night, state: NightState, data: QueryDict) -> dict[str, Any]:
    query = data.get("q", "")[:4000]
    table = parse_query(QueryDict(query))
    result = compute(table)
    if result is None:
        raise Problem({"form": _("算账的表有错，回到算账页改好再记。")})
    left = _after_mango(state)
    errors = []
    for seat in result.seats:
        if seat.name not in left:
            errors.append(_("%(name)s 不在今晚桌上（或已经离场）。") % {"name": seat.name})
        elif seat.stake > left[seat.name]:
            errors.append(_("%(name)s 只有 %(left)d 钵钵，下不了 %(stake)d。") % {
                "name": seat.name, "left": left[seat.name], "stake": seat.stake})
    if errors:
        raise Problem({"form": " ".join(errors)})
    try:
        settled = settle(result.seats, table.rules)
    except SettleError as e:  # pragma: no cover - compute() already settled it
        raise Problem({"form": str(e)}) from None
    kind = _calc_end(night, state, result.seats, settled.nets, left, data.get("end", ""))
    record = {"kind": kind, "nets": {k: v for k, v in settled.nets.items() if v},
              "pot_to": settled.pi_to or "", "quan": state.in_quan, "calc": table.query()}
    if len(settled.pi_takers) > 1:  # equal 头 and 尾 ate the 皮 together: they share the pot
        record["pot_share"] = list(settled.pi_takers)
    return record


def _calc_end(night: Night, state: NightState, seats: list[Seat], nets: dict[str, int],
              left: dict[str, int], end: str) -> str:
    """How the calculator's hand ended: ``show``, or ``zou`` (揍芒) when everyone but one
    folded in the first round.  A table where everyone but one folded does not say in
    which round they did (000: only a first-round fold-out is a 揍芒), so the result's
    record button asks (``end=zou`` or ``end=show``)."""
    lone = lone_player(seats)
    alone = lone.name if lone is not None else None
    if end not in ("", "show", "zou"):
        raise Problem({"form": _("不认识的结束方式。")})
    if end == "zou" and alone is None:
        raise Problem({"form": _("只有别的人都甩了牌、只剩一个人时，才是揍芒。")})
    if alone is not None and not end:
        raise Problem({"form": _("这一手别的人都甩了，只剩 %(name)s：回到算账页，选是第一轮"
                                 "就都甩了（揍芒），还是后面几轮才甩的。") % {"name": alone}})
    if end == "zou":
        assert alone is not None
        errors: dict[str, str] = {}
        _check_zou(night, state, nets, alone, left, errors)
        if errors:
            raise Problem({"form": " ".join(errors.values())})
    return end or "show"


def _rebuy(night: Night, state: NightState, data: QueryDict) -> dict[str, Any]:
    player = state.by_name(data.get("player", ""))
    if player is None:
        raise Problem({"rebuy_player": _("选一个人。")})
    minimum = night.rules.stakes.later_bobo
    amount = _int(data.get("amount", ""), minimum, MAX_AMOUNT)
    if amount is None:
        raise Problem({"amount": _("补钵钵写 %(min)s 到 %(max)s 之间的整数。") % {
            "min": f"{minimum:,}", "max": f"{MAX_AMOUNT:,}"}})
    return {"player": player.name, "amount": amount}


def _leave(night: Night, state: NightState, data: QueryDict) -> dict[str, Any]:
    player = state.by_name(data.get("player", ""))
    if player is None or not player.active:
        raise Problem({"leave_player": _("选桌上的一个人。")})
    return {"player": player.name}


def _back(night: Night, state: NightState, data: QueryDict) -> dict[str, Any]:
    """A player who left rejoins with the 钵钵 they kept (no re-buy); an empty 钵钵
    comes back through a re-buy."""
    player = state.by_name(data.get("player", ""))
    if player is None or player.active:
        raise Problem({"back_player": _("选一个离场的人。")})
    if state.quan_done:
        raise Problem({"back_player": _("圈芒已经打完，今晚不再回到桌上。")})
    if player.bobo <= 0:
        raise Problem({"back_player": _(
            "%(name)s 的钵钵是 0：补钵钵（至少 %(min)d）就回到桌上。") % {
            "name": player.name, "min": night.rules.stakes.later_bobo}})
    return {"player": player.name}


def _add(night: Night, kind: str, data: dict[str, Any]) -> NightState:
    """Append an entry and return the state after it; refuse it (the caller's transaction
    rolls back) if it would leave anyone's 钵钵 below zero."""
    after = night.add_event(kind, data)
    below = [p.name for p in after.players if p.bobo < 0]
    if below:
        raise Problem({"form": _("这样记 %(names)s 的钵钵会变成负数：钵钵最少是 0。") % {
            "names": listing(below)}})
    return after


def _apply_post(request: HttpRequest, night: Night) -> None:
    """Apply one organiser POST.  Runs inside the transaction that holds the night's
    row lock, so the freshness check and the write are one step."""
    data = request.POST
    action = data.get("do", "")
    state = night.state()
    if action in ("hand", "calc"):
        _check_fresh(night, data)
        _check_can_play(state)
        record = _record_manual if action == "hand" else _record_calc
        after = _add(night, "hand", record(night, state, data))
        messages.success(request, _("第 %(n)d 手记好了。") % {"n": after.hands})
        if after.quan_done:
            messages.info(request, _("圈芒打完了，今晚到此结束：看最后的输赢和饭钱。"))
    elif action in ("rebuy", "leave", "back"):
        _check_fresh(night, data)
        entry = {"rebuy": _rebuy, "leave": _leave, "back": _back}[action]
        _add(night, action, entry(night, state, data))
        messages.success(request, _("记好了。"))
    elif action == "undo":
        # Only the entry the form showed: anything else means the night moved on.
        seen, last = data.get("seq", ""), night.last_seq
        if last == 0 and seen in ("", "0"):
            raise Problem({"form": _("还没有可以撤销的记录。")})
        if seen != str(last):
            raise _stale()
        night.events.filter(seq=last).delete()
        messages.success(request, _("撤销了最后一条记录。"))
    elif action == "quan":
        if state.quan_done or state.quan_start is not None:  # a stale phone, a tampered form
            raise Problem({"form": _("圈芒已经开始了，不能再改时间。")})
        night.end_at = timezone.now()
        night.save(update_fields=["end_at"])
        messages.success(request, _("到点了：下一手开始打圈芒。"))
    elif action == "end":
        end = _parse_end(data.get("end", ""), night.zone, timezone.now())
        if end is None:
            raise Problem({"end": _("写上几点打圈芒，比如 18:00。")})
        if state.quan_start is not None:
            raise Problem({"end": _("圈芒已经开始了，不能再改时间。")})
        night.end_at = end
        night.save(update_fields=["end_at"])
        messages.success(request, _("改好了。"))
    elif action == "bill":
        try:
            bill = Decimal(data.get("bill", "").strip().replace("，", "."))
        except InvalidOperation:
            bill = Decimal(-1)
        if not bill.is_finite() or bill < 0 or bill > 1_000_000:
            raise Problem({"bill": _("写饭钱的总数，比如 480 或 480.5。")})
        night.bill = bill.quantize(Decimal("0.01"))
        night.save(update_fields=["bill"])
        messages.success(request, _("饭钱算好了。"))
    else:
        raise Problem({"form": _("不认识的操作。")})


@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("write")
def night_edit(request: HttpRequest, token: str) -> HttpResponse:
    night = _night_or_404(token=token)
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        try:
            # One step per night: the row lock (PostgreSQL) or the write lock SQLite takes
            # at BEGIN IMMEDIATE (settings) serialises concurrent POSTs.
            with transaction.atomic():
                night = Night.objects.select_for_update().get(pk=night.pk)
                _apply_post(request, night)
        except Problem as problem:
            errors, status = problem.errors, problem.status
        except IntegrityError:  # a duplicate event number: someone else wrote first
            errors, status = _stale().errors, 409
        else:
            return HttpResponseRedirect(reverse("night_edit", args=[night.token]))
        night.refresh_from_db()
    context = _context(request, night, editable=True, errors=errors)
    if context["page_problem"] and status == 200:
        status = 400
    status = 200 if is_htmx(request) else status
    return render(request, "night/night.html", context, status=status)


@require_safe
def night_view(request: HttpRequest, view_token: str) -> HttpResponse:
    night = _night_or_404(view_token=view_token)
    context = _context(request, night, editable=False, errors={})
    if is_htmx(request) and request.GET.get("live"):
        return render(request, "night/night.html#live", context)
    return render(request, "night/night.html", context,
                  status=400 if context["page_problem"] else 200)


# --------------------------------------------------------------------------- page


def _context(request: HttpRequest, night: Night, *, editable: bool,
             errors: dict[str, str]) -> dict[str, Any]:
    """What the night's page shows: rows read are the latest entry (the state stored with
    it), a page of hands and the chart's points, however long the night (issue 21 §4)."""
    last = night.latest()
    state = night.state_after(last.after if last else None)
    charge = state.next_charge()
    nets = {p.name: p.net for p in state.players}
    dinner = dinner_split(nets, night.bill) if night.bill is not None else []
    view_url = request.build_absolute_uri(reverse("night_view", args=[night.view_token]))
    names = [p.name for p in state.active]
    calc_url = reverse("calc") + "?night=" + night.token if editable else ""
    post = request.POST if request.method == "POST" else QueryDict()
    manual_rows = [
        (p, post.get(f"net{p.seat}", ""), errors.get(f"net{p.seat}", "")) for p in state.active
    ]
    pages = max(1, -(-state.hands // HANDS_PER_PAGE))
    try:
        page = query_int(request.GET, "page", pgettext("address", "页码"), 1, pages, 1)
    except BadQuery as e:  # said above the hands, which show the first page (400)
        page, page_problem = 1, e.message
    else:
        page_problem = ""
    newest = state.hands - (page - 1) * HANDS_PER_PAGE
    hand_rows = [
        (hand, [(name, hand.nets.get(name, 0)) for name in night.players if hand.nets.get(name)],
         listing_html([typed(name) for name in hand.shares]))
        for hand in night.hand_records(newest - HANDS_PER_PAGE + 1, newest)
    ]
    return {
        "night": night,
        "state": state,
        "editable": editable,
        "errors": errors,
        "post": post,
        "manual_rows": manual_rows,
        "hand_rows": hand_rows,
        "page": page,
        "pages": pages,
        "page_problem": page_problem,
        "last_label": _event_label(last) if last else "",
        "charge": charge,
        "pot_next": state.pot + (charge.total if charge else 0),
        "stakes": night.rules.stakes,
        "last": last,
        "last_seq": last.seq if last else 0,
        "view_url": view_url,
        "edit_url": request.build_absolute_uri(reverse("night_edit", args=[night.token])),
        "csv_url": reverse("night_csv", args=[night.view_token]),
        "calc_url": calc_url,
        "chart": chart(night, state),
        "standings": state.standings(),
        "dinner": dinner,
        "names": names,
        "gone": [p for p in state.players if not p.active],
        "broke": next((p.name for p in state.active if p.bobo <= 0), None),  # re-buy first
        "pot_chosen": post.getlist("pot_to"),
        "quan_kind": Mango.QUAN,
        "end_local": timezone.localtime(night.end_at, night.zone),
        "bobo_max": MAX_AMOUNT,
    }


def _event_label(event: NightEvent) -> str:
    if event.kind == "hand":
        return _("最后记的一手")
    who = str(event.data.get("player", ""))
    if event.kind == "rebuy":
        return _("%(name)s 补钵钵 %(amount)s") % {"name": who, "amount": event.data.get("amount")}
    if event.kind == "back":
        return _("%(name)s 回到桌上") % {"name": who}
    return _("%(name)s 离场") % {"name": who}


# --------------------------------------------------------------------------- chart


@dataclass
class Series:
    index: int
    name: str
    points: str  # SVG polyline points
    values: list[int]
    label_x: float
    label_y: float
    label: str  # the name at the line's end, shortened with … if it would not fit


@dataclass
class Chart:
    width: int
    height: int
    series: list[Series]
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]
    rows: list[tuple[int, list[int]]]  # (hands, result per player) for the data table
    names: list[str]
    left: int
    right: int
    top: int
    bottom: int
    summary: str

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    @property
    def plot_bottom(self) -> int:
        return self.height - self.bottom

    @property
    def tick_x(self) -> int:
        return self.left - 6

    @property
    def x_label_y(self) -> int:
        return self.height - self.bottom + 18

    @property
    def zero_y(self) -> float:
        return next(y for y, v in self.y_ticks if v == 0)


def chart(night: Night, state: NightState) -> Chart | None:
    """Each player's result (won or lost so far; re-buys do not count) after every hand
    (at most :data:`CHART_POINTS` of them), as SVG coordinates drawn by the template,
    with a line at zero.  None before the first hand: there is nothing to draw."""
    if not state.hands:
        return None
    names = [p.name for p in state.players]
    labels = [_label(name) for name in names]
    points = night.points(_sampled(state.hands))
    hands = state.hands
    # The axis spans every result so far and zero (everyone starts there).
    step_y = _nice(max((state.high - state.low) / 4, 1))
    low = min(state.low // step_y * step_y, 0)
    high = max(-(-state.high // step_y) * step_y, 0)
    if high == low:
        high = low + step_y
    # The left margin holds the axis' figures (+20000 needs more than +20) and the right
    # one the names at the lines' ends: each as wide as its widest text needs.
    width, height, top, bottom = 360, 220, 12, 28
    left = max(44, round(max(TICK_CHAR * len(signed(v)) for v in (low, high))) + 12)
    right = max(40, round(max(_label_width(t) for t in labels)) + 10)

    def x(h: int) -> float:
        return round(left + (width - left - right) * h / hands, 1)

    def y(v: int) -> float:
        return round(height - bottom - (height - top - bottom) * (v - low) / (high - low), 1)

    series = []
    for i, name in enumerate(names):
        values = [pt.net[name] for pt in points]
        coords = " ".join(f"{x(pt.hands)},{y(pt.net[name])}" for pt in points)
        series.append(Series(i, name, coords, values, x(points[-1].hands) + 6,
                             y(values[-1]) + 4, labels[i]))
    _spread_labels(series, top + 8, height - bottom)
    step = max(-(-hands // 6), 1)
    x_ticks = [(x(h), h) for h in range(0, hands + 1, step)]
    y_ticks = [(y(v), v) for v in range(low, high + 1, step_y)]
    # The players' names are the visitor's own text: marked translate="no".
    summary = mark_safe(escape(pgettext("list", "；")).join(
        escape(_("%(name)s 现在 %(net)s")) % {
            "name": format_html('<span translate="no">{}</span>', s.name),
            "net": signed(s.values[-1])}
        for s in series))
    return Chart(width, height, series, y_ticks, x_ticks,
                 [(pt.hands, [pt.net[n] for n in names]) for pt in points], names,
                 left, right, top, bottom, summary)


LABEL_MAX = 84  # the widest name label at a line's end, in the chart's units (12 px bold)
TICK_CHAR = 7.5  # the width of a character of the axis' 11 px figures, with room to spare


def _label_width(text: str) -> float:
    """Roughly how wide ``text`` is in the chart's 12 px bold labels: a full-width (CJK)
    character 12 units, any other 7.5."""
    return sum(12 if ord(c) >= 0x2E80 else 7.5 for c in text)


def _label(name: str) -> str:
    """``name``, cut short with … if it is wider than :data:`LABEL_MAX` (the data table
    under the chart and the standings give it whole)."""
    if _label_width(name) <= LABEL_MAX:
        return name
    cut = name
    while cut and _label_width(cut + "…") > LABEL_MAX:
        cut = cut[:-1]
    return cut.rstrip() + "…"


def _sampled(hands: int) -> list[int]:
    """At most :data:`CHART_POINTS` of the points after 0 … ``hands`` hands, evenly spread,
    the first and the last always among them: the chart and its table stay the same size
    however long the night (every hand is in the list of hands and the CSV file)."""
    if hands < CHART_POINTS:
        return list(range(hands + 1))
    return [round(i * hands / (CHART_POINTS - 1)) for i in range(CHART_POINTS)]


def _nice(value: float) -> int:
    """A round step for the axis (1, 2, 5 × a power of ten), at least ``value``."""
    for power in range(0, 9):
        for base in (1, 2, 5):
            bound: int = base * 10**power
            if bound >= value:
                return bound
    return int(value)


def _spread_labels(series: list[Series], lo: float, hi: float) -> None:
    """Keep the end-of-line name labels at least 14 px apart."""
    ordered = sorted(series, key=lambda s: s.label_y)
    for a, b in pairwise(ordered):
        if b.label_y - a.label_y < 14:
            b.label_y = a.label_y + 14
    overflow = ordered[-1].label_y - hi if ordered else 0
    if overflow > 0:
        for s in ordered:
            s.label_y = max(lo, s.label_y - overflow)


# --------------------------------------------------------------------------- CSV


@require_safe
def night_csv(request: HttpRequest, view_token: str) -> HttpResponse:
    night = _night_or_404(view_token=view_token)
    events = list(night.events.order_by("seq"))
    names = list(night.players)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    # Named by the date, not the row id (which would tell how many nights the site has).
    day = timezone.localtime(night.created, night.zone).strftime("%Y-%m-%d")
    response["Content-Disposition"] = f'attachment; filename="chexuan-night-{day}.csv"'
    response.write("\ufeff")  # so spreadsheet programs read UTF-8
    writer = _SafeWriter(response)
    writer.writerow([_("序号"), _("时间（%(zone)s）") % {"zone": night.time_zone},
                     pgettext("csv", "记录"),
                     pgettext("companion", "发牌"), pgettext("companion", "芒果"), _("皮归"),
                     *(f"{n} {pgettext('companion', '输赢')}" for n in names),
                     *(f"{n} {_('钵钵')}" for n in names)])
    for event in events:  # each with the state after it
        at = timezone.localtime(event.at, night.zone).strftime("%Y-%m-%d %H:%M")
        if event.hand is not None:
            hand = HandRecord.of(event)
            label = {"show": pgettext("companion", "比牌"), "zou": _("揍芒"),
                     "xiu": _("休芒")}[hand.kind]
            if hand.quan:
                label = _("%(label)s（圈芒）") % {"label": label}
            mango = (f"{hand.charge.kind.value} {hand.charge.amount}×{len(hand.charge.paid)}"
                     if hand.charge else "")
            nets = [hand.moved(n) for n in names]  # 芒果 and pot in: they add up to the total
            row = [hand.number, at, label, hand.dealer, mango,
                   listing(list(hand.shares)) if hand.shares else hand.pot_to or ""]
        else:
            who = str(event.data.get("player", ""))
            if event.kind == "rebuy":
                label = _("%(name)s 补钵钵 %(amount)s") % {
                    "name": who, "amount": event.data.get("amount")}
            elif event.kind == "back":
                label = _("%(name)s 回到桌上") % {"name": who}
            else:
                label = _("%(name)s 离场") % {"name": who}
            nets = [0 for _n in names]
            row = ["", at, label, "", "", ""]
        writer.writerow([*row, *nets, *(p["bobo"] for p in event.after["players"])])
    state = night.state_after(events[-1].after if events else None)
    writer.writerow(["", "", _("总输赢"), "", "", "", *(p.net for p in state.players),
                     *(p.bobo for p in state.players)])
    return response


class _SafeWriter:
    """csv.writer that defuses text cells a spreadsheet would run as a formula (player
    names are typed by the organiser)."""

    def __init__(self, out: HttpResponse) -> None:
        self.writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self.writer.writerow([
            "'" + cell if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@") else cell
            for cell in row
        ])


urlpatterns = [
    path("", night_home, name="night"),
    path("v/<str:view_token>/", night_view, name="night_view"),
    path("v/<str:view_token>/csv", night_csv, name="night_csv"),
    path("<str:token>/", night_edit, name="night_edit"),
]

