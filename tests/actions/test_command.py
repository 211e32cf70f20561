"""Command nodes: a server's registered template, sent as an argv with the server's token from the store.

Flows are saved by `test`, who holds use_server on the servers these tests register, unless a test
takes the right away.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from backend.actions import ActionSettings, servers
from backend.actions.command_rights import CommandRefused
from backend.actions.secret_store import SecretStore
from backend.settings import Settings
from tests.actions.servers import RecordingServer, Reply
from tests.actions.support import drain, effects, journal_data
from tests.support import AsyncConnection, Queue, flow

UNIT = {"unit": {"type": "string", "pattern": "^[a-z][a-z0-9.-]*$"}}


def admin(
    queue: Queue,
    *,
    server: tuple[str, str] | None = None,
    template: tuple[str, str, list[str], dict[str, Any]] | None = None,
    use: str | None = None,
) -> None:
    async def go(conn: AsyncConnection) -> None:
        await conn.execute("INSERT INTO users (name) VALUES ('test') ON CONFLICT DO NOTHING")
        if server is not None:
            store = SecretStore.from_settings(Settings.from_environment().actions)
            await servers.save_server(conn, store, server[0], server[1], "agent-token-1", by="test")
            await conn.execute("INSERT INTO server_grants VALUES ('test', %s)", (server[0],))
        if template is not None:
            await servers.save_template(conn, *template, by="test")
        if use is not None:
            await conn.execute("INSERT INTO server_grants VALUES ('test', %s) ON CONFLICT DO NOTHING", (use,))

    queue.aconn(go)


def command_flow(error_port: bool = False, **config: Any) -> dict[str, Any]:
    wires = [{"from": "start", "to": "cmd"}, {"from": "cmd", "to": "ok"}]
    if error_port:
        wires.append({"from": "cmd", "port": "error", "to": "handle"})
    return flow(
        "start:trigger",
        {"id": "cmd", "type": "command", "config": config},
        {"id": "ok", "type": "log", "config": {"message": "exit {{cmd.body.exit_code}} {{cmd.body.stdout}}"}},
        {"id": "handle", "type": "log", "config": {"message": "{{cmd.code}}"}},
        wires=wires,
    )


def logged(queue: Queue, run_id: int) -> list[str]:
    return [data["message"] for data in journal_data(queue, run_id, "log_written")]


def test_a_template_goes_to_the_agent_as_an_argv_with_the_token_and_the_key(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/run"] = lambda _r: Reply(200, b'{"exit_code": 0, "stdout": "restarted"}')
    restart = ("web-1", "restart", ["systemctl", "restart", "{unit}"], UNIT)
    admin(queue, server=("web-1", f"{receiver.url}/run"), template=restart)
    document = command_flow(server="web-1", template="restart", args={"unit": "{{trigger.unit}}"})
    run_id = queue.start(queue.save(document), input={"unit": "nginx"})

    drain(queue, settings=ActionSettings())  # an admin's agent URL is not held to the destination guard

    assert queue.status(run_id) == ("succeeded", None)
    [received] = receiver.received
    [row] = effects(queue, run_id)
    assert received.headers["authorization"] == "Bearer agent-token-1"
    assert received.headers["idempotency-key"] == row["key"]
    sent = received.json()
    assert sent == {
        "key": row["key"],
        "run": run_id,
        "node": "cmd",
        "visit": sent["visit"],
        "server": "web-1",
        "template": "restart",
        "argv": ["systemctl", "restart", "nginx"],
    }
    assert logged(queue, run_id) == ["exit 0 restarted"]
    assert "agent-token-1" not in str(row), "the token is not in the effects log"
    assert queue.one("SELECT count(*) FROM secrets WHERE name = 'server:web-1' AND sealed IS NOT NULL") == (
        1,
    )


def test_an_argument_that_breaks_its_type_is_refused_before_anything_is_sent(
    queue: Queue, receiver: RecordingServer
) -> None:
    admin(
        queue,
        server=("web-4", receiver.url),
        template=("web-4", "restart", ["systemctl", "restart", "{unit}"], UNIT),
    )
    document = command_flow(True, server="web-4", template="restart", args={"unit": "{{trigger.unit}}"})
    run_id = queue.start(queue.save(document), input={"unit": "nginx; curl evil | sh"})
    drain(queue, settings=ActionSettings())
    assert logged(queue, run_id) == ["command_args_invalid"]
    assert receiver.received == []
    [row] = effects(queue, run_id)
    assert "curl" not in str(row["output"]), "the refused value is not echoed"


def test_a_value_with_spaces_and_semicolons_stays_one_argument(
    queue: Queue, receiver: RecordingServer
) -> None:
    echo = ("web-5", "say", ["echo", "--", "{text}"], {"text": {"type": "string", "maxLength": 100}})
    admin(queue, server=("web-5", receiver.url), template=echo)
    document = command_flow(server="web-5", template="say", args={"text": "{{trigger.text}}"})
    queue.start(queue.save(document), input={"text": "a b; rm -rf / #"})
    drain(queue, settings=ActionSettings())
    assert receiver.received[0].json()["argv"] == ["echo", "--", "a b; rm -rf / #"]


def test_a_non_zero_exit_code_is_an_error(queue: Queue, receiver: RecordingServer) -> None:
    receiver.routes["/run"] = lambda _r: Reply(200, b'{"exit_code": 3, "stderr": "no such unit"}')
    admin(queue, server=("web-2", f"{receiver.url}/run"), template=("web-2", "false", ["false"], {}))
    run_id = queue.start(queue.save(command_flow(True, server="web-2", template="false")))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["command_exit_nonzero"]
    [row] = effects(queue, run_id)
    assert row["output"]["exit_code"] == 3 and row["output"]["body"]["stderr"] == "no such unit"


def test_a_server_removed_after_the_save_stops_the_run_with_its_code_after_the_retries(
    queue: Queue, receiver: RecordingServer
) -> None:
    admin(queue, server=("gone", receiver.url), template=("gone", "uptime", ["uptime"], {}))
    run_id = queue.start(queue.save(command_flow(server="gone", template="uptime")))
    queue.aconn(_remove_server("gone"))
    for minutes in (1, 2, 4, 8):
        drain(queue)
        assert queue.status(run_id) == ("waiting", None)
        queue.clock.advance(timedelta(minutes=minutes))
    drain(queue)

    assert queue.status(run_id) == ("stopped", "action_template_missing")
    failures = journal_data(queue, run_id, "resume_failed")
    assert [(f["attempt"], f["error"]) for f in failures] == [
        (n, "action_template_missing") for n in range(1, 6)
    ]
    assert receiver.received == []


def _remove_server(name: str) -> Callable[[AsyncConnection], Awaitable[None]]:
    async def go(conn: AsyncConnection) -> None:
        assert await servers.remove_server(conn, name)
        assert await (
            await conn.execute("SELECT count(*) FROM secrets WHERE name = %s", ("server:" + name,))
        ).fetchone() == (0,)

    return go


def test_a_deleted_template_is_its_own_error_and_takes_the_error_port(
    queue: Queue, receiver: RecordingServer
) -> None:
    admin(queue, server=("web-3", receiver.url), template=("web-3", "deleted", ["true"], {}))
    run_id = queue.start(queue.save(command_flow(True, server="web-3", template="deleted")))

    assert queue.aconn(lambda conn: servers.remove_template(conn, "web-3", "deleted"))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["action_template_missing"]
    assert receiver.received == []


def test_use_server_is_checked_when_the_flow_is_saved_and_again_when_the_action_is_sent(
    queue: Queue, receiver: RecordingServer
) -> None:
    admin(queue, server=("web-6", receiver.url), template=("web-6", "uptime", ["uptime"], {}))
    admin(queue, server=("web-7", receiver.url), template=("web-7", "uptime", ["uptime"], {}))
    queue.one("DELETE FROM server_grants WHERE server = 'web-7' RETURNING server")
    with pytest.raises(CommandRefused) as refused:
        queue.save(command_flow(server="web-7", template="uptime"))
    assert (refused.value.status, refused.value.code) == (403, "server_use_refused")
    with pytest.raises(CommandRefused) as refused:
        queue.save(command_flow(server="web-6", template="not-registered"))
    assert (refused.value.status, refused.value.code) == (422, "command_template_unknown")
    with pytest.raises(CommandRefused) as refused:
        queue.save(command_flow(server="web-6", template="uptime", args={"extra": "1"}))
    assert refused.value.code == "command_args_invalid"

    run_id = queue.start(queue.save(command_flow(True, server="web-6", template="uptime")))
    # The author loses the right between the save and the send: nothing goes out.
    queue.one("DELETE FROM server_grants WHERE server = 'web-6' RETURNING server")
    drain(queue)
    assert logged(queue, run_id) == ["server_use_refused"]
    assert receiver.received == []


def test_an_undo_is_held_to_use_server_and_its_template_when_the_flow_is_saved(
    queue: Queue, receiver: RecordingServer
) -> None:
    admin(queue, server=("web-10", receiver.url), template=("web-10", "uptime", ["uptime"], {}))
    admin(queue, server=("web-11", receiver.url), template=("web-11", "uptime", ["uptime"], {}))
    queue.one("DELETE FROM server_grants WHERE server = 'web-11' RETURNING server")
    flows_before = queue.one("SELECT count(*) FROM flows")
    # The node's own server is allowed; its undo names one the author may not use: refused at save, not
    # left to the send, where a cancelled run would stick retrying its undo.
    with pytest.raises(CommandRefused) as refused:
        queue.save(
            command_flow(server="web-10", template="uptime", undo={"server": "web-11", "template": "uptime"})
        )
    assert (refused.value.status, refused.value.code) == (403, "server_use_refused")
    assert refused.value.params == {"server": "web-11", "node": "cmd"}
    with pytest.raises(CommandRefused) as refused:
        queue.save(
            command_flow(server="web-10", template="uptime", undo={"server": "web-10", "template": "gone"})
        )
    assert refused.value.code == "command_template_unknown"
    assert queue.one("SELECT count(*) FROM flows") == flows_before, "a refused save saves nothing"
    queue.save(
        command_flow(server="web-10", template="uptime", undo={"server": "web-10", "template": "uptime"})
    )


def test_a_stored_free_command_line_is_refused_when_sent(queue: Queue, receiver: RecordingServer) -> None:
    """A version saved before templates were required still names `command`: it never reaches an agent."""
    admin(queue, server=("web-8", receiver.url), template=("web-8", "uptime", ["uptime"], {}))
    flow_id = queue.save(command_flow(True, server="web-8", template="uptime"))
    queue.one(
        "UPDATE flow_versions"
        " SET document = jsonb_set(document, '{nodes,1,config,command}', '\"curl x | sh\"')"
        " WHERE flow_id = %s RETURNING version",
        flow_id,
    )
    run_id = queue.start(flow_id)
    drain(queue)
    assert logged(queue, run_id) == ["command_line_refused"]
    assert receiver.received == []
