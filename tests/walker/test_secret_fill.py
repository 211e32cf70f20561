"""The sender's side of `{{secrets.NAME}}`: slots filled at any depth, in a copy; what was handed in kept."""

from __future__ import annotations

from backend.walker.secret_refs import SecretRef, fill, secret_names, secret_slots, shown


def test_slots_at_every_depth_are_filled_in_a_copy() -> None:
    config = {
        "url": "https://h.example/{{secrets.path}}",
        "headers": {"Authorization": "Bearer {{secrets.api}}", "Accept": "text/plain"},
        "body": {"rows": [{"pw": "{{secrets.db}}-{{who}}"}, "plain"]},
    }
    variables = {"who": "ann"}
    rendered, slots = shown(config, variables), secret_slots(config, variables)
    assert slots == (
        (("body", "rows", 0, "pw"), (SecretRef("db"), "-", "ann")),
        (("headers", "Authorization"), ("Bearer ", SecretRef("api"))),
        (("url",), ("https://h.example/", SecretRef("path"))),
    )
    assert secret_names(slots) == {"api", "db", "path"}
    filled = fill(rendered, slots, {"api": "k-1", "db": "p@ss", "path": "v1"})
    assert filled == {
        "url": "https://h.example/v1",
        "headers": {"Authorization": "Bearer k-1", "Accept": "text/plain"},
        "body": {"rows": [{"pw": "p@ss-ann"}, "plain"]},
    }
    assert rendered["body"]["rows"][0] == {"pw": "{{secrets.db}}-ann"}  # nested: a deep copy was filled
    assert rendered["headers"]["Authorization"] == "Bearer {{secrets.api}}"
