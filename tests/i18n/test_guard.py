"""The guard: every reason code in the source, every node type and port, has a real sentence in all nine
catalogs, with the English placeholders. The codes are read from the source files, never from a list."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from backend.i18n.catalogs import LOCALES, catalog
from backend.i18n.catalogs import po_file as catalog_file
from backend.i18n.codes import BACKEND_DIR, node_type_keys, reason_codes
from backend.i18n.extract import ports_literal
from backend.i18n.gaps import find_gaps, gaps, required_keys
from backend.i18n.plurals import PLURALS
from backend.i18n.ui_keys import built_keys, ui_keys
from backend.node_types import PORTS

ROOT = BACKEND_DIR.parent


def test_every_catalog_has_every_key_translated_with_the_english_placeholders() -> None:
    found = gaps()
    assert not found, f"{len(found)} gaps (python -m backend.i18n.gaps):\n" + "\n".join(map(str, found))


def test_the_keys_come_from_the_source_and_the_node_types() -> None:
    codes = reason_codes()
    assert {"cycle", "resume_error"} <= set(codes)  # a `code=` keyword; a `code = ... else "..."`
    assert any(use.path == "backend/graph/rules.py" for use in codes["cycle"])
    assert set(required_keys()) == set(codes) | set(node_type_keys(PORTS)) | set(ui_keys())


def test_the_editors_keys_are_read_from_frontend_src(tmp_path: Path) -> None:
    keys = ui_keys()
    assert "ui_login_title" in keys and keys["ui_login_title"][0].path.startswith("frontend/src/")
    assert all(key.startswith("ui_") for key in keys)
    assert not built_keys(), "every ui_ key is written out where the guard can see it"

    src = tmp_path / "frontend" / "src"
    (src / "shell").mkdir(parents=True)
    (src / "shell" / "New.tsx").write_text("t('ui_new_button'); t(`ui_menu_${name}`);\n")
    assert list(ui_keys(src)) == ["ui_new_button"]
    assert built_keys(src) == ["frontend/src/shell/New.tsx:1"]
    found = find_gaps(list(ui_keys(src)), {"en": catalog_file("en"), "de": catalog_file("de")}, {})
    assert [str(gap) for gap in found] == ["de: ui_new_button: no sentence", "en: ui_new_button: no sentence"]


def test_no_node_type_or_port_name_has_a_dot() -> None:
    names = list(PORTS) + [port for ports in PORTS.values() for port in ports]
    assert names and not [name for name in names if "." in name]


def test_pybabel_extract_with_babel_cfg_finds_exactly_the_keys_the_guard_requires() -> None:
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg, "babel.cfg")  # type: ignore[no-untyped-call]
    found = list(extract_from_dir(str(ROOT), method_map, options_map))
    extracted = {message if isinstance(message, str) else message[0] for _, _, message, _, _ in found}
    assert extracted == set(required_keys())
    plural = {message[0] for _, _, message, _, _ in found if not isinstance(message, str)}
    assert plural == set(PLURALS), "exactly the counting keys are plural entries"


def test_the_extractor_reads_the_same_ports_that_the_graph_imports() -> None:
    found = ports_literal((BACKEND_DIR / "node_types.py").read_text(encoding="utf-8"))
    assert found is not None and found[1] == dict(PORTS)


def test_all_nine_catalogs_are_shipped_and_hold_the_same_keys() -> None:
    keys = {locale: set(catalog(locale)) for locale in LOCALES}
    assert len(LOCALES) == 9 and all(keys.values())
    assert all(found == keys["en"] for found in keys.values())
    assert all(Path(ROOT, "locales", locale, "LC_MESSAGES", "messages.po").is_file() for locale in LOCALES)
