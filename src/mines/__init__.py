"""A fast, correct, UI-free Minesweeper engine: `Game`, its views, placers and records."""

from mines.engine import CellChanges, CellState, EngineKind
from mines.errors import (
    EngineLimitError,
    GameInProgressError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    InvalidSettingsError,
    InvalidViewError,
    JoinRefusedError,
    LobbyRefusedError,
    MinesError,
    MinesNotPlacedError,
    NoGuessTooLargeError,
    OffBoardError,
    ViewTooLargeError,
)
from mines.game import Game
from mines.gameid import GameId
from mines.moves import Move, MoveKind
from mines.placement import (
    FirstClick,
    FixedPlacer,
    MinePlacer,
    PlacementRule,
    RandomPlacer,
    placer_for_rule,
    register_rule,
)
from mines.presets import PRESETS, BoardSize, Preset, board_size
from mines.record import GameRecord, TimedMove
from mines.replay import replay, replay_steps
from mines.status import GameStatus
from mines.symbols import Cell
from mines.view import BoardView

__version__ = "0.1.0"
"""The package's version, its one source (the build reads it); CHANGELOG.md says what changed."""

__all__ = [
    "PRESETS",
    "BoardSize",
    "BoardView",
    "Cell",
    "CellChanges",
    "CellState",
    "EngineKind",
    "EngineLimitError",
    "FirstClick",
    "FixedPlacer",
    "Game",
    "GameId",
    "GameInProgressError",
    "GameRecord",
    "GameStatus",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidMoveError",
    "InvalidSettingsError",
    "InvalidViewError",
    "JoinRefusedError",
    "LobbyRefusedError",
    "MinePlacer",
    "MinesError",
    "MinesNotPlacedError",
    "Move",
    "MoveKind",
    "NoGuessTooLargeError",
    "OffBoardError",
    "PlacementRule",
    "Preset",
    "RandomPlacer",
    "TimedMove",
    "ViewTooLargeError",
    "board_size",
    "placer_for_rule",
    "register_rule",
    "replay",
    "replay_steps",
]
