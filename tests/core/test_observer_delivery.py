"""Observers run under the game's lock, in move order, seeing the game their move left.

README.md and docs/design.md say so; these tests hold the code to it. Should delivery ever
move outside the lock, the first test fails and the docs must change with it.
"""

from __future__ import annotations

import threading

from mines import FixedPlacer, Game, GameStatus
from mines.engine import CellChanges

WAIT = 5.0
"""Seconds a thread is given for what must happen soon; only a broken test waits this long."""


def strip() -> Game:
    """A 1x7 strip with a mine at (0, 5): revealing (0, 0) opens `00001HH`."""
    return Game(1, 7, 1, placer=FixedPlacer([(0, 5)]))


def test_an_observer_holds_the_lock_so_other_threads_wait() -> None:
    game = strip()
    entered, release = threading.Event(), threading.Event()

    def slow(changes: CellChanges) -> None:
        entered.set()
        release.wait(WAIT)

    game.on_cells(slow)
    mover = threading.Thread(target=game.reveal, args=(0, 0))
    mover.start()
    assert entered.wait(WAIT)
    seen: list[str] = []
    viewer = threading.Thread(target=lambda: seen.append(str(game.view())))
    viewer.start()
    viewer.join(0.2)
    # A view taken outside the lock would be back at once; under it, it waits for the observer.
    assert viewer.is_alive()
    assert not seen
    release.set()
    mover.join(WAIT)
    viewer.join(WAIT)
    assert seen == ["00001HH"]


def test_an_observer_sees_the_game_its_move_left_and_may_read_it() -> None:
    game = strip()
    seen: list[tuple[str, str, GameStatus]] = []
    game.on_cells(lambda changes: seen.append(("cells", str(game.view()), game.status)))
    game.on_status(lambda status: seen.append(("status", str(game.view()), status)))
    game.reveal(0, 0)
    game.reveal(0, 4)  # already open: not a move, so no call
    game.toggle_flag(0, 5)
    game.reveal(0, 6)  # the last safe cell: the observers of this move already see WON
    assert seen == [
        ("cells", "00001HH", GameStatus.IN_PROGRESS),
        ("cells", "00001FH", GameStatus.IN_PROGRESS),
        ("cells", "00001F1", GameStatus.WON),  # the opened cell
        ("cells", "00001F1", GameStatus.WON),  # the mines, which show flags once won
        ("status", "00001F1", GameStatus.WON),
    ]


def test_calls_come_in_the_order_of_the_moves_across_threads() -> None:
    game = strip()
    game.reveal(0, 0)
    calls: list[tuple[int, int]] = []
    game.on_cells(calls.extend)

    def flagger(col: int) -> None:
        for _ in range(200):
            game.toggle_flag(0, col)

    workers = [threading.Thread(target=flagger, args=(col,)) for col in (5, 6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(WAIT)
    logged = [(timed.move.row, timed.move.col) for timed in game.record().moves[1:]]
    assert len(logged) == 400
    assert calls == logged
