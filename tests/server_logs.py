"""The whole session's check that no test server logged a secret the tests used.

Helpers that hand out a secret (`make_user`'s token and password, the browser tests' password and
tokens, the metrics token, the secrets of tests/observability/test_secrets.py) name it with
`known_secret`; helpers that run a `flowyard serve` or `flowyard worker` hand what it wrote to its
stderr to `server_log` once it has stopped. The session fixture `no_secret_in_server_logs`
(tests/conftest.py) runs `leaks` at the end of the session and fails naming each log and which secret it
holds (by its first characters only, so the failure does not print it whole).

Values shorter than MIN_LENGTH are not watched: a test's throwaway password `pw` or `x` would match
ordinary words in any log; every credential the servers hand out (tokens, webhook secrets) is far longer.

Examples:
    >>> leaks([("serve", "login ok for ann")], {"fy_abcdefghijkl"})
    []
    >>> leaks([("serve", "Bearer fy_abcdefghijkl refused")], {"fy_abcdefghijkl"})
    ['serve holds a secret the tests used: fy_abc…']
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

MIN_LENGTH = 8

_lock = threading.Lock()
_secrets: set[str] = set()
_logs: list[tuple[str, str]] = []


def known_secret(value: str) -> str:
    """Watch `value` in every server log of the session; returns it, to wrap where it is made."""
    if len(value) >= MIN_LENGTH:
        with _lock:
            _secrets.add(value)
    return value


def server_log(source: str, text: str) -> None:
    """What a test server wrote, once it has stopped; `source` names it in a failure."""
    with _lock:
        _logs.append((source, text))


def leaks(logs: Iterable[tuple[str, str]], secrets: Iterable[str]) -> list[str]:
    """One line per log and secret found in it, the secret cut to its first six characters."""
    watched = sorted(secrets)
    return [
        f"{source} holds a secret the tests used: {secret[:6]}…"
        for source, text in logs
        for secret in watched
        if secret in text
    ]


def session_leaks() -> tuple[list[str], int, int]:
    """The leaks in every log recorded so far, with how many logs and secrets were compared."""
    with _lock:
        logs, secrets = list(_logs), set(_secrets)
    return leaks(logs, secrets), len(logs), len(secrets)
