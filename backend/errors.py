"""The one root of every refusal and coded failure: a reason code and the parameters its sentence needs.

Every package's refusal (`AccountRefused`, `ScheduleInvalid`, `StoreError`, `WalkFailure`, `ApiError`...)
subclasses `CodedError`, so the code and its parameters are kept one way, and whatever shows a refusal to a
person takes any of them: the CLI's `backend.console.refuse(error)` prints one line, the API's
`error_response(error, locale)` answers JSON in the reader's language.

This module imports nothing of the project's, so every package may raise one. The code is passed as the
keyword `code=`, as a string literal, where the error is raised: that is where the catalog guard
(`backend.i18n.codes`) reads it, so every code raised has a sentence in every catalog.

Examples:
    >>> refused = CodedError(code="flow_not_found", flow=7)
    >>> refused.code, refused.params, str(refused)
    ('flow_not_found', {'flow': 7}, 'flow_not_found')
"""

from __future__ import annotations

from typing import Any, ClassVar


class CodedError(Exception):
    """A reason code and the parameters its catalog sentence is filled with."""

    # The HTTP status the API answers a refusal of this class with when its handler did not translate it
    # (ApiError says its own). None: not a refusal a client can cause but a failure of ours, which the API
    # logs with its traceback and answers 500 internal_error, its parameters kept from the client.
    status: ClassVar[int | None] = None

    def __init__(self, *, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def detail(self) -> dict[str, Any]:
        """The parameters, under the name the walker and the actions gave them first."""
        return self.params
