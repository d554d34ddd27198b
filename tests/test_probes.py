"""The probes (engine/probes.py: one line of strategy each) and the fixes that make the
bots lose to them (issue 20 §2): 三花 is never folded."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import (
    SHOVE_PRIOR,
    _sorted,
    choose_split,
    edge_vs_top,
    qiao_share,
    share_above,
    strength,
    view,
)
from engine.cards import DECK, KINDS, parse_kinds, physical
from engine.game import QIAO_SHOWN, Act, Action, Game, SeatState
from engine.hands import Outcome, compare, naive_split
from engine.players import bot_action, policy
from engine.probes import PROBES, is_probe, probe_distribution
from engine.rules import Rules, shared
from engine.simulate import parse_bots, play_hand, refill, simulate
from tests.test_bots import decisions

RAISES = (Act.RAISE, Act.TUO, Act.QIAO)


def probe_decisions(probe: str, seats: int, seed: int, hands: int) -> Iterator[Game]:
    """Every betting decision of the probe in seat 0 against strong bots."""
    levels = [probe] + ["strong"] * (seats - 1)
    return (game for game, actor in decisions(levels, seed, hands) if actor == 0)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([*PROBES, "top-10", "top-40"]),
       st.sampled_from([2, 4]))
def test_each_probe_plays_its_one_line(seed: int, probe: str, seats: int) -> None:
    rules = Rules()
    for game in probe_decisions(probe, seats, seed, 6):
        v = view(game, 0)
        ((action, p),) = probe_distribution(v, probe, rules)
        assert p == 1 and game.can(action)
        passive = Act.CALL if Act.CALL in v.legal else Act.CHECK
        if probe == "always-qiao":
            assert action.kind is (Act.QIAO if Act.QIAO in v.legal else passive)
        elif probe == "always-call":
            assert action.kind is passive
        elif probe == "min-raise":
            assert (action.amount == v.legal.min_raise and action.kind in RAISES
                    if v.legal.min_raise is not None else action.kind is passive)
        elif probe == "fold-to-bet":
            assert action.kind is (Act.FOLD if Act.CALL in v.legal else Act.CHECK)
        else:
            top = share_above(v.own, rules) <= int(probe[4:]) / 100 and Act.QIAO in v.legal
            tight = Act.FOLD if Act.CALL in v.legal else Act.CHECK
            assert action.kind is (Act.QIAO if top else tight)


def test_top_n_shoves_about_n_percent_of_first_two_cards() -> None:
    rules = Rules()
    game = Game.new([("p", "top-30"), ("b", "strong")], rules, 5)
    shoves = 0
    for i in range(400):
        game = Game.new([("p", "top-30"), ("b", "strong")], rules, i, dealer=0)
        game.apply(Action(Act.DEAL))
        assert game.to_act == 0  # the probe acts first in round 1
        ((action, _),) = probe_distribution(view(game, 0), "top-30", rules)
        shoves += action.kind is Act.QIAO
    assert 0.22 < shoves / 400 < 0.38


def test_probe_names() -> None:
    assert all(is_probe(p) for p in [*PROBES, "top-1", "top-100"])
    assert not any(is_probe(p) for p in ["top-0", "top-101", "top-x", "top", "strong"])
    with pytest.raises(ValueError, match="unknown"):
        parse_bots("top-0,strong")
    result = simulate(["always-qiao", "strong"], 60, seed=3, fresh=True)
    assert sum(b.net for b in result.bots) == 0


def round3(own: list[str], bet: int | None, level: str = "strong") -> Game:
    """Seat 0 holds ``own`` in round 3, to act: facing a bet of ``bet`` by seat 1, or
    with nobody having bet yet (``None``).  Both 瞧 in round 1; in round 2 seat 1 bets 10
    and seat 0 calls."""
    game = Game.new([("a", level), ("b", level)], Rules(), 1, dealer=1)
    game.apply(Action(Act.DEAL, cards=game.stacked_deck(
        {0: own, 1: "B5 B5 B8 B8".split()})))
    while game.hand is not None and game.hand.round == 1:
        actor = game.to_act
        assert actor is not None
        game.apply(Action(Act.CALL if Act.CALL in game.legal_actions() else Act.CHECK, actor))
    if game.to_act == 0:
        game.apply(Action(Act.CHECK, 0))
    game.apply(Action(Act.RAISE, 1, 10))
    game.apply(Action(Act.CALL, 0))
    assert game.hand is not None and game.hand.round == 3
    if game.to_act == 1:
        game.apply(Action(Act.RAISE, 1, bet) if bet else Action(Act.CHECK, 1))
    elif bet:
        game.apply(Action(Act.CHECK, 0))
        game.apply(Action(Act.RAISE, 1, bet))
    assert game.to_act == 0
    return game


def folds(game: Game) -> float:
    return sum(p for a, p in policy(game, 0) if a.kind is Act.FOLD)


@pytest.mark.parametrize("level", ["strong", "simple"])
@pytest.mark.parametrize("bet", [20, None])
def test_sanhua_is_never_folded(level: str, bet: int | None) -> None:
    """B10 R10 B7 BJ (三花十) facing a round-3 bet of 20, and with nothing to call: the
    stake comes back at worst, so 甩 has no probability (the strong bot folded it with
    probability 0.72 when it priced only its split)."""
    for own in ("B10 R10 B7 BJ", "R6 B6 JK B9"):
        game = round3(own.split(), bet, level)
        assert Act.CALL in game.legal_actions() if bet else Act.CHECK in game.legal_actions()
        assert folds(game) == 0
        assert sum(p for _, p in policy(game, 0)) == pytest.approx(1)


def facing_a_qiao(qiao_hands: int, dealt_hands: int) -> Game:
    """Heads-up round 1: seat 0 holds ♥Q ♥8 (better than most hands, worse than the
    best few) and faces a 敲 by seat 1, who 敲ed in ``qiao_hands`` of the
    ``dealt_hands`` hands it was dealt before."""
    game = Game.new([("a", "strong"), ("b", "strong")], Rules(), 1, dealer=1)
    game.seats[1].qiao_hands, game.seats[1].dealt_hands = qiao_hands, dealt_hands
    game.apply(Action(Act.DEAL, cards=game.stacked_deck(
        {0: "RQ R8 B5 B7".split(), 1: "B10 B9 R10 B6".split()})))
    game.apply(Action(Act.QIAO, 1))
    assert game.to_act == 0
    return game


@pytest.mark.parametrize("level", ["strong", "simple"])
def test_bots_call_the_qiao_of_a_loose_player_and_fold_to_a_tight_one(level: str) -> None:
    """A 敲 is priced against the hands that player 敲s with (how often they 敲ed in
    the hands seen): one who 敲ed every hand is called, one who never did is not; the
    simple bot's noise never calls a 敲 by chance."""
    def calls(game: Game) -> float:
        return sum(p for a, p in policy(game, 0, level) if a.kind is Act.CALL)

    assert calls(facing_a_qiao(40, 40)) > 0.9
    assert calls(facing_a_qiao(0, 40)) < 0.1
    if level == "simple":
        assert all(p in (0.0, 1.0) for _, p in policy(facing_a_qiao(10, 40), 0, level))


def test_qiao_share_counts_the_hands_dealt_and_the_qiao_and_survives_json() -> None:
    rules = Rules()
    rng = random.Random(3)
    game = Game.new([("p", "always-qiao"), ("f", "fold-to-bet"), ("b", "strong")], rules, 3)
    for _ in range(30):
        refill(game)
        play_hand(game, lambda g, seat: bot_action(g, seat, rng))
    shover, folder = game.seats[0], game.seats[1]
    assert shover.dealt_hands == folder.dealt_hands == 30
    assert shover.qiao_hands >= 27 and folder.qiao_hands == 0  # 敲 when it may
    assert qiao_share(shover, rules) >= 0.9 and qiao_share(folder, rules) == 0.05
    # the 敲 hands a showdown showed: two cards when it 敲ed in round 1, and so on
    assert 0 < len(shover.qiao_shown) <= QIAO_SHOWN and not folder.qiao_shown
    assert all(len(cards) in (2, 3, 4) for cards in shover.qiao_shown)
    again = Game.from_json(game.to_json())
    assert [s.qiao_shown for s in again.seats] == [s.qiao_shown for s in game.seats]
    assert [qiao_share(s, rules) for s in again.seats] == [
        qiao_share(s, rules) for s in game.seats]
    old = game.to_dict()  # a table stored before the counts existed
    for seat in old["seats"]:
        del seat["qiao_hands"], seat["dealt_hands"], seat["qiao_shown"]
    assert qiao_share(Game.from_dict(old).seats[0], rules) == SHOVE_PRIOR


def test_qiao_shown_at_a_showdown_corrects_the_share() -> None:
    """A player who 敲s one hand in five but showed weak hands each time is taken to
    敲 with far more than the best fifth; one who showed the very best, with less."""
    rules = Rules()
    bluffer = SeatState("x", "strong", 100, 100, dealt_hands=50, qiao_hands=10,
                        qiao_shown=(("♣4", "JOKER"),) * 8)
    nuts = SeatState("y", "strong", 100, 100, dealt_hands=50, qiao_hands=10,
                     qiao_shown=(("♥Q", "♦Q"),) * 8)
    plain = SeatState("z", "strong", 100, 100, dealt_hands=50, qiao_hands=10)
    assert qiao_share(plain, rules) == 0.2
    assert qiao_share(bluffer, rules) >= 0.6
    assert qiao_share(nuts, rules) <= 0.1


def test_a_qiao_is_recorded_when_a_showdown_shows_it() -> None:
    """The cards held at the 敲 (two in round 1) join the record once a showdown shows
    them; a 敲 everybody folded to records nothing."""
    for answer in (Act.FOLD, Act.CALL):
        game = Game.new([("a", "strong"), ("b", "strong")], Rules(), 1, dealer=1)
        game.apply(Action(Act.DEAL, cards=game.stacked_deck(
            {1: "RQ R8 B5 B7".split(), 0: "B10 B9 R10 B6".split()})))
        shover = game.to_act
        assert shover is not None
        held = tuple(game.hand.cards[shover][:2])  # type: ignore[union-attr]
        game.apply(Action(Act.QIAO, shover))
        game.apply(Action(answer, game.to_act))
        while game.hand is not None and game.hand.result is None:
            seat = game.to_act
            assert seat is not None
            game.apply(choose_split(game, seat, "strong"))
        expected = (held,) if answer is Act.CALL else ()
        assert game.seats[shover].qiao_shown == expected


@pytest.mark.parametrize("share", [0.1, 0.25, 0.6])
@pytest.mark.parametrize("own", ["RQ R8", "B5 B7", "RQ RQ", "R4 B6 R10"])
def test_edge_against_the_best_hands_agrees_with_dealing_them(own: str, share: float) -> None:
    """:func:`engine.bots.edge_vs_top` against deals: the other player's cards dealt
    from the deck without ours, kept when among the best ``share`` of hands of as many
    cards, both hands completed from what is left and compared by naive split (card
    removal included, which the table leaves out: a few hundredths)."""
    rules = shared(Rules())
    mine = list(physical(parse_kinds(own.split())))
    kinds = _sorted(c.kind for c in mine)
    rng = random.Random(7)
    rest = [c for c in DECK if c not in mine]
    score = {Outcome.WIN: 1, Outcome.LOSE: -1, Outcome.PUSH: 0}
    outcomes: list[int] = []
    while len(outcomes) < 4000:
        deck = rng.sample(rest, 8 - len(mine))
        theirs, more = deck[:len(mine)], deck[len(mine):]
        if share_above(_sorted(c.kind for c in theirs), rules) > share + 1e-9:
            continue
        ours = naive_split(_sorted(kinds + tuple(c.kind for c in more[:4 - len(mine)])),
                           rules)
        other = naive_split(_sorted(c.kind for c in theirs + more[4 - len(mine):]), rules)
        outcomes.append(score[compare(ours, other, rules)])
    sampled = sum(outcomes) / len(outcomes)
    assert edge_vs_top(kinds, share, rules) == pytest.approx(sampled, abs=0.06)
    assert edge_vs_top(kinds, 1.0, rules) == pytest.approx(strength(kinds, rules))


def _plays(levels: int, dealer: int, own: str, then: list[Action]) -> bool:
    """Whether the simple bot in seat 0 plays on (anything but 甩) with ``own`` after the
    deal and the actions ``then``."""
    names = [("a", "simple")] + [(f"b{i}", "strong") for i in range(levels - 1)]
    game = Game.new(names, Rules(), 1, dealer=dealer)
    game.seats[1].qiao_hands, game.seats[1].dealt_hands = 20, 40
    game.apply(Action(Act.DEAL, cards=game.stacked_deck({0: [*own.split(), "B5", "B7"]})))
    for a in then:
        game.apply(a)
    assert game.to_act == 0
    return max(policy(game, 0), key=lambda x: x[1])[0].kind is not Act.FOLD


HANDS = [f"{a.code} {b.code}" for i, a in enumerate(KINDS) for b in KINDS[i:]
         if (a is not b or a.copies == 2) and a.code not in ("B5", "B7")
         and b.code not in ("B5", "B7")]


def test_simple_calls_the_forced_opening_wider_with_nobody_behind() -> None:
    """The forced 发招 says nothing of a hand: heads-up the simple bot plays on with
    more hands than when two players are still to answer it (each raises its bar)."""
    heads_up = {h for h in HANDS if _plays(2, 0, h, [])}
    first_of_four = {h for h in HANDS if _plays(4, 2, h, [])}
    assert first_of_four < heads_up
    assert len(heads_up) > len(HANDS) / 2


def test_simple_wants_more_edge_against_a_qiao_for_each_caller(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who has called a 敲 holds a hand that beats the 敲's range: with one
    caller the simple bot calls the 敲 with fewer hands than it would without that
    margin."""
    then = [Action(Act.QIAO, 1), Action(Act.CALL, 2)]
    with_margin = {h for h in HANDS if _plays(3, 2, h, then)}
    monkeypatch.setattr("engine.bots.SIMPLE_CALLED", 0.0)
    without = {h for h in HANDS if _plays(3, 2, h, then)}
    assert with_margin < without
