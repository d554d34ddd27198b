"""Quiz models: issued questions, progress per quiz kind, and spaced-repetition cards.

Everything is keyed by the visitor's owner key (the session key, or ``user:<id>`` when
logged in; tutorial/accounts.py).

Spaced-repetition policy (py-fsrs, see :func:`rate_items`):

- Every group a visitor meets in 哪个大 / 排顺序 becomes a ``rank:<group>`` card, every
  group in 叫什么 / 是哪组 a ``name:<group>`` card.  A card is created the first time
  and the first answer is its first review.
- Rating: a wrong answer is **Again**; a right one is **Good**, or **Easy** when it
  came within the quiz kind's ``fast`` seconds of the question being issued.
- A card is rescheduled when it is reviewed from ``/quiz/review/``, when it is due,
  or when the answer is wrong.  A right answer to a card that is not due yet
  (met again while drilling) leaves its schedule alone: drilling does not inflate
  intervals, but a slip always brings the card back soon.
- The scheduler runs without fuzzing, so a schedule is reproducible; ``now`` is
  always passed in (tests fix the clock).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import ClassVar

import fsrs
from django.db import models
from django.db.models import Count, Min, Q
from django.utils import timezone
from django.utils.translation import pgettext

from engine.cards import CardError
from engine.groups import Group
from tutorial.glossary import card_words
from tutorial.language import english
from tutorial.models_visitor import VisitorRow

SCHEDULER = fsrs.Scheduler(enable_fuzzing=False)


class QuizQuestion(models.Model):
    """A question as issued to one session: the server's record of (kind, seed, level)."""

    session_key = models.CharField(max_length=40, db_index=True)
    kind = models.CharField(max_length=20)
    seed = models.PositiveIntegerField()
    level = models.PositiveSmallIntegerField()
    focus = models.CharField(max_length=40, blank=True, default="")  # review item, if any
    from_review = models.BooleanField(default=False)  # issued by /quiz/review/
    issued_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    correct = models.BooleanField(null=True, blank=True)

    class Meta:
        app_label = "tutorial"
        indexes: ClassVar = [models.Index(fields=["session_key", "answered_at"])]

    def __str__(self) -> str:
        return f"{self.kind} seed={self.seed} level={self.level} #{self.pk}"


class QuizProgress(VisitorRow):
    """Answered / correct / streak for one session and one quiz kind."""

    kind = models.CharField(max_length=20)
    answered = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta(VisitorRow.Meta):
        constraints = VisitorRow.one_per_visitor("kind", "quiz_progress_unique")

    def __str__(self) -> str:
        return f"{self.kind}: {self.correct}/{self.answered}"

    @property
    def accuracy(self) -> int:
        """Percent correct, rounded."""
        return round(100 * self.correct / self.answered) if self.answered else 0


class ReviewCard(VisitorRow):
    """One FSRS card (a group's name or rank) of one session; the fields of ``fsrs.Card``."""

    item = models.CharField(max_length=40)  # "rank:RQ-B9", "name:RQ-B9"
    state = models.PositiveSmallIntegerField(default=int(fsrs.State.Learning))
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField(db_index=True)
    last_review = models.DateTimeField(null=True, blank=True)
    reviews = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)  # Again ratings
    last_rating = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta(VisitorRow.Meta):
        constraints = VisitorRow.one_per_visitor("item", "quiz_review_unique")

    def __str__(self) -> str:
        return f"{self.item} due {self.due:%Y-%m-%d %H:%M}"

    @property
    def kind(self) -> str:
        return self.item.partition(":")[0]

    @property
    def group_code(self) -> str:
        return self.item.partition(":")[2]

    @property
    def group_name(self) -> str:
        """The group's traditional name (or its points), e.g. 天九王; for a squeeze card the
        way and the card, e.g. 串头子·地牌."""
        if self.kind == "squeeze":
            from engine.quiz import QuizError, squeeze_item

            try:
                (way, _depth), kind = squeeze_item(self.item)
            except QuizError:
                return self.item
            if not english():
                return f"{way.label}·{kind.name_zh}"
            return f"{pgettext('squeeze-gloss', way.label)}: {kind.name_zh} ({card_words(kind)})"
        try:
            return Group.parse(self.group_code).display_name()
        except CardError:
            return self.group_code

    def to_fsrs(self) -> fsrs.Card:
        return fsrs.Card(
            card_id=self.pk or 1,
            state=fsrs.State(self.state),
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=_utc(self.due),
            last_review=_utc(self.last_review) if self.last_review else None,
        )

    def load_fsrs(self, card: fsrs.Card) -> None:
        self.state = int(card.state)
        self.step = card.step
        self.stability = card.stability
        self.difficulty = card.difficulty
        self.due = card.due
        self.last_review = card.last_review


def _utc(moment: datetime) -> datetime:
    # py-fsrs insists on datetime.timezone.utc itself (not another UTC tzinfo object).
    return moment.astimezone(UTC)


def rating_for(correct: bool, elapsed: timedelta, fast: timedelta) -> fsrs.Rating:
    """Again when wrong; Easy when right within ``fast``; Good otherwise."""
    if not correct:
        return fsrs.Rating.Again
    return fsrs.Rating.Easy if elapsed <= fast else fsrs.Rating.Good


def rate_items(
    session_key: str,
    items: tuple[tuple[str, bool], ...],
    *,
    now: datetime,
    elapsed: timedelta,
    fast: timedelta,
    from_review: bool,
) -> list[ReviewCard]:
    """Create or reschedule the review cards of one answer (see the module docstring).
    Returns the cards that were rated, in the answer's order.

    Inside the caller's transaction each card is locked before it is read, and the cards
    are taken in the order of their items: two answers of different kinds sent at once
    (哪个大 on one device, 排顺序 on another, each locking only its own kind's progress
    row) that share a card rate it one after the other, and never wait for each other
    in a circle (PostgreSQL; SQLite runs one writing transaction at a time)."""
    rated: dict[int, ReviewCard] = {}
    for index, (item, ok) in sorted(enumerate(items), key=lambda pair: pair[1][0]):
        card, created = ReviewCard.objects.select_for_update().get_or_create(
            session_key=session_key, item=item, defaults={"due": now}
        )
        if not (created or from_review or not ok or card.due <= now):
            continue
        rating = rating_for(ok, elapsed, fast)
        new_card, _log = SCHEDULER.review_card(card.to_fsrs(), rating, review_datetime=_utc(now))
        card.load_fsrs(new_card)
        card.reviews += 1
        card.lapses += rating == fsrs.Rating.Again
        card.last_rating = int(rating)
        card.save()
        rated[index] = card
    return [rated[index] for index in sorted(rated)]


def record_progress(session_key: str, kind: str, correct: bool, now: datetime) -> QuizProgress:
    progress, _ = QuizProgress.objects.get_or_create(session_key=session_key, kind=kind)
    progress.answered += 1
    progress.correct += correct
    progress.streak = progress.streak + 1 if correct else 0
    progress.best_streak = max(progress.best_streak, progress.streak)
    progress.updated_at = now
    progress.save()
    return progress


@dataclass(frozen=True)
class DueCounts:
    now: int  # due now (or overdue)
    later_today: int  # due later today (local time)
    tomorrow: int  # due during tomorrow (local time)
    total: int  # all cards of this visitor
    next_due: datetime | None  # the earliest due time still in the future


def due_counts(session_key: str, now: datetime) -> DueCounts:
    cards = ReviewCard.objects.filter(session_key=session_key)
    local = timezone.localtime(now)
    end_today = local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    end_tomorrow = end_today + timedelta(days=1)
    counts = cards.aggregate(
        now=Count("pk", filter=Q(due__lte=now)),
        later_today=Count("pk", filter=Q(due__gt=now, due__lt=end_today)),
        tomorrow=Count("pk", filter=Q(due__gte=end_today, due__lt=end_tomorrow)),
        total=Count("pk"),
        next_due=Min("due", filter=Q(due__gt=now)),
    )
    return DueCounts(**counts)


def due_cards(session_key: str, now: datetime) -> models.QuerySet[ReviewCard]:
    """This visitor's due cards, the most overdue first."""
    return ReviewCard.objects.filter(session_key=session_key, due__lte=now).order_by("due", "pk")
