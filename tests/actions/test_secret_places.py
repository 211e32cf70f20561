"""A secret that went into a URL is never read back through the action's own output, error or journal.

Issue 32, item 1: an http node whose URL held a secret reported the host it could not reach, or the URL
that answered, as the request had sent it, the secret lower-cased by IDNA; the redaction of exact values
missed it. What an action says about such a URL now names the URL as the flow wrote it, with its
placeholder; a secret spliced into part of a host or a port is refused before anything is sent.
"""

from __future__ import annotations

import json
import socket
from typing import Any

from backend.actions.destinations import IPAddress
from backend.actions.failures import ActionFailure
from backend.actions.secret_store import SecretStore
from backend.settings import Settings
from tests.actions.servers import RecordingServer, Reply
from tests.actions.support import drain, fake_dns, journal_data
from tests.actions.test_secrets import everything_kept
from tests.api.support import app_client, auth, make_user
from tests.support import Queue, flow

HOST = "Hooks-S3cr3t.example"  # upper case: IDNA lower-cases it on the way out


def store_secret(queue: Queue, name: str, value: str) -> None:
    queue.aconn(
        lambda conn: SecretStore.from_settings(Settings.from_environment().actions).put(
            conn, name, value, by="test"
        )
    )


def paused_on_error(url: str, **config: Any) -> dict[str, Any]:
    """An http node whose error is explained to approvers: the run pauses there, its variables shown."""
    return flow(
        "start:trigger",
        {"id": "call", "type": "http", "config": {"method": "POST", "url": url, **config}},
        {
            "id": "ask",
            "type": "approval",
            "config": {
                "title": "Try again?",
                "explanation": "{{call.message}} host={{call.host}} url={{call.url}}",
                "approvers": ["group:ops"],
                "deadline": "P2D",
                "on_timeout": "skip",
            },
        },
        wires="start>call call.error>ask",
    )


def closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        return int(listener.getsockname()[1])


def run_page(queue: Queue, run_id: int) -> tuple[dict[str, Any], str]:
    token = make_user(queue.url, f"auditor{run_id}", "admin")
    with app_client(queue.url) as api:
        answer = api.get(f"/api/runs/{run_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return answer.json(), answer.text


def assert_nowhere(queue: Queue, run_id: int, page: str, *words: str) -> None:
    """None of `words` anywhere the run left a trace or the API shows, in any case."""
    kept = (everything_kept(queue, run_id) + page).lower()
    explanations = queue.all("SELECT explanation FROM approvals WHERE run_id = %s", run_id)
    kept += json.dumps(explanations).lower()
    for word in words:
        assert word.lower() not in kept, word


def test_a_whole_url_secret_that_cannot_connect_is_reported_by_its_placeholder(queue: Queue) -> None:
    store_secret(queue, "hook", f"http://{HOST}:{closed_port()}/hook/T0kenPath")
    run_id = queue.start(queue.save(paused_on_error("{{secrets.hook}}")))
    drain(queue, resolver=fake_dns({HOST.lower(): ["127.0.0.1"]}))

    page, text = run_page(queue, run_id)
    assert page["run"]["status"] == "waiting", page["run"]
    failed = page["variables"]["call"]
    assert failed["code"] == "action_connection_failed"
    assert failed["host"] == "{{secrets.hook}}"
    assert "{{secrets.hook}}" in failed["message"]
    [requested] = journal_data(queue, run_id, "action_requested")
    assert requested["config"]["url"] == "{{secrets.hook}}"
    assert_nowhere(queue, run_id, text, "S3cr3t", "T0kenPath")


def test_a_whole_url_secret_that_answers_an_error_is_reported_by_its_placeholder(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/hook/T0kenPath"] = lambda r: Reply(500, b'{"error": "down"}')
    store_secret(queue, "hook", f"http://{HOST}:{receiver.port}/hook/T0kenPath")
    run_id = queue.start(queue.save(paused_on_error("{{secrets.hook}}")))
    drain(queue, resolver=fake_dns({HOST.lower(): ["127.0.0.1"]}))

    [received] = receiver.received
    assert received.path == "/hook/T0kenPath", "the request went where the secret said"
    page, text = run_page(queue, run_id)
    failed = page["variables"]["call"]
    assert (failed["code"], failed["status"], failed["url"]) == ("http_status_error", 500, "{{secrets.hook}}")
    assert_nowhere(queue, run_id, text, "S3cr3t", "T0kenPath")


def test_a_secret_in_the_path_leaves_the_host_readable(queue: Queue, receiver: RecordingServer) -> None:
    receiver.routes["/hook/T0kenPath"] = lambda r: Reply(503, b"{}")
    store_secret(queue, "path", "T0kenPath")
    url = receiver.url + "/hook/{{secrets.path}}?note={{trigger.note}}"
    run_id = queue.start(queue.save(paused_on_error(url)), input={"note": "n1"})
    drain(queue)
    page, text = run_page(queue, run_id)
    assert page["variables"]["call"]["url"] == receiver.url + "/hook/{{secrets.path}}?note=n1"
    assert_nowhere(queue, run_id, text, "T0kenPath")


class Nowhere:
    """A resolver that knows no name and says which it was asked, as getaddrinfo's callers do."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> list[IPAddress]:
        self.asked.append(host)
        raise ActionFailure(code="action_host_unknown", host=host, detail=f"no such name: {host}")


def test_a_version_saved_with_a_secret_in_its_host_sends_nothing_and_tells_nothing(queue: Queue) -> None:
    """The issue's attack on a version saved before the rule (the API refuses it now): the secret holds
    an `@`, so that URL parsing would split it, and upper case, which IDNA would lower."""
    store_secret(queue, "billing", "ann@S3cr3tBillingValue")
    run_id = queue.start(queue.save(paused_on_error("http://{{secrets.billing}}.example.invalid/x")))
    nowhere = Nowhere()
    drain(queue, resolver=nowhere)

    assert nowhere.asked == [], "no name made of the secret was looked up"
    page, text = run_page(queue, run_id)
    failed = page["variables"]["call"]
    assert failed["code"] == "secret_place_forbidden"
    assert "host" not in failed
    assert_nowhere(queue, run_id, text, "S3cr3tBillingValue", "ann@")


def test_the_issues_attack_is_refused_when_the_flow_is_saved(queue: Queue) -> None:
    document = paused_on_error("http://{{secrets.billing}}.example.invalid/x")
    token = make_user(queue.url, "editor", "edit")
    with app_client(queue.url) as api:
        answer = api.post("/api/flows", json=document, headers=auth(token))
    assert answer.status_code == 422, answer.text
    findings = answer.json()["error"]["detail"]["findings"]
    assert [(f["code"], f["node"]) for f in findings] == [("secret_place_forbidden", "call")]


def test_a_chat_webhook_that_is_a_secret_is_reported_by_its_placeholder(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/services/T01/B02/XyZ123"] = lambda r: Reply(
        404, b"no route for /services/T01/B02/XyZ123", {"Content-Type": "text/plain"}
    )
    store_secret(queue, "chat", f"{receiver.url}/services/T01/B02/XyZ123")
    document = paused_on_error("https://unused.example/")
    document["nodes"][1] = {
        "id": "call",
        "type": "notify",
        "config": {"channel": "webhook", "to": "{{secrets.chat}}", "message": "deployed"},
    }
    run_id = queue.start(queue.save(document))
    drain(queue)

    assert receiver.received[0].json() == {"text": "deployed"}
    page, text = run_page(queue, run_id)
    failed = page["variables"]["call"]
    assert (failed["code"], failed["status"], failed["url"]) == ("http_status_error", 404, "{{secrets.chat}}")
    assert failed["body"] == "no route for [redacted]"
    assert_nowhere(queue, run_id, text, "XyZ123")
