"""Free cells walled off from the open board, found by labelling boxes around obstacle clusters.

Obstacles (mines, numbers, flags, revealed cells) are few; the free cells are their
complement: one open "sea" plus pockets that clusters of obstacles enclose, alone or
against the board's edge. A wall that encloses a pocket is a 4-connected chain of
obstacles, so it lies inside one cluster's bounding box; labelling each box (with a
one-cell margin) finds every pocket as a component that never reaches the box's
open sides. Every other free cell belongs to the sea, unless some cluster runs from
one edge of the board to the opposite one and may cut the sea in two: then there is
no single sea, and `mines.sparse.compressed` answers instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mines.grid import EIGHT_CONNECTED, Flat
from mines.sparse.cells import (
    EMPTY,
    contains,
    distinct,
    distinct_with_inverse,
    expand_ranges,
)

BUCKET = 4
"""Side of the grid squares that group obstacles into clusters: neighbouring squares join."""


@dataclass(frozen=True)
class Pockets:
    """The free cells enclosed away from the sea, with a component label per cell.

    When boxes overlap a pocket may be listed once per box; every copy is complete.
    `sea` says whether free cells outside every pocket exist (they form one region).
    """

    cells: Flat
    labels: npt.NDArray[np.int64]
    sea: bool

    def component_of(self, cell: int) -> Flat | None:
        """The cells of the pocket holding `cell`, or None when it lies in the sea."""
        at = np.flatnonzero(self.cells == cell)
        if not at.size:
            return None
        own: Flat = self.cells[self.labels == self.labels[at[0]]]
        return own

    def distinct_cells(self) -> Flat:
        return distinct(self.cells)

    def count(self) -> int:
        """How many distinct pockets there are."""
        if not self.cells.size:
            return 0
        lowest = np.full(int(self.labels.max()) + 1, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(lowest, self.labels, self.cells)
        return int(distinct(lowest[distinct(self.labels)]).size)


def find_pockets(rows: int, cols: int, obstacles: Flat) -> Pockets | None:
    """The pockets of the free cells (all cells but the sorted, distinct `obstacles`),
    or None when a cluster runs from edge to edge, so there may be more than one sea."""
    free_cells = rows * cols - obstacles.size
    if not obstacles.size:
        return Pockets(EMPTY, EMPTY, sea=free_cells > 0)
    row, col = np.divmod(obstacles, cols)
    cluster = _clusters(row, col, cols)
    count = int(cluster.max()) + 1
    top, bottom = _extent(row, cluster, count, rows)
    left, right = _extent(col, cluster, count, cols)
    spans = ((top == 0) & (bottom == rows)) | ((left == 0) & (right == cols))
    if spans.any():
        return None
    cells, labels = _label_boxes(rows, cols, obstacles, top, bottom, left, right)
    return Pockets(cells, labels, sea=free_cells > distinct(cells).size)


def _clusters(row: Flat, col: Flat, cols: int) -> Flat:
    """A cluster number per obstacle: obstacles in touching grid squares share one."""
    # scipy on first use, not at import (see `mines.dense._ndimage`).
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    across = cols // BUCKET + 1
    square_row, square_col = row // BUCKET, col // BUCKET
    squares, square_of = distinct_with_inverse(square_row * across + square_col)
    sq_row, sq_col = np.divmod(squares, across)
    sources, targets = [], []
    for d_row, d_col in ((0, 1), (1, -1), (1, 0), (1, 1)):
        next_col = sq_col + d_col
        other = (sq_row + d_row) * across + next_col
        joined = contains(squares, other) & (next_col >= 0) & (next_col < across)
        sources.append(np.flatnonzero(joined))
        targets.append(np.searchsorted(squares, other[joined]))
    source, target = np.concatenate(sources), np.concatenate(targets)
    graph = coo_matrix(
        (np.ones(source.size, dtype=np.int8), (source, target)), shape=(squares.size,) * 2
    )
    _, square_cluster = connected_components(graph, directed=False)
    clusters: Flat = square_cluster.astype(np.int64)[square_of]
    return clusters


def _extent(
    position: Flat, cluster: Flat, count: int, size: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each cluster's span on one axis, grown by a margin of one, clipped, end exclusive."""
    low = np.full(count, size, dtype=np.int64)
    high = np.zeros(count, dtype=np.int64)
    np.minimum.at(low, cluster, position)
    np.maximum.at(high, cluster, position)
    return np.maximum(low - 1, 0), np.minimum(high + 2, size)


def _label_boxes(
    rows: int,
    cols: int,
    obstacles: Flat,
    top: Flat,
    bottom: Flat,
    left: Flat,
    right: Flat,
) -> tuple[Flat, npt.NDArray[np.int64]]:
    """Label every box at once, packed on shelves of one canvas with a gap between boxes."""
    heights, widths = bottom - top, right - left
    box_y, box_x, canvas_width = _pack(heights, widths)
    canvas_height = int((box_y + heights).max())
    # One entry per row of every box, then one per cell of those rows.
    line_box = np.repeat(np.arange(heights.size), heights)
    line_in_box = expand_ranges(np.zeros(heights.size, dtype=np.int64), heights)
    line_width = widths[line_box]
    line_start = (box_y[line_box] + line_in_box) * canvas_width + box_x[line_box]
    spot = expand_ranges(line_start, line_width)
    cell = expand_ranges((top[line_box] + line_in_box) * cols + left[line_box], line_width)
    cell_box = np.repeat(line_box, line_width)
    cell_row = np.repeat(line_in_box, line_width)
    cell_col = expand_ranges(np.zeros(line_box.size, dtype=np.int64), line_width)
    free = ~contains(obstacles, cell)
    canvas = np.zeros(canvas_height * canvas_width, dtype=bool)
    canvas[spot] = free
    from scipy import ndimage  # on first use: see `mines.dense._ndimage`

    labels, _ = ndimage.label(canvas.reshape(canvas_height, canvas_width), EIGHT_CONNECTED)
    cell_label = labels.reshape(-1)[spot].astype(np.int64)
    # A box side is open unless it is the board's edge; what touches it may reach the sea.
    exits = (
        ((cell_row == 0) & (top[cell_box] > 0))
        | ((cell_row == heights[cell_box] - 1) & (bottom[cell_box] < rows))
        | ((cell_col == 0) & (left[cell_box] > 0))
        | ((cell_col == widths[cell_box] - 1) & (right[cell_box] < cols))
    )
    reach_sea = distinct(cell_label[exits & free])
    enclosed = free & ~contains(reach_sea, cell_label)
    return cell[enclosed], cell_label[enclosed]


def _pack(heights: Flat, widths: Flat) -> tuple[Flat, Flat, int]:
    """Shelf packing, tallest boxes first: each box's (y, x) on the canvas, and its width."""
    shelf_width = max(int(widths.max()), math.isqrt(int((heights + 1) @ (widths + 1))) + 1)
    box_y = np.zeros(heights.size, dtype=np.int64)
    box_x = np.zeros(heights.size, dtype=np.int64)
    y = x = shelf_height = 0
    tall = heights.tolist()
    wide = widths.tolist()
    for box in np.argsort(-heights, kind="stable").tolist():
        if x + wide[box] > shelf_width:
            y, x, shelf_height = y + shelf_height + 1, 0, 0
        box_y[box], box_x[box] = y, x
        x += wide[box] + 1
        shelf_height = max(shelf_height, tall[box])
    return box_y, box_x, shelf_width
