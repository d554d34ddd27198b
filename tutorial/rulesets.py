"""The two rule-set presets as people see them: one label each, site-wide."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

RULES_LABELS: dict[str, Promise] = {
    "xuanjing": _("《旋经》规则（默认）"),
    "app": _("app 规则（有地王）"),
}
