"""Every named statement's plan is checked: each file of named statements under backend/ is planned whole
by one of the packages' test_plans.py (each statement explained at scale, or listed there as reading a
small table whole), or is named below as read whole by design. A new file, or a name a plan test does not
reach, fails here."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from backend.actions.queries import QUERIES as ACTIONS
from backend.queue.queries import QUERIES as QUEUE
from backend.store.queries import load
from tests.approvals import test_plans as approvals
from tests.events import test_plans as events
from tests.store.named import BACKEND, sql_files


def _named(statements: Iterable[str], prefix: str) -> set[str]:
    return {name.removeprefix(f"{prefix}.") for name in statements if name.startswith(f"{prefix}.")}


# Each file, and the names its plan test explains (`package.name` keys where a test plans several files).
# tests/actions/test_plans.py and tests/queue/test_plans.py plan every name of their package's file.
CHECKED: dict[str, set[str]] = {
    "actions/queries.sql": set(ACTIONS),
    "queue/queries.sql": set(QUEUE),
    "approvals/queries.sql": _named(approvals.STATEMENTS, "approvals") | approvals.SMALL,
    "approvals/evidence.sql": _named(approvals.STATEMENTS, "evidence"),
    "approvals/verified.sql": _named(approvals.STATEMENTS, "verified"),
    "approvals/heads_mail.sql": _named(approvals.STATEMENTS, "heads_mail"),
    "flows/queries.sql": _named(approvals.STATEMENTS, "flows"),
    "people/queries.sql": _named(approvals.STATEMENTS, "people"),
    "observability/queries.sql": _named(approvals.STATEMENTS, "observability")
    & _named(events.STATEMENTS, "observability"),
    "events/queries.sql": _named(events.STATEMENTS, "events"),
    "queue/run_page.sql": _named(events.STATEMENTS, "run_page"),
}
# Verifying the chained trail reads every record once, by design: it runs on an auditor's request or the
# CLI, never on a hot path, and pages through the chain (docs/audit.md).
READ_WHOLE_BY_DESIGN = {"approvals/chain.sql"}


def test_every_file_of_named_statements_has_its_plans_checked() -> None:
    files = {path.relative_to(BACKEND).as_posix() for path in sql_files()}
    assert files == set(CHECKED) | READ_WHOLE_BY_DESIGN


@pytest.mark.parametrize("file", sorted(CHECKED))
def test_every_name_of_a_file_is_planned(file: str) -> None:
    package, _, filename = file.rpartition("/")
    assert set(load(f"backend.{package}", filename)) - CHECKED[file] == set()
