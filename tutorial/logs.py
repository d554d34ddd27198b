"""The log format: bad requests are one line, never a traceback.

Django logs a request it refuses as suspicious (3,000 form fields, a body too large, a
host not allowed: ``django.security.*``) with the exception attached, and the default
formatter prints its traceback although nothing crashed: the visitor got a 400.
:class:`OneLineRefusals` prints those records as one line; every other record (a real
crash, ``django.request`` 500s included) keeps its traceback.
"""

from __future__ import annotations

import logging


class OneLineRefusals(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        if record.name.startswith("django.security."):
            return f"{record.levelname} {record.name}: {record.getMessage()}"
        return super().format(record)
