"""The editor's keys: every `ui_<area>_<thing>` string literal in frontend/src, so the guard holds the
editor's strings to the same nine catalogs as the backend's codes (docs/i18n.md, "The editor's keys").

A key is a whole quoted literal, `t('ui_flows_title')` or `title: "ui_nav_runs"` alike, because
components pass keys around before they translate them. A key built at run time (`ui_language_${x}`)
cannot be checked, so the guard refuses it: write the keys out.

Examples:
    >>> [use.code for use in keys_in("t('ui_login_title'); x = \\"ui_nav_runs\\"; y = 'ui'")]
    ['ui_login_title', 'ui_nav_runs']
    >>> built_in("t(`ui_language_${locale}`)")
    [1]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from backend.i18n.codes import BACKEND_DIR, Use

FRONTEND_SRC = BACKEND_DIR.parent / "frontend" / "src"
_KEY = re.compile(r"""(['"])(ui_[A-Za-z0-9_]+)\1""")
_BUILT = re.compile(r"`ui_[^`]*\$\{")
_SUFFIXES = (".ts", ".tsx")


def keys_in(source: str, path: str = "<source>") -> list[Use]:
    """The keys written as string literals in one TypeScript source text, in the order of the file."""
    return [
        Use(match.group(2), path, source.count("\n", 0, match.start()) + 1, None)
        for match in _KEY.finditer(source)
    ]


def built_in(source: str) -> list[int]:
    """The lines where a key is built from a template literal."""
    return [source.count("\n", 0, match.start()) + 1 for match in _BUILT.finditer(source)]


def _sources(root: Path) -> Iterator[Path]:
    if root.is_dir():
        yield from sorted(
            p for p in root.rglob("*") if p.suffix in _SUFFIXES and not p.name.endswith(".d.ts")
        )


def ui_keys(root: Path = FRONTEND_SRC) -> dict[str, list[Use]]:
    """Every key the editor's source uses, with where."""
    found: dict[str, list[Use]] = {}
    for path in _sources(root):
        relative = str(path.relative_to(root.parents[1]))
        for use in keys_in(path.read_text(encoding="utf-8"), relative):
            found.setdefault(use.code, []).append(use)
    return found


def built_keys(root: Path = FRONTEND_SRC) -> list[str]:
    """`path:line` of every key built at run time: the guard fails on each."""
    return [
        f"{path.relative_to(root.parents[1])}:{line}"
        for path in _sources(root)
        for line in built_in(path.read_text(encoding="utf-8"))
    ]
