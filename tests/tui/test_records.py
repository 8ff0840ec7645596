"""Saved records, the stats drawn from them, the clocks and undo's rebuild."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mines.game import Game
from mines.placement import FixedPlacer
from mines.ranking import unranked_reason
from mines.status import GameStatus
from mines.symbols import Cell
from mines.tui import THEME_NAMES
from mines.tui.clock import PausableClock
from mines.tui.stats import Kind, format_stats, is_new_best, tally, unranked
from mines.tui.store import RecordStore, SavedGame, read_saved
from mines.tui.themes import CELL_WIDTH, THEMES
from mines.tui.undo import rebuilt
from tests.fake_time import FakeTime


def finished(
    status: GameStatus, elapsed: float = 0.0, size: tuple[int, int, int] = (9, 9, 10)
) -> Game:
    """A game lost at once on its first click, or a beginner game won after `elapsed` seconds."""
    rows, cols, mines = size
    time = FakeTime(0.0)
    layout = [(i // cols, i % cols) for i in range(mines)]  # row 0, then (1, 0)
    game = Game(rows, cols, mines, placer=FixedPlacer(layout), clock=time)
    if status is GameStatus.LOST:
        game.reveal(0, 0)
    else:
        assert size == (9, 9, 10)
        game.reveal(1, 8)  # a 2: it starts the clock without flooding
        time.now = elapsed
        game.reveal(8, 8)  # floods all the rest
    assert game.status is status
    return game


def test_a_saved_game_reads_back_with_its_notes(tmp_path: Path) -> None:
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    store = RecordStore(tmp_path, now=lambda: moment)
    game = finished(GameStatus.WON, 12.5)
    first = store.save(game, practice=True, hints=2)
    second = store.save(game)
    assert first != second, "two saves in the same instant get two files"
    assert first.name.startswith("20260102-030405")
    saved = read_saved(first.read_text())
    assert saved.record == game.record()
    assert (saved.practice, saved.hints, saved.three_bv) == (True, 2, game.three_bv)


def test_a_plain_record_reads_as_a_game_without_notes(tmp_path: Path) -> None:
    game = finished(GameStatus.LOST)
    saved = read_saved(game.record().to_json())
    assert saved == SavedGame(record=game.record())


def test_unreadable_files_are_reported_not_fatal(tmp_path: Path) -> None:
    store = RecordStore(tmp_path)
    store.save(finished(GameStatus.WON, 5.0))
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "other.json").write_text(json.dumps({"version": 99, "rows": 9, "moves": []}))
    games, problems = store.load()
    assert len(games) == 1
    assert len(problems) == 2
    assert any("broken.json" in p for p in problems)


def test_stats_count_wins_losses_best_time_and_3bv_rate() -> None:
    won_fast, won_slow = finished(GameStatus.WON, 10.0), finished(GameStatus.WON, 20.0)
    games = [
        SavedGame(won_slow.record(), three_bv=won_slow.three_bv, saved_at="2026-11-30T10:00"),
        SavedGame(won_fast.record(), three_bv=won_fast.three_bv, saved_at="2026-12-01T09:00"),
        SavedGame(finished(GameStatus.LOST).record()),
        SavedGame(finished(GameStatus.LOST, size=(5, 6, 3)).record()),
    ]
    tallies, unfinished = tally(games)
    assert unfinished == 0
    assert [t.board for t in tallies] == ["beginner", "5x6, 3 mines"]
    beginner = tallies[0]
    assert (beginner.wins, beginner.losses, beginner.best_time) == (2, 1, 10.0)
    assert beginner.best is not None
    assert beginner.best.date == "2026-12-01"
    assert beginner.best_rate == pytest.approx(won_fast.three_bv / 10.0)
    clicks = len(won_fast.record().moves)
    assert beginner.best_efficiency == pytest.approx(100 * won_fast.three_bv / clicks)
    text = format_stats(tallies, unfinished)
    assert "beginner" in text
    assert "10.00s" in text
    assert "2026-12-01" in text
    assert "67%" in text


def test_assisted_and_no_guess_games_are_counted_apart() -> None:
    plain = finished(GameStatus.WON, 30.0)
    hinted = finished(GameStatus.WON, 5.0)
    practised = finished(GameStatus.WON, 4.0)
    no_guess = finished(GameStatus.WON, 7.0).record()
    games = [
        SavedGame(plain.record(), three_bv=plain.three_bv),
        SavedGame(hinted.record(), hints=23, three_bv=hinted.three_bv),
        SavedGame(practised.record(), practice=True, three_bv=practised.three_bv),
        SavedGame(replace(no_guess, rule="noguess"), three_bv=3),
    ]
    tallies, _ = tally(games)
    by_kind = {t.kind: t for t in tallies}
    assert by_kind[Kind.STANDARD].best_time == 30.0, "23 hints do not make a best time"
    assert by_kind[Kind.ASSISTED].wins == 2
    assert by_kind[Kind.ASSISTED].best_time == 4.0
    assert by_kind[Kind.NO_GUESS].best_time == 7.0
    text = format_stats(tallies)
    assert text.index("Games:") < text.index("No-guess games:") < text.index("Assisted games")


def test_a_win_by_one_click_counts_but_is_not_ranked() -> None:
    time = FakeTime(0.0)
    game = Game(9, 9, 1, placer=FixedPlacer([(0, 0)]), clock=time)
    game.reveal(8, 8)
    assert game.status is GameStatus.WON
    tallies, _ = tally([SavedGame(game.record(), three_bv=game.three_bv)])
    (only,) = tallies
    assert only.wins == 1
    assert only.unranked == 1
    assert only.best_time is None
    assert only.best_rate is None
    text = format_stats(tallies)
    assert "1 win faster than people play (a board that opened by one click, or past the " in text


def test_the_table_is_aligned_whatever_the_board_names() -> None:
    games = [
        SavedGame(finished(GameStatus.WON, 12.5).record(), three_bv=10),
        SavedGame(finished(GameStatus.LOST, size=(500, 600, 30000)).record()),
    ]
    lines = format_stats(tally(games)[0]).splitlines()
    header, *rows = lines[1:4]
    assert rows[1].startswith("500x600, 30000 mines")
    # Every column ends where its header ends.
    for word in ("played", "wins", "win %", "best time"):
        end = header.index(word) + len(word)
        for row in rows:
            assert row[end - 1] != " ", (word, row)
            assert end == len(row) or row[end] == " ", (word, row)


def test_a_new_best_is_told_only_when_it_beats_the_earlier_ones() -> None:
    slow, fast = finished(GameStatus.WON, 20.0), finished(GameStatus.WON, 10.0)
    earlier = [SavedGame(slow.record(), three_bv=slow.three_bv)]
    assert is_new_best(SavedGame(fast.record()), earlier)
    assert not is_new_best(SavedGame(slow.record()), [SavedGame(fast.record())])
    assert is_new_best(SavedGame(slow.record()), []), "the first win is a best"
    assert not is_new_best(  # an assisted game is never announced as a best
        SavedGame(fast.record(), hints=1), [*earlier, SavedGame(slow.record(), hints=1)]
    )


def test_unfinished_games_are_not_counted_and_plurals_are_right() -> None:
    game = Game(9, 9, 10, seed=1)
    game.reveal(4, 4)
    text = format_stats(*tally([SavedGame(game.record())]))
    assert "1 unfinished game not counted." in text


def test_stats_without_games_say_how_to_get_some() -> None:
    assert "mines play" in format_stats([], 0)


def test_the_pausable_clock_stands_still_while_paused() -> None:
    time = FakeTime(10.0)
    clock = PausableClock(time)
    start = clock()
    clock.pause()
    time.now += 5
    assert clock() == start
    clock.resume()
    time.now += 1
    assert clock() == start + 1
    assert not clock.paused


def test_undo_rebuilds_the_game_without_the_last_move() -> None:
    time = FakeTime(0.0)
    game = Game(4, 4, 2, placer=FixedPlacer([(0, 0), (3, 3)]), clock=time)
    game.reveal(0, 1)
    time.now = 2.0
    game.toggle_flag(0, 0)
    time.now = 5.0
    undone = rebuilt(game.record(), 1, time, game.elapsed, game.placer)
    assert undone.view(0, 0, 1, 2).to_strings() == ["H1"]
    assert undone.elapsed == 5.0
    assert game.view(0, 0, 1, 1)[0, 0] is Cell.FLAG, "the old game is left as it was"
    assert [str(m.move) for m in undone.record().moves] == ["O0,1"]
    assert undone.record().moves[0].time == 0.0


def test_every_theme_draws_every_symbol_distinctly() -> None:
    assert tuple(THEMES) == THEME_NAMES
    for theme in THEMES.values():
        plain = theme.segments(cursor=False)
        cursor = theme.segments(cursor=True)
        assert set(plain) == {ord(cell.value) for cell in Cell}
        assert all(len(segment.text) == CELL_WIDTH for segment in plain.values())
        looks = {(s.text, s.style) for s in plain.values()}
        # Hidden and zero, mine and exploded, flag and wrong flag must all look different.
        assert len(looks) == len(Cell), f"{theme.name} draws two symbols alike"
        assert all(cursor[code] != plain[code] for code in plain)


def test_a_win_faster_than_people_play_is_no_best_here_as_on_the_server() -> None:
    fast, slow = finished(GameStatus.WON, 0.01), finished(GameStatus.WON, 20.0)
    saved = [SavedGame(g.record(), three_bv=g.three_bv) for g in (fast, slow)]
    # The server's predicate for a signed-in player's game on the same board says the same.
    server = unranked_reason(
        "beginner", "opening", "beginner", True, False, "WON", (fast.three_bv, 0.01)
    )
    assert server == unranked(saved[0]) == "too_fast"
    assert unranked(saved[1]) is None
    (only,) = tally(saved)[0]
    assert (only.wins, only.unranked, only.best_time) == (2, 1, 20.0)  # it was 0.01
    assert not is_new_best(saved[0], saved[1:])
