"""Account names people can tell apart: the stored form, the refusals, the look-alike skeletons."""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Annotated

from confusable_homoglyphs import categories, confusables
from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError

from mines.server.common.errors import InvalidNameError
from mines.server.services.leaderboard import PLAYER_PATTERN, normalize_player


def _normal_name(value: object) -> object:
    # Normalised before the pattern is checked, so look-alike names become one name.
    return normalize_player(value) if isinstance(value, str) else value


PlayerName = Annotated[str, BeforeValidator(_normal_name), Field(pattern=PLAYER_PATTERN)]
"""A player's name, by the one rule the server and the browser share (`/api/meta` publishes
it): NFKC, the ends trimmed, then `PLAYER_PATTERN` and `normalize_player`'s refusals."""


DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15.1):
characters drawn as nothing, such as the Hangul fillers U+3164 and U+FFA0, U+17B4 and the
variation selectors. Python's `unicodedata` does not expose the property, so it is listed here."""

NAME_RULE = (
    "1 to 24 letters or digits of any script (with their combining marks), spaces, dots, "
    "apostrophes, dashes or underscores, starting with a letter, digit or underscore, "
    "all of one script (Japanese may mix Han, Hiragana and Katakana, Korean Hangul and Han, "
    "and either with Latin)"
)
"""The rule for account names, in the words an `invalid_name` answer uses."""

NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
"""Digits, punctuation and combining marks belong to every script."""
SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The mixes of scripts that real names use (UTS #39's "highly restrictive" level); any other
mix, such as Cyrillic with Latin, is how look-alike names are made."""
_name_check: TypeAdapter[str] = TypeAdapter(PlayerName)


def is_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def without_ignorables(text: str) -> str:
    return "".join(char for char in text if not is_ignorable(char))


def shown(name: str) -> str:
    """A name as an answer may repeat it: invisible characters written as U+XXXX."""
    short = name if len(name) <= 32 else f"{name[:32]}…"
    return "".join(f"U+{ord(c):04X}" if is_ignorable(c) or c.isspace() else c for c in short)


def stored_name(raw: str) -> str:
    """A new account's name as it is stored and shown: NFKC, invisible characters removed,
    the ends trimmed; `InvalidNameError`, saying which rule, when it breaks one (but for the
    scripts it mixes: `check_scripts`)."""
    text = without_ignorables(unicodedata.normalize("NFKC", raw)).strip()
    if not text:
        raise InvalidNameError(
            f"the name {shown(raw)!r} is empty once its invisible characters are removed; "
            f"a name is {NAME_RULE}"
        )
    try:
        text = _name_check.validate_python(text)
    except ValidationError as problem:
        reason = problem.errors()[0].get("msg", "")
        if "pattern" in reason:
            reason = f"a name is {NAME_RULE}"
        raise InvalidNameError(f"the name {shown(raw)!r} is refused: {reason}") from None
    return text


def check_scripts(name: str) -> None:
    """`InvalidNameError` unless the name is of one script, or of a mix real names use.

    Apart from `stored_name`: a look-alike of a taken name is refused as taken first (a
    Cyrillic A, U+0410, in place of the Latin one is `name_taken` when `Ann` exists, and
    mixed-script when not).
    """
    scripts = categories.unique_aliases(name) - NEUTRAL_SCRIPTS
    if len(scripts) > 1 and not any(scripts <= mix for mix in SCRIPT_MIXES):
        raise InvalidNameError(
            f"the name {shown(name)!r} mixes {' and '.join(sorted(scripts))} letters, as "
            f"look-alike names do; a name is {NAME_RULE}"
        )


def skeletons(name: str) -> tuple[str, str]:
    """What a name looks like, by which two names are one: NFKC, invisible characters
    removed, case folded and Unicode's confusables (UTS #39) mapped to one prototype.

    Two skeletons, as case folding and look-alikes do not combine into one equivalence
    ("Ian" looks like "lan", which folds like "Lan", which does not look like "Ian"): the
    first folds then maps (`Ann`, `ann`, `Ann` with a Cyrillic A (U+0410), `Ann` in fullwidth
    letters and `Ann` + U+FE0F are one), the second maps then folds (`BOB` and `B0B` are
    one). A name is taken when either of its skeletons is another name's same skeleton.
    """
    text = without_ignorables(unicodedata.normalize("NFKC", name)).strip()
    folded = _mapped(_fold(text))
    return _fold(folded), _fold(_mapped(text))


def _fold(text: str) -> str:
    return without_ignorables(unicodedata.normalize("NFKC", text).casefold())


def _mapped(text: str) -> str:
    return "".join(prototype(char) for char in text)


def prototype(char: str) -> str:
    """The one string standing for every character that looks like `char`."""
    return _prototypes().get(char, char)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from the library's table of look-alike pairs.

    The table holds each pair both ways, so the classes are built here (union-find) and each
    gets one prototype: a string of several characters when the class has one (`m` looks
    like `rn`), else an ASCII character, else the lowest code point. The library writes
    right-to-left strings between U+200E marks, which are not part of them.
    """
    parent: dict[str, str] = {}

    def root(item: str) -> str:
        while parent.setdefault(item, item) != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for key, entries in confusables.confusables_data.items():
        source = key.replace("\u200e", "").replace("\u200f", "")
        for entry in entries:
            other = entry["c"].replace("\u200e", "").replace("\u200f", "")
            if source and other:
                parent[root(source)] = root(other)
    classes: dict[str, list[str]] = {}
    for item in parent:
        classes.setdefault(root(item), []).append(item)
    table: dict[str, str] = {}
    for members in classes.values():
        best = min(members, key=lambda m: (-len(m), not m.isascii(), [ord(c) for c in m]))
        for member in members:
            if len(member) == 1 and member != best:
                table[member] = best
    return table
