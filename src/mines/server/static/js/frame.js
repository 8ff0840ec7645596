// The board on screen, sized and moved: the cell size that fits, zoom, panning, the minimap.

import { t } from "./i18n.js";

/** @typedef {import("./board.js").Board} Board */

/** Cell sizes in CSS pixels: a fitted board never gets cells above FIT_MAX (a 9 x 9 board on
 * a big screen would look silly), a zoomed one goes up to ZOOM_MAX. */
const CELL_MIN = 10;
const FIT_MAX = 48;
const ZOOM_MAX = 96;
/** One press of + or -, one notch of ctrl+wheel. */
const ZOOM_STEP = 1.25;
/** Cells left between the visible part and the window's edge before the window follows. */
const EDGE_CELLS = 6;
/** One line of a wheel that counts in lines, in CSS pixels (what Chromium scrolls for one). */
const LINE_PX = 40;
/** The minimap's longest side, in CSS pixels. */
const MAP_SIZE = 140;
/** The frame's and viewport's borders and padding around the board, in CSS pixels. */
const CHROME_PX = 24;
/** A zoom gesture (pinch, ctrl+wheel, keys) has ended when no step came for this long: only
 * then is the board laid out again at its new cell size. */
const ZOOM_REST_MS = 250;

/**
 * @typedef {object} FrameParts
 * @property {HTMLElement} viewport  the scrolling box around the board
 * @property {number} [reserve]  CSS pixels kept free below the board (its tools, a status line)
 * @property {HTMLElement} [pan]  the panning tools, shown while part of the board is out of sight;
 *   its buttons with `data-pan` ("up", "down", "left", "right") move a page that way
 * @property {HTMLElement} [label]  says which rows and columns are visible
 * @property {HTMLCanvasElement} [minimap]  where the visible part is on the whole board
 * @property {HTMLElement} [zoomIn]
 * @property {HTMLElement} [zoomOut]
 * @property {HTMLElement} [zoomFit]
 * @property {(top: number, left: number) => void} [moveWindow]  the window a bigger board should show
 * @property {HTMLDetailsElement[]} [passing]  panels above the board that open and close (More
 *   options): the board is fitted as if they were closed, so opening one does not shrink it
 */

/** Where a size's zoom is remembered. @param {number} rows @param {number} cols */
const zoomKey = (rows, cols) => `mines:cell:${rows}x${cols}`;

/**
 * One board's frame: the cell size (fitted to the screen, or the player's zoom, remembered per
 * board size), the scroll position within the server's window, and the window moving along
 * when the visible part nears its edge. The same on the game, race, replay and review pages.
 */
export class Frame {
  /** @param {Board} board @param {FrameParts} parts */
  constructor(board, parts) {
    this.board = board;
    this.parts = parts;
    this.viewport = parts.viewport;
    /** The cell size now, unrounded (a pinch changes it by small factors). */
    this.cell = 24;
    /** Whether the player chose the size (else it follows the screen). */
    this.zoomed = false;
    /** @type {string} the board size the cell size was chosen for */
    this.sized = "";
    /** The board cell at the viewport's top left corner, as fractions of cells. */
    this.anchor = { row: 0, col: 0 };
    /** @type {{top: number, left: number}} the window shown, to tell a moved one */
    this.shown = { top: 0, left: 0 };
    /** @type {string | null} the window asked for and not yet shown */
    this.asked = null;
    /** Set while the frame scrolls the viewport itself: the scroll is not the player's. */
    this.restoring = false;
    this.scheduled = false;
    /** @type {Uint8Array} the minimap's pixels: 1 where an open cell was seen */
    this.seen = new Uint8Array(0);
    this.mapWidth = 0;
    this.mapHeight = 0;
    /** @type {ImageData | null} the seen pixels, painted; null when what is seen changed */
    this.mapImage = null;
    this.mapInk = "#0047ff";
    /**
     * A zoom in progress, drawn as a transform of the board (the compositor scales it, nothing
     * is laid out) until it rests: the cell size it goes to, the size the board is laid out at,
     * the transform (board pixels -> scrolled content pixels), the last point kept still.
     * @type {{cell: number, laid: number, least: number, scale: number, tx: number, ty: number,
     *   qx: number, qy: number, timer: number} | null}
     */
    this.zooming = null;
    board.drawn = (rebuilt) => this.drawn(rebuilt);
    this.viewport.addEventListener("scroll", () => this.scrolled(), { passive: true });
    this.viewport.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    parts.zoomIn?.addEventListener("click", () => this.zoomBy(ZOOM_STEP));
    parts.zoomOut?.addEventListener("click", () => this.zoomBy(1 / ZOOM_STEP));
    parts.zoomFit?.addEventListener("click", () => this.fitAgain());
    if (parts.minimap) this.listenToMap(parts.minimap);
    parts.pan?.addEventListener("click", (event) => {
      const way = event.target instanceof Element ? event.target.closest("button")?.dataset.pan : undefined;
      /** @type {Record<string, [number, number]>} */
      const ways = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
      if (way && ways[way]) this.panPage(...ways[way]);
    });
    window.addEventListener("resize", () => this.fit());
    // What is above the board changed height (an options panel opened, a lobby's invitation
    // went): the room below it changed, so a fitted board is fitted again.
    let top = 0;
    new ResizeObserver(() => {
      const now = Math.round(this.viewport.getBoundingClientRect().top + scrollY);
      if (now === top) return;
      top = now;
      if (!this.zoomed) this.fit();
    }).observe(document.body);
  }

  /** What the board's gestures and keys do to the frame, for `listen` (js/input.js). */
  gestures() {
    return {
      /** @param {number} dx @param {number} dy */
      panBy: (dx, dy) => {
        // What the board cannot take (at its edge, or a board seen whole) scrolls the page.
        const [, rest] = this.panBy(dx, dy);
        if (rest) window.scrollBy(0, rest);
      },
      canPan: () => this.canPan(),
      /** @param {number} factor @param {number} [x] @param {number} [y] */
      zoomBy: (factor, x, y) => this.zoomBy(factor, x, y),
      zoomFit: () => this.fitAgain(),
    };
  }

  /**
   * ctrl+wheel (a trackpad's pinch too) zooms the board, not the page. The plain wheel pans a
   * board bigger than its frame here, in this frame: the browser's own scroll would come a frame
   * later, after this listener (which may cancel it) has run. A board seen whole leaves the
   * wheel to the page.
   * @param {WheelEvent} event
   */
  wheel(event) {
    if (event.ctrlKey) {
      event.preventDefault();
      const notches = Math.max(-4, Math.min(4, -event.deltaY / (event.deltaMode === 1 ? 3 : 100)));
      this.zoomBy(ZOOM_STEP ** notches, event.clientX, event.clientY);
      return;
    }
    if (!this.canPan()) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? LINE_PX : event.deltaMode === 2 ? this.viewport.clientHeight : 1;
    let dx = event.deltaX * unit;
    let dy = event.deltaY * unit;
    if (event.shiftKey && !dx) [dx, dy] = [dy, 0];  // Shift turns the wheel sideways
    this.panBy(dx, dy);  // past the board's edge nothing moves: the viewport contains overscroll
  }

  /** Whether part of the board is out of sight. */
  canPan() {
    const v = this.viewport;
    const b = this.board;
    return v.scrollWidth > v.clientWidth + 1 || v.scrollHeight > v.clientHeight + 1 || b.rows > b.height || b.cols > b.width;
  }

  // --- size --------------------------------------------------------------------------

  /** The room the board has on screen now, in CSS pixels. */
  room() {
    const column = this.viewport.closest(".frame")?.parentElement;
    const width = Math.max(100, (column ? column.clientWidth : innerWidth) - CHROME_PX);
    let top = this.viewport.getBoundingClientRect().top + scrollY;
    for (const panel of this.parts.passing ?? []) {
      const summary = panel.querySelector("summary");
      if (panel.open && summary) top -= panel.getBoundingClientRect().height - summary.getBoundingClientRect().height;
    }
    const height = Math.max(160, innerHeight - top - (this.parts.reserve ?? 0) - 6);
    return { width, height };
  }

  /** The smallest cell size at which the window still covers the viewport. */
  smallest() {
    const b = this.board;
    const { width, height } = this.room();
    const least = Math.max(b.cols > b.width ? width / b.width : 0, b.rows > b.height ? height / b.height : 0);
    return Math.max(CELL_MIN, Math.ceil(least));
  }

  /** The largest cell size at which the whole board fits the room (at least CELL_MIN). */
  fitted() {
    const b = this.board;
    const { width, height } = this.room();
    return Math.max(this.smallest(), Math.min(FIT_MAX, Math.floor(width / b.cols), Math.floor(height / b.rows)));
  }

  /** Size the board: the player's remembered zoom for this size, else what fits. */
  fit() {
    const b = this.board;
    if (!b.width) return;
    this.settle();
    const size = `${b.rows}x${b.cols}`;
    if (size !== this.sized) {
      this.sized = size;
      const kept = Number(localStorage.getItem(zoomKey(b.rows, b.cols)));
      this.zoomed = kept > 0;
      if (this.zoomed) this.cell = kept;
    }
    const { height } = this.room();
    this.viewport.style.maxHeight = `${Math.round(height) + 6}px`;
    this.setCell(this.zoomed ? this.cell : this.fitted());
  }

  /** Forget the player's zoom for this board size: it fits the screen again. */
  fitAgain() {
    const b = this.board;
    localStorage.removeItem(zoomKey(b.rows, b.cols));
    this.zoomed = false;
    this.setCell(this.fitted());
  }

  /**
   * Zoom by a factor, keeping the cell under (x, y) where it is (the viewport's middle when
   * no point is given); remembered for this board size. While the steps keep coming the board
   * is only scaled on screen; it is laid out at its new size once they rest (`settle`).
   * @param {number} factor @param {number} [x] @param {number} [y]
   */
  zoomBy(factor, x, y) {
    const b = this.board;
    if (!b.width) return;
    const v = this.viewport;
    const z = this.zooming ?? {
      cell: this.cell, laid: Math.round(this.cell) || 1, least: this.smallest(),
      scale: 1, tx: 0, ty: 0, qx: 0, qy: 0, timer: 0,
    };
    const cell = Math.max(z.least, Math.min(ZOOM_MAX, z.cell * factor));
    if (cell === z.cell) return;
    const box = v.getBoundingClientRect();
    z.qx = (x ?? box.left + v.clientWidth / 2) - box.left - v.clientLeft;
    z.qy = (y ?? box.top + v.clientHeight / 2) - box.top - v.clientTop;
    // Scale about the point (qx, qy) of the viewport: the content point under it stays.
    const f = cell / z.cell;
    const ux = v.scrollLeft + z.qx;
    const uy = v.scrollTop + z.qy;
    z.tx = ux + f * (z.tx - ux);
    z.ty = uy + f * (z.ty - uy);
    z.cell = cell;
    z.scale = cell / z.laid;
    if (!this.zooming) {
      this.zooming = z;
      b.element.classList.add("zooming");
    }
    b.element.style.transform = `translate(${z.tx}px, ${z.ty}px) scale(${z.scale})`;
    clearTimeout(z.timer);
    z.timer = window.setTimeout(() => this.settle(), ZOOM_REST_MS);
  }

  /** The zoom gesture rests: the board is laid out at its new cell size, the same cells in view. */
  settle() {
    const z = this.zooming;
    if (!z) return;
    const b = this.board;
    const v = this.viewport;
    clearTimeout(z.timer);
    this.zooming = null;
    // The board cell under the last point kept still, before the transform goes.
    const atCol = (v.scrollLeft + z.qx - z.tx) / z.scale / z.laid;
    const atRow = (v.scrollTop + z.qy - z.ty) / z.scale / z.laid;
    b.element.style.transform = "";
    b.element.classList.remove("zooming");
    this.zoomed = true;
    try {
      localStorage.setItem(zoomKey(b.rows, b.cols), String(Math.round(z.cell)));
    } catch {
      // Storage refused (private mode): the zoom holds for this page only.
    }
    this.cell = z.cell;
    const now = Math.round(z.cell);
    b.setCellSize(now);
    this.scrollTo(atCol * now - z.qx, atRow * now - z.qy);
    this.show();
  }

  /** A zoom still in progress is dropped: the size set now wins. */
  drop() {
    const z = this.zooming;
    if (!z) return;
    clearTimeout(z.timer);
    this.zooming = null;
    this.board.element.style.transform = "";
    this.board.element.classList.remove("zooming");
  }

  /**
   * @param {number} cell  the new cell size, unrounded
   * @param {number} [x] @param {number} [y]  a point in the viewport that stays on its cell
   */
  setCell(cell, x, y) {
    this.drop();
    const v = this.viewport;
    const box = v.getBoundingClientRect();
    const px = (x ?? box.left + v.clientWidth / 2) - box.left - v.clientLeft;
    const py = (y ?? box.top + v.clientHeight / 2) - box.top - v.clientTop;
    const old = Math.round(this.cell) || 1;
    const atCol = (v.scrollLeft + px) / old;
    const atRow = (v.scrollTop + py) / old;
    this.cell = cell;
    const now = Math.round(cell);
    this.board.setCellSize(now);
    this.scrollTo(atCol * now - px, atRow * now - py);
    this.show();
  }

  /** Scroll the viewport to a pixel position, as the frame's own doing. @param {number} left @param {number} top */
  scrollTo(left, top) {
    this.restoring = true;
    this.viewport.scrollLeft = Math.max(0, left);
    this.viewport.scrollTop = Math.max(0, top);
    this.restoring = false;
    this.scrolled();
  }

  // --- position ----------------------------------------------------------------------

  /**
   * Move what is visible by (dx, dy) CSS pixels; returns what the board could not take (its
   * edge), for the page to scroll instead.
   * @param {number} dx @param {number} dy @returns {[number, number]}
   */
  panBy(dx, dy) {
    const v = this.viewport;
    const left = v.scrollLeft;
    const top = v.scrollTop;
    v.scrollLeft = left + dx;
    v.scrollTop = top + dy;
    return [dx - (v.scrollLeft - left), dy - (v.scrollTop - top)];
  }

  /** A page of the board in a direction (the arrow buttons, Shift+arrows). @param {number} dr @param {number} dc */
  panPage(dr, dc) {
    const v = this.viewport;
    this.panBy(dc * v.clientWidth * 0.8, dr * v.clientHeight * 0.8);
  }

  /** The visible part, in board cells (fractions at its edges). */
  visible() {
    const b = this.board;
    const v = this.viewport;
    const cell = Math.round(this.cell) || 1;
    const top = b.top + v.scrollTop / cell;
    const left = b.left + v.scrollLeft / cell;
    return {
      top, left,
      bottom: Math.min(b.rows, top + v.clientHeight / cell),
      right: Math.min(b.cols, left + v.clientWidth / cell),
    };
  }

  scrolled() {
    const b = this.board;
    if (!b.width || this.zooming) return;  // a zoom in progress: settled, it scrolls again
    const seen = this.visible();
    if (!this.restoring) this.anchor = { row: seen.top, col: seen.left };
    this.follow(seen);
    this.show();
  }

  /**
   * Ask for a window around the visible part when it nears an edge of the window shown
   * and the board goes on past that edge.
   * @param {{top: number, left: number, bottom: number, right: number}} seen
   */
  follow(seen) {
    const b = this.board;
    const move = this.parts.moveWindow;
    if (!move || (b.rows <= b.height && b.cols <= b.width)) return;
    const near = (b.top > 0 && seen.top - b.top < EDGE_CELLS)
      || (b.top + b.height < b.rows && b.top + b.height - seen.bottom < EDGE_CELLS)
      || (b.left > 0 && seen.left - b.left < EDGE_CELLS)
      || (b.left + b.width < b.cols && b.left + b.width - seen.right < EDGE_CELLS);
    if (near) this.centreOn((seen.top + seen.bottom) / 2, (seen.left + seen.right) / 2);
  }

  /** Ask for the window centred on a board point. @param {number} row @param {number} col */
  centreOn(row, col) {
    const b = this.board;
    const top = Math.max(0, Math.min(b.rows - b.height, Math.round(row - b.height / 2)));
    const left = Math.max(0, Math.min(b.cols - b.width, Math.round(col - b.width / 2)));
    const key = `${top},${left}`;
    if ((top === b.top && left === b.left) || key === this.asked) return;
    this.asked = key;
    this.parts.moveWindow?.(top, left);
  }

  /**
   * The board drew a view: a new board is sized; a moved window scrolls back to the cells that
   * were visible (the anchor), so what the player sees does not jump.
   * @param {boolean} rebuilt
   */
  drawn(rebuilt) {
    const b = this.board;
    if (rebuilt) {
      this.settle();
      if (`${b.rows}x${b.cols}` !== this.sized) {
        this.anchor = { row: b.top, col: b.left };
        this.forget();
        this.fit();
      }
      if (b.top !== this.shown.top || b.left !== this.shown.left) {
        this.shown = { top: b.top, left: b.left };
        this.asked = null;
        const cell = Math.round(this.cell);
        this.scrollTo((this.anchor.col - b.left) * cell, (this.anchor.row - b.top) * cell);
      }
    }
    if (this.parts.minimap) this.remember();
    this.show();
  }

  // --- what is visible: the label and the minimap --------------------------------------

  /** Update the label and the minimap at the next frame (once, however many calls). */
  show() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.showNow();
    });
  }

  showNow() {
    const b = this.board;
    if (!b.width || this.zooming) return;
    const seen = this.visible();
    const whole = seen.top <= 0 && seen.left <= 0 && seen.bottom >= b.rows - 0.01 && seen.right >= b.cols - 0.01;
    if (this.parts.pan) this.parts.pan.hidden = whole;
    const label = this.parts.label;
    if (label) {
      const first = (/** @type {number} */ n) => Math.floor(n + 0.01) + 1;
      const last = (/** @type {number} */ n) => Math.max(1, Math.ceil(n - 0.01));
      const text = whole ? "" : t("Showing rows {top}–{bottom}, columns {left}–{right} of {rows}×{cols}", { top: first(seen.top), bottom: last(seen.bottom), left: first(seen.left), right: last(seen.right), rows: b.rows, cols: b.cols });
      if (label.textContent !== text) label.textContent = text;
      label.hidden = whole;
    }
    const map = this.parts.minimap;
    if (map) {
      map.hidden = whole;
      if (!whole) this.drawMap(map, seen);
    }
  }

  /** A new board: nothing of it seen yet. */
  forget() {
    const b = this.board;
    const scale = MAP_SIZE / Math.max(b.rows, b.cols);
    this.mapWidth = Math.max(8, Math.round(b.cols * Math.min(1, scale)));
    this.mapHeight = Math.max(8, Math.round(b.rows * Math.min(1, scale)));
    this.seen = new Uint8Array(this.mapWidth * this.mapHeight);
    this.mapImage = null;
  }

  /** What the window shows now is remembered in the minimap's pixels (after each drawing, not
   * each scroll: panning only moves the rectangles drawn over them). */
  remember() {
    const b = this.board;
    if (this.seen.length !== this.mapWidth * this.mapHeight || !this.mapWidth) this.forget();
    const w = this.mapWidth;
    const h = this.mapHeight;
    const sx = w / b.cols;
    const sy = h / b.rows;
    for (let r = 0; r < b.height; r++) {
      const y = Math.min(h - 1, Math.floor((b.top + r) * sy));
      for (let c = 0; c < b.width; c++) {
        const s = b.symbols[r * b.width + c];
        if (s >= "0" && s <= "8") this.seen[y * w + Math.min(w - 1, Math.floor((b.left + c) * sx))] = 1;
      }
    }
    this.mapImage = null;
  }

  /**
   * Draw the whole board small: what this page has seen open, the window, and the visible part.
   * @param {HTMLCanvasElement} map @param {{top: number, left: number, bottom: number, right: number}} seen
   */
  drawMap(map, seen) {
    const b = this.board;
    if (this.seen.length !== this.mapWidth * this.mapHeight || !this.mapWidth) this.remember();
    const w = this.mapWidth;
    const h = this.mapHeight;
    const sx = w / b.cols;
    const sy = h / b.rows;
    if (map.width !== w || map.height !== h) {
      map.width = w;
      map.height = h;
      this.mapImage = null;
    }
    const context = map.getContext("2d");
    if (!context) return;
    if (!this.mapImage) {
      // The seen pixels are painted once per change of what is seen; the colours are read then.
      const ink = getComputedStyle(map);
      this.mapInk = ink.getPropertyValue("--focus") || "#0047ff";
      context.fillStyle = ink.getPropertyValue("--shadow") || "#808080";
      context.fillRect(0, 0, w, h);
      const image = context.getImageData(0, 0, w, h);
      for (let i = 0; i < this.seen.length; i++) {
        if (!this.seen[i]) continue;
        image.data.set([230, 230, 230, 255], i * 4);
      }
      this.mapImage = image;
    }
    context.putImageData(this.mapImage, 0, 0);
    context.lineWidth = 1;
    context.strokeStyle = this.mapInk;
    context.strokeRect(b.left * sx + 0.5, b.top * sy + 0.5, Math.max(1, b.width * sx - 1), Math.max(1, b.height * sy - 1));
    context.fillStyle = "rgb(255 0 0 / .45)";
    context.fillRect(seen.left * sx, seen.top * sy, Math.max(2, (seen.right - seen.left) * sx), Math.max(2, (seen.bottom - seen.top) * sy));
  }

  /** A press or drag on the minimap shows that part of the board. @param {HTMLCanvasElement} map */
  listenToMap(map) {
    /** @param {PointerEvent} event */
    const go = (event) => {
      if (!event.buttons && event.type !== "pointerdown") return;
      const b = this.board;
      const box = map.getBoundingClientRect();
      const row = ((event.clientY - box.top) / box.height) * b.rows;
      const col = ((event.clientX - box.left) / box.width) * b.cols;
      this.goTo(row, col);
    };
    map.addEventListener("pointerdown", (event) => { map.setPointerCapture(event.pointerId); go(event); });
    map.addEventListener("pointermove", go);
  }

  /** Show the board around a point: scrolled to, or a new window asked for. @param {number} row @param {number} col */
  goTo(row, col) {
    const b = this.board;
    const v = this.viewport;
    const cell = Math.round(this.cell) || 1;
    const rows = v.clientHeight / cell;
    const cols = v.clientWidth / cell;
    this.anchor = { row: Math.max(0, row - rows / 2), col: Math.max(0, col - cols / 2) };
    const inside = this.anchor.row >= b.top && this.anchor.row + rows <= b.top + b.height
      && this.anchor.col >= b.left && this.anchor.col + cols <= b.left + b.width;
    if (inside || !this.parts.moveWindow) {
      this.scrollTo((this.anchor.col - b.left) * cell, (this.anchor.row - b.top) * cell);
    } else {
      this.centreOn(row, col);
    }
  }
}
