"""Forms of the account pages that Django lacks; sign-up (``UserCreationForm``: a username
and a password twice, no e-mail), login, password change and the new password after a
recovery code (``SetPasswordForm``) are Django's own."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UsernameField
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class RecoveryForm(forms.Form):
    """The username and one recovery code; the new password is a SetPasswordForm."""

    username = UsernameField(label=_("用户名"), max_length=150,  # NFKC, as at login
                             widget=forms.TextInput(attrs={"autocomplete": "username"}))
    code = forms.CharField(label=_("恢复码"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "off",
                                                         "spellcheck": "false"}))


class PasswordCheckForm(forms.Form):
    """The current password, to confirm deleting the account or replacing the codes."""

    password = forms.CharField(
        label=_("密码"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("密码不对。"), code="password_incorrect")
        return password
