"""The solver's compiled path: `count.c` built by the system C compiler, loaded with ctypes.

The C source ships inside the package; the first use builds it with `$CC` (else the
compiler Python was built with, else `cc`) into the cache folder (`$MINES_CACHE_DIR`, else
`$XDG_CACHE_HOME/mines`, else `~/.cache/mines`), under a name that carries a hash of the
source and the flags, so an upgrade rebuilds it and never loads a stale library. Nothing
needs a compiler: without one, or with `MINES_NATIVE=0`, every count runs in Python and the
results are the same exact integers. `MINES_NATIVE=1` makes a missing compiler an error
instead. `python -m mines.solver.native` builds it and says which path runs, and why.

ctypes, not an extension module: it is in the standard library (the core's dependencies
stay numpy and scipy), the library does not depend on the Python version, and the package
keeps its pure-Python build (flit_core), so `pip install -e .` stays instant.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from mines.errors import MinesError

NATIVE_VARIABLE = "MINES_NATIVE"
"""`0` forces the Python path, `1` requires the compiled one, unset or `auto` uses it when
it builds."""
CFLAGS_VARIABLE = "MINES_NATIVE_CFLAGS"
"""Extra compiler flags, for example sanitizers (docs/solver.md shows the command)."""
CACHE_VARIABLE = "MINES_CACHE_DIR"
LIMBS = 8
"""64-bit limbs of the C code's fixed-width integers (MINES_LIMBS in count.c)."""
SOURCE = Path(__file__).with_name("count.c")
_OK, _NO_ARRANGEMENT, _FALL_BACK = 0, 1, 2


class NativeUnavailableError(MinesError):
    """The compiled path was required (`MINES_NATIVE=1`) but cannot be built or loaded."""


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """`$MINES_CACHE_DIR`, else `$XDG_CACHE_HOME/mines`, else `~/.cache/mines`."""
    if folder := environ.get(CACHE_VARIABLE):
        return Path(folder).expanduser()
    if xdg := environ.get("XDG_CACHE_HOME"):
        return Path(xdg).expanduser() / "mines"
    return Path.home() / ".cache" / "mines"


def _compiler(environ: Mapping[str, str]) -> list[str]:
    found = environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shlex.split(str(found))


def _flags(environ: Mapping[str, str]) -> list[str]:
    # No contraction of a * b + c into one rounding: the lookahead's floats must be
    # Python's, operation for operation.
    base = ["-O2", "-std=gnu11", "-ffp-contract=off", "-shared", "-fPIC"]
    return base + shlex.split(environ.get(CFLAGS_VARIABLE, ""))


def library_path(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the library built from this source with these flags is kept."""
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update(" ".join(_compiler(environ) + _flags(environ)).encode())
    name = f"mines-count-{digest.hexdigest()[:16]}-{platform.machine() or 'any'}.so"
    return cache_dir(environ) / name


def build(environ: Mapping[str, str] = os.environ) -> Path:
    """Compile `count.c` into the cache folder (when not there already); returns its path.

    Raises `NativeUnavailableError` saying why when there is no compiler or it fails.
    """
    target = library_path(environ)
    if target.exists():
        return target
    compiler = _compiler(environ)
    if not compiler or shutil.which(compiler[0]) is None:
        raise NativeUnavailableError(
            f"no C compiler: {compiler[0] if compiler else '(empty CC)'!r} was not found "
            f"(install gcc or set CC; {NATIVE_VARIABLE}=0 chooses the Python path)"
        )
    temporary = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # Built under a temporary name, then renamed: processes building at once never
        # load a half-written library.
        handle, temporary = tempfile.mkstemp(suffix=".so", dir=target.parent)
        os.close(handle)
        command = [*compiler, *_flags(environ), "-o", temporary, str(SOURCE), "-lm"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode:
            raise NativeUnavailableError(
                f"the C compiler failed ({' '.join(command)}): {done.stderr.strip()[:2000]}"
            )
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        raise NativeUnavailableError(
            f"cannot build the compiled solver in {target.parent}: {error} "
            f"({NATIVE_VARIABLE}=0 chooses the Python path)"
        ) from None
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
    return target


@dataclass(frozen=True, slots=True)
class Status:
    """Which path the solver's counting takes, and why."""

    native: bool
    reason: str


@cache
def _load() -> tuple[ctypes.CDLL | None, str]:
    choice = os.environ.get(NATIVE_VARIABLE, "auto").strip().lower()
    if choice in ("0", "no", "off", "false"):
        return None, f"{NATIVE_VARIABLE}={choice}: the Python path was chosen"
    if choice not in ("", "auto", "1", "yes", "on", "true"):
        raise NativeUnavailableError(
            f"{NATIVE_VARIABLE} must be 0 (Python), 1 (compiled, or an error) or auto, "
            f"got {choice!r}"
        )
    try:
        path = build()
        library = ctypes.CDLL(str(path))
    except (NativeUnavailableError, OSError) as error:
        if choice in ("1", "yes", "on", "true"):
            raise NativeUnavailableError(f"{NATIVE_VARIABLE}={choice}: {error}") from None
        return None, f"the compiled path is unavailable, so the Python path runs: {error}"
    library.mines_count.restype = ctypes.c_int
    library.mines_lookahead.restype = ctypes.c_int
    library.mines_deduce.restype = ctypes.c_int
    library.mines_ratio.restype = ctypes.c_double
    library.mines_fifty.restype = ctypes.c_int
    library.mines_endgame.restype = ctypes.c_int
    library.mines_play.restype = ctypes.c_int
    return library, f"compiled: {path}"


def status() -> Status:
    """Whether the compiled path runs, and why (the library's path, or what stopped it)."""
    library, reason = _load()
    return Status(library is not None, reason)


def available() -> bool:
    """Whether counts run compiled (building the library on the first call)."""
    return _load()[0] is not None


def count(
    constraints: Iterable[tuple[tuple[int, ...], int]], off_cells: int, mines_left: int
) -> tuple[int, dict[int, int], int, tuple[int, ...]] | None:
    """`Counter.count`'s numbers, compiled: (total, weight per frontier cell in the
    reference's order, weight of one cell away from the numbers, the mines those cells can
    hold), `(0, {}, 0, ())` when no arrangement fits, None when the caller must count in
    Python (no library, or a count too large for the fixed-width integers)."""
    library = _load()[0]
    if library is None:
        return None
    nkeys, starts, cells, values, size = _keys(constraints)
    c_int = ctypes.c_int
    out_cells = (c_int * max(size, 1))()
    out_weights = (ctypes.c_uint64 * (max(size, 1) * LIMBS))()
    total = (ctypes.c_uint64 * LIMBS)()
    off_weight = (ctypes.c_uint64 * LIMBS)()
    off_mines = (c_int * (max(mines_left, 0) + 1))()
    ncells = c_int()
    noff = c_int()
    code = library.mines_count(
        nkeys,
        starts,
        cells,
        values,
        c_int(off_cells),
        c_int(mines_left),
        ctypes.byref(ncells),
        out_cells,
        out_weights,
        total,
        off_weight,
        ctypes.byref(noff),
        off_mines,
    )
    if code == _NO_ARRANGEMENT:
        return 0, {}, 0, ()
    if code != _OK:
        return None
    width = 8 * LIMBS
    raw = bytes(out_weights)
    weights = {
        out_cells[i]: int.from_bytes(raw[i * width : (i + 1) * width], "little")
        for i in range(ncells.value)
    }
    return (
        int.from_bytes(bytes(total), "little"),
        weights,
        int.from_bytes(bytes(off_weight), "little"),
        tuple(off_mines[: noff.value]),
    )


_Array = ctypes.Array[ctypes.c_int]


def _ints(values: list[int]) -> _Array:
    # Through array's buffer: a list of hundreds of cells converts in one C loop.
    data = array("i", values or (0,))
    return (ctypes.c_int * len(data)).from_buffer(data)


def _keys(
    constraints: Iterable[tuple[tuple[int, ...], int]],
) -> tuple[ctypes.c_int, _Array, _Array, _Array, int]:
    """The keys as C arrays: how many, the offset of each one's cells, the cells, the values."""
    starts = [0]
    cells: list[int] = []
    values: list[int] = []
    for key_cells, value in set(constraints):
        cells.extend(key_cells)
        starts.append(len(cells))
        values.append(value)
    return ctypes.c_int(len(values)), _ints(starts), _ints(cells), _ints(values), len(cells)


def lookahead(
    rows: int,
    cols: int,
    constraints: Iterable[tuple[tuple[int, ...], int]],
    hidden: list[int],
    free_mines: int,
    living_checks: int,
    cells: list[int],
) -> dict[int, tuple[float, int]] | None:
    """`Bot.lookahead` for every cell of `cells` in one call: (chance to survive it and the
    next move, numbers it could show) per cell, the same floats as the Python path; None
    when the caller must run the Python path."""
    library = _load()[0]
    if library is None or not cells:
        return None
    nkeys, starts, key_cells, values, _ = _keys(constraints)
    scores = (ctypes.c_double * len(cells))()
    shown = (ctypes.c_int * len(cells))()
    code = library.mines_lookahead(
        ctypes.c_int(rows),
        ctypes.c_int(cols),
        nkeys,
        starts,
        key_cells,
        values,
        ctypes.c_int(len(hidden)),
        _ints(hidden),
        ctypes.c_int(free_mines),
        ctypes.c_int(living_checks),
        ctypes.c_int(len(cells)),
        _ints(cells),
        scores,
        shown,
    )
    if code != _OK:
        return None
    return {cell: (scores[i], shown[i]) for i, cell in enumerate(cells)}


def deduce(
    rows: int, cols: int, values: tuple[int, ...]
) -> tuple[dict[int, bool], frozenset[tuple[tuple[int, ...], int]]] | None:
    """The local rules' fixpoint, compiled: the cells they decide (True for a mine) and the
    constraints they leave, as `mines.solver.rules.deduce` finds them; None when the caller
    must run the Python path (no library, or numbers that contradict each other, for which
    the reference raises its own error). It keeps no reasons."""
    library = _load()[0]
    if library is None:
        return None
    size = rows * cols
    if len(values) != size:
        return None
    known = (ctypes.c_int * size)()
    decided = (ctypes.c_int * size)()
    ndecided = ctypes.c_int()
    nkeys = ctypes.c_int()
    starts = (ctypes.c_int * (size + 1))()
    cells = (ctypes.c_int * (8 * size + 1))()
    key_values = (ctypes.c_int * (size + 1))()
    code = library.mines_deduce(
        ctypes.c_int(rows),
        ctypes.c_int(cols),
        array("b", values).tobytes(),
        known,
        ctypes.byref(ndecided),
        decided,
        ctypes.byref(nkeys),
        starts,
        cells,
        key_values,
    )
    if code != _OK:
        return None
    where = decided[: ndecided.value]
    found = dict(zip(where, map(bool, map(known.__getitem__, where)), strict=True))
    flat = cells[: starts[nkeys.value]]
    bounds = starts[: nkeys.value + 1]
    keys = frozenset(
        (tuple(flat[bounds[i] : bounds[i + 1]]), key_values[i]) for i in range(nkeys.value)
    )
    return found, keys


def ratio(a: int, b: int) -> float | None:
    """`a / b` as the compiled path divides its counts (for tests: Python's `a / b` exactly);
    None without the library or past its integers' width."""
    library = _load()[0]
    width = 8 * LIMBS
    if library is None or not 0 <= a < 1 << 8 * width or not 0 < b < 1 << 8 * width:
        return None
    buffers = [ctypes.create_string_buffer(n.to_bytes(width, "little"), width) for n in (a, b)]
    return float(library.mines_ratio(*buffers))


def fifty(
    rows: int,
    cols: int,
    constraints: Iterable[tuple[tuple[int, ...], int]],
    values: tuple[int, ...],
    known: Mapping[int, bool],
    off_cells: int,
    free_mines: int,
    traps: tuple[tuple[int, ...], tuple[int, ...], int],
    credit: float,
    cells: list[int],
) -> dict[int, tuple[float, bool]] | None:
    """The bot's 50/50 credit of every cell of `cells` in one call: (the factor it
    multiplies the cell's score by, whether the cell is a mine only inside a 50/50), the
    same floats as the Python path; `traps` is `mines.solver.fifty.trap_table()`. None
    when the caller must run the Python path."""
    library = _load()[0]
    if library is None or not cells:
        return None
    nkeys, starts, key_cells, key_values, _ = _keys(constraints)
    decided = [-1] * (rows * cols)
    for cell, mine in known.items():
        decided[cell] = int(mine)
    info, offsets, families = traps
    factors = (ctypes.c_double * len(cells))()
    pseudo = (ctypes.c_int * len(cells))()
    code = library.mines_fifty(
        ctypes.c_int(rows),
        ctypes.c_int(cols),
        nkeys,
        starts,
        key_cells,
        key_values,
        _ints(list(values)),
        _ints(decided),
        ctypes.c_int(off_cells),
        ctypes.c_int(free_mines),
        ctypes.c_int(len(info) // 5),
        _ints(list(info)),
        _ints(list(offsets)),
        ctypes.c_int(families),
        ctypes.c_double(credit),
        ctypes.c_int(len(cells)),
        _ints(cells),
        factors,
        pseudo,
    )
    if code != _OK:
        return None
    return {cell: (factors[i], bool(pseudo[i])) for i, cell in enumerate(cells)}


def endgame(
    rows: int,
    cols: int,
    values: tuple[int, ...],
    known: Mapping[int, bool],
    mines: int,
    undecided: list[int],
    max_layouts: int,
    budget: int,
    listing_steps: int,
) -> tuple[bool, tuple[int, float] | None]:
    """`mines.solver.endgame.solve_endgame`'s search past its size checks, compiled:
    (True, (cell, chance to win)) or (True, None) as the reference finds them, or (False,
    None) when the caller must run the Python path."""
    library = _load()[0]
    if library is None:
        return False, None
    decided = [-1] * (rows * cols)
    for cell, mine in known.items():
        decided[cell] = int(mine)
    index = ctypes.c_int()
    value = ctypes.c_double()
    code = library.mines_endgame(
        ctypes.c_int(rows),
        ctypes.c_int(cols),
        _ints(list(values)),
        _ints(decided),
        ctypes.c_int(mines),
        ctypes.c_int(len(undecided)),
        _ints(undecided),
        ctypes.c_int(max_layouts),
        ctypes.c_int(budget),
        ctypes.c_long(listing_steps),
        ctypes.byref(index),
        ctypes.byref(value),
    )
    if code == _NO_ARRANGEMENT:
        return True, None
    if code != _OK:
        return False, None
    return True, (undecided[index.value], value.value)


@dataclass(frozen=True, slots=True)
class Played:
    """A game `play` played: the cells the bot opened in order, its guesses, its random
    generator's state after them, and whether it won; `over` is False when a position
    needed the Python path, which then goes on from those moves and that state."""

    over: bool
    won: bool
    moves: list[int]
    guesses: int
    state: tuple[int, ...]


def play(
    rows: int,
    cols: int,
    layout: Iterable[int],
    first: int,
    floats: tuple[float, float],
    ints: tuple[int, ...],
    traps: tuple[tuple[int, ...], tuple[int, ...], int],
    state: tuple[int, ...],
    *,
    room: int | None = None,
) -> Played | None:
    """`Bot.play` on a game whose mines lie on the flat cells `layout`, opened first at
    `first`, compiled end to end (`Bot.play_placed` passes its parameters as `floats` and
    `ints` and its `random.Random` state); None without the library. `room` caps the
    moves played here (the Python path plays on from there: for tests)."""
    library = _load()[0]
    if library is None:
        return None
    # C reads exactly these many of each: a wrong length would read past the arrays.
    if len(floats) != 2 or len(ints) != 8 or len(state) != 625:
        raise ValueError(
            f"play needs 2 floats, 8 integers and a state of 625 words, got {len(floats)}, "
            f"{len(ints)} and {len(state)}"
        )
    size = rows * cols
    mines = bytearray(max(size, 1))
    count = 0
    for cell in layout:
        if not 0 <= cell < size or mines[cell]:
            raise ValueError(f"a layout needs distinct cells from 0 to {size - 1}, got {cell}")
        mines[cell] = 1
        count += 1
    info, offsets, families = traps
    words = array("I", state)
    moves = (ctypes.c_int * (size + 1))()
    nmoves, guesses, result = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    code = library.mines_play(
        ctypes.c_int(rows),
        ctypes.c_int(cols),
        ctypes.c_int(count),
        bytes(mines),
        ctypes.c_int(first),
        (ctypes.c_double * 2)(*floats),
        (ctypes.c_long * len(ints))(*ints),
        ctypes.c_int(len(info) // 5),
        _ints(list(info)),
        _ints(list(offsets)),
        ctypes.c_int(families),
        (ctypes.c_uint32 * len(words)).from_buffer(words),
        ctypes.c_int(size + 1 if room is None else min(room, size + 1)),
        moves,
        ctypes.byref(nmoves),
        ctypes.byref(guesses),
        ctypes.byref(result),
    )
    return Played(
        code == _OK,
        result.value == 1,
        moves[: nmoves.value],
        guesses.value,
        tuple(words),
    )
