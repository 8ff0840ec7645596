// Mouse, touch and keys on the board, turned into reveal, flag and chord requests.

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
 * @property {(pressed: boolean) => void} pressing  the face's "oh" while a button is down
 * @property {() => "reveal" | "flag"} mode  what a tap does
 * @property {() => [number, number]} cursor
 */

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 10;

/** @type {Record<string, [number, number]>} */
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

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
  /** @type {{id: number, cell: [number, number], x: number, y: number, timer: number, long: boolean} | null} */
  let touch = null;
  /** @type {[number, number] | null} */
  let pressed = null;
  let chording = false;

  board.addEventListener("contextmenu", (event) => event.preventDefault());

  board.addEventListener("pointerdown", (event) => {
    const cell = cellOf(event.target);
    if (!cell) return;
    actions.inspect(...cell);
    if (event.pointerType === "mouse") {
      board.focus({ preventScroll: true });
      if ((event.buttons & 3) === 3) {
        chording = true;
        pressed = null;
        actions.chord(...cell);
      } else if (event.button === 2) {
        actions.flag(...cell);
      } else if (event.button === 0) {
        pressed = cell;
        actions.pressing(true);
      }
      return;
    }
    // Touch or pen: a tap acts on release, a long press does the other action instead.
    if (touch) clearTimeout(touch.timer);
    const start = { id: event.pointerId, cell, x: event.clientX, y: event.clientY, timer: 0, long: false };
    start.timer = window.setTimeout(() => {
      start.long = true;
      if (navigator.vibrate) navigator.vibrate(15);
      if (actions.mode() === "flag") actions.primary(...cell);
      else actions.flag(...cell);
    }, LONG_PRESS_MS);
    touch = start;
    actions.pressing(true);
  });

  board.addEventListener("pointerover", (event) => {
    const cell = cellOf(event.target);
    if (cell && event.pointerType === "mouse" && actions.hover) actions.hover(...cell);
  });

  board.addEventListener("pointermove", (event) => {
    if (!touch || event.pointerId !== touch.id) return;
    if (Math.hypot(event.clientX - touch.x, event.clientY - touch.y) > MOVE_TOLERANCE_PX) cancelTouch();
  });

  const cancelTouch = () => {
    if (touch) clearTimeout(touch.timer);
    touch = null;
    actions.pressing(false);
  };
  board.addEventListener("pointercancel", cancelTouch);

  board.addEventListener("pointerup", (event) => {
    if (event.pointerType === "mouse") {
      actions.pressing(false);
      if (chording) {
        // A two-button chord ends when both buttons are up; neither release reveals.
        if (event.buttons === 0) chording = false;
        return;
      }
      const cell = cellOf(event.target);
      if (event.button === 0 && pressed && cell) actions.primary(...cell);
      pressed = null;
      return;
    }
    if (!touch || event.pointerId !== touch.id) return;
    const { cell, long, timer } = touch;
    clearTimeout(timer);
    touch = null;
    actions.pressing(false);
    if (long) return;  // the long press already acted: its release does nothing
    if (actions.mode() === "flag") actions.flag(...cell);
    else actions.primary(...cell);
  });

  board.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
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
  button.textContent = mode === "flag" ? "Tap flags" : "Tap reveals";
}
