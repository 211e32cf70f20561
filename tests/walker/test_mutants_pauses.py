"""Survivors of `make mutation` in what a pause asks for: an event key held to the run's value limit, an
action's secret slot joined with the variables it reads, a mail notification kept as written, and the
editor's sample walk reading its trigger payload."""

from __future__ import annotations

from backend.graph.model import Node
from backend.walker import walk
from backend.walker.cli import walk_through
from backend.walker.redact import redact_request
from backend.walker.requests import action_request
from backend.walker.secret_refs import SecretRef
from backend.walker.sizes import Limits
from backend.walker.step import JournalLine
from tests.walker.walker_flows import build, log, node, trigger


def test_an_event_key_past_the_runs_value_limit_fails_the_run_with_that_limit() -> None:
    # 152 characters: under the 200 an event key may have, over the 100 bytes this run allows a value.
    flow = build(
        {"t": trigger(), "w": node("wait_event", events=["paid"], key="k-{{trigger.k}}"), "a": log("paid")},
        "t>w w.paid>a",
    )
    step = walk(flow, None, trigger={"k": "x" * 150}, limits=Limits(value_bytes=100))
    assert (step.status, step.error) == ("failed", "value_too_large")
    assert step.journal[-1] == JournalLine(
        code="run_failed", node="w", visit=2, data={"error": "value_too_large", "limit": 100, "what": "text"}
    )
    step = walk(flow, None, trigger={"k": "x" * 90}, limits=Limits(value_bytes=100))
    assert step.status == "waiting"
    assert step.journal[-1].data == {"events": ["paid"], "key": "k-" + "x" * 90, "timeout": None}


def test_a_secret_slot_joins_the_variables_its_template_reads() -> None:
    config = {
        "method": "GET",
        "url": "https://h.example/",
        "headers": {"A": "{{secrets.T}} for {{trigger.who}}"},
    }
    request = action_request(Node("call", "http", config), 3, {"trigger": {"who": "ann"}})
    assert request.secrets == ((("headers", "A"), (SecretRef("T"), " for ", "ann")),)


def test_a_notification_by_mail_is_kept_as_written() -> None:
    # Only an http action's url and a webhook notification's `to` are URLs to clean; a mail has no `to`
    # added, and one it has is kept.
    assert redact_request("notify", {"channel": "email", "subject": "s"}) == {
        "channel": "email",
        "subject": "s",
    }
    kept = redact_request("notify", {"channel": "email", "to": "https://u:p@h.example/"})
    assert kept == {"channel": "email", "to": "https://u:p@h.example/"}
    hook = redact_request("notify", {"channel": "webhook", "to": "https://u:p@h.example/"})
    assert hook == {"channel": "webhook", "to": "https://u:[redacted]@h.example/"}


def test_the_sample_walk_reads_its_trigger_payload() -> None:
    flow = build({"t": trigger(), "a": log("n is {{trigger.n}}")}, "t>a")
    status, error, visits, journal, waiting_at = walk_through(flow, {"n": 3}, {}, Limits())
    assert (status, error, visits, waiting_at) == ("succeeded", None, ["t", "a"], None)
    assert journal[2] == JournalLine(
        code="log_written", node="a", visit=2, data={"message": "n is 3", "level": "info"}
    )


def test_a_delay_until_past_the_runs_value_limit_fails_the_run_with_that_limit() -> None:
    flow = build(
        {"t": trigger(), "d": node("delay", until="{{trigger.when}}{{trigger.pad}}"), "a": log("late")},
        "t>d d>a",
    )
    step = walk(
        flow, None, trigger={"when": "2031-05-01T09:00:00Z", "pad": " " * 100}, limits=Limits(value_bytes=100)
    )
    assert (step.status, step.error) == ("failed", "value_too_large")
    assert step.journal[-1] == JournalLine(
        code="run_failed", node="d", visit=2, data={"error": "value_too_large", "limit": 100, "what": "text"}
    )
