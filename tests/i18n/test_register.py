"""The register each catalog keeps (docs/glossary.md): formal address, and each language's punctuation.

Japanese: no あなた, and full-width 、。：（）！？ in Japanese sentences (ASCII stays inside placeholders,
codes and commands, where no Japanese letter touches it). French: a no-break space (U+00A0, or the narrow
U+202F) before : ; ! ?. Italian, Polish, German, Dutch, Spanish, Brazilian Portuguese and French: none of
the informal markers below in a sentence. Buttons, menu items and choices keep the short command form
each language's software uses (Salva, Zapisz), as do the command line's help lines: they are not
sentences that address the reader. `python -m backend.i18n.typography` mends the punctuation.
"""

from __future__ import annotations

import re

import pytest

from backend.i18n.catalogs import po_file
from backend.i18n.typography import PLACEHOLDER, UNTOUCHED, bare_french_marks, half_width_slips
from backend.i18n.ui_context import UI_KINDS

# Informal address: pronouns and possessives anywhere; in a sentence, imperatives of the informal form
# only (Italian "scegli", not "usa", which is also "it uses") where a sentence or a clause begins.
INFORMAL_WORDS = {
    "de": r"du|dein|deine|deinen|deinem|deiner|dich|dir",
    "nl": r"je|jij|jouw|jou",
    "es": r"tú|tus|puedes|debes|tienes|quieres|elige|asegúrate|inténtalo",
    "pt_BR": r"tu|teu|tua|teus|tuas|contigo",
    "fr": r"tu|ton|ta|tes|toi",
    "it": r"tu|tuo|tua|tuoi|tue|ti",
    "pl": r"ty|twój|twoja|twoje|twoich|twoim|twojej|możesz|musisz|masz|chcesz",
}
INFORMAL_IMPERATIVES = {
    "it": r"scegli|inserisci|chiedi|metti|attendi|vedi|correggi|aggiungi|apri|rimuovi|riprendi|scrivi|leggi",
    "pl": r"sprawdź|użyj|wybierz|wpisz|podaj|dodaj|usuń|spróbuj|poproś|zacznij|zobacz|czekaj|poczekaj"
    r"|anuluj|popraw|zmień|ustaw|otwórz|wstaw|wznów|zezwól|zezwalaj|skopiuj|zaznacz|zdecyduj",
}
# Where a sentence or a clause begins: after : ; . ! ? and at the start of a text that is a sentence.
CLAUSE_START = r"(?:^|[:;.!?]\s+)"
SENTENCE = re.compile(r"\S+(?:\s+\S+){3,}[.?!:]$")
COMMANDS = frozenset({"button", "menu item", "option", "link"})


def _entries(locale: str) -> list[tuple[str, str]]:
    """(key, text) of every translated form of the locale's catalog."""
    po = po_file(locale)
    assert po is not None
    found: list[tuple[str, str]] = []
    for m in po:
        if not m.id:
            continue
        key = m.id if isinstance(m.id, str) else str(m.id[0])
        forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
        found += [(key, str(form)) for form in forms if form]
    return found


def _is_command(key: str) -> bool:
    return UI_KINDS.get(key) in COMMANDS or key.startswith("cli_help_") or key == "ui_inbox_keys"


def informal_markers(locale: str, text: str) -> list[str]:
    """The words of `text` that address the reader informally in `locale`.

    Examples:
        >>> informal_markers("it", "Il nome è riservato. Scegli un altro nome.")
        ['Scegli']
        >>> informal_markers("it", "Il nome è riservato. Scelga un altro nome. Il nodo usa un modello.")
        []
        >>> informal_markers("pl", "Nazwa jest zajęta: wybierz inną."), informal_markers("pl", "Usuń {name}")
        (['wybierz'], [])
        >>> informal_markers("de", "Haben Sie dich gefragt?")
        ['dich']
    """
    text = PLACEHOLDER.sub("X", text)
    found = re.findall(rf"\b({INFORMAL_WORDS[locale]})\b", text, flags=re.IGNORECASE)
    if locale in INFORMAL_IMPERATIVES and SENTENCE.match(text):
        pattern = rf"{CLAUSE_START}({INFORMAL_IMPERATIVES[locale]})\b"
        found += re.findall(pattern, text, flags=re.IGNORECASE)
    return found


def test_japanese_never_says_anata() -> None:
    slips = [key for key, text in _entries("ja") if "あなた" in text]
    assert not slips, "ja: あなた in " + ", ".join(slips)


def test_japanese_sentences_use_full_width_marks() -> None:
    slips = [
        f"{key}: {text}"
        for key, text in _entries("ja")
        if not key.startswith(UNTOUCHED) and half_width_slips(text)
    ]
    assert not slips, "ja: half-width marks (use 、。：（）！？):\n" + "\n".join(slips)


def test_french_has_a_no_break_space_before_colons_and_marks() -> None:
    slips = [f"{key}: {text}" for key, text in _entries("fr") if bare_french_marks(text)]
    assert not slips, "fr: no U+00A0/U+202F before : ; ! ?:\n" + "\n".join(slips)


@pytest.mark.parametrize("locale", sorted(INFORMAL_WORDS))
def test_sentences_address_the_reader_formally(locale: str) -> None:
    slips = [
        f"{key}: {informal_markers(locale, text)}: {text}"
        for key, text in _entries(locale)
        if not _is_command(key) and informal_markers(locale, text)
    ]
    assert not slips, f"{locale}: informal address:\n" + "\n".join(slips)
