"""Actions through the queue: sent once per visit under a key of its own, errors on the error port or
retried with backoff, recorded outcomes given back, forbidden destinations refused before anything leaves."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import psycopg

from backend.actions import ActionSender, ActionSettings
from backend.actions.destinations import AllowList
from backend.queue.commands import open_pool
from backend.walker import ActionRequest, Resume
from tests.actions.servers import RecordingServer, Reply
from tests.actions.support import LOCAL, drain, effects, fake_dns, journal_data
from tests.support import Queue, flow


def http_node(node_id: str = "post", **config: Any) -> dict[str, Any]:
    return {"id": node_id, "type": "http", "config": {"method": "POST", "url": "{{trigger.url}}", **config}}


def log_node(node_id: str, message: str) -> dict[str, Any]:
    return {"id": node_id, "type": "log", "config": {"message": message}}


def logged(queue: Queue, run_id: int) -> list[str]:
    return [data["message"] for data in journal_data(queue, run_id, "log_written")]


def test_a_loop_of_five_sends_five_requests_under_five_keys(queue: Queue, receiver: RecordingServer) -> None:
    document = flow(
        "start:trigger",
        {"id": "each", "type": "foreach", "config": {"items": "{{trigger.items}}", "as": "item"}},
        http_node(body={"id": "{{item}}"}, headers={"Authorization": "Bearer {{trigger.token}}"}),
        log_node("done", "last {{post.status}} {{post.body.ok}}"),
        wires=[
            {"from": "start", "to": "each"},
            {"from": "each", "port": "body", "to": "post"},
            {"from": "each", "port": "done", "to": "done"},
        ],
    )
    url = f"{receiver.url}/items"
    run_id = queue.start(
        queue.save(document), input={"items": [1, 2, 3, 4, 5], "url": url, "token": "s3cr3t"}
    )

    drain(queue)

    assert queue.status(run_id) == ("succeeded", None)
    sent = receiver.received
    assert [r.json() for r in sent] == [{"id": n} for n in (1, 2, 3, 4, 5)]
    assert all(r.headers["authorization"] == "Bearer s3cr3t" for r in sent)
    keys = [r.headers["idempotency-key"] for r in sent]
    rows = effects(queue, run_id)
    assert len(set(keys)) == 5
    assert [row["key"] for row in rows] == keys
    assert {(row["node"], row["attempts"], row["outcome"]) for row in rows} == {("post", 1, "out")}
    assert rows[0]["output"]["status"] == 200 and rows[0]["output"]["body"] == {"ok": True}
    assert rows[0]["request"]["headers"] == {"Authorization": "[redacted]"}, "no credential in the log"
    assert logged(queue, run_id) == ["last 200 true"]


def test_an_error_is_given_to_the_error_port_with_the_response(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/broken"] = lambda _r: Reply(503, b"down for a while", {"Content-Type": "text/plain"})
    document = flow(
        "start:trigger",
        http_node(),
        log_node("ok", "sent"),
        log_node("handle", "failed {{post.code}} {{post.status}}: {{post.body}}"),
        wires=[
            {"from": "start", "to": "post"},
            {"from": "post", "to": "ok"},
            {"from": "post", "port": "error", "to": "handle"},
        ],
    )
    run_id = queue.start(queue.save(document), input={"url": f"{receiver.url}/broken"})

    drain(queue)

    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["failed http_status_error 503: down for a while"]
    [row] = effects(queue, run_id)
    assert row["outcome"] == "error" and row["output"]["code"] == "http_status_error"
    assert len(receiver.received) == 1


def test_an_unwired_error_backs_off_and_the_next_try_sends_again_under_the_same_key(
    queue: Queue, receiver: RecordingServer
) -> None:
    answers = iter([Reply(500, b"{}"), Reply(502, b"{}"), Reply(201, b'{"id": 9}')])
    receiver.routes["/flaky"] = lambda _r: next(answers)
    run_id = queue.start(
        queue.save(flow("start:trigger", http_node(), wires=[{"from": "start", "to": "post"}])),
        input={"url": f"{receiver.url}/flaky"},
    )
    for minutes in (1, 2):
        drain(queue)
        assert queue.status(run_id) == ("waiting", None)
        queue.clock.advance(timedelta(minutes=minutes))
    drain(queue)

    assert queue.status(run_id) == ("succeeded", None)
    assert [d["error"] for d in journal_data(queue, run_id, "resume_failed")] == ["http_status_error"] * 2
    assert [d["status"] for d in journal_data(queue, run_id, "resume_failed")] == [500, 502]
    keys = {r.headers["idempotency-key"] for r in receiver.received}
    assert len(receiver.received) == 3 and len(keys) == 1
    [row] = effects(queue, run_id)
    assert (row["attempts"], row["outcome"], row["output"]["body"]) == (3, "out", {"id": 9})


def test_a_forbidden_destination_is_refused_and_nothing_is_sent(
    queue: Queue, receiver: RecordingServer
) -> None:
    document = flow("start:trigger", http_node(), wires=[{"from": "start", "to": "post"}])
    run_id = queue.start(queue.save(document), input={"url": f"{receiver.url}/x"})

    drain(queue, settings=ActionSettings())  # no allow-list: 127.0.0.1 is loopback

    assert receiver.received == []
    [failure] = journal_data(queue, run_id, "resume_failed")
    assert failure["error"] == "action_destination_forbidden" and failure["address"] == "127.0.0.1"
    [row] = effects(queue, run_id)
    assert row["outcome"] == "error" and row["output"]["code"] == "action_destination_forbidden"


def test_a_host_is_resolved_once_and_the_connection_pinned_to_the_checked_address(
    queue: Queue, receiver: RecordingServer
) -> None:
    # No DNS server knows service.test: the request can only have gone to the address the guard checked.
    document = flow("start:trigger", http_node(method="GET"), wires=[{"from": "start", "to": "post"}])
    run_id = queue.start(queue.save(document), input={"url": f"http://service.test:{receiver.port}/p"})

    drain(queue, resolver=fake_dns({"service.test": ["127.0.0.1"]}))

    assert queue.status(run_id) == ("succeeded", None)
    assert receiver.received[0].headers["host"] == f"service.test:{receiver.port}"


def test_a_redirect_to_a_forbidden_host_is_refused_before_it_is_followed(
    queue: Queue, receiver: RecordingServer
) -> None:
    port = receiver.port
    receiver.routes["/hop"] = lambda _r: Reply(302, b"", {"Location": f"http://sneaky.test:{port}/landed"})
    document = flow("start:trigger", http_node(method="GET"), wires=[{"from": "start", "to": "post"}])
    run_id = queue.start(queue.save(document), input={"url": f"http://front.test:{port}/hop"})
    dns = fake_dns({"front.test": ["127.0.0.1"], "sneaky.test": ["127.0.0.1"]})

    drain(queue, settings=ActionSettings(allow=AllowList.parse("front.test")), resolver=dns)

    assert [r.path for r in receiver.received] == ["/hop"], "the second hop never left"
    [failure] = journal_data(queue, run_id, "resume_failed")
    assert (failure["error"], failure["host"]) == ("action_destination_forbidden", "sneaky.test")


def perform_twice(queue: Queue, run_id: int, requests: list[ActionRequest]) -> list[Resume]:
    async def go() -> list[Resume]:
        pool = open_pool(queue.url, size=2)
        await pool.open()
        try:
            sender = ActionSender(pool, LOCAL)
            return [await sender.perform(run_id, request) for request in requests]
        finally:
            await pool.close()

    return queue.run(go)


def test_a_recorded_success_is_given_back_without_sending_again(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = queue.start(queue.save(flow("start:trigger", wires=[])))
    request = ActionRequest("post", 3, "http", {"method": "POST", "url": receiver.url, "body": {"n": 1}})

    first, again = perform_twice(queue, run_id, [request, request])

    assert first == again and first.outcome == "out" and first.output is not None
    assert first.output["status"] == 200
    assert len(receiver.received) == 1


def test_an_error_a_later_visit_built_on_is_given_back_too(queue: Queue, receiver: RecordingServer) -> None:
    # Visit 3 failed and the walk went on to send visit 4 from the error port: a retry of the walk must
    # take that path again, so visit 3's error stands; an error nothing built on is sent again instead.
    receiver.routes["/fail"] = lambda _r: Reply(400, b"{}")
    run_id = queue.start(queue.save(flow("start:trigger", wires=[])))
    failing = ActionRequest("post", 3, "http", {"method": "POST", "url": f"{receiver.url}/fail"})
    after = ActionRequest("report", 4, "http", {"method": "POST", "url": f"{receiver.url}/report"})

    resumes = perform_twice(queue, run_id, [failing, failing, after, failing])

    assert [r.outcome for r in resumes] == ["error", "error", "out", "error"]
    assert [r.path for r in receiver.received] == ["/fail", "/fail", "/report"]
    assert resumes[3] == resumes[1]


def test_a_walk_that_asks_something_else_at_a_visit_that_acted_fails_loudly(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = queue.start(queue.save(flow("start:trigger", wires=[])))
    asked = ActionRequest("post", 3, "http", {"method": "POST", "url": receiver.url, "body": 1})
    other = ActionRequest("post", 3, "http", {"method": "POST", "url": receiver.url, "body": 2})
    perform_twice(queue, run_id, [asked])
    try:
        perform_twice(queue, run_id, [other])
    except Exception as failure:
        assert getattr(failure, "code", None) == "action_effect_mismatch"
    else:
        raise AssertionError("a different request under a used key was sent")
    assert len(receiver.received) == 1


def test_the_effect_row_is_committed_before_the_request_leaves(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = queue.start(queue.save(flow("start:trigger", wires=[])))
    seen: list[tuple[Any, ...] | None] = []

    def look(_request: Any) -> Reply:
        with psycopg.connect(queue.url) as conn:  # another connection: sees only what was committed
            seen.append(
                conn.execute("SELECT attempts, outcome FROM effects WHERE run_id = %s", (run_id,)).fetchone()
            )
        return Reply()

    receiver.routes["/look"] = look
    perform_twice(
        queue, run_id, [ActionRequest("post", 1, "http", {"method": "GET", "url": f"{receiver.url}/look"})]
    )

    assert seen == [(1, None)]
    assert queue.one("SELECT attempts, outcome FROM effects WHERE run_id = %s", run_id) == (1, "out")
