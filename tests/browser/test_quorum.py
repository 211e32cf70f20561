"""A two-of-three approval in the browser: a German approver votes, a reminder mail reaches the others in
their languages, and a Japanese approver, who sees the first vote, settles it; the run goes on."""

from __future__ import annotations

from collections.abc import Iterator
from email.header import decode_header, make_header

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages_support import Story, story_server
from tests.browser.support import log_in, screenshot
from tests.observability.live import wait_for


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "quorum") as running:
        yield running


def quorum_flow() -> dict[str, object]:
    return {
        "format": "flowyard.flow/1",
        "name": "Two of three",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {
                "id": "ask",
                "type": "approval",
                "config": {
                    "title": "Sign contract {{trigger.contract}}?",
                    "approvers": ["user:anke", "user:kenji", "user:zoe"],
                    "quorum": 2,
                    "remind_after": ["PT4S"],
                    "deadline": "P1D",
                    "on_timeout": "reject",
                },
            },
            {"id": "signed", "type": "log", "config": {"message": "signed"}},
        ],
        "wires": [{"from": "start", "to": "ask"}, {"from": "ask", "port": "approve", "to": "signed"}],
    }


def subjects_to(story: Story, address: str) -> list[str]:
    return [
        str(make_header(decode_header(m["Subject"])))
        for _e, m in story.mailbox.messages
        if str(m["To"]) == address
    ]


def approve(page: Page, approval: int) -> None:
    page.goto(f"/approvals/{approval}")
    page.locator("button.approve").click()
    page.locator(".confirm button").first.click()


def test_two_of_three_in_two_languages_with_a_reminder_between(browser: Browser, story: Story) -> None:
    server = story.server
    server.user("ivo", "edit", "run")
    for name, locale in (("anke", "de"), ("kenji", "ja"), ("zoe", "fr")):
        server.user(name, "decide", email=f"{name}@example.com")
        story.set_locale(name, locale)
    with story.api(story.token("ivo")) as api:
        flow_id = api.post("/api/flows", json=quorum_flow()).json()["id"]
        run_id = api.post(f"/api/flows/{flow_id}/runs", json={"input": {"contract": "K-9"}}).json()["run"]
    reader = story.api(story.token("kenji"))
    url = story.server.database_url
    (approval,) = wait_for(url, "SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert [a["id"] for a in reader.get("/api/approvals").json()["approvals"]] == [approval]
    story.mailbox.wait_for_mail_to("anke@example.com")

    german = log_in(browser, server, "anke", locale="de-DE")
    approve(german, approval)
    expect(german.get_by_role("status")).to_have_text(
        "Ihre Stimme ist gezählt; die Genehmigung wartet auf weitere."
    )
    german.context.close()

    reminded = story.mailbox.wait_until(
        lambda: [s for s in subjects_to(story, "kenji@example.com") if s.startswith("リマインダー")],
        "the reminder to kenji",
    )
    assert reminded == ["リマインダー：承認の依頼：Sign contract K-9?"]
    assert "Rappel\u00a0: approbation demandée\u00a0: Sign contract K-9?" in story.mailbox.wait_until(
        lambda: subjects_to(story, "zoe@example.com")[1:], "the reminder to zoe"
    )

    japanese = log_in(browser, server, "kenji", locale="ja-JP", at=f"/approvals/{approval}")
    expect(japanese.locator(".votes")).to_contain_text("anke が賛成しました")
    expect(japanese.locator(".votes")).to_contain_text("2 件中 1 件の賛成")
    screenshot(japanese, "approval-quorum-ja")
    approve(japanese, approval)
    # The card shows the decision that now stands: the second approval settled it.
    expect(japanese.locator(".decided")).to_contain_text("承認済み：kenji が")
    screenshot(japanese, "approval-quorum-ja-decided")
    japanese.context.close()

    ended = "SELECT status FROM runs WHERE id = %s AND status NOT IN ('waiting', 'running')"
    assert wait_for(url, ended, run_id) == ("succeeded",)
    assert reader.get(f"/api/runs/{run_id}").json()["run"]["status"] == "succeeded"
    decided = reader.get(f"/api/approvals/{approval}").json()
    assert (decided["outcome"], decided["decided_by"]) == ("approved", "kenji")
    assert [(v["voter"], v["vote"]) for v in decided["votes"]] == [("anke", "approve"), ("kenji", "approve")]
    reader.close()

    # The audit page proves the trail: every vote, the decision and the rights changes verify.
    server.user("ada", "audit")
    auditor = log_in(browser, server, "ada", at="/audit")
    auditor.locator(".chain-check button").click()
    expect(auditor.locator(".chain-check [role=status]")).to_have_class("intact")
    expect(auditor.locator(".chain-check [role=status]")).to_contain_text("Intact:")
    screenshot(auditor, "audit-chain-intact")
    auditor.context.close()
