"""What ranks as a best time: the one predicate (`mines.ranking`), its reasons in order."""

from __future__ import annotations

import pytest

from mines.ranking import HUMAN_PACE, too_fast, unranked_reason

WIN = ("beginner", "opening", "beginner", True, False, "WON", (20, 10.0))


def test_a_signed_in_human_win_on_a_preset_ranks() -> None:
    assert unranked_reason(*WIN) is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({0: None, 2: None}, "custom"),
        ({1: "safe", 2: None}, "custom"),
        ({2: None}, "seeded"),
        ({3: False}, "anonymous"),
        ({4: True}, "assisted"),
        ({5: "LOST"}, "lost"),
        ({6: (20, 0.0)}, "too_fast"),
        ({6: (501, 10.0)}, "too_fast"),
    ],
)
def test_each_reason(change: dict[int, object], reason: str) -> None:
    args = [change.get(i, value) for i, value in enumerate(WIN)]
    assert unranked_reason(*args) == reason  # type: ignore[arg-type]


def test_a_daily_board_ranks_its_first_game_only() -> None:
    assert unranked_reason(*WIN, daily_first=True) is None
    assert unranked_reason(*WIN, daily_first=False) == "practice"


def test_the_human_pace_is_a_bound_on_presets_only() -> None:
    assert not too_fast("beginner", int(HUMAN_PACE["beginner"] * 10), 10.0)
    assert too_fast("beginner", int(HUMAN_PACE["beginner"] * 10) + 1, 10.0)
    assert not too_fast(None, 10_000, 1.0)  # a custom board: only a win in no time
    assert too_fast(None, 1, 0.0)
