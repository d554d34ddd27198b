"""Accounts (issue 22): sign-up with recovery codes, login and logout, the merge of
anonymous progress (rule by rule), two devices on one account, the data download,
deleting the account (every model scanned), and the safety rules (session rotation,
other sessions ended, rate limits that tell no usernames apart, safe ``?next=``, CSRF,
no cross-account reads, no name in the shared page cache)."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core import serializers
from django.core.exceptions import PermissionDenied
from django.test import Client

from tutorial import accounts, jobs
from tutorial.models_accounts import AccountNight, AccountPreference, LoginSession, RecoveryCode
from tutorial.models_coach import HandReview, RetryPrice
from tutorial.models_course import CourseProgress
from tutorial.models_jobs import ComputeJob
from tutorial.models_night import Night
from tutorial.models_quiz import QuizProgress, QuizQuestion, ReviewCard
from tutorial.models_table import PracticeHand, PracticeTable

pytestmark = pytest.mark.django_db
PASSWORD = "river-card-2718"
T0 = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast(settings: Any) -> None:
    settings.PASSWORD_HASHERS = FAST_HASHER
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": (1000, 600),
                            "login-account": (1000, 600), "signup": (1000, 600)}


def session_key(client: Client) -> str:
    """The client's session key, the session created first if needed."""
    session = client.session
    session["seen"] = True
    session.save()
    return str(session.session_key)


def signup(client: Client, username: str, **extra: str) -> Any:
    return client.post("/accounts/signup/", {"username": username, "password1": PASSWORD,
                                             "password2": PASSWORD, **extra})


def log_in(client: Client, username: str, password: str = PASSWORD, **extra: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password,
                                            **extra})


def make_user(name: str = "alice") -> User:
    return User.objects.create_user(name, password=PASSWORD)


def course(key: str, lesson: str, *, stars: int = 0, run: str = "", done: datetime | None = None,
           at: datetime = T0) -> CourseProgress:
    return CourseProgress.objects.create(session_key=key, lesson=lesson, stars=stars, run=run,
                                         completed_at=done, updated_at=at)


def card(key: str, item: str, *, last: datetime | None, due: datetime, stability: float = 1.0,
         reviews: int = 1, lapses: int = 0) -> ReviewCard:
    return ReviewCard.objects.create(session_key=key, item=item, last_review=last, due=due,
                                     stability=stability, reviews=reviews, lapses=lapses)


def table(key: str) -> PracticeTable:
    t = PracticeTable.objects.create(owner=key, state={"s": 1})
    PracticeHand.objects.create(table=t, number=1, hand={"h": 1})
    HandReview.objects.create(table=t, number=1, data={"r": 1})
    RetryPrice.objects.create(table=t, number=1, k=0, amount=9, data={"p": 1})
    ComputeJob.objects.create(key=jobs.reprice_key(t.pk, 1, 0, 10))
    return t


def night(title: str) -> Night:
    return Night.objects.create(title=title, players=["甲", "乙"], starting_bobo=2000,
                                end_at=T0)


# --------------------------------------------------------------------------- sign-up, codes


def test_signup_shows_codes_once_stores_digests_and_hashes_with_argon2(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
    client = Client()
    response = signup(client, "alice")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    codes = re.findall(r"<code>([a-z2-9]{4}(?:-[a-z2-9]{4}){3})</code>", response.text)
    assert len(codes) == accounts.RECOVERY_CODES == len(set(codes))
    user = User.objects.get(username="alice")
    assert user.password.startswith("argon2$")
    stored = set(RecoveryCode.objects.filter(user=user).values_list("digest", flat=True))
    assert len(stored) == 10 and not stored & set(codes)
    assert all(code not in json.dumps(list(Session.objects.values("session_data")))
               for code in codes)
    page = client.get("/accounts/")
    assert page.status_code == 200 and "还剩 10 个没用过的恢复码" in page.text
    assert not any(code in page.text for code in codes)  # shown once only


def test_signup_refuses_a_taken_username_and_a_weak_password() -> None:
    make_user("alice")
    assert signup(Client(), "Alice").status_code == 400
    bad = Client().post("/accounts/signup/", {"username": "bob", "password1": "123",
                                              "password2": "123"})
    assert bad.status_code == 400 and not User.objects.filter(username="bob").exists()
    # Django's own messages in Chinese (its catalog has the short-password message under
    # an older wording, so it stood in English; its null-character message had a typo)
    assert "这个密码太短了，至少要有 8 个字符。" in bad.text and "too short" not in bad.text
    null = Client().post("/accounts/signup/", {"username": "b\x00b", "password1": PASSWORD,
                                               "password2": PASSWORD})
    assert null.status_code == 400 and "不能含有空字符" in null.text


def test_a_name_differing_only_by_case_is_taken_even_past_the_forms_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two devices signing up "Bob" and "bob" at one instant both passed the form's
    case-blind check and both got an account; the database now holds one per name
    whatever its case (migration 0013), and the second sign-up hears "name taken"."""
    from django.contrib.auth.forms import UserCreationForm
    from django.db import IntegrityError, transaction

    make_user("Bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("bob", password=PASSWORD)
    # the other device's check ran before "Bob" was written: skip it
    monkeypatch.setattr(UserCreationForm, "clean_username",
                        lambda form: form.cleaned_data.get("username"))
    r = signup(Client(), "bob")
    assert r.status_code == 400 and "已存在" in r.text
    assert list(User.objects.values_list("username", flat=True)) == ["Bob"]


def test_the_chinese_username_rule_names_every_character_the_validator_allows() -> None:
    """Django's zh_Hans catalog leaves "+" out of both messages; ours puts it back, and
    a name with "+" is taken."""
    allowed = "“@”、“.”、“+”、“-”和“_”"
    assert allowed in Client().get("/accounts/signup/").text
    bad = Client().post("/accounts/signup/", {"username": "a b", "password1": PASSWORD,
                                              "password2": PASSWORD})
    assert bad.status_code == 400 and "请输入合法的用户名" in bad.text and allowed in bad.text
    assert signup(Client(), "a+b").status_code == 200


def test_every_page_works_without_an_account() -> None:
    client = Client()
    for url in ("/", "/course/", "/quiz/", "/table/", "/night/", "/cards/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "登录/注册" in response.text
    assert client.get("/accounts/").status_code == 302
    assert client.get("/accounts/data.json").status_code == 302


# --------------------------------------------------------------------------- merge rules


def test_merge_moves_rows_only_the_anonymous_side_has() -> None:
    user = make_user()
    target = accounts.user_key(user.pk)
    course("anon", "cards", stars=2, done=T0)
    QuizProgress.objects.create(session_key="anon", kind="bigger", answered=4, correct=3)
    card("anon", "rank:RQ", last=T0, due=T0)
    QuizQuestion.objects.create(session_key="anon", kind="bigger", seed=1, level=1,
                                issued_at=T0, answered_at=T0, correct=True)
    t = table("anon")
    accounts.merge("anon", target)
    assert CourseProgress.objects.get(session_key=target).stars == 2
    assert QuizProgress.objects.get(session_key=target).answered == 4
    assert ReviewCard.objects.get(session_key=target).item == "rank:RQ"
    assert QuizQuestion.objects.get().session_key == target
    assert PracticeTable.objects.get(pk=t.pk).owner == target
    assert HandReview.objects.get().table_id == t.pk  # reviews follow their table
    for model in (CourseProgress, QuizProgress, ReviewCard, QuizQuestion):
        assert not model.objects.filter(session_key="anon").exists()


def test_merge_course_keeps_best_stars_first_completion_and_latest_run() -> None:
    user = make_user()
    target = accounts.user_key(user.pk)
    later = T0 + timedelta(days=1)
    # stars: the account's 3 beat the visitor's 2; the visitor finished first; the
    # visitor answered last, so their attempt under way ("10") is the one kept.
    course(target, "cards", stars=3, done=T0 + timedelta(hours=5), run="", at=T0)
    course("anon", "cards", stars=2, done=T0, run="10", at=later)
    # the other way round: the visitor's stars are better, the account answered last.
    course(target, "pairs", stars=1, done=T0, run="1", at=later)
    course("anon", "pairs", stars=3, done=None, run="0", at=T0)
    # only the visitor finished
    course(target, "rules", run="1", at=T0)
    course("anon", "rules", stars=2, done=T0, run="", at=T0 - timedelta(days=1))
    accounts.merge("anon", target)
    rows = {r.lesson: r for r in CourseProgress.objects.filter(session_key=target)}
    assert (rows["cards"].stars, rows["cards"].completed_at, rows["cards"].run) == (3, T0, "10")
    assert rows["cards"].updated_at == later
    assert (rows["pairs"].stars, rows["pairs"].completed_at, rows["pairs"].run) == (3, T0, "1")
    assert (rows["rules"].stars, rows["rules"].completed_at, rows["rules"].run) == (2, T0, "1")
    assert CourseProgress.objects.count() == 3


def test_merge_quiz_counts_add_up_best_streak_is_larger_streak_is_latest() -> None:
    user = make_user()
    target = accounts.user_key(user.pk)
    QuizProgress.objects.create(session_key=target, kind="bigger", answered=10, correct=7,
                                streak=2, best_streak=5, updated_at=T0)
    QuizProgress.objects.create(session_key="anon", kind="bigger", answered=3, correct=3,
                                streak=3, best_streak=3, updated_at=T0 + timedelta(hours=1))
    QuizProgress.objects.create(session_key=target, kind="name", answered=2, correct=2,
                                streak=2, best_streak=2, updated_at=T0 + timedelta(hours=1))
    QuizProgress.objects.create(session_key="anon", kind="name", answered=9, correct=8,
                                streak=0, best_streak=8, updated_at=T0)
    accounts.merge("anon", target)
    rows = {r.kind: r for r in QuizProgress.objects.filter(session_key=target)}
    big, name = rows["bigger"], rows["name"]
    assert (big.answered, big.correct, big.streak, big.best_streak) == (13, 10, 3, 5)
    assert (name.answered, name.correct, name.streak, name.best_streak) == (11, 10, 2, 8)
    assert QuizProgress.objects.count() == 2


def test_merge_review_card_keeps_the_latest_schedule_and_adds_reviews() -> None:
    user = make_user()
    target = accounts.user_key(user.pk)
    later = T0 + timedelta(days=2)
    card(target, "rank:A", last=T0, due=T0 + timedelta(days=10), stability=9, reviews=4)
    card("anon", "rank:A", last=later, due=later + timedelta(minutes=10), stability=0.5,
         reviews=2, lapses=1)
    card(target, "rank:B", last=later, due=later + timedelta(days=3), stability=3, reviews=1)
    card("anon", "rank:B", last=T0, due=T0 + timedelta(days=1), stability=1, reviews=5)
    card(target, "rank:C", last=None, due=T0, stability=0, reviews=0)  # never reviewed
    card("anon", "rank:C", last=T0, due=T0 + timedelta(days=1), stability=2, reviews=1)
    accounts.merge("anon", target)
    rows = {c.item: c for c in ReviewCard.objects.filter(session_key=target)}
    a, b, c = rows["rank:A"], rows["rank:B"], rows["rank:C"]
    # A: the visitor's lapse yesterday is the latest fact: the card comes back soon.
    assert (a.last_review, a.due, a.stability, a.reviews, a.lapses) == (
        later, later + timedelta(minutes=10), 0.5, 6, 1)
    assert (b.last_review, b.stability, b.reviews) == (later, 3, 6)
    assert (c.last_review, c.stability, c.reviews) == (T0, 2, 1)
    assert ReviewCard.objects.count() == 3


def test_merge_keeps_both_sides_tables_and_questions() -> None:
    user = make_user()
    target = accounts.user_key(user.pk)
    mine, theirs = table(target), table("anon")
    for key in (target, "anon"):
        QuizQuestion.objects.create(session_key=key, kind="bigger", seed=1, level=1,
                                    issued_at=T0, answered_at=T0, correct=True)
    accounts.merge("anon", target)
    assert set(PracticeTable.objects.filter(owner=target)) == {mine, theirs}
    assert QuizQuestion.objects.filter(session_key=target).count() == 2
    assert HandReview.objects.filter(table__owner=target).count() == 2


def test_signup_and_login_merge_the_visitors_progress_and_nights() -> None:
    client = Client()
    key = session_key(client)
    course(key, "cards", stars=3, done=T0)
    t = table(key)
    created = client.post("/night/", {"player1": "甲", "player2": "乙", "stakes": "1、3",
                                      "bobo": "2000", "end": "23:00", "tz": "UTC"})
    assert created.status_code == 302
    signup(client, "alice")
    user = User.objects.get(username="alice")
    target = accounts.user_key(user.pk)
    assert CourseProgress.objects.get(lesson="cards").session_key == target
    assert PracticeTable.objects.get(pk=t.pk).owner == target
    assert AccountNight.objects.filter(user=user).count() == 1
    client.post("/accounts/logout/")
    # a second browser: progress of its own, merged at login
    other = Client()
    other_key = session_key(other)
    course(other_key, "cards", stars=1, done=T0 - timedelta(days=1), run="0",
           at=T0 + timedelta(days=1))
    course(other_key, "pairs", stars=2, done=T0)
    assert log_in(other, "alice").status_code == 302
    rows = {r.lesson: r for r in CourseProgress.objects.all()}
    assert set(rows) == {"cards", "pairs"}
    assert {r.session_key for r in rows.values()} == {target}
    assert (rows["cards"].stars, rows["cards"].completed_at) == (3, T0 - timedelta(days=1))
    page = other.get("/course/")
    assert page.status_code == 200
    home = other.get("/night/")
    assert Night.objects.get().token in home.text  # the night's organiser link followed


def test_logging_in_as_someone_else_merges_nothing_from_the_first_account() -> None:
    make_user("alice"), make_user("bob")
    client = Client()
    log_in(client, "alice")
    alice = accounts.user_key(User.objects.get(username="alice").pk)
    course(alice, "cards", stars=3)
    log_in(client, "bob")
    assert CourseProgress.objects.get().session_key == alice


# --------------------------------------------------------------------------- two devices


def test_two_devices_see_the_same_progress() -> None:
    make_user()
    laptop, phone = Client(), Client()
    log_in(laptop, "alice"), log_in(phone, "alice")
    key = accounts.user_key(User.objects.get().pk)
    course(key, "cards", stars=3, done=T0)
    card(key, "rank:RQ-B9", last=T0, due=T0)
    made = laptop.post("/table/", {"bots": "2", "level": "simple", "stakes": "1、3",
                                   "mango": "fixed"})
    assert made.status_code == 303
    for device in (laptop, phone):
        assert device.get("/course/").context["stars"] == 3
        assert device.get("/quiz/").context["due"].now == 1
        assert device.get(made["Location"]).status_code == 200
        assert device.get("/table/").context["mine"][0].owner == key
    assert Client().get(made["Location"]).status_code == 404  # a stranger


# --------------------------------------------------------------------------- safety


def test_reading_the_account_pages_writes_nothing() -> None:
    for url in ("/accounts/login/", "/accounts/signup/", "/accounts/recover/",
                "/accounts/login/?next=/quiz/", "/accounts/", "/accounts/data.json"):
        for method in ("get", "head"):
            response = getattr(Client(), method)(url)
            assert response.status_code in (200, 302), url
            assert "sessionid" not in response.cookies
    assert not Session.objects.exists() and not User.objects.exists()


def test_sessions_that_expired_are_forgotten_at_the_next_login() -> None:
    make_user()
    old = Client()
    log_in(old, "alice")
    Session.objects.all().delete()  # clearsessions
    log_in(Client(), "alice")
    assert LoginSession.objects.count() == 1


def test_login_rotates_the_session_key_and_records_the_session() -> None:
    make_user()
    client = Client()
    before = session_key(client)
    assert log_in(client, "alice").status_code == 302
    after = client.cookies["sessionid"].value
    assert after != before and not Session.objects.filter(session_key=before).exists()
    assert LoginSession.objects.get().session_key == after


def test_next_stays_on_the_site() -> None:
    make_user()
    for target, expected in (("/quiz/", "/quiz/"), ("https://evil.example/", "/accounts/"),
                             ("//evil.example/x", "/accounts/"), ("/\\evil.example", "/accounts/")):
        client = Client()
        response = log_in(client, "alice", next=target)
        assert response.status_code == 302 and response["Location"] == expected, target
    response = signup(Client(), "bob", next="https://evil.example/")
    assert 'href="/accounts/"' in response.text and "evil" not in response.text
    response = signup(Client(), "carol", next="/cards/")
    assert 'href="/cards/"' in response.text


def test_unknown_user_and_wrong_password_get_the_same_answer() -> None:
    make_user()
    wrong = log_in(Client(), "alice", "nope-nope-nope")
    unknown = log_in(Client(), "nobody", "nope-nope-nope")
    assert wrong.status_code == unknown.status_code == 200

    def errors(text: str) -> list[str]:
        return re.findall(r'<ul class="errorlist nonfield">(.*?)</ul>', text, re.S)

    assert errors(wrong.text) == errors(unknown.text) != []


def test_login_attempts_are_limited_per_account_and_per_client(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutorial.views.accounts.time.time", lambda: 1_800_000_000.0)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": (6, 600),
                            "login-account": (3, 600)}
    make_user()
    for i in range(3):
        assert log_in(Client(REMOTE_ADDR=f"10.0.0.{i}"), "alice", "bad").status_code == 200
    # the account is locked for everyone, even with the right password
    blocked = log_in(Client(REMOTE_ADDR="10.0.1.1"), "alice")
    assert blocked.status_code == 429 and "分钟后再试" in blocked.text
    # the minutes said are never fewer than the real wait (rounded up)
    minutes = int(re.search(r"请 (\d+) 分钟后再试", blocked.text).group(1))
    assert 0 <= minutes * 60 - int(blocked["Retry-After"]) < 60
    # an unknown username is locked the same way (nothing tells them apart)
    for _ in range(3):
        log_in(Client(REMOTE_ADDR="10.0.2.1"), "ghost", "bad")
    ghost = log_in(Client(REMOTE_ADDR="10.0.3.1"), "ghost", "bad")
    assert ghost.status_code == 429
    assert ghost.text.count("分钟后再试") == blocked.text.count("分钟后再试") == 1
    # per client: one address trying many usernames
    client = Client(REMOTE_ADDR="10.9.9.9")
    statuses = [log_in(client, f"user{i}", "bad").status_code for i in range(8)]
    assert statuses == [200] * 6 + [429] * 2


def test_the_per_account_limit_counts_every_spelling_django_logs_in_with(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's login form applies NFKC to the username, so "ａｌｉｃｅ" (full width) and
    "alice " log in as "alice": they count against "alice" too (each spelling had a
    counter of its own, ten more guesses per spelling)."""
    monkeypatch.setattr("tutorial.views.accounts.time.time", lambda: 1_800_000_000.0)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": (100, 600),
                            "login-account": (3, 600)}
    make_user()
    assert log_in(Client(), "ａｌｉｃｅ").status_code == 302  # the same account
    for name in ("alice", "ａｌｉｃｅ", " alice"):
        assert log_in(Client(REMOTE_ADDR="10.0.0.1"), name, "bad").status_code in (200, 429)
    for name in ("ａｌｉｃｅ", "ａlice", "alicｅ", "ALICE"):
        response = log_in(Client(REMOTE_ADDR="10.0.0.2"), name)
        assert response.status_code == 429, name
    assert accounts.account_tag("ａｌｉｃｅ") == accounts.account_tag("alice")


def test_a_login_whose_merge_fails_leaves_the_visitor_their_session_and_progress(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Login and merge are one transaction: the old session (the key the anonymous
    progress is under) was deleted by the login even when the merge then failed, which
    left the progress under a key no cookie holds."""
    make_user()
    client = Client(raise_request_exception=False)
    key = session_key(client)
    course(key, "groups", stars=3, done=T0)

    def fails(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("merge failed")

    monkeypatch.setattr(accounts, "merge", fails)
    assert log_in(client, "alice").status_code == 500
    assert Session.objects.filter(session_key=key).exists()
    assert client.cookies["sessionid"].value == key
    assert not LoginSession.objects.exists()
    assert "得了 3 颗星" in client.get("/course/").text
    monkeypatch.undo()
    assert log_in(client, "alice").status_code == 302
    assert CourseProgress.objects.get().session_key == accounts.user_key(User.objects.get().pk)


def test_a_signup_whose_merge_fails_creates_no_account(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sign-up is all or nothing: no account whose recovery codes were never shown."""
    client = Client(raise_request_exception=False)
    key = session_key(client)
    monkeypatch.setattr(accounts, "merge", lambda *args, **kwargs: 1 / 0)
    assert signup(client, "alice").status_code == 500
    assert not User.objects.exists() and not RecoveryCode.objects.exists()
    assert Session.objects.filter(session_key=key).exists()
    monkeypatch.undo()
    assert signup(client, "alice").status_code == 200


def test_password_checks_of_a_logged_in_learner_are_limited_too(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tutorial.views.accounts.time.time", lambda: 1_800_000_000.0)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login-account": (4, 600)}
    make_user()
    client = Client()
    log_in(client, "alice")  # 1
    change = {"old_password": "guess", "new_password1": "x-y-z-12345",
              "new_password2": "x-y-z-12345"}
    assert client.post("/accounts/password/", change).status_code == 200  # 2
    assert client.post("/accounts/delete/", {"password": "guess"}).status_code == 400  # 3
    assert client.post("/accounts/codes/", {"password": "guess"}).status_code == 400  # 4
    for url, form in (("/accounts/password/", {**change, "old_password": PASSWORD}),
                      ("/accounts/delete/", {"password": PASSWORD}),
                      ("/accounts/codes/", {"password": PASSWORD})):
        response = client.post(url, form)
        assert response.status_code == 429 and "分钟后再试" in response.text, url
    assert User.objects.get().check_password(PASSWORD)


def test_csrf_is_checked_on_every_account_form() -> None:
    make_user()
    client = Client(enforce_csrf_checks=True)
    for url in ("/accounts/login/", "/accounts/signup/", "/accounts/recover/"):
        assert client.post(url, {"username": "alice", "password": PASSWORD}).status_code == 403
    client.force_login(User.objects.get())
    for url in ("/accounts/logout/", "/accounts/password/", "/accounts/codes/",
                "/accounts/delete/"):
        assert client.post(url, {"password": PASSWORD}).status_code == 403, url
    assert User.objects.exists()


def test_password_change_ends_the_other_sessions() -> None:
    make_user()
    laptop, phone = Client(), Client()
    log_in(laptop, "alice"), log_in(phone, "alice")
    new = "another-pass-3141"
    response = laptop.post("/accounts/password/", {
        "old_password": PASSWORD, "new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert laptop.get("/accounts/").status_code == 200  # still logged in
    assert phone.get("/accounts/").status_code == 302  # logged out
    assert LoginSession.objects.count() == 1
    assert Session.objects.count() == 1


def test_recovery_code_resets_the_password_once_and_ends_sessions() -> None:
    client = Client()
    codes = re.findall(r"<code>([^<]+)</code>", signup(client, "alice").text)
    form = {"username": "alice", "new_password1": "fresh-pass-2026",
            "new_password2": "fresh-pass-2026"}
    wrong = Client().post("/accounts/recover/", {**form, "code": "aaaa-bbbb-cccc-dddd"})
    unknown = Client().post("/accounts/recover/", {**form, "username": "ghost",
                                                   "code": codes[0]})
    assert wrong.status_code == unknown.status_code == 400
    assert "用户名或恢复码不对" in wrong.text and "用户名或恢复码不对" in unknown.text
    ok = Client().post("/accounts/recover/", {**form, "code": codes[0].upper()})
    assert ok.status_code == 302
    assert client.get("/accounts/").status_code == 302  # the old session ended
    assert log_in(Client(), "alice", "fresh-pass-2026").status_code == 302
    again = Client().post("/accounts/recover/", {**form, "code": codes[0]})
    assert again.status_code == 400  # spent
    assert RecoveryCode.objects.count() == 9


def test_recovery_takes_the_username_as_login_does() -> None:
    """The recovery form cleans the username as Django's login form does (NFKC, spaces
    stripped): "ａｌｉｃｅ " logs in as "alice", so it recovers "alice" too."""
    codes = re.findall(r"<code>([^<]+)</code>", signup(Client(), "alice").text)
    response = Client().post("/accounts/recover/", {
        "username": "ａｌｉｃｅ ", "code": codes[0], "new_password1": "fresh-pass-2026",
        "new_password2": "fresh-pass-2026"})
    assert response.status_code == 302
    assert User.objects.get().check_password("fresh-pass-2026")


def test_new_codes_need_the_password() -> None:
    make_user()
    client = Client()
    log_in(client, "alice")
    assert client.post("/accounts/codes/", {"password": "wrong"}).status_code == 400
    response = client.post("/accounts/codes/", {"password": PASSWORD})
    assert response.status_code == 200 and len(re.findall("<code>", response.text)) == 10


def test_the_header_shows_the_name_but_the_page_cache_never_does() -> None:
    make_user("alice")
    anon = Client()
    assert "登录/注册" in anon.get("/cards/").text  # cached now
    alice = Client()
    log_in(alice, "alice")
    page = alice.get("/cards/").text
    assert "alice" in page and "退出" in page and "登录/注册" not in page
    assert "alice" not in anon.get("/cards/").text
    assert "alice" not in Client().get("/pairs/").text
    assert "alice" in alice.get("/pairs/").text


# --------------------------------------------------------------------------- data, deletion


def fill(client: Client, name: str) -> User:
    """An account with a row in every table a learner can fill."""
    signup(client, name)
    user = User.objects.get(username=name)
    key = accounts.user_key(user.pk)
    course(key, "cards", stars=2, done=T0)
    QuizProgress.objects.create(session_key=key, kind="bigger", answered=1, correct=1)
    card(key, "rank:RQ", last=T0, due=T0)
    QuizQuestion.objects.create(session_key=key, kind="bigger", seed=7, level=1,
                                issued_at=T0, answered_at=T0, correct=True)
    table(key)
    n = night(f"{name}'s night")
    n.add_event("hand", {"kind": "show", "nets": {}})
    AccountNight.objects.create(user=user, night=n)
    AccountPreference.objects.create(user=user, coach_off=True, coach_switched=T0)
    return user


def test_the_download_holds_everything_of_the_learner_and_nothing_else() -> None:
    fill(Client(), "bob")
    client = Client()
    user = fill(client, "alice")
    response = client.get("/accounts/data.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert [c["lesson"] for c in data["course"]] == ["cards"]
    assert len(data["quiz_progress"]) == len(data["review_cards"]) == 1
    assert len(data["quiz_answers"]) == 1
    assert len(data["practice_tables"]) == 1
    assert len(data["practice_tables"][0]["hands"]) == 1
    assert len(data["practice_tables"][0]["reviews"]) == 1
    assert len(data["practice_tables"][0]["retry_prices"]) == 1
    assert [n["title"] for n in data["nights"]] == ["alice's night"]
    assert len(data["nights"][0]["events"]) == 1
    assert len(data["account"]["recovery_codes"]) == 10
    assert data["preferences"] == [{"coach_off": True, "coach_switched": T0.isoformat()
                                    .replace("+00:00", "Z")}]
    assert "bob's night" not in response.text and '"bob"' not in response.text
    assert user.password not in response.text


def _dump() -> str:
    return "\n".join(serializers.serialize("json", model._default_manager.all())
                     for model in apps.get_models())


def test_deleting_the_account_leaves_nothing_behind_in_any_table() -> None:
    bob = fill(Client(), "bob")
    laptop = Client()
    user = fill(laptop, "alice")
    phone = Client()
    log_in(phone, "alice")
    key, pk = accounts.user_key(user.pk), user.pk
    tokens = list(Night.objects.filter(organisers__user=user).values_list("token", flat=True))
    table_ids = [str(t) for t in PracticeTable.objects.filter(owner=key).values_list("pk",
                                                                                    flat=True)]
    assert laptop.get("/accounts/delete/").status_code == 200
    assert laptop.post("/accounts/delete/", {"password": "wrong"}).status_code == 400
    assert User.objects.filter(pk=pk).exists()
    response = laptop.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 302
    dump = _dump()
    for trace in (key, '"alice"', "alice's night", *tokens, *table_ids,
                  accounts.account_tag("alice")):
        assert trace not in dump, trace
    for session in Session.objects.all():  # no session still logged in as alice
        assert session.get_decoded().get("_auth_user_id") != str(pk)
    assert phone.get("/accounts/").status_code == 302
    assert not AccountPreference.objects.filter(pk=pk).exists()
    # bob's things are untouched
    assert User.objects.filter(pk=bob.pk).exists()
    assert CourseProgress.objects.filter(session_key=accounts.user_key(bob.pk)).count() == 1
    assert AccountNight.objects.filter(user=bob).count() == 1


def test_an_account_deleted_twice_at_once_is_deleted_once() -> None:
    """Two deletions of one account racing (a double submit from two devices): the second
    finds the account gone and is refused (the site's 403) instead of deleting again."""
    user = fill(Client(), "alice")
    stale = User.objects.get(pk=user.pk)
    accounts.erase(user)
    with pytest.raises(PermissionDenied):
        accounts.erase(stale)
    assert not User.objects.filter(pk=user.pk).exists()


def test_rows_orphaned_before_the_deletion_fix_are_removed_by_the_migration() -> None:
    """Migration 0016: rows written under ``user:<id>`` of an account deleted before
    ``hold_owner`` existed go (tables and their jobs too); other accounts' rows and
    anonymous visitors' stay."""
    import importlib

    from django.apps import apps as registry

    from tutorial.models_jobs import ComputeJob

    remove = importlib.import_module("tutorial.migrations.0016_orphaned_account_rows").remove
    bob = fill(Client(), "bob")
    alice = fill(Client(), "alice")
    gone = accounts.user_key(alice.pk)
    [table_id] = PracticeTable.objects.filter(owner=gone).values_list("pk", flat=True)
    ComputeJob.objects.create(key=f"review:{table_id}:1")
    course("anonymous-session", "cards", stars=1, done=T0)
    User.objects.filter(pk=alice.pk).delete()  # as a write racing the deletion left them
    remove(registry, None)
    for model in (CourseProgress, QuizProgress, ReviewCard, QuizQuestion):
        assert not model.objects.filter(session_key=gone).exists(), model
        assert model.objects.filter(session_key=accounts.user_key(bob.pk)).exists(), model
    assert not PracticeTable.objects.filter(owner=gone).exists()
    assert PracticeTable.objects.filter(owner=accounts.user_key(bob.pk)).exists()
    assert not ComputeJob.objects.filter(key__contains=str(table_id)).exists()
    assert CourseProgress.objects.filter(session_key="anonymous-session").exists()


def test_account_pages_for_phones_and_english() -> None:
    make_user()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    log_in(client, "alice")
    page = client.get("/accounts/")
    assert page.status_code == 200
    assert "Download my data" in page.text and "Log out" in page.text


def test_writes_racing_the_deletion_of_their_account_leave_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A second device whose request loaded the account just before it was deleted on the
    first: its answer, lesson step or new table wrote rows under the deleted account's
    key after the deletion (they outlived it).  Now the write is refused, no 500."""
    from tests.test_course_views import right
    from tests.test_quiz_views import issue
    from tutorial import course as course_data
    from tutorial.views import course as course_views
    from tutorial.views import quiz as quiz_views
    from tutorial.views import table as table_views

    first = next(les for les in course_data.lessons() if les.exercises)

    def deleted_meanwhile(real: Any) -> Any:
        def replaced(request: Any) -> str:
            assert request.user.is_authenticated or not User.objects.exists()  # loaded
            for user in User.objects.all():  # deleted on the other device, at this moment
                accounts.erase(user)
            return str(real(request))
        return replaced

    for name, module, function, send in (
        ("quiz", quiz_views, "_session_key", lambda phone: phone.post("/quiz/bigger/", {
            "token": issue(phone, "bigger")[0], "choice": "a"})),
        ("course", course_views, "reader_key", lambda phone: phone.post(
            f"/course/{first.slug}/1/", {"seed": "11", **right(first.exercises[0], 11)})),
        ("table", table_views, "reader_key", lambda phone: phone.post(
            "/table/", {"bots": "2", "level": "simple"})),
    ):
        make_user()
        phone = Client(raise_request_exception=False)
        log_in(phone, "alice")
        key = accounts.user_key(User.objects.get().pk)
        with monkeypatch.context() as patch:
            patch.setattr(module, function, deleted_meanwhile(getattr(module, function)))
            response = send(phone)
        # the site's pages, not Django's bare English ones: 403 when the write is refused,
        # 400 when the deleted session could not be saved after it
        assert response.status_code in (400, 403), (name, response.status_code)
        assert ("这一步没有记下" if response.status_code == 403 else "这个请求没能办完"
                ) in response.text, name
        assert not User.objects.exists(), name
        for model in (CourseProgress, QuizProgress, ReviewCard, QuizQuestion):
            assert not model.objects.filter(session_key=key).exists(), (name, model)
        assert not PracticeTable.objects.filter(owner=key).exists(), name


def test_bad_request_and_forbidden_pages_are_the_sites_in_both_languages(settings: Any) -> None:
    """A form over DATA_UPLOAD_MAX_MEMORY_SIZE, or a session ended during the request, is a
    400; a write for a deleted account a 403: each was Django's bare English page."""
    from tests.english import game_terms, untranslated

    big = {"username": "alice", "password": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)}
    for language, title in (("zh-hans", "这个请求没能办完"),
                            ("en", "This request could not be completed")):
        client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
        response = client.post("/accounts/login/", big)
        assert response.status_code == 400 and title in response.text, language
        assert 'class="site-main"' in response.text
        if language == "en":
            assert untranslated(response.text, game_terms()) == []
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("en"):
        denied = render_to_string("403.html")
    assert "This was not recorded" in denied and untranslated(denied, game_terms()) == []
    with pytest.raises(PermissionDenied):
        accounts.hold_owner("user:999")
    accounts.hold_owner("some-session-key")  # a visitor's key: nothing to hold


def test_the_logout_address_opened_with_get_shows_the_button() -> None:
    """GET /accounts/logout/ (a bookmark, a typed address) was an empty 405 page; it is
    a page with the button now, and only the POST logs out."""
    from tests.english import game_terms, untranslated

    make_user()
    for language, words in (("zh-hans", "退出以后"), ("en", "Once you log out")):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        log_in(client, "alice")
        page = client.get("/accounts/logout/")
        assert page.status_code == 200 and words in page.text, language
        assert 'action="/accounts/logout/"' in page.text
        assert client.get("/accounts/").status_code == 200  # still logged in
        assert client.post("/accounts/logout/").status_code == 302
        assert client.get("/accounts/").status_code == 302
        anonymous = client.get("/accounts/logout/")
        assert anonymous.status_code == 200 and 'href="/accounts/login/"' in anonymous.text
        if language == "en":
            assert untranslated(page.text, game_terms()) == []
            assert untranslated(anonymous.text, game_terms()) == []
    assert Client().put("/accounts/logout/").status_code == 405


# --------------------------------------------------------------------------- the coach switch


def coach_says(client: Client) -> str:
    """"off" or "on", as the coach's page tells this device."""
    html = client.get("/coach/").content.decode()
    off, on = "现在关着" in html, "现在开着" in html
    assert off != on, html[:2000]
    return "off" if off else "on"


def switch(client: Client, choice: str) -> None:
    response = client.post("/coach/switch", {"coach": choice, "next": "/coach/"})
    assert response.status_code == 303


def reviews_asked() -> int:
    return ComputeJob.objects.filter(key__startswith="review:").count()


def test_the_coach_switch_follows_the_account_to_every_device(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Turned off on the phone, the coach is off on the laptop too: the table's result
    offers to turn it on, fetches no verdict, and a hand finished there asks no review."""
    from tests.coach_hands import _move, drive, play_hands

    make_user()
    laptop, phone = Client(), Client()
    log_in(laptop, "alice"), log_in(phone, "alice")
    tid = play_hands(laptop, monkeypatch, 11, 1).id
    url = f"/table/{tid}/"
    html = phone.get(url).content.decode()
    assert "关掉教练" in html and f"/coach/{tid}/1/summary" in html
    switch(phone, "off")
    for device in (laptop, phone):
        html = device.get(url).content.decode()
        assert "打开教练" in html and f"/coach/{tid}/1/summary" not in html
        assert coach_says(device) == "off"
    asked = reviews_asked()
    for _ in drive(laptop, url, partial(_move, rng=random.Random(5)), 160,
                   lambda _g, t: t.hands.count() >= 2):
        pass
    assert PracticeHand.objects.filter(table_id=tid).count() == 2
    assert reviews_asked() == asked  # the laptop's hand 2: no review asked
    switch(laptop, "on")
    assert coach_says(phone) == coach_says(laptop) == "on"
    assert f"/coach/{tid}/2/summary" in phone.get(url).content.decode()
    # a visitor without an account on a third device switches only that device
    visitor = Client()
    switch(visitor, "off")
    assert coach_says(visitor) == "off" and coach_says(phone) == "on"
    assert AccountPreference.objects.get().coach_off is False
    # the coach's page says where the choice is kept, in both languages
    assert "这个选择存在你的账号里" in phone.get("/coach/").content.decode()
    assert "这个选择只管这台设备" in visitor.get("/coach/").content.decode()
    phone.cookies["django_language"] = visitor.cookies["django_language"] = "en"
    assert "This choice is kept in your account" in phone.get("/coach/").content.decode()
    assert "this choice is for this device only" in visitor.get("/coach/").content.decode()


def test_without_an_account_the_coach_switch_is_per_device() -> None:
    first, second = Client(), Client()
    switch(first, "off")
    assert coach_says(first) == "off" and coach_says(second) == "on"
    assert not AccountPreference.objects.exists()
    switch(second, "off")
    switch(first, "on")
    assert coach_says(first) == "on" and coach_says(second) == "off"


def device_switched(off: bool, at: datetime | None) -> Client:
    """A visitor's device whose coach switch was set at ``at`` (None: a session from
    before the time was kept)."""
    client = Client()
    session = client.session
    session[accounts.COACH_OFF] = off
    if at is not None:
        session[accounts.COACH_SWITCHED] = at.timestamp()
    session.save()
    client.cookies["sessionid"] = str(session.session_key)
    return client


def test_at_login_the_coach_switch_made_last_wins() -> None:
    user = make_user()
    # the account never switched: the device's choice becomes the account's
    phone = Client()
    switch(phone, "off")
    log_in(phone, "alice")
    assert coach_says(phone) == coach_says(log_in_client("alice")) == "off"
    assert accounts.COACH_OFF not in phone.session  # the account holds it now
    # the account switched after the device did: the account's stays
    AccountPreference.objects.filter(user=user).update(
        coach_off=False, coach_switched=T0 + timedelta(hours=1))
    tablet = device_switched(True, T0)
    log_in(tablet, "alice")
    assert coach_says(tablet) == "on"
    # the device switched after the account: the device's wins
    laptop = device_switched(True, T0 + timedelta(hours=2))
    log_in(laptop, "alice")
    assert coach_says(laptop) == coach_says(tablet) == "off"
    # a device that never switched, and a session from before the time was kept, bring
    # nothing to an account that switched
    for device in (Client(), device_switched(False, None)):
        log_in(device, "alice")
        assert coach_says(device) == "off"
    pref = AccountPreference.objects.get(user=user)
    assert (pref.coach_off, pref.coach_switched) == (True, T0 + timedelta(hours=2))
    # signing up brings the device's choice into the new account
    newcomer = device_switched(True, T0)
    signup(newcomer, "bob")
    assert coach_says(newcomer) == "off"
    assert AccountPreference.objects.get(user__username="bob").coach_off


def log_in_client(name: str) -> Client:
    client = Client()
    assert log_in(client, name).status_code == 302
    return client


def test_logging_out_leaves_the_device_with_the_default_and_the_account_its_choice() -> None:
    make_user()
    phone = log_in_client("alice")
    switch(phone, "off")
    phone.post("/accounts/logout/")
    assert coach_says(phone) == "on"  # a visitor again: this device's own switch
    switch(phone, "on")
    log_in(phone, "alice")  # a device switch made after the account's: it wins
    assert coach_says(phone) == "on"
    switch(phone, "off")
    phone.post("/accounts/logout/")
    log_in(phone, "alice")
    assert coach_says(phone) == "off"


# --------------------------------------------------------------------- a password change sent twice

NEW = "another-pass-3141"
SENT_TWICE = "改密码的表单提交了两次"  # it said 这张表 (a table?); the site says 表单


def change(client: Client, old: str = PASSWORD, new: str = NEW) -> Any:
    return client.post("/accounts/password/", {
        "old_password": old, "new_password1": new, "new_password2": new})


def test_a_password_change_sent_twice_keeps_the_device_logged_in() -> None:
    """A double click: the second POST carries the session the first one replaced (its
    key is gone) and the old password, which no longer matches.  It changes nothing, logs
    the device in again and says the form was sent twice; the password is the new one."""
    user = make_user()
    laptop, phone = log_in_client("alice"), log_in_client("alice")
    sent_with = laptop.cookies["sessionid"].value
    assert change(laptop).status_code == 302
    first = laptop.cookies["sessionid"].value
    assert first != sent_with
    laptop.cookies["sessionid"] = sent_with  # the browser dropped the first answer
    response = change(laptop, new=NEW)
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    page = laptop.get("/accounts/")
    assert page.status_code == 200 and "alice" in page.content.decode()
    assert SENT_TWICE in page.content.decode()
    user.refresh_from_db()
    assert user.check_password(NEW) and not user.check_password(PASSWORD)
    assert phone.get("/accounts/").status_code == 302  # the other device is still logged out
    # the same form sent again once the answer came back (the new session): a message too
    response = change(laptop, new=NEW)
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert SENT_TWICE in laptop.get("/accounts/").content.decode()
    laptop.cookies["sessionid"] = first  # the first answer's session still works
    assert laptop.get("/accounts/").status_code == 200
    # the old key with a password that is not the new one: logged out as before
    stranger = Client()
    stranger.cookies["sessionid"] = sent_with
    response = change(stranger, new="a-third-pass-2718")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    user.refresh_from_db()
    assert user.check_password(NEW)
    # and in English
    laptop.cookies["django_language"] = "en"
    change(laptop)
    assert "The form was sent twice" in laptop.get("/accounts/").content.decode()


@pytest.mark.parametrize("other", [NEW, "a-third-pass-2718"])
def test_a_password_change_racing_another_one(monkeypatch: pytest.MonkeyPatch,
                                              other: str) -> None:
    """Both POSTs passed the old password before either wrote: the second, holding the
    account, finds the password changed under it.  To the same new password (the same form
    sent twice at once): nothing more is changed and the device gets a session of its own
    again (the first change ended this one).  To another (another device): logged out,
    told why."""
    user = make_user()
    laptop = log_in_client("alice")
    sent_with = laptop.cookies["sessionid"].value
    owned = accounts.owned

    def first_change_lands(key: str) -> Any:
        monkeypatch.setattr(accounts, "owned", owned)
        fresh = User.objects.get(pk=user.pk)
        fresh.set_password(other)
        fresh.save()
        accounts.end_sessions(fresh)  # as the first change did
        return owned(key)

    monkeypatch.setattr(accounts, "owned", first_change_lands)
    response = change(laptop)
    user.refresh_from_db()
    assert user.check_password(other)
    page = laptop.get("/accounts/")
    if other == NEW:
        assert response["Location"] == "/accounts/"
        assert laptop.cookies["sessionid"].value != sent_with
        assert page.status_code == 200 and SENT_TWICE in page.content.decode()
        assert LoginSession.objects.filter(user=user).count() == 1
    else:
        assert response["Location"] == "/accounts/login/" and page.status_code == 302
        assert "在另一台设备上改过了" in laptop.get("/accounts/login/").content.decode()
