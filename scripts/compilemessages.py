#!/usr/bin/env python3
"""Compile every ``locale/<feature>/<lang>/LC_MESSAGES/django.po`` to ``.mo`` with polib.

No GNU gettext needed.  A catalog is rebuilt only when its ``.po`` is newer than
its ``.mo``.  Fuzzy entries are left out, as ``msgfmt`` does.  Exit status 1 if a
catalog cannot be parsed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def compile_catalog(po_path: Path, *, force: bool = False) -> bool:
    """Write the ``.mo`` beside ``po_path``; return True if it was (re)written."""
    mo_path = po_path.with_suffix(".mo")
    if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        return False
    catalog = polib.pofile(str(po_path))
    for entry in catalog.fuzzy_entries():
        catalog.remove(entry)
    catalog.save_as_mofile(str(mo_path))
    return True


def main(argv: list[str]) -> int:
    force = "--force" in argv
    failed = 0
    written = 0
    paths = sorted(ROOT.glob("locale/*/*/LC_MESSAGES/django.po"))
    for po_path in paths:
        try:
            written += compile_catalog(po_path, force=force)
        except (OSError, ValueError) as exc:
            print(f"compilemessages: {po_path.relative_to(ROOT)}: {exc}", file=sys.stderr)
            failed += 1
    print(f"compilemessages: {len(paths)} catalog(s), {written} compiled, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
