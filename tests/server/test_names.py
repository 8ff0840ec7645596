"""Account names: the stored form, the refusals with their rule, and look-alikes as one name."""

from __future__ import annotations

import pytest

from mines.server.common.errors import InvalidNameError
from mines.server.services.names import (
    ACCOUNT_RULE,
    NAME_RULE,
    check_scripts,
    is_ignorable,
    prototype,
    skeletons,
    stored_name,
)

LOOK_ALIKES_OF_ANN = [
    pytest.param("ann", id="lower case"),
    pytest.param("ANN", id="upper case"),
    pytest.param("\u0410nn", id="Cyrillic A"),
    pytest.param("Ann\ufe0f", id="variation selector"),
    pytest.param("A\u200bnn", id="zero-width space"),
    pytest.param("\uff21\uff4e\uff4e", id="fullwidth"),
    pytest.param("\u0391\u039d\u039d", id="Greek capitals"),
    pytest.param(" Ann ", id="spaces around"),
    pytest.param("\U0001d400nn", id="mathematical bold A"),
]


def same_name(one: str, other: str) -> bool:
    """Whether `other` would be refused as taken once `one` is (either skeleton matches)."""
    return any(a == b for a, b in zip(skeletons(one), skeletons(other), strict=True))


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_ANN)
def test_look_alikes_of_a_name_are_that_name(name: str) -> None:
    assert same_name("Ann", name)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Annl", "Ann1"),  # l and 1 look alike in many fonts
        ("AnnI", "Annl"),  # capital I and small l
        ("BOB", "B0B"),  # O and zero
        ("modern", "rnodern"),  # m and rn
        ("Jos\u00e9", "Jose\u0301"),  # composed and decomposed
        ("\u051a\u051a", "qq"),  # Cyrillic capital Qa: its small letter looks like q
    ],
)
def test_look_alike_pairs_are_one_name(one: str, other: str) -> None:
    assert same_name(one, other)
    assert same_name(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Ann", "Anna"), ("Ann", "Ben"), ("Bob", "Rob"), ("Ian", "Lan"), ("山田", "山本")],
)
def test_different_names_stay_apart(one: str, other: str) -> None:
    assert not same_name(one, other)


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Ann", "Ann"),
        ("\uff21\uff4e\uff4e", "Ann"),
        ("  Ann  ", "Ann"),
        ("Jose\u0301", "Jos\u00e9"),
        ("Nguy\u1ec5n", "Nguy\u1ec5n"),
        ("O'Neil-Smith", "O'Neil-Smith"),
        ("山田太郎", "山田太郎"),
        ("やまだ太郎", "やまだ太郎"),  # Japanese mixes Hiragana and Han
        ("김철수", "김철수"),
        ("Иван", "Иван"),
        ("player_1", "player_1"),
    ],
)
def test_a_name_is_stored_in_its_normal_form(raw: str, stored: str) -> None:
    assert stored_name(raw) == stored
    check_scripts(stored)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        pytest.param("\u3164", "invisible or unassigned character", id="Hangul filler"),
        pytest.param("\uffa0", "invisible or unassigned", id="halfwidth Hangul filler"),
        pytest.param("\u17b4", "invisible or unassigned", id="Khmer inherent aq"),
        pytest.param("\u200b\u200d", "invisible or unassigned", id="zero-width"),
        pytest.param("Ann\ufe0f", "invisible or unassigned character, U+FE0F", id="selector"),
        pytest.param("   ", "it is empty", id="spaces"),
        pytest.param("", "it is empty", id="empty"),
        pytest.param("\u0410nn", "mixes CYRILLIC and LATIN", id="Cyrillic A in Latin"),
        pytest.param("P\u0430ypal", "mixes CYRILLIC and LATIN", id="Cyrillic a in Latin"),
        pytest.param("\u0391nn", "mixes GREEK and LATIN", id="Greek A in Latin"),
        pytest.param("x" * 25, "25 characters long, past 24", id="too long"),
        pytest.param("-Ann", "starts with '-', not a letter", id="starts with a dash"),
        pytest.param("Ann<script>", "holds '<'", id="markup"),
        pytest.param("Ann\u0000", "control character, U+0000", id="control character"),
        pytest.param("Z\u0301\u0302\u0303", "stack", id="stacked marks"),
    ],
)
def test_a_bad_name_is_refused_with_the_rule_in_words(raw: str, words: str) -> None:
    with pytest.raises(InvalidNameError) as refused:
        check_scripts(stored_name(raw))
    assert words in str(refused.value)


def test_the_refusal_shows_invisible_characters_as_code_points() -> None:
    with pytest.raises(InvalidNameError, match="U\\+3164") as refused:
        stored_name("\u3164")
    assert NAME_RULE in str(refused.value)
    with pytest.raises(InvalidNameError, match="look-alike") as mixed:
        check_scripts("\u0410nn")
    assert ACCOUNT_RULE in str(mixed.value)


@pytest.mark.parametrize("char", ["\u3164", "\uffa0", "\u17b4", "\ufe0f", "\u200b", "\U000e0001"])
def test_default_ignorable_characters_are_known(char: str) -> None:
    assert is_ignorable(char)


@pytest.mark.parametrize("char", ["A", "\u3131", "\u17b6", " "])
def test_visible_characters_are_not_ignorable(char: str) -> None:
    assert not is_ignorable(char)  # U+3131 is a Hangul letter, U+17B6 a Khmer vowel sign


def test_look_alike_characters_share_one_prototype() -> None:
    assert prototype("\u0430") == prototype("a")  # Cyrillic and Latin a
    assert prototype("m") == "rn"  # the longer look-alike stands for the class
    assert prototype("é") == "é"  # not confusable with anything: itself
