"""The translator's context of the editor's keys: every `ui_` key says what it is (a kind of `KINDS`) and
where (a page or panel), in backend/i18n/ui_context.py and in the template the translators read."""

from __future__ import annotations

from babel.messages.pofile import read_po

from backend.i18n.codes import BACKEND_DIR
from backend.i18n.context import shown_lines
from backend.i18n.ui_context import KINDS, UI_KINDS, UI_PLACES, ui_shown
from backend.i18n.ui_keys import ui_keys

TEMPLATE = BACKEND_DIR.parent / "locales" / "messages.pot"
GENERIC = "on a page of the editor or the web app"
TEST_FILE_ENDINGS = (".test.ts", ".test.tsx")


def test_every_ui_key_has_a_kind_from_the_fixed_list() -> None:
    used = ui_keys()
    missing = sorted(set(used) - set(UI_KINDS))
    assert not missing, "keys without a line in backend/i18n/ui_context.py UI_KINDS: " + ", ".join(missing)
    unknown = {key: kind for key, kind in UI_KINDS.items() if kind not in KINDS}
    assert not unknown, f"kinds outside KINDS: {unknown}"
    stale = sorted(set(UI_KINDS) - set(used))
    assert not stale, "UI_KINDS names keys no source file uses: " + ", ".join(stale)


def test_every_page_file_that_uses_a_ui_key_has_a_place() -> None:
    files = {
        use.path.removeprefix("frontend/src/")
        for uses in ui_keys().values()
        for use in uses
        if not use.path.endswith(TEST_FILE_ENDINGS)
    }
    missing = sorted(files - set(UI_PLACES))
    assert not missing, "files without a place in backend/i18n/ui_context.py UI_PLACES: " + ", ".join(missing)


def test_the_template_tells_what_and_where_for_every_ui_entry() -> None:
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    vague: list[str] = []
    for entry in template:
        if not isinstance(entry.id, str) or not entry.id.startswith("ui_"):
            continue
        shown = [line for line in entry.auto_comments if line.startswith("Shown:")]
        named = [line for line in shown if any(f" {kind}, on " in line for kind in KINDS)]
        if not shown or len(named) != len(shown) or any(GENERIC in line for line in shown):
            vague.append(entry.id)
    assert not vague, "ui_ entries not saying what and where (make catalogs): " + ", ".join(vague)


def test_a_key_reads_its_kind_and_each_place_it_is_used() -> None:
    toolbar = "frontend/src/flows/Toolbar.tsx"
    assert ui_shown("ui_toolbar_save", toolbar) == "a button, on the editor's toolbar"
    assert ui_shown("ui_people_email", "frontend/src/people/NewUser.tsx") == (
        "a label, on the people page, where a user is added"
    )
    assert ui_shown("ui_inbox_count", "frontend/src/i18n/i18n.test.ts") is None
    assert shown_lines(
        "frontend/src/flows/FlowRow.tsx",
        "ui_flows_trigger",
        ("frontend/src/flows/FlowRow.tsx", "frontend/src/flows/FlowsPage.tsx"),
    ) == [
        "Shown: a column header, on the flows page, in a flow's row",
        "Shown: a column header, on the flows page (the list of flows)",
    ]
