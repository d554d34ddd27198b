"""Accounts (issue 22): what an account keeps beside Django's ``auth.User``.

A learner's progress rows (course, quiz, review cards, practice tables) are keyed by an
*owner key* (:func:`tutorial.accounts.owner_key`): the session key for an anonymous
visitor, ``user:<id>`` for a learner logged in.  The rows below belong to the user
itself and go with it (``on_delete=CASCADE``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tutorial.models_night import Night


class RecoveryCode(models.Model):
    """One single-use code that resets the password: only its SHA-256 is kept (the code
    has 80 random bits, so a slow hash adds nothing)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="recovery_codes")
    digest = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tutorial"
        constraints = (models.UniqueConstraint(fields=("user", "digest"),
                                               name="recovery_code_unique"),)

    def __str__(self) -> str:
        return f"recovery code {self.pk} of user {self.user_id}"


class LoginSession(models.Model):
    """A session logged in to the account: changing the password or deleting the account
    ends them all (the other devices are logged out at once)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="login_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tutorial"

    def __str__(self) -> str:
        return f"session of user {self.user_id}"


class AccountNight(models.Model):
    """A game night the learner organises (its edit token used to live in the session)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="nights")
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="organisers")
    added = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tutorial"
        constraints = (models.UniqueConstraint(fields=("user", "night"),
                                               name="account_night_unique"),)

    def __str__(self) -> str:
        return f"night {self.night_id} of user {self.user_id}"


class AccountPreference(models.Model):
    """The learner's choices that follow the account to every device (a visitor without
    an account keeps them in the session, per device): the coach at the practice table,
    on or off.  ``coach_switched`` is when it was last switched, for the merge at login
    (:func:`tutorial.accounts.merge_coach`: the choice made last wins)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="preference")
    coach_off = models.BooleanField(default=False)
    coach_switched = models.DateTimeField(null=True)

    class Meta:
        app_label = "tutorial"

    def __str__(self) -> str:
        return f"preferences of user {self.user_id}"


class ReplacedSession(models.Model):
    """A session a password change replaced (Django gives the device a new key), kept a
    few minutes: the same form sent again from that device (a double click: the second
    POST still carries the old key) finds the account it belonged to and, when it holds
    the new password, logs the device in again instead of out
    (:func:`tutorial.views.accounts.PasswordChange`)."""

    session_key = models.CharField(max_length=40, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="replaced_sessions")
    replaced = models.DateTimeField()

    class Meta:
        app_label = "tutorial"

    def __str__(self) -> str:
        return f"replaced session of user {self.user_id}"
