// The board on screen: an ARIA grid of the server's symbols; it repaints only the cells that change.

import { t, tn } from "./i18n.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Changed} Changed */
/** @typedef {import("./types.js").Status} Status */

/** What a symbol says to a screen reader. @param {string} look */
function words(look) {
  if (look === "H") return t("hidden");
  if (look === "?") return t("hidden, marked with a question mark");
  if (look === "F") return t("flagged");
  if (look === "0") return t("empty");
  if (look >= "1" && look <= "8") return tn("{n} mine next to it", "{n} mines next to it", Number(look));
  if (look === "M") return t("mine");
  if (look === "X") return t("exploded mine");
  if (look === "W") return t("wrong flag: no mine here");
  return look;
}

export class Board {
  /** @param {HTMLElement} element  the element with role=grid */
  constructor(element) {
    this.element = element;
    this.rows = 0;
    this.cols = 0;
    this.top = 0;
    this.left = 0;
    this.height = 0;
    this.width = 0;
    /** @type {Status} */
    this.status = "IN_PROGRESS";
    /** @type {string[]} the symbol of each cell of the window, row by row */
    this.symbols = [];
    /** @type {HTMLElement[]} */
    this.cells = [];
    /** @type {[number, number]} */
    this.cursor = [0, 0];
    /** @type {HTMLElement | null} */
    this.hinted = null;
    /** @type {HTMLElement[]} cells that carry a chance */
    this.chanced = [];
    /** @type {Set<string>} "row,col" of the hidden cells the player marked with a question mark */
    this.marked = new Set();
    /** @type {HTMLElement[]} cells drawn pressed while a button is held */
    this.pressed = [];
    /** @type {((rebuilt: boolean) => void) | null} told after each drawing (the frame sizes and moves) */
    this.drawn = null;
  }

  /** Show a whole view: rebuild when the window moved, else repaint what differs. @param {View} view */
  render(view) {
    const height = view.cells.length;
    const width = height ? view.cells[0].length : 0;
    const same = view.rows === this.rows && view.cols === this.cols && view.top === this.top
      && view.left === this.left && height === this.height && width === this.width;
    this.status = view.status;
    if (!same) {
      const moved = view.rows === this.rows && view.cols === this.cols && height === this.height
        && width === this.width && Math.abs(view.top - this.top) < height && Math.abs(view.left - this.left) < width;
      if (moved) this.shift(view);
      else this.build(view, height, width);
      this.drawn?.(true);
      return;
    }
    for (let r = 0; r < height; r++) {
      const line = view.cells[r];
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        if (line[c] !== this.symbols[i]) this.paint(i, line[c]);
      }
    }
    this.drawn?.(false);
  }

  /** Repaint the cells a move changed. @param {Changed[]} changed @param {Status} status */
  apply(changed, status) {
    this.status = status;
    for (const [row, col, symbol] of changed) {
      const i = this.index(row, col);
      if (i >= 0) this.paint(i, symbol);
    }
    this.drawn?.(false);
  }

  /** @param {View} view @param {number} height @param {number} width */
  build(view, height, width) {
    Object.assign(this, { rows: view.rows, cols: view.cols, top: view.top, left: view.left, height, width });
    this.element.setAttribute("aria-rowcount", String(view.rows));
    this.element.setAttribute("aria-colcount", String(view.cols));
    this.element.style.setProperty("--cols", String(width));
    this.symbols = new Array(height * width).fill("");
    this.cells = new Array(height * width);
    this.hinted = null;
    this.chanced = [];
    this.pressed = [];
    const rows = [];
    for (let r = 0; r < height; r++) {
      const rowElement = document.createElement("div");
      rowElement.className = "row";
      rowElement.setAttribute("role", "row");
      rowElement.setAttribute("aria-rowindex", String(view.top + r + 1));
      for (let c = 0; c < width; c++) {
        const cell = document.createElement("div");
        const row = view.top + r;
        const col = view.left + c;
        cell.className = "cell";
        cell.id = `cell-${row}-${col}`;
        cell.dataset.row = String(row);
        cell.dataset.col = String(col);
        cell.setAttribute("role", "gridcell");
        cell.setAttribute("aria-colindex", String(col + 1));
        this.cells[r * width + c] = cell;
        this.paint(r * width + c, view.cells[r][c]);
        rowElement.append(cell);
      }
      rows.push(rowElement);
    }
    this.element.replaceChildren(...rows);
    this.setCursor(
      Math.min(Math.max(this.cursor[0], view.top), view.top + height - 1),
      Math.min(Math.max(this.cursor[1], view.left), view.left + width - 1),
    );
  }

  /**
   * The window moved across the same board, by less than its size: the cells still in it keep
   * their elements (and are repainted only where they changed); the rows and columns that left
   * it are moved to the side that came in and become its cells. A pan across a big board so
   * touches only the cells it brings in, and creates none.
   * @param {View} view
   */
  shift(view) {
    const { height, width } = this;
    const dr = view.top - this.top;
    const dc = view.left - this.left;
    this.setChances(null);
    this.setHint(null);
    this.setPressed(null, false);
    this.cells[this.index(...this.cursor)]?.classList.remove("cursor");
    const rows = /** @type {HTMLElement[]} */ ([...this.element.children]);
    const turn = (/** @type {number} */ i, /** @type {number} */ by, /** @type {number} */ n) => ((i + by) % n + n) % n;
    // The DOM as the arrays below: rows (and each row's cells) turned by dr (dc) places.
    if (dr > 0) this.element.append(...rows.slice(0, dr));
    else if (dr < 0) this.element.prepend(...rows.slice(height + dr));
    if (dc) {
      for (let r = 0; r < height; r++) {
        const line = this.cells.slice(r * width, (r + 1) * width);
        if (dc > 0) rows[r].append(...line.slice(0, dc));
        else rows[r].prepend(...line.slice(width + dc));
      }
    }
    const cells = new Array(height * width);
    const symbols = new Array(height * width);
    for (let r = 0; r < height; r++) {
      const from = turn(r, dr, height);
      for (let c = 0; c < width; c++) {
        const old = from * width + turn(c, dc, width);
        cells[r * width + c] = this.cells[old];
        symbols[r * width + c] = this.symbols[old];
      }
    }
    Object.assign(this, { top: view.top, left: view.left, cells, symbols });
    for (let r = 0; r < height; r++) {
      const row = view.top + r;
      const keptRow = r + dr >= 0 && r + dr < height;
      if (!keptRow) rows[turn(r, dr, height)].setAttribute("aria-rowindex", String(row + 1));
      const line = view.cells[r];
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        if (!keptRow || c + dc < 0 || c + dc >= width) {
          const col = view.left + c;
          const cell = cells[i];
          // Another cell now: nothing of what a page drew on the old one stays (marks, owners).
          cell.className = "cell";
          for (const name of cell.getAttributeNames()) if (name.startsWith("data-")) cell.removeAttribute(name);
          cell.style.cssText = "";
          cell.id = `cell-${row}-${col}`;
          cell.dataset.row = String(row);
          cell.dataset.col = String(col);
          cell.setAttribute("aria-colindex", String(col + 1));
          this.paint(i, line[c]);
        } else if (line[c] !== symbols[i]) {
          this.paint(i, line[c]);
        }
      }
    }
    this.setCursor(
      Math.min(Math.max(this.cursor[0], view.top), view.top + height - 1),
      Math.min(Math.max(this.cursor[1], view.left), view.left + width - 1),
    );
  }

  /** @param {number} i @param {string} symbol */
  paint(i, symbol) {
    const cell = this.cells[i];
    this.symbols[i] = symbol;
    const r = Math.floor(i / this.width) + this.top;
    const c = (i % this.width) + this.left;
    let look = symbol;  // the styles draw a cell by its look: its symbol, or a question mark
    if (this.marked.size && this.marked.has(`${r},${c}`)) {
      if (symbol === "H") look = "?";
      else this.marked.delete(`${r},${c}`);  // opened (or flagged): the note has done its work
    }
    cell.dataset.symbol = symbol;
    cell.dataset.look = look;
    const open = symbol >= "0" && symbol <= "8";
    cell.classList.toggle("open", open || symbol === "X");
    cell.textContent = open && symbol !== "0" ? symbol : look === "?" ? "?" : "";
    cell.setAttribute("aria-label", `${t("row {row}, column {col}", { row: r + 1, col: c + 1 })}, ${words(look)}`);
    if (this.hinted === cell && symbol !== "H") this.setHint(null);
  }

  /** Mark a hidden cell with a question mark, or take the mark off. @param {number} row @param {number} col @param {boolean} on */
  setMark(row, col, on) {
    if (on) this.marked.add(`${row},${col}`);
    else this.marked.delete(`${row},${col}`);
    const i = this.index(row, col);
    if (i >= 0) this.paint(i, this.symbols[i]);
  }

  /** @param {number} row @param {number} col */
  isMarked(row, col) {
    return this.marked.has(`${row},${col}`);
  }

  /** Replace every question mark. @param {[number, number][]} cells */
  setMarks(cells) {
    const old = [...this.marked].map((key) => key.split(",").map(Number));
    this.marked = new Set(cells.map(([r, c]) => `${r},${c}`));
    for (const [r, c] of [...old, ...cells]) {
      const i = this.index(r, c);
      if (i >= 0) this.paint(i, this.symbols[i]);
    }
  }

  /** @returns {[number, number][]} */
  marks() {
    return [...this.marked].map((key) => /** @type {[number, number]} */ (key.split(",").map(Number)));
  }

  /**
   * Draw pressed what a held button would act on: the cell under it, or for a chord the cell
   * and its neighbours; only cells still hidden (not flagged) look pressed, as in the classic game.
   * @param {[number, number] | null} cell  null: nothing is pressed
   * @param {boolean} chord
   */
  setPressed(cell, chord) {
    /** @type {HTMLElement[]} */
    const now = [];
    if (cell) {
      const [row, col] = cell;
      const reach = chord ? 1 : 0;
      for (let r = row - reach; r <= row + reach; r++) {
        for (let c = col - reach; c <= col + reach; c++) {
          const i = this.index(r, c);
          if (i >= 0 && this.symbols[i] === "H" && this.status === "IN_PROGRESS") now.push(this.cells[i]);
        }
      }
    }
    for (const element of this.pressed) if (!now.includes(element)) element.classList.remove("pressed");
    for (const element of now) element.classList.add("pressed");
    this.pressed = now;
  }

  /** The index of a board cell in the window, or -1 outside it. @param {number} row @param {number} col */
  index(row, col) {
    const r = row - this.top;
    const c = col - this.left;
    if (r < 0 || r >= this.height || c < 0 || c >= this.width) return -1;
    return r * this.width + c;
  }

  /** @param {number} row @param {number} col */
  symbolAt(row, col) {
    const i = this.index(row, col);
    return i < 0 ? "" : this.symbols[i];
  }

  /** Move the cursor, exposed as the grid's active descendant. @param {number} row @param {number} col */
  setCursor(row, col) {
    const old = this.cells[this.index(...this.cursor)];
    if (old) old.classList.remove("cursor");
    this.cursor = [row, col];
    const cell = this.cells[this.index(row, col)];
    if (!cell) return;
    cell.classList.add("cursor");
    this.element.setAttribute("aria-activedescendant", cell.id);
    if (document.activeElement === this.element) cell.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** @param {number} pixels */
  setCellSize(pixels) {
    this.element.style.setProperty("--cell", `${pixels}px`);
  }

  /** Mark the hinted cell, or none. @param {[number, number] | null} cell */
  setHint(cell) {
    if (this.hinted) this.hinted.classList.remove("hint");
    this.hinted = null;
    if (!cell) return;
    const element = this.cells[this.index(...cell)];
    if (element) {
      element.classList.add("hint");
      this.hinted = element;
    }
  }

  /**
   * Overlay each hidden cell's chance of a mine, or clear the overlay.
   * @param {[number, number, number, string | null][] | null} chances
   */
  setChances(chances) {
    for (const cell of this.chanced) {
      delete cell.dataset.chance;
      delete cell.dataset.certain;
      cell.style.removeProperty("--chance");
    }
    this.chanced = [];
    for (const [row, col, chance, certain] of chances || []) {
      const cell = this.cells[this.index(row, col)];
      if (!cell) continue;
      cell.dataset.chance = `${(chance * 100).toFixed(chance > 0 && chance < 0.01 ? 1 : 0)}%`;
      if (certain) cell.dataset.certain = certain;
      cell.style.setProperty("--chance", String(0.08 + chance * 0.6));
      this.chanced.push(cell);
    }
  }
}
