#!/usr/bin/env python3
"""``manage.py collectstatic --noinput``, run only when a static source changed.

The manifest storage deletes and rewrites hashed files on every run, even when nothing
changed, so a second server starting from the same checkout (the concurrency tests start
several side by side) would pull files from under a server whose workers are scanning
``STATIC_ROOT`` at boot.  Here the sources the finders see (path, size, modification time)
and the storage backend are hashed; when the hash equals the one written after the last
successful run, nothing is touched.  ``--force`` collects anyway.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAMP = ROOT / ".staticfiles.stamp"


def sources_digest() -> str:
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256(repr(settings.STORAGES["staticfiles"]).encode())
    digest.update(str(settings.STATIC_ROOT).encode())
    entries = []
    for finder in get_finders():
        for path, storage in finder.list([]):
            stat = os.stat(storage.path(path))
            entries.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    for entry in sorted(entries):
        digest.update(entry.encode() + b"\n")
    return digest.hexdigest()


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    digest = sources_digest()
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if "--force" not in argv and manifest.exists() and STAMP.exists() \
            and STAMP.read_text().strip() == digest:
        print("collectstatic: up to date")
        return 0
    STAMP.unlink(missing_ok=True)
    call_command("collectstatic", "--noinput", verbosity=0)
    STAMP.write_text(digest + "\n")
    print("collectstatic: collected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
