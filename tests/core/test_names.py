"""Names with one meaning each: `GameStatus` in its own module, `CoordArray`; old paths kept."""

from __future__ import annotations

import mines
from mines import status, symbols


def test_game_status_has_its_own_home_and_the_old_imports_still_work() -> None:
    assert mines.GameStatus is status.GameStatus is symbols.GameStatus
    assert mines.Cell is symbols.Cell


def test_a_layout_array_is_a_coord_array_and_the_old_name_still_imports() -> None:
    from mines import placement

    assert placement.Positions is placement.CoordArray
