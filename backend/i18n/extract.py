"""A Babel extractor for reason codes, so that `pybabel extract` writes the template from the source.

babel.cfg maps `backend/**.py` to `extract_reason_codes`. Each code found by the rules of `codes.py`
becomes a message whose msgid is the code; the module that defines the node types' `PORTS` also gives
the keys of the node type names, descriptions and port names. The English sentence, when there is one,
goes along as an extracted comment (`#.` in the `.po` files), so that a translator whose msgid is
`cycle` sees what to translate, with where a reader meets it, what each placeholder holds and an
example (`context.py`).

Examples:
    >>> from io import BytesIO
    >>> source = b'raise StoreError(code="database_unreachable", host=h)\\nPORTS = {"end": ()}\\n'
    >>> found = {key: notes for _, _, key, notes in extract_reason_codes(BytesIO(source), [], [], {})}
    >>> list(found)
    ['database_unreachable', 'node_type_end', 'node_type_end_description']
    >>> found["database_unreachable"][0], found["node_type_end"][0]
    ('English: The database at {host} cannot be reached.', 'English: End')
    >>> found["database_unreachable"][-1]
    'Example: The database at db.example.com cannot be reached.'
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from functools import cache
from typing import IO, Any

from backend.i18n.catalogs import DEFAULT_LOCALE, catalog
from backend.i18n.codes import codes_in, node_type_keys
from backend.i18n.context import NODE_TYPE_SHOWN, key_notes, translator_comments
from backend.i18n.plurals import PLURALS
from backend.i18n.ui_keys import keys_in, ui_keys

Extracted = tuple[int, str | None, str | tuple[str, str], list[str]]

PORTS_NAME = "PORTS"


def extract_reason_codes(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Babel's extraction interface: `(line, funcname, message, comments)` for each key in one file.

    `funcname` is None, so Babel takes the message as it is; `keywords` and `comment_tags` do not apply
    to codes, which are found by where they are written, not by the function they are passed to. A
    counting key (`plurals.PLURALS`) goes as `ngettext`'s pair, so the template has a plural entry.
    """
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    path = _relative(str(getattr(fileobj, "name", "<source>")))
    for use in codes_in(source, path):
        yield _keyed(use.line, use.code, comments(use.code, path))
    found = ports_literal(source)
    if found is not None:
        line, ports = found
        for key in node_type_keys(ports):
            yield _keyed(line, key, comments(key, None))


def comments(key: str, path: str | None) -> list[str]:
    """The translator's comments on `key` used at `path` (None for a node type or port name)."""
    english = catalog(DEFAULT_LOCALE).get(key)
    lines = [f"English: {english}"] if english is not None else []
    if path is None:
        return [*lines, f"Shown: {NODE_TYPE_SHOWN}"]
    paths = _ui_paths().get(key, ()) if path.startswith("frontend/") else ()
    return lines + translator_comments(path, english, key, paths) + key_notes(key)


@cache
def _ui_paths() -> dict[str, tuple[str, ...]]:
    """Every file of frontend/src that uses each key, so that each use writes the same `Shown:` lines."""
    return {key: tuple(sorted({use.path for use in uses})) for key, uses in ui_keys().items()}


def _keyed(line: int, key: str, notes: list[str]) -> Extracted:
    if key in PLURALS:
        return line, "ngettext", (key, key), [*notes, f"Counts: {{{PLURALS[key]}}} picks the plural form"]
    return line, None, key, notes


def _relative(path: str) -> str:
    """A source path from the repository's root, as the `#:` lines write it.

    The root is a whole directory name: a checkout in `/work/wt-backend/` is not the `backend/` package.

    Examples:
        >>> _relative("/work/wt-backend/backend/walker/walk.py"), _relative("frontend/src/App.tsx")
        ('backend/walker/walk.py', 'frontend/src/App.tsx')
    """
    for root in ("backend/", "frontend/"):
        if path.startswith(root):
            return path
        at = path.find("/" + root)
        if at >= 0:
            return path[at + 1 :]
    return path


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
) -> Iterator[Extracted]:
    """The same interface for the editor's TypeScript: each `ui_` key literal (backend/i18n/ui_keys.py)."""
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    path = _relative(str(getattr(fileobj, "name", "frontend/src")))
    for use in keys_in(source):
        yield _keyed(use.line, use.code, comments(use.code, path))
