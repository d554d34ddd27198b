"""A decision priced again with any legal action (engine.review.retry, 再来一次)."""

from __future__ import annotations

import pytest

from engine.game import Act, Action, ActionError
from engine.review import ReviewError, retry, review
from tests.test_review import export


def test_a_raise_of_any_legal_amount_is_priced_and_graded() -> None:
    data = export()
    first = review(data["config"], data["log"], 0, worlds=20)[0]
    game_legal = [p.action for p in first.options if p.action.kind is Act.RAISE]
    assert game_legal, "the spot offers a 返"
    amount = game_legal[0].amount
    assert amount is not None
    again = retry(data["config"], data["log"], 0, 0, Action(Act.RAISE, 0, amount + 1),
                  worlds=20)
    chosen = again.options[again.chosen]
    assert (chosen.action.kind, chosen.action.amount) == (Act.RAISE, amount + 1)
    assert chosen.stderr > 0 and again.grade in {"好", "不精确", "失误", "大错", "难分"}
    assert again.loss == pytest.approx(again.options[again.rival].ev - chosen.ev)
    # the original choice again gives the stored figures
    same = retry(data["config"], data["log"], 0, 0, first.options[first.chosen].action,
                 worlds=20)
    assert same == first


def test_an_illegal_amount_or_decision_is_refused() -> None:
    data = export()
    with pytest.raises(ActionError):
        retry(data["config"], data["log"], 0, 0, Action(Act.RAISE, 0, 1), worlds=5)
    with pytest.raises(ReviewError):
        retry(data["config"], data["log"], 0, 99, Action(Act.FOLD, 0), worlds=5)
