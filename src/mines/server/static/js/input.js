// Mouse, touch and keys on the board, turned into reveal, flag and chord requests.

import { t } from "./i18n.js";

/**
 * @typedef {object} Actions  What the player asked for; the server decides what it does.
 * @property {(row: number, col: number) => void} primary  reveal (a number: chord)
 * @property {(row: number, col: number) => void} flag
 * @property {(row: number, col: number) => void} chord
 * @property {(dr: number, dc: number) => void} moveCursor
 * @property {(dr: number, dc: number) => void} pan
 * @property {() => void} newGame
 * @property {(row: number, col: number) => void} inspect  a cell was pressed: the cursor goes there
 * @property {(row: number, col: number) => void} [hover]  a mouse is over a cell (the chance readout)
 * @property {(press: Press | null) => void} pressing  what is held down now, for the pressed look
 * @property {() => "reveal" | "flag"} mode  what a tap does
 * @property {() => [number, number]} cursor
 * @property {(dx: number, dy: number) => void} [panBy]  a drag or swipe moved the board by CSS pixels
 * @property {() => boolean} [canPan]  whether part of the board is out of sight (a mouse drag then pans)
 * @property {(factor: number, x?: number, y?: number) => void} [zoomBy]  a pinch or key zoomed, around (x, y)
 * @property {() => void} [zoomFit]  the board back to the size that fits the screen
 */
/**
 * @typedef {object} Press  A button held over a cell: one cell looks pressed, or a chord's block.
 * @property {[number, number] | null} cell  the cell under the pointer (null: off the board)
 * @property {boolean} chord  both buttons (or the middle one): the cell and its neighbours
 */

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 10;
const LEFT = 1;
const RIGHT = 2;
const MIDDLE = 4;
const BUTTONS = LEFT | RIGHT | MIDDLE;

/** @type {Record<string, [number, number]>} */
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** @type {Record<string, number>} zoom keys and their factors (1: fit the screen again) */
const ZOOM_KEYS = { "+": 1.25, "=": 1.25, "-": 0.8, "_": 0.8, "0": 1 };

/** The cell an event is on. @param {EventTarget | null} target @returns {[number, number] | null} */
function cellOf(target) {
  const cell = target instanceof Element ? target.closest(".cell") : null;
  if (!(cell instanceof HTMLElement)) return null;
  return [Number(cell.dataset.row), Number(cell.dataset.col)];
}

/**
 * Listen to the board. Only pointer events are used, never `click` or `mouse*`, so the
 * compatibility mouse events a browser sends after a touch can never reveal a cell that a long
 * press has just flagged.
 * @param {HTMLElement} board
 * @param {Actions} actions
 */
export function listen(board, actions) {
  listenToMouse(board, actions);
  listenToTouch(board, actions);
  listenToKeys(board, actions);
}

/**
 * The mouse as in the classic game. Every action happens on a release, over the cell under
 * the pointer then: left reveals (on a number: chords), right flags, and a press that had both
 * buttons down at once (or the middle one) chords on its first release and does nothing else,
 * whatever the order of presses and releases. So a both-button press never reveals or flags a
 * cell, and a chord meant for a number never lands on the hidden cell next to it.
 *
 * A browser sends one pointerdown for the first button and one pointerup for the last; a
 * second button going down or up while another is held comes as a pointermove whose `buttons`
 * changed. So every event's `buttons` is compared with the last one seen.
 * @param {HTMLElement} board
 * @param {Actions} actions
 */
function listenToMouse(board, actions) {
  let held = 0;
  /** @type {"left" | "right" | "chord" | "drag" | "done" | null} what the press in progress does */
  let press = null;
  /** Where the pointer was last in a left press, to tell a drag from a click. */
  let at = { x: 0, y: 0, moved: 0 };

  /** @param {PointerEvent} event */
  const mouse = (event) => {
    if (event.pointerType !== "mouse") return;
    const before = held;
    held = event.buttons & BUTTONS;
    const down = held & ~before;
    const up = before & ~held;
    const cell = cellOf(event.target);
    if (press === null) {
      // A press starts only with a button going down on the board: moves without one cost nothing.
      if (event.type !== "pointerdown" || !down || !cell) return;
      press = held & MIDDLE || (held & (LEFT | RIGHT)) === (LEFT | RIGHT) ? "chord" : held & LEFT ? "left" : "right";
      at = { x: event.clientX, y: event.clientY, moved: 0 };
      board.focus({ preventScroll: true });
      actions.inspect(...cell);
    } else if (down && press !== "chord" && press !== "drag") {
      press = "chord";  // the other button joined: this press can now only chord
    }
    if ((press === "left" || press === "drag") && actions.panBy && actions.canPan?.() && !up) {
      // On a board bigger than its frame a left press that moves drags the board along and
      // reveals nothing when it ends; on a board seen whole the pressed look follows the
      // pointer, as in the classic game.
      const dx = event.clientX - at.x;
      const dy = event.clientY - at.y;
      at = { x: event.clientX, y: event.clientY, moved: at.moved + Math.hypot(dx, dy) };
      if (press === "left" && at.moved > MOVE_TOLERANCE_PX) {
        press = "drag";
        board.classList.add("dragging");
      }
      if (press === "drag") actions.panBy(-dx, -dy);
    }
    if (press === "drag" && up) {
      press = "done";
      board.classList.remove("dragging");
    }
    if (up && press !== "done") {
      const released = press;
      press = "done";
      if (cell) {
        if (released === "chord") actions.chord(...cell);
        else if (released === "left" && up & LEFT) actions.primary(...cell);
        else if (released === "right" && up & RIGHT) actions.flag(...cell);
      }
    }
    if (!held) press = null;
    actions.pressing(press === "left" || press === "chord" ? { cell, chord: press === "chord" } : null);
  };
  board.addEventListener("pointerdown", mouse);
  // Moves and releases anywhere: a press that leaves the board still ends when the buttons do.
  window.addEventListener("pointermove", mouse);
  window.addEventListener("pointerup", mouse);
  window.addEventListener("blur", () => {
    held = 0;
    press = null;
    actions.pressing(null);
  });
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  // The middle button's click would start the browser's autoscroll instead.
  board.addEventListener("pointerdown", (event) => { if (event.button === 1) event.preventDefault(); });
  board.addEventListener("pointerover", (event) => {
    const cell = cellOf(event.target);
    if (cell && event.pointerType === "mouse" && actions.hover) actions.hover(...cell);
  });
}

/**
 * Touch or pen: a tap acts on release, a long press does the other action instead.
 * @param {HTMLElement} board
 * @param {Actions} actions
 */
function listenToTouch(board, actions) {
  /** @type {{id: number, cell: [number, number], x: number, y: number, timer: number, long: boolean} | null} */
  let touch = null;
  /** @type {Map<number, {x: number, y: number}>} every finger on the board, for swipes and pinches */
  const fingers = new Map();
  /** Whether the fingers on the board are moving it (a swipe or a pinch): no tap comes of them. */
  let gesture = false;

  const cancelTouch = () => {
    if (touch) clearTimeout(touch.timer);
    touch = null;
    actions.pressing(null);
  };

  board.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (fingers.size > 1) {  // a second finger: a pinch, never a tap
      gesture = true;
      cancelTouch();
      return;
    }
    gesture = false;
    const cell = cellOf(event.target);
    if (!cell) return;
    actions.inspect(...cell);
    if (touch) clearTimeout(touch.timer);
    const start = { id: event.pointerId, cell, x: event.clientX, y: event.clientY, timer: 0, long: false };
    start.timer = window.setTimeout(() => {
      start.long = true;
      actions.pressing(null);
      if (navigator.vibrate) navigator.vibrate(15);
      if (actions.mode() === "flag") actions.primary(...cell);
      else actions.flag(...cell);
    }, LONG_PRESS_MS);
    touch = start;
    actions.pressing({ cell, chord: false });
  });

  board.addEventListener("pointermove", (event) => {
    const finger = fingers.get(event.pointerId);
    if (!finger) return;
    if (touch && event.pointerId === touch.id && !gesture
      && Math.hypot(event.clientX - touch.x, event.clientY - touch.y) > MOVE_TOLERANCE_PX) {
      gesture = !touch.long;  // a moving finger swipes the board (after a long press: nothing)
      cancelTouch();
    }
    if (!gesture) return;
    const [a, b] = [...fingers.values()];
    const before = b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) } : null;
    const dx = event.clientX - finger.x;
    const dy = event.clientY - finger.y;
    finger.x = event.clientX;
    finger.y = event.clientY;
    if (before && b) {
      // Two fingers: the board grows with their distance and follows their middle.
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      if (actions.zoomBy && before.d > 0) actions.zoomBy(d / before.d, middle.x, middle.y);
      actions.panBy?.(before.x - middle.x, before.y - middle.y);
    } else {
      actions.panBy?.(-dx, -dy);
    }
  });

  /** @param {PointerEvent} event */
  const lift = (event) => {
    fingers.delete(event.pointerId);
    if (!fingers.size) setTimeout(() => { if (!fingers.size) gesture = false; });
  };
  board.addEventListener("pointercancel", (event) => { lift(event); cancelTouch(); });

  board.addEventListener("pointerup", (event) => {
    if (event.pointerType === "mouse") return;
    lift(event);
    if (!touch || event.pointerId !== touch.id) return;
    const { cell, long, timer } = touch;
    clearTimeout(timer);
    touch = null;
    actions.pressing(null);
    if (long || gesture) return;  // the long press already acted: its release does nothing
    if (actions.mode() === "flag") actions.flag(...cell);
    else actions.primary(...cell);
  });
}

/**
 * Keys on the board (the grid pattern: arrows move, the rest act on the cursor's cell).
 * @param {HTMLElement} board
 * @param {Actions} actions
 */
function listenToKeys(board, actions) {
  board.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (ZOOM_KEYS[event.key] && actions.zoomBy) {
      const factor = ZOOM_KEYS[event.key];
      if (factor === 1) actions.zoomFit?.();
      else actions.zoomBy(factor);
      event.preventDefault();
      return;
    }
    const arrow = ARROWS[event.key];
    const [row, col] = actions.cursor();
    if (arrow) {
      if (event.shiftKey) actions.pan(...arrow);
      else actions.moveCursor(...arrow);
    } else if (event.key === " " || event.key === "Enter") {
      actions.primary(row, col);
    } else if (event.key === "f" || event.key === "F") {
      actions.flag(row, col);
    } else if (event.key === "c" || event.key === "C") {
      actions.chord(row, col);
    } else if (event.key === "n" || event.key === "N") {
      actions.newGame();
    } else if (event.key === "Home") {
      actions.moveCursor(0, -1e9);
    } else if (event.key === "End") {
      actions.moveCursor(0, 1e9);
    } else {
      return;
    }
    event.preventDefault();
  });
}

/**
 * Show what a tap does now on the page's reveal/flag switch.
 * @param {HTMLElement} button
 * @param {"reveal" | "flag"} mode
 */
export function showMode(button, mode) {
  button.dataset.mode = mode;
  button.setAttribute("aria-pressed", String(mode === "flag"));
  button.textContent = mode === "flag" ? t("Tap flags") : t("Tap reveals");
}
