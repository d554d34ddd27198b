"""Accounts (issue 22): whose progress a request reads and writes, and what happens to
it when a visitor signs up, logs in, downloads their data or deletes their account.

**Owner keys.**  Every progress row (course, quiz counts and answers, review cards,
practice tables with their hands and coach reviews) is keyed by one string, the *owner
key*: the session key for an anonymous visitor, ``user:<id>`` for a learner logged in.
A session key never holds a colon, so the two never meet; a forged session cookie is
dropped when the session loads (evaluating ``request.user`` loads it), so it owns
nothing.  Two browsers logged in to one account share the key, so they see the same
rows, and the views' locks and conditional updates count racing answers once.

**Merge at sign-up and login** (:func:`merge`; README "Accounts" lists the same rules):

- course lesson: the best stars, the first completion, the run (the attempt under
  way) of the side answered last;
- quiz counts per kind: answers and right answers add up (they are different answers),
  the best streak is the larger, the current streak is the side answered last's;
- review card per item: the schedule of the side reviewed last (a card never reviewed
  counts as oldest), reviews and lapses add up;
- answered questions, practice tables (with their hands and coach reviews): all kept;
- game nights organised: the union;
- the coach switch: the choice made last (the device's, if it switched after the account
  did; a device that never switched brings nothing).

Nothing is dropped: an item only one side has moves as it is.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from importlib import import_module
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, models, transaction
from django.http import HttpRequest
from django.utils import timezone

from tutorial.models_accounts import (
    AccountNight,
    AccountPreference,
    LoginSession,
    RecoveryCode,
    ReplacedSession,
)
from tutorial.models_coach import HandReview, RetryPrice
from tutorial.models_course import CourseProgress
from tutorial.models_jobs import ComputeJob
from tutorial.models_limits import RateCount
from tutorial.models_night import Night
from tutorial.models_quiz import QuizProgress, QuizQuestion, ReviewCard
from tutorial.models_table import PracticeHand, PracticeTable

USER_PREFIX = "user:"
NIGHTS_KEY = "companion_nights"  # an anonymous visitor's organised nights (tokens)
COACH_OFF = "coach_off"  # an anonymous visitor's coach switch (True: off)
COACH_SWITCHED = "coach_switched"  # when the visitor switched it (POSIX seconds)
RECOVERY_CODES = 10
ACCOUNT_SCOPE = "login-account"  # the per-username rate limit (settings.RATE_LIMITS)
REPLACED_FOR = timedelta(minutes=10)  # how long a password change's old session key is kept

Row = TypeVar("Row", bound=models.Model)


# --------------------------------------------------------------------------- owner keys


def user_key(user_id: object) -> str:
    return f"{USER_PREFIX}{user_id}"


def _account(request: HttpRequest) -> Any:
    """The learner logged in on this request, or None (an anonymous visitor, or a request
    without a user).  Asking also loads the session: a forged key becomes None here."""
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def reader_key(request: HttpRequest) -> str:
    """The owner key to read with; "" for a visitor with nothing (a read never creates a
    session)."""
    user = _account(request)
    if user is not None:
        return user_key(user.pk)
    return request.session.session_key or ""


def writer_key(request: HttpRequest) -> str:
    """The owner key to write with: the user's, or the session's (created if needed)."""
    key = reader_key(request)
    if not key:
        request.session.save()
        key = request.session.session_key or ""
    assert key
    return key


def hold_owner(key: str) -> None:
    """Inside a transaction that writes rows under ``key``: for a learner's key, lock the
    account's row (:func:`erase` holds it the same way), so a write and the deletion of the
    account run one after the other.  PermissionDenied when the account was deleted after
    the request began (an answer sent from a second device at that moment): its rows
    would have outlived the account, under a key nobody holds."""
    if key.startswith(USER_PREFIX):
        pk = key.removeprefix(USER_PREFIX)
        if not list(User.objects.select_for_update().filter(pk=pk).values_list("pk")):
            raise PermissionDenied("the account was deleted")


@contextmanager
def owned(key: str) -> Iterator[None]:
    """A transaction for writes under ``key`` that holds its account first
    (:func:`hold_owner`)."""
    with transaction.atomic():
        hold_owner(key)
        yield


def night_tokens(request: HttpRequest) -> list[str]:
    """The edit tokens of the nights this visitor organises, newest first."""
    user = _account(request)
    if user is not None:
        return list(Night.objects.filter(organisers__user=user).order_by("-created")
                    .values_list("token", flat=True))
    return list(request.session.get(NIGHTS_KEY, []))


def remember_night(request: HttpRequest, night: Night) -> None:
    user = _account(request)
    if user is not None:
        AccountNight.objects.get_or_create(user=user, night=night)
    else:
        request.session[NIGHTS_KEY] = [night.token, *request.session.get(NIGHTS_KEY, [])][:20]


# --------------------------------------------------------------------------- the coach switch


def coach_off(request: HttpRequest) -> bool:
    """The learner turned the coach off: the account's choice when logged in (the same on
    every device), else this device's (the session's)."""
    user = _account(request)
    if user is not None:
        return bool(AccountPreference.objects.filter(user=user)
                    .values_list("coach_off", flat=True).first())
    return bool(request.session.get(COACH_OFF, False))


def switch_coach(request: HttpRequest, off: bool) -> None:
    """Turn the coach off (or on) for the account, or for this device without one."""
    user = _account(request)
    now = timezone.now()
    if user is not None:
        with owned(user_key(user.pk)):  # not for an account deleted meanwhile
            AccountPreference.objects.update_or_create(
                user=user, defaults={"coach_off": off, "coach_switched": now})
    else:
        request.session[COACH_OFF] = off
        request.session[COACH_SWITCHED] = now.timestamp()


def device_coach(request: HttpRequest) -> tuple[bool, datetime | None] | None:
    """An anonymous visitor's coach switch and when it was switched (None: a session from
    before the time was kept); None when this device never switched it."""
    if COACH_OFF not in request.session:
        return None
    at = request.session.get(COACH_SWITCHED)
    when = datetime.fromtimestamp(at, tz=UTC) if isinstance(at, int | float) else None
    return bool(request.session[COACH_OFF]), when


def merge_coach(user: User, off: bool, at: datetime | None) -> None:
    """A device's coach switch brought to ``user``'s account at login: it wins when the
    account never switched or switched before the device did (the choice made last)."""
    mine = AccountPreference.objects.filter(user=user).first()
    if mine is None:
        AccountPreference.objects.create(user=user, coach_off=off, coach_switched=at)
    elif _later(mine.coach_switched, at):
        mine.coach_off, mine.coach_switched = off, at
        mine.save()


# --------------------------------------------------------------------------- merge


def _move_or_combine(model: type[Row], match: str, source: str, target: str,
                     combine: Callable[[Row, Row], None]) -> None:
    """Move each of ``source``'s rows to ``target``; where ``target`` has a row for the
    same ``match`` value, ``combine(target_row, source_row)`` and drop the source row.

    The rows are taken in the order of ``match``, the same for every merge and answer
    (:func:`tutorial.models_quiz.rate_items`), so two devices merging into one account at
    once wait for each other instead of each holding a row the other needs (on
    PostgreSQL that deadlock failed one login)."""
    manager: Any = model._default_manager
    for row in manager.select_for_update().filter(session_key=source).order_by(match, "pk"):
        lookup = {"session_key": target, match: getattr(row, match)}
        while True:
            mine = manager.select_for_update().filter(**lookup).first()
            if mine is None:
                try:
                    with transaction.atomic():
                        manager.filter(pk=row.pk).update(session_key=target)
                    break
                except IntegrityError:  # the other device created it just now
                    continue
            combine(mine, row)
            mine.save()
            row.delete()
            break


def _later(a: datetime | None, b: datetime | None) -> bool:
    """``b`` is later than ``a`` (None is earliest)."""
    return b is not None and (a is None or b > a)


def combine_course(mine: CourseProgress, other: CourseProgress) -> None:
    if _later(mine.updated_at, other.updated_at):
        mine.run = other.run
        mine.updated_at = other.updated_at
    mine.stars = max(mine.stars, other.stars)
    done = [t for t in (mine.completed_at, other.completed_at) if t is not None]
    mine.completed_at = min(done) if done else None


def combine_quiz(mine: QuizProgress, other: QuizProgress) -> None:
    mine.answered += other.answered
    mine.correct += other.correct
    mine.best_streak = max(mine.best_streak, other.best_streak)
    if _later(mine.updated_at, other.updated_at):
        mine.streak = other.streak
        mine.updated_at = other.updated_at


SCHEDULE = ("state", "step", "stability", "difficulty", "due", "last_review", "last_rating")


def combine_card(mine: ReviewCard, other: ReviewCard) -> None:
    if _later(mine.last_review, other.last_review):
        for name in SCHEDULE:
            setattr(mine, name, getattr(other, name))
    mine.reviews += other.reviews
    mine.lapses += other.lapses


def merge(source: str, target: str, nights: Iterable[str] = (),
          user: User | None = None) -> None:
    """Move everything owner ``source`` holds to owner ``target`` by the rules above;
    ``nights`` (edit tokens) join ``user``'s organised nights."""
    with transaction.atomic():
        if source and source != target:
            _move_or_combine(CourseProgress, "lesson", source, target, combine_course)
            _move_or_combine(QuizProgress, "kind", source, target, combine_quiz)
            _move_or_combine(ReviewCard, "item", source, target, combine_card)
            QuizQuestion.objects.filter(session_key=source).update(session_key=target)
            PracticeTable.objects.filter(owner=source).update(owner=target)
        if user is not None:
            for night in Night.objects.filter(token__in=list(nights)):
                AccountNight.objects.get_or_create(user=user, night=night)


def log_in(request: HttpRequest, user: User) -> None:
    """Django's ``login`` (a new session key: no fixation), with the anonymous
    visitor's progress merged into the account and the session remembered, in one
    transaction: should the merge fail, the old session (the key the progress is under)
    is not deleted either, so nothing is left behind under a key no cookie holds."""
    source = "" if request.user.is_authenticated else reader_key(request)
    nights = [] if request.user.is_authenticated else night_tokens(request)
    coach = None if request.user.is_authenticated else device_coach(request)
    with owned(user_key(user.pk)):  # not deleted meanwhile: the merge would outlive it
        login(request, user)
        for name in (NIGHTS_KEY, COACH_OFF, COACH_SWITCHED):  # the account holds them now
            request.session.pop(name, None)
        merge(source, user_key(user.pk), nights, user)
        if coach is not None:
            merge_coach(user, *coach)
        remember_session(request, user)


def _store() -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore()


def remember_session(request: HttpRequest, user: User) -> None:
    """Record this session as logged in to ``user`` (and forget those that expired)."""
    if request.session.session_key is None:
        request.session.save()
    for row in LoginSession.objects.filter(user=user):
        if not _store().exists(row.session_key):
            row.delete()
    LoginSession.objects.get_or_create(session_key=request.session.session_key,
                                       defaults={"user": user})


def end_sessions(user: User, keep: str | None = None) -> int:
    """Delete every session logged in to ``user`` but ``keep``; the number ended."""
    ended = 0
    for row in LoginSession.objects.filter(user=user).exclude(session_key=keep or ""):
        _store().delete(row.session_key)
        row.delete()
        ended += 1
    return ended


def note_replaced(old_key: str | None, user: User) -> None:
    """A password change of ``user`` replaced session ``old_key`` (notes older than
    ``REPLACED_FOR`` go)."""
    now = timezone.now()
    ReplacedSession.objects.filter(replaced__lt=now - REPLACED_FOR).delete()
    if old_key:
        ReplacedSession.objects.update_or_create(session_key=old_key,
                                                 defaults={"user": user, "replaced": now})


def replaced_by(key: str) -> User | None:
    """The account whose password change replaced session ``key`` in the last
    ``REPLACED_FOR``; None for any other key."""
    row = (ReplacedSession.objects.select_related("user")
           .filter(session_key=key, replaced__gte=timezone.now() - REPLACED_FOR).first())
    return row.user if row is not None else None


# --------------------------------------------------------------------------- recovery codes


def _digest(code: str) -> str:
    return hashlib.sha256(code.strip().lower().replace("-", "").encode()).hexdigest()


def new_recovery_codes(user: User) -> list[str]:
    """Replace ``user``'s recovery codes with fresh ones; only their digests are stored,
    the codes are returned to be shown once.  16 base-32 letters: 80 random bits."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"  # 32: no l, o, 0 or 1
    codes = ["-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(4))
             for _ in range(RECOVERY_CODES)]
    with transaction.atomic():
        user.recovery_codes.all().delete()
        RecoveryCode.objects.bulk_create(RecoveryCode(user=user, digest=_digest(c))
                                         for c in codes)
    return codes


def recovery_code(username: str, code: str) -> RecoveryCode | None:
    """``username``'s unused recovery ``code``; None for a wrong code and for a username
    that does not exist alike (one query either way)."""
    return (RecoveryCode.objects.select_related("user")
            .filter(user__username=username, digest=_digest(code)).first())


def spend(code: RecoveryCode) -> bool:
    """Use ``code`` up; False when a parallel request used it first."""
    deleted, _ = RecoveryCode.objects.filter(pk=code.pk).delete()
    return deleted == 1


def account_tag(username: str) -> str:
    """The per-account rate-limit client for a typed username (hashed, so the counters
    keep no usernames; the same for a username that does not exist).  NFKC first, as
    Django's login form does: "ａｌｉｃｅ" logs in as "alice", so it counts as "alice"."""
    name = unicodedata.normalize("NFKC", username).strip().casefold()
    return hashlib.sha256(name.encode()).hexdigest()[:40]


# --------------------------------------------------------------------------- export and erase


def _rows(queryset: models.QuerySet[Any], *exclude: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k not in exclude} for row in queryset.values()]


def export(user: User) -> dict[str, Any]:
    """Everything stored about ``user``, as JSON-ready data (dates stay datetimes)."""
    key = user_key(user.pk)
    tables = []
    for table in PracticeTable.objects.filter(owner=key).order_by("created"):
        tables.append({
            **_rows(PracticeTable.objects.filter(pk=table.pk))[0],
            "hands": _rows(PracticeHand.objects.filter(table=table), "id", "table_id"),
            "reviews": _rows(HandReview.objects.filter(table=table), "id", "table_id"),
            "retry_prices": _rows(RetryPrice.objects.filter(table=table), "id", "table_id"),
        })
    nights = []
    for night in Night.objects.filter(organisers__user=user).order_by("created"):
        nights.append({**_rows(Night.objects.filter(pk=night.pk))[0],
                       "events": _rows(night.events.all(), "id", "night_id")})
    return {
        "account": {"username": user.username, "date_joined": user.date_joined,
                    "last_login": user.last_login,
                    "password": "Argon2 hash (not exported)",
                    "recovery_codes": _rows(user.recovery_codes.all(), "user_id", "digest"),
                    "logged_in_sessions": user.login_sessions.count()},
        "course": _rows(CourseProgress.objects.filter(session_key=key), "id", "session_key"),
        "quiz_progress": _rows(QuizProgress.objects.filter(session_key=key), "id",
                               "session_key"),
        "review_cards": _rows(ReviewCard.objects.filter(session_key=key), "id", "session_key"),
        "quiz_answers": _rows(QuizQuestion.objects.filter(session_key=key).order_by("pk"),
                              "id", "session_key"),
        "practice_tables": tables,
        "nights": nights,
        "preferences": _rows(AccountPreference.objects.filter(user=user), "user_id"),
    }


def erase(user: User) -> None:
    """Delete ``user`` and everything they own: progress rows, tables (their hands,
    reviews and re-priced decisions go with them, and the jobs queued for them), the
    nights they organise, their sessions, their rate-limit counters and the account."""
    key = user_key(user.pk)
    with owned(key):  # PermissionDenied when another request deleted it first
        for model in (CourseProgress, QuizProgress, ReviewCard, QuizQuestion):
            model.objects.filter(session_key=key).delete()
        tables = PracticeTable.objects.filter(owner=key)
        for table_id in tables.values_list("pk", flat=True):
            ComputeJob.objects.filter(key__contains=f":{table_id}:").delete()
        tables.delete()
        Night.objects.filter(organisers__user=user).delete()
        end_sessions(user)
        RateCount.objects.filter(key=f"{ACCOUNT_SCOPE}:{account_tag(user.username)}").delete()
        user.delete()
