"""The end-of-game figures' one home (`mines.scoring`): units, rounding, wins only."""

from __future__ import annotations

import pytest

from mines.scoring import Score, efficiency, three_bv_per_second


def test_efficiency_is_3bv_per_click_in_percent() -> None:
    assert efficiency(18, 25) == 72.0
    assert efficiency(18, 0) is None
    assert three_bv_per_second(18, 4.0) == 4.5
    assert three_bv_per_second(18, 0.0) is None


def test_a_wins_figures_count_wasted_clicks_and_are_rounded_for_the_api() -> None:
    score = Score(three_bv=18, elapsed=7.0, won=True, useful_clicks=25, wasted_clicks=46)
    assert score.clicks == 71
    assert score.to_dict() == {
        "three_bv": 18,
        "clicks": 71,
        "useful_clicks": 25,
        "wasted_clicks": 46,
        "three_bv_per_second": 2.571,
        "efficiency": 25.4,
    }


@pytest.mark.parametrize("elapsed", [0.0, 3.0])
def test_a_loss_has_no_pace_and_no_efficiency(elapsed: float) -> None:
    score = Score(three_bv=18, elapsed=elapsed, won=False, useful_clicks=4)
    assert (score.three_bv_per_second, score.efficiency) == (None, None)
    assert score.to_dict()["clicks"] == 4
