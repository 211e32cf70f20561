"""What waiting costs a process: its threads and its resident memory, read from /proc."""

from __future__ import annotations

from collections.abc import Iterable


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
