"""The refusals of a decision read with their placeholders filled, in each of the nine languages."""

from __future__ import annotations

import re

from backend.i18n.catalogs import LOCALES
from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.api.test_languages import ACCEPT
from tests.support import Queue

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def test_decision_refusals_name_the_user_and_the_approval_in_every_language(queue: Queue) -> None:
    author = make_user(queue.url, "author", "edit", "run", "decide")
    named = make_user(queue.url, "zoe", "decide", groups=("finance",))
    outsider = make_user(queue.url, "yann", "decide")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "A-7"}}, headers=auth(author))
        queue.drain()
        [approval] = api.get("/api/approvals", headers=auth(named)).json()["approvals"]
        approval_id = approval["id"]
        decide = f"/api/approvals/{approval_id}/decision"
        reader = make_user(queue.url, "reader", f"edit:{flow_id}")
        api.post(decide, json={"outcome": "approve"}, headers=auth(named))

        for locale in LOCALES:
            language = {"Accept-Language": ACCEPT[locale]}
            cases = {
                "approval_not_found": (
                    api.get("/api/approvals/987654", headers=auth(named, **language)),
                    "987654",
                ),
                "decide_right_missing": (
                    api.post(decide, json={"outcome": "approve"}, headers=auth(reader, **language)),
                    "reader",
                ),
                "approver_not_named": (
                    api.post(decide, json={"outcome": "approve"}, headers=auth(outsider, **language)),
                    "yann",
                ),
                "approval_already_decided": (
                    api.post(decide, json={"outcome": "reject"}, headers=auth(named, **language)),
                    str(approval_id),
                ),
                "decision_approval_mismatch": (
                    api.post(
                        decide,
                        json={"outcome": "reject", "approval": 987653},
                        headers=auth(named, **language),
                    ),
                    "987653",
                ),
                "approval_changed": (
                    api.post(
                        decide, json={"outcome": "reject", "seen": "0" * 64}, headers=auth(named, **language)
                    ),
                    str(approval_id),
                ),
            }
            for code, (answer, named_in_it) in cases.items():
                error = answer.json()["error"]
                assert error["code"] == code, (locale, error)
                assert not PLACEHOLDER.search(error["message"]), (locale, error["message"])
                assert named_in_it in error["message"], (locale, error["message"])
