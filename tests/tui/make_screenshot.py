"""Draw docs/screenshot.svg: an expert game in progress, via Textual's SVG screenshot.

Run with `python -m tests.tui.make_screenshot`. The board, moves and clock are fixed,
so the picture only changes when the app's look does.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from mines.game import Game
from mines.symbols import Cell
from mines.tui.app import MinesApp
from mines.tui.clock import PausableClock
from mines.tui.themes import THEMES
from tests.fake_time import FakeTime

OUTPUT = Path(__file__).resolve().parents[2] / "docs" / "screenshot.svg"


def play_some(game: Game) -> None:
    """Open the middle, then flag the mines around the left half's numbers and chord them."""
    game.reveal(8, 12)
    mines = set(game.record().layout or ())
    for _ in range(2):
        view = game.view()
        for row, col, cell in view.cells():
            if cell.number and col < 16 and not game.status.is_over:
                for r in range(max(row - 1, 0), min(row + 2, game.rows)):
                    for c in range(max(col - 1, 0), min(col + 2, game.cols)):
                        if (r, c) in mines and game.view(r, c, 1, 1)[r, c] is Cell.HIDDEN:
                            game.toggle_flag(r, c)
                game.chord(row, col)


async def main() -> None:
    time = FakeTime(0.0)
    clock = PausableClock(time)
    game = Game(16, 30, 99, seed=4242, clock=clock)
    app = MinesApp(game, make_game=lambda r, c, m: game, clock=clock, theme=THEMES["classic"])
    async with app.run_test(size=(80, 22)) as pilot:
        play_some(game)
        time.now = 42.3
        app.board.move_cursor(9, 17)
        app.update_status()
        app.say("Arrows/hjkl/WASD move, space reveals, f flags. F1 for help.")
        await pilot.pause()
        OUTPUT.write_text(app.export_screenshot(title="mines play --preset expert"))
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    asyncio.run(main())
