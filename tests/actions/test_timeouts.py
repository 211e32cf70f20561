"""Action timeouts: the node's `timeout_s`, capped by the operator's setting, is the one applied to http,
notify and command actions, and running out of it is `action_timeout`, never a connection failure.

The receiving server holds its answer until the test ends (an event, not a sleep): only the timeout can
end the action.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.actions.servers import RecordingServer
from tests.actions.support import LOCAL, drain, effects
from tests.actions.test_command import admin
from tests.support import Queue, flow


def with_error_port(node: dict[str, Any]) -> dict[str, Any]:
    return flow(
        "start:trigger",
        node,
        {"id": "handle", "type": "log", "config": {"message": "{{act.code}}"}},
        wires=[{"from": "start", "to": "act"}, {"from": "act", "port": "error", "to": "handle"}],
    )


def failed_output(queue: Queue, node: dict[str, Any], cap_s: float) -> dict[str, Any]:
    run_id = queue.start(queue.save(with_error_port(node)))
    drain(queue, settings=replace(LOCAL, timeout_s=cap_s))
    [row] = effects(queue, run_id)
    assert row["outcome"] == "error"
    output: dict[str, Any] = row["output"]
    return output


@pytest.fixture
def slow(receiver: RecordingServer) -> RecordingServer:
    receiver.routes["/slow"] = receiver.hold()
    return receiver


def test_an_http_node_times_out_after_its_own_timeout(queue: Queue, slow: RecordingServer) -> None:
    node = {
        "id": "act",
        "type": "http",
        "config": {"method": "GET", "url": f"{slow.url}/slow", "timeout_s": 0.5},
    }
    output = failed_output(queue, node, cap_s=30)
    assert (output["code"], output["timeout_s"]) == ("action_timeout", 0.5)
    assert "0.5" in output["message"]
    assert len(slow.received) == 1  # sent once, and the server was still holding it


def test_the_setting_caps_a_longer_node_timeout(queue: Queue, slow: RecordingServer) -> None:
    node = {
        "id": "act",
        "type": "http",
        "config": {"method": "GET", "url": f"{slow.url}/slow", "timeout_s": 300},
    }
    output = failed_output(queue, node, cap_s=0.5)
    assert (output["code"], output["timeout_s"]) == ("action_timeout", 0.5)


def test_a_notify_webhook_times_out_after_its_node_timeout(queue: Queue, slow: RecordingServer) -> None:
    config = {"channel": "webhook", "to": f"{slow.url}/slow", "message": "paid", "timeout_s": 0.5}
    output = failed_output(queue, {"id": "act", "type": "notify", "config": config}, cap_s=30)
    assert (output["code"], output["timeout_s"]) == ("action_timeout", 0.5)


def test_a_command_times_out_after_its_node_timeout(queue: Queue, slow: RecordingServer) -> None:
    admin(queue, server=("slow-agent", f"{slow.url}/slow"), template=("slow-agent", "up", ["uptime"], {}))
    config = {"server": "slow-agent", "template": "up", "timeout_s": 0.5}
    output = failed_output(queue, {"id": "act", "type": "command", "config": config}, cap_s=30)
    assert (output["code"], output["timeout_s"]) == ("action_timeout", 0.5)
