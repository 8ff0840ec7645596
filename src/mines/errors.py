"""The exceptions the core raises, all rooted at `MinesError`, one class per kind of wrong."""


class MinesError(Exception):
    """Base class of every error this package raises on purpose.

    Every error of the core (this module) is also a `ValueError`: the value or the request it
    was given cannot be, or cannot be now. The server's own errors (a game not found, a rate
    limit, storage down: `mines.server.common.errors`) are `MinesError`s about the service,
    not about a value, so they are not `ValueError`s.
    """


class InvalidBoardError(MinesError, ValueError):
    """A board, placement or game ID that cannot exist (wrong size, count or syntax)."""


class NoGuessTooLargeError(InvalidBoardError):
    """A no-guess board bigger or denser than the generator (or a server) makes; the message
    says the limit and what would work (a smaller board, or the same one without no-guess)."""


class InvalidMoveError(MinesError, ValueError):
    """Move text that cannot be read, such as `X3,4` or `O3`; the message shows the syntax.

    It is not an `IllegalMoveError`: that one says a move that was understood is not allowed.
    """


class IllegalMoveError(MinesError, ValueError):
    """A move that the rules do not allow now; the message says why."""


class OffBoardError(IllegalMoveError):
    """A move on a cell that is not on the board; the message gives the board's rows and cols.

    An `IllegalMoveError` (the game refuses the move and stays as it was), set apart because
    no state of the game would allow it: a server answers it as a bad request (422), not as a
    conflict with the game's state (409).
    """


class EngineLimitError(IllegalMoveError):
    """A move the rules allow but the engine cannot carry out at this board's size or density.

    It is an `IllegalMoveError` because the game refuses the move and stays as it was; the
    message says what to do instead (for example, play such a board with `engine="dense"`).
    """


class LobbyRefusedError(MinesError, ValueError):
    """A race room's lobby refuses: the race has started or is not over, the room is full,
    the name is taken, too few players, or the one asking is not the host. Not a move, so
    not an `IllegalMoveError`."""


class JoinRefusedError(LobbyRefusedError):
    """A player cannot join a race room: it is full, the name is taken, or it has started."""


class InvalidSettingsError(MinesError, ValueError):
    """Settings that choose how a race is played (its players, freeze, penalty or countdown)
    outside their range; not a board, so not an `InvalidBoardError`. The message gives the
    range."""


class InvalidViewError(MinesError, ValueError):
    """A view window that is not on the board, or whose bounds are not integers."""


class ViewTooLargeError(InvalidViewError):
    """A view of more cells than one snapshot may hold: ask for a window of the board instead."""


class MinesNotPlacedError(MinesError, ValueError):
    """A question only the layout answers (such as the 3BV), asked before the first reveal."""


class GameInProgressError(MinesError, ValueError):
    """Something published only once a game is over (such as its full record) asked for earlier."""
