"""An action that did not come out: a reason code and its details, which become the node's error output.

Examples:
    >>> failure = ActionFailure(code="http_status_error", status=503)
    >>> output = failure.output()
    >>> output["code"], output["status"]
    ('http_status_error', 503)
"""

from __future__ import annotations

from typing import Any

from backend.errors import CodedError
from backend.i18n.catalogs import message


class ActionFailure(CodedError):
    """How an action failed, in words a flow can branch on (`{{fetch.code}}`) and a person can read."""

    def __init__(self, *, code: str, **detail: Any) -> None:
        # The driver passes an unwired error's output on as keywords next to `node`: never name one so.
        detail.pop("node", None)
        super().__init__(code=code, **detail)

    def output(self) -> dict[str, Any]:
        """`{"code", "message", **detail}`: what the node's `error` port sees and the journal keeps."""
        params = {key: value for key, value in self.detail.items() if not isinstance(value, dict | list)}
        return {"code": self.code, "message": message(self.code, "en", **params), **self.detail}


def config_type_refused(field: str, json_type: str) -> ActionFailure:
    """A setting of the node that is not of the JSON type the action needs (`problem_type` names it)."""
    detail = "not an object" if json_type == "object" else "not text"
    return ActionFailure(
        code="action_config_invalid", field=field, detail=detail, problem="problem_type", types=(json_type,)
    )
