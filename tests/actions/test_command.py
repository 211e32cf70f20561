"""Command nodes: sent to a registered server's agent with its token; missing servers and templates."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import psycopg

from backend.actions import ActionSettings, servers
from tests.actions.servers import RecordingServer, Reply
from tests.actions.support import drain, effects, journal_data
from tests.support import Queue, flow


def admin(
    queue: Queue, *, server: tuple[str, str] | None = None, template: tuple[str, str] | None = None
) -> None:
    async def go() -> None:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            if server is not None:
                await servers.save_server(conn, server[0], server[1], "agent-token-1", by="test")
            if template is not None:
                await servers.save_template(conn, template[0], template[1], by="test")

    queue.run(go)


def command_flow(error_port: bool = False, **config: Any) -> dict[str, Any]:
    wires = [{"from": "start", "to": "cmd"}, {"from": "cmd", "to": "ok"}]
    if error_port:
        wires.append({"from": "cmd", "port": "error", "to": "handle"})
    return flow(
        {"id": "cmd", "type": "command", "config": config},
        {"id": "ok", "type": "log", "config": {"message": "exit {{cmd.body.exit_code}} {{cmd.body.stdout}}"}},
        {"id": "handle", "type": "log", "config": {"message": "{{cmd.code}}"}},
        wires=wires,
    )


def logged(queue: Queue, run_id: int) -> list[str]:
    return [data["message"] for data in journal_data(queue, run_id, "log_written")]


def test_a_template_and_its_args_go_to_the_agent_with_the_token_and_the_key(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/run"] = lambda _r: Reply(200, b'{"exit_code": 0, "stdout": "restarted"}')
    admin(queue, server=("web-1", f"{receiver.url}/run"), template=("restart", "systemctl restart {service}"))
    document = command_flow(server="web-1", template="restart", args={"service": "{{trigger.service}}"})
    run_id = queue.start(queue.save(document), input={"service": "nginx"})

    drain(queue, settings=ActionSettings())  # an admin's agent URL is not held to the destination guard

    assert queue.status(run_id) == ("succeeded", None)
    [received] = receiver.received
    [row] = effects(queue, run_id)
    assert received.headers["authorization"] == "Bearer agent-token-1"
    assert received.headers["idempotency-key"] == row["key"]
    sent = received.json()
    assert (sent["command"], sent["template"], sent["args"]) == (
        "systemctl restart {service}",
        "restart",
        {"service": "nginx"},
    )
    assert (sent["key"], sent["run"], sent["node"]) == (row["key"], run_id, "cmd")
    assert logged(queue, run_id) == ["exit 0 restarted"]
    assert "agent-token-1" not in str(row), "the token is not in the effects log"


def test_a_non_zero_exit_code_is_an_error(queue: Queue, receiver: RecordingServer) -> None:
    receiver.routes["/run"] = lambda _r: Reply(200, b'{"exit_code": 3, "stderr": "no such unit"}')
    admin(queue, server=("web-2", f"{receiver.url}/run"))
    run_id = queue.start(queue.save(command_flow(True, server="web-2", command="false")))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["command_exit_nonzero"]
    [row] = effects(queue, run_id)
    assert row["output"]["exit_code"] == 3 and row["output"]["body"]["stderr"] == "no such unit"


def test_a_server_that_no_longer_exists_fails_the_run_with_its_code_after_the_retries(queue: Queue) -> None:
    run_id = queue.start(queue.save(command_flow(server="gone", command="uptime")))
    for minutes in (1, 2, 4, 8):
        drain(queue)
        assert queue.status(run_id) == ("waiting", None)
        queue.clock.advance(timedelta(minutes=minutes))
    drain(queue)

    assert queue.status(run_id) == ("failed", "resume_attempts_exhausted")
    failures = journal_data(queue, run_id, "resume_failed")
    assert [(f["attempt"], f["error"], f["server"]) for f in failures] == [
        (n, "action_server_missing", "gone") for n in range(1, 6)
    ]
    [row] = effects(queue, run_id)
    assert (row["attempts"], row["output"]["code"]) == (5, "action_server_missing")


def test_a_deleted_template_is_its_own_error_and_takes_the_error_port(
    queue: Queue, receiver: RecordingServer
) -> None:
    admin(queue, server=("web-3", receiver.url))
    run_id = queue.start(queue.save(command_flow(True, server="web-3", template="deleted")))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["action_template_missing"]
    assert receiver.received == []
