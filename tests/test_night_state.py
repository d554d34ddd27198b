"""The state stored with each night entry (issue 21 §4): a page reads the latest entry's
state and the hands it shows, never the whole night, so the state written with each
entry (from the one stored before it) must be the state the entries themselves give.
Random nights of hands, re-buys, leavings, comebacks and undos (hypothesis), built as
the views build them (``Night.add_event``; undo deletes the last entry); the migration that gave
the nights already there their states."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutorial.models_night import HandRecord, Night, NightEvent, Point, rebuilt, start

pytestmark = pytest.mark.django_db

PLAYERS = ["甲", "乙", "丙", "丁"]

hands = st.builds(
    lambda kind, nets, pot_to, quan: ("hand", {"kind": kind, "nets": nets, "pot_to": pot_to,
                                               "quan": quan}),
    st.sampled_from(["show", "zou", "xiu"]),
    st.dictionaries(st.sampled_from(PLAYERS), st.integers(-2500, 2500), max_size=4),
    st.sampled_from([*PLAYERS, ""]), st.booleans())
entries = st.one_of(
    hands, hands,
    st.builds(lambda who, amount: ("rebuy", {"player": who, "amount": amount}),
              st.sampled_from([*PLAYERS, "戊"]), st.integers(50, 3000)),
    st.builds(lambda who: ("leave", {"player": who}), st.sampled_from(PLAYERS)),
    st.builds(lambda who: ("back", {"player": who}), st.sampled_from(PLAYERS)),
    st.just(("undo", {})))


def new_night(rules: str = "xuanjing", dealer: int = 0) -> Night:
    return Night.objects.create(players=PLAYERS, starting_bobo=2000, rules_name=rules,
                                first_dealer=dealer, end_at=timezone.now() + timedelta(hours=3))


def write(night: Night, kind: str, data: dict[str, Any]) -> None:
    """As the views write: an entry (with its state), or undo of the latest one."""
    if kind == "undo":
        night.events.filter(seq=night.last_seq).delete()
    else:
        night.add_event(kind, data)


def check(night: Night) -> None:
    """What the pages read equals what the entries give, rebuilt from the first."""
    events = list(night.events.order_by("seq"))
    assert [(e.hand, e.after) for e in events] == list(rebuilt(night, events))
    replayed = start(night)
    records: list[HandRecord] = []
    points = [Point(0, dict.fromkeys(PLAYERS, 0))]
    for event in events:
        record = replayed.apply(event)
        if record is not None:
            records.append(record)
            points.append(Point(record.number, {p.name: p.net for p in replayed.players}))
    state = night.state()
    assert state.to_dict() == replayed.to_dict() and state.players == replayed.players
    assert state.hands == len(records)
    assert night.hand_records(1, len(records)) == records[::-1]
    assert night.points(range(len(points))) == points
    if records:
        every = [v for p in points for v in p.net.values()]
        assert (state.low, state.high) == (min(every), max(every))


@settings(max_examples=80, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rules=st.sampled_from(["xuanjing", "app"]), dealer=st.integers(0, 3),
       steps=st.lists(entries, max_size=30), at=st.lists(st.integers(0, 30), max_size=3))
def test_the_stored_state_is_the_state_of_the_entries(rules: str, dealer: int,
                                                      steps: list[tuple[str, dict[str, Any]]],
                                                      at: list[int]) -> None:
    night = new_night(rules, dealer)
    for i, (kind, data) in enumerate(steps):
        write(night, kind, data)
        if i in at:  # now and then, halfway
            check(night)
    check(night)


def test_a_night_before_its_first_entry() -> None:
    night = new_night()
    check(night)
    assert night.state().hands == 0 and night.latest() is None


def test_undo_gives_back_the_state_before() -> None:
    night = new_night()
    night.add_event("hand", {"kind": "zou", "nets": {"甲": -1, "乙": 3, "丙": -1, "丁": -1},
                             "pot_to": "乙"})
    before = night.state()
    night.add_event("hand", {"kind": "show", "nets": {"甲": 900, "丙": -900}, "pot_to": "甲"})
    assert night.state().to_dict() != before.to_dict()
    write(night, "undo", {})
    assert night.state().to_dict() == before.to_dict() and night.state().dealer == 1
    check(night)


def test_the_migration_gives_existing_nights_their_states() -> None:
    fill = importlib.import_module("tutorial.migrations.0012_night_event_state").fill
    nights = [new_night(), new_night("app", 2), new_night()]
    entries: list[tuple[str, dict[str, Any]]] = [
        ("hand", {"kind": "xiu", "nets": {"甲": -1}}),
        ("rebuy", {"player": "乙", "amount": 500}),
        ("hand", {"kind": "show", "nets": {"乙": 7, "丁": -7}, "pot_to": "乙", "calc": "p=x"}),
        ("leave", {"player": "丙"})]
    for night in nights[:2]:
        for kind, data in entries:
            night.add_event(kind, data)
    NightEvent.objects.update(hand=None, after={})  # as the rows were before it
    fill(apps, None)
    assert NightEvent.objects.filter(hand__isnull=False).count() == 4
    for night in nights:
        check(night)
