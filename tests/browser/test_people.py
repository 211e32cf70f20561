"""The People page, as an administrator uses it: add a user with an address and a language, grant them the
decide right on one flow (after which their inbox shows the approval and they decide it, in German),
revoke it again, and make a token that is shown once and refused once revoked. The rights trail shows
each change under the admin's name."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Dialog, expect

from backend.i18n.catalogs import message
from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import PASSWORD, SCREENSHOTS, log_in, serious_violations


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "people") as running:
        yield running


def accept(dialog: Dialog) -> None:
    dialog.accept()


@pytest.mark.console_errors(
    "a revoked right makes the run page not found (404) and a removed user's session ends (401)",
    allow=r"status of (404 .*/api/runs/\d+|401 .*/api/me):",
)
def test_an_admin_adds_a_user_grants_decide_and_revokes_a_token(browser: Browser, story: Story) -> None:
    server = story.server
    server.user("ada", "admin", "audit")
    server.user("eli", "edit", "run")
    with story.api(story.token("eli")) as api:
        flow_id = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "C-3", "amount": 5000}}
        ).json()["run"]

    # The run parks at the approval before anyone looks for it (the worker may be slow on a busy machine).
    author = log_in(browser, server, "eli", at=f"/runs/{run_id}")
    expect(author.locator(".run-node.waiting")).to_contain_text("ask", timeout=60_000)

    admin = log_in(browser, server, "ada", at="/people")
    admin.locator("input[name=new-name]").fill("dora")
    admin.locator("input[name=new-email]").fill("dora@example.com")
    admin.locator("select[name=new-locale]").select_option("de")
    admin.locator("input[name=new-password]").fill(PASSWORD)
    admin.locator("input[name=new-groups]").fill("finance")
    admin.get_by_role("button", name="Add the user").click()
    expect(admin.get_by_role("status")).to_have_text("dora was added.")
    dora_row = admin.locator("tr[data-user='dora']")
    expect(dora_row).to_contain_text("dora@example.com")
    expect(dora_row.locator("td").nth(2)).to_have_text("Deutsch")
    expect(dora_row).to_contain_text("finance")

    # In the group the approval names, but without the decide right: nothing to decide.
    # Her stored language wins over the browser's.
    dora = log_in(browser, server, "dora", locale="en-US", at="/inbox")
    expect(dora.get_by_text(message("ui_inbox_empty", "de"))).to_be_visible()

    # The admin grants decide on this one flow; admin's own rights never include it.
    admin.locator("select[name=grant-user]").select_option("dora")
    admin.locator("select[name=grant-right]").select_option("decide")
    admin.locator("select[name=grant-flow]").select_option(str(flow_id))
    expect(admin.get_by_text("no other right implies it, not even admin")).to_be_visible()
    admin.get_by_role("button", name="Grant", exact=True).click()
    expect(dora_row.locator(f"li[data-right='decide:{flow_id}'] > span")).to_have_text(
        "decide on Invoice approval"
    )

    dora.reload()
    expect(dora.get_by_role("heading", name="Pay invoice C-3?")).to_be_visible()
    dora.get_by_role("button", name="Genehmigen").click()
    dora.get_by_role("button", name="Bestätigen").click()
    # Decided, the approval leaves her inbox (the card's own "decided" note goes with it).
    expect(dora.get_by_role("heading", name="Pay invoice C-3?")).to_have_count(0)
    expect(dora.get_by_text(message("ui_inbox_empty", "de"))).to_be_visible()
    dora.goto(f"/runs/{run_id}")
    expect(dora.locator("[data-status]")).to_have_attribute("data-status", "succeeded", timeout=60_000)
    assert [r.path for r in story.receiver.received] == ["/pay"]

    # Revoking the right takes the approval's flow away from her: the run page reads as not found.
    admin.once("dialog", accept)
    admin.get_by_role("button", name="Revoke decide on Invoice approval from dora").click()
    expect(dora_row.locator("li[data-right]")).to_have_count(0)
    dora.reload()
    expect(dora.get_by_role("alert")).to_be_visible()

    # A token, shown once; it works until the admin revokes it, then it is refused.
    admin.locator("select[name=token-user]").select_option("dora")
    admin.locator("input[name=token-days]").fill("30")
    admin.get_by_role("button", name="New token").click()
    secret = admin.get_by_test_id("new-token").inner_text()
    assert secret.startswith("fy_")
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get("/api/me", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
        admin.get_by_role("button", name="I have copied it").click()
        expect(admin.get_by_test_id("new-token")).to_have_count(0)
        row = admin.locator("table.token-list tbody tr", has_text="dora")
        expect(row).to_have_count(1)
        token_id = row.get_attribute("data-token")
        admin.once("dialog", accept)
        admin.get_by_role("button", name=f"Revoke token {token_id} of dora").click()
        expect(row).to_contain_text("Revoked")
        expect(admin.get_by_role("alert")).to_have_count(0)
        refused = client.get("/api/me", headers={"Authorization": f"Bearer {secret}"})
        assert refused.status_code == 401, refused.text
    admin.reload()
    expect(admin.locator("table.token-list")).to_be_visible()
    assert secret not in admin.content()  # never shown again

    # The rights trail, newest first, names the admin for each change.
    trail = admin.locator("table.trail-list tbody tr")
    expect(trail.nth(0)).to_contain_text("Token revoked")
    expect(trail.nth(1)).to_contain_text("Token created")
    expect(trail.nth(2)).to_contain_text("Right revoked")
    expect(trail.nth(2)).to_contain_text("decide on Invoice approval")
    expect(trail.nth(3)).to_contain_text("Right granted")
    for n in range(4):
        expect(trail.nth(n).locator("td").nth(1)).to_have_text("ada")
    admin.screenshot(path=str(SCREENSHOTS / "people.png"), full_page=True)
    assert serious_violations(admin) == []  # with every section filled: forms, tokens and the trail

    # Removing a user takes their sessions too; an admin cannot remove themselves from the page.
    expect(admin.get_by_role("button", name="Remove ada")).to_have_count(0)
    admin.once("dialog", accept)
    admin.get_by_role("button", name="Remove dora").click()
    expect(dora_row).to_have_count(0)
    expect(trail.nth(0)).to_contain_text("User removed")
    expect(admin.get_by_role("alert")).to_have_count(0)
    dora.goto("/inbox")
    dora.wait_for_url("**/login")
    for page in (author, admin, dora):
        page.context.close()


def test_an_admin_requires_four_eyes_on_the_people_page(browser: Browser, story: Story) -> None:
    server = story.server
    server.user("pia", "admin", "audit")
    admin = log_in(browser, server, "pia", at="/people")
    policy = admin.get_by_role("region", name="Four eyes")
    never = policy.get_by_role("checkbox", name="Never allow self-approval")
    expect(never).not_to_be_checked()
    expect(policy).to_contain_text(message("ui_people_policy_per_node_hint"))
    never.click()  # the box follows the stored policy: checked once the server has it
    expect(never).to_be_checked()
    expect(policy).to_contain_text(message("ui_people_policy_never_hint"))
    expect(policy).to_contain_text("Set by pia at ")
    expect(policy.get_by_role("alert")).to_have_count(0)
    with story.api(story.token("pia")) as api:
        assert api.get("/api/policies").json()["self_approval"]["value"] == "never"
    policy.screenshot(path=str(SCREENSHOTS / "people-four-eyes.png"))
    never.click()
    expect(policy).to_contain_text(message("ui_people_policy_per_node_hint"))
    with story.api(story.token("pia")) as api:
        assert api.get("/api/policies").json()["self_approval"]["value"] == "per_node"
    # Both sets are on the rights trail (after the token made above) under pia's name: the window is
    # on record.
    admin.reload()
    trail = admin.locator("table.trail-list tbody tr")
    for value in ("never", "per_node"):
        row = trail.filter(has_text=message(f"ui_people_change_policy_self_approval_{value}"))
        expect(row).to_have_count(1)
        expect(row.locator("td").nth(1)).to_have_text("pia")
    admin.get_by_role("region", name="Rights trail").screenshot(
        path=str(SCREENSHOTS / "people-policy-trail.png")
    )
    admin.context.close()
