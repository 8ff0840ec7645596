"""The translation catalogues: made from the code as it is, complete in every language, and
the terminal's language chosen from --lang, the setting or the locale, with plural forms."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest

from mines.tui import language
from tools import catalogues

pytest.importorskip("babel")

PLACEHOLDER = re.compile(r"\{[a-z_0-9]*(?:[:!][^}]*)?\}")


def test_the_generated_files_are_what_the_po_files_and_the_code_make() -> None:
    """A string added to the code (a `t("...")`, a `_("...")`, a page's text) or a .po edited
    without running tools/catalogues.py leaves a template, a .po, a .mo or a JSON out of date."""
    assert catalogues.stale() == [], "run: python tools/catalogues.py"


def _translated(message: object) -> bool:
    string = getattr(message, "string", None)
    forms = string if isinstance(string, tuple) else (string,)
    return not getattr(message, "fuzzy", False) and all(forms)


@pytest.mark.parametrize("language_code", catalogues.LANGUAGES)
@pytest.mark.parametrize("domain", ["mines", "web"])
def test_every_string_is_translated_in_every_language(domain: str, language_code: str) -> None:
    template = catalogues.templates()[domain]
    catalog = catalogues.read_catalog(catalogues.po_path(language_code, domain), language_code)
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        if found is None or not _translated(found):
            missing.append(message.id)
    assert missing == [], f"{domain}.po of {language_code} lacks {len(missing)}: {missing[:5]}"


@pytest.mark.parametrize("language_code", catalogues.LANGUAGES)
@pytest.mark.parametrize("domain", ["mines", "web"])
def test_a_translation_keeps_every_placeholder(domain: str, language_code: str) -> None:
    catalog = catalogues.read_catalog(catalogues.po_path(language_code, domain), language_code)
    wrong = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = catalogues.texts(message.id)
        wanted: set[str] = set().union(*(PLACEHOLDER.findall(text) for text in ids))
        forms = catalogues.texts(message.string)
        for form in forms:
            # A plural form may leave the count out ("一局" needs no number in some languages).
            if not set(PLACEHOLDER.findall(form)) <= wanted or not (
                wanted - {"{n}"} <= set(PLACEHOLDER.findall(form))
            ):
                wrong.append((ids[0], form))
    assert wrong == []


def _page_catalogue(tag: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (catalogues.BROWSER_CATALOGUES / f"{tag}.json").read_text(encoding="utf-8")
    )
    messages = data["messages"]
    assert isinstance(messages, dict)
    return messages


@pytest.mark.parametrize("tag", catalogues.BROWSER_TAGS.values())
@pytest.mark.parametrize("page", [path.name for path in catalogues.pages()])
def test_every_string_of_each_page_is_in_every_browser_catalogue(page: str, tag: str) -> None:
    messages = _page_catalogue(tag)
    strings = {text for _, text in catalogues.page_strings(catalogues.STATIC / page)}
    assert strings, page
    assert sorted(strings - set(messages)) == []


@pytest.mark.parametrize("tag", catalogues.BROWSER_TAGS.values())
@pytest.mark.parametrize("script", [path.name for path in catalogues.scripts()])
def test_every_string_of_each_script_is_in_every_browser_catalogue(script: str, tag: str) -> None:
    messages = _page_catalogue(tag)
    strings = set()
    for _, message in catalogues.script_strings(catalogues.STATIC / "js" / script):
        strings.add(message[0] if isinstance(message, tuple) else message)
    assert sorted(strings - set(messages)) == []


def test_a_page_string_missing_from_a_catalogue_is_found(tmp_path: Path) -> None:
    """The check itself: a page with a new sentence yields it, and no catalogue has it."""
    page = tmp_path / "new.html"
    page.write_text(
        '<p title="A new title">A new <b>sentence</b> here.</p><h1 translate="no">x y</h1>'
    )
    found = [text for _, text in catalogues.page_strings(page)]
    assert found == ["A new title", "A new", "sentence", "here."]
    assert "A new" not in _page_catalogue("de")


def test_the_browser_catalogues_map_each_intl_plural_category_to_a_gettext_form() -> None:
    assert json.loads((catalogues.BROWSER_CATALOGUES / "de.json").read_text())["plural"] == {
        "one": 0,
        "other": 1,
    }
    # Spanish has a third form for millions ("un millón de minas"), as CLDR and gettext say.
    assert json.loads((catalogues.BROWSER_CATALOGUES / "es.json").read_text())["plural"] == {
        "one": 0,
        "many": 1,
        "other": 2,
    }
    assert json.loads((catalogues.BROWSER_CATALOGUES / "zh-Hans.json").read_text())["plural"] == {
        "other": 0
    }


@pytest.fixture
def spoken() -> object:
    yield
    language.use("en")


@pytest.mark.usefixtures("spoken")
def test_plural_forms_follow_each_languages_rule() -> None:
    from mines.tui.words import plural

    language.use("de")
    assert plural(1, "{n} cell", "{n} cells") == "1 Feld"
    assert plural(1234, "{n} cell", "{n} cells") == "1.234 Felder"
    language.use("es")
    assert plural(1, "{n} mine", "{n} mines") == "1 mina"
    assert plural(2, "{n} mine", "{n} mines") == "2 minas"
    assert plural(1_000_000, "{n} mine", "{n} mines") == "1.000.000 minas"
    language.use("zh_Hans")
    assert plural(1, "{n} mine", "{n} mines") == "1 个雷"
    assert plural(7, "{n} mine", "{n} mines") == "7 个雷"
    language.use("en")
    assert plural(1, "{n} mine", "{n} mines") == "1 mine"
    assert plural(15_895_859, "{n} cell", "{n} cells") == "15,895,859 cells"


@pytest.mark.usefixtures("spoken")
def test_the_terminal_game_speaks_the_chosen_language() -> None:
    from mines.status import GameStatus
    from mines.tui.words import state_word, verdict

    language.use("de")
    assert verdict(GameStatus.WON) == "Du hast gewonnen!"
    language.use("es")
    assert state_word(GameStatus.IN_PROGRESS, started=True) == "Jugando"
    language.use("zh_Hans")
    assert verdict(GameStatus.LOST) == "轰！你踩到了雷。"  # noqa: RUF001 (Chinese punctuation)
    language.use("en")
    assert verdict(GameStatus.WON) == "You won!"


@pytest.mark.parametrize(
    ("environ", "chosen"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "es_MX.UTF-8"}, "es"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_Hans"),
        ({"LANG": "zh_TW.UTF-8"}, "en"),  # traditional characters: not simplified Chinese
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LC_MESSAGES": "de_AT.UTF-8", "LANG": "es_ES.UTF-8"}, "de"),
        ({"LANGUAGE": "fr:de", "LANG": "es_ES.UTF-8"}, "de"),
    ],
)
def test_the_language_comes_from_the_locale(
    environ: dict[str, str], chosen: str, tmp_path: Path
) -> None:
    environ = {**environ, "MINES_DATA_DIR": str(tmp_path)}
    assert language.choose(None, environ) == chosen


def test_lang_and_the_setting_come_before_the_locale(tmp_path: Path) -> None:
    environ = {"MINES_DATA_DIR": str(tmp_path), "LANG": "de_DE.UTF-8"}
    language.save_language("es", environ)
    assert language.choose(None, environ) == "es"
    assert language.choose("zh-CN", environ) == "zh_Hans"
    language.save_language(None, environ)
    assert language.choose(None, environ) == "de"
    with pytest.raises(ValueError, match="no language 'fr'"):
        language.choose("fr", environ)


def test_lang_is_read_wherever_it_stands_on_the_command_line() -> None:
    argv = ["play", "--lang", "de", "--plain"]
    assert language.option_in(argv) == "de"
    assert language.without_option(argv) == ["play", "--plain"]
    assert language.option_in(["--lang=es", "stats"]) == "es"
    assert language.without_option(["--lang=es", "stats"]) == ["stats"]


def test_every_compiled_catalogue_loads_with_the_standard_library() -> None:
    """Line mode needs no extra: the .mo files are read by gettext alone."""
    for code in catalogues.LANGUAGES:
        found = gettext.translation(language.DOMAIN, language.FOLDER, [code])
        assert found.gettext("Bye.") != "Bye."


def _mines(args: list[str], environ: dict[str, str], stdin: str = "") -> str:
    import os
    import subprocess
    import sys

    src = str(Path(language.__file__).resolve().parents[2])
    answer = subprocess.run(
        [sys.executable, "-m", "mines.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": src, "LANG": "C", **environ},
        timeout=120,
        check=False,
    )
    return answer.stdout + answer.stderr


def test_line_mode_speaks_lang_the_setting_and_the_locale(tmp_path: Path) -> None:
    data = {"MINES_DATA_DIR": str(tmp_path)}
    assert "Tschüss." in _mines(["play", "--plain", "--lang", "de"], data, "q\n")
    assert "再见。" in _mines(["play", "--plain"], {**data, "LANG": "zh_CN.UTF-8"}, "q\n")
    said = _mines(["language", "es"], data)
    assert "Español (es)" in said
    assert "Adiós." in _mines(["play", "--plain"], {**data, "LANG": "de_DE.UTF-8"}, "q\n")
    assert "Bye." in _mines(["--lang", "en", "play", "--plain"], data, "q\n")
    assert "no language 'fr'" in _mines(["play", "--lang", "fr"], data)
