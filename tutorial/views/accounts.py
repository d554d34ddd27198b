"""Account pages (issue 22): sign up, log in and out, recovery codes, password change, the
account page with the data download, and deleting the account.

Django's auth views and forms do the work (``registration/`` templates); what they add:
the anonymous progress is merged at sign-up and login (:func:`tutorial.accounts.log_in`),
login and recovery attempts are limited per client and per typed username with one
message whether or not the username exists, and a password change or reset ends the
account's other sessions.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import path, reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tutorial import accounts
from tutorial.accounts_forms import PasswordCheckForm, RecoveryForm
from tutorial.models_accounts import LoginSession
from tutorial.pagecache import same_for_newcomers
from tutorial.ratelimit import client_address, hit


def attempt_wait(request: HttpRequest, username: str) -> int | None:
    """Count one login-like attempt for this client and this typed username; the
    seconds to wait when either is over its limit."""
    now = time.time()
    waits = [hit("login", client_address(request), now),
             hit(accounts.ACCOUNT_SCOPE, accounts.account_tag(username), now)]
    return max((w for w in waits if w is not None), default=None)


def _limited(request: HttpRequest, template: str, context: dict[str, Any],
             wait: int) -> HttpResponse:
    minutes = max(1, round(wait / 60))
    context["limit_error"] = _("尝试的次数太多了。为了保护账号，请 %(minutes)d 分钟后再试。") % {
        "minutes": minutes}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


def next_url(request: HttpRequest, default: str) -> str:
    """``?next=`` (or the form's ``next``) when it stays on this site, else ``default``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return default


def _codes_page(request: HttpRequest, codes: list[str], after: str) -> HttpResponse:
    """The codes, shown this once (the views are ``never_cache``: no-store)."""
    return render(request, "registration/codes.html", {"codes": codes, "after": after})


# --------------------------------------------------------------------------- in and out


class Login(auth_views.LoginView):
    """Django's login, limited, and merging the visitor's anonymous progress."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = attempt_wait(request, request.POST.get("username", ""))
        if wait is not None:
            form = AuthenticationForm(request, initial={
                "username": request.POST.get("username", "")[:150]})
            return _limited(request, "registration/login.html",
                            self.get_context_data(form=form), wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        accounts.log_in(self.request, form.get_user())
        return HttpResponseRedirect(self.get_success_url())


class Logout(auth_views.LogoutView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        LoginSession.objects.filter(session_key=request.session.session_key or "").delete()
        return super().post(request, *args, **kwargs)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def logout_page(request: HttpRequest) -> HttpResponse:
    """A POST logs out; a GET (an old bookmark, a typed address) shows the button instead
    of an empty 405 page."""
    if request.method == "POST":
        return Logout.as_view()(request)
    return render(request, "registration/logout.html")


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@same_for_newcomers
def signup(request: HttpRequest) -> HttpResponse:
    after = next_url(request, reverse("account"))
    if request.user.is_authenticated:
        return HttpResponseRedirect(after)
    context: dict[str, Any] = {"next": after}
    if request.method == "POST":
        wait = hit("signup", client_address(request), time.time())
        form: UserCreationForm[User] = UserCreationForm(request.POST)
        context["form"] = form
        if wait is not None:
            context["form"] = UserCreationForm(initial={"username": request.POST.get("username")})
            return _limited(request, "registration/signup.html", context, wait)
        if form.is_valid():
            with transaction.atomic():  # all or nothing: no account whose codes were not shown
                try:
                    with transaction.atomic():
                        user = form.save()
                except IntegrityError:  # another device took the name since the form's check
                    taken = User._meta.get_field("username").error_messages["unique"]
                    form.add_error("username", ValidationError(taken, code="unique"))
                else:
                    codes = accounts.new_recovery_codes(user)
                    accounts.log_in(request, user)
                    return _codes_page(request, codes, after)
        return render(request, "registration/signup.html", context, status=400)
    context["form"] = UserCreationForm()
    return render(request, "registration/signup.html", context)


@sensitive_post_parameters("code", "new_password1", "new_password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def recover(request: HttpRequest) -> HttpResponse:
    """A recovery code and a new password: the code is spent, every session of the
    account ends, and the learner logs in with the new password."""
    form = RecoveryForm(request.POST or None)
    context: dict[str, Any] = {"form": form, "password_form": None}
    if request.method != "POST":
        return render(request, "registration/recover.html", context)
    wait = attempt_wait(request, request.POST.get("username", ""))
    if wait is not None:
        context["form"] = RecoveryForm(initial={"username": request.POST.get("username")})
        return _limited(request, "registration/recover.html", context, wait)
    code = form.is_valid() and accounts.recovery_code(form.cleaned_data["username"],
                                                      form.cleaned_data["code"])
    if not code:
        context["code_error"] = _("用户名或恢复码不对。")
        return render(request, "registration/recover.html", context, status=400)
    context["password_form"] = password_form = SetPasswordForm(code.user, request.POST)
    if not password_form.is_valid():
        return render(request, "registration/recover.html", context, status=400)
    with transaction.atomic():
        if not accounts.spend(code):
            context["code_error"] = _("用户名或恢复码不对。")
            return render(request, "registration/recover.html", context, status=400)
        password_form.save()
        accounts.end_sessions(code.user)
    left = code.user.recovery_codes.count()
    messages.success(request, _("新密码设好了，请登录。这个恢复码已经用掉，还剩 %(left)d 个。")
                     % {"left": left})
    return HttpResponseRedirect(reverse("login"))


# --------------------------------------------------------------------------- the account


def _learner(request: HttpRequest) -> User:
    """The logged-in learner of a ``login_required`` view."""
    assert isinstance(request.user, User)
    return request.user


@never_cache
@require_safe
@login_required
def account(request: HttpRequest) -> HttpResponse:
    user = _learner(request)
    return render(request, "registration/account.html", {
        "codes_left": user.recovery_codes.count(),
        "codes_form": PasswordCheckForm(user),
    })


@sensitive_post_parameters("password")
@never_cache
@require_POST
@login_required
def new_codes(request: HttpRequest) -> HttpResponse:
    """Replace the recovery codes (the password confirms it)."""
    user = _learner(request)
    form = PasswordCheckForm(user, request.POST)
    context = {"codes_left": user.recovery_codes.count(), "codes_form": form}
    wait = attempt_wait(request, user.username)
    if wait is not None:
        return _limited(request, "registration/account.html", context, wait)
    if not form.is_valid():
        return render(request, "registration/account.html", context, status=400)
    return _codes_page(request, accounts.new_recovery_codes(user), reverse("account"))


class PasswordChange(auth_views.PasswordChangeView):
    """Django's password change; the account's other sessions end."""

    success_url = reverse_lazy("account")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = _learner(request)
        wait = attempt_wait(request, user.username)  # the old password is guessed too
        if wait is not None:
            context = self.get_context_data(form=PasswordChangeForm(user))
            return _limited(request, "registration/password_change_form.html", context, wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)  # keeps this session (update_session_auth_hash)
        user = form.user
        accounts.end_sessions(user, keep=self.request.session.session_key)
        accounts.remember_session(self.request, user)
        messages.success(self.request, _("密码改好了。其他设备上的登录都已退出。"))
        return response


@never_cache
@require_safe
@login_required
def data(request: HttpRequest) -> HttpResponse:
    """Everything stored about the learner, as a JSON file."""
    user = _learner(request)
    response = JsonResponse(accounts.export(user), encoder=DjangoJSONEncoder,
                            json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = 'attachment; filename="chexuan-account.json"'
    return response


@sensitive_post_parameters("password")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def delete(request: HttpRequest) -> HttpResponse:
    """Delete the account and everything in it, after the password confirms it."""
    user = _learner(request)
    form = PasswordCheckForm(user, request.POST or None)
    if request.method == "POST":
        wait = attempt_wait(request, user.username)
        if wait is not None:
            return _limited(request, "registration/delete.html", {"form": form}, wait)
        if form.is_valid():
            accounts.erase(user)
            logout(request)
            messages.success(request, _("账号和里面的一切都删除了。"))
            return HttpResponseRedirect(reverse("home"))
        return render(request, "registration/delete.html", {"form": form}, status=400)
    return render(request, "registration/delete.html", {"form": form})


urlpatterns = [
    path("", account, name="account"),
    path("login/", require_http_methods(["GET", "HEAD", "POST"])(
        same_for_newcomers(Login.as_view())), name="login"),
    path("logout/", logout_page, name="logout"),
    path("signup/", signup, name="signup"),
    path("recover/", recover, name="recover"),
    path("password/", require_http_methods(["GET", "HEAD", "POST"])(PasswordChange.as_view()),
         name="password_change"),
    path("codes/", new_codes, name="recovery_codes"),
    path("data.json", data, name="account_data"),
    path("delete/", delete, name="account_delete"),
]
