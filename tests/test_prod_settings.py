"""Production settings: ``check --deploy`` passes, HTTPS/security headers, cached templates,
and the database-backed health check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.db import DatabaseError
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
# A production-like environment: long random-looking key, real hosts, DEBUG off.
PROD_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "t3st-only-" + "k9QzX4vR7wLp2mN8sB5dF1gH6jK0cV3x" * 2,
    "ALLOWED_HOSTS": "chexuan.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://chexuan.example.org",
}


SETTING_NAMES = (
    "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER", "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE", "SECURE_REFERRER_POLICY", "SECURE_CROSS_ORIGIN_OPENER_POLICY",
)


def run_django(code_or_args: list[str], extra_env: dict[str, str] | None = None,
               ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SECURE_")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by conftest for Playwright only
    env.update(PROD_ENV)
    env.update(extra_env or {})
    return subprocess.run(
        [sys.executable, *code_or_args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )


def prod_settings(extra_env: dict[str, str] | None = None) -> dict[str, object]:
    code = (
        "import json, django; django.setup()\n"
        "from django.conf import settings as s\n"
        "from django.template import engines\n"
        "loaders = [type(l).__module__ + '.' + type(l).__name__\n"
        "           for l in engines['django'].engine.template_loaders]\n"
        "inner = [type(l).__module__ + '.' + type(l).__name__\n"
        "         for outer in engines['django'].engine.template_loaders\n"
        "         for l in getattr(outer, 'loaders', [])]\n"
        f"print(json.dumps({{n: getattr(s, n, None) for n in {SETTING_NAMES!r}}}\n"
        "  | {'loaders': loaders, 'inner': inner}))\n"
    )
    result = run_django(
        ["-c", code], {"DJANGO_SETTINGS_MODULE": "chexuan_site.settings", **(extra_env or {})}
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_check_deploy_passes_with_production_environment() -> None:
    result = run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_flags_an_insecure_setup() -> None:
    """The test above is meaningful: turning HTTPS off does make the check fail."""
    result = run_django(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        {"SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0"},
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr and "security.W004" in result.stderr


def test_production_defaults() -> None:
    s = prod_settings()
    assert s["DEBUG"] is False
    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["SECURE_HSTS_SECONDS"] == 31_536_000
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert s["SECURE_HSTS_PRELOAD"] is True
    assert s["SECURE_PROXY_SSL_HEADER"] is None
    assert s["SESSION_COOKIE_SECURE"] is True and s["CSRF_COOKIE_SECURE"] is True
    assert s["SECURE_REFERRER_POLICY"] == "same-origin"
    assert s["SECURE_CROSS_ORIGIN_OPENER_POLICY"] == "same-origin"


def test_templates_are_cached_in_production() -> None:
    s = prod_settings()
    assert s["loaders"] == ["template_partials.loader.Loader"]
    assert s["inner"] == ["django.template.loaders.cached.Loader"]


def test_production_settings_from_environment() -> None:
    s = prod_settings({
        "SECURE_HSTS_SECONDS": "600",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "0",
        "SECURE_HSTS_PRELOAD": "0",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
    })
    assert s["SECURE_HSTS_SECONDS"] == 600
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert s["SECURE_HSTS_PRELOAD"] is False
    assert s["SECURE_SSL_REDIRECT"] is False
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_bad_proxy_header_is_refused() -> None:
    result = run_django(
        ["manage.py", "check"], {"SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO"}
    )
    assert result.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER must be" in result.stderr


def test_missing_secret_key_is_refused() -> None:
    result = run_django(["manage.py", "check"], {"SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
def test_security_headers(client: Client, settings: object) -> None:
    setattr(settings, "SECURE_HSTS_SECONDS", 31_536_000)  # noqa: B010
    response = client.get("/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp


@pytest.mark.django_db
def test_ssl_redirect_and_proxy_header(client: Client, settings: object) -> None:
    setattr(settings, "SECURE_SSL_REDIRECT", True)  # noqa: B010
    setattr(settings, "SECURE_PROXY_SSL_HEADER", ("HTTP_X_FORWARDED_PROTO", "https"))  # noqa: B010
    response = client.get("/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/"
    # Behind a TLS-terminating proxy that says so, no redirect (no loop).
    assert client.get("/", HTTP_X_FORWARDED_PROTO="https").status_code == 200
    # The health check is exempt: probes use plain HTTP on the private address.
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_healthz_checks_the_database(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    with mock.patch("tutorial.health.connection.cursor", side_effect=DatabaseError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unavailable"
    assert response["Content-Type"].startswith("text/plain")
