from django.apps import AppConfig


class TutorialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tutorial"
    verbose_name = "扯旋学堂"
