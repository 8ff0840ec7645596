// The browser client: shows the server's views and sends the player's moves; it knows no rules.

import { ApiError, request, windowQuery } from "./api.js";
import { Board } from "./board.js";
import { $, inputOf, selectOf } from "./dom.js";
import { fillChoices, readForm, showProblems } from "./form.js";
import { listen, showMode } from "./input.js";
import { buildLed, setLed } from "./leds.js";
import { Player, bindControls } from "./replay.js";
import { boardKey, countGame, showLeaderboard, showStats } from "./scores.js";
import { sayError } from "./words.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Meta} Meta */
/** @typedef {import("./types.js").MoveAnswer} MoveAnswer */
/** @typedef {import("./types.js").Created} Created */
/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").Summary} Summary */
/** @typedef {import("./types.js").Chances} Chances */
/** @typedef {import("./types.js").Hint} Hint */
/** @typedef {{rows: number, cols: number, mines: number, no_guess: boolean}} BoardInfo */

const WINDOW_MAX = { rows: 100, cols: 100 };  // the most cells shown at once; bigger boards pan
const PAN_STEP = 10;
const KIND_LETTER = { reveal: "O", flag: "F", chord: "C" };


class App {
  /** @param {Meta} meta */
  constructor(meta) {
    this.meta = meta;
    this.board = new Board($("board"));
    /** @type {string | null} */
    this.id = null;
    /** @type {string | null} */
    this.token = null;
    /** @type {BoardInfo | null} */
    this.info = null;
    /** @type {View | null} */
    this.view = null;
    this.started = false;
    this.timer = { base: 0, since: 0, running: false };
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {string[]} own moves sent whose WebSocket echo is still to come */
    this.echoes = [];
    /** @type {Promise<void>} moves go one at a time, in order */
    this.queue = Promise.resolve();
    /** @type {Player | null} */
    this.player = null;
    /** @type {"reveal" | "flag"} */
    this.mode = "reveal";
    this.zoomed = false;
    this.creating = 0;
    this.counted = new Set();
    this.chancesOn = false;
  }

  // --- setup ---------------------------------------------------------------------------

  init() {
    buildLed($("mines-left"), 3);
    buildLed($("timer"), 3);
    setLed($("mines-left"), 0, "Mines left: 0");
    setLed($("timer"), 0, "Time: 0 seconds");
    fillChoices(this.meta);
    const theme = localStorage.getItem("mines:theme") || "auto";
    selectOf("theme").value = theme;
    document.documentElement.dataset.theme = theme;
    this.zoomed = matchMedia("(pointer: coarse)").matches;

    const board = $("board");
    listen(board, {
      primary: (r, c) => this.primary(r, c),
      flag: (r, c) => this.move("flag", r, c),
      chord: (r, c) => this.move("chord", r, c),
      moveCursor: (dr, dc) => this.moveCursor(dr, dc),
      pan: (dr, dc) => this.pan(dr, dc),
      newGame: () => this.newGame(),
      inspect: (r, c) => { this.board.setCursor(r, c); this.describeCell(r, c); },
      hover: (r, c) => { if (this.chancesOn) this.describeCell(r, c); },
      pressing: (down) => this.setFace(down && this.playable() ? "oh" : null),
      mode: () => this.mode,
      cursor: () => this.board.cursor,
    });
    $("new-game").addEventListener("submit", (event) => { event.preventDefault(); this.newGame(); });
    $("face").addEventListener("click", () => this.newGame());
    $("new-game").addEventListener("input", () => this.checkForm());
    $("preset").addEventListener("change", () => {
      $("custom").hidden = selectOf("preset").value !== "custom";
      this.checkForm();
    });
    $("theme").addEventListener("change", () => {
      const value = selectOf("theme").value;
      document.documentElement.dataset.theme = value;
      localStorage.setItem("mines:theme", value);
    });
    $("mode").addEventListener("click", () => this.setMode(this.mode === "reveal" ? "flag" : "reveal"));
    $("zoom").addEventListener("click", () => { this.zoomed = !this.zoomed; this.fit(); });
    $("pan").addEventListener("click", (event) => {
      const target = event.target instanceof HTMLElement ? event.target.dataset.pan : undefined;
      /** @type {Record<string, [number, number]>} */
      const ways = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
      if (target && ways[target]) this.pan(...ways[target]);
    });
    $("analysis").addEventListener("change", () => this.toggleChances());
    $("hint").addEventListener("click", () => this.hint());
    $("board-preset").addEventListener("change", () => this.loadLeaderboard());
    $("board-no-guess").addEventListener("change", () => this.loadLeaderboard());
    $("replay-open").addEventListener("click", () => { if (this.id) this.openReplay(this.id); });
    $("replay-close").addEventListener("click", () => this.closeReplay());
    bindControls(() => this.player);
    $("replay-copy").addEventListener("click", () => this.copyLink());
    // Keys typed while nothing has focus go to the board, so no Tab is needed first.
    document.addEventListener("keydown", (event) => {
      if (event.target === document.body && this.view && !event.ctrlKey && !event.metaKey) board.focus();
    });
    window.addEventListener("resize", () => this.fit());
    window.setInterval(() => this.tick(), 250);
    this.checkForm();
    this.loadLeaderboard();

    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash.startsWith("replay=")) this.openReplay(hash.slice(7));
    else if (hash) this.resume(hash);
    else this.newGame();
  }

  checkForm() {
    showProblems(this.meta);
    $("form-error").textContent = "";
  }

  // --- games ---------------------------------------------------------------------------

  async newGame() {
    const { body, problems } = readForm(this.meta);
    if (!body) {
      showProblems(this.meta);
      $("form-error").textContent = `Please correct: ${[...problems.values()].join(" ")}`;
      const first = [...problems.keys()][0];
      if (first === "seed" || first === "player") /** @type {HTMLDetailsElement} */ ($("new-game").querySelector("details")).open = true;
      inputOf(first).focus();
      return;
    }
    $("form-error").textContent = "";
    const request_ = ++this.creating;
    const size = this.sizeOf(body);
    try {
      const box = { top: 0, left: 0, height: Math.min(size.rows, WINDOW_MAX.rows), width: Math.min(size.cols, WINDOW_MAX.cols) };
      const created = /** @type {Created} */ (await request("POST", `/api/games${windowQuery(box)}`, body));
      if (request_ !== this.creating) return;  // a newer New game was asked for meanwhile
      const info = { ...size, no_guess: Boolean(body.no_guess) };
      localStorage.setItem(`mines:token:${created.id}`, created.token);
      localStorage.setItem(`mines:game:${created.id}`, JSON.stringify(info));
      history.replaceState(null, "", `#${created.id}`);
      this.start(created.id, created.token, info, created.view);
      $("board").focus();
    } catch (error) {
      $("form-error").textContent = this.words(error);
    }
  }

  /** @param {Record<string, unknown>} body @returns {{rows: number, cols: number, mines: number}} */
  sizeOf(body) {
    const preset = this.meta.presets.find((p) => p.name === body.preset);
    if (preset) return { rows: preset.rows, cols: preset.cols, mines: preset.mines };
    return { rows: Number(body.rows), cols: Number(body.cols), mines: Number(body.mines) };
  }

  /** @param {string} id */
  async resume(id) {
    try {
      // A one-cell window tells the board's size; then the client asks for its own window.
      const path = `/api/games/${encodeURIComponent(id)}`;
      const first = /** @type {{view: View}} */ (await request("GET", `${path}?top=0&left=0&height=1&width=1`)).view;
      const box = { top: 0, left: 0, height: Math.min(first.rows, WINDOW_MAX.rows), width: Math.min(first.cols, WINDOW_MAX.cols) };
      const { view } = /** @type {{view: View}} */ (await request("GET", `${path}${windowQuery(box)}`));
      /** @type {BoardInfo | null} */
      let info = null;
      try {
        info = JSON.parse(localStorage.getItem(`mines:game:${id}`) || "null");
      } catch {
        info = null;
      }
      this.start(id, localStorage.getItem(`mines:token:${id}`), info, view);
      $("board").focus();
      if (!this.token) this.say("You are watching this game; moves made by its player appear as they happen.");
    } catch (error) {
      this.showError(error);
      $("status").textContent = "No game";
    }
  }

  /**
   * @param {string} id @param {string | null} token @param {BoardInfo | null} info @param {View} view
   */
  start(id, token, info, view) {
    this.closeReplay();
    this.id = id;
    this.token = token;
    this.info = info;
    this.echoes = [];
    this.started = false;
    this.chancesOn = false;
    inputOf("analysis").checked = false;
    this.board.setHint(null);
    this.board.cursor = [view.top, view.left];
    this.showView(view);
    this.fit();
    this.showError(null);
    this.watch(id);
    this.showStats();
    $("replay-open").hidden = view.status === "IN_PROGRESS";
  }

  /** The board's window as a query. */
  box() {
    const b = this.board;
    return { top: b.top, left: b.left, height: b.height, width: b.width };
  }

  playable() {
    return Boolean(this.token && this.view && this.view.status === "IN_PROGRESS" && !this.player);
  }

  /** A tap, click or Space: reveal, or chord on a number. @param {number} row @param {number} col */
  primary(row, col) {
    const symbol = this.board.symbolAt(row, col);
    this.move(symbol >= "1" && symbol <= "8" ? "chord" : "reveal", row, col);
  }

  /** @param {"reveal" | "flag" | "chord"} kind @param {number} row @param {number} col */
  move(kind, row, col) {
    this.board.setCursor(row, col);
    if (!this.playable()) {
      if (this.view && this.view.status !== "IN_PROGRESS" && !this.player) this.say("The game is over. Press the face or N for a new game.");
      else if (!this.token && this.view) this.say("You are watching this game: only its player can move.");
      return;
    }
    const id = /** @type {string} */ (this.id);
    const token = this.token;
    const echo = `${KIND_LETTER[kind]}${row},${col}`;
    this.queue = this.queue.then(async () => {
      if (id !== this.id) return;
      this.echoes.push(echo);
      try {
        const answer = /** @type {MoveAnswer} */ (await request(
          "POST", `/api/games/${encodeURIComponent(id)}/${kind}${windowQuery(this.box())}`, { row, col }, token));
        if (id !== this.id) return;
        if (!answer.changed.length) this.forgetEcho(echo);  // not stored, so not broadcast
        this.showAnswer(answer, kind, row, col);
        this.showError(null);
      } catch (error) {
        this.forgetEcho(echo);
        if (id === this.id) this.showError(error);
      }
    });
  }

  /** @param {string} echo */
  forgetEcho(echo) {
    const at = this.echoes.indexOf(echo);
    if (at >= 0) this.echoes.splice(at, 1);
  }

  /** @param {MoveAnswer} answer @param {string} kind @param {number} row @param {number} col */
  showAnswer(answer, kind, row, col) {
    const before = this.view ? this.view.status : "IN_PROGRESS";
    if (kind !== "flag" && answer.changed.length) this.started = true;  // the clock runs from here
    if (answer.changed_complete && this.sameWindow(answer.view)) {
      this.board.apply(answer.changed, answer.view.status);
      this.view = answer.view;
      this.showBar(answer.view);
    } else {
      this.showView(answer.view);
    }
    this.announceMove(answer, kind, row, col, before);
    if (this.chancesOn && answer.changed.length && answer.view.status === "IN_PROGRESS") this.loadChances();
    if (answer.view.status !== "IN_PROGRESS") this.setChances(null);
  }

  /** @param {View} view */
  sameWindow(view) {
    const b = this.board;
    return view.top === b.top && view.left === b.left && view.cells.length === b.height
      && (view.cells[0] || "").length === b.width && view.rows === b.rows && view.cols === b.cols;
  }

  /** @param {View} view */
  showView(view) {
    this.board.render(view);
    this.view = view;
    if (view.elapsed > 0 || this.board.symbols.some((s) => s >= "0" && s <= "8")) this.started = true;
    const pan = view.rows > this.board.height || view.cols > this.board.width;
    $("pan").hidden = !pan;
    $("window-info").textContent = pan ? `rows ${view.top + 1}–${view.top + this.board.height}, columns ${view.left + 1}–${view.left + this.board.width} of ${view.rows}×${view.cols}` : "";
    this.showBar(view);
  }

  /** The counters, the face, the status line and what follows a game's end. @param {View} view */
  showBar(view) {
    const won = view.status === "WON";
    const minesLeft = won ? 0 : view.mines_left;
    setLed($("mines-left"), minesLeft, `Mines left: ${minesLeft}`);
    this.timer = { base: view.elapsed, since: performance.now(), running: view.status === "IN_PROGRESS" && this.started };
    this.tick();
    this.setFace(null);
    const status = $("status");
    const wasOver = status.dataset.status === "WON" || status.dataset.status === "LOST";
    status.dataset.status = view.status;
    if (this.player) return;
    status.textContent = won ? `You won in ${view.elapsed.toFixed(1)} seconds!`
      : view.status === "LOST" ? "Boom! You hit a mine. Press the face for a new game."
        : this.token ? "Playing" : "Watching";
    if (view.status !== "IN_PROGRESS") {
      $("replay-open").hidden = false;
      if (!wasOver) this.finished(view);
    }
  }

  /** @param {"oh" | null} face */
  setFace(face) {
    const status = this.view ? this.view.status : "IN_PROGRESS";
    const shown = face || (status === "WON" ? "win" : status === "LOST" ? "lost" : "smile");
    const button = $("face");
    if (button.dataset.face !== shown) button.dataset.face = shown;
    const label = status === "WON" ? "New game (you won)" : status === "LOST" ? "New game (you lost)" : "New game";
    if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  }

  tick() {
    const seconds = this.timer.base + (this.timer.running ? (performance.now() - this.timer.since) / 1000 : 0);
    const whole = Math.floor(seconds);
    const led = $("timer");
    if (led.dataset.value !== String(Math.min(whole, 999))) setLed(led, whole, `Time: ${whole} seconds`);
  }

  /** A game just ended: the leaderboard of its board, and the player's statistics. @param {View} view */
  async finished(view) {
    const id = this.id;
    if (!id || this.counted.has(id)) return;
    this.counted.add(id);
    try {
      const summary = /** @type {Summary} */ (await request("GET", `/api/games/${encodeURIComponent(id)}/summary`));
      if (summary.preset) {
        selectOf("board-preset").value = summary.preset;
        inputOf("board-no-guess").checked = summary.no_guess;
      }
      this.info = { rows: summary.rows, cols: summary.cols, mines: summary.mines, no_guess: summary.no_guess };
      if (this.token) countGame(summary);
      this.showStats();
    } catch (error) {
      this.showError(error);
    }
    this.loadLeaderboard();
    if (view.status === "WON") this.say(`You won in ${view.elapsed.toFixed(1)} seconds!`);
  }

  showStats() {
    if (!this.info) return;
    showStats(/** @type {HTMLTableElement} */ ($("stats")), $("stats-board"), boardKey(this.info));
  }

  async loadLeaderboard() {
    try {
      await showLeaderboard(/** @type {HTMLTableElement} */ ($("leaderboard")), selectOf("board-preset").value,
        inputOf("board-no-guess").checked, this.id);
    } catch (error) {
      this.showError(error);
    }
  }

  // --- live updates --------------------------------------------------------------------

  /** @param {string} id */
  watch(id) {
    if (this.socket) this.socket.close();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/live`);
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      if (id !== this.id || this.socket !== socket) return;
      const message = JSON.parse(event.data);
      if (message.type === "move") {
        const at = this.echoes.indexOf(message.move);
        if (at >= 0) {
          this.echoes.splice(at, 1);  // our own move: its answer draws it
          return;
        }
        if (this.player) return;
        if (message.changed_complete && this.view) {
          this.board.apply(message.changed, message.status);
          this.view = { ...this.view, status: message.status, mines_left: message.mines_left, elapsed: message.elapsed };
          if (String(message.move).startsWith("O") || String(message.move).startsWith("C")) this.started = true;
          this.showBar(this.view);
        } else {
          this.refresh();
        }
      } else if (message.type === "refresh") {
        this.refresh();
      }
    });
  }

  async refresh() {
    if (!this.id) return;
    try {
      const { view } = /** @type {{view: View}} */ (await request(
        "GET", `/api/games/${encodeURIComponent(this.id)}${windowQuery(this.box())}`));
      this.showView(view);
      if (this.chancesOn) this.loadChances();
    } catch (error) {
      this.showError(error);
    }
  }

  // --- cursor, window and size ---------------------------------------------------------

  /** @param {number} dr @param {number} dc */
  moveCursor(dr, dc) {
    if (!this.view) return;
    const b = this.board;
    const row = Math.max(0, Math.min(b.rows - 1, b.cursor[0] + dr));
    const col = Math.max(0, Math.min(b.cols - 1, b.cursor[1] + dc));
    if (row < b.top || row >= b.top + b.height || col < b.left || col >= b.left + b.width) {
      // Off the window's edge: the window follows the cursor.
      b.cursor = [row, col];
      this.setWindow(
        row < b.top ? row : row >= b.top + b.height ? row - b.height + 1 : b.top,
        col < b.left ? col : col >= b.left + b.width ? col - b.width + 1 : b.left,
      );
      return;
    }
    b.setCursor(row, col);
    this.describeCell();
  }

  /** @param {number} dr @param {number} dc */
  pan(dr, dc) {
    const b = this.board;
    this.setWindow(b.top + dr * PAN_STEP, b.left + dc * PAN_STEP);
  }

  /** @param {number} top @param {number} left */
  setWindow(top, left) {
    const b = this.board;
    const t = Math.max(0, Math.min(b.rows - b.height, top));
    const l = Math.max(0, Math.min(b.cols - b.width, left));
    if (t === b.top && l === b.left) return;
    b.top = t;
    b.left = l;
    b.cursor = [Math.max(t, Math.min(t + b.height - 1, b.cursor[0])), Math.max(l, Math.min(l + b.width - 1, b.cursor[1]))];
    b.rows = -1;  // force a rebuild for the new window
    this.refresh();
  }

  /** Cells as big as fit the screen, or zoomed in to finger size (the board then pans). */
  fit() {
    const b = this.board;
    if (!b.width) return;
    const room = Math.max(120, ($("viewport").parentElement?.parentElement?.clientWidth || innerWidth) - 24);
    const fitted = Math.max(10, Math.min(32, Math.floor(room / b.width)));
    const size = this.zoomed ? Math.max(36, fitted) : fitted;
    b.setCellSize(size);
    const zoom = $("zoom");
    zoom.setAttribute("aria-pressed", String(this.zoomed));
    zoom.textContent = this.zoomed ? "Zoom out" : "Zoom in";
  }

  /** @param {"reveal" | "flag"} mode */
  setMode(mode) {
    this.mode = mode;
    showMode($("mode"), mode);
    this.say(mode === "flag" ? "A tap now flags; a long press reveals." : "A tap now reveals; a long press flags.");
  }

  // --- practice: chances and hints -----------------------------------------------------

  toggleChances() {
    this.chancesOn = inputOf("analysis").checked;
    if (this.chancesOn) this.loadChances();
    else this.setChances(null);
  }

  async loadChances() {
    if (!this.id || !this.token || !this.view || this.view.status !== "IN_PROGRESS") {
      if (!this.token) this.say("Only the game's player can ask for chances.");
      return;
    }
    const id = this.id;
    try {
      const chances = /** @type {Chances} */ (await request(
        "POST", `/api/games/${encodeURIComponent(id)}/analysis${windowQuery(this.box())}`, undefined, this.token));
      if (id === this.id && this.chancesOn) this.setChances(chances.cells);
    } catch (error) {
      this.showError(error);
    }
  }

  /** @param {[number, number, number, string | null][] | null} cells */
  setChances(cells) {
    this.board.setChances(cells);
    this.describeCell();
  }

  async hint() {
    if (!this.playable()) return;
    const id = /** @type {string} */ (this.id);
    try {
      const hint = /** @type {Hint} */ (await request("POST", `/api/games/${encodeURIComponent(id)}/hint`, undefined, this.token));
      if (id !== this.id) return;
      const b = this.board;
      if (b.index(hint.row, hint.col) < 0) this.setWindow(hint.row - Math.floor(b.height / 2), hint.col - Math.floor(b.width / 2));
      b.setCursor(hint.row, hint.col);
      b.setHint([hint.row, hint.col]);
      $("board").focus();
      this.say(`Hint: row ${hint.row + 1}, column ${hint.col + 1}. ${hint.reason}`);
      $("cell-info").textContent = `Hint: row ${hint.row + 1}, column ${hint.col + 1}. ${hint.reason}`;
    } catch (error) {
      this.showError(error);
    }
  }

  /**
   * The chance readout for a cell, the cursor's unless another is named.
   * @param {number} [row] @param {number} [col]
   */
  describeCell(row = this.board.cursor[0], col = this.board.cursor[1]) {
    const cell = this.board.cells[this.board.index(row, col)];
    const chance = cell ? cell.dataset.chance : undefined;
    $("cell-info").textContent = chance ? `Row ${row + 1}, column ${col + 1}: ${chance} chance of a mine${cell.dataset.certain ? ` (certainly ${cell.dataset.certain === "safe" ? "safe" : "a mine"})` : ""}.` : "";
  }

  // --- replay --------------------------------------------------------------------------

  /** @param {string} id */
  async openReplay(id) {
    try {
      const path = `/api/games/${encodeURIComponent(id)}`;
      const first = /** @type {{view: View}} */ (await request("GET", `${path}?top=0&left=0&height=1&width=1`)).view;
      const box = { top: 0, left: 0, height: Math.min(first.rows, WINDOW_MAX.rows), width: Math.min(first.cols, WINDOW_MAX.cols) };
      const replay = /** @type {Replay} */ (await request("GET", `${path}/replay${windowQuery(box)}`));
      if (this.id !== id) {
        this.id = id;
        this.token = localStorage.getItem(`mines:token:${id}`);
        this.watch(id);
      }
      this.player?.pause();
      const scrub = inputOf("replay-scrub");
      scrub.max = String(replay.frames.length);
      this.player = new Player(replay, (view) => this.showView(view), (step) => {
        scrub.value = String(step);
        const total = replay.frames.length;
        $("replay-step").textContent = `move ${step} of ${total}`;
        $("status").textContent = `Replay: move ${step} of ${total}`;
        const play = $("replay-play");
        const playing = Boolean(this.player && this.player.playing);
        play.textContent = playing ? "⏸" : "▶";
        play.setAttribute("aria-label", playing ? "Pause" : "Play");
      });
      this.player.speed = Number(selectOf("replay-speed").value);
      const link = /** @type {HTMLAnchorElement} */ ($("replay-link"));
      link.href = `${location.origin}/#replay=${encodeURIComponent(id)}`;
      $("replay").hidden = false;
      $("replay-open").hidden = true;
      history.replaceState(null, "", `#replay=${encodeURIComponent(id)}`);
      this.board.rows = -1;
      this.player.seek(0);
      this.fit();
      this.player.play();
    } catch (error) {
      this.showError(error);
    }
  }

  closeReplay() {
    if (!this.player) return;
    this.player.pause();
    this.player = null;
    $("replay").hidden = true;
    if (this.id) history.replaceState(null, "", `#${this.id}`);
    this.board.rows = -1;
    $("status").dataset.status = "";
    this.refresh();
  }

  async copyLink() {
    const href = /** @type {HTMLAnchorElement} */ ($("replay-link")).href;
    try {
      await navigator.clipboard.writeText(href);
      this.say("The replay's link is copied.");
    } catch {
      this.say(`Copy this link: ${href}`);
    }
  }

  // --- words ---------------------------------------------------------------------------

  /** @param {unknown} error */
  words(error) {
    return error instanceof ApiError ? sayError(error) : "Something went wrong in this page. Please reload it.";
  }

  /** @param {unknown} error */
  showError(error) {
    $("error").textContent = error ? this.words(error) : "";
    if (error && !(error instanceof ApiError)) console.error(error);
  }

  /** Tell a screen reader, politely. @param {string} text */
  say(text) {
    const region = $("announce");
    region.textContent = region.textContent === text ? `${text} ` : text;
  }

  /**
   * @param {MoveAnswer} answer @param {string} kind @param {number} row @param {number} col
   * @param {string} before  the status before the move
   */
  announceMove(answer, kind, row, col, before) {
    const where = `row ${row + 1}, column ${col + 1}`;
    const view = answer.view;
    if (view.status === "LOST" && before === "IN_PROGRESS") {
      this.say(`Boom! A mine at ${where}. Game over.`);
    } else if (view.status === "WON") {
      return;  // `finished` says it
    } else if (kind === "flag") {
      const flagged = this.board.symbolAt(row, col) === "F";
      this.say(`${flagged ? "Flag placed on" : "Flag removed from"} ${where}; ${view.mines_left} mines left.`);
    } else if (!answer.changed.length) {
      this.say(kind === "chord" ? `Nothing to chord at ${where}.` : `Nothing to reveal at ${where}.`);
    } else {
      const n = answer.changed.length;
      this.say(n === 1 ? `${where}: ${this.board.cells[this.board.index(row, col)]?.getAttribute("aria-label")?.split(", ").slice(2).join(", ")}.` : `${n} cells revealed.`);
    }
  }
}

async function main() {
  try {
    const meta = /** @type {Meta} */ (await request("GET", "/api/meta"));
    new App(meta).init();
  } catch (error) {
    $("status").textContent = error instanceof ApiError ? sayError(error) : "The page could not start.";
  }
}

main();
