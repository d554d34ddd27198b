"""The coach's pages (issue 14 §3): its own page /coach/ (what it does, the visitor's
sessions), 复盘 of a finished practice hand, its JSON export, 再来一次 (retry a graded
decision) and the session report.

Only finished hands (``PracticeHand`` rows) are reachable, only from the session that
owns the table (another visitor's table, or a hand still being played → 404).

GET and HEAD only read.  A review, or a 返 priced again, is computed by a worker
(:mod:`tutorial.jobs`) and stored; a page whose result is not there yet shows how its
job stands (``coach/computing.html#progress``) and polls (htmx, every second) until it
is; a job not asked yet is asked by a POST (the hand's last action asks for its review
when the coach is on; otherwise the page's button, which htmx presses on load).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST, require_safe

from engine.game import Act, Action, ActionError, Game, card_by_label
from engine.numbers import MAX_AMOUNT, NumberError, parse_int
from engine.review import CLOSE, Z_LOOKS, band, grade, interval
from tutorial import coach, jobs, table_store
from tutorial.accounts import coach_off, reader_key, switch_coach
from tutorial.fragments import is_htmx
from tutorial.models_coach import HandReview
from tutorial.models_table import PracticeHand, PracticeTable
from tutorial.pagecache import same_for_newcomers
from tutorial.percentages import percentage, percentages
from tutorial.query import BadQuery, query_int
from tutorial.ratelimit import rate_limited
from tutorial.table_log import hand_log
from tutorial.views.table import (
    ACT_WORDS,
    _load,
    display_name,
    error_message,
    step_links,
)


def _hand(request: HttpRequest, table_id: uuid.UUID, number: int) -> PracticeTable:
    table = _load(request, table_id)
    if not table.hands.filter(number=number).exists():
        raise Http404("no such finished hand")
    return table


def _review(table: PracticeTable, number: int) -> dict[str, Any]:
    """The stored review of a hand that has one (再来一次 is reached from it)."""
    data = coach.stored(table, number)
    if data is None:
        raise Http404("this hand is not reviewed yet")
    return data


POLL = "computing"  # the id of the element that polls a job (coach/computing.html)


def _polled(request: HttpRequest) -> bool:
    """A poll of ``#computing`` (htmx) rather than a page or a swap the learner asked for."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and getattr(htmx, "trigger", None) == POLL


def _progress(request: HttpRequest, key: str, here: str, ask: str,
              auto: bool = False, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``coach/computing.html#progress`` shows of job ``key``: its state, the URL it
    polls (``here``) and the POST that asks for it (``ask`` with ``fields``; pressed on
    load if ``auto`` and the job was never asked)."""
    return {"state": jobs.state(key), "here": here, "ask": ask, "auto": auto,
            "fields": fields or {}}


def _ask_done(request: HttpRequest) -> HttpResponse:
    """After asking for a job: back (303) to the page it was asked from (``next``)."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("coach")
    return HttpResponseRedirect(target, status=303)


def gloss(word: str) -> str:
    """The English gloss of a grade (好 / 不精确 / 失误 / 大错); empty in Chinese."""
    text = pgettext("coach-grade", word)
    return "" if text == word else text


def leads(d: dict[str, Any]) -> bool:
    """Whether nobody had bet yet in the round of decision ``d``: 休 is among its options
    (it is offered only then), and a bet there is the round's 发招, as the table's button
    and log call it, not a 返."""
    return any(o["kind"] == "check" for o in d["options"])


def option_label(o: dict[str, Any], lead: bool = False) -> str:
    """An option as a label (capitalised in English: the words are shared with sentences);
    ``lead``: nobody had bet yet, so a bet is a 发招 (see :func:`leads`)."""
    word = capfirst(pgettext("button", "发招") if lead and o["kind"] == "raise"
                   else _(ACT_WORDS[o["kind"]]))
    return f"{word} {o['amount']}" if o.get("amount") is not None else word


# the learner's continuation after an option (engine.review.CONTINUATIONS)
THEN_WORDS = {"strong": N_("之后像“高级”电脑那样打"), "qiao": N_("之后一有机会就敲"),
              "call": N_("之后一直瞧或休")}


def _figures(d: dict[str, Any]) -> dict[str, Any]:
    """A graded decision ready for the template: options with words, the sentence why."""
    lead = leads(d)
    options = [{**o, "label": option_label(o, lead), "best": i == d["best"],
                "chosen": i == d["chosen"], "index": i,
                "then_label": _(THEN_WORDS[o["then"]]) if o.get("then") else ""}
               for i, o in enumerate(d["options"])]
    best, chosen = options[d["best"]], options[d["chosen"]]
    rival = options[d.get("rival", d["best"])]
    return {**d, "options": options, "best_label": best["label"],
            "chosen_label": chosen["label"], "gloss": gloss(d["grade"]),
            "why": why(d, rival["label"], chosen["label"]),
            "higher": higher(options, best, rival)}


def higher(options: list[dict[str, Any]], best: dict[str, Any], rival: dict[str, Any]
           ) -> str:
    """Below a table in which another option shows a higher mean than the one marked
    best: why that is no contradiction (the rival was picked on other deals, and the
    highest of several means on the same deals comes out too high); else empty."""
    top = max(options, key=lambda o: o["ev"])
    # compared as shown; never where every world was counted
    if float(chips(top["ev"])) <= float(chips(best["ev"])):
        return ""
    return _("比较用的“%(rival)s”是在另一批牌局上挑出来的。在这张表的牌局上“%(top)s”的平均数"
             "更高，但在同一批牌局上挑出来的最高数总会偏高，所以不拿它来比。") % {
        "rival": rival["label"], "top": top["label"]}


def chips(x: float) -> str:
    """Chips with one decimal (never "-0.0")."""
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text


def why(d: dict[str, Any], rival: str, chosen: str) -> str:
    """The sentences beside a graded decision; every figure compared in one sentence
    measures the same thing (issue 20 §4): the choice against its rival (``d["rival"]``,
    the best other alternative, labelled ``rival``; the loss and
    its 95 % interval, the band it falls in), 瞧 against 甩 on the same worlds (the
    share of worlds in which 瞧 ends better than folding now against the share it
    needs), how often the hand wins at a showdown now, the 皮.  Figures priced exactly
    (``d["exact"]``: every world counted) are said without interval or error, and the
    sentence says they are exact."""
    opening = max(1, d.get("opening", 1))
    low, high = interval(d["loss"], d["loss_stderr"])
    words: dict[str, Any] = {
        "best": rival, "chosen": chosen, "loss": chips(d["loss"]), "low": chips(low),
        "high": chips(high), "half": chips(opening / 2), "units": f"{d['loss'] / opening:.1f}",
        "call": d.get("to_call", 0), "pi": d.get("pi", 0),
        "win": percentage(d.get("win", 0)),
        # every "±" in these sentences is the grade's 95 % margin (Z_LOOKS standard errors:
        # the evaluation looks at its worlds up to three times), as the loss's interval
        "win_se": percentage(Z_LOOKS * d.get("win_stderr", 0))}
    exact = d.get("exact", False)  # every world counted: no interval, no error
    if d.get("rival", d["best"]) == d["chosen"]:
        first = _("没有哪种选择明显比你的“%(chosen)s”好。") % words
    else:
        words |= {"ahead": chips(-d["loss"]), "ahead_low": chips(-high),
                  "ahead_high": chips(-low)}
        if exact and words["loss"] == "0.0":
            first = _("“%(best)s”和你的“%(chosen)s”平均差不多") % words
        elif exact and d["loss"] >= 0:
            first = _("“%(best)s”比你的“%(chosen)s”平均多 %(loss)s 个筹码") % words
        elif exact and d.get("against_choice"):
            first = _("你的“%(chosen)s”比你在牌桌上选的“%(best)s”平均多 %(ahead)s 个筹码") % words
        elif exact:
            first = _("你的“%(chosen)s”比别的选择里最好的“%(best)s”平均多 %(ahead)s 个筹码") % words
        elif words["loss"] == "0.0":
            first = _("“%(best)s”和你的“%(chosen)s”平均差不多，95%% 的把握在 %(low)s 到 "
                      "%(high)s 之间") % words
        elif d["loss"] >= 0:
            first = _("“%(best)s”比你的“%(chosen)s”平均多 %(loss)s 个筹码，95%% 的把握在 "
                      "%(low)s 到 %(high)s 之间") % words
        elif d.get("against_choice"):
            first = _("你的“%(chosen)s”比你在牌桌上选的“%(best)s”平均多 %(ahead)s 个筹码，"
                      "95%% 的把握在 %(ahead_low)s 到 %(ahead_high)s 之间") % words
        else:
            first = _("你的“%(chosen)s”比“%(best)s”（在另一批牌局上挑出的别的选择里最好的）"
                      "平均多 %(ahead)s 个筹码，95%% 的把握在 %(ahead_low)s 到 %(ahead_high)s "
                      "之间") % words
        lower, upper = (band(x, 0.0, opening) or CLOSE for x in (low, high))
        if d["grade"] == CLOSE and lower == upper:
            # the interval lies in one band: another option beat the rival on these worlds
            top = max((o for i, o in enumerate(d["options"])
                       if i not in (d.get("rival", d["best"]), d["chosen"])),
                      key=lambda o: o["ev"])
            first += _("；但在这些牌局上“%(top)s”明显比“%(best)s”好，而“%(best)s”是在另一批"
                       "牌局上挑出来的：哪个最好还说不准，难分。") % {
                "top": option_label(top, leads(d)), "best": rival}
        elif d["grade"] == CLOSE:
            first += _("：可能算“%(lower)s”，也可能算“%(upper)s”，难分。") % {
                "lower": _grade_word(lower), "upper": _grade_word(upper)}
        elif d["grade"] == "好" and d["loss"] >= 0:
            first += (_("，不到发招的一半（%(half)s），算好。") if exact else
                      _("，都不到发招的一半（%(half)s），算好。")) % words
        elif d["grade"] == "好":
            first += _("，算好。")
        else:
            first += _("（发招的 %(units)s 倍）。") % words
    call = d.get("call")
    if d.get("to_call") and call:
        fold = next(o for o in d["options"] if o["kind"] == "fold")
        calling = next(o for o in d["options"] if o["kind"] == "call")
        gap = calling["ev"] - fold["ev"]
        share, needs = percentages(call["share"], call["needs"])
        words |= {"share": share, "share_se": percentage(Z_LOOKS * call["share_stderr"]),
                  "needs": needs, "needs_se": percentage(Z_LOOKS * call["needs_stderr"]),
                  "gain": chips(call["gain"]), "lose": chips(call["loss"]), "gap": chips(abs(gap)),
                  "se": chips(Z_LOOKS * calling["stderr"])}  # the 95 % margin the test uses
        if call["share"] >= 1:  # every world counted on one side: no share to weigh
            second = _("瞧要再放 %(call)s。瞧下去，算到的每一种牌局最后都比现在甩牌强，"
                       "平均强 %(gain)s 个筹码。") % words
        elif call["share"] <= 0:
            second = _("瞧要再放 %(call)s。瞧下去，算到的牌局没有一种比现在甩牌强，"
                       "平均差 %(lose)s 个筹码。") % words
        elif exact:
            second = _("瞧要再放 %(call)s。瞧下去，%(share)s%% 的牌局最后比现在甩牌强，"
                       "平均强 %(gain)s 个筹码，其余的平均差 %(lose)s 个；要不亏，这个比例"
                       "至少要 %(needs)s%%。") % words
        else:
            second = _("瞧要再放 %(call)s。瞧下去，约 %(share)s%%（95%% 的误差范围 "
                       "±%(share_se)s%%）的牌局最后比现在甩牌强，平均强 %(gain)s 个筹码，"
                       "其余的平均差 %(lose)s 个；"
                       "要不亏，这个比例至少要 %(needs)s%%（±%(needs_se)s%%）。") % words
        if exact:
            if gap == 0:
                second += _("瞧和甩平均一样多。")
            elif gap > 0:
                second += _("所以瞧比甩平均多 %(gap)s 个筹码。") % words
            else:
                second += _("所以瞧比甩平均少 %(gap)s 个筹码。") % words
        elif abs(gap) <= Z_LOOKS * calling["stderr"]:
            second += _("瞧和甩平均差 %(gap)s 个筹码，在 95%% 的误差范围（±%(se)s）"
                        "以内。") % words
        elif gap > 0:
            second += _("所以瞧比甩平均多 %(gap)s 个筹码（95%% 的误差范围 ±%(se)s）。") % words
        else:
            second += _("所以瞧比甩平均少 %(gap)s 个筹码（95%% 的误差范围 ±%(se)s）。") % words
    elif d.get("to_call"):
        second = _("瞧要再放 %(call)s。") % words
    else:
        second = _("没人下注，休一分钱不花。")
    if "win" in d and exact:  # another measure, in a sentence of its own
        second += _("要是现在就摊牌、谁也不再下注，这手牌 %(win)s%% 的牌局会赢钱。") % words
    elif "win" in d:
        second += _("要是现在就摊牌、谁也不再下注，这手牌约 %(win)s%%（95%% 的误差范围 "
                    "±%(win_se)s%%）的牌局会赢钱。") % words
    if d.get("pi"):
        second += _("甩牌的人留下的皮有 %(pi)s，归尾最大的人。") % words
    if exact:
        second += _("这些数都是精确值：对方可能拿的每一对暗牌、之后每一种打法都算到了，"
                    "不是抽样估计。")
    return f"{first}{second}"


def _grade_word(word: str) -> str:
    """A grade as the sentences name it (its English gloss in English)."""
    return gloss(word) or word


def split_label(o: dict[str, Any]) -> str:
    """A split as 头 and 尾 with their (Chinese) names, or the 三花 declared."""
    if "sanhua" in o:
        return format_html('<span lang="zh-Hans">{}</span>', o["sanhua"])
    return format_html('{} <span lang="zh-Hans">{}</span> | {} <span lang="zh-Hans">{}</span>',
                       _("头"), o["head_name"], _("尾"), o["tail_name"])


def _split(s: dict[str, Any] | None) -> dict[str, Any] | None:
    if s is None:
        return None
    low, high = interval(s["loss"], s["loss_stderr"])
    options = [{**o, "label": split_label(o), "best": i == s["best"], "chosen": i == s["chosen"]}
               for i, o in enumerate(s["options"])]
    return {**s, "options": options, "gloss": gloss(s["grade"]), "low": chips(low),
            "high": chips(high)}


@require_safe
def review_page(request: HttpRequest, table_id: uuid.UUID, number: int) -> HttpResponse:
    """复盘: the hand with every card shown, each decision graded, the split priced."""
    table = _hand(request, table_id, number)
    data = coach.stored(table, number)
    here = reverse("coach-review", args=[table.id, number])
    if data is None:
        context = {"table": table, "number": number,
                   **_progress(request, jobs.review_key(table.id, number), here,
                               reverse("coach-review-ask", args=[table.id, number]),
                               auto=True)}
        if is_htmx(request):
            return render(request, "coach/computing.html#progress", context)
        return render(request, "coach/computing.html", context)
    if is_htmx(request) and "step" not in request.GET:
        # polled (or asked) from the progress, and the review is in: the whole page
        return HttpResponse(headers={"HX-Refresh": "true"})
    row = table.hands.get(number=number)
    players = _players(table_store.replayed(row), every_card=True)
    decisions = [_figures({**d, "opening": data["opening"], "index": k})
                 for k, d in enumerate(data["decisions"])]
    try:
        step = query_int(request.GET, "step", pgettext("address", "步数"), 0,
                         len(row.log) - 1, 0)
    except BadQuery as e:  # said on the page, at the deal (never silently step 0)
        step, problem, status = 0, e.message, 400
    else:
        problem, status = "", 200
    context = {"table": table, "number": number, "players": players, "review": data,
               "decisions": decisions, "split": _split(data["split"]),
               "replay": _step(row, step, decisions), "problem": problem}
    if is_htmx(request) and "step" in request.GET:
        return render(request, "coach/review.html#replay", context, status=status)
    return render(request, "coach/review.html", context, status=status)


def _players(game: Game, every_card: bool) -> list[dict[str, Any]]:
    """The hand's players as the coach's pages list them: every card each was dealt (not
    those a fold left in the deck), or only the cards the learner saw, the others counted
    as face down; their stake now and (once the hand is over) their net, the 芒果 they paid
    before the deal included (as the table's 本场 counts it)."""
    h = game.hand
    assert h is not None
    players = []
    for i in h.order:
        dealt = game.dealt(i)
        cards = h.cards[i][:dealt] if every_card else game.visible_cards(i, coach.HUMAN)
        players.append({"name": display_name(game, i), "me": i == coach.HUMAN,
                        "folded": h.folded[i], "cards": [card_by_label(c) for c in cards],
                        "hidden": dealt - len(cards), "stake": h.committed[i],
                        "net": h.result.nets[i] - h.mango_paid[i] if h.result else 0})
    return players


def _step(row: PracticeHand, step: int, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """The hand after its action ``step`` (0 = the deal) with every dealt card face up."""
    game = table_store.replayed(row, step + 1)
    h = game.hand
    assert h is not None
    return {**step_links(step, len(row.log) - 1), "seats": _players(game, every_card=True),
            "log": hand_log(game, h, lambda i: display_name(game, i), True),
            # the graded decision taken at the next action, if it is the learner's
            "decision": next((d for d in decisions if d["step"] == step + 1), None)}


@require_safe
def summary(request: HttpRequest, table_id: uuid.UUID, number: int) -> HttpResponse:
    """The coach's verdict on a finished hand: a fragment for the table (htmx)."""
    table = _hand(request, table_id, number)
    data = coach.stored(table, number)
    if data is None:
        here = reverse("coach-summary", args=[table.id, number])
        return render(request, "coach/computing.html#progress",
                      _progress(request, jobs.review_key(table.id, number), here,
                                reverse("coach-review-ask", args=[table.id, number])))
    decisions = []
    for k, d in enumerate(data["decisions"]):
        shown = _figures({**d, "opening": data["opening"], "index": k})
        shown["loss_shown"] = coach.counted(d["loss"], d["loss_stderr"]) > 0
        shown["loss_error"] = Z_LOOKS * d["loss_stderr"]
        decisions.append(shown)
    return render(request, "coach/_summary.html",
                  {"decisions": decisions, "split": _split(data["split"])})


@require_POST
@rate_limited("compute")
def ask_review(request: HttpRequest, table_id: uuid.UUID, number: int) -> HttpResponse:
    """Ask a worker for the review of a hand (once: a stored or asked review is not asked
    again), then back to ``next``, the page that polls for it."""
    table = _hand(request, table_id, number)
    if coach.stored(table, number) is None:
        jobs.ask_review(table, number)
    return _ask_done(request)


@require_POST
def switch(request: HttpRequest) -> HttpResponse:
    """Switch the coach on or off for this learner's account, or for this device without
    one (back to ``next``)."""
    choice = request.POST.get("coach")
    if choice not in ("on", "off"):
        return HttpResponse(_("教练只能打开或关掉"), status=400, content_type="text/plain")
    switch_coach(request, choice == "off")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("table")
    return HttpResponseRedirect(target, status=303)


@require_safe
def export_hand(request: HttpRequest, table_id: uuid.UUID, number: int) -> HttpResponse:
    """The hand as ``python -m engine review`` reads it (a download)."""
    table = _hand(request, table_id, number)
    try:
        data = coach.export(table, number)
    except coach.CoachError:
        raise Http404("this hand cannot be exported") from None
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="chexuan-hand-{number}.json"'
    return response


def _retry_context(request: HttpRequest, table_id: uuid.UUID, number: int, k: int
                   ) -> tuple[dict[str, Any], Game, int]:
    """What 再来一次 shows of decision ``k`` (what the learner saw then), the table then,
    and the opening 发招."""
    table = _hand(request, table_id, number)
    data = _review(table, number)
    if not 0 <= k < len(data["decisions"]):
        raise Http404("no such decision")
    d = _figures({**data["decisions"][k], "opening": data["opening"], "index": k})
    game = table_store.replayed(table.hands.get(number=number), d["step"])
    h = game.hand
    assert h is not None
    seats = _players(game, every_card=False)
    legal = game.legal_actions(coach.HUMAN)
    context: dict[str, Any] = {
        "table": table, "number": number, "d": d, "seats": seats,
        "log": hand_log(game, h, lambda i: display_name(game, i), False),
        "picked": None, "error": None, "following": _next_mistake(table, number, k),
        "lead": leads(d),
        "raise_range": (None if legal.min_raise is None
                        else (legal.min_raise, legal.max_raise))}
    return context, game, data["opening"]


def _picked(d: dict[str, Any], j: int, opening: int) -> dict[str, Any]:
    """Option ``j`` of a stored decision graded from the stored figures: against the
    decision's best, or, for the best itself (the rival that beat the choice), against
    the choice, with the pair's own error (it was graded against itself: ± 0, 好 beside
    an option with a higher figure)."""
    mine = d["options"][j]
    if j == d["chosen"]:  # as the review graded it
        rival, loss, se = d.get("rival", d["best"]), d["loss"], d["loss_stderr"]
    elif j == d["best"]:  # the rival that beat the choice: the same pair, turned round
        rival, loss, se = d["chosen"], -d["loss"], d["loss_stderr"]
    else:
        rival = d["best"]
        other = d["options"][rival]
        loss = other["ev"] - mine["ev"]
        se = (other["stderr"] ** 2 + mine["stderr"] ** 2) ** 0.5
    # compared with the learner's choice at the table (the sentence says so, not "the best
    # of the others"): the pick that beat it, or any pick when the choice was the best
    top = d["options"][rival]
    verdict = d["grade"] if j == d["chosen"] else grade(loss, se, opening)
    return {"option": mine, "loss": loss, "se": se, "grade": verdict, "gloss": gloss(verdict),
            "why": why({**d, "chosen": j, "rival": rival, "loss": loss, "loss_stderr": se,
                        "grade": verdict,
                        "against_choice": j != d["chosen"] and rival == d["chosen"]},
                       top["label"], mine["label"]),
            "options": [{**o, "chosen": i == j} for i, o in enumerate(d["options"])],
            "higher": d["higher"]}


def _answer(request: HttpRequest, context: dict[str, Any], status: int,
            retarget: bool = False) -> HttpResponse:
    """The answer (htmx: the fragment); ``retarget``: it replaces the whole ``#answer``
    of a page that was polling for it."""
    fragment = is_htmx(request)
    response = render(request, "coach/retry.html#answer" if fragment else "coach/retry.html",
                      context, status=status)
    if retarget:
        response["HX-Retarget"] = "#answer"
    return response


@require_safe
def retry(request: HttpRequest, table_id: uuid.UUID, number: int, k: int) -> HttpResponse:
    """再来一次: decision ``k`` of hand ``number`` again, with what the learner saw then;
    ``?pick=j`` grades option ``j`` from the stored figures."""
    context, _game, opening = _retry_context(request, table_id, number, k)
    d = context["d"]
    if "pick" not in request.GET:
        return render(request, "coach/retry.html", context)
    raw = request.GET["pick"]
    try:
        picked = parse_int(raw, 0, len(d["options"]) - 1)
    except NumberError:
        context["error"] = _("请从下面的选项里选一个")
        return _answer(request, context, 400)
    context["picked"] = _picked(d, picked, opening)
    return _answer(request, context, 200)


BETS = ("raise", "tuo", "qiao")


def _raise_amount(request: HttpRequest, context: dict[str, Any], game: Game,
                  raw: str) -> Action | HttpResponse:
    """The 返 of ``raw`` checked against the table then, or the answer with its message
    (400: nothing asked, nothing stored)."""
    context["amount"] = raw
    try:
        amount = parse_int(raw, 0, MAX_AMOUNT)
    except NumberError as e:
        if not e.out_of_range:
            context["error"] = _("返到多少要写一个整数")
            return _answer(request, context, 400)
        # a whole number below 0 or past any 钵钵: the engine says the limit it breaks
        amount = -1 if e.too_small else MAX_AMOUNT + 1
    try:
        return game.verify(Action(Act.RAISE, coach.HUMAN, amount))
    except ActionError as e:
        context["error"] = error_message(e)
        return _answer(request, context, 400)


def _priced(d: dict[str, Any], amount: int) -> int | None:
    """The stored option that is a 返 (or 拖 / 敲) to ``amount``, if the review priced it."""
    return next((j for j, o in enumerate(d["options"])
                 if o["kind"] in BETS and o.get("amount") == amount), None)


@require_safe
def retry_raise(request: HttpRequest, table_id: uuid.UUID, number: int, k: int
                ) -> HttpResponse:
    """再来一次 with a 返 to the learner's own amount (``?amount=N``, within the legal
    limits), graded from the stored figures when the review priced that amount, else from
    the decision priced again with it among the alternatives (:func:`coach.repriced`,
    computed by a worker: until then its progress, polled).  A bad amount: the message,
    400."""
    context, game, opening = _retry_context(request, table_id, number, k)
    d = context["d"]
    action = _raise_amount(request, context, game, request.GET.get("amount", "").strip())
    if isinstance(action, HttpResponse):
        return action
    assert action.amount is not None
    table = context["table"]
    same = _priced(d, action.amount)
    if same is not None:
        context["picked"] = _picked(d, same, opening)
        return _answer(request, context, 200, retarget=_polled(request))
    priced = coach.repriced(table, number, k, action.amount)
    if priced is None:
        here = f"{reverse('coach-retry-raise', args=[table.id, number, k])}?amount={action.amount}"
        context["progress"] = _progress(
            request, jobs.reprice_key(table.id, number, k, action.amount), here,
            reverse("coach-retry-raise-ask", args=[table.id, number, k]),
            fields={"amount": action.amount})
        if _polled(request):
            return render(request, "coach/computing.html#progress", context["progress"])
        return _answer(request, context, 200)
    fresh = _figures({**priced, "opening": opening, "index": k, "step": d["step"]})
    context["picked"] = {"option": fresh["options"][fresh["chosen"]], "loss": fresh["loss"],
                         "se": fresh["loss_stderr"], "grade": fresh["grade"],
                         "gloss": fresh["gloss"], "why": fresh["why"],
                         "options": fresh["options"], "higher": fresh["higher"],
                         "repriced": True}
    return _answer(request, context, 200, retarget=_polled(request))


@require_POST
@rate_limited("compute")
def ask_raise(request: HttpRequest, table_id: uuid.UUID, number: int, k: int
              ) -> HttpResponse:
    """Ask a worker to price decision ``k`` again with a 返 to ``amount`` (unless the
    review or an earlier ask priced it), then the answer's page (303), which polls."""
    context, game, _opening = _retry_context(request, table_id, number, k)
    action = _raise_amount(request, context, game, request.POST.get("amount", "").strip())
    if isinstance(action, HttpResponse):
        return action
    assert action.amount is not None
    table = context["table"]
    if (_priced(context["d"], action.amount) is None
            and coach.repriced(table, number, k, action.amount) is None):
        jobs.ask_reprice(table, number, k, action.amount)
    here = reverse("coach-retry-raise", args=[table.id, number, k])
    return HttpResponseRedirect(f"{here}?amount={action.amount}", status=303)


def _next_mistake(table: PracticeTable, number: int, k: int) -> dict[str, Any] | None:
    """The session's costliest betting decision after this one (costliest first)."""
    reviews = [row.data for row in HandReview.objects.filter(table=table).order_by("number")]
    order = [(c["number"], c["index"]) for c in coach.report(reviews, limit=None)["costly"]
             if not c["split"]]
    later = order[order.index((number, k)) + 1:] if (number, k) in order else order
    if not later:
        return None
    return {"number": later[0][0], "index": later[0][1]}


REVIEWS_PER_POST = 5  # hands reviewed by one "review the rest" POST (≈ 0.3–1 s each)


def _sessions(request: HttpRequest) -> list[dict[str, Any]]:
    """Every table of this visitor with finished hands, oldest first, with the figures of
    its reviewed hands: progress across sessions."""
    owner = reader_key(request)
    if not owner:
        return []
    tables = (PracticeTable.objects.filter(owner=owner).annotate(finished=Count("hands"))
              .filter(finished__gt=0).order_by("created"))
    by_table: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for row in HandReview.objects.filter(table__owner=owner).order_by("number"):
        by_table.setdefault(row.table_id, []).append(row.data)
    out = []
    for t in tables:
        r = coach.report(by_table.get(t.id, []))
        out.append({"id": t.id, "created": t.created, "finished": t.finished,
                    "hands": r["hands"], "chips": r["chips"], "adjusted": r["adjusted"],
                    "adjusted_error": r["adjusted_error"], "lost_per_hand": r["lost_per_hand"],
                    "lost_per_hand_error": r["lost_per_hand_error"]})
    return out


@require_safe
@same_for_newcomers
def index(request: HttpRequest) -> HttpResponse:
    """The coach's own page: what it does, the switch, and the visitor's sessions."""
    return render(request, "coach/index.html", {"sessions": _sessions(request),
                                                "coach_off": coach_off(request)})


@require_safe
def report_page(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    """The session report: result, luck-adjusted result, chips lost by kind, the five
    costliest decisions, the chart; the visitor's other sessions for progress."""
    table = _load(request, table_id)
    reviews = [row.data for row in HandReview.objects.filter(table=table).order_by("number")]
    r = coach.report(reviews)
    for c in r["costly"]:
        d = c["decision"]
        c["label"] = (split_label(d["options"][d["chosen"]]) if c["split"]
                      else option_label(d["options"][d["chosen"]], leads(d)))
        c["gloss"] = gloss(c["grade"])
    asked = len(jobs.asked_reviews(table))
    if _polled(request):  # reviews being computed: the page again once they are all in
        return HttpResponse(status=204) if asked else HttpResponse(
            headers={"HX-Refresh": "true"})
    context = {"table": table, "report": r, "chart": coach.chart(r["curve"]),
               "missing": len(coach.missing(table)), "per_post": REVIEWS_PER_POST,
               "asked": asked, "sessions": _sessions(request)}
    return render(request, "coach/report.html", context)


@require_POST
@rate_limited("compute")
def review_rest(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    """Ask a worker for the reviews of up to :data:`REVIEWS_PER_POST` more hands of the
    session (not those asked already), then the report, which polls until they are in."""
    table = _load(request, table_id)
    asked = jobs.asked_reviews(table)
    for number in [n for n in coach.missing(table) if n not in asked][:REVIEWS_PER_POST]:
        jobs.ask_review(table, number)
    return HttpResponseRedirect(reverse("coach-report", args=[table.id]), status=303)


urlpatterns = [
    path("", index, name="coach"),
    path("switch", switch, name="coach-switch"),
    path("<uuid:table_id>/<int:number>/summary", summary, name="coach-summary"),
    path("<uuid:table_id>/", report_page, name="coach-report"),
    path("<uuid:table_id>/review-rest", review_rest, name="coach-review-rest"),
    path("<uuid:table_id>/<int:number>/", review_page, name="coach-review"),
    path("<uuid:table_id>/<int:number>/hand.json", export_hand, name="coach-export"),
    path("<uuid:table_id>/<int:number>/retry/<int:k>/", retry, name="coach-retry"),
    path("<uuid:table_id>/<int:number>/retry/<int:k>/raise", retry_raise,
         name="coach-retry-raise"),
    path("<uuid:table_id>/<int:number>/retry/<int:k>/raise/ask", ask_raise,
         name="coach-retry-raise-ask"),
    path("<uuid:table_id>/<int:number>/review", ask_review, name="coach-review-ask"),
]
