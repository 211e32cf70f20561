"""What an operator configures for the API, read from the environment, each with a working default.

| variable | default | what |
|---|---|---|
| FLOWYARD_BODY_TIMEOUT_S | 30 | how long a client may take to send a request's body; after it, 408 |
| FLOWYARD_API_POOL_SIZE | 10 | the API's database connections (the in-process worker has a pool of its own) |
| FLOWYARD_LOGIN_HASHERS | 2 | password hashes computed at once; more logins wait their turn |
| FLOWYARD_LOGIN_QUEUE | 30 | logins that may wait for a hasher; past them, 429 login_busy at once |

Examples:
    >>> ApiSettings.from_env({"FLOWYARD_BODY_TIMEOUT_S": "2.5"}).body_timeout_s
    2.5
    >>> ApiSettings.from_env({"FLOWYARD_LOGIN_HASHERS": "0"})
    Traceback (most recent call last):
    ...
    ValueError: FLOWYARD_LOGIN_HASHERS must be at least 1, not '0'
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ApiSettings:
    body_timeout_s: float = 30.0
    pool_size: int = 10
    login_hashers: int = 2
    login_queue: int = 30

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ApiSettings:
        """Read the settings; a value that does not parse raises ValueError naming its variable."""
        env = os.environ if env is None else env
        return cls(
            body_timeout_s=_positive(env, "FLOWYARD_BODY_TIMEOUT_S", 30.0),
            pool_size=int(_positive(env, "FLOWYARD_API_POOL_SIZE", 10, whole=True)),
            login_hashers=int(_positive(env, "FLOWYARD_LOGIN_HASHERS", 2, whole=True)),
            login_queue=int(_positive(env, "FLOWYARD_LOGIN_QUEUE", 30, whole=True)),
        )


def _positive(env: Mapping[str, str], name: str, default: float, *, whole: bool = False) -> float:
    text = env.get(name)
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        raise ValueError(f"{name} must be a {'whole ' if whole else ''}number, not {text!r}") from None
    if not math.isfinite(value) or value < (1 if whole else 0) or value == 0:
        raise ValueError(f"{name} must be at least 1, not {text!r}" if whole else f"{name} must be positive")
    return value
