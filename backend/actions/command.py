"""The `command` node: a command sent to a registered server's agent, which runs it and answers.

The agent protocol: a POST of JSON to the server's agent URL, with the server's token as a bearer token
and the effect key as `Idempotency-Key` (also in the body, for agents that keep their own log):

    {"key": "fy-12-7-...", "run": 12, "node": "restart", "visit": 7,
     "template": "restart-service" or null, "command": "systemctl restart {service}", "args": {...}}

`args` go to the agent as given, never spliced into the command line here: the agent substitutes them
into an argument vector, so a value with a space or a `;` stays one argument. An answer with a status outside
2xx is `http_status_error`; a JSON answer with a non-zero `exit_code` is `command_exit_nonzero`.
The agent URL was set by an admin, so it may be private (agents usually are) and is not checked against
the destination guard; a redirect from an agent is not followed (it would carry the token elsewhere).

Examples:
    >>> command_args(["-v", "now"]), command_args({"service": "nginx"}), command_args(None)
    (['-v', 'now'], {'service': 'nginx'}, [])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from psycopg_pool import AsyncConnectionPool

from backend.actions import servers
from backend.actions.failures import ActionFailure
from backend.actions.transport import Exchange, HttpSender


async def send_command(
    config: Mapping[str, Any],
    key: str,
    where: tuple[int, str, int],
    pool: AsyncConnectionPool[Any],
    sender: HttpSender,
    timeout_s: float,
) -> dict[str, Any]:
    """Send the command; `where` is (run, node, visit), told to the agent for its log."""
    name = config.get("server")
    template = config.get("template")
    async with pool.connection() as conn:
        agent = await servers.agent(conn, str(name))
        command = config.get("command")
        if template is not None:
            command = await servers.template_command(conn, str(template))
            if command is None:
                raise ActionFailure(code="action_template_missing", template=str(template))
    if agent is None:
        raise ActionFailure(code="action_server_missing", server=str(name))
    if not isinstance(command, str) or not command:
        raise ActionFailure(code="action_config_invalid", field="command", detail="not text")
    run_id, node, visit = where
    body = {
        "key": key,
        "run": run_id,
        "node": node,
        "visit": visit,
        "template": template,
        "command": command,
        "args": command_args(config.get("args")),
    }
    exchange = Exchange(
        method="POST",
        url=agent.url,
        headers={
            "Authorization": f"Bearer {agent.token}",
            "Content-Type": "application/json",
            "Idempotency-Key": key,
        },
        content=json.dumps(body, ensure_ascii=False).encode(),
        timeout_s=timeout_s,
        follow=None,
    )
    answer = await sender.send(exchange)
    output = {"server": agent.name, "status": answer.status, "body": answer.body}
    if not 200 <= answer.status < 300:
        raise ActionFailure(code="http_status_error", **output)
    exit_code = answer.body.get("exit_code") if isinstance(answer.body, dict) else None
    if isinstance(exit_code, int) and exit_code != 0:
        raise ActionFailure(code="command_exit_nonzero", exit_code=exit_code, **output)
    return output


def command_args(args: Any) -> list[Any] | dict[str, Any]:
    """The node's `args` as sent: a list or an object of rendered values; none is an empty list."""
    if args is None:
        return []
    if isinstance(args, list):
        return args
    if isinstance(args, Mapping):
        return dict(args)
    raise ActionFailure(code="action_config_invalid", field="args", detail="not a list or an object")
