"""`hint`: the next move a player could make and the facts behind it (`hint_words` tells them)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.grid import count_around, dilate
from mines.solver import hint_words as words
from mines.solver.analysis import Counting, Position, Solved, solve
from mines.solver.bot import Bot
from mines.solver.counting import Counter, split_components
from mines.solver.firstclick import kept_free
from mines.solver.hint_words import Number, Step
from mines.solver.rules import UNKNOWN, Constraint, DeductionRule, Reason, deduce
from mines.solver.topology import neighbours
from mines.symbols import Cell
from mines.view import BoardView

WHOLE_BOARD_CELLS = 10_000
"""Boards up to this many cells are analysed whole, exactly; bigger ones through windows."""
WINDOW_SIDES = (24, 64, 160)
"""Square windows tried in turn around the cursor (or the last move) on a big board."""
SEARCH_CHUNK = 255
"""The side of the squares a search for cells still to decide reads at a time (odd, so that
the first is centred on the start): rings of them, nearest first."""
HINT_SEARCH_SECONDS = 0.5
"""How long a hint looks for cells still to decide when there are none near the cursor."""
FIND_SECONDS = 1.0
"""How long one `find_undecided` looks before it says how far it got."""

_DIGITS = np.full(256, UNKNOWN, dtype=np.int64)
_DIGITS[ord("0") : ord("9")] = np.arange(9)
_FLAG = ord(Cell.FLAG.value)
_HIDDEN = ord(Cell.HIDDEN.value)
_RULE_ORDER = {rule: order for order, rule in enumerate(DeductionRule)}
"""Simpler rules first: a hint is easiest to follow when it needs only one number."""

Coord = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Hint:
    """A cell to open next: certainly safe, or else the least risky guess."""

    row: int
    col: int
    safe: bool
    """True when the cell is certainly safe."""
    mine_probability: Fraction
    reason: str
    """Whole sentences: the verdict on the cell, named once, and why."""
    exact: bool = True
    """False when the probability is an estimate (a guess on a board too big to count whole)."""


def hint(
    view_or_game: BoardView | Game,
    *,
    near: Coord | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Hint:
    """The hint for a whole-board view, or for a game at any point, the first click included.

    A game's public facts count: before its first click the placement rule decides (under
    "opening" every cell is safe and opens an area). Boards over `WHOLE_BOARD_CELLS` are
    looked at through windows around `near` (default: the last move), so a hint on a
    10^6 x 10^6 board costs what one on a small board does; where nothing is left near them,
    the board is searched further for a while (`clock` times it). Among safe cells the one
    with the shortest explanation wins, then the one nearest `near`.
    """
    if isinstance(view_or_game, BoardView):
        return _whole_board_hint(view_or_game, near)
    game = view_or_game
    if game.status.is_over:
        raise _over(game)
    if not game.started:
        return first_click_hint(game, near)
    if game.rows * game.cols <= WHOLE_BOARD_CELLS:
        return _whole_board_hint(game.view(), near)
    return _window_hint(game, near, clock)


def _over(game: Game) -> InvalidBoardError:
    return InvalidBoardError(f"the game is over ({game.status.value}): nothing to hint")


def first_click_hint(game: Game, near: Coord | None = None) -> Hint:
    """Before the first click the view says nothing; the game's placement rule says it all."""
    rows, cols, mines = game.rows, game.cols, game.mines
    row, col = _clamp(near or (rows // 2, cols // 2), rows, cols)
    rule = game.placer.rule
    cells = rows * cols
    free = kept_free(rule, rows, cols, mines, (row, col))
    if free:
        reason = words.first_click_reason(rule, (row, col), opening=len(free) > 1)
        return Hint(row, col, True, Fraction(0), reason)
    # No promise ("any", a fixed layout, a rule we do not know): every cell is as likely a
    # mine as any other, and a corner, with the fewest neighbours, most often opens an area.
    chance = Fraction(mines, cells)
    row, col = min(
        ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)),
        key=lambda corner: abs(corner[0] - row) + abs(corner[1] - col),
    )
    return Hint(row, col, False, chance, words.no_promise_reason(rule, (row, col), chance))


def _clamp(cell: Coord, rows: int, cols: int) -> Coord:
    return max(0, min(cell[0], rows - 1)), max(0, min(cell[1], cols - 1))


# --- whole boards ------------------------------------------------------------------------------


def _whole_board_hint(view: BoardView, near: Coord | None) -> Hint:
    position = Position.from_view(view)
    solved = solve(position, Counter(), count=Counting.IF_STUCK)
    if not solved.safe_cells():
        solved = solve(position, Counter())
    symbols = view.array.reshape(-1)
    safe = [c for c in solved.safe_cells() if symbols[c] == _HIDDEN] or solved.safe_cells()
    if safe:
        frame = _Frame(solved.known, solved.reasons, position, 0, 0)
        return frame.safe_hint(safe, near)
    return _guess_hint(solved)


def _guess_hint(solved: Solved) -> Hint:
    counts = solved.counts
    assert counts is not None
    # Among the least risky cells only, the bot's lookahead picks the one most likely to help
    # (the endgame search and the 50/50 credit are off: they may rightly prefer a riskier
    # cell, but a hint names the least risky one).
    guess = Bot(0, tolerance=0.0, endgame_cells=0, fifty_fifty_credit=0.0).guess(solved)
    row, col = divmod(guess.cell, solved.position.cols)
    chance = Fraction(solved.mine_weight(guess.cell), counts.total)
    reason = words.guess_reason((row, col), chance, solved.position.mines)
    return Hint(row, col, False, chance, reason)


# --- explanations ------------------------------------------------------------------------------


class _Frame:
    """Deductions on a grid that sits at (top, left) of the board, and how to tell them."""

    def __init__(
        self,
        known: dict[int, bool],
        reasons: dict[int, Reason],
        position: Position,
        top: int,
        left: int,
    ) -> None:
        self.known, self.reasons, self.position = known, reasons, position
        self.top, self.left = top, left
        # Dicts keep insertion order: the order in which the rules settled the cells.
        self.order = {cell: i for i, cell in enumerate(known)}
        self.nbrs = neighbours(position.rows, position.cols)

    def where(self, cell: int) -> Coord:
        row, col = divmod(cell, self.position.cols)
        return self.top + row, self.left + col

    def premises(self, cell: int) -> list[int]:
        """The cells settled earlier around this cell's numbers: what its rule stood on."""
        reason = self.reasons[cell]
        if reason.rule is DeductionRule.COUNT:
            return []
        before = self.order[cell]
        found = {
            n
            for source in reason.sources
            for n in self.nbrs[source]
            if n in self.order and self.order[n] < before and self.reasons[n] is not reason
        }
        return sorted(found, key=self.order.__getitem__)

    def chain(self, cell: int, limit: int = 64) -> list[int]:
        """Every step the cell's deduction rests on, in the order they were made, itself last."""
        seen = {cell}
        stack = [cell]
        while stack and len(seen) <= limit:
            for premise in self.premises(stack.pop()):
                if premise not in seen:
                    seen.add(premise)
                    stack.append(premise)
        return sorted(seen, key=self.order.__getitem__)

    def safe_hint(self, safe: list[int], near: Coord | None) -> Hint:
        aim = near or self.where(safe[0])

        def distance(cell: int) -> int:
            row, col = self.where(cell)
            return max(abs(row - aim[0]), abs(col - aim[1]))

        shortlist = sorted(safe, key=lambda c: (_RULE_ORDER[self.reasons[c].rule], distance(c), c))[
            :40
        ]
        chains = {cell: self.chain(cell) for cell in shortlist}
        cell = min(shortlist, key=lambda c: (len(chains[c]), distance(c), c))
        row, col = self.where(cell)
        return Hint(row, col, True, Fraction(0), words.explain(self.steps(chains[cell])))

    def steps(self, chain: list[int]) -> list[Step]:
        """The chain as steps: cells settled by one use of a rule go together, the hint last."""
        *before, last = chain
        groups: dict[int, list[int]] = {}
        for cell in before:
            groups.setdefault(id(self.reasons[cell]), []).append(cell)
        return [self.step(cells) for cells in [*groups.values(), [last]]]

    def step(self, cells: list[int]) -> Step:
        """What one use of a rule stood on, as `hint_words` tells it."""
        reason, values = self.reasons[cells[0]], self.position.values
        numbers = tuple(Number(self.where(s), values[s]) for s in reason.sources)
        mine = self.known[cells[0]]
        where = tuple(self.where(c) for c in cells)
        if reason.rule is DeductionRule.SINGLE:
            mines = {p for c in cells for p in self.premises(c) if self.known[p]}
            known = tuple(self.where(p) for p in sorted(mines, key=self.order.__getitem__))
            return Step(reason.rule, where, mine, numbers, known_mines=known)
        if reason.rule is DeductionRule.PAIR:
            earlier = [p for p in self.premises(cells[0]) if self.known[p]]
            needs = tuple(
                values[s] - sum(p in self.nbrs[s] for p in earlier) for s in reason.sources
            )
            return Step(reason.rule, where, mine, numbers, needs=needs)
        return Step(reason.rule, where, mine, numbers, mines=self.position.mines)


# --- big boards --------------------------------------------------------------------------------


def _window_hint(game: Game, near: Coord | None, clock: Callable[[], float]) -> Hint:
    """Look around `near` and the last move through growing windows; certain cells first.

    When there is nothing left to decide near them (a first click on a sparse board may
    open millions of cells), the board is searched ring by ring for the nearest cell that
    is (`find_undecided`), within `HINT_SEARCH_SECONDS`, and the windows look there.
    """
    centres = [near] if near is not None else []
    record_moves = game.record().moves if near is None else ()
    if record_moves:
        centres.append((record_moves[-1].move.row, record_moves[-1].move.col))
    if not centres:
        centres.append((game.rows // 2, game.cols // 2))
    budget = HINT_SEARCH_SECONDS / len(centres)
    searches = [
        find_undecided(game, c, budget=budget, clock=clock, beside_numbers=False) for c in centres
    ]
    spots = [search.cell for search in searches if search.cell is not None]
    if not spots:
        (row, col), search = centres[0], searches[0]
        if search.whole_board:
            raise InvalidBoardError("no closed cell on the board is still to decide")
        raise InvalidBoardError(
            f"no closed cell within {search.radius:,} cells of ({row}, {col}) is still to "
            "decide: every one there is plainly a mine"
        )
    guess: Hint | None = None
    for centre in spots:
        for side in WINDOW_SIDES:
            found = _look(
                game, _clamp(centre, game.rows, game.cols), side, want_guess=guess is None
            )
            if found is None:
                continue
            if found.safe:
                return found
            guess = guess or found
    if guess is not None:
        return guess
    blind = _blind_guess(game, spots[0])
    if blind is None:  # pragma: no cover - the search found a closed cell that is not a mine
        raise InvalidBoardError(f"no hint near {spots[0]}")
    return blind


def _nearest(game: Game, near: Coord, side: int, *, unknown: bool) -> Coord | None:
    """The nearest cell to `near`, in a window of `side`, that is unrevealed (or else calm:
    hidden with nothing revealed around it); None when the window has none."""
    rows, cols = game.rows, game.cols
    top = max(0, min(near[0] - side // 2, rows - side))
    left = max(0, min(near[1] - side // 2, cols - side))
    height, width = min(side, rows - top), min(side, cols - left)
    symbols = game.view(top, left, height, width).array
    hidden = (symbols == _HIDDEN) | (symbols == _FLAG)
    if unknown:
        mask = hidden & ~_plainly_mines(symbols, hidden)
    else:
        # Calm: hidden, with nothing revealed around it (beyond the window counts as hidden).
        mask = (symbols == _HIDDEN) & ~dilate(~hidden)
    spots = np.argwhere(mask)
    if not len(spots):
        return None
    here = np.array([near[0] - top, near[1] - left])
    r, c = spots[np.abs(spots - here).max(axis=1).argmin()]
    return top + int(r), left + int(c)


def _plainly_mines(
    symbols: npt.NDArray[np.uint8], hidden: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """Unrevealed cells beside a number that has just as many unrevealed cells around it.

    On a sparse board most unrevealed cells are lone mines ringed by numbers; skipping
    them leads the search to where a player still has something to find out.
    """
    values = _DIGITS[symbols]
    full = (values > 0) & (count_around(hidden) == values)
    return hidden & dilate(full)


def _look(game: Game, centre: Coord, side: int, *, want_guess: bool) -> Hint | None:
    """The hint a window of `side` cells around `centre` proves, or its best guess, or None."""
    rows, cols = game.rows, game.cols
    top = max(0, min(centre[0] - side // 2, rows - side))
    left = max(0, min(centre[1] - side // 2, cols - side))
    bottom, right = min(rows, top + side), min(cols, left + side)
    # One ring more on every side that the board has: the numbers inside then see all their
    # neighbours, and the ring's own numbers are left out (read as unknown, which only
    # widens what the rules consider, so whatever they prove still holds).
    outer_top, outer_left = max(0, top - 1), max(0, left - 1)
    outer_bottom, outer_right = min(rows, bottom + 1), min(cols, right + 1)
    height, width = outer_bottom - outer_top, outer_right - outer_left
    view = game.view(outer_top, outer_left, height, width)
    symbols = view.array
    values = _DIGITS[symbols]
    inner = np.zeros((height, width), dtype=bool)
    inner[top - outer_top : bottom - outer_top, left - outer_left : right - outer_left] = True
    values[~inner] = UNKNOWN
    flat = values.reshape(-1).tolist()
    if not any(v > 0 for v in flat):
        return None
    found = deduce(flat, width, neighbours(height, width))
    hidden = (symbols == _HIDDEN).reshape(-1) & inner.reshape(-1)
    safe = [c for c, mine in found.known.items() if not mine and hidden[c]]
    position = Position(height, width, tuple(flat), game.mines)
    if safe:
        frame = _Frame(found.known, found.reasons, position, outer_top, outer_left)
        return frame.safe_hint(safe, centre)
    if not want_guess:
        return None
    return _window_guess(game, found.constraints, hidden, found.known, outer_top, outer_left, width)


def _window_guess(
    game: Game,
    constraints: list[Constraint],
    hidden: npt.NDArray[np.bool_],
    known: dict[int, bool],
    top: int,
    left: int,
    width: int,
) -> Hint | None:
    """The least risky frontier cell of a window, the board beyond it taken at its density.

    Counting every arrangement of a big board is out of reach; instead each arrangement of
    the window's frontier with m mines is weighted by (d / (1 - d))^m, d the density of
    mines among the cells still closed: the limit of the exact count when the cells beyond
    are many. (Exact would need every number of the board: the window cuts the frontier,
    and the mine count ties every part of it to every other.)
    """
    density = _closed_density(game)
    if not 0 < density < 1:
        return None
    ratio = density / (1 - density)
    keys = frozenset((tuple(sorted(c.cells)), c.value) for c in constraints)
    counter = Counter()
    best: tuple[Fraction, int] | None = None
    for part in split_components(keys):
        component = counter.component(part)
        total = sum(w * ratio**m for m, w in component.weights.items())
        for g, group in enumerate(component.groups):
            on = sum(component.cell_weights[m][g] * ratio**m for m in component.weights)
            chance = Fraction(on) / Fraction(total)
            for cell in group:
                if hidden[cell] and cell not in known and (best is None or chance < best[0]):
                    best = (chance, cell)
    if best is None:
        return None
    chance, cell = best
    row, col = divmod(cell, width)
    row, col = top + row, left + col
    if density < chance:
        blind = _blind_guess(game, (row, col), lower=True)
        if blind is not None:
            return blind
    reason = words.window_guess_reason((row, col), chance, density)
    return Hint(row, col, False, chance, reason, exact=False)


def _closed_density(game: Game) -> Fraction:
    """Mines per closed cell: the chance of a mine in a closed cell no number says anything of.
    (Flags are the player's guesses, so flagged cells count as closed.)"""
    return Fraction(game.mines, game.rows * game.cols - game.opened)


def _blind_guess(game: Game, near: Coord, *, lower: bool = False) -> Hint | None:
    """A hidden cell away from every number, which has the average chance of a mine of the
    board's closed cells; None when every hidden cell near `near` touches a number. `lower`:
    it is chosen over a cell beside the numbers, whose estimate is higher."""
    density = _closed_density(game)
    spot = _nearest(game, near, 33, unknown=False)
    if spot is None:
        return None
    reason = words.blind_guess_reason(spot, density, lower=lower)
    return Hint(spot[0], spot[1], False, density, reason, exact=False)


# --- searching the board for what is left ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Search:
    """Where a search for the nearest cell still to decide ended."""

    cell: Coord | None
    """The cell found, or None when there was none within `radius`."""
    radius: int
    """Every cell this many rows or columns from the start, or fewer, has been looked at."""
    beside_numbers: bool = False
    """The cell touches a revealed number (else it is closed and away from every number)."""
    whole_board: bool = False
    """The search reached every edge of the board."""

    @property
    def reason(self) -> str:
        """The search's answer in a sentence."""
        return words.search_reason(
            self.cell, self.radius, beside_numbers=self.beside_numbers, whole=self.whole_board
        )


def find_undecided(
    game: Game,
    near: Coord,
    *,
    beyond: int = 0,
    skip: Coord | None = None,
    budget: float = FIND_SECONDS,
    clock: Callable[[], float] = time.monotonic,
    beside_numbers: bool = True,
) -> Search:
    """The nearest closed cell the solver can say something about: unflagged and not plainly
    a mine, beside a revealed number if one is found within `budget` seconds, else the
    nearest one away from every number. It reads the board in squares, ring by ring around
    `near`, only past `beyond` rows or columns from it (a search before went that far), and
    stops when the budget is spent: then `radius` says how far it looked. Without
    `beside_numbers` the nearest of either kind is found.

    A player on a 10^6 x 10^6 board sees only a window; this is how they learn where the
    game goes on. It costs what the squares read cost: about 25 million cells a second.
    """
    started = clock()
    half = SEARCH_CHUNK // 2
    first = 0 if beyond <= half else (beyond - half) // SEARCH_CHUNK + 1
    reach = max(near[0], game.rows - 1 - near[0], near[1], game.cols - 1 - near[1])
    calm: tuple[int, Coord] | None = None
    radius = half + (first - 1) * SEARCH_CHUNK if first else -1
    ring = first
    while radius < reach:
        beside: tuple[int, Coord] | None = None
        for top, left, height, width in _ring(game, near, ring):
            for cell, numbered in _undecided(game, top, left, height, width):
                if cell == skip:
                    continue
                distance = max(abs(cell[0] - near[0]), abs(cell[1] - near[1]))
                if numbered and (beside is None or (distance, cell) < beside):
                    beside = (distance, cell)
                elif not numbered and (calm is None or (distance, cell) < calm):
                    calm = (distance, cell)
        radius = half + ring * SEARCH_CHUNK
        ring += 1
        if beside is not None and (beside_numbers or calm is None or beside < calm):
            return Search(beside[1], min(radius, reach), beside_numbers=True)
        if calm is not None and not beside_numbers:
            return Search(calm[1], min(radius, reach))
        if clock() - started >= budget:
            break
    whole = radius >= reach
    if calm is not None:
        return Search(calm[1], min(radius, reach), whole_board=whole)
    return Search(None, min(radius, reach), whole_board=whole)


def _ring(game: Game, near: Coord, ring: int) -> Iterator[tuple[int, int, int, int]]:
    """The squares (top, left, height, width) `ring` squares out from the one centred on
    `near`, cut to the board; ring 0 is that one square."""
    half = SEARCH_CHUNK // 2
    for i in range(-ring, ring + 1):
        for j in range(-ring, ring + 1):
            if max(abs(i), abs(j)) != ring:
                continue
            top = near[0] - half + i * SEARCH_CHUNK
            left = near[1] - half + j * SEARCH_CHUNK
            bottom, right = min(game.rows, top + SEARCH_CHUNK), min(game.cols, left + SEARCH_CHUNK)
            top, left = max(0, top), max(0, left)
            if top < bottom and left < right:
                yield top, left, bottom - top, right - left


def _undecided(
    game: Game, top: int, left: int, height: int, width: int
) -> Iterator[tuple[Coord, bool]]:
    """The closed, unflagged cells of a square that are not plainly mines, each with whether
    it touches a revealed number. Read with two rings of context: the numbers just outside
    then see all their neighbours."""
    outer_top, outer_left = max(0, top - 2), max(0, left - 2)
    bottom, right = min(game.rows, top + height + 2), min(game.cols, left + width + 2)
    symbols = game.view(outer_top, outer_left, bottom - outer_top, right - outer_left).array
    hidden = (symbols == _HIDDEN) | (symbols == _FLAG)
    candidates = (symbols == _HIDDEN) & ~_plainly_mines(symbols, hidden)
    inner = np.zeros_like(candidates)
    inner[
        top - outer_top : top - outer_top + height, left - outer_left : left - outer_left + width
    ] = True
    candidates &= inner
    if not candidates.any():
        return
    numbered = dilate(_DIGITS[symbols] > 0)
    for r, c in np.argwhere(candidates).tolist():
        yield (outer_top + r, outer_left + c), bool(numbered[r, c])
