"""A Babel extractor for reason codes, so that `pybabel extract` writes the template from the source.

babel.cfg maps `backend/**.py` to `extract_reason_codes`. Each code found by the rules of `codes.py`
becomes a message whose msgid is the code; the module that defines the node types' `PORTS` also gives
the keys of the node type names, descriptions and port names. The English sentence, when there is one,
goes along as an extracted comment (`#.` in the `.po` files), so that a translator whose msgid is
`cycle` sees what to translate.

Examples:
    >>> from io import BytesIO
    >>> source = b'raise StoreError(code="database_unreachable", host=h)\\nPORTS = {"end": ()}\\n'
    >>> for line, _, key, comments in extract_reason_codes(BytesIO(source), [], [], {}):
    ...     print(line, key, comments)
    1 database_unreachable ['English: The database at {host} cannot be reached.']
    2 node_type_end ['English: End']
    2 node_type_end_description ['English: Ends the run at once.']
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from backend.i18n.catalogs import DEFAULT_LOCALE, catalog
from backend.i18n.codes import codes_in, node_type_keys
from backend.i18n.ui_keys import keys_in

PORTS_NAME = "PORTS"


def extract_reason_codes(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction interface: `(line, funcname, message, comments)` for each key in one file.

    `funcname` is None, so Babel takes the message as it is; `keywords` and `comment_tags` do not apply
    to codes, which are found by where they are written, not by the function they are passed to.
    """
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    path = str(getattr(fileobj, "name", "<source>"))
    english = catalog(DEFAULT_LOCALE)

    def comments(key: str) -> list[str]:
        return [f"English: {english[key]}"] if key in english else []

    for use in codes_in(source, path):
        yield use.line, None, use.code, comments(use.code)
    found = ports_literal(source)
    if found is not None:
        line, ports = found
        for key in node_type_keys(ports):
            yield line, None, key, comments(key)


def ports_literal(source: str) -> tuple[int, dict[str, tuple[str, ...]]] | None:
    """The line and value of a module-level `PORTS = {...}` literal in `source`, or None when none is.

    The extractor reads the source, as the rest of extraction does; the guard test holds the result
    to `backend.node_types.PORTS` as imported, so the two cannot drift apart unnoticed.
    """
    for statement in ast.parse(source).body:
        target: ast.expr
        if isinstance(statement, ast.AnnAssign):
            target, value = statement.target, statement.value
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == PORTS_NAME and value is not None:
            ports = ast.literal_eval(value)
            return statement.lineno, {str(name): tuple(names) for name, names in ports.items()}
    return None


def extract_ui_keys(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """The same interface for the editor's TypeScript: each `ui_` key literal (backend/i18n/ui_keys.py)."""
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    english = catalog(DEFAULT_LOCALE)
    for use in keys_in(source):
        yield use.line, None, use.code, [f"English: {english[use.code]}"] if use.code in english else []
