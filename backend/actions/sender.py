"""The worker's action sender: each action visit through the effects log, sent at most once per try.

    open the visit's row (committed)  ->  the outcome that stands, given back; nothing leaves
                                      ->  or a new try under the row's key:
    send (http, notify or command)    ->  an output, or an ActionFailure (the error port's output)
    fault point after_action_sent     ->  a test kills the worker here: sent, outcome not written
    complete the row                  ->  first result wins; the outcome that stands is the answer

An http try given up at its timeout writes `action_timeout` at once; its request is listened to until the
try's deadline in a task of its own, and an answer then is kept with the effect as late
(`EffectLog.keep_late`), changing nothing else.

`perform` raises only when it cannot tell how the action went: the database failed, or the try's
outcome could not be written and none stands. The row then has no outcome, and the next try of the
walk sends again under the same key.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from time import perf_counter
from typing import Any

from psycopg_pool import AsyncConnectionPool

from backend.actions.command import send_command
from backend.actions.destinations import Destinations, Resolver, system_resolver
from backend.actions.effects import EffectLog, Opened
from backend.actions.failures import ActionFailure
from backend.actions.http import answered, send_http
from backend.actions.notify import send_notify
from backend.actions.secret_store import SecretStore
from backend.actions.settings import ActionSettings
from backend.actions.shown import check_place, secret_headers, written_pairs, written_url
from backend.actions.transport import Answer, HttpSender, LateAnswer
from backend.faults import Faults
from backend.observability import events
from backend.queue.claims import ClaimLost
from backend.queue.ports import StillOurs
from backend.walker import ActionRequest, Resume
from backend.walker.redact import redact_output, replace_texts
from backend.walker.secret_refs import fill, secret_names


class ActionSender:
    """Implements the driver's `Actions`: `Worker(pool, actions=ActionSender(pool, settings))`.

    The pool must have a connection to spare beyond the worker's walks (each walk holds one while it
    runs; a try borrows another for a moment before and after it sends).
    """

    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        settings: ActionSettings | None = None,
        *,
        faults: Faults | None = None,
        resolver: Resolver = system_resolver,
        secrets: SecretStore | None = None,
    ) -> None:
        self.pool = pool
        self.settings = settings or ActionSettings()
        self.secrets = secrets or SecretStore.from_settings(self.settings)
        self.faults = faults or Faults()
        self.effects = EffectLog(pool)
        limit = self.settings.max_response_bytes
        self.guarded = HttpSender(Destinations(self.settings.allow, resolver), limit)
        self.agents = HttpSender(Destinations(resolver=resolver, guarded=False), limit)

    async def perform(
        self,
        run_id: int,
        request: ActionRequest,
        still_ours: StillOurs | None = None,
        *,
        again: bool = False,
    ) -> Resume:
        # An attempt's deadline: its own timeout plus a margin. Past it, its answer is late and ignored.
        allow_s = action_timeout(request.config, self.settings.timeout_s) + self.settings.attempt_margin_s
        opened = await self.effects.open(run_id, request, allow_s, again=again)
        while opened.wait_s is not None:
            # An abandoned try may still be in flight: the next one waits until its deadline has passed
            # (the walk's claim is renewed meanwhile; a cancel meanwhile ends it here).
            await asyncio.sleep(opened.wait_s)
            if still_ours is not None and not await still_ours():
                raise ClaimLost(request.visit)  # cancelled meanwhile: nothing leaves
            opened = await self.effects.open(run_id, request, allow_s, again=again)
        if opened.attempt is None:
            assert opened.outcome is not None
            return Resume(request.node, request.visit, opened.outcome, opened.output)
        opened_values: dict[str, str] = {}
        config = request.config

        started = perf_counter()
        try:
            if request.secrets:
                check_place(request)
                # Opened now, for this try only: the values live in this frame and the request in flight.
                async with self.pool.connection() as conn:
                    opened_values = await self.secrets.reveal(conn, secret_names(request.secrets))
                config = fill(config, request.secrets, opened_values)
            late = self._late(run_id, request, opened, config, opened_values)
            output, outcome = await self._send(run_id, request, config, opened.key, late), "out"
        except ActionFailure as failure:
            output, outcome = failure.output(), "error"
        output = self._redacted(request, config, opened_values, output)

        events.action_sent(request, outcome, started, output)
        await self.faults.reach("after_action_sent")
        outcome, output = await self.effects.complete(run_id, request, opened, outcome, output)
        return Resume(request.node, request.visit, outcome, output)

    @staticmethod
    def _redacted(
        request: ActionRequest, config: dict[str, Any], opened: dict[str, str], output: dict[str, Any]
    ) -> dict[str, Any]:
        if request.secrets:
            # What the action quotes of a config text a secret went into, it quotes as written.
            output = replace_texts(output, written_pairs(request, config))
        # The second net: a value that came from a secret, echoed by a server or quoted in an error,
        # never reaches the effects log, the journal or the variables.
        return redact_output(output, frozenset(opened.values()))

    def _late(
        self,
        run_id: int,
        request: ActionRequest,
        opened: Opened,
        config: dict[str, Any],
        opened_values: dict[str, str],
    ) -> LateAnswer:
        """What keeps an answer that came after this try was given up at its timeout: with the effect
        (`late_results`), redacted like any output, journaled; nothing else of the run changes."""

        async def keep(answer: Answer) -> None:
            outcome, output = answered(answer)
            output = self._redacted(request, config, opened_values, output)
            await self.effects.keep_late(run_id, request, opened, outcome, output)

        return keep

    async def _send(
        self,
        run_id: int,
        request: ActionRequest,
        config: dict[str, Any],
        key: str,
        late: LateAnswer | None = None,
    ) -> dict[str, Any]:
        settings = self.settings
        timeout_s = action_timeout(config, settings.timeout_s)
        shown_url = written_url(request)
        if request.type == "http":
            # Given up at its timeout, the request is still listened to until the try's deadline (the
            # margin): an answer then is kept aside as late, and no next try can start before it.
            return await send_http(
                config,
                key,
                self.guarded,
                timeout_s=timeout_s,
                max_redirects=settings.max_redirects,
                shown_url=shown_url,
                secret_headers=secret_headers(request),
                late=late,
                late_s=settings.attempt_margin_s,
            )
        if request.type == "notify":
            return await send_notify(
                config, key, self.guarded, settings, timeout_s=timeout_s, shown_url=shown_url
            )
        if request.type == "command":
            where = (run_id, request.node, request.visit)
            return await send_command(config, key, where, self.pool, self.secrets, self.agents, timeout_s)
        raise ActionFailure(code="action_type_unknown", type=request.type)


def action_timeout(config: Mapping[str, Any], cap_s: float) -> float:
    """The node's `timeout_s`, capped by the operator's FLOWYARD_ACTIONS_TIMEOUT_S; the cap without one.

    The cap is the operator's: a flow's author may ask for less time, never for more.

    Examples:
        >>> action_timeout({"timeout_s": 2}, 30.0), action_timeout({"timeout_s": 300}, 30.0)
        (2.0, 30.0)
        >>> action_timeout({}, 30.0)
        30.0
    """
    asked = config.get("timeout_s")
    if isinstance(asked, int | float) and not isinstance(asked, bool) and asked > 0:
        return min(float(asked), cap_s)
    return cap_s
