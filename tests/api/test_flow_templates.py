"""`GET /api/flow-templates`: every example flow offered as a template, valid, in the reader's language."""

from __future__ import annotations

import json
from pathlib import Path

from tests.api.support import app_client, auth, make_user
from tests.support import Queue

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_every_example_is_a_valid_template_named_and_described_in_the_readers_language(
    queue: Queue,
) -> None:
    ann = make_user(queue.url, "tem", "edit")
    with app_client(queue.url) as api:
        english = api.get("/api/flow-templates", headers=auth(ann)).json()["templates"]
        japanese = api.get("/api/flow-templates", headers=auth(ann, **{"Accept-Language": "ja"})).json()[
            "templates"
        ]
        # Each example at the top of examples/ is offered (the patterns are building blocks, not flows).
        assert sorted(t["id"] for t in english) == sorted(p.stem for p in EXAMPLES.glob("*.json"))
        assert english[0]["id"] == "invoice-approval"
        for en, ja in zip(english, japanese, strict=True):
            assert en["id"] == ja["id"]
            assert en["name"] != ja["name"] and en["description"] != ja["description"], en["id"]
            assert not any(code in ja["name"] + ja["description"] for code in ("template_", "_about"))
            assert "\n" not in en["description"] and len(en["description"]) <= 120, en["description"]
            example = json.loads((EXAMPLES / f"{en['id']}.json").read_text(encoding="utf-8"))
            document = ja["document"]
            assert (document["name"], document["description"]) == (ja["name"], ja["description"])
            assert (document["nodes"], document["wires"]) == (example["nodes"], example["wires"])
            checked = api.post("/api/flows/validate", json=document, headers=auth(ann)).json()
            assert checked["valid"], (en["id"], checked["findings"])
        assert english[0]["name"] == "Invoice approval"
        assert japanese[0]["name"] == "請求書の承認"
