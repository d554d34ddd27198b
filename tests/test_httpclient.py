"""scripts/httpclient.py against a tiny local server that echoes what it was sent."""

from __future__ import annotations

import http.server
import json
import threading
import urllib.parse
from collections.abc import Iterator

import pytest

from scripts.httpclient import Client
from scripts.prodserver import free_port

COOKIES = {  # path: the Set-Cookie headers it answers with
    "/form/": ["csrftoken=tok1; Path=/", "other=x; Path=/"],
    "/login/": ["sessionid=s1; HttpOnly; Path=/"],
    "/logout/": ['sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/'],
}


class Echo(http.server.BaseHTTPRequestHandler):
    def answer(self, body: str) -> None:
        status = 303 if self.path == "/away/" else 200
        self.send_response(status)
        if status == 303:
            self.send_header("Location", "/form/")
        for cookie in COOKIES.get(self.path, []):
            self.send_header("Set-Cookie", cookie)
        data = json.dumps({"method": self.command, "path": self.path, "body": body,
                           "headers": {k.lower(): v for k, v in self.headers.items()}})
        self.send_header("Content-Length", str(len(data.encode())))
        self.end_headers()
        self.wfile.write(data.encode())

    def do_GET(self) -> None:
        self.answer("")

    def do_POST(self) -> None:
        self.answer(self.rfile.read(int(self.headers["Content-Length"])).decode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def sent(answer: tuple[int, str, dict[str, str]]) -> tuple[str, str, dict[str, str]]:
    """What the server was sent: path, body, headers (lower case)."""
    echoed = json.loads(answer[1])
    return echoed["path"], echoed["body"], echoed["headers"]


def test_a_form_fetches_its_csrf_cookie_first_and_carries_the_token(base: str) -> None:
    client = Client(base, first="/form/")
    _, body, headers = sent(client.request("POST", "/post/", {"a": "1", "head": ["x", "y"]}))
    assert urllib.parse.parse_qs(body) == {
        "csrfmiddlewaretoken": ["tok1"], "a": ["1"], "head": ["x", "y"]}
    assert headers["cookie"] == "csrftoken=tok1; other=x"
    assert client.statuses == {200: 2} and len(client.times) == 2
    bare = Client(base, first="/form/")
    _, body, headers = sent(bare.request("POST", "/post/", {"a": "1"}, csrf=False))
    assert body == "a=1" and "cookie" not in headers and bare.statuses == {200: 1}


def test_headers_cookies_kept_by_name_and_deletions(base: str) -> None:
    client = Client(base, address="10.0.0.7", keep=("csrftoken", "sessionid"))
    client.request("GET", "/form/")
    client.request("GET", "/login/")
    assert client.cookies == {"csrftoken": "tok1", "sessionid": "s1"}
    headers = sent(client.request("GET", "/x/", htmx=True, trigger="computing"))[2]
    expected = {"x-forwarded-for": "10.0.0.7", "hx-request": "true", "hx-trigger": "computing",
                "accept-language": "zh-CN", "cookie": "csrftoken=tok1; sessionid=s1"}
    assert {name: headers.get(name) for name in expected} == expected
    client.request("GET", "/logout/")
    assert client.cookies == {"csrftoken": "tok1"}


def test_no_redirect_followed_a_given_connection_and_a_refused_one(base: str) -> None:
    client = Client(base)
    status, _, headers = client.request("GET", "/away/")
    assert (status, headers["location"]) == (303, "/form/")
    conn = client.connect()
    assert sent(client.request("GET", "/given/", conn=conn))[0] == "/given/"
    nowhere = Client(f"http://127.0.0.1:{free_port()}")
    status, text, headers = nowhere.request("GET", "/")
    assert status == -1 and "Connection" in text and headers == {}
    assert nowhere.statuses == {-1: 1}
