"""Golden check for speed work on the engine: the figures of the review, the bots'
sessions and the expert must stay bit-for-bit the same (``tests/golden.py``).

Record the full set before a change and check it after (a few minutes of one core;
exit status 1 on a difference):

    .venv/bin/python scripts/golden_review.py --record /tmp/golden.json
    .venv/bin/python scripts/golden_review.py --check /tmp/golden.json

After a deliberate change of the figures, record the test's small set again:

    .venv/bin/python scripts/golden_review.py --small --record tests/golden_review.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")

import django  # tests/coach_hands.py imports the site's test helpers

django.setup()

from tests.golden import figures  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", type=Path)
    what.add_argument("--check", type=Path)
    parser.add_argument("--small", action="store_true", help="the test's small set")
    args = parser.parse_args()
    got = json.loads(json.dumps(figures(args.small)))
    if args.record:
        args.record.write_text(json.dumps(got, ensure_ascii=False, indent=0) + "\n")
        print(f"recorded {len(got['reviews'])} reviews in {args.record}")
        return
    want = json.loads(args.check.read_text())
    for i, (w, g) in enumerate(zip(want["reviews"], got["reviews"], strict=False)):
        if w != g:
            print(f"review {i} differs", file=sys.stderr)
    bad = [k for k in want if want[k] != got.get(k)]
    print("identical" if not bad else f"DIFFERENT: {', '.join(bad)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
