// The browser client: renders the views the server sends and posts moves; it never sees a mine
// before the game is over. No build step: plain DOM, fetch and WebSocket.
"use strict";

const WINDOW = { rows: 30, cols: 50 }; // the most cells shown at once; bigger boards pan
const PRESETS = { beginner: [9, 9], intermediate: [16, 16], expert: [16, 30] };
const LONG_PRESS_MS = 450;
const $ = (id) => document.getElementById(id);
const board = $("board");

let game = null; // {id, token, rows, cols, top, left, height, width, status, cells}
let cursor = [0, 0];
let timer = { base: 0, since: 0, running: false };
let socket = null;
let replaying = null;

// --- server -------------------------------------------------------------------------------

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ detail: response.statusText }));
  if (!response.ok) throw new Error(data.detail || `HTTP ${response.status}`);
  return data;
}

function windowQuery() {
  if (!game) return "";
  const top = Math.max(0, Math.min(game.top, game.rows - WINDOW.rows));
  const left = Math.max(0, Math.min(game.left, game.cols - WINDOW.cols));
  const height = Math.min(game.rows, WINDOW.rows);
  const width = Math.min(game.cols, WINDOW.cols);
  return `?top=${top}&left=${left}&height=${height}&width=${width}`;
}

function showError(error) {
  $("error").textContent = error ? error.message : "";
}

let newGameRequests = 0;

async function newGame(event) {
  event.preventDefault();
  stopReplay();
  const request = ++newGameRequests;
  const body = {};
  const choice = $("preset").value;
  if (choice === "custom") {
    for (const key of ["rows", "cols", "mines"]) body[key] = Number($(key).value);
  } else {
    body.preset = choice;
  }
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("no-guess").checked) body.no_guess = true;
  else body.first_click = $("first-click").value;
  if ($("player").value.trim()) body.player = $("player").value.trim();
  try {
    const [rows, cols] = PRESETS[choice] || [body.rows, body.cols];
    const query = `?top=0&left=0&height=${Math.min(rows, WINDOW.rows)}`
      + `&width=${Math.min(cols, WINDOW.cols)}`;
    const created = await api("POST", `/api/games${query}`, body);
    if (request !== newGameRequests) return;  // a newer "New game" has been asked for since
    localStorage.setItem(`mines:token:${created.id}`, created.token);
    history.replaceState(null, "", `#${created.id}`);
    start(created.id, created.token, created.view);
    showError(null);
  } catch (error) {
    showError(error);
  }
}

async function resume(id) {
  try {
    // A one-cell window tells the board's size; then the client asks for its own window.
    const path = `/api/games/${encodeURIComponent(id)}`;
    const { view } = await api("GET", `${path}?top=0&left=0&height=1&width=1`);
    start(id, localStorage.getItem(`mines:token:${id}`), view);
    await refresh();
  } catch (error) {
    showError(error);
  }
}

function start(id, token, view) {
  game = { id, token, top: 0, left: 0 };
  cursor = [view.top, view.left];
  applyView(view);
  $("after").hidden = true;
  watch(id);
}

function watch(id) {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/live`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (!game || game.id !== id || replaying) return;
    if (message.type === "move") {
      if (message.changed_complete) {
        for (const [r, c, symbol] of message.changed) setCell(r, c, symbol);
        setBar(message.status, message.mines_left, message.elapsed);
      } else {
        refresh();
      }
    } else if (message.type === "refresh") {
      refresh();
    }
  };
}

async function refresh() {
  try {
    const { view } = await api("GET", `/api/games/${game.id}${windowQuery()}`);
    applyView(view);
  } catch (error) {
    showError(error);
  }
}

async function move(kind, row, col) {
  if (!game || replaying || game.status !== "IN_PROGRESS") return;
  try {
    const result = await api("POST", `/api/games/${game.id}/${kind}${windowQuery()}`,
      { row, col }, game.token);
    applyView(result.view);
    showError(null);
  } catch (error) {
    showError(error);
  }
}

// --- drawing ------------------------------------------------------------------------------

function applyView(view) {
  Object.assign(game, {
    rows: view.rows, cols: view.cols, top: view.top, left: view.left,
    height: view.cells.length, width: view.cells[0].length, cells: view.cells.slice(),
  });
  $("pan").hidden = view.rows <= WINDOW.rows && view.cols <= WINDOW.cols;
  $("window-info").textContent = `rows ${view.top}–${view.top + game.height - 1}, `
    + `cols ${view.left}–${view.left + game.width - 1} of ${view.rows}×${view.cols}`;
  drawBoard();
  setBar(view.status, view.mines_left, view.elapsed);
}

function drawBoard() {
  board.style.gridTemplateColumns = `repeat(${game.width}, 24px)`;
  const cells = [];
  for (let r = 0; r < game.height; r++) {
    for (let c = 0; c < game.width; c++) {
      const cell = document.createElement("div");
      cell.dataset.row = game.top + r;
      cell.dataset.col = game.left + c;
      cell.setAttribute("role", "gridcell");
      paint(cell, game.cells[r][c]);
      cells.push(cell);
    }
  }
  board.replaceChildren(...cells);
  moveCursor(0, 0);
}

function paint(cell, symbol) {
  cell.className = "cell";
  cell.dataset.symbol = symbol;
  cell.textContent = "";
  if (/[0-8]/.test(symbol)) {
    cell.classList.add("open", `n${symbol}`);
    if (symbol !== "0") cell.textContent = symbol;
  } else if (symbol === "X") {
    cell.classList.add("open");
  }
  cell.setAttribute("aria-label", symbol);
}

function cellAt(row, col) {
  if (row < game.top || row >= game.top + game.height) return null;
  if (col < game.left || col >= game.left + game.width) return null;
  return board.children[(row - game.top) * game.width + (col - game.left)];
}

function setCell(row, col, symbol) {
  const cell = cellAt(row, col);
  if (!cell) return;
  const r = row - game.top;
  const line = game.cells[r];
  const c = col - game.left;
  game.cells[r] = line.slice(0, c) + symbol + line.slice(c + 1);
  paint(cell, symbol);
}

function setBar(status, minesLeft, elapsed) {
  game.status = status;
  $("mines-left").textContent = minesLeft;
  const started = elapsed > 0 || game.cells.some((line) => /[0-8X]/.test(line));
  timer = { base: elapsed, since: performance.now(), running: status === "IN_PROGRESS" && started };
  tick();
  const text = { IN_PROGRESS: "Playing", WON: "You won!", LOST: "Boom — you lost." }[status];
  $("status").textContent = text;
  $("status").className = status === "WON" ? "won" : status === "LOST" ? "lost" : "";
  if (status !== "IN_PROGRESS") {
    $("after").hidden = false;
    loadLeaderboard();
  }
}

function tick() {
  const seconds = timer.base + (timer.running ? (performance.now() - timer.since) / 1000 : 0);
  $("timer").textContent = Math.floor(seconds);
}

// --- input --------------------------------------------------------------------------------

function target(event) {
  const cell = event.target.closest(".cell");
  return cell ? [Number(cell.dataset.row), Number(cell.dataset.col), cell.dataset.symbol] : null;
}

let chorded = false;
board.addEventListener("contextmenu", (event) => event.preventDefault());
board.addEventListener("mousedown", (event) => {
  const hit = target(event);
  if (!hit) return;
  cursor = [hit[0], hit[1]];
  if ((event.buttons & 3) === 3) {
    chorded = true;
    move("chord", hit[0], hit[1]);
  } else if (event.button === 2) {
    move("flag", hit[0], hit[1]);
  }
});
board.addEventListener("mouseup", (event) => {
  if (chorded) {
    // A two-button chord ends when both buttons are up; neither release reveals.
    if (event.buttons === 0) chorded = false;
    return;
  }
  const hit = target(event);
  if (event.button !== 0 || !hit) return;
  move(/[1-8]/.test(hit[2]) ? "chord" : "reveal", hit[0], hit[1]);
});

let pressTimer = null;
let pressed = false;
board.addEventListener("touchstart", (event) => {
  const hit = target(event);
  if (!hit) return;
  pressed = false;
  pressTimer = setTimeout(() => {
    pressed = true;
    move("flag", hit[0], hit[1]);
  }, LONG_PRESS_MS);
}, { passive: true });
board.addEventListener("touchend", (event) => {
  clearTimeout(pressTimer);
  const hit = target(event);
  event.preventDefault(); // no synthetic mouse events after a touch
  if (hit && !pressed) move(/[1-8]/.test(hit[2]) ? "chord" : "reveal", hit[0], hit[1]);
});

function moveCursor(dr, dc) {
  if (!game) return;
  const old = board.querySelector(".cursor");
  if (old) old.classList.remove("cursor");
  cursor = [
    Math.max(game.top, Math.min(game.top + game.height - 1, cursor[0] + dr)),
    Math.max(game.left, Math.min(game.left + game.width - 1, cursor[1] + dc)),
  ];
  const cell = cellAt(...cursor);
  if (cell) cell.classList.add("cursor");
}

function pan(dr, dc) {
  if (!game) return;
  game.top = Math.max(0, Math.min(game.rows - game.height, game.top + dr * 10));
  game.left = Math.max(0, Math.min(game.cols - game.width, game.left + dc * 10));
  refresh();
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
board.addEventListener("keydown", (event) => {
  if (!game) return;
  const arrow = ARROWS[event.key];
  if (arrow) {
    (event.shiftKey ? pan : moveCursor)(...arrow);
  } else if (event.key === " " || event.key === "Enter") {
    move("reveal", ...cursor);
  } else if (event.key === "f" || event.key === "F") {
    move("flag", ...cursor);
  } else if (event.key === "c" || event.key === "C") {
    move("chord", ...cursor);
  } else {
    return;
  }
  event.preventDefault();
});
$("pan").addEventListener("click", (event) => {
  const way = event.target.dataset.pan;
  if (way) pan(...{ up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] }[way]);
});

// --- replay of a finished game (the record is public once the game is over) ------------------

const NEIGHBOURS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

function replayBoard(record) {
  const { rows, cols } = record;
  const mine = new Uint8Array(rows * cols);
  for (const [r, c] of record.layout || []) mine[r * cols + c] = 1;
  const shown = Array.from({ length: rows }, () => Array(cols).fill("H"));
  const around = (r, c) => NEIGHBOURS.map(([dr, dc]) => [r + dr, c + dc])
    .filter(([y, x]) => y >= 0 && y < rows && x >= 0 && x < cols);
  const count = (r, c) => around(r, c).filter(([y, x]) => mine[y * cols + x]).length;
  const open = (r, c) => {
    const stack = [[r, c]];
    while (stack.length) {
      const [y, x] = stack.pop();
      if (shown[y][x] !== "H") continue;
      if (mine[y * cols + x]) { shown[y][x] = "X"; continue; }
      const n = count(y, x);
      shown[y][x] = String(n);
      if (n === 0) stack.push(...around(y, x));
    }
  };
  const play = (text) => {
    const [, kind, r, c] = text.match(/([OFC])(\d+),(\d+)/).map((v, i) => (i > 1 ? Number(v) : v));
    if (kind === "F") shown[r][c] = shown[r][c] === "F" ? "H" : "F";
    else if (kind === "O") open(r, c);
    else for (const [y, x] of around(r, c)) if (shown[y][x] === "H") open(y, x);
  };
  return { shown, play };
}

function stopReplay() {
  if (replaying) clearTimeout(replaying.timeout);
  replaying = null;
}

async function startReplay() {
  stopReplay();
  try {
    const record = await api("GET", `/api/games/${game.id}/record`);
    const { shown, play } = replayBoard(record);
    replaying = { step: 0, timeout: null };
    const show = () => {
      const lines = shown.slice(game.top, game.top + game.height)
        .map((line) => line.slice(game.left, game.left + game.width).join(""));
      game.cells = lines;
      drawBoard();
      $("replay-step").textContent = `move ${replaying.step} of ${record.moves.length}`;
    };
    const next = () => {
      if (!replaying) return;
      if (replaying.step >= record.moves.length) { replaying = null; return; }
      play(record.moves[replaying.step][0]);
      replaying.step += 1;
      show();
      replaying.timeout = setTimeout(next, 300);
    };
    show();
    replaying.timeout = setTimeout(next, 300);
  } catch (error) {
    showError(error);
  }
}

// --- leaderboard --------------------------------------------------------------------------

async function loadLeaderboard() {
  const preset = $("board-preset").value;
  const noGuess = $("board-no-guess").checked;
  try {
    const data = await api("GET", `/api/leaderboard?preset=${preset}&no_guess=${noGuess}`);
    const rows = data.entries.map((entry) => {
      const tr = document.createElement("tr");
      for (const value of [entry.rank, entry.player, entry.time.toFixed(2)]) {
        const td = document.createElement("td");
        td.textContent = value; // names are shown as text, never as HTML
        tr.append(td);
      }
      return tr;
    });
    $("leaderboard").tBodies[0].replaceChildren(...rows);
  } catch (error) {
    showError(error);
  }
}

// --- start --------------------------------------------------------------------------------

$("new-game").addEventListener("submit", newGame);
$("preset").addEventListener("change", () => { $("custom").hidden = $("preset").value !== "custom"; });
$("replay").addEventListener("click", startReplay);
$("board-preset").addEventListener("change", loadLeaderboard);
$("board-no-guess").addEventListener("change", loadLeaderboard);
setInterval(tick, 200);
loadLeaderboard();
if (location.hash.length > 1) resume(decodeURIComponent(location.hash.slice(1)));
else $("new-game").requestSubmit();  // a board ready to play, as a desktop game opens with one
