"""The pseudo-locale's scan of a page (tests/browser/test_pseudo_locale.py): every visible text that did not
come from the catalogs, i.e. that stands outside the pseudo-locale's brackets.

The rule, as a reader of the page would apply it:

- A text node is read with the others of its block (its nearest ancestor whose CSS display is not
  `inline`), so a sentence whose brackets hold a link, a name or a count is one sentence. Every character
  that stands outside brackets there is a finding, a lone ":" or "(" as much as a word: a colon or a
  parenthesis glued to a sentence by the page is a concatenation the translator cannot move.
- Authors' and users' own texts (flow names, node ids and labels, values typed, user names, group names,
  dates and numbers written by `Intl`) are marked in the page with `translate="no"`, the HTML attribute
  that tells translation tools the same thing; text inside a marked element is not read.
- The words `Intl.ListFormat` writes between a list's items in the page's language ("and", "or", the
  comma) pass between bracketed items: the pages join lists with it, and no catalog holds those words.
- What is left outside brackets is allowed when it is a bare number: digits with the separators a number
  or a count is written with (`. , : / % + -` and spaces), at least one digit. So a count badge "3" passes,
  and "3 items" or "(3)" do not. Two signs that are no words pass alone too: the asterisk of a required
  field and the multiplication sign of a remove button (whose name, in `aria-label`, is a catalog
  sentence).
- The selected option of a visible `<select>` (unless the option is marked) and the placeholder of a
  visible empty field are read too: a reader sees them as text.
- Hidden text (no box, `visibility: hidden`, opacity 0) is not read."""

from __future__ import annotations

import re
from typing import Any, TypedDict

from playwright.sync_api import Page

from backend.i18n.catalogs import message
from backend.i18n.pseudo import PSEUDO_LOCALE

# A count, a version number or a time Intl wrote without letters; or a sign that is no word.
NUMBER = re.compile(r"^[\d\s.,:/%+\-\u2212]*\d[\d\s.,:/%+\-\u2212]*$")
SIGNS = {"*", "\u00d7"}

SCAN = """() => {
  const AUTHORED = '[translate="no"]';
  const transparent = (e) => ['inline', 'contents'].includes(getComputedStyle(e).display);
  const blockOf = (e) => {
    while (e.parentElement && transparent(e)) e = e.parentElement;
    return e;
  };
  const seen = (e) => {
    const box = e.getBoundingClientRect();
    const shown = e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    return shown && box.width > 0 && box.height > 0;
  };
  const where = (e) => {
    const parts = [];
    for (let at = e; at && at !== document.body && parts.length < 4; at = at.parentElement) {
      const classes = [...at.classList].slice(0, 2).map((c) => '.' + c).join('');
      parts.unshift(at.tagName.toLowerCase() + classes);
    }
    return parts.join(' > ');
  };
  // The words Intl.ListFormat writes between items in the page's language ("and", "or", ", "): a list of
  // catalog names joined by it is how the pages write lists (docs/i18n.md), and no catalog holds them.
  const lang = document.documentElement.lang || 'en';
  const joiners = new Set();
  for (const type of ['conjunction', 'disjunction', 'unit'])
    for (const part of new Intl.ListFormat(lang, { type }).formatToParts(['a', 'b', 'c']))
      if (part.type === 'literal' && part.value.trim()) joiners.add(part.value.trim());
  const longestFirst = [...joiners].sort((a, b) => b.length - a.length);
  const unjoined = (text) => longestFirst.reduce((rest, joiner) => rest.split(joiner).join(' '), text);
  const found = [];
  const depths = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest('script, style, noscript, select, ' + AUTHORED)) continue;
    const block = blockOf(element);
    let depth = depths.get(block) ?? 0;
    let outside = '';
    for (const c of node.textContent) {
      if (c === '[') depth += 1;
      else if (c === ']') depth = Math.max(0, depth - 1);
      else if (depth === 0) outside += c;
    }
    depths.set(block, depth);
    if (unjoined(outside).trim() && seen(element))
      found.push({ text: node.textContent.trim(), outside: outside.trim(), where: where(element) });
  }
  const sentence = (text) => /^\\[[\\s\\S]*\\]$/.test(text.trim());
  for (const select of document.querySelectorAll('select')) {
    const option = select.selectedOptions[0];
    const text = option?.text ?? '';
    if (!option || option.closest(AUTHORED) || !seen(select) || !text.trim() || sentence(text)) continue;
    found.push({ text: text.trim(), outside: text.trim(), where: where(select) });
  }
  for (const field of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    const text = field.getAttribute('placeholder') ?? '';
    if (field.closest(AUTHORED) || field.value || !seen(field) || !text.trim() || sentence(text)) continue;
    found.push({ text: text.trim(), outside: text.trim(), where: where(field) + '[placeholder]' });
  }
  return found;
}"""


class Leak(TypedDict):
    text: str
    outside: str
    where: str


def leaked(page: Page) -> list[Leak]:
    """The page's visible texts outside the pseudo-locale's brackets, in the order of the page."""
    found: list[Leak] = page.evaluate(SCAN)
    return [leak for leak in found if not (NUMBER.match(leak["outside"]) or leak["outside"] in SIGNS)]


def leaks(page: Page) -> list[str]:
    """`leaked(page)`, each as `where: "text"` (where: the element's last classes and tags)."""
    return [f'{leak["where"]}: "{leak["text"]}"' for leak in leaked(page)]


def xa(key: str, **params: Any) -> str:
    """The catalog's sentence `key` as the pseudo-locale writes it: how the test finds a button by name."""
    return message(key, PSEUDO_LOCALE, **params)
