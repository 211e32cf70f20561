"""Rights checked per route. Reading a flow, its runs and journals takes any right on it; writing takes
the right that names the act. Deciding is checked by the approvals package itself, never here alone.
"""

from __future__ import annotations

from backend.api.endpoint import Call
from backend.api.errors import ApiError
from backend.people.accounts import can_read, has_right


async def require(call: Call, right: str, flow_id: int | None = None) -> None:
    if not await has_right(call.conn, call.me.name, right, flow_id):
        raise ApiError(403, code="right_missing", detail={"right": right}, right=right)


async def require_read(call: Call, flow_id: int) -> None:
    """Any right on the flow; a flow the user may not read is answered as one that does not exist."""
    if not await can_read(call.conn, call.me.name, flow_id):
        raise ApiError(404, code="flow_not_found")
