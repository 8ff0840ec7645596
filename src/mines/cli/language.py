"""`mines language`: shows the terminal game's language and keeps the one chosen as a setting."""

from __future__ import annotations

import argparse
from typing import Any

from mines.errors import InvalidBoardError
from mines.tui import language
from mines.tui.language import _


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "language",
        help="show or set the terminal game's language (en, de, es, zh_Hans)",
        description="With no NAME: the language in use and where it comes from. With a NAME "
        "(en, de, es, zh_Hans, or a locale such as de_DE): kept as the setting, which --lang "
        "overrides and which overrides LANG/LC_*. With auto: the setting is removed.",
    )
    parser.add_argument("name", nargs="?", help="a language, or auto to follow the locale")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        names = ", ".join(f"{code} ({name})" for code, name in language.LANGUAGES.items())
        print(
            _("Language: {name} ({code}).").format(
                name=language.LANGUAGES[language.current()], code=language.current()
            )
        )
        print(_("Languages: {names}.").format(names=names))
        return 0
    if args.name == "auto":
        path = language.save_language(None)
        print(
            _(
                "The language follows the locale (LANG, LC_ALL) again; the setting is in {path}."
            ).format(path=path)
        )
        return 0
    try:
        chosen = language.choose(args.name)
    except ValueError as error:
        raise InvalidBoardError(str(error)) from None
    path = language.save_language(chosen)
    language.use(chosen)
    print(
        _("Language: {name} ({code}), kept in {path}.").format(
            name=language.LANGUAGES[chosen], code=chosen, path=path
        )
    )
    return 0
