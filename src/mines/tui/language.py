"""The terminal game's language: chosen from --lang, the saved setting or the locale, and its words.

The catalogues are gettext's (`src/mines/translations/<lang>/LC_MESSAGES/mines.po`, compiled
to `.mo` by `tools/catalogues.py`), read with the standard library's `gettext`, so line mode
needs no extra; Babel (the `tui` extra) formats numbers and dates as the locale writes them,
and without it they are written as in English.
"""

from __future__ import annotations

import gettext
import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path

from mines.datadir import data_dir

DOMAIN = "mines"
FOLDER = Path(__file__).resolve().parents[1] / "translations"
"""Where the catalogues are: one folder per language, as gettext lays them out."""
LANGUAGES = {"en": "English", "de": "Deutsch", "es": "Español", "zh_Hans": "简体中文"}
"""Every language the terminal game speaks, by its gettext name, named in itself."""
DEFAULT = "en"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Read in gettext's order: the first one set decides (LANGUAGE may list several, by ':')."""
SETTINGS_FILE = "settings.json"

_ALIASES = {"zh": "zh_Hans", "zh_CN": "zh_Hans", "zh_SG": "zh_Hans", "zh_Hans_CN": "zh_Hans"}
"""Locale names that mean a language the game speaks under another name: mainland and
Singapore Chinese are written in simplified characters (Taiwan's and Hong Kong's are not)."""


def language_of(name: str) -> str | None:
    """The game's language for a locale or language name ("de_AT.UTF-8", "es-419", "zh-CN"),
    or None when it speaks none that fits ("C", "POSIX", "fr_FR", "zh_TW")."""
    name = name.split(".")[0].split("@")[0].replace("-", "_")
    if name in LANGUAGES:
        return name
    if name in _ALIASES:
        return _ALIASES[name]
    parts = name.split("_")
    if parts[0] == "zh":
        return "zh_Hans" if len(parts) > 1 and parts[1] in ("Hans", "CN", "SG") else None
    return parts[0] if parts[0] in LANGUAGES else None


def from_locale(environ: Mapping[str, str]) -> str | None:
    """The language the locale variables ask for, as gettext reads them, or None."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for name in value.split(":"):
            if found := language_of(name):
                return found
        if variable != "LANGUAGE":
            return None  # the first locale set decides, as gettext has it
    return None


def settings_path(environ: Mapping[str, str] = os.environ) -> Path:
    return data_dir(environ) / SETTINGS_FILE


def saved_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The language `mines language NAME` saved, or None (no setting, or one unreadable)."""
    try:
        saved = json.loads(settings_path(environ).read_text(encoding="utf-8")).get("language")
    except (OSError, ValueError, AttributeError):
        return None
    return saved if saved in LANGUAGES else None


def save_language(language: str | None, environ: Mapping[str, str] = os.environ) -> Path:
    """Keep `language` as the setting (None: follow the locale again); returns the file."""
    path = settings_path(environ)
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(settings, dict):
            settings = {}
    except (OSError, ValueError):
        settings = {}
    if language is None:
        settings.pop("language", None)
    else:
        settings["language"] = language
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    return path


def choose(option: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """`--lang` first, then the saved setting, then the locale (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG), then English."""
    if option:
        found = language_of(option)
        if found is None:
            raise ValueError(
                f"no language {option!r}: choose one of {', '.join(LANGUAGES)} "
                "(or a locale such as de_DE or zh_CN)"
            )
        return found
    return saved_language(environ) or from_locale(environ) or DEFAULT


def option_in(argv: Sequence[str]) -> str | None:
    """The value of `--lang` in a command line, read before the parser is built: the words of
    its help and of the modules it imports are in the chosen language."""
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.removeprefix("--lang=")
    return None


def without_option(argv: Sequence[str]) -> list[str]:
    """The command line less `--lang NAME` wherever it stands (the parser knows it only before
    the command), so that `mines play --lang de` works as `mines --lang de play` does."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("--lang="):
            kept.append(arg)
    return kept


_current = DEFAULT
_translations: gettext.NullTranslations = gettext.NullTranslations()


def use(language: str) -> None:
    """Speak `language` from now on (a name of LANGUAGES)."""
    global _current, _translations
    if language not in LANGUAGES:
        raise ValueError(f"no language {language!r}: choose one of {', '.join(LANGUAGES)}")
    _current = language
    _translations = gettext.translation(DOMAIN, FOLDER, [language], fallback=True)


def current() -> str:
    return _current


def _(message: str) -> str:
    """`message` in the current language (itself when a catalogue lacks it)."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` by the language's plural rule (German two forms, Chinese one)."""
    return _translations.ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for it)
    """Marks a message for the catalogue where it is defined; `_` translates it where shown."""
    return message


def _babel_locale() -> str:
    return "zh_Hans_CN" if _current == "zh_Hans" else _current


def number(value: float) -> str:
    """A number as the language writes it: 15,895,859 in English, 15.895.859 in German."""
    try:
        from babel.numbers import format_decimal
    except ImportError:
        return f"{value:,}"
    return format_decimal(value, locale=_babel_locale())


def local_datetime(moment: datetime) -> str:
    """A date and time, short, as the language writes them (ISO order without Babel)."""
    try:
        from babel.dates import format_datetime
    except ImportError:
        return f"{moment:%Y-%m-%d %H:%M}"
    return format_datetime(moment, "short", tzinfo=moment.tzinfo, locale=_babel_locale())
