"""The Babel extractor: what `pybabel extract -F babel.cfg` writes into the template."""

from __future__ import annotations

from io import BytesIO

from babel.messages.extract import extract
from babel.messages.pofile import read_po

from backend.i18n.catalogs import catalog
from backend.i18n.extract import extract_reason_codes, ports_literal
from backend.i18n.placeholders import placeholders
from tests.i18n.test_guard import ROOT

SOURCE = b"""
PORTS = {"condition": ("true", "false")}
raise Refused(code="user_unknown", name=name)
print(message("some_code_without_a_sentence"))
"""


def test_babel_runs_the_extractor_by_its_module_path() -> None:
    found = list(extract("backend.i18n.extract:extract_reason_codes", BytesIO(SOURCE)))
    assert [(line, key) for line, key, _, _ in found] == [
        (3, "user_unknown"),
        (4, "some_code_without_a_sentence"),
        (2, "node_type_condition"),
        (2, "node_type_condition_description"),
        (2, "port_false"),
        (2, "port_true"),
    ]


def test_each_key_carries_its_english_sentence_for_translators_when_there_is_one() -> None:
    comments = {key: notes for _, _, key, notes in extract_reason_codes(BytesIO(SOURCE), [], [], {})}
    assert comments["user_unknown"] == [
        "English: There is no user named {name}.",
        "Shown: in a message of the server, its logs or its API",
        "{name}: a name a person chose (a user, a secret, a server, a group) (e.g. anna)",
        "Example: There is no user named anna.",
    ]
    assert comments["port_true"][0] == "English: True"
    assert comments["some_code_without_a_sentence"] == [
        "Shown: in a message of the server, its logs or its API"
    ]


def test_a_counting_key_is_extracted_as_a_plural_entry() -> None:
    source = b'raise WalkFailure(code="iteration_limit_exceeded", limit=1, passes=2)\n'
    found = list(extract("backend.i18n.extract:extract_reason_codes", BytesIO(source)))
    assert [key for _, key, _, _ in found] == [("iteration_limit_exceeded", "iteration_limit_exceeded")]
    assert "Counts: {passes} picks the plural form" in found[0][2]


def test_ports_literal_reads_only_a_module_level_literal() -> None:
    assert ports_literal('PORTS: dict = {"end": ()}') == (1, {"end": ()})
    assert ports_literal('def f():\n    PORTS = {"end": ()}') is None
    assert ports_literal("OTHER = {}") is None


def test_every_key_of_the_template_tells_the_translator_where_what_and_an_example() -> None:
    with (ROOT / "locales" / "messages.pot").open("rb") as file:
        template = read_po(file)
    english = catalog("en")
    missing: list[str] = []
    for entry in template:
        if not entry.id:
            continue
        key = entry.id if isinstance(entry.id, str) else entry.id[0]
        notes = " ".join(entry.auto_comments)
        if not notes.startswith("English: ") or "Shown: " not in notes:
            missing.append(f"{key}: no English sentence or no Shown line")
        names = placeholders(english.get(key, ""))
        missing += [f"{key}: {{{name}}} is not explained" for name in names if f"{{{name}}}: " not in notes]
        if names and "Example: " not in notes:
            missing.append(f"{key}: no example")
    assert not missing, "\n".join(missing)
