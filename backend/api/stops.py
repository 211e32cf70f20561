"""A stopped run, taken on by a person with the run right: resume it (on a newer version if asked), or end
it as failed. See backend/queue/stops.py."""

from __future__ import annotations

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.rights import require
from backend.api.runs import _readable_run
from backend.approvals.queue_port import ApprovalsPort
from backend.queue.stops import StopRefused, end_run, resume_run

_STATUS = {"run_not_found": 404, "run_version_not_found": 404}
RESUMED = {
    "type": "object",
    "required": ["run", "status", "version"],
    "properties": {
        "run": {"type": "integer"},
        "status": {"const": "waiting"},
        "version": {"type": "integer"},
    },
}


RESUME_BODY = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"version": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}},
}


def refusal(refused: StopRefused) -> ApiError:
    """A resume's or an end's refusal as the API answers it (its preview's too)."""
    return ApiError(
        _STATUS.get(refused.code, 409), code=refused.code, detail=refused.params, **refused.params
    )


@endpoint(
    "POST",
    "/api/runs/{run_id:int}/resume",
    summary="Resume a stopped run at the node it stopped at, on its version or a newer one",
    tag="runs",
    body=RESUME_BODY,
    responses={200: RESUMED, 404: None, 409: None},
)
async def resume(call: Call) -> Response:
    run = await _readable_run(call)
    await require(call, "run", run.flow_id)
    try:
        version = await resume_run(call.conn, run.id, by=call.me.name, version=call.body.get("version"))
    except StopRefused as refused:
        raise refusal(refused) from None
    return reply({"run": run.id, "status": "waiting", "version": version})


@endpoint(
    "POST",
    "/api/runs/{run_id:int}/end",
    summary="End a stopped run as failed",
    tag="runs",
    responses={200: {"type": "object", "required": ["run", "status"]}, 404: None, 409: None},
)
async def end(call: Call) -> Response:
    run = await _readable_run(call)
    await require(call, "run", run.flow_id)
    try:
        await end_run(call.conn, run.id, by=call.me.name, approvals=ApprovalsPort())
    except StopRefused as refused:
        raise refusal(refused) from None
    return reply({"run": run.id, "status": "failed"})
