"""A hostile client against the accounts (issue 22 §5), on a live production server.

    .venv/bin/python scripts/accounts_attack.py [--base http://host:port] [--tries 5]

Without ``--base`` it starts the production stack on 127.0.0.1 (scripts/prodserver.py,
a throwaway SQLite database unless DATABASE_URL is set) with CLIENT_IP_HEADER set, so
each attacker can name its own address in X-Forwarded-For as behind a proxy.  It signs
up a victim (with a practice table) and an attacker, then tries:

- enumeration: login and recovery with the victim's name and with names that do not
  exist; compares status, the page (without its CSRF token and the typed name) and the
  median time;
- brute force: wrong passwords for the victim from one address, then from many, then the
  right password (a locked account refuses it too);
- cross-account reads: the attacker asks for the victim's table, its coach page, its
  history; a forged ``sessionid=user:<n>``; the victim's old session after a password
  change; the data download;
- session fixation, an off-site ``?next=``, and POSTs without a CSRF token.

Each line says what was tried and what came back; GOT marks anything an attacker got.
Exit status 1 when anything was got, 0 when nothing was.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.httpclient import Client

PASSWORD = "victim-pass-27182"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def agent(base: str, address: str) -> Client:
    """One client from ``address``: its own cookies, the CSRF cookie of the login page."""
    return Client(base, address=address, first="/accounts/login/")


class Report:
    def __init__(self) -> None:
        self.got = 0

    def line(self, what: str, answer: str, got: bool) -> None:
        self.got += got
        print(f"{'GOT ' if got else 'none'}  {what}: {answer}", flush=True)


def _page(text: str, name: str) -> str:
    """A page without what differs between any two requests (the CSRF token, the name)."""
    return TOKEN.sub("", text).replace(name, "NAME")


def _login(agent: Client, name: str, password: str, **extra: str) -> tuple[int, str, float]:
    start = time.perf_counter()
    status, text, headers = agent.request("POST", "/accounts/login/",
                                          {"username": name, "password": password, **extra})
    return status, text if status != 302 else headers.get("location", ""), \
        time.perf_counter() - start


def enumeration(base: str, report: Report, tries: int) -> None:
    answers: dict[str, list[tuple[int, str, float]]] = {"victim": [], "ghost": []}
    for i in range(tries):
        order = (("victim", "victim"), ("ghost", f"ghost{i}"))
        for kind, name in order if i % 2 == 0 else order[::-1]:
            status, text, took = _login(agent(base, f"10.1.{i}.{len(kind)}"), name, "wrong-pw")
            answers[kind].append((status, _page(text, name), took))
    statuses = {kind: {a[0] for a in rows} for kind, rows in answers.items()}
    pages = {kind: {a[1] for a in rows} for kind, rows in answers.items()}
    # the fastest of each kind: its intrinsic cost, which a busy machine can only add to
    times = {kind: min(a[2] for a in rows) for kind, rows in answers.items()}
    same = statuses["victim"] == statuses["ghost"] and pages["victim"] == pages["ghost"]
    report.line("login, an existing name vs names that do not exist",
                f"statuses {statuses}, pages {'identical' if same else 'DIFFER'}, fastest "
                f"{times['victim'] * 1000:.0f} ms vs {times['ghost'] * 1000:.0f} ms", not same)
    slow, fast = max(times.values()), min(times.values())
    report.line("login timing", f"ratio {slow / fast:.2f}", slow / fast > 1.5)
    recover = []
    for name in ("victim", "nobody-here"):
        form = {"username": name, "code": "aaaa-bbbb-cccc-dddd", "new_password1": "x" * 12,
                "new_password2": "x" * 12}
        status, text, _ = agent(base, f"10.2.0.{len(name)}").request(
            "POST", "/accounts/recover/", form)
        recover.append((status, _page(text, name)))
    report.line("recovery, an existing name vs one that does not exist",
                f"statuses {recover[0][0]} / {recover[1][0]}, pages "
                f"{'identical' if recover[0] == recover[1] else 'DIFFER'}",
                recover[0] != recover[1])


def brute_force(base: str, report: Report, password: str) -> None:
    one = agent(base, "10.3.0.1")
    statuses = [_login(one, "victim", f"guess-{i}")[0] for i in range(15)]
    checked = statuses.count(200)
    report.line("15 guesses for the victim from one address",
                f"{checked} checked, then {statuses.count(429)} refused with 429",
                checked > 10 or 302 in statuses)
    many = [_login(agent(base, f"10.4.{i}.1"), "victim", f"guess-b{i}")[0] for i in range(10)]
    report.line("10 more guesses from 10 addresses", f"statuses {sorted(set(many))}",
                200 in many or 302 in many)
    status, text, _ = _login(agent(base, "10.5.0.1"), "victim", password)
    report.line("the right password while the account is locked",
                f"{status}{' (' + 'limit message' + ')' if '分钟后再试' in text else ''}",
                status == 302)
    spray = agent(base, "10.6.0.1")
    codes = [_login(spray, f"name{i}", "123456")[0] for i in range(35)]
    report.line("35 names tried from one address (spraying)",
                f"{codes.count(200)} checked, {codes.count(429)} refused",
                codes.count(200) > 30)


def cross_account(base: str, report: Report, victim: Client, table: str) -> str:
    """The cross-account tries; the victim's password at the end (it changes it)."""
    attacker = agent(base, "10.7.0.1")
    status, text, _ = attacker.request("POST", "/accounts/signup/", {
        "username": "attacker", "password1": PASSWORD + "x", "password2": PASSWORD + "x"})
    assert status == 200 and "<code>" in text, text[:500]
    for path in (table, f"/coach/{table.split('/')[2]}/", f"{table}history",
                 f"/coach/{table.split('/')[2]}/1/"):
        status, _, _ = attacker.request("GET", path)
        report.line(f"the attacker asks for the victim's {path}", str(status), status == 200)
    status, text, _ = attacker.request("GET", "/accounts/data.json")
    leak = "victim" in text or table.split("/")[2] in text
    report.line("the attacker's data download", f"{status}, victim's data "
                f"{'INSIDE' if leak else 'absent'}", leak)
    status, text, _ = attacker.request("GET", "/table/")
    report.line("the attacker's table list", "victim's table listed" if table in text else
                "victim's table absent", table in text)
    for forged in ("user:1", "user:2", "user%3A1"):
        forger = agent(base, "10.8.0.1")
        forger.cookies["sessionid"] = forged
        status, text, _ = forger.request("GET", table)
        account = forger.request("GET", "/accounts/")[0]
        report.line(f"a forged session cookie {forged!r}",
                    f"table {status}, account page {account}", status == 200 or account == 200)
    stolen = dict(victim.cookies)
    new = PASSWORD + "-new"
    status, _, _ = victim.request("POST", "/accounts/password/", {
        "old_password": PASSWORD, "new_password1": new, "new_password2": new})
    assert status == 302, status
    thief = agent(base, "10.9.0.1")
    thief.cookies = stolen
    status = thief.request("GET", "/accounts/")[0]
    report.line("the victim's session from before a password change (kept by a thief)",
                f"account page {status}", status == 200)
    return new


def fixation_redirects_csrf(base: str, report: Report) -> None:
    newcomer = agent(base, "10.10.0.1")
    newcomer.request("POST", "/night/", {"player1": "甲", "player2": "乙", "stakes": "1、3",
                                         "bobo": "2000", "end": "23:00", "tz": "UTC"})
    planted = newcomer.cookies.get("sessionid", "")
    newcomer.request("POST", "/accounts/signup/", {"username": "fixed",
                                                   "password1": PASSWORD, "password2": PASSWORD})
    after = newcomer.cookies.get("sessionid", "")
    report.line("a session key planted before sign-up", "rotated" if after != planted else
                "KEPT", after == planted)
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example/",
                   "http:evil.example"):
        status, location, _ = _login(agent(base, "10.11.0.1"), "fixed", PASSWORD, next=target)
        report.line(f"login with next={target}", f"{status} to {location}",
                    "evil" in location)
    bare = agent(base, "10.12.0.1")
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/recover/"):
        status = bare.request("POST", path, {"username": "fixed", "password": PASSWORD,
                                             "password1": "a-Long-pass-1",
                                             "password2": "a-Long-pass-1"}, csrf=False)[0]
        report.line(f"POST {path} without a CSRF token", str(status), status != 403)


@contextmanager
def _server() -> Iterator[str]:
    import os

    from scripts.prodserver import production_server

    saved = os.environ.get("CLIENT_IP_HEADER")
    os.environ["CLIENT_IP_HEADER"] = "HTTP_X_FORWARDED_FOR"
    try:
        with production_server(workers=2) as base:
            yield base
    finally:
        if saved is None:
            os.environ.pop("CLIENT_IP_HEADER")
        else:
            os.environ["CLIENT_IP_HEADER"] = saved


def attack(base: str, tries: int = 5) -> int:
    """Run every attack against ``base``; the number of things an attacker got."""
    report = Report()
    victim = agent(base, "10.0.0.1")
    status, text, headers = victim.request("POST", "/table/", {
        "bots": "2", "level": "simple", "stakes": "1、3", "mango": "fixed"})
    assert status == 303, text[:500]
    table = urllib.parse.urlsplit(headers["location"]).path
    status, text, _ = victim.request("POST", "/accounts/signup/", {
        "username": "victim", "password1": PASSWORD, "password2": PASSWORD})
    assert status == 200 and "<code>" in text, text[:500]
    enumeration(base, report, tries)
    brute_force(base, report, cross_account(base, report, victim, table))
    fixation_redirects_csrf(base, report)
    print(f"{report.got} things got", flush=True)
    return report.got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", help="a running server (default: start one)")
    parser.add_argument("--tries", type=int, default=5, help="logins per kind for timing")
    args = parser.parse_args(argv)
    with nullcontext(args.base) if args.base else _server() as base:
        return 1 if attack(base, args.tries) else 0


if __name__ == "__main__":
    sys.exit(main())
