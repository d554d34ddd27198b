"""Template context shared by every page: the main navigation and the language list."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# (path, label) of the sections, in learning order.  Pages not built yet still get a link.
NAV: tuple[tuple[str, Promise], ...] = (
    ("/course/", _("课程")),
    ("/cards/", _("牌")),
    ("/pairs/", _("组牌")),
    ("/rules/", _("规则")),
    ("/quiz/", _("练习")),
    ("/walkthroughs/", _("例题")),
    ("/table/", _("牌桌")),
    ("/calc/", _("算账")),
    ("/night/", _("记分")),
)


def navigation(request: HttpRequest) -> dict[str, object]:
    return {
        "nav_links": [
            {"href": href, "label": label, "current": request.path.startswith(href)}
            for href, label in NAV
        ],
        # Each language named in itself ("中文", "English"), untranslated, for the switch.
        "site_languages": [
            {"code": code, "name": name, "lang": "zh-Hans" if code == "zh-hans" else code}
            for code, name in settings.LANGUAGES
        ],
    }
