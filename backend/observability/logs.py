"""Logging for the `serve` and `worker` processes: one line per event, text or JSON.

`FLOWYARD_LOG_FORMAT=json` gives one JSON object per line (what a log shipper reads); anything else, the
same fields as `key=value` after the message, for a person at a terminal. `FLOWYARD_LOG_LEVEL` (default
INFO) filters. Every line carries the ids bound in `context` and an event's own fields, never a value
that could be a secret: the hooks pass ids, codes, kinds and durations only, and `redact` masks the
password of any URL an exception's message happens to quote.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

from backend.observability.context import current
from backend.store.errors import StoreError

# scheme://user:password@host -> scheme://user:***@host (a database URL in a driver's error, say).
_URL_PASSWORD = re.compile(r"(?P<head>[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)[^@\s/]+@")
# key=value pairs that name a secret, as libraries print connection strings: password=..., token=...
_KEY_SECRET = re.compile(r"(?i)\b(?P<key>password|passwd|token|secret)=(?P<value>'[^']*'|\S+)")
# The attributes every LogRecord has, and uvicorn's copy of its message with terminal colours.
_RESERVED = {*vars(logging.makeLogRecord({})), "message", "color_message"}


def redact(text: str) -> str:
    """Mask what looks like a credential inside free text.

    Examples:
        >>> redact("connect to postgresql://ann:hunter2@db:5432/x failed")
        'connect to postgresql://ann:***@db:5432/x failed'
        >>> redact("dsn: host=db password='s3 cret' user=ann")
        'dsn: host=db password=*** user=ann'
    """
    text = _URL_PASSWORD.sub(lambda m: m["head"] + "***@", text)
    return _KEY_SECRET.sub(lambda m: m["key"] + "=***", text)


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """A record's structured content: when, how bad, who says it, the event, the ids, its own fields."""
    out: dict[str, Any] = {
        "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
        "level": record.levelname.lower(),
        "logger": record.name,
        "event": redact(record.getMessage()),
    }
    out.update(current())
    out.update({k: v for k, v in vars(record).items() if k not in _RESERVED and not k.startswith("_")})
    if record.exc_info:
        out["error"] = redact(logging.Formatter().formatException(record.exc_info))
    return out


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(fields_of(record), default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = fields_of(record)
        head = f"{fields.pop('ts')} {fields.pop('level'):7} {fields.pop('logger')}: {fields.pop('event')}"
        error = fields.pop("error", None)
        line = " ".join([head, *(f"{k}={v}" for k, v in fields.items())])
        return line + ("\n" + error if error else "")


FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def configure(chosen: str, level: str, stream: Any = None) -> None:
    """Send every logger's records (ours, uvicorn's, psycopg's) through one handler on stderr, in the
    format `chosen` (FLOWYARD_LOG_FORMAT), from `level` (FLOWYARD_LOG_LEVEL) up.

    A format or level we do not know is refused (StoreError: the CLI's one line and exit code 2), never
    replaced by a default the operator did not ask for.
    """
    for variable, value, allowed in (
        ("FLOWYARD_LOG_FORMAT", chosen, FORMATS),
        ("FLOWYARD_LOG_LEVEL", level, LEVELS),
    ):
        if value not in allowed:
            raise StoreError(
                code="log_setting_invalid", variable=variable, value=value, allowed=", ".join(allowed)
            )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if chosen == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # httpx logs every request's full URL at INFO, query string included: a URL can carry a credential.
    logging.getLogger("httpx").setLevel(logging.WARNING)
