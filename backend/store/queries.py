"""SQL kept in `queries.sql` files, one per package that owns tables, each statement under `-- name: x`;
and the ways a row is read: a scalar (or the first column of every row), or one or every row as a
dataclass (psycopg's `class_row`, the columns aliased to the fields), never by position; where rows are
read by the hundred thousand (an export), as a NamedTuple whose fields are the columns (`named_row`).

Examples:
    >>> "FOR UPDATE SKIP LOCKED" in load("backend.queue", "queries.sql")["claim"]
    True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, LiteralString, NamedTuple, TypeVar

from psycopg import AsyncConnection
from psycopg.cursor_async import AsyncCursor
from psycopg.rows import AsyncRowFactory, RowMaker, class_row, no_result, scalar_row

T = TypeVar("T")
N = TypeVar("N", bound=NamedTuple)
_NAME = re.compile(r"^-- name: ([a-z_]+)\s*$", re.MULTILINE)


def load(package: str, filename: str) -> dict[str, LiteralString]:
    """Statements of a `-- name: x` file, by name, without their comment lines.

    Comments are dropped because the driver does not know SQL comments: a placeholder written in one
    would be taken as a parameter.
    """
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    parts = _NAME.split(text)  # [preamble, name1, body1, name2, body2, ...]
    queries = {name: _without_comments(body) for name, body in zip(parts[1::2], parts[2::2], strict=True)}
    if len(queries) != len(parts) // 2:
        raise RuntimeError(f"{filename} names a statement twice")
    return queries


def _without_comments(body: str) -> LiteralString:
    # Every statement comes from our own package's .sql files, never from user input: it is literal SQL.
    return "\n".join(line for line in body.strip().splitlines() if not line.lstrip().startswith("--"))


async def scalar(
    conn: AsyncConnection[Any], query: LiteralString, params: Mapping[str, Any] | None = None
) -> Any:
    """The first column of the statement's first row; None when there is no row (or the value is NULL)."""
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(query, params)
    return await cur.fetchone()


async def scalars(
    conn: AsyncConnection[Any], query: LiteralString, params: Mapping[str, Any] | None = None
) -> list[Any]:
    """The first column of each of the statement's rows."""
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(query, params)
    return await cur.fetchall()


async def one(
    conn: AsyncConnection[Any], cls: type[T], query: LiteralString, params: Mapping[str, Any] | None = None
) -> T | None:
    """The statement's first row as a `cls` (a dataclass whose fields the columns are named after)."""
    cur = conn.cursor(row_factory=class_row(cls))
    await cur.execute(query, params)
    return await cur.fetchone()


async def every(
    conn: AsyncConnection[Any], cls: type[T], query: LiteralString, params: Mapping[str, Any] | None = None
) -> list[T]:
    """The statement's rows, each a `cls` (a dataclass whose fields the columns are named after)."""
    cur = conn.cursor(row_factory=class_row(cls))
    await cur.execute(query, params)
    return await cur.fetchall()


def named_row(cls: type[N]) -> AsyncRowFactory[N]:
    """Rows as `cls`, a NamedTuple whose fields are the statement's columns, by name and in their order.

    The names are checked once a statement, against the columns the server describes: a column added,
    dropped, renamed or moved is an error, never a value in another field. Each row is then made from
    its values without the dict `class_row` builds for a dataclass's keywords, a third of the time of
    reading a page of an export.
    """
    fields = list(cls._fields)

    def maker(cursor: AsyncCursor[Any]) -> RowMaker[N]:
        if cursor.description is None:
            return no_result
        columns = [column.name for column in cursor.description]
        if columns != fields:
            raise TypeError(f"{cls.__name__} reads the columns {fields}, the statement has {columns}")
        return cls._make

    return maker
