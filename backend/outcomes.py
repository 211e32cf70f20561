"""The outcomes an approval keeps for good (the `approvals_final` CHECK of its table), named once.

The queue resumes a run from them and the approvals write and read them, and neither imports the other's
side for it: the queue imports nothing of the approvals, and the approvals' product side (what a person
does through the API and the terminal) nothing of the queue. Both take the names from here.
"""

from __future__ import annotations

from typing import Literal

FinalOutcome = Literal[
    "approved",
    "rejected",
    "timed_out_approved",
    "timed_out_rejected",
    "skipped",
    "cancelled",
    "run_failed",
    "branch_cancelled",
]
