"""An approval row as the inbox, the run page and the audit show it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Approval:
    id: int
    run_id: int
    flow_id: int
    version: int
    node: str
    visit: int
    title: str
    explanation: str
    approvers: list[str]
    deadline_at: datetime | None
    on_timeout: str | None
    requested_at: datetime
    outcome: str | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None
    started_by: str | None = None

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> Approval:
        return cls(*row)

    def to_json(self) -> dict[str, Any]:
        """JSON with times in UTC, ISO 8601."""
        data = asdict(self)
        for key in ("deadline_at", "requested_at", "decided_at"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        return data
