"""``make run``: the development server and the task worker, one command.

Starts ``manage.py runserver`` and ``manage.py worker`` (the heavy work: reviews, prices,
expert moves; tutorial/jobs.py) side by side; Ctrl-C (or either of them stopping) stops
both.  Arguments go to runserver (default 127.0.0.1:8000).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    manage = [sys.executable, str(ROOT / "manage.py")]
    children = [subprocess.Popen([*manage, "runserver", *(argv or ["127.0.0.1:8000"])]),
                subprocess.Popen([*manage, "worker"])]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # then the finally below
    try:
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
    return max(child.returncode or 0 for child in children)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
