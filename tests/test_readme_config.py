"""README "Configuration" lists every environment variable the site and its production
start read, and the rate limits' default it gives is the settings' own."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _configuration() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("## Configuration (environment variables)", 1)[1].split("\n## ", 1)[0]


def _listed() -> set[str]:
    rows = [line for line in _configuration().splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z_]+)`", row.split(" | ")[0])}


def test_every_variable_read_is_listed() -> None:
    settings = (ROOT / "chexuan_site" / "settings.py").read_text(encoding="utf-8")
    read = set(re.findall(r'(?:environ\.get|_env_bool|_env_list)\(\s*"([A-Z_]+)"', settings))
    serve = (ROOT / "scripts" / "serve_prod.sh").read_text(encoding="utf-8")
    read |= set(re.findall(r"\$\{([A-Z_]+)", serve))
    assert {"DEBUG", "RATE_LIMITS", "LOG_LEVEL", "BIND", "FORWARDED_ALLOW_IPS"} <= read
    assert read - _listed() == set()


def test_rate_limits_default_is_the_settings() -> None:
    from django.conf import settings

    row = next(line for line in _configuration().splitlines() if line.startswith("| `RATE_LIMITS`"))
    default = row.split(" | ")[1].strip("`")
    assert dict(item.split("=") for item in default.split(",")) == {
        scope: f"{n}/{s}" for scope, (n, s) in settings.RATE_LIMITS.items()}
