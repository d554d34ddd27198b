"""Models of the tutorial app (each feature has its own models_*.py)."""
from tutorial.models_accounts import AccountNight, LoginSession, RecoveryCode  # noqa: F401
from tutorial.models_coach import HandReview, RetryPrice  # noqa: F401  (the coach: reviews)
from tutorial.models_course import CourseProgress  # noqa: F401  (course)
from tutorial.models_health import HealthProbe  # noqa: F401  (/healthz writes its one row)
from tutorial.models_jobs import ComputeJob  # noqa: F401  (heavy work asked for)
from tutorial.models_limits import RateCount  # noqa: F401  (rate limits)
from tutorial.models_night import Night, NightEvent  # noqa: F401  (companion: game nights)
from tutorial.models_quiz import QuizProgress, QuizQuestion, ReviewCard  # noqa: F401  (quiz)
from tutorial.models_table import PracticeHand, PracticeTable  # noqa: F401  (practice table)
