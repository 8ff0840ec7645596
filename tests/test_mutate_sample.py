"""`./dev mutate --sample`'s arithmetic: the interval it prints around a sampled kill rate."""

from __future__ import annotations

import pytest

from benchmarks.mutate import Tally, to_judge, wilson


def test_the_interval_holds_the_rate_and_narrows_with_the_sample() -> None:
    low, high = wilson(90, 100)
    assert low < 0.9 < high
    assert (low, high) == pytest.approx((0.8256, 0.9448), abs=1e-4)  # Wilson's, by hand
    wide, narrow = wilson(9, 10), wilson(900, 1000)
    assert wide[1] - wide[0] > high - low > narrow[1] - narrow[0]


def test_the_interval_stays_inside_nought_and_one_at_the_ends() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 50)
    assert high == 1.0
    assert 0.9 < low < 1.0
    low, high = wilson(0, 50)
    assert low == 0.0
    assert 0.0 < high < 0.1


def test_a_sample_counts_no_tests_as_survived_and_leaves_out_the_unjudged() -> None:
    sample = Tally({"a": "killed", "b": "timeout", "c": "no tests", "d": "not checked"})
    assert (sample.killed, sample.judged, sample.lived) == (2, 3, ["c"])


def test_a_sample_judges_again_only_survivors_timeouts_and_the_unjudged() -> None:
    verdicts = {
        "a": "killed",
        "b": "timeout",
        "c": "no tests",
        "d": "not checked",
        "e": "survived",
        "f": "caught by type check",
        "g": "suspicious",
    }
    assert to_judge(verdicts, ["a", "b", "c", "d", "e", "f", "g"]) == ["b", "c", "d", "e", "g"]
    assert to_judge(verdicts, ["a", "e"]) == ["e"]
