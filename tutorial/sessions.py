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

from django.contrib.sessions.backends import db


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(key) and key is not None and 8 <= len(key) <= 40 and key.isascii() \
            and key.isalnum()

    @property
    def session_key(self) -> str | None:
        if not self.__dict__.get("_checked"):
            self._checked = True
            if self._get_session_key() is not None:
                accessed = self.accessed
                self.keys()  # reading the data loads it: a key the store lacks is dropped
                self.accessed = accessed
        return self._get_session_key()
