"""WSGI entry point (``gunicorn chexuan_site.wsgi``)."""

import codecs
import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application
from django.utils.http import parse_header_parameters

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chexuan_site.settings")

App = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _text_codec(charset: str) -> bool:
    """Whether ``charset`` is a text encoding, or no codec at all (which Django ignores)."""
    try:
        return bool(getattr(codecs.lookup(charset), "_is_text_encoding", True))
    except LookupError:
        return True


def text_charsets_only(app: App) -> App:
    """A request whose ``Content-Type`` names a codec that is no text encoding
    (``charset=rot13``) is a 400: Django looks the charset up while it builds the
    request, before any middleware runs, and decoding with such a codec raised
    ``LookupError`` there — a bare 500.  (A charset that names no codec at all, Django
    ignores.)"""

    def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        charset = parse_header_parameters(environ.get("CONTENT_TYPE", ""))[1].get("charset")
        if charset is not None and not _text_codec(charset):
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [f"Bad Request: {charset[:40]!r} is not a text encoding.".encode()]
        return app(environ, start_response)

    return guarded


application = text_charsets_only(get_wsgi_application())
