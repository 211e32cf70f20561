"""One guarded exchange against a real local server: caps, redirects, timeouts, what comes back."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from backend.actions.destinations import AllowList, Destinations, Resolver, system_resolver
from backend.actions.failures import ActionFailure
from backend.actions.transport import Answer, Exchange, HttpSender
from tests.actions.servers import RecordingServer, Reply
from tests.actions.support import fake_dns
from tests.ports import closed_port


def send(
    url: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    content: bytes | None = None,
    timeout_s: float = 10,
    follow: int | None = 5,
    limit: int = 1024,
    allow: str = "127.0.0.1",
    resolver: Resolver = system_resolver,
) -> Answer:
    sender = HttpSender(Destinations(AllowList.parse(allow), resolver), limit)
    exchange = Exchange(method, url, headers or {}, content, timeout_s, follow)
    return asyncio.run(sender.send(exchange))


def failure_of(url: str, **options: Any) -> ActionFailure:
    with pytest.raises(ActionFailure) as caught:
        send(url, **options)
    return caught.value


def test_a_json_answer_is_parsed_and_its_headers_kept(receiver: RecordingServer) -> None:
    receiver.routes["/j"] = lambda _r: Reply(
        201, b'{"id": 7}', {"Content-Type": "application/json", "X-A": "1"}
    )
    answer = send(f"{receiver.url}/j")
    assert (answer.status, answer.body, answer.headers["x-a"]) == (201, {"id": 7}, "1")
    assert receiver.received[0].headers["user-agent"].startswith("flowyard/")


def test_text_stays_text_and_broken_json_too(receiver: RecordingServer) -> None:
    receiver.routes["/t"] = lambda _r: Reply(
        200, "café".encode("latin-1"), {"Content-Type": "text/plain; charset=latin-1"}
    )
    receiver.routes["/b"] = lambda _r: Reply(200, b"{nope", {"Content-Type": "application/json"})
    assert send(f"{receiver.url}/t").body == "café"
    assert send(f"{receiver.url}/b").body == "{nope"


def test_a_response_over_the_cap_is_an_error_not_a_truncation(receiver: RecordingServer) -> None:
    receiver.routes["/big"] = lambda _r: Reply(200, b"x" * 2000, {"Content-Type": "text/plain"})
    failure = failure_of(f"{receiver.url}/big", limit=1999)
    assert (failure.code, failure.detail["limit"]) == ("http_response_too_large", 1999)
    assert send(f"{receiver.url}/big", limit=2000).body == "x" * 2000


def test_redirects_are_followed_up_to_the_limit(receiver: RecordingServer) -> None:
    for n in range(3):
        receiver.routes[f"/r{n}"] = lambda _r, n=n: Reply(  # type: ignore[misc]
            307, b"", {"Location": f"/r{n + 1}"}
        )
    answer = send(f"{receiver.url}/r0", follow=3)
    assert answer.status == 200 and answer.url.endswith("/r3")
    failure = failure_of(f"{receiver.url}/r0", follow=2)
    assert (failure.code, failure.detail["limit"]) == ("http_redirects_exceeded", 2)


def test_a_303_turns_a_post_into_a_get_and_credentials_stay_with_their_origin(
    receiver: RecordingServer,
) -> None:
    port = receiver.port
    receiver.routes["/form"] = lambda _r: Reply(303, b"", {"Location": f"http://other.test:{port}/seen"})
    dns = fake_dns({"first.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]})
    send(
        f"http://first.test:{port}/form",
        method="POST",
        headers={"Authorization": "Bearer t", "Idempotency-Key": "k1", "Content-Type": "application/json"},
        content=b"{}",
        resolver=dns,
    )
    first, second = receiver.received
    assert (first.method, first.headers["authorization"], first.body) == ("POST", "Bearer t", b"{}")
    assert (second.method, second.path, second.body) == ("GET", "/seen", b"")
    assert "authorization" not in second.headers and second.headers["idempotency-key"] == "k1"
    assert second.headers["host"] == f"other.test:{port}"


def test_without_follow_a_redirect_is_the_answer(receiver: RecordingServer) -> None:
    receiver.routes["/away"] = lambda _r: Reply(302, b"", {"Location": "http://example.com/"})
    assert send(f"{receiver.url}/away", follow=None).status == 302
    assert len(receiver.received) == 1


def test_a_server_slower_than_the_timeout_is_a_timeout(receiver: RecordingServer) -> None:
    receiver.routes["/slow"] = receiver.hold()
    failure = failure_of(f"{receiver.url}/slow", timeout_s=0.3)
    receiver.release.set()
    assert (failure.code, failure.detail["timeout_s"]) == ("action_timeout", 0.3)


def test_one_private_address_among_public_ones_refuses_the_host() -> None:
    dns = fake_dns({"mixed.test": ["93.184.216.34", "10.0.0.1"]})
    failure = failure_of("http://mixed.test/", resolver=dns, allow="")
    assert (failure.code, failure.detail["address"]) == ("action_destination_forbidden", "10.0.0.1")


def test_a_refused_connection_and_a_bad_url_are_errors_with_codes() -> None:
    with closed_port() as port:  # a port nothing listens on
        assert failure_of(f"http://127.0.0.1:{port}/").code == "action_connection_failed"
    assert failure_of("ftp://example.com/").code == "action_url_invalid"
    assert failure_of("http:///nohost").code == "action_url_invalid"
