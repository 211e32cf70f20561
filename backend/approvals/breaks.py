"""What the audit chain proves wrong: a break, with its reason code; chain.py finds them in the records,
signing.py in the signed heads that the records contradict.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

# What a record (and so a break) is of: a decision, a vote, or a change of rights.
RecordKind = Literal["decision", "vote", "rights"]


@dataclass(frozen=True, slots=True)
class Break:
    """Something the chain proves wrong, with its reason code."""

    code: str
    chain: str
    seq: int | None = None
    kind: RecordKind | None = None
    ref_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
