"""When the pause a walk ended at falls due: a delay's duration or moment, an approval's first reminder,
escalation or deadline, an event's timeout; each worked out before anything is written.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from backend.graph.durations import check_moment, parse_duration, parse_moment
from backend.queue.walked import WaitFailed, Wake
from backend.walker import ApprovalRequest, DelayRequest, EventRequest, Request


def wake_of(request: Request | None) -> Wake:
    """When the pause a walk ended at falls due, worked out before anything is written: a delay's `until`
    that is no time fails here, as a resume failure with its reason, never inside the outcome's write.

    Examples:
        >>> from backend.walker import DelayRequest
        >>> wake_of(DelayRequest(node="d", visit=2, duration="PT1H", until=None)).after
        datetime.timedelta(seconds=3600)
        >>> wake_of(DelayRequest(node="d", visit=2, duration=None, until="2031-05-01T09:00:00")).at
        datetime.datetime(2031, 5, 1, 9, 0, tzinfo=datetime.timezone.utc)
    """
    if isinstance(request, DelayRequest):
        if request.duration is not None:
            return Wake(kind="delay", after=_duration(request.duration, request.node))
        return Wake(kind="delay", at=_timestamp(request.until, request.node))
    if isinstance(request, ApprovalRequest):
        deadline = _duration(request.deadline, request.node) if request.deadline else None
        # The first of the deadline, a reminder and an escalation; the approval owes the rest when woken.
        times = [
            _duration(after, request.node)
            for after in (*request.remind_after, request.escalate_after)
            if after
        ]
        first = min([*times, deadline] if deadline else times, default=None)
        return Wake(kind="approval", after=first, deadline=deadline)  # none of them: 'infinity'
    if isinstance(request, EventRequest):  # wait_event: due at its timeout, or when an event answers it
        return Wake(kind="event", after=_duration(request.timeout, request.node) if request.timeout else None)
    raise WaitFailed(code="wait_corrupt", request=type(request).__name__)


def _duration(text: str, node: str) -> timedelta:
    try:
        return parse_duration(text)
    except ValueError:
        raise WaitFailed(code="duration_invalid", node=node, duration=text) from None


def _timestamp(text: str | None, node: str) -> datetime:
    """A delay's `until`: ISO 8601; a time without an offset is UTC, as everywhere in our API.

    No further ahead than a duration may be (3,660 days): the validator holds a literal `until` to that,
    this holds a template's."""
    try:
        moment = parse_moment(text or "")
    except ValueError:
        raise WaitFailed(code="delay_until_invalid", node=node, until=text) from None
    try:
        check_moment(moment, datetime.now(UTC))
    except ValueError:
        raise WaitFailed(code="duration_invalid", node=node, duration=text) from None
    return moment
