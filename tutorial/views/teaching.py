"""The teaching table: ``/course/table/<n>/`` is stop *n* of the scripted first hand
(:mod:`tutorial.teaching`).  The buttons are the practice table's, as GET forms:
``?act=call`` (``&amount=`` for 返, ``&head=`` twice for 扯).  The suggested one leads
to the next stop; another one stays and says why it is not suggested here; a button the
table does not offer now, or a bad amount, is refused with 400.  The action that finishes
the hand (the split) is a POST form: that POST, when it is the suggested split, records the
teaching table as done for the visitor (:func:`record_finished`, shown on the course map).
Nothing else is stored, and a GET never writes.
"""

from __future__ import annotations

from typing import Any

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_safe

from engine.game import Act, Game, Phase, card_by_label
from engine.numbers import NumberError, parse_int
from tutorial import teaching
from tutorial.accounts import owned
from tutorial.course import TEACHING, text
from tutorial.models_course import record_finished
from tutorial.ratelimit import rate_limited
from tutorial.teaching import LEARNER
from tutorial.views.quiz import _session_key
from tutorial.views.table import CardView, _result_view, display_name

# What each button means, shown under it (the practice table's words).
MEANINGS = {
    Act.CALL: "跟到现在的注",
    Act.RAISE: "加注，至少翻一倍",
    Act.TUO: "正好翻一倍",
    Act.QIAO: "把钵钵全押上",
    Act.CHECK: "先不下注（还没人下注时）",
    Act.FOLD: "不要了，押下的留在桌上",
    Act.SPLIT: "分成头和尾，亮牌比大小",
}
#: what the same button means while nobody has bet this round (it then says 发招, not 返)
LEAD_MEANING = "这一轮的第一注，至少翻一倍"


def _stop_url(n: int) -> str:
    return reverse("teaching_stop", args=[n])


@require_safe
def start(request: HttpRequest) -> HttpResponse:
    return HttpResponseRedirect(_stop_url(1))


def _seats(game: Game, squeeze: bool) -> list[dict[str, Any]]:
    h = game.hand
    live = h is not None and h.result is None
    seats = []
    for i, s in enumerate(game.seats):
        cards: list[CardView] = []
        status = ""
        committed = 0
        if h is not None and i in h.order:
            shown = game.visible_cards(i, LEARNER)
            cards = [CardView(None)] * (game.dealt(i) - len(shown))
            cards += [CardView(card_by_label(c), c) for c in shown]
            if i == LEARNER and squeeze:
                cards[3] = CardView(None)
            if h.folded[i]:
                status = pgettext("course", "甩了")
            elif live and h.checked[i] and not h.bet_this_round:
                status = pgettext("course", "休了")
            committed = h.committed[i] if live else 0
        marks = live and not squeeze and h is not None
        seats.append({
            "index": i, "name": display_name(game, i), "bot": s.bot, "cards": cards,
            "bobo": s.bobo - committed, "stake": committed, "status": status,
            "folded": h is not None and i in h.order and h.folded[i],
            "dealer": game.state.dealer == i if h is None else h.dealer == i,
            "dangjia": h is not None and h.dangjia == i,
            "to_act": marks and h is not None and h.to_act == i,
            "leader": marks and h is not None and h.leader == i and h.round in (2, 3),
        })
    return seats


def _buttons(game: Game) -> list[dict[str, Any]]:
    legal = teaching.legal(game)
    words = {
        Act.CALL: pgettext("course", "瞧到 %(n)s") % {"n": legal.call_to},
        Act.CHECK: pgettext("course button", "休"),
        Act.FOLD: pgettext("course", "甩"),
        Act.TUO: pgettext("course", "拖到 %(n)s") % {"n": legal.tuo},
        Act.QIAO: pgettext("course", "敲（%(n)s）") % {"n": legal.qiao},
    }
    return [{"act": a.value, "word": words[a], "meaning": text(MEANINGS[a])}
            for a in legal.acts if a in words]


@rate_limited("write")
@require_http_methods(["GET", "HEAD", "POST"])
def stop(request: HttpRequest, n: int) -> HttpResponse:
    all_stops = teaching.stops()
    if not 1 <= n <= len(all_stops):
        raise Http404(pgettext("course", "教学牌桌没有这一步。"))
    current = all_stops[n - 1]
    finishing = teaching.finishes(current)
    posted = request.method == "POST"
    if posted and not finishing:  # the other buttons are GET forms
        return HttpResponseNotAllowed(["GET", "HEAD"])
    form = request.POST if posted else request.GET
    game = teaching.game_at(n)
    context: dict[str, Any] = {
        "stop": current, "n": n, "total": len(all_stops),
        "dots": ["done"] * (n - 1) + ["current"] + ["todo"] * (len(all_stops) - n),
    }
    status = 200
    legal = teaching.legal(game)
    if "act" in form:
        try:
            act = Act(form["act"])
            amount = None
            if act is Act.RAISE and legal.min_raise is not None and legal.max_raise is not None:
                amount = parse_int(form.get("amount"), legal.min_raise, legal.max_raise)
            tried = teaching.attempt(current, game, act, amount, form.getlist("head"))
        except NumberError:  # the board says "a 到 b" under the field: so does this
            context["problem"] = pgettext(
                "course", "返到多少：要写 %(a)s 到 %(b)s 之间的整数。") % {
                    "a": legal.min_raise, "b": legal.max_raise}
            status = 400
        except ValueError:
            context["problem"] = pgettext(
                "course", "现在不能这样做：请按下面的一个按钮（返要写到多少，扯要选两张牌）。")
            status = 400
        else:
            if tried.ok:
                if posted:  # the hand is finished: the course map marks the table done
                    key = _session_key(request)
                    with owned(key):
                        record_finished(key, TEACHING)
                    return HttpResponseRedirect(_stop_url(n + 1), status=303)
                return HttpResponseRedirect(_stop_url(n + 1))
            context["tried"] = tried
            context["why"] = text(tried.why) if tried.why else text(
                "在这手教学里，先照建议打；以后在练习牌桌上可以随便试。")
    h = game.hand
    choosing = current.you is not None
    context.update(
        title=text(current.title),
        paragraphs=[text(p) for p in current.text],
        seats=_seats(game, current.squeeze),
        hand=h, live=h is not None and h.result is None, stakes=game.rules.stakes,
        level=h.level if h is not None else 0, round=h.round if h is not None else 0,
        choosing=choosing, legal=legal,
        betting=choosing and game.phase is Phase.BETTING,
        splitting=choosing and game.phase is Phase.SHOWDOWN,
        buttons=_buttons(game) if choosing else [],
        meanings={**{a.value: text(m) for a, m in MEANINGS.items()},
                  "lead": text(LEAD_MEANING)},
        my_cards=[CardView(card_by_label(c), c) for c in game.visible_cards(LEARNER, LEARNER)],
        squeeze_card=card_by_label(h.cards[LEARNER][3]) if current.squeeze and h else None,
        result=_result_view(game, h) if h is not None and h.result is not None else None,
        learner_won=h is not None and h.result is not None and h.result.winner == LEARNER,
        last=n == len(all_stops),
        next_url=_stop_url(n + 1) if n < len(all_stops) else "",
        next_label=text(current.next_label) if current.next_label else "",
        suggestion=_suggestion(current, legal),
        finishing=finishing, method="post" if finishing else "get",
        suggested=_suggested_fields(current) if finishing else None,
    )
    return render(request, "course/teach.html", context, status=status)


def _suggested_fields(current: teaching.Stop) -> dict[str, Any] | None:
    """The form fields of the suggested action (the 下一步 of a stop whose action is a POST)."""
    you = current.you
    if you is None:
        return None
    return {"act": you.kind.value, "amount": you.amount if you.kind is Act.RAISE else None,
            "head": you.cards[:2] if you.kind is Act.SPLIT else ()}


def _suggestion(current: teaching.Stop, legal: Any) -> str:
    """The suggested button, in words (for the 下一步 link on a stop that asks for one)."""
    you = current.you
    if you is None:
        return ""
    if you.kind is Act.RAISE:
        return pgettext("course", "发招到 %(n)s") % {"n": you.amount} if legal.opening else \
            pgettext("course", "返到 %(n)s") % {"n": you.amount}
    if you.kind is Act.SPLIT:
        return pgettext("course", "扯")
    if you.kind is Act.CALL:
        return pgettext("course", "瞧到 %(n)s") % {"n": legal.call_to}
    return {Act.CHECK: pgettext("course button", "休"), Act.FOLD: pgettext("course", "甩")}.get(
        you.kind, you.kind.label)
