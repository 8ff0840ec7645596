"""The classic interview interfaces, as thin adapters over `mines.Game`."""

from mines.compat.leetcode import update_board
from mines.compat.takehome import Minesweeper

__all__ = ["Minesweeper", "update_board"]
