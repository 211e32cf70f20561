"""What secrets and the wider redaction cost an action: prints figures and their ratio to the targets.

Run: `.venv/bin/python bench/secrets.py`. Not a test: the figures depend on the machine.

- Rendering an http action's request (headers, a URL, a JSON body of 50 fields) with and without two
  `{{secrets.NAME}}` placeholders: the slots the walk adds. Target: under half the render itself.
- Filling the slots and opening two Fernet-sealed values, as the sender does before it sends.
  Target: under 1 ms, well below any request's round trip.
- Redacting a 100 KB JSON output (1,000 records) by name and by the two values, one of which it holds
  3,000 times. Target: under 50 ms (the response's own JSON parse is of the same order).
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from cryptography.fernet import Fernet, MultiFernet

from backend.graph.model import Node
from backend.walker.redact import redact_output
from backend.walker.requests import action_request
from backend.walker.secret_refs import fill, secret_names

TARGET_SLOTS_SHARE = 0.5
TARGET_FILL_US = 1000
TARGET_REDACT_MS = 50


def config(with_secrets: bool) -> dict[str, object]:
    key = "{{secrets.api_key}}" if with_secrets else "{{trigger.key}}"
    return {
        "method": "POST",
        "url": "https://api.example/v1/orders/{{trigger.order}}?page=2",
        "headers": {"Authorization": f"Bearer {key}", "X-Signature": "{{trigger.sig}}"},
        "body": {f"field_{n}": f"{{{{trigger.values.{n}}}}}" for n in range(50)}
        | {"password": "{{secrets.db}}" if with_secrets else "x"},
    }


def per_call_us(statement: object, number: int) -> float:
    return min(timeit.repeat(statement, number=number, repeat=5)) / number * 1e6  # type: ignore[arg-type]


def main() -> None:
    variables = {"trigger": {"order": 7, "key": "k", "sig": "s", "values": list(range(50))}}
    plain, secret = Node("call", "http", config(False)), Node("call", "http", config(True))
    # Interleaved, the best of each: on a shared machine a burst of load hits one side otherwise.
    pairs = [
        (
            per_call_us(lambda: action_request(plain, 3, variables), 500),
            per_call_us(lambda: action_request(secret, 3, variables), 500),
        )
        for _ in range(8)
    ]
    without, with_refs = min(p[0] for p in pairs), min(p[1] for p in pairs)
    extra = with_refs - without
    print(f"render an http request: {without:.1f} µs, with 2 secrets {with_refs:.1f} µs")
    share = extra / without
    print(f"  slots cost {extra:.1f} µs, {share:.0%} of the render", end=" ")
    print(f"({share / TARGET_SLOTS_SHARE:.2f} of the target)")

    keys = MultiFernet([Fernet(Fernet.generate_key())])
    sealed = {"api_key": keys.encrypt(b"sk-live-1"), "db": keys.encrypt(b"pw-2")}
    request = action_request(secret, 3, variables)

    def open_and_fill() -> object:
        values = {name: keys.decrypt(sealed[name]).decode() for name in secret_names(request.secrets)}
        return fill(request.config, request.secrets, values)

    filled = per_call_us(open_and_fill, 2000)
    print(f"open 2 secrets and fill the slots: {filled:.1f} µs ({filled / TARGET_FILL_US:.2f} of the target)")

    note = "uses sk-live-1 " * 3
    records = [{"id": n, "name": f"item {n}", "token": "t", "note": note} for n in range(1000)]
    output = {"status": 200, "url": "https://u:p@api.example/x", "headers": {}, "body": {"items": records}}
    redact_ms = per_call_us(lambda: redact_output(output, frozenset({"sk-live-1", "pw-2"})), 20) / 1000
    print(f"redact a 100 KB output: {redact_ms:.2f} ms ({redact_ms / TARGET_REDACT_MS:.2f} of the target)")


if __name__ == "__main__":
    main()
