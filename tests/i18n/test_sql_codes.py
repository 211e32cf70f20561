"""A reason code a SQL function returns (`RETURN QUERY SELECT 'decide_right_missing', ...` in a migration)
is said by a sentence only if the catalogs' extractor, which reads Python, finds it written in Python too:
otherwise the next `make catalogs` marks its sentence obsolete and the reader sees the bare code. Found once:
the decision's refusals after they moved into `decide_approval` (migration 0028)."""

from __future__ import annotations

import re
from pathlib import Path

from backend.i18n.codes import codes_in

BACKEND = Path(__file__).resolve().parents[2] / "backend"
# What a function returns that is no refusal a person reads: the caller answers it itself.
NOT_SAID = {"closed"}


def sql_codes() -> dict[str, str]:
    """Each code a migration's functions return as their first column, with the file that returns it."""
    found: dict[str, str] = {}
    for path in sorted((BACKEND / "store" / "migrations_sql").glob("*.sql")):
        for code in re.findall(r"RETURN QUERY SELECT '([a-z][a-z0-9_]*)'", path.read_text("utf-8")):
            found.setdefault(code, path.name)
    return found


def test_every_code_a_sql_function_returns_is_written_in_python_where_the_extractor_finds_it() -> None:
    written = {
        use.code
        for path in BACKEND.rglob("*.py")
        for use in codes_in(path.read_text("utf-8"), path.relative_to(BACKEND.parent).as_posix())
    }
    returned = sql_codes()
    assert len(returned) >= 5, "the decision's refusals at least"
    missing = {code: name for code, name in returned.items() if code not in written and code not in NOT_SAID}
    assert missing == {}
