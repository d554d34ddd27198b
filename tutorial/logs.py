"""The log format: bad requests are one line, never a traceback; the console handler.

Django logs a request it refuses as suspicious (3,000 form fields, a body too large, a
host not allowed: ``django.security.*``) with the exception attached, and the default
formatter prints its traceback although nothing crashed: the visitor got a 400.
:class:`OneLineRefusals` prints those records as one line; every other record (a real
crash, ``django.request`` 500s included) keeps its traceback.
"""

from __future__ import annotations

import logging
import sys
from typing import Any


class OneLineRefusals(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        if record.name.startswith("django.security."):
            return f"{record.levelname} {record.name}: {record.getMessage()}"
        return super().format(record)


class Console(logging.StreamHandler):  # type: ignore[type-arg]
    """The console: whatever ``sys.stderr`` is when a record is written. A handler keeps
    the stream it was made with, and pytest replaces ``sys.stderr`` for each test and
    closes the old one, so the task worker's thread beside a live server wrote its log
    lines to a closed file ("I/O operation on closed file")."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:  # StreamHandler.__init__ and setStream set it
        pass
