"""What an operator configures for actions, each with a working default: the part of backend/settings.py's
`Settings` that the action sender and the mailer take (`Settings.actions`).

The secret store's key is here too (`secret_key`, else the key file in `key_dir`): only actions open it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from backend.actions.destinations import AllowList

SECURITIES = ("none", "starttls", "tls")


@dataclass(frozen=True, slots=True)
class ActionSettings:
    allow: AllowList = field(default_factory=AllowList)
    timeout_s: float = 30.0
    attempt_margin_s: float = 10.0
    max_response_bytes: int = 1024 * 1024
    max_redirects: int = 5
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = field(default=None, repr=False)
    smtp_from: str = "flowyard@localhost"
    smtp_security: str = "none"
    key_dir: Path = Path(".flowyard")
    secret_key: str | None = field(default=None, repr=False)
