"""The coach for people (issue 14 §3): a finished practice hand exported, reviewed, retried.

* :func:`export` — one finished hand as the JSON ``python -m engine review`` reads:
  ``{"config", "log", "seat"}``.  The log is the session's up to the end of that hand, and
  every deal in it carries its deck explicitly while the config's seed is 0, so the file
  says nothing about any later hand (the table's seed would give every future deck); a
  deck names only the cards that were dealt (:func:`engine.game.dealt_deck`), never the
  3rd and 4th cards of a player who folded before getting them.
* :func:`compute` — the review of one hand: :func:`engine.review.review` on that export
  (so the CLI on the downloaded file prints the same figures), each decision with what the
  learner saw then (price of a call, the pot, the 皮), and the split priced at the real
  showdown by :mod:`engine.showdown`.  :func:`store` keeps it in ``HandReview`` (a
  worker runs it, :mod:`tutorial.jobs`); :func:`stored` reads it.
* :func:`reprice` — 再来一次 with an action the review did not price (a 返 of the
  learner's own amount): that decision priced again, the action among the alternatives
  (:func:`store_reprice` keeps it in ``RetryPrice``, :func:`repriced` reads it).
* :func:`report` — a session's figures: result, luck-adjusted result, chips lost by
  decision kind, the costliest decisions (see the README, "Coach").
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction

from engine.game import (
    Act,
    Action,
    ActionError,
    Game,
    card_by_label,
    dealt_deck,
    hand_from_dict,
    replay,
)
from engine.groups import Group
from engine.review import (
    WORLDS,
    Z_LOOKS,
    ReviewError,
    decision_json,
    decisions,
    grade,
    interval,
    retry,
    review,
)
from engine.showdown import at_table, price
from tutorial.models_coach import HandReview, RetryPrice
from tutorial.models_table import PracticeHand, PracticeTable
from tutorial.table_store import replayed

HUMAN = 0
VERSION = 8  # bump when the stored review's shape or figures change: old rows are recomputed


class CoachError(Exception):
    """A hand that cannot be exported or reviewed (not finished, no replayable start)."""


def rows_to(table: PracticeTable, number: int) -> list[PracticeHand]:
    rows = list(table.hands.filter(number__lte=number).order_by("number"))
    if not rows or rows[-1].number != number:
        raise CoachError("no such finished hand")
    if any(r.start is None or not r.log for r in rows):
        raise CoachError("this hand cannot be replayed")
    return rows


def export(table: PracticeTable, number: int) -> dict[str, Any]:
    """Finished hand ``number`` as ``{"config", "log", "seat"}`` (see the module doc)."""
    rows = rows_to(table, number)
    log: list[dict[str, Any]] = []
    for row in rows:
        hand = hand_from_dict(row.hand)
        for raw in [*row.start["log"], *row.log]:
            if raw.get("kind") == Act.DEAL.value and raw is row.log[0]:
                raw = {**raw, "cards": dealt_deck(hand)}
            log.append(raw)
    config = {**rows[0].start["config"], "seed": 0}
    return {"config": config, "log": log, "seat": HUMAN}


# ---------------------------------------------------------------------- the review
def _spot(game: Game) -> dict[str, Any]:
    """What the learner saw when deciding: the price of a call, the pot, the 皮."""
    h = game.hand
    assert h is not None
    to_call = game.legal_actions(HUMAN).call_cost  # what a 瞧 adds, an all-in's included
    pot = sum(h.committed)
    pi = sum(h.committed[s] for s in h.order if h.folded[s])
    return {"round": h.round, "level": h.level, "committed": h.committed[HUMAN],
            "to_call": to_call, "pot": pot, "pi": pi,
            "odds": to_call / (pot + to_call) if to_call else 0.0,
            "mine": game.visible_cards(HUMAN, HUMAN)}


def _split_review(game: Game, opening: int) -> dict[str, Any] | None:
    """The learner's split at the showdown priced by :mod:`engine.showdown` (the 芒果
    pot the hand was played for goes with the 皮)."""
    h = game.hand
    assert h is not None and h.result is not None
    mine = h.result.splits.get(str(HUMAN))
    declared = h.result.sanhua.get(str(HUMAN))
    if h.result.how not in ("showdown", "sanhua") or (mine is None and declared is None):
        return None
    situation = at_table(game, HUMAN, h.pot_start)
    pricing = price(situation)
    options: list[dict[str, Any]] = []
    chosen = 0
    for i, o in enumerate(pricing.options):
        if o.split is None:
            options.append({"sanhua": o.sanhua, "ev": o.ev, "stderr": o.stderr})
            if declared:
                chosen = i
            continue
        options.append({"head": o.split.head.code, "tail": o.split.tail.code,
                        "head_name": o.split.head.display_name(),
                        "tail_name": o.split.tail.display_name(),
                        "ev": o.ev, "stderr": o.stderr})
        if mine is not None:
            labels = [card_by_label(c).kind for c in mine]
            groups = {Group.of(labels[0], labels[1]), Group.of(labels[2], labels[3])}
            if groups == {o.split.head, o.split.tail}:
                chosen = i
    best = pricing.best
    # against the best of the other splits (the best one's loss is negative: not the
    # chosen split against itself, whose interval ± 2·√2 errors would say 难分)
    rival = max((i for i in range(len(options)) if i != chosen),
                key=lambda i: options[i]["ev"], default=chosen)
    loss = options[rival]["ev"] - options[chosen]["ev"]
    se = pricing.diff_error(rival, chosen)  # paired: both priced on the same deals
    return {"options": options, "best": best, "chosen": chosen, "loss": loss,
            "loss_stderr": se, "grade": grade(loss, se, opening), "exact": pricing.exact,
            "pi": sum(situation.folded), "pot": situation.pot}


def compute(table: PracticeTable, number: int, worlds: int = WORLDS) -> dict[str, Any]:
    """The review of finished hand ``number`` (JSON-ready; see the module doc)."""
    return review_export(export(table, number), number, worlds)


def review_export(data: dict[str, Any], number: int, worlds: int = WORLDS) -> dict[str, Any]:
    """The review of the last hand of an export (:func:`export`), hand ``number``."""
    config, log = data["config"], data["log"]
    try:
        # what the learner saw at each decision, and its step: the actions since the deal
        spots = [{**_spot(game), "step": len(start[1]) + 1}
                 for game, _, start in decisions(config, log, HUMAN)]
        # a hand the learner made no betting decision in has none to price
        priced = review(config, log, HUMAN, worlds) if spots else []
        game = replay(config, log)
    except ReviewError as e:  # the job fails with its message, not a zip of unequal lists
        raise CoachError(f"this hand cannot be reviewed: {e}") from e
    except ActionError as e:  # a stored hand that its log does not replay to
        raise CoachError("this hand cannot be replayed") from e
    opening = game.rules.stakes.opening
    h = game.history[-1]
    assert h.result is not None
    out = [{**decision_json(d), **spot} for d, spot in zip(priced, spots, strict=True)]
    mango = h.mango_paid[HUMAN]
    return {"version": VERSION, "number": number, "net": h.result.nets[HUMAN] - mango,
            "mango": mango, "opening": opening, "decisions": out,
            "split": _split_review(game, opening)}


def stored(table: PracticeTable, number: int) -> dict[str, Any] | None:
    """The stored review of hand ``number``, or None (not computed yet, or an older
    shape: a worker computes it again, :func:`store`).  Reads only."""
    row = HandReview.objects.filter(table=table, number=number).first()
    if row is not None and row.data.get("version") == VERSION:
        return dict(row.data)
    return None


def store(table: PracticeTable, number: int) -> None:
    """Compute the review of hand ``number`` and keep it (run by a worker,
    :mod:`tutorial.jobs`).  Two workers may compute it at once (the figures are the same:
    fixed seeds); the row is written once."""
    if stored(table, number) is not None:
        return
    data = compute(table, number)
    with transaction.atomic():
        row, created = HandReview.objects.select_for_update().get_or_create(
            table=table, number=number, defaults={"data": data})
        if not created and row.data.get("version") != VERSION:  # an older shape
            row.data = data
            row.save(update_fields=["data"])


def reprice(table: PracticeTable, number: int, k: int, game: Game, action: Action
            ) -> dict[str, Any]:
    """Decision ``k`` of hand ``number`` (``game``: the table then) priced again with
    ``action`` as the choice, by :func:`engine.review.retry` with the review's worlds and
    seed; shaped like a stored decision.  Raises ``ActionError`` for an illegal action,
    :class:`CoachError` if no sampled world explains the bots' actions."""
    data = export(table, number)
    try:
        decision = retry(data["config"], data["log"], HUMAN, k, action, WORLDS)
    except ReviewError as e:
        raise CoachError(str(e)) from e
    return {**decision_json(decision), **_spot(game)}


def repriced(table: PracticeTable, number: int, k: int, amount: int) -> dict[str, Any] | None:
    """Decision ``k`` of hand ``number`` priced again with a 返 to ``amount``, if a worker
    has done it (:func:`store_reprice`).  Reads only."""
    row = RetryPrice.objects.filter(table=table, number=number, k=k, amount=amount).first()
    return None if row is None else dict(row.data)


def store_reprice(table: PracticeTable, number: int, k: int, amount: int) -> None:
    """Price decision ``k`` of hand ``number`` again with a 返 to ``amount`` and keep it
    (run by a worker).  Raises ``CoachError`` for a hand without its review or decision,
    ``ActionError`` for an amount the table did not allow then."""
    data = stored(table, number)
    if data is None or not 0 <= k < len(data["decisions"]):
        raise CoachError("no such reviewed decision")
    game = replayed(table.hands.get(number=number), data["decisions"][k]["step"])
    action = game.verify(Action(Act.RAISE, HUMAN, amount))
    priced = reprice(table, number, k, game, action)
    RetryPrice.objects.get_or_create(table=table, number=number, k=k, amount=amount,
                                     defaults={"data": priced})


# ---------------------------------------------------------------------- the session report
def counted(loss: float, loss_stderr: float) -> float:
    """The chips a decision gave up, counted only when its 95 % interval (the grade's:
    :func:`~engine.review.interval`) lies above 0."""
    return float(loss) if interval(loss, loss_stderr)[0] > 0 else 0.0


def _given_up(d: dict[str, Any]) -> tuple[float, float]:
    """What a decision gave up as counted (:func:`counted`) and that figure's variance
    (0 when it is not counted)."""
    cost = counted(d["loss"], d["loss_stderr"])
    return cost, float(d["loss_stderr"]) ** 2 if cost else 0.0


def adjusted(data: dict[str, Any]) -> tuple[float, float]:
    """The hand's luck-adjusted result (README, "Coach") and its variance: the expected
    chips of the learner's first decision as chosen, minus the 芒果 the learner paid
    before the deal (no luck in it), minus what every later decision and the split gave
    up (counted as graded); a hand without a decision counts its result (芒果 included).
    The variance adds the squared standard errors of the estimates it sums (each priced
    on worlds of its own)."""
    decisions = data["decisions"]
    if not decisions:
        return float(data["net"]), 0.0
    first = decisions[0]
    chosen = first["options"][first["chosen"]]
    value = float(chosen["ev"]) - float(data["mango"])
    variance = float(chosen["stderr"]) ** 2
    split = data.get("split")
    for d in [*decisions[1:], *([split] if split else [])]:
        cost, cost_variance = _given_up(d)
        value -= cost
        variance += cost_variance
    return value, variance


def report(reviews: list[dict[str, Any]], limit: int | None = 5) -> dict[str, Any]:
    """A session's figures from its hands' reviews (oldest first); ``costly``: the
    ``limit`` costliest decisions (all with ``None``), costliest first.  Every estimated
    figure comes with the half-width of its 95 % interval (``Z_LOOKS`` standard errors,
    as the grade's interval: one number never gets two margins):
    ``adjusted_error`` (the luck's too: the result itself is certain), ``lost_error`` per
    kind, ``lost_per_hand`` and its error, each costly decision's ``error``."""
    lost = {"round1": 0.0, "rounds23": 0.0, "splits": 0.0}
    lost_var = dict.fromkeys(lost, 0.0)
    costly: list[dict[str, Any]] = []
    chips = adj = adj_var = 0.0
    curve = []
    for data in reviews:
        split = data.get("split")
        for k, d in enumerate([*data["decisions"], *([split] if split else [])]):
            cost, cost_variance = _given_up(d)
            is_split = k == len(data["decisions"])
            kind = "splits" if is_split else "round1" if d["round"] == 1 else "rounds23"
            lost[kind] += cost
            lost_var[kind] += cost_variance
            costly.append({"number": data["number"], "index": None if is_split else k,
                           "round": 4 if is_split else d["round"], "loss": cost,
                           "error": Z_LOOKS * float(d["loss_stderr"]), "grade": d["grade"],
                           "split": is_split, "decision": d})
        chips += data["net"]
        value, variance = adjusted(data)
        adj += value
        adj_var += variance
        curve.append({"number": data["number"], "chips": chips, "adjusted": adj})
    costly = sorted((c for c in costly if c["loss"] > 0), key=lambda c: -c["loss"])[:limit]
    hands = max(1, len(reviews))
    return {"hands": len(reviews), "chips": chips, "adjusted": adj, "luck": chips - adj,
            "adjusted_error": Z_LOOKS * math.sqrt(adj_var), "lost": lost,
            "lost_error": {k: Z_LOOKS * math.sqrt(v) for k, v in lost_var.items()},
            "lost_per_hand": sum(lost.values()) / hands,
            "lost_per_hand_error": Z_LOOKS * math.sqrt(sum(lost_var.values())) / hands,
            "costly": costly, "curve": curve}


def chart(curve: list[dict[str, Any]], width: int = 600, height: int = 220,
          pad: int = 36) -> dict[str, Any] | None:
    """SVG coordinates of the chips and adjusted-chips lines (drawn by the template)."""
    if not curve:
        return None
    values = [0.0] + [float(p[k]) for p in curve for k in ("chips", "adjusted")]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    n = len(curve)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / max(1, n)

    def y(v: float) -> float:
        return height - pad - (height - 2 * pad) * (v - low) / span

    def line(key: str) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in
                        enumerate([0.0] + [p[key] for p in curve]))

    return {"width": width, "height": height, "chips": line("chips"),
            "adjusted": line("adjusted"), "zero": y(0.0), "left": pad, "right": width - pad,
            "low": low, "high": high, "top": y(high), "bottom": y(low)}


def missing(table: PracticeTable) -> list[int]:
    """The table's finished, replayable hands without a stored review."""
    done = set(HandReview.objects.filter(table=table).values_list("number", flat=True))
    return [n for n, start in table.hands.values_list("number", "start")
            if n not in done and start is not None]
