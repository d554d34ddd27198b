"""The practice table against bots (``/table/``).

One view renders either the full page or, for htmx requests, just the board fragment
(``{% partialdef board %}`` in ``templates/table/table.html``).  Every action is a POST
carrying the state's sequence number; a stale number, another visitor's table or a
tampered value is answered with 4xx and a message, and the state is unchanged.
"""

from __future__ import annotations

import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from engine.advisor import advise
from engine.cards import Card, CardError
from engine.game import (
    BOT_LEVELS,
    MAX_REBUY,
    Act,
    Action,
    ActionError,
    ErrorCode,
    Game,
    Hand,
    Phase,
    card_by_label,
    hand_from_dict,
)
from engine.groups import Group
from engine.numbers import MAX_AMOUNT, NumberError, parse_int
from engine.quiz import shown_percents
from engine.rules import STAKES, Rules, RulesError, get_stakes
from tutorial import jobs, ratelimit, table_store
from tutorial.accounts import coach_off, owned, reader_key, writer_key
from tutorial.fragments import is_htmx
from tutorial.glossary import group_html
from tutorial.language import listing
from tutorial.models_table import PracticeTable
from tutorial.pagecache import same_for_newcomers
from tutorial.query import BadQuery, query_choice, query_int
from tutorial.ratelimit import rate_limited
from tutorial.search import catalogue_for
from tutorial.table_log import hand_log, split_view

HUMAN = 0
BOT_NAMES = ("电脑甲", "电脑乙", "电脑丙", "电脑丁", "电脑戊", "电脑己", "电脑庚")


class Rejected(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class Limited(Exception):
    """An expert's move asked for over the ``compute`` limit: the rate limit's answer
    (:func:`tutorial.ratelimit.too_many`) after ``wait`` seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


# ---------------------------------------------------------------------- helpers
def _load(request: HttpRequest, table_id: uuid.UUID, lock: bool = False) -> PracticeTable:
    qs = PracticeTable.objects.select_for_update() if lock else PracticeTable.objects
    try:
        table = qs.get(pk=table_id)
    except PracticeTable.DoesNotExist:
        raise Http404("no such table") from None
    if table.owner != reader_key(request):
        raise Http404("no such table")  # never reveal that another visitor's table exists
    return table


def _int(value: str | None, name: str, low: int = -MAX_AMOUNT, high: int = MAX_AMOUNT) -> int:
    """``value`` as a whole number in ``low … high``; ``name`` says in words which field."""
    try:
        return parse_int(value, low, high)
    except NumberError as e:
        words = {"name": name, "min": f"{low:,}", "max": f"{high:,}"}
        if e.too_small:
            raise Rejected(_("%(name)s：太小了，最少 %(min)s") % words) from None
        if e.out_of_range:
            raise Rejected(_("%(name)s：数字太大，最多 %(max)s") % words) from None
        raise Rejected(_("%(name)s：请填一个整数") % words) from None


def _check_seq(request: HttpRequest, table: PracticeTable) -> None:
    seq = _int(request.POST.get("seq"), _("步数（页面上的隐藏字段）"), 0)
    if seq != table.seq:
        raise Rejected(_("这一步已经过期（牌桌已经变了，可能是重复点击或另一个窗口）。"
                         "请看最新的牌面再操作。"), 409)


def _squeeze_pending(table: PracticeTable, game: Game) -> bool:
    """The visitor still has to squeeze (串牌) this hand's fourth card: in round 3, or at
    the showdown when everyone was all-in before it and the cards were dealt out."""
    h = game.hand
    if h is None or HUMAN not in game.in_hand() or table.squeezed == h.number:
        return False
    if game.phase is Phase.BETTING:
        return h.round >= 3
    return (game.phase is Phase.SHOWDOWN and str(HUMAN) not in h.splits
            and str(HUMAN) not in h.sanhua)


# ---------------------------------------------------------------------- presentation
#: The Chinese message (msgid; English in locale/table) of every engine refusal.
#: Placeholders are the error's params (engine.game.ERROR_PARAMS); ``act`` is shown as
#: the action's word, ``name`` / ``who`` as the seat's display name.
ERROR_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.UNKNOWN_ACTION: N_("没有“%(act)s”这种操作"),
    ErrorCode.BAD_SEAT: N_("座位号必须是整数"),
    ErrorCode.BAD_AMOUNT: N_("数目必须是整数"),
    ErrorCode.BAD_CARDS: N_("牌必须写成一串牌名"),
    ErrorCode.SESSION_OVER: N_("这一场已经结束了"),
    ErrorCode.BETWEEN_HANDS_ONLY: N_("“%(act)s”只能在两手牌之间做"),
    ErrorCode.NO_SEAT: N_("没说是哪个座位"),
    ErrorCode.NOT_YOUR_TURN: N_("还没轮到你，现在轮到 %(who)s"),
    ErrorCode.NOBODY_TO_ACT: N_("现在谁都不用说话"),
    ErrorCode.NO_SANHUA: N_("这手牌不是三花（或者这一桌没开三花）"),
    ErrorCode.SHOWDOWN_SPLIT_ONLY: N_("已经比牌了：请扯牌，或者报三花"),
    ErrorCode.CANNOT_CHECK: N_("有人下了注，就不能休了"),
    ErrorCode.NOTHING_TO_CALL: N_("没有注可瞧：休，或者下注"),
    ErrorCode.RAISE_UNAFFORDABLE: N_("返招至少要到 %(min)s，比你的钵钵还多：只能敲"),
    ErrorCode.TUO_NOT_ALLOWED: N_("拖就是翻到 %(level)s：低于返招的下限 %(floor)s，"
                                  "或者超过了你的钵钵"),
    ErrorCode.CANNOT_COVER: N_("你的钵钵只有 %(bobo)s，不比现在的注 %(level)s 多："
                               "瞧就是全押上，或者甩"),
    ErrorCode.NOBODY_TO_ANSWER: N_("还在的人都全下了，没人能再跟你的注：只能瞧或者甩"),
    ErrorCode.NOT_POSSIBLE: N_("现在不能“%(act)s”"),
    ErrorCode.RAISE_NEEDS_AMOUNT: N_("返招要写到多少"),
    ErrorCode.RAISE_TOO_SMALL: N_("返招至少要到 %(min)s（现在的注 %(level)s 的两倍，"
                                  "也不能低于 %(floor)s）"),
    ErrorCode.RAISE_TOO_BIG: N_("不能超过你的钵钵 %(max)s"),
    ErrorCode.SPLIT_NEEDS_FOUR: N_("扯牌要用上你的四张牌，每组两张"),
    ErrorCode.SPLIT_NOT_YOUR_CARDS: N_("这不是你手上的四张牌"),
    ErrorCode.NO_HAND: N_("现在没有在打的牌：先发牌"),
    ErrorCode.NO_SUCH_SEAT: N_("没有这个座位"),
    ErrorCode.SEAT_LEFT: N_("%(name)s 已经离座了"),
    ErrorCode.REBUY_TOO_SMALL: N_("补钵钵至少 %(min)s"),
    ErrorCode.REBUY_TOO_BIG: N_("一次最多添 %(max)s"),
    ErrorCode.TOO_FEW_PLAYERS: N_("至少要坐两个人才能发牌"),
    ErrorCode.BOBO_EMPTY: N_("%(name)s 的钵钵空了：先补钵钵（至少 %(min)s）或者离座"),
    ErrorCode.QUAN_ALREADY: N_("已经在打圈芒了"),
    ErrorCode.BAD_DECK: N_("码好的牌必须正好是 32 张，每张一次"),
    ErrorCode.NOBODY_TO_PASS: N_("没有下一个人可以轮到"),
}


#: The refusals that name a seat, worded for the learner's own seat ("你的钵钵空了",
#: not "你 的钵钵空了" / "You’s 钵钵").
YOU_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.SEAT_LEFT: N_("你已经离座了"),
    ErrorCode.BOBO_EMPTY: N_("你的钵钵空了：先补钵钵（至少 %(min)s）或者离座"),
}


def error_message(error: ActionError, names: dict[str, str] | None = None,
                  you: str | None = None) -> str:
    """``error`` worded in the current language; ``names`` maps stored player names to
    the names shown; ``you``: the learner's stored name (a refusal about their seat says
    "you")."""
    names = names or {}
    params: dict[str, Any] = {}
    for key, value in error.params.items():
        if key == "act":
            params[key] = _(ACT_WORDS[value]) if value in ACT_WORDS else str(value)
        elif key in ("name", "who"):
            params[key] = names.get(str(value), str(value))
        elif isinstance(value, int):
            params[key] = f"{value:,}"
        else:
            params[key] = value
    if you is not None and error.code in YOU_MESSAGES and error.params.get("name") == you:
        return _(YOU_MESSAGES[error.code]) % params
    return _(ERROR_MESSAGES[error.code]) % params


def display_name(game: Game, seat: int) -> str:
    """The name shown for ``seat``: "you" and the bots' names in the page's language."""
    if seat == HUMAN:
        return _("你")
    name = game.seats[seat].name
    return _(name) if name in BOT_NAMES else name


def display_names(game: Game) -> dict[str, str]:
    return {s.name: display_name(game, i) for i, s in enumerate(game.seats)}


#: The showdown outcomes (engine values, shown in Chinese) and their English gloss.
OUTCOME_WORDS = ("吃", "走", "死")  # glossed in English with context "gloss"


@dataclass
class CardView:
    """A card as the learner sees it: a face-down card carries no card at all, so that no
    template can leak it."""

    card: Card | None
    label: str = ""
    hole: bool = False  # the learner's own face-down card: only they see it

    @property
    def hidden(self) -> bool:
        return self.card is None


ACT_WORDS = {
    "call": "瞧", "raise": "返", "tuo": "拖", "qiao": "敲", "check": "休", "fold": "甩",
    "split": "扯牌", "sanhua": "报三花", "rebuy": "补钵钵", "leave": "离座", "sit": "入座",
    "deal": "发牌",
    "end": "打圈芒",
}


def _gloss(outcome: str) -> str:
    """The English gloss of 吃/走/死 (empty on the Chinese page)."""
    gloss = pgettext("gloss", outcome) if outcome in OUTCOME_WORDS else ""
    return "" if gloss == outcome else gloss


def _result_view(game: Game, hand: Hand) -> dict[str, Any] | None:
    res = hand.result
    if res is None:
        return None
    seats = game.seats
    name = {i: display_name(game, i) for i in range(len(seats))}
    shown = []
    for key, cards in res.splits.items():
        view = split_view(cards, game.rules)
        shown.append({
            "name": name[int(key)],
            "head": [card_by_label(c) for c in view.head],
            "head_name": group_html(view.head_group),
            "tail": [card_by_label(c) for c in view.tail],
            "tail_name": group_html(view.tail_group),
        })
    reasons = {"stake": _("以自己的下注为限"), "left": _("对方只剩这么多"),
               "shared": _("头尾一样大，尽量平分")}
    transfers = [{
        "to": name[t["to"]], "source": name[t["from"]], "amount": t["amount"],
        "pi": t["reason"] == "pi", "why": reasons[t["limited_by"]],
        "entitled": t["entitled"], "available": t["available"],
    } for t in res.transfers if t["amount"]]
    outcomes = [{"a": name[o["a"]], "b": name[o["b"]], "result": o["result"],
                 "gloss": _gloss(o["result"])} for o in res.outcomes]
    how = {"showdown": _("比牌"), "fold": _("其余都甩了"), "xiu": _("休过河"),
           "sanhua": _("都报了三花，无输赢")}[res.how]
    # What each player's 钵钵 moved by in this hand: the play (stakes won and lost) and,
    # on its own line, the 芒果 (paid at the deal; the pot taken by whoever ate the 皮).
    nets = []
    for i in hand.order:
        pot = res.pot_share(i)
        play, mango = res.nets[i] - pot, pot - hand.mango_paid[i]
        nets.append({"name": name[i], "play": play, "mango": mango, "net": play + mango})
    return {
        "how": how, "kind": res.how,
        "winner": name.get(res.winner) if res.winner is not None else None,
        "winner_you": res.winner == HUMAN,
        "pot_won": res.pot_won, "carried": res.carried, "mango_next": res.mango_next,
        # equal best hands ate the 皮 together and share the pot
        "pot_sharers": listing([name[i] for i in res.pot_takers]),
        "order": [name[i] for i in res.order],
        "nets": nets, "mango": any(n["mango"] for n in nets),
        "transfers": transfers, "outcomes": outcomes, "splits": shown,
        "sanhua": [{"name": name[int(k)], "what": v} for k, v in res.sanhua.items()],
    }


#: The phases as the rules name them (a hand has three betting rounds and a showdown).
PHASE_NAMES = {1: N_("第一轮"), 2: N_("第二轮"), 3: N_("第三轮（串牌）"), 4: N_("比牌")}


def _hint(game: Game) -> list[dict[str, Any]]:
    """The learner's distinct splits (as the split quiz counts them) with their cards and
    the advisor's EV; identical splits of a hand with equal cards are listed once."""
    h = game.hand
    assert h is not None
    mine = list(h.cards[HUMAN])
    advice = advise(game.kinds(HUMAN), game.rules)
    top = max(a.ev for a in advice.splits)
    rows: list[dict[str, Any]] = []
    seen: set[tuple[Group, Group]] = set()
    for a in advice.splits:
        key = (a.split.head, a.split.tail)
        if key in seen:
            continue
        seen.add(key)
        pool = list(mine)
        groups = []
        for group in (a.split.head, a.split.tail):
            cards = []
            for kind in group.kinds:
                card = next(c for c in pool if card_by_label(c).kind is kind)
                pool.remove(card)
                cards.append(card_by_label(card))
            groups.append(cards)
        rows.append({
            "head": group_html(a.split.head), "tail": group_html(a.split.tail),
            "head_cards": groups[0], "tail_cards": groups[1],
            "ev": a.ev, "p_win": a.p_win, "p_push": a.p_push, "p_lose": a.p_lose,
            "percents": shown_percents(a.p_win, a.p_push, a.p_lose),
            "best": abs(a.ev - top) < 1e-12,
        })
    return rows


def _my_group(game: Game, cards: list[CardView]) -> dict[str, Any] | None:
    """The learner's group now, with its place among all groups (第 N 大) as /pairs/
    shows it: their two face-down cards, or the strongest two of the cards they see."""
    seen = [c.card.kind for c in cards if c.card is not None]
    if len(seen) < 2:
        return None
    rules = game.rules
    pairs = [Group.of(a, b) for i, a in enumerate(seen) for b in seen[i + 1:]]
    group = max(pairs, key=lambda g: g.rank(rules))
    rules_name = "app" if rules.diwang else "xuanjing"
    entry = catalogue_for(rules_name).by_code[group.code]
    url = reverse("pair_detail", args=[group.code])
    return {"name": entry.name, "code": group.code, "position": entry.position,
            "url": url + ("?rules=app" if rules.diwang else ""),
            "what": _("你的两张暗牌") if len(seen) == 2 else _("你最大的一组")}


def _board(request: HttpRequest, table: PracticeTable, game: Game,
           error: str | None = None, hint: bool = False) -> dict[str, Any]:
    h = game.hand
    live = h is not None and h.result is None
    squeeze = _squeeze_pending(table, game)
    bot = table_store.bot_turn(game)
    # While the learner squeezes, who leads round 3 and who acts first would tell how
    # their fourth card compares with the others' (the lead goes to the highest card).
    marks = live and not squeeze
    seats = []
    for i, s in enumerate(game.seats):
        cards: list[CardView] = []
        status = ""
        if h is not None and i in h.order:
            if h.folded[i]:
                status = _("甩了")
            elif live and game.is_allin(i):
                status = _("敲了")
            elif live and h.checked[i] and not h.bet_this_round:
                status = _("休了")
            labels = h.cards[i]
            shown_all = not live and str(i) in h.splits
            for j in range(game.dealt(i)):
                face_up = (shown_all or j >= 2 or i == HUMAN)
                if i == HUMAN and j == 3 and squeeze:
                    face_up = False  # still being squeezed (串牌)
                cards.append(CardView(card_by_label(labels[j]), labels[j],
                                      hole=i == HUMAN and j < 2) if face_up
                             else CardView(None))
        committed = h.committed[i] if live and h is not None and i in h.order else 0
        seats.append({
            "index": i, "name": display_name(game, i), "bot": s.bot, "left": s.left,
            "bobo": s.bobo - committed, "stake": committed, "net": s.net,
            "cards": cards, "status": status,
            "folded": h is not None and i in h.order and h.folded[i],
            "dealer": h is not None and h.dealer == i, "dangjia": h is not None and h.dangjia == i,
            "to_act": marks and h is not None and h.to_act == i,
            "leader": marks and game.opener() == i,
        })
    human_cards: list[CardView] = []
    if h is not None and HUMAN in h.order:
        human_cards = [CardView(card_by_label(c), c) for c in game.visible_cards(HUMAN, HUMAN)]
        if squeeze:
            human_cards = human_cards[:3]
    legal = game.legal_actions(HUMAN)
    my_turn = live and h is not None and h.to_act == HUMAN and not squeeze
    hint_rows = _hint(game) if hint and my_turn and game.phase is Phase.SHOWDOWN else None
    log = (hand_log(game, h, lambda i: display_name(game, i), not live, squeeze)
           if h is not None else [])
    pot = (h.pot_start if live and h is not None else game.state.pot)
    return {
        "table": table, "game": game, "seq": game.seq, "seats": seats, "hand": h, "live": live,
        "phase": game.phase.value, "legal": legal, "my_turn": my_turn,
        "acts": [a.value for a in legal.acts],
        "bot_turn": bot is not None and not squeeze,
        # an expert's move asked of a worker: queued / running / failed (None: not asked)
        "thinking": (jobs.state(jobs.move_key(table.id, game.seq))
                     if bot is not None and table_store.heavy(game, bot) else None),
        "squeeze": squeeze, "human_cards": human_cards,
        "level": h.level if live and h is not None else 0,
        "round": h.round if h is not None else 0,
        "pot": pot, "stakes": game.rules.stakes, "rules": game.rules,
        "result": _result_view(game, h) if h is not None else None,
        "log": log, "error": error, "hint": hint_rows,
        "phase_name": _(PHASE_NAMES[min(h.round, 4)]) if live and h is not None else "",
        "my_group": _my_group(game, human_cards),
        "my_stake": h.committed[HUMAN] if live and h is not None and HUMAN in h.order else 0,
        "human": game.seats[HUMAN], "human_in": h is not None and HUMAN in game.in_hand(),
        "must_rebuy": game.phase is Phase.BETWEEN and game.seats[HUMAN].bobo <= 0,
        "quan": game.state.quan_start is not None,
        "pending_mango": game.state.pending_mango,
        "over": game.phase is Phase.OVER,
        "max_rebuy": MAX_REBUY,
        "coach_off": coach_off(request) if h is not None and h.result is not None else False,
    }


def _render(request: HttpRequest, table: PracticeTable, game: Game, *, error: str | None = None,
            status: int = 200, hint: bool = False) -> HttpResponse:
    context = _board(request, table, game, error, hint)
    name = "table/table.html#board" if is_htmx(request) else "table/table.html"
    return render(request, name, context, status=status)


# ---------------------------------------------------------------------- views
@require_http_methods(["GET", "HEAD", "POST"])
@rate_limited("new")
@same_for_newcomers
def start(request: HttpRequest) -> HttpResponse:
    """The start form (GET) and creating a table (POST)."""
    context: dict[str, Any] = {"presets": list(STAKES), "error": None}
    owner = reader_key(request)
    if owner:
        context["mine"] = PracticeTable.objects.filter(owner=owner)[:5]
    if request.method == "GET":
        return render(request, "table/start.html", context)
    try:
        bots = _int(request.POST.get("bots"), _("电脑玩家人数"), 1, 7)
        level = request.POST.get("level", "simple")
        if level not in (*BOT_LEVELS, "mixed"):
            raise Rejected(_("未知的电脑水平"))
        try:
            stakes = get_stakes(request.POST.get("stakes", "1、3"))
        except RulesError:  # the engine's message is English only
            raise Rejected(_("没有这种注码：只能打 1、3，5、10 或 5、20")) from None
        mango = request.POST.get("mango", "fixed")
        if mango not in ("fixed", "escalating"):
            raise Rejected(_("未知的芒果规则"))
        rules = Rules().with_options(stakes=stakes, diwang=request.POST.get("diwang") == "on",
                                     sanhua=request.POST.get("sanhua") == "on", mango=mango)
    except Rejected as e:
        context["error"] = e.message
        return render(request, "table/start.html", context, status=400)
    levels = [level if level != "mixed" else ("strong" if i % 2 else "simple")
              for i in range(bots)]
    players: list[tuple[str, str | None]] = [(_("你"), None)]
    players += [(BOT_NAMES[i], lv) for i, lv in enumerate(levels)]
    game = Game.new(players, rules, seed=secrets.randbits(32))
    owner = writer_key(request)
    with owned(owner):
        table = PracticeTable.objects.create(owner=owner, state=game.to_dict(), seq=game.seq)
    return HttpResponseRedirect(reverse("table-play", args=[table.id]), status=303)


@require_safe
def play(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    table = _load(request, table_id)
    game = Game.from_dict(table.state)
    try:  # ?hint=1 opens the split hint; anything else is said on the page (400)
        hint = query_choice(request.GET, "hint", pgettext("address", "提示"), ("1",), "") == "1"
    except BadQuery as e:
        return _render(request, table, game, error=e.message, status=400)
    return _render(request, table, game, hint=hint)


def _post(request: HttpRequest, table_id: uuid.UUID, kind: str) -> HttpResponse:
    """Apply one POSTed action atomically; 4xx with the board and a message if refused.
    An expert bot's move is asked of a worker instead (:func:`tutorial.jobs.ask_move`):
    the board then shows it thinking and polls until the table has moved on."""
    coach_on = not coach_off(request)
    try:
        with transaction.atomic():
            table = _load(request, table_id, lock=True)
            before = table.state
            game = Game.from_dict(before)
            try:
                _check_seq(request, table)
                if kind == "bot":
                    if _bot_step(request, table, game, coach_on):
                        return _after_post(request, table, game)
                elif kind == "squeeze":
                    _squeeze(table, game)
                else:
                    game.apply(_human_action(request, game, table))
            except ActionError as e:
                raise Rejected(error_message(e, display_names(game),
                                             game.seats[HUMAN].name)) from None
            jobs.advance(table, game, before, coach_on)
    except Rejected as e:
        table = _load(request, table_id)
        return _render(request, table, Game.from_dict(table.state), error=e.message,
                       status=e.status)
    except Limited as e:
        return ratelimit.too_many(request, e.wait)
    return _after_post(request, table, game)


def _after_post(request: HttpRequest, table: PracticeTable, game: Game) -> HttpResponse:
    if is_htmx(request):
        return _render(request, table, game)
    return HttpResponseRedirect(reverse("table-play", args=[table.id]), status=303)


def _human_action(request: HttpRequest, game: Game, table: PracticeTable) -> Action:
    raw = request.POST.get("act", "")
    try:
        act = Act(raw)
    except ValueError:
        raise Rejected(_("未知的操作")) from None
    if act in (Act.DEAL, Act.END):
        return Action(act)
    if act in (Act.REBUY, Act.LEAVE, Act.SIT):
        amount = (_int(request.POST.get("amount"), _("补钵钵的数目"), game.rules.stakes.later_bobo,
                       MAX_REBUY) if act is Act.REBUY else None)
        return Action(act, HUMAN, amount)
    if _squeeze_pending(table, game):
        raise Rejected(_("先把第四张牌串开"))
    if game.to_act != HUMAN:
        if game.to_act is None:
            raise Rejected(_("现在不是你说话"), 409)
        raise Rejected(_("现在不是你说话，轮到 %(who)s") % {
            "who": display_name(game, game.to_act)}, 409)
    if act is Act.RAISE:
        # at most what the board shows (最多 …); below its 最少 the engine says why
        amount = _int(request.POST.get("amount"), _("返到多少"),
                      high=game.legal_actions(HUMAN).max_raise or MAX_AMOUNT)
        return Action(act, HUMAN, amount)
    if act is Act.SPLIT:
        picked = request.POST.getlist("head")
        h = game.hand
        assert h is not None
        mine = h.cards[HUMAN]
        if len(picked) != 2 or len(set(picked)) != 2 or any(c not in mine for c in picked):
            raise Rejected(_("点选你的两张牌作为一组（另两张自成一组）"))
        rest = [c for c in mine if c not in picked]
        return Action(act, HUMAN, None, (*picked, *rest))
    return Action(act, HUMAN)


def _bot_step(request: HttpRequest, table: PracticeTable, game: Game, coach_on: bool) -> bool:
    """The bot to act moves; True if its move was asked of a worker instead (heavy: a
    compute request, rate-limited in the "compute" scope)."""
    if _squeeze_pending(table, game):
        raise Rejected(_("先把第四张牌串开"), 409)
    seat = table_store.bot_turn(game)
    if seat is None:
        raise Rejected(_("现在没有电脑要说话"), 409)
    if table_store.heavy(game, seat):
        if jobs.state(jobs.move_key(table.id, table.seq)) in (jobs.QUEUED, jobs.RUNNING):
            return True  # asked already: nothing to count
        wait = ratelimit.hit("compute", ratelimit.client_address(request), time.time())
        if wait is not None:
            raise Limited(wait)
        jobs.ask_move(table, coach_on)
        return True
    table_store.play_bot(game, seat)
    return False


@require_safe
def squeeze_card(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    """The card being squeezed, fetched when the learner starts to push the cover: until
    then it is in no page (the squeeze POST, or this, is the reveal)."""
    table = _load(request, table_id)
    game = Game.from_dict(table.state)
    if not _squeeze_pending(table, game):
        return HttpResponse(_("现在没有牌要串"), status=409, content_type="text/plain")
    h = game.hand
    assert h is not None
    return render(request, "table/table.html#squeeze-card",
                  {"card": card_by_label(h.cards[HUMAN][3])})


def _squeeze(table: PracticeTable, game: Game) -> None:
    if not _squeeze_pending(table, game):
        raise Rejected(_("现在没有牌要串"), 409)
    h = game.hand
    assert h is not None
    table.squeezed = h.number
    # squeezing changes no game state; bump nothing but remember it
    table.save(update_fields=["squeezed", "updated"])


@require_POST
@rate_limited("write")
def act(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    return _post(request, table_id, "human")


@require_POST
@rate_limited("write")
def bot(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    return _post(request, table_id, "bot")


@require_POST
@rate_limited("write")
def squeeze(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    return _post(request, table_id, "squeeze")


HANDS_PER_PAGE = 20


@require_safe
def history(request: HttpRequest, table_id: uuid.UUID) -> HttpResponse:
    """The session's finished hands, newest first, a page at a time (``?page=N``);
    ``?hand=N&step=K`` replays hand N up to its action K."""
    table = _load(request, table_id)
    game = Game.from_dict(table.state)
    pages = Paginator(table.hands.order_by("-number"), HANDS_PER_PAGE)
    problem = ""
    try:
        page = pages.page(query_int(request.GET, "page", pgettext("address", "页码"), 1,
                                    pages.num_pages, 1))
    except BadQuery as e:  # said on the page, which shows the newest hands (400)
        page, problem = pages.page(1), e.message
    hands = []
    for row in page:
        h = hand_from_dict(row.hand)
        hands.append({"number": h.number, "result": _result_view(game, h),
                      "log": hand_log(game, h, lambda i: display_name(game, i), True)})
    context: dict[str, Any] = {"table": table, "hands": hands, "page": page, "replay": None,
                               "error": problem}
    if problem:
        return render(request, "table/history.html", context, status=400)
    if "hand" in request.GET:
        try:
            number = query_int(request.GET, "hand", pgettext("address", "手的编号"), 1, None, 1)
            context["replay"] = _replay_view(request, table, number)
        except BadQuery as e:
            return render(request, "table/history.html", {**context, "error": e.message},
                          status=400)
        except Http404:
            return render(request, "table/history.html",
                          {**context, "error": _("没有这一手")}, status=404)
    return render(request, "table/history.html", context)


def _replay_view(request: HttpRequest, table: PracticeTable, number: int) -> dict[str, Any]:
    """Hand ``number`` up to its action ``?step=K`` (0, the deal, when not asked); Http404
    when there is no such hand to replay, BadQuery for a step it does not have."""
    row = table.hands.filter(number=number).first()
    if row is None or row.start is None or not row.log:
        raise Http404
    length = len(row.log)
    step = query_int(request.GET, "step", pgettext("address", "步数"), 0, length - 1, 0)
    try:
        replayed = table_store.replayed(row, step + 1)
    except (ActionError, CardError, RulesError, KeyError, TypeError, ValueError):
        raise Http404 from None  # a stored hand that cannot be replayed: "no such hand"
    board = _board(request, table, replayed)
    board["my_turn"] = False
    board["bot_turn"] = False
    board["squeeze"] = False
    return {"number": number, "board": board, **step_links(step, length - 1)}


def step_links(step: int, last: int) -> dict[str, int | None]:
    """Where a replay stands: action ``step`` of 0..``last`` (0 = the deal), and the
    steps before and after it (None at either end)."""
    return {"step": step, "last": last, "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step < last else None}


urlpatterns = [
    path("", start, name="table"),
    path("<uuid:table_id>/", play, name="table-play"),
    path("<uuid:table_id>/act", act, name="table-act"),
    path("<uuid:table_id>/bot", bot, name="table-bot"),
    path("<uuid:table_id>/squeeze", squeeze, name="table-squeeze"),
    path("<uuid:table_id>/squeeze-card", squeeze_card, name="table-squeeze-card"),
    path("<uuid:table_id>/history", history, name="table-history"),
]
