"""The WSGI entry point refuses a Content-Type charset that is no text encoding with a
400 (Django raised LookupError while building the request, before any middleware: a
bare 500 under gunicorn), and passes every other request on."""

from __future__ import annotations

import io
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest

from chexuan_site.wsgi import application

pytestmark = pytest.mark.django_db


def call(method: str, path: str, query: str = "", content_type: str = "",
         body: bytes = b"") -> tuple[str, bytes]:
    environ: dict[str, Any] = {"REQUEST_METHOD": method, "PATH_INFO": path,
                               "QUERY_STRING": query, "CONTENT_LENGTH": str(len(body)),
                               "wsgi.input": io.BytesIO(body), "SERVER_NAME": "testserver"}
    if content_type:
        environ["CONTENT_TYPE"] = content_type
    setup_testing_defaults(environ)
    status: list[str] = []
    chunks = application(environ, lambda s, headers, *rest: status.append(s))
    return status[0], b"".join(chunks)


@pytest.mark.parametrize("content_type", ["text/plain; charset=rot13",
                                          "multipart/form-data; boundary=b; charset=rot13",
                                          "application/x-www-form-urlencoded; charset=hex"])
def test_a_charset_that_is_no_text_encoding_is_a_400(content_type: str) -> None:
    status, body = call("GET", "/pairs/", "q=tgj", content_type)
    assert status.startswith("400") and b"not a text encoding" in body
    status, _ = call("POST", "/table/", "", content_type, b"--b--\r\n")
    assert status.startswith("400")


def test_other_requests_pass() -> None:
    status, body = call("GET", "/pairs/", "q=tgj", "text/plain; charset=utf-8")
    assert status.startswith("200") and b"<html" in body
    assert call("GET", "/pairs/", "q=tgj")[0].startswith("200")
    # a charset that names no codec: Django ignores it
    assert call("GET", "/pairs/", "q=tgj", "text/plain; charset=nope")[0].startswith("200")
