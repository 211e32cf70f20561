"""Survivors of `make mutation` in backend/graph/cli.py's `read_flow_file`: a flow file is read no further
than one byte past its 5 MB, so a file still being written (a pipe, `producer | flowyard check
/dev/stdin`) is refused as soon as that byte arrives, without waiting for the writer to stop
(`x_read_flow_file__mutmut_8` reads to the end, `x_read_flow_file__mutmut_10` waits for a second byte).
The answer is compared whole: exit status, stdout, and the one line on stderr."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from backend.graph.cli import MAX_FILE_BYTES
from backend.i18n.catalogs import message
from tests.graph.test_cli import check

# How long the writer holds its pipe open for the answer. The real reader answers in milliseconds; a
# reader that waits for more gets it only when the writer gives up, and the test then fails.
WRITER_PATIENCE = 60.0


def test_a_flow_file_still_being_written_is_refused_as_soon_as_it_passes_5_mb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "growing.json"
    os.mkfifo(fifo)
    answered = threading.Event()
    answered_in_time: list[bool] = []

    def write_one_byte_past_the_limit_and_hold_on() -> None:
        with open(fifo, "wb") as pipe:
            pipe.write(b"x" * (MAX_FILE_BYTES + 1))
            pipe.flush()
            answered_in_time.append(answered.wait(timeout=WRITER_PATIENCE))

    writer = threading.Thread(target=write_one_byte_past_the_limit_and_hold_on, daemon=True)
    writer.start()
    result = check(capsys, str(fifo))
    answered.set()
    writer.join()
    sentence = message("flow_file_too_large", "en", path=str(fifo), limit="5 MB")
    assert result == (2, "", f"flowyard check: {sentence}\n")
    assert answered_in_time == [True]
