"""The session engine (``SESSION_ENGINE``): Django's database sessions, except that only a
key the server issued counts.

Django's store takes the key from the cookie as it comes and only finds out whether it
exists when the session's data is first read; until then ``request.session.session_key``
is whatever the client sent, and a view that uses the key as an owner (a practice table,
quiz progress) would make a made-up string the owner of what it creates.  Here the key is
checked against the store the first time it is read: a key that is malformed (Django's
keys are 32 lower-case letters and digits; anything over 40 characters or outside ASCII
letters and digits never reaches the database) or not a live session reads as None, so
the first write creates a new session with a new key (the made-up one is dropped and owns
nothing).
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(key) and key is not None and 8 <= len(key) <= 40 and key.isascii() \
            and key.isalnum()

    def _loaded(self) -> Any:
        """The session's data, loaded once (Django's ``_session``); loading checks the key:
        one the store lacks becomes None."""
        self.accessed = True
        if "_session_cache" not in self.__dict__:
            self._checked = True
            self._session_cache = {} if self._get_session_key() is None else self.load()
        return self._session_cache

    _session = property(_loaded)

    @property
    def session_key(self) -> str | None:
        if not self.__dict__.get("_checked") and self._get_session_key() is not None:
            accessed = self.accessed
            self._loaded()
            self.accessed = accessed
        return self._get_session_key()
