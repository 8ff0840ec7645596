"""The one name rule (accounts, game players, race players): the stored form, the refusals
with the rule they break, and for accounts the scripts and the look-alike skeletons."""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Annotated, NoReturn

from confusable_homoglyphs import categories, confusables
from pydantic import Field, TypeAdapter, ValidationError

from mines.server.common.errors import InvalidNameError

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

NAME_MAX = 24
"""The most characters a name may have, once in its stored form."""
NAME_MARKS = 2
"""More combining marks than this on one letter (decomposed) is "stacked" (Zalgo text) and
refused; two allow Vietnamese letters such as ệ."""
NAME_PATTERN = r"^[\p{L}\p{N}_][\p{L}\p{M}\p{N}_ .'\-]{0,23}$"
"""The characters of a name, as a pattern that Rust's regex (pydantic's) and ECMAScript's with
flag u read alike: the page checks names with this very pattern, from /api/meta."""
NAME_PUNCTUATION = "_ .'-"
NAME_INVISIBLE = r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]"
"""The invisible characters `player_name` refuses, as an ECMAScript (flag u) class for the page."""
NAME_RULE = (
    f"1 to {NAME_MAX} letters or digits of any script (with their combining marks), spaces, "
    "dots, apostrophes, dashes or underscores, starting with a letter, digit or underscore, "
    "with no invisible characters"
)
"""The rule for every name (accounts, game players, race players), in the words a refusal
uses and /api/meta serves."""
ACCOUNT_RULE = (
    "all of one script (Japanese may mix Han, Hiragana and Katakana, Korean Hangul and Han, "
    "and either with Latin), and not a look-alike of another account's name"
)
"""What an account's name must be besides (`check_scripts`, `skeletons`): an account is an
identity others rely on, a game's or a race's player name a label."""

NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
"""Digits, punctuation and combining marks belong to every script."""
SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The mixes of scripts that real names use (UTS #39's "highly restrictive" level); any other
mix, such as Cyrillic with Latin, is how look-alike names are made."""
_pattern: TypeAdapter[str] = TypeAdapter(Annotated[str, Field(pattern=NAME_PATTERN)])


def is_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def without_ignorables(text: str) -> str:
    return "".join(char for char in text if not is_ignorable(char))


def shown(name: str) -> str:
    """A name as an answer may repeat it: invisible characters written as U+XXXX."""
    short = name if len(name) <= 32 else f"{name[:32]}…"
    return "".join(f"U+{ord(c):04X}" if is_ignorable(c) or c.isspace() else c for c in short)


def player_name(raw: str) -> str:
    """A name as it is stored and shown, by the one rule of accounts, game players and race
    players: NFKC, the ends trimmed; `InvalidNameError` saying which part of `NAME_RULE` it
    breaks (empty, invisible or control characters, stacked marks, too long, its first
    character, a character outside the rule)."""
    text = unicodedata.normalize("NFKC", raw).strip()
    if not text:
        return _refuse(raw, "it is empty")
    run = 0
    # Marks are counted decomposed: NFKC folds one accent into its letter, not a stack of them.
    for char in unicodedata.normalize("NFD", text):
        category = unicodedata.category(char)
        if is_ignorable(char) or category in ("Cf", "Cs", "Co", "Cn"):
            _refuse(raw, f"it holds an invisible or unassigned character, U+{ord(char):04X}")
        if category == "Cc":
            _refuse(raw, f"it holds a control character, U+{ord(char):04X}")
        run = run + 1 if category in ("Mn", "Me") else 0
        if run > NAME_MARKS:
            _refuse(raw, f"it stacks more than {NAME_MARKS} combining marks on one letter")
    if len(text) > NAME_MAX:
        _refuse(raw, f"it is {len(text)} characters long, past {NAME_MAX}")
    first = text[0]
    if not (unicodedata.category(first)[0] in "LN" or first == "_"):
        _refuse(raw, f"it starts with {shown(first)!r}, not a letter, digit or underscore")
    for char in text:
        if unicodedata.category(char)[0] not in "LMN" and char not in NAME_PUNCTUATION:
            _refuse(raw, f"it holds {shown(char)!r}, which is not a letter, digit or mark")
    try:
        return _pattern.validate_python(text)
    except ValidationError:
        # The served pattern is the last word (the page checks with it); not reached so far.
        return _refuse(raw, "it does not match the pattern /api/meta serves")


def _refuse(raw: str, reason: str) -> NoReturn:
    raise InvalidNameError(f"the name {shown(raw)!r} is refused: {reason}; a name is {NAME_RULE}")


def stored_name(raw: str) -> str:
    """A new account's name as it is stored and shown (`player_name`); the scripts it mixes
    are checked apart (`check_scripts`)."""
    return player_name(raw)


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
            f"look-alike names do; an account's name is {ACCOUNT_RULE}"
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
