"""The benches' worker processes: what waiting costs them (threads and resident memory, read from /proc),
and ending them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def held(pids: Iterable[int | None]) -> tuple[int, float]:
    """The threads and the resident memory (MB) of these processes together (None: one not started)."""
    threads, kilobytes = 0, 0
    for pid in pids:
        if pid is None:
            continue
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name == "Threads":
                    threads += int(value)
                elif name == "VmRSS":
                    kilobytes += int(value.split()[0])
    return threads, kilobytes / 1024


def ended(stop: Any, processes: list[Any]) -> None:
    """Tell these processes to stop, and wait for them: a minute, then they are terminated."""
    stop.set()
    for process in processes:
        process.join(timeout=60)
        if process.is_alive():
            process.terminate()
            process.join()
