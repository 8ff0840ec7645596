"""The compiled path (`mines.solver.native`): the same exact counts and the same moves as
the Python reference, the Python path when the compiled one is off or cannot be built,
and native code that survives sanitizers."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from mines import BoardView
from mines.errors import InvalidBoardError
from mines.game import Game
from mines.placement import FixedPlacer, RandomPlacer
from mines.solver import native
from mines.solver.analysis import Position, Solved, analysis_of, solve
from mines.solver.bot import Bot, Guess
from mines.solver.counting import ConstraintKey, Counter, Counts, NoArrangementError
from mines.solver.endgame import solve_endgame
from mines.solver.fifty import trap_table
from mines.solver.rules import UNKNOWN
from mines.status import GameStatus
from tests.solver.brute import random_position, solved_position

HARNESS = Path(__file__).with_name("native_fuzz.c")
PLAY = native.play


@pytest.fixture
def compiled() -> None:
    if not native.available():
        pytest.skip(f"no compiled path here: {native.status().reason}")


@pytest.fixture
def fresh_load(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    """A clean slate for `native`'s choice, in a cache folder of the test's own."""
    monkeypatch.setenv(native.CACHE_VARIABLE, str(tmp_path / "cache"))
    native._load.cache_clear()
    yield monkeypatch
    native._load.cache_clear()


def as_tuple(counts: Counts) -> tuple[object, ...]:
    return (
        counts.total,
        list(counts.cell_weight.items()),
        counts.off_weight,
        counts.off_cells,
        counts.off_mines,
    )


def both(keys: list[ConstraintKey], off: int, mines: int) -> tuple[object, object]:
    """The count of each path, or the error message when no arrangement fits."""
    found: list[object] = []
    for path in (False, True):
        try:
            found.append(as_tuple(Counter(native=path).count(keys, off, mines)))
        except NoArrangementError as error:
            found.append(str(error))
    return found[0], found[1]


@pytest.mark.usefixtures("compiled")
def test_counts_are_the_reference_integers_in_the_reference_order() -> None:
    rng = random.Random(41)
    checked = 0
    while checked < 300:
        lines, mines = random_position(rng, 7, 9)
        try:
            solved = solved_position(lines, mines)
        except NoArrangementError:
            continue
        assert solved.counts is not None
        keys = list(solved.keys)
        python, compiled = both(keys, solved.counts.off_cells, solved.free_mines)
        assert compiled == python, lines
        # a number one higher somewhere: often no arrangement, with the same message
        cells, value = keys[0] if keys else ((0,), 0)
        python, compiled = both([*keys, (cells, value + 1)], solved.counts.off_cells, mines)
        assert compiled == python, lines
        checked += 1


class Recording(Bot):
    """A bot on the Python path that keeps every position it guesses in."""

    def __init__(self, seed: int):
        super().__init__(seed, native=False)
        self.seen: list[Solved] = []

    def guess(self, solved: Solved) -> Guess:
        self.seen.append(solved)
        return super().guess(solved)


def stuck_positions(seed: int, count: int, *, expert_games: int = 2) -> Iterator[Solved]:
    """Random small positions where the local rules stop, then the positions where the bot
    guessed in a few seeded Expert games."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        lines, mines = random_position(rng, 7, 9)
        try:
            solved = solved_position(lines, mines)
        except InvalidBoardError:
            continue
        if solved.undecided():
            found += 1
            yield solved
    for game_seed in range(seed, seed + expert_games):
        bot = Recording(game_seed)
        bot.play(Game(16, 30, 99, placer=RandomPlacer(game_seed, "safe")))
        yield from bot.seen


@pytest.mark.usefixtures("compiled")
def test_the_compiled_local_rules_find_the_reference_cells_and_constraints() -> None:
    for solved in stuck_positions(7, 150):
        position = solved.position
        fast = native.deduce(position.rows, position.cols, position.values)
        assert fast is not None
        known, keys = fast
        assert known == {c: solved.known[c] for c in solved.local}
        assert keys == solved.keys


@pytest.mark.usefixtures("compiled")
def test_contradictory_numbers_fall_back_to_the_reference_error() -> None:
    view = BoardView.from_strings(["1H", "HH", "H3"])
    position = Position.from_view(view, 1)
    assert native.deduce(position.rows, position.cols, position.values) is None
    for path in (False, True):
        with pytest.raises(InvalidBoardError, match="no arrangement of mines fits the numbers"):
            solve(position, Counter(native=path), native=path)


@pytest.mark.usefixtures("compiled")
def test_the_compiled_lookahead_gives_the_reference_floats() -> None:
    bot = Bot()
    for solved in stuck_positions(11, 60):
        cells = solved.undecided()[:12]
        position = solved.position
        local = solved.local
        hidden = [c for c, v in enumerate(position.values) if v == UNKNOWN and c not in local]
        fast = native.lookahead(
            position.rows,
            position.cols,
            solved.keys,
            hidden,
            solved.free_mines,
            bot.living_checks,
            cells,
        )
        assert fast == {c: bot.lookahead(solved, c) for c in cells}


@pytest.mark.usefixtures("compiled")
def test_the_compiled_fifty_fifty_credit_gives_the_reference_factors() -> None:
    python, compiled = Bot(native=False), Bot(native=True)
    for solved in stuck_positions(13, 80):
        cells = solved.undecided()[:16]
        assert compiled._credits(solved, cells) == python._credits(solved, cells)


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize("budget", [60_000, 40])
def test_the_compiled_endgame_search_finds_the_reference_move(budget: int) -> None:
    searched = 0
    for solved in stuck_positions(17, 120):
        python = solve_endgame(solved, budget=budget)
        assert solve_endgame(solved, budget=budget, native=True) == python
        searched += python is not None
    assert searched >= 20  # enough positions were small enough to search


@pytest.mark.usefixtures("compiled")
def test_probabilities_from_compiled_counts_are_the_exact_fractions() -> None:
    for solved in stuck_positions(3, 100):
        counts = solved.counts
        assert counts is not None
        fast = native.count(solved.keys, counts.off_cells, solved.free_mines)
        assert fast is not None
        total, cell_weight, off_weight, _ = fast
        exact = analysis_of(solved).probabilities
        cols = solved.position.cols
        for cell in solved.undecided():
            weight = cell_weight.get(cell, off_weight)
            assert Fraction(weight, total) == exact[divmod(cell, cols)]


@pytest.mark.usefixtures("compiled")
def test_ratios_of_counts_round_as_python_divides() -> None:
    rng = random.Random(9)
    cases = [(1, 3), (2, 3), (0, 5), (7, 7), (1 << 200, 3 << 201)]
    for _ in range(3000):
        b = rng.getrandbits(rng.randint(1, 500)) + 1
        a = rng.randrange(b + 1)
        cases.append((a, b))
        # a quotient just past a halfway point between two doubles: only the remainder
        # beyond the quotient's 55 bits tells which way it rounds
        q = (rng.getrandbits(53) | 1 << 52) * 2 + 1
        shift = rng.randint(0, 300)
        b = rng.getrandbits(150) | 1 << 149
        cases.append(((q << shift) * b + rng.randint(1, b - 1) * (1 << shift) // b, b << shift))
    for a, b in cases:
        if a < 1 << 512 and b < 1 << 512:
            assert native.ratio(a, b) == a / b, (a, b)


@pytest.mark.usefixtures("compiled")
def test_an_impossible_count_raises_the_reference_error() -> None:
    with pytest.raises(NoArrangementError, match="no arrangement of 3 undecided mine") as error:
        Counter(native=True).count([((0, 1), 2), ((1, 2), 0)], 0, 3)
    assert str(error.value) == both([((0, 1), 2), ((1, 2), 0)], 0, 3)[0]


def moves_hash(seed: int, *, native_path: bool, condition: str = "safe") -> tuple[str, str]:
    """A hash of every cell the bot opens in one seeded Expert game, and how it ended."""
    game = Game(16, 30, 99, placer=RandomPlacer(seed, condition))
    bot = Bot(seed, first_click=(0, 0) if condition == "safe" else None, native=native_path)
    digest = hashlib.sha256()
    reveal = game.reveal

    def recorded(row: int, col: int) -> GameStatus:
        digest.update(f"{row},{col};".encode())
        return reveal(row, col)

    game.reveal = recorded  # type: ignore[method-assign]
    status = bot.play(game)
    return digest.hexdigest(), status.value


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize("condition", ["safe", "opening"])
def test_seeded_games_make_the_same_moves_on_both_paths(condition: str) -> None:
    for seed in range(4):
        python = moves_hash(seed, native_path=False, condition=condition)
        assert moves_hash(seed, native_path=True, condition=condition) == python, seed


def test_native_0_chooses_the_python_path_with_the_same_moves(
    fresh_load: pytest.MonkeyPatch,
) -> None:
    fresh_load.setenv(native.NATIVE_VARIABLE, "0")
    assert native.status() == native.Status(False, "MINES_NATIVE=0: the Python path was chosen")
    assert native.count([((0, 1), 1)], 3, 2) is None
    assert moves_hash(1, native_path=True) == moves_hash(1, native_path=False)


def test_without_a_compiler_the_python_path_runs_and_says_why(
    fresh_load: pytest.MonkeyPatch,
) -> None:
    fresh_load.setenv("CC", "/nonexistent/cc")
    fresh_load.delenv(native.NATIVE_VARIABLE, raising=False)
    state = native.status()
    assert not state.native
    assert "compiled path is unavailable" in state.reason
    assert "/nonexistent/cc" in state.reason
    assert moves_hash(2, native_path=True) == moves_hash(2, native_path=False)


def test_a_failed_build_leaves_nothing_behind(
    fresh_load: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fresh_load.setenv(native.CFLAGS_VARIABLE, "-no-such-flag")
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    fresh_load.setenv("CC", "gcc")
    with pytest.raises(native.NativeUnavailableError, match="the C compiler failed"):
        native.build()
    assert list((tmp_path / "cache").iterdir()) == []


def test_native_1_makes_a_missing_compiler_an_error(fresh_load: pytest.MonkeyPatch) -> None:
    fresh_load.setenv("CC", "/nonexistent/cc")
    fresh_load.setenv(native.NATIVE_VARIABLE, "1")
    with pytest.raises(native.NativeUnavailableError, match="MINES_NATIVE=1: no C compiler"):
        native.available()


def test_a_bad_choice_is_refused_with_the_choices(fresh_load: pytest.MonkeyPatch) -> None:
    fresh_load.setenv(native.NATIVE_VARIABLE, "fast")
    with pytest.raises(native.NativeUnavailableError, match=r"must be 0 \(Python\), 1"):
        native.available()


def test_the_library_is_named_by_its_source_and_flags(fresh_load: pytest.MonkeyPatch) -> None:
    plain = native.library_path()
    fresh_load.setenv(native.CFLAGS_VARIABLE, "-g")
    assert native.library_path() != plain
    assert native.library_path().parent == plain.parent


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_the_counting_code_is_clean_under_address_and_undefined_behaviour_sanitizers(
    tmp_path: Path,
) -> None:
    """The fuzzer of docs/solver.md, briefly: whole decisions on random boards, random and
    malformed constraints; no sanitizer error, no leak."""
    binary = tmp_path / "fuzz"
    flags = ["-O1", "-g", "-std=gnu11", "-fsanitize=address,undefined", "-fno-sanitize-recover"]
    built = subprocess.run(
        ["gcc", *flags, "-o", str(binary), str(HARNESS), str(native.SOURCE), "-lm"],
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode and "libasan" in built.stderr:
        pytest.skip(f"gcc has no sanitizer runtime here: {built.stderr[:200]}")
    assert built.returncode == 0, built.stderr
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0"}
    ran = subprocess.run(
        [str(binary), "3000", "7"], capture_output=True, text=True, check=False, env=env
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "runs: 3000" in ran.stdout


def whole_game(
    seed: int, condition: str, monkeypatch: pytest.MonkeyPatch, room: int | None = None
) -> tuple[str, str, int, object, native.Played]:
    """`moves_hash`'s figures for `Bot.play_placed` (the game played compiled end to end,
    its first `room` moves only when given), its guesses and random state, and what the
    compiled game returned."""
    found: list[native.Played] = []

    def spy(*args: Any, **kwargs: Any) -> native.Played | None:
        played = PLAY(*args, **kwargs, room=room)
        assert played is not None
        found.append(played)
        return played

    monkeypatch.setattr(native, "play", spy)
    bot = Bot(seed, first_click=(0, 0) if condition == "safe" else None)
    placer = RandomPlacer(seed, condition)
    digest = hashlib.sha256()
    status = bot.play_placed(16, 30, 99, placer)
    (played,) = found
    for cell in played.moves:
        digest.update(f"{cell // 30},{cell % 30};".encode())
    if not played.over:  # the Python path played on: its moves come from its own game
        game = Game(16, 30, 99, placer=RandomPlacer(seed, condition))
        for cell in played.moves:
            game.reveal(*divmod(cell, 30))
        rest = Bot(seed, first_click=(0, 0) if condition == "safe" else None, native=False)
        rest._rng.setstate((3, played.state, None))
        reveal = game.reveal

        def recorded(row: int, col: int) -> GameStatus:
            digest.update(f"{row},{col};".encode())
            return reveal(row, col)

        game.reveal = recorded  # type: ignore[method-assign]
        assert rest.play(game) is status
    return digest.hexdigest(), status.value, bot.guesses, bot._rng.getstate(), played


def python_game(seed: int, condition: str) -> tuple[str, str, int, object]:
    """`moves_hash` on the Python path, with the bot's guesses and random state after."""
    game = Game(16, 30, 99, placer=RandomPlacer(seed, condition))
    bot = Bot(seed, first_click=(0, 0) if condition == "safe" else None, native=False)
    digest = hashlib.sha256()
    reveal = game.reveal

    def recorded(row: int, col: int) -> GameStatus:
        digest.update(f"{row},{col};".encode())
        return reveal(row, col)

    game.reveal = recorded  # type: ignore[method-assign]
    status = bot.play(game)
    return digest.hexdigest(), status.value, bot.guesses, bot._rng.getstate()


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize("condition", ["safe", "opening"])
def test_whole_games_played_compiled_make_the_python_moves(
    condition: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every cell opened, in order, the guesses and the random state after: the same as
    the Python bot's in its Python game, each game played natively end to end."""
    ends = set()
    for seed in range(12):
        *same, played = whole_game(seed, condition, monkeypatch)
        assert played.over, seed
        assert tuple(same) == python_game(seed, condition), seed
        ends.add(played.won)
    assert ends == {True, False}


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize("room", [0, 1, 7, 60, 200])
def test_a_game_left_unfinished_natively_is_played_on_by_the_python_bot(
    room: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after its first moves (as on a position only Python can decide), the game
    goes on in Python from those moves and that random state, to the same end."""
    for seed in (5, 8):  # won, with many guesses
        *same, played = whole_game(seed, "safe", monkeypatch, room=room)
        assert not played.over
        assert len(played.moves) <= room
        assert tuple(same) == python_game(seed, "safe"), seed


def test_without_the_library_a_placed_game_is_played_in_python(
    fresh_load: pytest.MonkeyPatch,
) -> None:
    fresh_load.setenv(native.NATIVE_VARIABLE, "0")
    bot = Bot(4, first_click=(0, 0))
    assert native.play(16, 30, [0], 1, (0.0, 0.0), (0,) * 8, ((), (), 0), (0,) * 625) is None
    status = bot.play_placed(16, 30, 99, RandomPlacer(4, "safe"))
    assert (status.value, bot.guesses, bot._rng.getstate()) == python_game(4, "safe")[1:]


@pytest.mark.usefixtures("compiled")
def test_a_layout_off_the_board_or_settings_of_another_length_are_refused() -> None:
    with pytest.raises(ValueError, match="distinct cells from 0 to 15"):
        native.play(4, 4, [3, 16], 0, (0.0, 0.0), (0,) * 8, ((), (), 0), (0,) * 625)
    with pytest.raises(ValueError, match="got 3"):
        native.play(4, 4, [3, 3], 0, (0.0, 0.0), (0,) * 8, ((), (), 0), (0,) * 625)
    with pytest.raises(ValueError, match="8 integers and a state of 625 words, got 2, 7"):
        native.play(4, 4, [3], 0, (0.0, 0.0), (0,) * 7, ((), (), 0), (0,) * 625)


@pytest.mark.usefixtures("compiled")
@pytest.mark.parametrize(("mines", "status"), [([(0, 0)], "LOST"), ([(7, 7)], "WON")])
def test_a_game_over_at_its_first_click_reports_that_click(
    mines: list[tuple[int, int]], status: str
) -> None:
    """A mine under the first click loses; a flood that opens every safe cell wins."""
    played = native.play(
        8,
        8,
        [r * 8 + c for r, c in mines],
        0,
        (0.04, 0.9),
        (8, 2, 2, 24, 1000, 60000, 6, 600000),
        trap_table(),
        random.Random(0).getstate()[1],
    )
    assert played is not None
    assert (played.over, played.won, played.moves) == (True, status == "WON", [0])
    bot = Bot(0, first_click=(0, 0))
    assert bot.play_placed(8, 8, 1, FixedPlacer(mines)).value == status
    assert (
        Bot(0, first_click=(0, 0), native=False)
        .play(Game(8, 8, 1, placer=FixedPlacer(mines)))
        .value
        == status
    )
