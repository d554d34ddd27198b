"""Account pages (issue 22): sign up, log in and out, recovery codes, password change, the
account page with the data download, and deleting the account.

Django's auth views and forms do the work (``registration/`` templates); what they add:
the anonymous progress is merged at sign-up and login (:func:`tutorial.accounts.log_in`),
login and recovery attempts are limited per client and per typed username with one
message whether or not the username exists, and a password change or reset ends the
account's other sessions.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout, update_session_auth_hash
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
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import path, reverse, reverse_lazy
from django.utils.decorators import method_decorator
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
    minutes = max(1, math.ceil(wait / 60))  # never less than the real wait
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


def _sent_again(user: Any, data: Any) -> bool:
    """The password change form ``data`` was already carried out: its new password is the
    account's password now and its old one no longer is (the same form sent twice)."""
    new = data.get("new_password1", "")
    return bool(new) and new == data.get("new_password2") and user.check_password(new) \
        and not user.check_password(data.get("old_password", ""))


def _changed_already(request: HttpRequest) -> HttpResponse:
    messages.info(request, _("密码已经改好了：改密码的表单提交了两次，第二次什么也没改。"
                             "这台设备还登录着，其他设备上的登录都已退出。"))
    return HttpResponseRedirect(reverse("account"))


@method_decorator(sensitive_post_parameters("old_password", "new_password1", "new_password2"),
                  name="dispatch")
class PasswordChange(auth_views.PasswordChangeView):
    """Django's password change; the account's other sessions end.

    The same form sent twice (a double click) is harmless: the second changes nothing,
    the device stays logged in and is told so.  The second POST may come while the first
    runs (the same session, the old password still matching as the request began: the
    account's row is held and its password read again before writing) or after it (the
    session the first replaced, now gone: :func:`accounts.replaced_by` finds its account
    for a few minutes, and the form's new password, being the account's, logs the device
    in again), or from the first change's new session (the old password no longer
    matches)."""

    success_url = reverse_lazy("account")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST" and not request.user.is_authenticated:
            user = accounts.replaced_by(request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""))
            if user is not None and attempt_wait(request, user.username) is None \
                    and _sent_again(user, request.POST):
                accounts.log_in(request, user)  # a new session: the old key stays gone
                return _changed_already(request)
        return super().dispatch(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = _learner(request)
        wait = attempt_wait(request, user.username)  # the old password is guessed too
        if wait is not None:
            context = self.get_context_data(form=PasswordChangeForm(user))
            return _limited(request, "registration/password_change_form.html", context, wait)
        form = self.get_form()
        if form.is_valid():
            return self.form_valid(form)
        if _sent_again(user, request.POST):  # from the session the first change gave
            return _changed_already(request)
        return self.form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        request, user = self.request, form.user
        loaded = user.password  # what the form's old password was checked against
        old, new = form.cleaned_data["old_password"], form.cleaned_data["new_password1"]
        user.set_password(new)  # hashed before the account is held
        with accounts.owned(accounts.user_key(user.pk)):
            fresh = User.objects.get(pk=user.pk)
            if fresh.password != loaded and not fresh.check_password(old):
                return self._changed_meanwhile(fresh, new)
            user.save(update_fields=["password"])
            replaced = request.session.session_key
            update_session_auth_hash(request, user)  # a new key for this session
            accounts.note_replaced(replaced, user)
            accounts.end_sessions(user, keep=request.session.session_key)
            accounts.remember_session(request, user)
        messages.success(request, _("密码改好了。其他设备上的登录都已退出。"))
        return HttpResponseRedirect(self.get_success_url())

    def _changed_meanwhile(self, fresh: User, new: str) -> HttpResponse:
        """The password changed while this request ran (the account's row is held)."""
        request = self.request
        if fresh.check_password(new):  # the same form, sent at the same moment
            update_session_auth_hash(request, fresh)  # this session was ended: a new one
            accounts.remember_session(request, fresh)
            return _changed_already(request)
        logout(request)  # changed to another password on another device
        messages.error(request, _("密码刚在另一台设备上改过了，这台设备上的登录已经退出。"
                                  "请用新密码登录。"))
        return HttpResponseRedirect(reverse("login"))


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
