"""The `command` node: a template registered for a server, sent to that server's agent as an argv.

The agent protocol: a POST of JSON to the server's agent URL, with the server's token (from the secret
store) as a bearer token and the effect key as `Idempotency-Key` (also in the body, for agents that keep
their own log):

    {"key": "fy-12-7-...", "run": 12, "node": "restart", "visit": 7,
     "server": "web-1", "template": "restart-service", "argv": ["systemctl", "restart", "nginx"]}

`argv` is the template's vector with the node's typed arguments in place, each element one argument:
the agent executes it as is (execve), never through a shell. Before anything is sent, the author of the
run's flow version must still hold `use_server` on the server (`server_use_refused`), the template must
exist for that server (`action_template_missing`) and the arguments must fit its types
(`command_args_invalid`); a node with a free `command` line, saved before templates were required, is
`command_line_refused`. An answer with a status outside 2xx is `http_status_error`; a JSON answer with a
non-zero `exit_code` is `command_exit_nonzero`. The agent URL was set by an admin, so it may be private
(agents usually are) and is not checked against the destination guard; a redirect from an agent is not
followed (it would carry the token elsewhere).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from psycopg_pool import AsyncConnectionPool

from backend.actions import servers
from backend.actions.command_rights import may_send
from backend.actions.failures import ActionFailure
from backend.actions.secret_store import SecretStore
from backend.actions.templates import build_argv
from backend.actions.transport import Exchange, HttpSender
from backend.walker.redact import redact_output


async def send_command(
    config: Mapping[str, Any],
    key: str,
    where: tuple[int, str, int],
    pool: AsyncConnectionPool[Any],
    store: SecretStore,
    sender: HttpSender,
    timeout_s: float,
) -> dict[str, Any]:
    """Send the command; `where` is (run, node, visit), told to the agent for its log."""
    if "command" in config:
        raise ActionFailure(code="command_line_refused")
    name, template = str(config.get("server")), str(config.get("template"))
    run_id, node, visit = where
    async with pool.connection() as conn:
        if not await may_send(conn, run_id, name):
            raise ActionFailure(code="server_use_refused", server=name)
        spec = await servers.template(conn, name, template)
        if spec is None:
            raise ActionFailure(code="action_template_missing", template=template, server=name)
        argv = build_argv(spec, config.get("args"))
        agent = await servers.agent(conn, store, name)
    if agent is None:
        raise ActionFailure(code="action_server_missing", server=name)
    body = {
        "key": key,
        "run": run_id,
        "node": node,
        "visit": visit,
        "server": name,
        "template": template,
        "argv": argv,
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
    # An agent that echoes its request would hand its token to the flow: it never gets that far.
    output = redact_output(
        {"server": agent.name, "status": answer.status, "body": answer.body}, frozenset({agent.token})
    )
    if not 200 <= answer.status < 300:
        raise ActionFailure(code="http_status_error", **output)
    exit_code = answer.body.get("exit_code") if isinstance(answer.body, dict) else None
    if isinstance(exit_code, int) and exit_code != 0:
        raise ActionFailure(code="command_exit_nonzero", exit_code=exit_code, **output)
    return output
