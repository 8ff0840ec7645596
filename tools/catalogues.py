"""The translation catalogues: strings extracted from the code, the .po files kept in step, and
what is made from them (the terminal's .mo files, the browser's JSON).

The .po files in `src/mines/translations/<lang>/LC_MESSAGES/` are the one source of truth.
Two domains: `mines`, the terminal game (`_()`, `ngettext()` and `N_()` in `mines.tui` and
`mines.cli`), and `web`, the browser client (`t()` and `tn()` in its scripts, and the text and
labels of its pages). Run `python tools/catalogues.py` after changing a string: it rewrites the
templates (`.pot`), merges them into every language's `.po` (a new string arrives empty, for a
translator to fill), and makes the `.mo` and JSON files. `--check` changes nothing and fails when
a file is not what the run would write (tests/test_translations.py runs it).
"""

from __future__ import annotations

import argparse
import gettext
import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "mines"
TRANSLATIONS = SOURCE / "translations"
STATIC = SOURCE / "server" / "static"
BROWSER_CATALOGUES = STATIC / "i18n"
LANGUAGES = ("de", "es", "zh_Hans")
"""Every language besides English (the source strings), by gettext name."""
BROWSER_TAGS = {"de": "de", "es": "es", "zh_Hans": "zh-Hans"}
"""Each language's BCP 47 tag, as the browser names it (`<html lang>`, Intl)."""
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""The templates' creation date: fixed, so that a run changes a file only when a string did."""
TERMINAL_SOURCES = ("tui", "cli")
PYTHON_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "plural": (2, 3)}
SCRIPT_KEYWORDS = {"t": None, "tn": (1, 2)}
TRANSLATED_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
"""The attributes of a page whose words a person sees or hears; js/i18n.js translates the same."""
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def texts(value: object) -> tuple[str, ...]:
    """A message's id or string as a tuple of its forms (one unless it is a plural)."""
    if isinstance(value, (list, tuple)):
        return tuple(str(item) for item in value)
    return (str(value),) if value else ()


def normalize(text: str) -> str:
    """A page's text as one line: js/i18n.js looks words up the same way."""
    return " ".join(text.split())


def has_words(text: str) -> bool:
    return any(character.isalpha() for character in text)


class PageText(HTMLParser):
    """The translatable text of a page: text between tags and the attributes people read,
    outside `<script>`, `<style>` and any element marked `translate="no"`."""

    VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, bool]] = []  # each open element, and whether it is kept as is

    def _kept(self) -> bool:
        return any(kept for _, kept in self._open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        kept = self._kept() or values.get("translate") == "no" or tag in ("script", "style")
        if not kept:
            for name in TRANSLATED_ATTRIBUTES:
                self._add(values.get(name))
            if tag == "meta" and values.get("name") == "description":
                self._add(values.get("content"))
        if tag not in self.VOID:
            self._open.append((tag, kept))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self._open.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        if not self._kept():
            self._add(data)

    def _add(self, text: str | None) -> None:
        if text and has_words(text):
            self.found.append((self.getpos()[0], normalize(text)))


def page_strings(path: Path) -> list[tuple[int, str]]:
    parser = PageText()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser.found


def pages() -> list[Path]:
    return sorted(STATIC.glob("*.html"))


def scripts() -> list[Path]:
    return sorted((STATIC / "js").glob("*.js"))


def script_strings(path: Path) -> Iterator[tuple[int, str | tuple[str, ...]]]:
    with path.open("rb") as file:
        for line, message, _comments, _context in extract(
            "javascript", file, keywords=SCRIPT_KEYWORDS, options={"parse_template_string": True}
        ):
            yield line, message


def python_sources() -> list[Path]:
    return sorted(path for name in TERMINAL_SOURCES for path in (SOURCE / name).glob("*.py"))


def python_strings(path: Path) -> Iterator[tuple[int, str | tuple[str, ...]]]:
    with path.open("rb") as file:
        for line, message, _comments, _context in extract("python", file, PYTHON_KEYWORDS):
            yield line, message


def _template(domain: str) -> Catalog:
    catalog = Catalog(
        project="mines",
        domain=domain,
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
        msgid_bugs_address="",
        copyright_holder="the mines authors",
    )
    if domain == "mines":
        found = [(path, python_strings(path)) for path in python_sources()]
    else:
        found = [(path, script_strings(path)) for path in scripts()]
        found += [(path, iter(page_strings(path))) for path in pages()]
    for path, strings in found:
        where = path.relative_to(ROOT / "src").as_posix()
        for line, message in strings:
            if isinstance(message, tuple) and len(message) == 1:
                message = message[0]  # a keyword whose plural argument was absent
            key = message[0] if isinstance(message, tuple) else message
            if not key:
                continue
            entry = catalog.get(key)
            if entry is None:
                catalog.add(message, locations=[(where, line)])
            else:
                entry.locations.append((where, line))
    return catalog


def templates() -> dict[str, Catalog]:
    """Each domain's strings as the code has them now."""
    return {domain: _template(domain) for domain in ("mines", "web")}


def po_path(language: str, domain: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, include_previous=True)
    return out.getvalue()


def merged(language: str, domain: str, template: Catalog) -> Catalog:
    """A language's catalogue brought in step with the template: new strings empty, gone ones
    kept as obsolete (`#~`) for a translator to reuse."""
    path = po_path(language, domain)
    if path.exists():
        catalog = read_catalog(path, language)
    else:
        catalog = Catalog(locale=language, domain=domain, project="mines")
    catalog.update(template, update_header_comment=False)
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    catalog.fuzzy = False
    return catalog


def plural_indices(language: str) -> dict[str, int]:
    """Which gettext form (msgstr[i]) each CLDR plural category takes, for Intl.PluralRules:
    gettext's Plural-Forms rule evaluated on numbers of every category."""
    locale = Locale.parse(language)
    expression = get_plural(language).plural_expr
    rule = _c_plural(expression)
    indices: dict[str, int] = {}
    for number in [*range(250), 1000, 1_000_000, 10_000_000]:
        category = locale.plural_form(number)
        indices.setdefault(category, rule(number))
    indices.setdefault("other", get_plural(language).num_plurals - 1)
    return indices


def _c_plural(expression: str) -> Callable[[int], int]:
    rule: Callable[[int], int] = gettext.c2py(expression)
    return rule


def browser_json(language: str, catalog: Catalog) -> bytes:
    """The browser's catalogue: translated strings only (a missing one shows in English)."""
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        key = texts(message.id)[0]
        forms = texts(message.string)
        if len(texts(message.id)) > 1:
            if forms and all(forms):
                messages[key] = list(forms)
        elif forms and forms[0]:
            messages[key] = forms[0]
    body = {
        "language": BROWSER_TAGS[language],
        "plural": plural_indices(language),
        "messages": dict(sorted(messages.items())),
    }
    return (json.dumps(body, ensure_ascii=False, indent=0, sort_keys=False) + "\n").encode()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def outputs() -> dict[Path, bytes]:
    """Every file this tool writes, with the bytes it would write."""
    written: dict[Path, bytes] = {}
    for domain, template in templates().items():
        written[TRANSLATIONS / f"{domain}.pot"] = _po_bytes(template)
        for language in LANGUAGES:
            catalog = merged(language, domain, template)
            written[po_path(language, domain)] = _po_bytes(catalog)
            if domain == "mines":
                written[po_path(language, domain).with_suffix(".mo")] = mo_bytes(catalog)
            else:
                tag = BROWSER_TAGS[language]
                written[BROWSER_CATALOGUES / f"{tag}.json"] = browser_json(language, catalog)
    return written


def stale() -> list[Path]:
    """The files a run would change."""
    return [
        path for path, data in outputs().items() if not path.exists() or path.read_bytes() != data
    ]


def coverage() -> list[tuple[str, str, int, int]]:
    """(language, domain, strings translated, strings in the template), for each pair."""
    rows = []
    for domain, template in templates().items():
        wanted = [message.id for message in template if message.id]
        for language in LANGUAGES:
            catalog = read_catalog(po_path(language, domain), language)
            done = 0
            for key in wanted:
                found = catalog.get(key)
                forms = (
                    found.string
                    if found and isinstance(found.string, tuple)
                    else ((found.string,) if found else ("",))
                )
                done += bool(found and not found.fuzzy and all(forms))
            rows.append((language, domain, done, len(wanted)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; fail if a file is out of date"
    )
    parser.add_argument(
        "--coverage", action="store_true", help="print how many strings each language has"
    )
    args = parser.parse_args(argv)
    if args.coverage:
        for language, domain, done, total in coverage():
            print(f"{language:8} {domain:6} {done}/{total} ({100 * done / total:.1f}%)")
        return 0
    if args.check:
        late = stale()
        for path in late:
            print(f"out of date: {path.relative_to(ROOT)}", file=sys.stderr)
        if late:
            print("run: python tools/catalogues.py", file=sys.stderr)
        return 1 if late else 0
    for path, data in outputs().items():
        if not path.exists() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
