"""The log line: JSON or text, the ids of the task it comes from, credentials masked, bad settings refused."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from backend.observability import events
from backend.observability.context import bind, scoped
from backend.observability.logs import configure
from backend.settings import Settings
from backend.store.errors import StoreError


@pytest.fixture
def stream(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    out = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    configure("json", "INFO", out)
    yield out
    root.handlers[:], _ = saved
    root.setLevel(saved[1])


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_each_task_logs_its_own_ids(stream: io.StringIO) -> None:
    async def claim(run: int) -> None:
        events.claim_started(run, 3, "delay", 1, "host/1/abc")
        await asyncio.sleep(0)  # the other task runs between bind and the next line
        logging.getLogger("flowyard.test").info("walked", extra={"nodes": 2})

    async def both() -> None:
        await asyncio.gather(claim(11), claim(12))

    asyncio.run(both())
    walked = [line for line in lines(stream) if line["event"] == "walked"]
    assert sorted((line["run"], line["visit"], line["worker"], line["nodes"]) for line in walked) == [
        (11, 3, "host/1/abc", 2),
        (12, 3, "host/1/abc", 2),
    ]
    assert {line["level"] for line in walked} == {"info"}


def test_a_scoped_id_is_gone_after_its_block(stream: io.StringIO) -> None:
    log = logging.getLogger("flowyard.test")
    with scoped(request="r-1"):
        bind(run=5)
        log.info("inside")
    log.info("outside")
    inside, outside = lines(stream)
    assert (inside["request"], inside["run"]) == ("r-1", 5)
    assert "request" not in outside and "run" not in outside


def test_an_exception_and_a_url_password_are_masked(stream: io.StringIO) -> None:
    try:
        raise ConnectionError("cannot reach postgresql://ann:s3cr3t-pw@db:5432/x (password=s3cr3t-pw)")
    except ConnectionError:
        logging.getLogger("flowyard.test").exception("failed for postgresql://ann:s3cr3t-pw@db/x")
    text = stream.getvalue()
    assert "s3cr3t-pw" not in text
    (line,) = lines(stream)
    assert line["event"] == "failed for postgresql://ann:***@db/x"
    assert "ConnectionError" in str(line["error"])


def test_text_lines_carry_the_same_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure("text", "INFO", out)
        with scoped(request="r-2"):
            logging.getLogger("flowyard.test").warning("slow", extra={"ms": 12.5})
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    assert (
        out.getvalue()
        .rstrip()
        .endswith("WARNING flowyard.test: slow request=r-2 ms=12.5".replace("WARNING", "warning"))
    )


@pytest.mark.parametrize(
    ("variable", "value"), [("FLOWYARD_LOG_FORMAT", "yaml"), ("FLOWYARD_LOG_LEVEL", "chatty")]
)
def test_an_unknown_setting_is_refused(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    settings = Settings.from_environ({variable: value})
    with pytest.raises(StoreError) as refused:
        configure(settings.log_format, settings.log_level, io.StringIO())
    assert refused.value.code == "log_setting_invalid" and refused.value.params["variable"] == variable


def test_the_worker_refuses_a_bad_log_setting_in_one_line(database_url: str) -> None:
    env = dict(os.environ, DATABASE_URL=database_url, FLOWYARD_LOG_FORMAT="yaml")
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "worker"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip().endswith("(log_setting_invalid)") and "yaml" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
