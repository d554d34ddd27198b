"""Models of the tutorial app (none yet)."""
from tutorial.models_course import CourseProgress  # noqa: F401  (course)
from tutorial.models_night import Night, NightEvent  # noqa: F401  (companion: game nights)
from tutorial.models_quiz import QuizProgress, QuizQuestion, ReviewCard  # noqa: F401  (quiz)
from tutorial.models_table import PracticeTable  # noqa: F401  (practice table)
