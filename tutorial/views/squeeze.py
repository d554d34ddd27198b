"""串牌 (squeeze): ``/squeeze/`` teaches the four ways and every clue, with partly revealed
cards drawn by ``templates/squeeze/_reveal.html``.

What each stage shows and which cards stay possible comes from :mod:`engine.squeeze`;
the prose lives in ``templates/squeeze/`` and its English in ``locale/squeeze``
(msgctxt ``squeeze`` for the engine's clue words).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import pgettext

from engine import squeeze as sq
from engine.cards import DECK, Card, Kind
from engine.groups import Group
from tutorial.language import english
from tutorial.pagecache import visitor_independent
from tutorial.squeeze import Stage, parse_card, sight_label


def _stages(code: str, way: sq.Way) -> list[Stage]:
    card = parse_card(code)
    return [Stage(card, way, d) for d in range(1, sq.DEPTHS[way] + 1)]


# The demonstration card of each way, and the section anchors.
DEMOS: tuple[tuple[sq.Way, str, str], ...] = (
    (sq.Way.HEAD, "head", "R2:♥"),
    (sq.Way.ROWS, "rows", "B9:♠"),
    (sq.Way.LANES, "lanes", "R7:♦"),
    (sq.Way.EDGE, "edge", "RQ:♥"),
)

# 组合串, the 旋经's two examples: (anchor, card, reveals in order).
COMBOS: tuple[tuple[str, str, tuple[sq.Reveal, ...]], ...] = (
    ("combo-1", "B9:♣", ((sq.Way.ROWS, 1), (sq.Way.LANES, 1), (sq.Way.LANES, 2))),
    ("combo-2", "R2:♥", ((sq.Way.LANES, 1), (sq.Way.HEAD, 1))),
)


def combo_stages(code: str, reveals: tuple[sq.Reveal, ...]) -> list[Stage]:
    card = parse_card(code)
    return [Stage(card, w, d, reveals[:i]) for i, (w, d) in enumerate(reveals)]


def _with_up(up: Kind, kinds: tuple[Kind, ...]) -> list[dict[str, Any]]:
    """What each candidate makes with the face-up card ``up``."""
    return [{"kind": k, "group": Group.of(up, k)} for k in kinds]


SUIT_LETTERS = {"h": "♥", "d": "♦", "s": "♠", "c": "♣"}
CARD_CHOICES: tuple[tuple[str, Card], ...] = tuple(
    (c.kind.code + next((k for k, v in SUIT_LETTERS.items() if v == c.suit), ""), c) for c in DECK
)
STAGE_CHOICES: tuple[str, ...] = tuple(f"{w.value}-{d}" for w in sq.Way
                                       for d in range(1, sq.DEPTHS[w] + 1))


def _try(request: HttpRequest) -> tuple[dict[str, Any] | None, str]:
    """The "try it" form (GET card, r, r2): (the stages to draw, or None; an error message)."""
    raw_card = request.GET.get("card", "").strip()
    if not raw_card:
        return None, ""
    cards = dict(CARD_CHOICES)
    if raw_card not in cards:
        return None, pgettext("squeeze", "没有这张牌：请从列表里选一张。")
    wanted = [request.GET.get(k, "").strip() for k in ("r", "r2")]
    if not wanted[0] or any(r and r not in STAGE_CHOICES for r in wanted):
        return None, pgettext("squeeze", "请从列表里选串法和串到哪一步。")
    reveals = tuple(sq.parse_reveal(r) for r in wanted if r)
    stages = [Stage(cards[raw_card], w, d, reveals[:i]) for i, (w, d) in enumerate(reveals)]
    return {"card": raw_card, "stages": stages, "r": wanted[0], "r2": wanted[1]}, ""


def _stage_choice(value: str) -> str:
    """"串头子 · 字头刚露出一点" (English: "squeezing the corner · The top of the index")."""
    way, depth = sq.parse_reveal(value)
    name = pgettext("squeeze-gloss", way.label) if english() else way.label
    return f"{name} · {pgettext('squeeze', sq.STAGE_LABELS[(way, depth)])}"


@visitor_independent
def squeeze_page(request: HttpRequest) -> HttpResponse:
    tried, problem = _try(request)
    ways = []
    for way, anchor, code in DEMOS:
        ways.append({
            "way": way, "anchor": anchor, "stages": _stages(code, way),
            "tables": [
                {"depth": d, "label": pgettext("squeeze", sq.STAGE_LABELS[(way, d)]),
                 "rows": [{"sight": sight_label(s), "kinds": ks}
                          for s, ks in sq.sight_table(way, d)]}
                for d in range(1, sq.DEPTHS[way] + 1)
            ],
            "clues": [c for c in sq.CLUES.values() if c.way is way and not c.key.isascii()],
        })
    claims = [
        {"claim": c, "sight": sight_label(c.sight),
         "stage": pgettext("squeeze", sq.STAGE_LABELS[(c.sight.way, c.sight.depth)]),
         "extra": [k for k in c.engine_kinds if k not in c.kinds]}
        for c in sq.SEED_CLAIMS
    ]
    round_heads = sq.possible(Card(Kind.RQ, "♦"), [(sq.Way.HEAD, 1)])
    black_heads = sq.possible(Card(Kind.B9, "♠"), [(sq.Way.HEAD, 1)])
    context = {
        "ways": ways,
        "claims": claims,
        "combos": [{"anchor": a, "stages": combo_stages(code, r), "walkthrough": f"xj-squeeze-{a}"}
                   for a, code, r in COMBOS],
        "tian": _with_up(Kind.RQ, (*round_heads, *black_heads)),
        "ren_red": _with_up(Kind.R8, round_heads),
        "ren_black": _with_up(Kind.R8, black_heads),
        "tried": tried,
        "problem": problem,
        "card_choices": [{"value": v, "label": f"{c.kind.name_zh} {c.label}"}
                         for v, c in CARD_CHOICES],
        "stage_choices": [{"value": v, "label": _stage_choice(v)} for v in STAGE_CHOICES],
    }
    return render(request, "squeeze/squeeze.html", context, status=400 if problem else 200)
