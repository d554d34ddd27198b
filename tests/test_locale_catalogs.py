"""The per-feature translation catalogs are merged into one: a Chinese msgid must have
one English translation across all of them, and none may be left empty."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def test_catalogs_agree_and_are_complete() -> None:
    seen: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    problems = []
    for po_path in sorted(LOCALE.glob("*/en/LC_MESSAGES/django.po")):
        feature = po_path.parts[-4]
        for entry in polib.pofile(str(po_path)):
            if entry.obsolete:
                continue
            if not entry.translated():
                problems.append(f"{feature}: untranslated {entry.msgid!r}")
            key = (entry.msgctxt or "", entry.msgid)
            seen[key][feature] = entry.msgstr or repr(entry.msgstr_plural)
    for (context, msgid), by_feature in seen.items():
        if len(set(by_feature.values())) > 1:
            problems.append(f"{msgid!r} ({context}) translated differently: {by_feature}")
    assert problems == []
