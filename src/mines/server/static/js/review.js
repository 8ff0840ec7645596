// The review page: a finished game move by move, the board and its mine chances before each move,
// and the solver's verdict on it. No rules here: the server's review carries every board change.

import { ApiError, gameToken, request } from "./api.js";
import { Board } from "./board.js";
import { Frame } from "./frame.js";
import { $, fillTerms } from "./dom.js";
import { setLed } from "./leds.js";
import { sayError } from "./words.js";
import { formatNumber, sentence, t, tn } from "./i18n.js";

/** @typedef {import("./types.js").GameReview} GameReview */
/** @typedef {import("./types.js").ReviewMove} ReviewMove */
/** @typedef {import("./types.js").Changed} Changed */
/** @typedef {import("./types.js").Verdict} Verdict */
/** @typedef {import("./types.js").View} View */

/** The marks of lichess's analysis board, for the moves worth a second look. */
/** @type {Partial<Record<Verdict, string>>} */
export const MARKS = { "wrong-flag": "?!", risky: "?", avoidable: "??", lost: "✗" };

/** @type {Record<string, string>} */
const KINDS = { open: t("reveal {cell}"), flag: t("flag {cell}"), chord: t("chord {cell}") };

/** The most rows and columns drawn at once: a bigger board is shown around the chosen move. */
const WINDOW = 100;

/** 17%, 9.1%, 0.5%, <0.1%: as the solver words a chance. @param {number} share */
export function percent(share) {
  if (share > 0 && share < 0.001) return `<${formatNumber(0.001, { style: "percent", maximumFractionDigits: 1 })}`;
  if (share > 0.999 && share < 1) return `>${formatNumber(0.999, { style: "percent", maximumFractionDigits: 1 })}`;
  return formatNumber(share, { style: "percent", maximumFractionDigits: 1 });
}

/** The game's ID, from the page's address `/review/<id>`. */
function gameId() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
}

/** The position the address asks for (`#move=n`: after n moves), or null. */
function askedPosition() {
  const found = /^#move=(\d+)$/.exec(location.hash);
  return found ? Number(found[1]) : null;
}

/** A move as people say it, cells counted from 1. @param {ReviewMove} move */
function moveWords(move) {
  return KINDS[move.kind].replace("{cell}", t("row {row}, column {col}", { row: move.row + 1, col: move.col + 1 }));
}

class ReviewPage {
  /** @param {GameReview} data */
  constructor(data) {
    this.data = data;
    this.board = new Board($("board"));
    this.frame = new Frame(this.board, {
      viewport: $("viewport"), reserve: 120, zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), zoomFit: $("zoom-fit"),
    });
    /** @type {string[]} the whole board's symbols after `this.at` moves */
    this.cells = data.start.join("").split("");
    this.at = 0;
    /** @type {Changed[][]} what each move's changes overwrote, so stepping back needs no rule */
    this.before = [];
    const work = this.cells.slice();
    for (const move of data.moves) {
      this.before.push(move.changed.map(([r, c]) => /** @type {Changed} */ ([r, c, work[r * data.cols + c]])));
      for (const [r, c, s] of move.changed) work[r * data.cols + c] = s;
    }
    /** @type {Map<number, [number, string | null]>} each unrevealed cell's chance at the position shown */
    this.chances = new Map();
    /** @type {HTMLElement | null} */
    this.moved = null;
    /** @type {HTMLButtonElement[]} */
    this.items = [];
  }

  get length() {
    return this.data.moves.length;
  }

  show() {
    this.showSummary();
    this.showMoves();
    $("analysis").hidden = false;
    $("first").addEventListener("click", () => this.go(0));
    $("back").addEventListener("click", () => this.go(this.at - 1));
    $("forward").addEventListener("click", () => this.go(this.at + 1));
    $("last").addEventListener("click", () => this.go(this.length));
    document.addEventListener("keydown", (event) => this.onKey(event));
    $("board").addEventListener("keydown", (event) => this.onBoardKey(event));
    $("board").addEventListener("click", (event) => {
      const cell = /** @type {HTMLElement} */ (event.target).closest(".cell");
      if (cell instanceof HTMLElement) this.pointAt(Number(cell.dataset.row), Number(cell.dataset.col));
    });
    window.addEventListener("hashchange", () => {
      const asked = askedPosition();
      if (asked !== null && asked !== this.at) this.seek(asked);
    });
    this.seek(askedPosition() ?? 0);
  }

  showSummary() {
    // The words are the server's (`Review.figures` and `summary`), as in the terminal.
    fillTerms($("figures"), this.data.figures);
    $("summary-text").textContent = this.data.summary;
    $("summary").hidden = false;
  }

  showMoves() {
    const list = $("moves");
    const items = this.data.moves.map((move, index) => {
      const mark = MARKS[move.verdict];
      const risk = move.risk > 0 && move.kind !== "flag" ? ` ${percent(move.risk)}` : "";
      return this.item(index, `${index + 1}. ${moveWords(move)}${risk}`, mark, move.label, move.verdict);
    });
    items.push(this.item(this.length, this.data.status === "WON" ? t("End: won") : t("End: lost"), undefined, "", "end"));
    list.replaceChildren(...items.map((button) => {
      const li = document.createElement("li");
      li.append(button);
      return li;
    }));
    this.items = items;
  }

  /**
   * @param {number} position @param {string} text @param {string | undefined} mark
   * @param {string} verdict  in words @param {string} kind  the verdict's name, for the styles
   */
  item(position, text, mark, verdict, kind) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.dataset.verdict = kind;
    button.dataset.position = String(position);
    button.append(text);
    if (mark) {
      const shown = document.createElement("span");
      shown.className = "mark";
      shown.setAttribute("aria-hidden", "true");
      shown.textContent = mark;
      button.append(" ", shown);
    }
    if (verdict) {
      const said = document.createElement("span");
      said.className = "visually-hidden";
      said.textContent = `, ${verdict}`;
      button.append(said);
    }
    button.addEventListener("click", () => this.go(position));
    return button;
  }

  /** Go to a position and put it in the address. @param {number} position */
  go(position) {
    this.seek(position);
    history.replaceState(null, "", `#move=${this.at}`);
  }

  /** Show the board after `position` moves (0: before the first), with the move made from it. @param {number} position */
  seek(position) {
    const to = Math.max(0, Math.min(this.length, Math.round(position)));
    while (this.at < to) this.write(this.data.moves[this.at++].changed);
    while (this.at > to) this.write(this.before[--this.at]);
    this.draw();
  }

  /** @param {Changed[]} changed */
  write(changed) {
    for (const [r, c, s] of changed) this.cells[r * this.data.cols + c] = s;
  }

  draw() {
    const { data, at } = this;
    const move = at < this.length ? data.moves[at] : null;
    const box = this.box(move);
    /** @type {string[]} */
    const lines = [];
    for (let r = box.top; r < box.top + box.height; r++) {
      lines.push(this.cells.slice(r * data.cols + box.left, r * data.cols + box.left + box.width).join(""));
    }
    const minesLeft = move ? move.mines_left : data.final_mines_left;
    const elapsed = move ? (at > 0 ? data.moves[at - 1].time : 0) : data.elapsed;
    this.board.render(/** @type {View} */ ({
      rows: data.rows, cols: data.cols, ...box, status: move ? "IN_PROGRESS" : data.status,
      mines_left: minesLeft, elapsed, version: at, cells: lines,
    }));
    this.overlay(move, box);
    if (this.moved) this.moved.classList.remove("moved");
    this.moved = move ? this.board.cells[this.board.index(move.row, move.col)] || null : null;
    if (this.moved) this.moved.classList.add("moved");
    setLed($("mines-left"), minesLeft, t("Mines left: {n}", { n: minesLeft }));
    const seconds = Math.floor(elapsed);
    setLed($("timer"), seconds, tn("Time: {n} second", "Time: {n} seconds", seconds));
    $("board").setAttribute("aria-label", move ? t("The board before move {n}", { n: at + 1 }) : t("The board at the end"));
    $("comment").textContent = move
      ? `${t("Move {n} of {total}, {move}", { n: at + 1, total: this.length, move: moveWords(move) })}${MARKS[move.verdict] ? ` (${MARKS[move.verdict]})` : ""}: ${move.comment}`
      : `${data.status === "WON" ? tn("The end: won after {n} move.", "The end: won after {n} moves.", this.length) : tn("The end: lost after {n} move.", "The end: lost after {n} moves.", this.length)} ${data.summary}`;
    for (const button of this.items) {
      if (Number(button.dataset.position) === at) {
        button.setAttribute("aria-current", "step");
        button.scrollIntoView({ block: "nearest" });
      } else {
        button.removeAttribute("aria-current");
      }
    }
    /** @type {HTMLButtonElement} */ ($("first")).disabled = at === 0;
    /** @type {HTMLButtonElement} */ ($("back")).disabled = at === 0;
    /** @type {HTMLButtonElement} */ ($("forward")).disabled = at === this.length;
    /** @type {HTMLButtonElement} */ ($("last")).disabled = at === this.length;
    $("cell-info").textContent = "";
  }

  /** The window drawn: the whole board, or on a big one the part around the move. @param {ReviewMove | null} move */
  box(move) {
    const { rows, cols } = this.data;
    const height = Math.min(rows, WINDOW);
    const width = Math.min(cols, WINDOW);
    const [row, col] = move ? [move.row, move.col] : [0, 0];
    const top = Math.max(0, Math.min(rows - height, row - Math.floor(height / 2)));
    const left = Math.max(0, Math.min(cols - width, col - Math.floor(width / 2)));
    return { top, left, height, width };
  }

  /**
   * Shade each unrevealed cell by its chance of a mine before the move: the cells proved so far
   * are certain, the listed ones have their own chance, every other one shares `others`.
   * @param {ReviewMove | null} move @param {{top: number, left: number, height: number, width: number}} box
   */
  overlay(move, box) {
    this.chances = new Map();
    if (!move) {
      this.board.setChances(null);
      return;
    }
    const { cols } = this.data;
    /** @type {Map<number, string>} */
    const known = new Map();
    for (let i = 0; i <= this.at; i++) for (const [r, c, kind] of this.data.moves[i].proved) known.set(r * cols + c, kind);
    const listed = new Map(move.chances.cells.map(([r, c, chance]) => [r * cols + c, chance]));
    /** @type {[number, number, number, string | null][]} */
    const shown = [];
    for (let r = box.top; r < box.top + box.height; r++) {
      for (let c = box.left; c < box.left + box.width; c++) {
        const i = r * cols + c;
        const symbol = this.cells[i];
        if (symbol !== "H" && symbol !== "F") continue;
        const certain = known.get(i);
        const chance = certain ? (certain === "mine" ? 1 : 0) : listed.get(i) ?? move.chances.others;
        if (chance === null || chance === undefined) continue;
        this.chances.set(i, [chance, certain || null]);
        shown.push([r, c, chance, certain || null]);
      }
    }
    this.board.setChances(shown);
  }

  /** Say a cell's chance of a mine at the position shown. @param {number} row @param {number} col */
  pointAt(row, col) {
    this.board.setCursor(row, col);
    const found = this.chances.get(row * this.data.cols + col);
    const where = t("row {row}, column {col}", { row: row + 1, col: col + 1 });
    let said = t("{cell}: open.", { cell: where });
    if (found) {
      const [chance, certain] = found;
      said = certain === "safe" ? t("{cell}: certainly safe.", { cell: where }) : certain === "mine" ? t("{cell}: certainly a mine.", { cell: where })
        : t("{cell}: a {chance} chance of a mine.", { cell: where, chance: percent(chance) });
    } else if ("HF".includes(this.cells[row * this.data.cols + col])) {
      said = t("{cell}: unrevealed.", { cell: where });
    }
    $("cell-info").textContent = sentence(said);
  }

  /** Arrows on the board move its cursor. @param {KeyboardEvent} event */
  onBoardKey(event) {
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const step = steps[/** @type {keyof typeof steps} */ (event.key)];
    if (!step) return;
    event.preventDefault();
    event.stopPropagation();
    const board = this.board;
    const row = Math.max(board.top, Math.min(board.top + board.height - 1, board.cursor[0] + step[0]));
    const col = Math.max(board.left, Math.min(board.left + board.width - 1, board.cursor[1] + step[1]));
    this.pointAt(row, col);
  }

  /** ← → Home End step through the moves, wherever the focus is but in the board. @param {KeyboardEvent} event */
  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest("input, select, textarea")) return;
    /** @type {Record<string, number>} the zoom keys, as on the game page (1: fit again) */
    const zoom = { "+": 1.25, "=": 1.25, "-": 0.8, "_": 0.8, "0": 1 };
    if (event.key in zoom) {
      event.preventDefault();
      if (zoom[event.key] === 1) this.frame.fitAgain();
      else this.frame.zoomBy(zoom[event.key]);
      return;
    }
    /** @type {Record<string, number>} */
    const to = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.length };
    if (!(event.key in to)) return;
    event.preventDefault();
    this.go(to[event.key]);
  }
}

/** @param {unknown} error */
function words(error) {
  if (!(error instanceof ApiError)) return t("Something went wrong in this page. Please reload it.");
  if (error.code === "game_in_progress") return t("This game is not over yet: its review opens once it ends.");
  return sayError(error);
}

async function main() {
  const id = gameId();
  /** @type {HTMLAnchorElement} */ ($("replay-link")).href = `/#replay=${encodeURIComponent(id)}`;
  const retry = $("retry");
  const load = async () => {
    $("error").textContent = "";
    retry.hidden = true;
    try {
      const data = /** @type {GameReview} */ (await request("GET", `/api/games/${encodeURIComponent(id)}/review`, undefined, gameToken(id)));
      new ReviewPage(data).show();
    } catch (error) {
      $("error").textContent = words(error);
      retry.hidden = !(error instanceof ApiError && (error.status === 503 || error.status === 0));
      if (!(error instanceof ApiError)) console.error(error);
    }
  };
  retry.addEventListener("click", load);
  await load();
  document.body.classList.add("ready");
}

main();
