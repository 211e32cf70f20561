"""The command line's own language: which locale a terminal asks for, and the help texts in it, read
without Babel so that `flowyard --help` stays as quick as it was.

The locale comes from the environment as gettext reads it: `LC_ALL`, else `LC_MESSAGES`, else `LANG`
(the first one set), with GNU's `LANGUAGE` (a colon-separated list, best first) before it unless that
setting is `C` or `POSIX`. An encoding or modifier is dropped (`de_DE.UTF-8@euro` reads `de`), a region
reads its language, `pt` and `pt_PT` read `pt_BR`, and `en_XA` asks for the pseudo-locale; anything
else, `C` included, reads English.

`message` is the catalogs' `message` for a sentence without placeholders, read from the same `.po`
files by a small reader of its own (a fuzzy or empty entry counts as missing, as it does there): a
refusal, which needs placeholders filled and names translated, goes through `backend.console.refuse`
and the full catalogs.

Examples:
    >>> terminal_locale({"LANG": "de_DE.UTF-8"}), terminal_locale({"LANG": "pt_PT"}), terminal_locale({})
    ('de', 'pt_BR', 'en')
    >>> terminal_locale({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}), terminal_locale({"LANGUAGE": "zz:ja"})
    ('en', 'ja')
    >>> message("database_unreachable", "de")
    'Die Datenbank unter {host} ist nicht erreichbar.'
    >>> message("no_such_code_anywhere", "de")
    'no_such_code_anywhere'
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from backend.i18n.placeholders import fill
from backend.i18n.pseudo import PSEUDO_LOCALE, pseudo

# The same nine as backend/i18n/locales.py, which imports Babel; tests/test_cli.py holds the two equal.
LOCALES: tuple[str, ...] = ("en", "de", "fr", "es", "it", "nl", "pl", "pt_BR", "ja")
DEFAULT_LOCALE = "en"
_CANONICAL = {locale.lower(): locale for locale in (*LOCALES, PSEUDO_LOCALE)}
_ALIASES = {"pt": "pt_BR"}


# The terminal's language, as backend/cli.py read it from the environment when the process started.
_SPOKEN = [DEFAULT_LOCALE]


def speak(locale: str) -> None:
    """Speak `locale` from now on (`terminal_locale` of the process's environment): the CLI's first step."""
    _SPOKEN[0] = locale


def spoken() -> str:
    """The terminal's language (`speak`); English until the CLI said otherwise."""
    return _SPOKEN[0]


def terminal_locale(env: Mapping[str, str]) -> str:
    """The locale the command line speaks in, from the environment `env`."""
    setting = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    if setting.split(".")[0] in ("C", "POSIX"):
        return DEFAULT_LOCALE
    return _match([*env.get("LANGUAGE", "").split(":"), setting]) or DEFAULT_LOCALE


def _match(tags: Iterable[str]) -> str | None:
    for tag in tags:
        name = tag.split(".")[0].split("@")[0].replace("-", "_").lower()
        if not name:
            continue
        language = name.split("_")[0]
        found = _CANONICAL.get(name) or _ALIASES.get(language) or _CANONICAL.get(language)
        if found is not None:
            return found
    return None


def message(code: str, locale: str = DEFAULT_LOCALE, /) -> str:
    """The sentence for `code` in `locale`, else the English one, else the code itself."""
    if locale == PSEUDO_LOCALE:
        english = _sentences(DEFAULT_LOCALE).get(code)
        return code if english is None else fill(pseudo(english), {})
    template = _sentences(locale).get(code) or _sentences(DEFAULT_LOCALE).get(code)
    return code if template is None else fill(template, {})  # `{{` reads `{`


def _locales_dir() -> Path:
    """As backend/i18n/catalogs.py finds them: the installed package's (a wheel carries them as
    `backend/locales`), else the checkout's; a plain path, since importlib.resources costs `--help` time."""
    shipped = Path(__file__).resolve().parents[1] / "locales"
    return shipped if shipped.is_dir() else Path(__file__).resolve().parents[2] / "locales"


@cache
def _sentences(locale: str) -> dict[str, str]:
    """The confirmed singular entries of one locale's `.po` file, by msgid; empty for no such file."""
    if locale not in LOCALES:
        return {}
    path = _locales_dir() / locale / "LC_MESSAGES" / "messages.po"
    if not path.is_file():
        return {}
    return read_po_sentences(path.read_text(encoding="utf-8"))


# An entry's flags (the line right above its msgid, as Babel writes it), its msgid and its msgstr, each
# string one or more quoted lines. A plural entry has `msgid_plural` between the two, so never matches.
_ENTRY = re.compile(r'^(#,[^\n]*\n)?msgid ("[^\n]*"(?:\n"[^\n]*")*)\nmsgstr ("[^\n]*"(?:\n"[^\n]*")*)$', re.M)


def read_po_sentences(text: str) -> dict[str, str]:
    """The `msgid` → `msgstr` pairs of a `.po` file's text, leaving out the header, plural entries,
    fuzzy and empty ones.

    Examples:
        >>> po = '#, fuzzy\\nmsgid "a"\\nmsgstr "A"\\n\\nmsgid "b"\\nmsgstr ""\\n"B \\\\"q\\\\""\\n'
        >>> read_po_sentences(po)
        {'b': 'B "q"'}
    """
    found: dict[str, str] = {}
    for entry in _ENTRY.finditer(text):
        flags, msgid, msgstr = entry.groups()
        if flags is not None and "fuzzy" in flags:
            continue
        key = "".join(map(_unquote, msgid.split("\n")))
        sentence = "".join(map(_unquote, msgstr.split("\n")))
        if key and sentence:
            found[key] = sentence
    return found


def _unquote(quoted: str) -> str:
    """A `.po` string's text: its quotes taken off, its C escapes read."""
    inner = quoted.strip()
    if "\\" not in inner:
        return inner[1:-1]
    return str(ast.literal_eval(inner))
