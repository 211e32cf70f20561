"""Every statement the program may run, by name: each `-- name: x` block of every .sql file under backend/
(the migrations' files aside), in the form a server log shows it; and the few statements that have no
name, each by a rule that says why.

A statement is compared as text with its placeholders and its spacing set aside: psycopg sends
`%(id)s` as `$1` and `%%` as `%`, and the log keeps the statement's line breaks and indentation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from backend.api.stream import CHANNEL as RUNS_CHANNEL
from backend.queue.runs import NOTIFY_CHANNEL
from backend.queue.wakes import WORKERS_CHANNEL
from backend.store.queries import load

BACKEND = Path(__file__).resolve().parents[2] / "backend"

_PLACEHOLDER = re.compile(r"%\([a-z_]+\)s|%s|\$\d+")


def normalised(text: str) -> str:
    """A statement with each placeholder a `?`, its spacing one space, and no final semicolon.

    Examples:
        >>> normalised("SELECT a\\n  FROM t WHERE id = %(id)s AND x LIKE 'a%%';")
        "SELECT a FROM t WHERE id = ? AND x LIKE 'a%'"
        >>> normalised("SELECT a FROM t\\n\\tWHERE id = $1 AND x LIKE 'a%'")
        "SELECT a FROM t WHERE id = ? AND x LIKE 'a%'"
    """
    text = _PLACEHOLDER.sub("?", text).replace("%%", "%")
    return " ".join(text.split()).rstrip(";").rstrip()


def sql_files() -> list[Path]:
    """Every file of named statements under backend/: the migrations' files hold none."""
    return sorted(path for path in BACKEND.rglob("*.sql") if "migrations_sql" not in path.parts)


def named_statements() -> dict[str, str]:
    """Every named statement, `package/file.sql:name` by its normalised text."""
    found: dict[str, str] = {}
    for path in sql_files():
        package = ".".join(path.relative_to(BACKEND.parent).parent.parts)
        for name, statement in load(package, path.name).items():
            found.setdefault(normalised(statement), f"{path.relative_to(BACKEND).as_posix()}:{name}")
    return found


@dataclass(frozen=True, slots=True)
class Rule:
    """Statements the program runs without a name, and why that is right."""

    pattern: re.Pattern[str]
    why: str


RULES = (
    Rule(
        re.compile(r'BEGIN|COMMIT|ROLLBACK|(SAVEPOINT|RELEASE|ROLLBACK TO) "_pg3_\d+"'),
        "psycopg's own: the transaction blocks of `conn.transaction()` and of connections not in "
        "autocommit; they read no table, so they have no plan",
    ),
    Rule(
        re.compile(r"DEALLOCATE (ALL|_pg3_\d+)"),
        "psycopg's own: its cache of prepared statements, emptied after a rollback (a prepared plan may "
        "name what the rollback undid) and trimmed when full",
    ),
    Rule(
        re.compile(
            f"LISTEN ({re.escape(NOTIFY_CHANNEL)}|{re.escape(RUNS_CHANNEL)}|{re.escape(WORKERS_CHANNEL)})"
        ),
        "a utility statement with no plan and no parameter (a channel cannot be one): the worker's wake-up "
        "(and its word of workers coming and going) and the API's run stream name their channel as a "
        "constant",
    ),
    Rule(
        re.compile(
            r"SELECT pg_advisory_xact_lock\(\?\)"
            r"|SELECT to_regclass\('schema_migrations'\) IS NOT NULL"
            r"|SELECT number FROM schema_migrations ORDER BY number"
            r"|SELECT number, name, checksum FROM schema_migrations ORDER BY number"
            r"|SELECT EXISTS \(SELECT FROM information_schema\.columns WHERE table_name = 'schema_migrations'"
            r" AND column_name = 'checksum' AND table_schema = current_schema\(\)\)"
        ),
        "the migration runner (backend/store/migrations.py) at every start: it reads its own bookkeeping "
        "table, a row per migration, before any package's statements may be trusted to match the schema",
    ),
)


def unnamed(executed: list[str], named: dict[str, str]) -> list[str]:
    """The executed statements (normalised) that are neither named nor allowed by a rule, each once.

    Examples:
        >>> named = {"SELECT 1 FROM t WHERE a = ?": "x"}
        >>> unnamed(["COMMIT", "SELECT 1 FROM t WHERE a = $1", "DELETE FROM t", "DELETE FROM t"], named)
        ['DELETE FROM t']
    """
    found: list[str] = []
    for statement in executed:
        text = normalised(statement)
        if text in named or text in found or any(rule.pattern.fullmatch(text) for rule in RULES):
            continue
        found.append(text)
    return found
