"""Models of the tutorial app (none yet)."""
from tutorial.models_quiz import QuizProgress, QuizQuestion, ReviewCard  # noqa: F401  (quiz)
