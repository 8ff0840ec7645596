"""`review`: every risk against a brute-force count of the layouts, and each verdict made."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

from mines import Game, GameStatus
from mines.errors import GameInProgressError, InvalidBoardError
from mines.grid import block_around
from mines.moves import Move, MoveKind
from mines.placement import FirstClick, FixedPlacer, RandomPlacer
from mines.record import GameRecord
from mines.replay import replay
from mines.solver import Bot, analyze, game_review
from mines.solver.firstclick import kept_free
from mines.solver.game_review import ReviewTooLargeError, Verdict, review
from mines.solver.topology import neighbours
from mines.symbols import Cell
from mines.view import BoardView
from tests.fake_time import FakeTime
from tests.sample_records import won_record

Coord = tuple[int, int]


# --- brute force ------------------------------------------------------------------------------


def fitting_layouts(view: BoardView, mines: int, kept_free: set[int]) -> list[int]:
    """Every set of `mines` cells of the whole board (a bit mask) that shows what `view`
    shows: no mine on a revealed cell or on a cell the first-click rule kept free, and every
    number right."""
    nbrs = neighbours(view.rows, view.cols)
    symbols = "".join(view.to_strings())
    candidates = [
        c for c, s in enumerate(symbols) if s in (Cell.HIDDEN, Cell.FLAG) and c not in kept_free
    ]
    numbers = [(sum(1 << n for n in nbrs[c]), int(s)) for c, s in enumerate(symbols) if s.isdigit()]
    found = []
    for layout in itertools.combinations([1 << c for c in candidates], mines):
        mask = sum(layout)
        for around, value in numbers:
            if (mask & around).bit_count() != value:
                break
        else:
            found.append(mask)
    return found


def share(layouts: list[int], hit: set[int]) -> Fraction:
    """The share of the layouts with a mine on any cell of `hit`."""
    mask = sum(1 << c for c in hit)
    return Fraction(sum(bool(layout & mask) for layout in layouts), len(layouts))


def chord_cells(view: BoardView, row: int, col: int) -> set[int]:
    """The cells a chord opens, worked out from the view by hand."""
    symbol = view.symbol(row, col)
    if not symbol.isdigit():
        return set()
    around = [c for c in block_around(view.rows, view.cols, row, col) if c != (row, col)]
    flags = sum(view.symbol(*c) == Cell.FLAG for c in around)
    if flags != int(symbol):
        return set()
    return {r * view.cols + c for r, c in around if view.symbol(r, c) == Cell.HIDDEN}


def random_game(rng: random.Random, rule: FirstClick) -> GameRecord:
    """A small game played at random: reveals, flags around numbers (often wrong), unflags,
    and chords once a number has as many flags as it shows."""
    rows, cols = rng.randint(3, 4), rng.randint(3, 5)
    mines = rng.randint(1, min(5, rows * cols - 2))
    game = Game(rows, cols, mines, placer=RandomPlacer(rng.randrange(10**6), rule))
    while game.status is GameStatus.IN_PROGRESS:
        view = game.view()
        hidden = [(r, c) for r, c, cell in view.cells() if cell is Cell.HIDDEN]
        flagged = [(r, c) for r, c, cell in view.cells() if cell is Cell.FLAG]
        numbers = [(r, c) for r, c, cell in view.cells() if cell.is_revealed_number]
        pick = rng.random()
        if pick < 0.4 and numbers:
            row, col = rng.choice(numbers)
            around = [c for c in block_around(rows, cols, row, col) if c != (row, col)]
            flags = sum(view[c] is Cell.FLAG for c in around)
            closed = [c for c in around if view[c] is Cell.HIDDEN]
            if flags < int(view.symbol(row, col)) and closed:
                game.toggle_flag(*rng.choice(closed))
            else:
                game.chord(row, col)
        elif pick < 0.5 and flagged:
            game.toggle_flag(*rng.choice(flagged))
        elif pick < 0.55 and hidden:
            game.toggle_flag(*rng.choice(hidden))
        elif hidden:
            game.reveal(*rng.choice(hidden))
        else:
            game.toggle_flag(*rng.choice(flagged))
    return game.record()


def check_against_brute_force(record: GameRecord) -> int:
    """Compare every move's figures and chances with the layouts counted one by one; returns
    how many moves were checked."""
    found = review(record)
    views = [m.board for m in found.moves]
    rows, cols, mines = record.rows, record.cols, record.mines
    first_reveal = next(m for m in record.moves if m.move.kind is MoveKind.OPEN).move
    free = RandomPlacer(0, record.rule).excluded_cells(
        rows, cols, mines, (first_reveal.row, first_reveal.col)
    )
    kept = {r * cols + c for r, c in free}
    started = False
    for moved, view in zip(found.moves, views, strict=True):
        move = moved.move
        unrevealed = {
            r * cols + c for r, c, cell in view.cells() if cell in (Cell.HIDDEN, Cell.FLAG)
        }
        if not started and move.kind is MoveKind.OPEN:
            # The first reveal: the chance of a mine where one clicks first, under the rule.
            expected = {}
            moved_cell = move.row * cols + move.col
            other = random.Random(moved.index).choice(sorted(unrevealed))
            for cell in (moved_cell, other):
                cleared = RandomPlacer(0, record.rule).excluded_cells(
                    rows, cols, mines, divmod(cell, cols)
                )
                layouts = fitting_layouts(view, mines, {r * cols + c for r, c in cleared})
                expected[cell] = share(layouts, {cell})
            risk = expected[moved_cell]
            started = True
        else:
            # Before the first reveal nothing is kept free yet; after it, the rule's cells.
            layouts = fitting_layouts(view, mines, kept if started else set())
            expected = {cell: share(layouts, {cell}) for cell in unrevealed}
            if move.kind is MoveKind.OPEN:
                risk = expected[move.row * cols + move.col]
            elif move.kind is MoveKind.CHORD:
                targets = chord_cells(view, move.row, move.col)
                risk = share(layouts, targets) if targets else Fraction(0)
            else:
                risk = Fraction(0)
        chances = {cell: moved.chances.chance(*divmod(cell, cols)) for cell in expected}
        assert chances == expected, (record.to_json(), moved.index)
        assert moved.risk == risk, (record.to_json(), moved.index)
        if len(expected) == len(unrevealed):
            assert moved.least_risk == min(expected.values())
            assert moved.safe_known == (0 in expected.values())
        else:  # the first reveal: the rule makes every cell alike
            assert moved.least_risk == risk
            assert moved.safe_known == (risk == 0)
        assert (moved.verdict is Verdict.LOST) == (moved.on_mine and move.kind is not MoveKind.FLAG)
    return len(found.moves)


@pytest.mark.parametrize("rule", list(FirstClick))
def test_every_risk_equals_a_count_of_every_layout(rule: FirstClick) -> None:
    rng = random.Random(f"review-{rule}")
    checked = chords = flags = 0
    for _ in range(300):
        record = random_game(rng, rule)
        checked += check_against_brute_force(record)
        chords += sum(m.move.kind is MoveKind.CHORD for m in record.moves)
        flags += sum(m.move.kind is MoveKind.FLAG for m in record.moves)
    assert checked > 600, checked
    assert chords > 15, chords
    assert flags > 200, flags


def test_the_rule_conditions_every_later_move() -> None:
    """Under `opening`, the layouts are those that keep the first click's block free; the
    view shows that block opened, so counting the layouts that fit the view alone gives
    the same chances, move after move. The brute force counts with the block kept free."""
    rng = random.Random(7)
    for _ in range(30):
        record = random_game(rng, FirstClick.OPENING)
        found = review(record)
        first = found.moves[[m.move.kind for m in found.moves].index(MoveKind.OPEN)]
        assert first.risk == 0
        assert first.verdict is Verdict.LOGIC
        check_against_brute_force(record)


# --- constructed positions --------------------------------------------------------------------


def position(picture: str) -> tuple[Game, FakeTime]:
    """A game from a picture: `*` a mine, `.` a hidden safe cell, `o` a revealed safe cell,
    `F` a flagged mine, `f` a flagged safe cell."""
    lines = picture.split()
    mines, revealed, flagged = [], [], []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch in "*F":
                mines.append((r, c))
            if ch == "o":
                revealed.append((r, c))
            if ch in "Ff":
                flagged.append((r, c))
    clock = FakeTime(0.0)
    game = Game.from_position(
        len(lines), len(lines[0]), mines, revealed=revealed, flagged=flagged, clock=clock
    )
    return game, clock


def play(game: Game, clock: FakeTime, *moves: str) -> GameRecord:
    """Play `moves`, then, unless they ended the game, win it (a review needs a finished
    game): take the flags off the safe cells and open every safe cell left."""
    for text in moves:
        clock.now += 1.0
        game.play(text)
    if game.status is GameStatus.IN_PROGRESS:
        layout = set(game.record().layout or ())
        for row, col, cell in game.view().cells():
            if (row, col) not in layout and cell is Cell.FLAG:
                game.toggle_flag(row, col)
        for row, col, _ in game.view().cells():
            if game.status.is_over:
                break
            if (row, col) not in layout and game.view()[row, col] is Cell.HIDDEN:
                game.reveal(row, col)
    assert game.status.is_over
    return game.record()


def test_a_certainly_safe_reveal_is_logic() -> None:
    game, clock = position(
        """
        oo.*
        oo..
        """
    )
    view = game.view()
    result = analyze(view)
    safe = sorted(result.safe)
    assert safe, view
    record = play(game, clock, f"O{safe[0][0]},{safe[0][1]}")
    moved = review(record).moves[0]
    assert moved.verdict is Verdict.LOGIC
    assert moved.risk == 0
    assert moved.safe_known
    assert moved.least_risk == 0


def corner_game() -> tuple[Game, FakeTime]:
    """A 1 in the top left corner, everything else hidden: no cell is certainly safe."""
    return position(
        """
        o*...
        .....
        ....*
        """
    )


def test_a_guess_at_the_least_risk_is_a_guess_and_a_far_riskier_one_risky() -> None:
    game, _ = corner_game()
    chances = analyze(game.view()).probabilities
    # One mine among the corner's three neighbours (1/3 each), one among the 11 cells away
    # from it (1/11 each): no cell is certainly safe.
    assert chances[(1, 1)] == Fraction(1, 3)
    assert chances[(2, 2)] == Fraction(1, 11)
    assert min(chances.values()) == Fraction(1, 11)
    for cell, verdict, comment in (
        ((2, 2), Verdict.GUESS, "A guess at 9.1%, the least risk on the board."),
        ((1, 1), Verdict.RISKY, "A guess at 33.3% where a 9.1% cell existed."),
    ):
        game, clock = corner_game()
        moved = review(play(game, clock, f"O{cell[0]},{cell[1]}")).moves[0]
        assert moved.risk == chances[cell]
        assert not moved.on_mine
        assert moved.least_risk == Fraction(1, 11)
        assert not moved.safe_known
        assert moved.verdict is verdict
        assert moved.comment == comment


def test_a_guess_close_to_the_least_is_still_a_guess() -> None:
    # One mine among the corner's three neighbours (1/3 each), six among the 20 cells away
    # from it (3/10 each): 1/3 is within the margin of 3/10.
    picture = """
        o*....
        ..*.*.
        ...*..
        *...**
        """
    game, clock = position(picture)
    result = analyze(game.view())
    assert set(result.probabilities.values()) == {Fraction(1, 3), Fraction(3, 10)}
    moved = review(play(game, clock, "O1,1")).moves[0]
    assert moved.risk == Fraction(1, 3)
    assert moved.least_risk == Fraction(3, 10)
    assert moved.verdict is Verdict.GUESS
    assert moved.comment == "A guess at 33.3%, close to the least risk on the board (30%)."


def test_a_risk_taken_beside_a_certainly_safe_cell_is_avoidable() -> None:
    game, clock = position(
        """
        o.*...
        oo....
        ......
        """
    )
    # The 1 at (1, 1) has the board's one mine among (0, 2), (1, 2) and (2, 2): every other
    # cell is certainly safe, yet the player opens (1, 2), a 1 in 3 chance of a mine.
    chances = analyze(game.view()).probabilities
    assert chances[(1, 2)] == Fraction(1, 3)
    assert chances[(0, 5)] == 0
    moved = review(play(game, clock, "O1,2")).moves[0]
    assert moved.safe_known
    assert moved.least_risk == 0
    assert moved.risk == Fraction(1, 3)
    assert moved.verdict is Verdict.AVOIDABLE
    assert moved.comment == "A guess at 33.3% where a certainly safe cell existed."


def test_flags_on_a_certain_mine_and_not_and_off_again() -> None:
    game, clock = position(
        """
        o*.
        oo.
        ..*
        """
    )
    result = analyze(game.view())
    (mine,) = result.certain_mines
    assert mine == (0, 1)
    record = play(game, clock, "F0,1", "F2,2", "F0,2", "F0,2")
    moves = review(record).moves[:4]
    assert [m.verdict for m in moves] == [
        Verdict.FLAG,
        Verdict.WRONG_FLAG,
        Verdict.WRONG_FLAG,
        Verdict.UNFLAG,
    ]
    assert all(m.risk == 0 for m in moves)
    assert moves[1].on_mine
    assert "it was a mine" in moves[1].comment
    assert not moves[2].on_mine
    assert "it was safe" in moves[2].comment
    assert all(m.useful for m in moves)


def test_a_flagged_cell_counts_as_unrevealed_and_can_come_out_safe() -> None:
    # A wrong flag on (0, 2) changes nothing: the view's numbers prove it safe.
    game, clock = position(
        """
        o*f
        ooo
        ooo
        """
    )
    record = play(game, clock, "F0,2", "O0,2")
    moves = review(record).moves
    assert moves[0].verdict is Verdict.UNFLAG
    assert moves[1].verdict is Verdict.LOGIC
    assert moves[1].chances.chance(0, 2) == 0


def test_a_chord_beside_a_wrong_flag_takes_the_risk_of_every_cell_it_opens() -> None:
    # The 1 at (1, 1) sees one mine among its hidden neighbours; a flag on the wrong one
    # makes a chord there open the mine.
    game, clock = position(
        """
        .*.
        .o.
        ...
        """
    )
    record = play(game, clock, "F0,0", "C1,1")
    found = review(record)
    chord = found.moves[1]
    assert chord.verdict is Verdict.LOST
    assert chord.on_mine
    # The chord opens 7 of the 8 neighbours: it misses the mine only if the mine is (0, 0).
    assert chord.risk == Fraction(7, 8)
    # No cell was certainly safe, but each single one had only a 1/8 chance of a mine.
    assert found.lost_on is Verdict.RISKY
    assert "A chord that risked 87.5% where a 12.5% cell existed." in chord.comment
    assert found.guesses == 1
    assert found.luck == 1


def test_a_lost_game_ends_on_its_losing_move() -> None:
    game, clock = corner_game()
    record = play(game, clock, "O0,1")
    found = review(record)
    (last,) = found.moves
    assert found.status is GameStatus.LOST
    assert last.verdict is Verdict.LOST
    assert last.on_mine
    assert last.risk > 0
    assert last.comment.startswith("Hit a mine. ")
    assert found.lost_on is Verdict.RISKY  # (0, 1) was the likeliest mine of all
    assert found.guesses == 1
    assert found.luck == 1
    assert found.final.symbol(0, 1) == Cell.EXPLODED


@pytest.mark.parametrize(
    ("rule", "risk", "verdict", "comment"),
    [
        (FirstClick.OPENING, 0, Verdict.LOGIC, "rule (opening) keeps it free of a mine"),
        (FirstClick.SAFE, 0, Verdict.LOGIC, "rule (safe) keeps it free of a mine"),
        (FirstClick.ANY, Fraction(10, 81), Verdict.GUESS, "rule (any) promises nothing"),
    ],
)
def test_the_first_click_under_each_rule(
    rule: FirstClick, risk: Fraction, verdict: Verdict, comment: str
) -> None:
    # A seed whose layout has no mine at (4, 4), so that the first reveal survives.
    seed = next(
        s
        for s in range(100)
        if [4, 4] not in RandomPlacer(s, rule).place(9, 9, 10, (4, 4)).tolist()
    )
    game = Game(9, 9, 10, placer=RandomPlacer(seed, rule), clock=FakeTime(0.0))
    first = review(play(game, FakeTime(0.0), "O4,4")).moves[0]
    assert first.risk == risk
    assert first.least_risk == risk
    assert first.safe_known == (risk == 0)
    assert first.verdict is verdict
    assert comment in first.comment
    assert {first.chances.chance(r, c) for r in range(9) for c in range(9)} == {risk}


def test_flags_before_the_first_click_have_the_board_average() -> None:
    game = Game(4, 4, 3, placer=RandomPlacer(3, FirstClick.OPENING))
    game.toggle_flag(3, 3)
    game.reveal(0, 0)
    while game.status is GameStatus.IN_PROGRESS:
        game.reveal(*next((r, c) for r, c, cell in game.view().cells() if cell == "H"))
    flag = review(game.record()).moves[0]
    assert flag.move == Move(MoveKind.FLAG, 3, 3)
    assert flag.chances.chance(3, 3) == Fraction(3, 16)
    assert flag.verdict is Verdict.WRONG_FLAG


def test_the_game_figures() -> None:
    # Mines at (0, 0) and (3, 3): open (0, 1), flag (0, 0) at 1.5 s, chord (0, 1) at 3 s.
    record = won_record()
    game = replay(record)
    found = review(record)
    assert found.status is GameStatus.WON
    assert found.clicks == 3
    assert found.useful_clicks == 3
    assert found.three_bv == game.three_bv
    assert found.efficiency == 100 * game.three_bv / 3  # in percent, as everywhere
    assert found.three_bv_per_second == game.three_bv / 3.0
    wasted = review(record, unrecorded=2)  # clicks the server counted but did not store
    assert (wasted.clicks, wasted.useful_clicks, wasted.score.wasted_clicks) == (5, 3, 2)
    assert wasted.efficiency == 100 * game.three_bv / 5
    assert found.lost_on is None
    # A fixed layout promises nothing: the first reveal risked 2 in 16. The flag on (0, 0)
    # was not certain (the 1 at (0, 1) has five hidden neighbours), so the chord that opened
    # four of them risked 4/5.
    first, flag, chord = found.moves
    assert first.risk == Fraction(2, 16)
    assert first.verdict is Verdict.GUESS
    assert flag.verdict is Verdict.WRONG_FLAG
    assert flag.on_mine
    assert chord.risk == Fraction(4, 5)
    assert chord.verdict is Verdict.RISKY
    assert found.guesses == 2
    assert found.luck == Fraction(14, 16) * Fraction(1, 5)


def test_the_json_has_everything_a_review_page_draws() -> None:
    game, clock = corner_game()
    record = play(game, clock, "O2,0", "O2,1")
    found = review(record)
    data = json.loads(found.to_json())
    assert data["status"] == found.status.value
    assert data["verdicts"][found.moves[0].verdict.value] >= 1
    assert data["start"] == found.moves[0].board.to_strings()
    entry = data["moves"][0]
    assert entry["move"] == "O2,0"
    assert entry["risk"] == float(found.moves[0].risk)
    # Playing the frames forward rebuilds every board; the chances cover every undecided cell.
    board = [list(line) for line in data["start"]]
    known: dict[tuple[int, int], str] = {}
    for entry, moved in zip(data["moves"], found.moves, strict=True):
        assert ["".join(line) for line in board] == moved.board.to_strings()
        known = {cell: kind for cell, kind in known.items() if board[cell[0]][cell[1]] in "HF"}
        known.update({(r, c): kind for r, c, kind in entry["proved"]})
        overlay = {(r, c): (p, certain) for r, c, p, certain in moved.chances.overlay()}
        for (r, c), (p, certain) in overlay.items():
            if certain:
                assert known[(r, c)] == certain
            else:
                listed = {(row, col): q for row, col, q in entry["chances"]["cells"]}
                assert listed.get((r, c), entry["chances"]["others"]) == pytest.approx(p)
        for r, c, symbol in entry["changed"]:
            board[r][c] = symbol
    assert ["".join(line) for line in board] == found.final.to_strings()
    assert data["final_mines_left"] == found.final.mines_left == game.mines_left
    assert "chances" not in json.loads(found.to_json(positions=False))["moves"][0]


# --- refusals ---------------------------------------------------------------------------------


def test_a_game_in_progress_is_not_reviewed() -> None:
    game = Game(4, 4, 2, seed=1)
    game.reveal(0, 0)
    with pytest.raises(GameInProgressError, match="still in progress"):
        review(game.record())


def test_a_record_that_contradicts_itself_is_refused() -> None:
    game, clock = corner_game()
    record = play(game, clock, "O2,2")
    assert record.status is GameStatus.WON
    wrong = GameRecord.from_dict({**record.to_dict(), "status": "LOST"})
    with pytest.raises(InvalidBoardError, match="the record says LOST but its moves end WON"):
        review(wrong)


def test_a_layout_that_breaks_the_first_click_rule_is_refused() -> None:
    game = Game(3, 3, 1, placer=FixedPlacer([(1, 1)]))
    game.reveal(1, 1)
    data = {**game.record().to_dict(), "rule": "safe"}
    with pytest.raises(InvalidBoardError, match=r"keeps free for the first reveal at \(1, 1\)"):
        review(GameRecord.from_dict(data))


def test_too_much_work_is_refused_before_any(monkeypatch: pytest.MonkeyPatch) -> None:
    game, clock = corner_game()
    record = play(game, clock, "O0,1")
    monkeypatch.setattr(game_review, "WORK_LIMIT", 14)
    with pytest.raises(ReviewTooLargeError, match=r"1 moves on 15 cells .* limit of 14"):
        review(record)
    monkeypatch.setattr(game_review, "WORK_LIMIT", 15)
    assert review(record).moves


def test_a_position_too_tangled_to_count_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game, clock = corner_game()
    record = play(game, clock, "O0,1")
    monkeypatch.setattr(game_review, "COUNT_STEPS", 0)
    too_tangled = r"move 1 \(O0,1\): .* too tangled .* past the 0 search steps"
    with pytest.raises(ReviewTooLargeError, match=too_tangled):
        review(record)


def test_each_moves_chances_are_those_analyze_gives_its_board() -> None:
    game = Game.from_preset("intermediate", seed=4)
    Bot(4).play(game)
    found = review(game.record())
    for moved in found.moves[1::7]:
        result = analyze(moved.board)
        chances = {
            (r, c): moved.chances.chance(r, c)
            for r, c, cell in moved.board.cells()
            if cell in (Cell.HIDDEN, Cell.FLAG)
        }
        assert chances == result.probabilities
        overlay = {(r, c): certain for r, c, _, certain in moved.chances.overlay()}
        assert {cell for cell, certain in overlay.items() if certain == "safe"} == result.safe
        assert {cell for cell, kind in overlay.items() if kind == "mine"} == result.certain_mines
    opened = next((r, c) for r, c, cell in found.moves[-1].board.cells() if cell.number is not None)
    with pytest.raises(InvalidBoardError, match="was revealed"):
        found.moves[-1].chances.chance(*opened)


def test_what_each_rule_keeps_free_for_the_first_reveal() -> None:
    block = block_around(9, 9, 0, 0)
    assert kept_free("opening", 9, 9, 10, (0, 0)) == block
    assert kept_free("noguess", 9, 9, 10, (0, 0)) == block
    assert kept_free("safe", 9, 9, 10, (0, 0)) == [(0, 0)]
    assert kept_free("opening", 3, 3, 6, (1, 1)) == [(1, 1)]  # the block leaves no room
    assert kept_free("any", 9, 9, 10, (0, 0)) == []
    assert kept_free("fixed", 9, 9, 10, (0, 0)) == []
    assert kept_free("someone-elses-rule", 9, 9, 10, (0, 0)) == []


def test_a_move_that_changed_nothing_is_not_a_useful_click() -> None:
    # A game never logs such a move, but a record written elsewhere may hold one.
    record = won_record()
    data = record.to_dict()
    data["moves"].insert(1, ["O0,1", 0.5])
    found = review(GameRecord.from_dict(data))
    again = found.moves[1]
    assert again.verdict is Verdict.LOGIC
    assert not again.useful
    assert again.risk == 0
    assert again.comment == "Nothing opened: the board did not change."
    assert (found.clicks, found.useful_clicks) == (4, 3)


# --- the words agree with the counts ----------------------------------------------------------


def test_opening_a_certain_mine_is_no_guess_and_avoidable_when_a_safe_cell_existed() -> None:
    """Beginner seed 11: (4, 4) opens, then (0, 2), a certain mine beside a lone 1."""
    game = Game.from_id("9x9n10#11", clock=FakeTime(0.0))
    game.reveal(4, 4)
    game.reveal(0, 2)
    found = review(game.record())
    losing = found.moves[-1]
    assert losing.verdict is Verdict.LOST
    assert losing.risk == 1
    assert losing.choice is Verdict.AVOIDABLE
    assert (found.guesses, found.avoidable, found.risky) == (0, 1, 0)
    assert found.lost_on is Verdict.AVOIDABLE
    assert losing.comment == "Hit a mine. A certain mine, where a certainly safe cell existed."
    assert losing.label == "hit a certain mine"
    assert "guess" not in losing.comment
    summary = found.summary()
    assert "No guesses." in summary
    assert "1 avoidable move (a certainly safe cell existed)." in summary
    assert "Lost on a certain mine, where a certainly safe cell existed." in summary
    assert "100% chance" not in summary, "no luck sentence without a risk survived"


@pytest.mark.parametrize("seed", range(12))
def test_the_summary_counts_what_the_moves_say(seed: int) -> None:
    """A careless player (opening cells at random, now and then beside a safe one): the
    summary's counts are the moves' own verdicts, the losing move judged as any other."""
    rng = random.Random(seed)
    game = Game.from_id(f"16x16n40#{seed}", clock=FakeTime(0.0))
    while not game.status.is_over:
        hidden = [(r, c) for r, c, cell in game.view().cells() if cell == "H"]
        game.reveal(*rng.choice(hidden))
    found = review(game.record())
    said = [m.comment for m in found.moves]
    avoidable = sum("certainly safe cell existed" in c for c in said)
    assert found.avoidable == avoidable
    guesses = sum(
        c.split("Hit a mine. ")[-1].startswith(("A guess", "A chord that risked")) for c in said
    )
    assert found.guesses == guesses
    summary = found.summary()
    if avoidable:
        assert f"{avoidable:,} avoidable move" in summary
    lost_on = summary.split("Lost on ")[-1] if "Lost on " in summary else ""
    if found.lost_on is Verdict.AVOIDABLE:
        assert "certainly safe cell existed" in lost_on
    assert summary.count("chance to all go well") == (1 if found.survived else 0)
    assert "100% chance to all go well" not in summary
    data = found.to_dict(positions=False)
    assert (data["guesses"], data["avoidable"], data["risky"]) == (
        found.guesses,
        found.avoidable,
        found.risky,
    )
    assert dict(data["figures"])["Guesses"] == f"{found.guesses:,}"
    assert [m["label"] for m in data["moves"]] == [m.label for m in found.moves]
