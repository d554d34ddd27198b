import pytest
from django.test import Client
from tests.coach_hands import play_hands
from tutorial import coach
from engine.review import review

pytestmark = pytest.mark.django_db

@pytest.mark.parametrize("seed", range(1, 25))
def test_dbg(seed, monkeypatch):
    t = play_hands(Client(), monkeypatch, seed, 4, bots=1 + seed % 3, level="strong")
    for n in range(1, t.hands.count() + 1):
        data = coach.export(t, n)
        try:
            review(data["config"], data["log"], 0, 5)
        except Exception as e:
            if "no betting decision" in str(e) or "no hand" in str(e):
                continue
            import json; open(f"/tmp/bad_{seed}_{n}.json", "w").write(json.dumps(data))
            raise
