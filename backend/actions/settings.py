"""What an operator configures for actions, read from the environment, each with a working default.

| variable | default | what |
|---|---|---|
| FLOWYARD_ACTIONS_ALLOW | (none) | comma-separated CIDRs, addresses or host names admitted although private |
| FLOWYARD_ACTIONS_TIMEOUT_S | 30 | an action's timeout in seconds, and the cap of a node's own `timeout_s` |
| FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S | 10 | added to a try's timeout: the deadline the next try waits out |
| FLOWYARD_HTTP_MAX_RESPONSE_BYTES | 1048576 | the largest response body an action reads |
| FLOWYARD_HTTP_MAX_REDIRECTS | 5 | redirects an http node follows |
| FLOWYARD_SMTP_HOST, _PORT | (none), 25 | the SMTP server of `notify` with channel `email` |
| FLOWYARD_SMTP_USER, _PASSWORD | (none) | SMTP login, when both are set |
| FLOWYARD_SMTP_FROM | flowyard@localhost | the sender address of notification emails |
| FLOWYARD_SMTP_SECURITY | by port | `none`, `starttls` or `tls`; `tls` on 465, `starttls` on 587, else none |

Examples:
    >>> settings = ActionSettings.from_env({"FLOWYARD_ACTIONS_ALLOW": "127.0.0.1, 10.0.0.0/8, api.local"})
    >>> settings.allow.networks
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    >>> settings.allow.hosts, settings.max_redirects, settings.smtp_security
    (frozenset({'api.local'}), 5, 'none')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

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

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ActionSettings:
        """Read the settings; a value that does not parse raises ValueError naming its variable."""
        env = os.environ if env is None else env
        port = _number(env, "FLOWYARD_SMTP_PORT", 25)
        security = env.get("FLOWYARD_SMTP_SECURITY") or {465: "tls", 587: "starttls"}.get(port, "none")
        if security not in SECURITIES:
            raise ValueError(f"FLOWYARD_SMTP_SECURITY must be one of {', '.join(SECURITIES)}")
        try:
            allow = AllowList.parse(env.get("FLOWYARD_ACTIONS_ALLOW", ""))
        except ValueError as exc:
            raise ValueError(f"FLOWYARD_ACTIONS_ALLOW: {exc}") from None
        return cls(
            allow=allow,
            timeout_s=float(_number(env, "FLOWYARD_ACTIONS_TIMEOUT_S", 30)),
            attempt_margin_s=float(_number(env, "FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S", 10)),
            max_response_bytes=_number(env, "FLOWYARD_HTTP_MAX_RESPONSE_BYTES", 1024 * 1024),
            max_redirects=_number(env, "FLOWYARD_HTTP_MAX_REDIRECTS", 5),
            smtp_host=env.get("FLOWYARD_SMTP_HOST") or None,
            smtp_port=port,
            smtp_user=env.get("FLOWYARD_SMTP_USER") or None,
            smtp_password=env.get("FLOWYARD_SMTP_PASSWORD") or None,
            smtp_from=env.get("FLOWYARD_SMTP_FROM") or "flowyard@localhost",
            smtp_security=security,
        )


def _number(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name)
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    if value < 0:
        raise ValueError(f"{name} must not be negative")
    return value
