"""Settings for 扯旋学堂, read from the environment.

Environment variables:
    DEBUG            "1" (default, local development) or "0" (production).
    SECRET_KEY       required when DEBUG is off; a throwaway dev key is used otherwise.
    ALLOWED_HOSTS    comma-separated; default localhost,127.0.0.1,[::1],testserver.
    CSRF_TRUSTED_ORIGINS  comma-separated origins (https://example.org), default none.
    DATABASE_URL     dj-database-url syntax; default sqlite:///<project>/db.sqlite3.
    DATABASE_CREATE  "1" lets a production SQLite database file be created (first migrate).
    RATE_LIMITS      e.g. "new=100/600,write=600/60,session=60/3600" (per client:
                     requests/seconds).
    CLIENT_IP_HEADER behind a proxy, e.g. HTTP_X_FORWARDED_FOR (its last address counts).
    SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS,
    SECURE_HSTS_PRELOAD, SECURE_PROXY_SSL_HEADER, SECURE_COOKIES  HTTPS settings (README).
    TASK_LEASE       seconds after which a job a worker started and did not finish is run
                     again (its worker presumed dead); default 30 (tutorial/jobs.py).
    TASK_RESULT_DAYS days a finished task's row is kept in the queue before the workers
                     prune it; default 7 (tutorial/jobs.py prune).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal
from urllib.parse import quote

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", "1")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production"

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "tutorial",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Compresses HTML (and JSON) for clients that accept gzip.  After WhiteNoise, which
    # answers static files itself (already compressed); before everything that writes the
    # body.  Django adds random bytes to each gzip stream against BREACH (README).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "tutorial.timezones.VisitorTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # ?course= that is no lesson: the page says so (base.html) and answers 400
    "tutorial.course.BadCourseMiddleware",
    # an empty 405 gets the site's page (which methods the address takes)
    "tutorial.views.errors.NotAllowedMiddleware",
]

ROOT_URLCONF = "chexuan_site.urls"
WSGI_APPLICATION = "chexuan_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "tutorial.context_processors.navigation",
                "tutorial.course.returning",  # ?course=<lesson>: 下一步 back into the course
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several gunicorn workers share one SQLite file.  A deferred transaction that reads
    # and then writes fails at once with "database is locked" (a 500) when another worker
    # writes; IMMEDIATE takes the write lock at BEGIN and waits for it (up to `timeout` s),
    # and WAL lets readers go on while one worker writes.  (scripts/soak.py found this.)
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
    if not DEBUG and not _env_bool("DATABASE_CREATE", "0"):
        # Production never creates an empty database: a missing file (a wrong path, a volume
        # not mounted) is an error, not a fresh site.  `DATABASE_CREATE=1` for the first migrate.
        _name = str(DATABASES["default"]["NAME"])
        if not _name.startswith("file:"):
            DATABASES["default"]["NAME"] = f"file:{quote(_name)}?mode=rw"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Heavy work (a hand's review, a 返 priced again, an expert bot's move) runs in worker
# processes (`manage.py worker`), queued in the database: django-tasks' database backend,
# no extra service (tutorial/jobs.py, README "Task queue").
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                     "QUEUES": ["coach", "moves"]}}
TASK_LEASE = int(os.environ.get("TASK_LEASE", "30"))
TASK_RESULT_DAYS = int(os.environ.get("TASK_RESULT_DAYS", "7"))

SESSION_ENGINE = "tutorial.sessions"  # the database store; a key the server did not issue is None
# Sessions exist only once a visitor does something (answers a quiz question, opens a table,
# starts a night): reading never creates one.  Two weeks by default; a quiz answer extends
# the visitor's to a year.  serve_prod.sh runs clearsessions at each start.
SESSION_COOKIE_AGE = 14 * 24 * 3600


# Accounts (issue 22, tutorial/accounts.py): Django's auth with Argon2 first; the other
# hashers only read hashes made before a switch.  No e-mail: recovery codes reset a password.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "account"
LOGOUT_REDIRECT_URL = "home"

def _rate_limits(text: str) -> dict[str, tuple[int, int]]:
    """``new=100/600,write=600/60``: per scope, requests per seconds."""
    limits = {}
    for item in filter(None, text.split(",")):
        scope, _, rate = item.strip().partition("=")
        count, _, seconds = rate.partition("/")
        if not (scope and count.isdecimal() and seconds.isdecimal() and int(seconds) > 0):
            raise ImproperlyConfigured(f"RATE_LIMITS: {item!r} is not scope=requests/seconds")
        limits[scope] = (int(count), int(seconds))
    return limits


# Per-client rate limits on requests that create rows (tutorial/ratelimit.py): "new" for
# new tables and nights, "write" for table actions, night entries and quiz/course answers.
# "session" counts those that come without a session cookie (each may create a session);
# "compute" for requests that queue heavy work (a review, a 返 priced again, an expert's move);
# "login" and "login-account" count sign-in and recovery attempts per client and per username,
# "signup" new accounts per client.
RATE_LIMITS = {"new": (100, 600), "write": (600, 60), "session": (60, 3600), "compute": (60, 60),
               "login": (30, 600), "login-account": (10, 600), "signup": (10, 3600),
               **_rate_limits(os.environ.get("RATE_LIMITS", ""))}
# Behind a proxy, the request's META key holding the client address it saw (the last one
# of a comma-separated list), e.g. HTTP_X_FORWARDED_FOR; unset: REMOTE_ADDR.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "")

# Internationalisation: interface strings are written in Chinese (the msgids) and
# translated to English in per-feature catalogs locale/<feature>/en/LC_MESSAGES/django.po.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "中文"), ("en", "English")]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Asia/Shanghai"
LOCALE_PATHS = sorted(path for path in (BASE_DIR / "locale").glob("*") if path.is_dir())

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Tests switch this to plain StaticFilesStorage (tests/conftest.py).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# A strict Content-Security-Policy: everything from the site itself, no inline script or
# style, no eval (htmx works without it: no hx-on / js: attributes are used).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
    },
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = _env_bool("SECURE_COOKIES", "1")
    CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True  # read by the server only (pages carry <html lang>)
LANGUAGE_COOKIE_SAMESITE: Literal["Lax"] = "Lax"
CSRF_FAILURE_VIEW = "tutorial.views.errors.csrf_failure"

# HTTPS (production).  All default to on when DEBUG is off; README "Production" explains.
# Behind a proxy that terminates TLS, set SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https"
# (the proxy must overwrite that header) so Django knows the request was HTTPS, or set
# SECURE_SSL_REDIRECT=0 and let the proxy do the redirect.
SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", "0" if DEBUG else "1")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # probes on the private address use plain HTTP
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1")
SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", "1")
_proxy_header = _env_list("SECURE_PROXY_SSL_HEADER", "")
if _proxy_header:
    if len(_proxy_header) != 2:
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must be 'HEADER,value', e.g. 'HTTP_X_FORWARDED_PROTO,https'."
        )
    SECURE_PROXY_SSL_HEADER = (_proxy_header[0], _proxy_header[1])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"refusals": {"()": "tutorial.logs.OneLineRefusals"}},
    "handlers": {"console": {"class": "tutorial.logs.Console", "formatter": "refusals"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
