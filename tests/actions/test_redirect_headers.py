"""A header that carried a secret does not follow a redirect to another origin (issue 32, item 8).

`Authorization` and `Cookie` were dropped on a cross-origin redirect, but a secret sent in `X-Api-Key`
(or any header a flow filled from the secret store) arrived at the second origin. Two real servers on
loopback, on two ports: two origins.
"""

from __future__ import annotations

from backend.actions.secret_store import SecretStore
from backend.settings import Settings
from tests.actions.servers import RecordingServer, Reply, recording_server
from tests.actions.support import drain
from tests.support import Queue, flow

VALUE = "sk-redirect-5e1f"


def calling(url: str) -> dict[str, object]:
    headers = {
        "X-Api-Key": "{{secrets.api}}",
        "X-Upstream": "Key {{secrets.api}}",  # a name that says nothing: what it carried counts
        "Authorization": "Bearer {{secrets.api}}",
        "X-Trace": "trace-1",
    }
    return flow(
        "start:trigger",
        {"id": "call", "type": "http", "config": {"method": "GET", "url": url, "headers": headers}},
        wires="start>call",
    )


def redirect(to: str) -> Reply:
    return Reply(302, b"", {"Location": to})


def test_secret_headers_stay_behind_at_a_cross_origin_redirect(
    queue: Queue, receiver: RecordingServer
) -> None:
    queue.aconn(
        lambda conn: SecretStore.from_settings(Settings.from_environment().actions).put(
            conn, "api", VALUE, by="test"
        )
    )
    with recording_server() as elsewhere:
        receiver.routes["/start"] = lambda r: redirect(f"{elsewhere.url}/landed")
        run_id = queue.start(queue.save(calling(f"{receiver.url}/start")))
        drain(queue)
        assert queue.status(run_id) == ("succeeded", None)
        [first] = receiver.received
        [landed] = elsewhere.received
    assert (first.headers["x-api-key"], first.headers["x-upstream"]) == (VALUE, f"Key {VALUE}")
    assert landed.path == "/landed"
    assert landed.headers["x-trace"] == "trace-1", "what carried no secret goes on"
    for name in ("x-api-key", "x-upstream", "authorization"):
        assert name not in landed.headers, name
    assert VALUE not in repr(landed)


def test_secret_headers_follow_a_redirect_on_the_same_origin(queue: Queue, receiver: RecordingServer) -> None:
    queue.aconn(
        lambda conn: SecretStore.from_settings(Settings.from_environment().actions).put(
            conn, "api", VALUE, by="test"
        )
    )
    receiver.routes["/start"] = lambda r: redirect("/landed")
    queue.start(queue.save(calling(f"{receiver.url}/start")))
    drain(queue)
    first, landed = receiver.wait_for(2)
    assert landed.path == "/landed"
    for name in ("x-api-key", "x-upstream", "authorization"):
        assert landed.headers[name] == first.headers[name], name
