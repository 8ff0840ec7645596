"""The exceptions the engine raises, all rooted at `MinesError`."""


class MinesError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidBoardError(MinesError, ValueError):
    """A board, placement or game ID that cannot exist (wrong size, count or syntax)."""


class IllegalMoveError(MinesError, ValueError):
    """A move that the rules do not allow now; the message says why."""
