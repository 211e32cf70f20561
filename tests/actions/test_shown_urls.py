"""What one exchange reports of a URL a secret went into (backend/actions/shown.py), against real servers:
the URL as written, through redirects, and in failures; as sent once a redirect leaves it behind."""

from __future__ import annotations

import asyncio

import pytest

from backend.actions.destinations import AllowList, Destinations
from backend.actions.failures import ActionFailure
from backend.actions.shown import check_place
from backend.actions.transport import Answer, Exchange, HttpSender
from backend.walker.requests import ActionRequest
from backend.walker.secret_refs import SecretRef
from tests.actions.servers import RecordingServer, Reply, recording_server
from tests.actions.support import fake_dns

SECRET_HOST = "Tok3n-Host.example"


def send(url: str, shown: str) -> Answer:
    dns = fake_dns({SECRET_HOST.lower(): ["127.0.0.1"]})
    sender = HttpSender(Destinations(AllowList.parse("127.0.0.1"), dns), 1024)
    return asyncio.run(sender.send(Exchange("GET", url, {}, None, 10, 5, shown_url=shown)))


def test_a_relative_redirect_from_a_whole_url_secret_keeps_its_placeholder(receiver: RecordingServer) -> None:
    receiver.routes["/t0ken-path"] = lambda r: Reply(302, b"", {"Location": "next"})
    answer = send(f"http://{SECRET_HOST}:{receiver.port}/t0ken-path", "{{secrets.hook}}")
    assert [r.path for r in receiver.received] == ["/t0ken-path", "/next"]
    assert answer.url == "{{secrets.hook}}"


def test_a_redirect_to_a_host_of_its_own_is_reported_as_the_server_said(receiver: RecordingServer) -> None:
    with recording_server() as other:
        receiver.routes["/t0ken-path"] = lambda r: Reply(302, b"", {"Location": f"{other.url}/landed"})
        answer = send(f"http://{SECRET_HOST}:{receiver.port}/t0ken-path", "{{secrets.hook}}")
    assert answer.url == f"{other.url}/landed"


def test_a_path_secret_keeps_the_host_and_its_placeholder_through_a_relative_redirect(
    receiver: RecordingServer,
) -> None:
    receiver.routes["/a/t0ken/b"] = lambda r: Reply(302, b"", {"Location": "c?x=1"})
    receiver.routes["/a/t0ken/c"] = lambda r: Reply(200, b"{}")
    answer = send(f"{receiver.url}/a/t0ken/b", f"{receiver.url}/a/{{{{secrets.p}}}}/b")
    assert answer.url == f"{receiver.url}/a/{{{{secrets.p}}}}/c?x=1"


def test_a_failure_names_the_host_as_written() -> None:
    with pytest.raises(ActionFailure) as caught:
        send(f"http://{SECRET_HOST}:1/t0ken-path", "{{secrets.hook}}")
    failure = caught.value
    assert failure.code == "action_connection_failed"
    assert failure.detail["host"] == "{{secrets.hook}}"
    assert "tok3n" not in repr(failure.output()).lower()


def test_an_unparseable_url_is_named_as_written() -> None:
    with pytest.raises(ActionFailure) as caught:
        send("ftp://t0ken-in-a-url", "{{secrets.hook}}")
    assert caught.value.detail == {"url": "{{secrets.hook}}"}


@pytest.mark.parametrize(
    ("pieces", "allowed"),
    [
        ((SecretRef("hook"),), True),
        (("https://h.example/v1/", SecretRef("p")), True),
        (("https://h.example?k=", SecretRef("k"), "&x=", SecretRef("k2")), True),
        (("https://", SecretRef("host"), ".example/x"), False),
        (("https://ann:", SecretRef("pw"), "@h.example/"), False),
        ((SecretRef("base"), "/v1"), False),
        (("https:/", SecretRef("rest")), False),
    ],
)
def test_a_rendered_url_is_held_to_the_rule_before_anything_is_sent(
    pieces: tuple[str | SecretRef, ...], allowed: bool
) -> None:
    written = "".join(p if isinstance(p, str) else "{{secrets." + p.name + "}}" for p in pieces)
    request = ActionRequest("call", 2, "http", {"url": written}, ((("url",), pieces),))
    if allowed:
        check_place(request)
        return
    with pytest.raises(ActionFailure) as caught:
        check_place(request)
    assert caught.value.code == "secret_place_forbidden"
