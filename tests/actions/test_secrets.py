"""`{{secrets.NAME}}` in action configs: filled in only when the action is sent, and nowhere else.

The request that leaves carries the value; the journal, the effects log, the run's variables and the
node's output never do, not even when the server echoes it back or a payload names a secret itself.
"""

from __future__ import annotations

import json
from typing import Any

from backend.actions.secret_store import SecretStore
from backend.settings import Settings
from tests.actions.servers import RecordingServer, Reply
from tests.actions.support import drain, effects, journal_data
from tests.support import Queue, flow

VALUE = "sk-live-7f3a9c"


def store_secret(queue: Queue, name: str, value: str) -> None:
    queue.aconn(
        lambda conn: SecretStore.from_settings(Settings.from_environment().actions).put(
            conn, name, value, by="test"
        )
    )


def everything_kept(queue: Queue, run_id: int) -> str:
    """Every row the run left behind, as text: journal, effects, the run with its variables."""
    rows: list[Any] = []
    rows += queue.all("SELECT * FROM journal WHERE run_id = %s", run_id)
    rows += queue.all("SELECT * FROM effects WHERE run_id = %s", run_id)
    rows += queue.all("SELECT * FROM runs WHERE id = %s", run_id)
    rows += queue.all("SELECT * FROM waits WHERE run_id = %s", run_id)
    return json.dumps(rows, default=str)


def echo_flow(**config: Any) -> dict[str, Any]:
    return flow(
        "start:trigger",
        {"id": "call", "type": "http", "config": {"method": "POST", **config}},
        {"id": "done", "type": "log", "config": {"message": "{{call.body}}"}},
        wires=[{"from": "start", "to": "call"}, {"from": "call", "to": "done"}],
    )


def test_a_secret_leaves_with_the_request_and_is_kept_nowhere(
    queue: Queue, receiver: RecordingServer
) -> None:
    store_secret(queue, "api_key", VALUE)
    # The server echoes what it received, the secret included, as a server with a debug mode might.
    receiver.routes["/echo"] = lambda r: Reply(200, json.dumps({"seen": r.headers["x-upstream"]}).encode())
    document = echo_flow(
        url=f"{receiver.url}/echo?note={{{{trigger.note}}}}",
        headers={"X-Upstream": "Key {{secrets.api_key}}", "Authorization": "Bearer {{secrets.api_key}}"},
        body={"password": "{{secrets.api_key}}", "note": "{{trigger.note}}"},
    )
    run_id = queue.start(queue.save(document), input={"note": "hello"})
    drain(queue)

    assert queue.status(run_id) == ("succeeded", None)
    [received] = receiver.received
    assert received.headers["x-upstream"] == f"Key {VALUE}"
    assert received.headers["authorization"] == f"Bearer {VALUE}"
    assert received.json() == {"password": VALUE, "note": "hello"}
    kept = everything_kept(queue, run_id)
    assert VALUE not in kept
    [row] = effects(queue, run_id)
    assert row["request"]["headers"]["X-Upstream"] == "Key {{secrets.api_key}}", "the log says which secret"
    # The echo of a text a secret went into reads as the flow wrote that text (backend/actions/shown.py).
    assert row["output"]["body"] == {"seen": "Key {{secrets.api_key}}"}


def test_a_payload_that_names_a_secret_opens_nothing(queue: Queue, receiver: RecordingServer) -> None:
    store_secret(queue, "db_password", VALUE)
    document = echo_flow(url=receiver.url, body={"comment": "{{trigger.comment}}"})
    run_id = queue.start(queue.save(document), input={"comment": "{{secrets.db_password}}"})
    drain(queue)
    assert receiver.received[0].json() == {"comment": "{{secrets.db_password}}"}
    assert VALUE not in everything_kept(queue, run_id)


def test_a_missing_secret_fails_the_visit_before_anything_leaves(
    queue: Queue, receiver: RecordingServer
) -> None:
    document = flow(
        "start:trigger",
        {
            "id": "call",
            "type": "http",
            "config": {
                "method": "GET",
                "url": receiver.url,
                "headers": {"Authorization": "{{secrets.never_set}}"},
            },
        },
        {"id": "why", "type": "log", "config": {"message": "{{call.code}} {{call.name}}"}},
        wires=[{"from": "start", "to": "call"}, {"from": "call", "port": "error", "to": "why"}],
    )
    run_id = queue.start(queue.save(document))
    drain(queue)
    assert receiver.received == []
    assert [d["message"] for d in journal_data(queue, run_id, "log_written")] == ["secret_missing never_set"]


def test_secrets_outside_an_action_config_are_never_rendered(queue: Queue) -> None:
    store_secret(queue, "api_key", VALUE)
    document = flow(
        "start:trigger",
        {"id": "say", "type": "log", "config": {"message": "key: {{secrets.api_key}}"}},
        {"id": "keep", "type": "set", "config": {"k": "{{secrets.api_key}}"}},
        wires=[{"from": "start", "to": "say"}, {"from": "say", "to": "keep"}],
    )
    run_id = queue.start(queue.save(document))
    drain(queue)
    assert [d["message"] for d in journal_data(queue, run_id, "log_written")] == ["key: "]
    assert VALUE not in everything_kept(queue, run_id)


def test_credentials_written_into_a_flow_are_redacted_from_the_request_and_the_output(
    queue: Queue, receiver: RecordingServer
) -> None:
    """The second net: a flow that still writes credentials inline keeps none of them in its records."""
    receiver.routes["/x"] = lambda r: Reply(200, b'{"access_token": "at-9", "ok": true}')
    url = receiver.url.replace("http://", "http://ann:pw-inline@") + "/x?sig=sig-inline&page=2"
    document = echo_flow(url=url, headers={"X-Upstream-Sig": "hdr-inline"}, body={"password": "body-inline"})
    run_id = queue.start(queue.save(document))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert receiver.received[0].headers["x-upstream-sig"] == "hdr-inline", "sent as written"
    kept = everything_kept(queue, run_id)
    for inline in ("pw-inline", "sig-inline", "hdr-inline", "body-inline", "at-9"):
        assert inline not in kept, inline
    [row] = effects(queue, run_id)
    assert row["output"]["url"].startswith("http://ann:[redacted]@127.0.0.1:")
    assert row["output"]["body"] == {"access_token": "[redacted]", "ok": True}
