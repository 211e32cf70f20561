"""The walker: a flow and a continuation in, the next continuation (or the end), journal and requests out.

Pure: no I/O, no clock, no database, no network. The driver (the queue's worker, or `flowyard walk`)
performs the requests and resumes the walk with their outcomes. See docs/walker.md.
"""

from backend.walker.continuation import VERSION
from backend.walker.errors import ContinuationInvalid, ResumeMismatch
from backend.walker.requests import ActionRequest, ApprovalRequest, DelayRequest, EventRequest, Request
from backend.walker.sizes import Limits
from backend.walker.step import JournalLine, Resume, Status, Step
from backend.walker.templates import MISSING, render
from backend.walker.walk import PASS_LIMIT, VISIT_LIMIT, walk

__all__ = [
    "MISSING",
    "PASS_LIMIT",
    "VERSION",
    "VISIT_LIMIT",
    "ActionRequest",
    "ApprovalRequest",
    "ContinuationInvalid",
    "DelayRequest",
    "EventRequest",
    "JournalLine",
    "Limits",
    "Request",
    "Resume",
    "ResumeMismatch",
    "Status",
    "Step",
    "render",
    "walk",
]
