// The browser client: shows the server's views and sends the player's moves; it knows no rules.

import { ApiError, gameToken, keepGameToken, request, windowQuery } from "./api.js";
import { Board } from "./board.js";
import { Frame } from "./frame.js";
import { $, inputOf, selectOf } from "./dom.js";
import { fillChoices, readForm, showProblems } from "./form.js";
import { listen, showMode } from "./input.js";
import { buildLed, setLed } from "./leds.js";
import { LiveSocket } from "./live.js";
import { Player, bindControls, showPlaying } from "./replay.js";
import { boardKey, countGame, reviewPath, showLeaderboard, showResult, showStats } from "./scores.js";
import { sayError } from "./words.js";
import { fixed, sentence, t, tn } from "./i18n.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Meta} Meta */
/** @typedef {import("./types.js").MoveAnswer} MoveAnswer */
/** @typedef {import("./types.js").MoveFrame} MoveFrame */
/** @typedef {import("./types.js").GameAnswer} GameAnswer */
/** @typedef {import("./types.js").BoardInfo} BoardInfo */
/** @typedef {import("./types.js").Created} Created */
/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").Summary} Summary */
/** @typedef {import("./types.js").Chances} Chances */
/** @typedef {import("./types.js").Hint} Hint */
/** @typedef {import("./input.js").Press} Press */

const WINDOW_MAX = { rows: 100, cols: 100 };  // the most cells shown at once; bigger boards pan
/** CSS pixels kept free below a fitted board: the tools' row and the status line. */
const BELOW_BOARD_PX = 84;
/** Refusals that mean "nothing happens here", as a click on an open number does in the classic
 * game: said politely, never as an alert. */
const NOTHING_HAPPENS = new Set(["illegal_move", "cell_flagged", "game_over"]);
/** The keys the board acts on: typed while nothing has focus, they go to the board. */
const BOARD_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", " ", "Enter", "f", "F", "c", "C", "n", "N", "Home", "End"]);

/** "row 3, column 5": cells are named for people from 1, everywhere in words. @param {number} row @param {number} col */
export function cellName(row, col) {
  return t("row {row}, column {col}", { row: row + 1, col: col + 1 });
}

/** The first board is drawn (or will not be): the page below it is shown. */
function ready() {
  document.body.classList.add("ready");
}

class App {
  /** @param {Meta} meta */
  constructor(meta) {
    this.meta = meta;
    this.board = new Board($("board"));
    this.frame = new Frame(this.board, {
      viewport: $("viewport"), reserve: BELOW_BOARD_PX, pan: $("pan"), label: $("window-info"),
      minimap: /** @type {HTMLCanvasElement} */ ($("minimap")),
      zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), zoomFit: $("zoom-fit"),
      moveWindow: (top, left) => this.setWindow(top, left),
      passing: [/** @type {HTMLDetailsElement} */ (document.querySelector("#new-game .more"))],
    });
    /** @type {{top: number, left: number} | null} the window asked for, when it is not the one shown */
    this.wanted = null;
    /** @type {string | null} */
    this.id = null;
    /** @type {string | null} */
    this.token = null;
    /** @type {BoardInfo | null} */
    this.info = null;
    /** @type {View | null} the last view's header (its cells are on the board) */
    this.view = null;
    /** The number of stored moves the board shows: views and frames are ordered by it. */
    this.version = 0;
    /** @type {MoveFrame[]} frames that arrived ahead of a move still being answered */
    this.ahead = [];
    /** Own moves sent and not yet answered. */
    this.pending = 0;
    /** Whether a win would rank (the server says; help takes it away). */
    this.ranks = false;
    this.started = false;
    this.timer = { base: 0, since: 0, running: false };
    this.live = new LiveSocket({
      message: (data) => this.onLive(data),
      back: () => this.connected(),
      away: (seconds) => this.disconnected(seconds),
      gone: () => this.showLive(""),
    });
    this.wasAway = false;
    /** Whether the error shown is "the server cannot be reached". */
    this.unreachable = false;
    /** @type {Promise<void>} moves go one at a time, in order */
    this.queue = Promise.resolve();
    /** @type {Player | null} */
    this.player = null;
    /** @type {"reveal" | "flag"} */
    this.mode = "reveal";
    this.creating = 0;
    this.counted = new Set();
    this.chancesOn = false;
    this.marksOn = false;
    /** The watched game's player, once a summary named them. */
    this.playerName = "";
  }

  // --- setup ---------------------------------------------------------------------------

  init() {
    buildLed($("mines-left"), 3);
    buildLed($("timer"), 3);
    setLed($("mines-left"), 0, t("Mines left: {n}", { n: 0 }));
    setLed($("timer"), 0, tn("Time: {n} second", "Time: {n} seconds", 0));
    fillChoices(this.meta);
    const theme = localStorage.getItem("mines:theme") || "auto";
    selectOf("theme").value = theme;
    document.documentElement.dataset.theme = theme;
    this.marksOn = localStorage.getItem("mines:marks") === "on";
    inputOf("marks").checked = this.marksOn;

    const board = $("board");
    listen(board, {
      ...this.frame.gestures(),
      primary: (r, c) => this.primary(r, c),
      flag: (r, c) => this.flag(r, c),
      chord: (r, c) => this.move("chord", r, c),
      moveCursor: (dr, dc) => this.moveCursor(dr, dc),
      pan: (dr, dc) => this.frame.panPage(dr, dc),
      newGame: () => this.newGame(),
      inspect: (r, c) => { this.board.setCursor(r, c); this.describeCell(r, c); },
      hover: (r, c) => { if (this.chancesOn) this.describeCell(r, c); },
      pressing: (press) => this.pressing(press),
      mode: () => this.mode,
      cursor: () => this.board.cursor,
    });
    $("new-game").addEventListener("submit", (event) => { event.preventDefault(); this.newGame(); });
    $("face").addEventListener("click", () => this.newGame());
    $("new-game").addEventListener("input", () => this.checkForm());
    // The custom board's fields open over the page (choosing a board moves nothing): when Custom
    // is chosen, or its choice is visited again; Escape closes them.
    const showCustom = () => { $("custom").hidden = selectOf("preset").value !== "custom"; };
    $("preset").addEventListener("change", () => { showCustom(); this.checkForm(); });
    $("preset").addEventListener("focus", showCustom);
    $("custom").addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      $("custom").hidden = true;
      $("preset").focus({ preventScroll: true });
    });
    $("theme").addEventListener("change", () => {
      const value = selectOf("theme").value;
      document.documentElement.dataset.theme = value;
      localStorage.setItem("mines:theme", value);
    });
    $("marks").addEventListener("change", () => this.setMarks(inputOf("marks").checked));
    $("mode").addEventListener("click", () => this.setMode(this.mode === "reveal" ? "flag" : "reveal"));
    $("analysis").addEventListener("change", () => this.toggleChances());
    $("hint").addEventListener("click", () => this.hint());
    $("board-preset").addEventListener("change", () => this.loadLeaderboard());
    $("board-no-guess").addEventListener("change", () => this.loadLeaderboard());
    $("board-period").addEventListener("change", () => this.loadLeaderboard());
    $("replay-open").addEventListener("click", () => { if (this.id) this.openReplay(this.id); });
    $("replay-close").addEventListener("click", () => this.closeReplay());
    bindControls(() => this.player);
    $("replay-copy").addEventListener("click", () => this.copyLink());
    // The board's keys typed while nothing has focus go to the board, so no Tab is needed
    // first; every other key (Tab above all) keeps its own meaning.
    document.addEventListener("keydown", (event) => {
      if (event.target === document.body && this.view && BOARD_KEYS.has(event.key)
        && !event.ctrlKey && !event.metaKey && !event.altKey) board.focus();
    });
    window.setInterval(() => this.tick(), 250);
    this.checkForm();

    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash.startsWith("replay=")) {
      this.loadLeaderboard();  // a game's start shows its board's; a replay shows the default
      this.openReplay(hash.slice(7));
    }
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
      $("form-error").textContent = t("Please correct: {problems}", { problems: [...problems.values()].join(" ") });
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
      keepGameToken(created.id, created.token);
      history.replaceState(null, "", `#${created.id}`);
      this.start(created.id, created.token, created);
      $("board").focus({ preventScroll: true });  // the page stays where it is: it never jumps
    } catch (error) {
      ready();
      $("form-error").textContent = this.words(error);
    }
  }

  /** @param {Record<string, unknown>} body @returns {{rows: number, cols: number}} */
  sizeOf(body) {
    const preset = this.meta.presets.find((p) => p.name === (body.preset ?? body.daily));
    if (preset) return { rows: preset.rows, cols: preset.cols };
    return { rows: Number(body.rows), cols: Number(body.cols) };
  }

  /** @param {string} id */
  async resume(id) {
    try {
      // A one-cell window tells the board's size; then the client asks for its own window.
      const path = `/api/games/${encodeURIComponent(id)}`;
      const token = gameToken(id);  // a daily game is read only by its player until the day ends
      const first = /** @type {GameAnswer} */ (await request("GET", `${path}?top=0&left=0&height=1&width=1`, undefined, token)).view;
      const box = { top: 0, left: 0, height: Math.min(first.rows, WINDOW_MAX.rows), width: Math.min(first.cols, WINDOW_MAX.cols) };
      const game = /** @type {GameAnswer} */ (await request("GET", `${path}${windowQuery(box)}`, undefined, token));
      this.start(id, token, game);
      $("board").focus({ preventScroll: true });
      if (!this.token) this.say(t("You are watching this game; moves made by its player appear as they happen."));
    } catch (error) {
      this.showError(error);
      $("status").textContent = t("No game");
    }
  }

  /** @param {string} id @param {string | null} token @param {GameAnswer} game */
  start(id, token, game) {
    this.closeReplay();
    this.id = id;
    this.token = token;
    this.info = game.board;
    this.ranks = game.ranks;
    this.version = -1;
    this.ahead = [];
    this.wanted = null;
    this.playerName = "";
    this.started = false;
    this.chancesOn = false;
    inputOf("analysis").checked = false;
    $("result").hidden = true;
    this.board.setHint(null);
    this.board.setMarks(this.loadMarks());
    this.board.cursor = [game.view.top, game.view.left];
    buildLed($("mines-left"), Math.max(3, String(game.board.mines).length));
    this.takeView(game.view);
    this.showError(null);
    this.watch();
    this.showStats();
    if (game.board.preset) this.showLeaderboardOf(game.board.preset, game.board.no_guess);
    else this.loadLeaderboard();
    $("replay-open").hidden = game.view.status === "IN_PROGRESS";
  }

  /** The board's window as a query: the one asked for, else the one shown. */
  box() {
    const b = this.board;
    const { top, left } = this.wanted ?? b;
    return { top, left, height: b.height, width: b.width };
  }

  playable() {
    return Boolean(this.token && this.view && this.view.status === "IN_PROGRESS" && !this.player);
  }

  /** A tap, click or Space: reveal, or chord on a number. @param {number} row @param {number} col */
  primary(row, col) {
    const symbol = this.board.symbolAt(row, col);
    this.move(symbol >= "1" && symbol <= "8" ? "chord" : "reveal", row, col);
  }

  /**
   * A right click, long press or F: flag or unflag; with question marks on, a flag becomes a
   * question mark and a question mark plain again, as in the classic game. The marks are the
   * player's notes, kept in this browser; the server sees flags only.
   * @param {number} row @param {number} col
   */
  flag(row, col) {
    if (this.marksOn && this.playable()) {
      const symbol = this.board.symbolAt(row, col);
      if (symbol === "H" && this.board.isMarked(row, col)) {
        this.mark(row, col, false);
        this.board.setCursor(row, col);
        this.say(t("Question mark removed from {cell}.", { cell: cellName(row, col) }));
        return;
      }
      if (symbol === "F") {
        this.move("flag", row, col, () => this.mark(row, col, true));
        return;
      }
    }
    this.move("flag", row, col);
  }

  /**
   * @param {"reveal" | "flag" | "chord"} kind @param {number} row @param {number} col
   * @param {() => void} [after]  run once the move is answered
   */
  move(kind, row, col, after) {
    this.board.setCursor(row, col);
    if (!this.playable()) {
      if (this.view && this.view.status !== "IN_PROGRESS" && !this.player) this.say(t("The game is over. Press the face or N for a new game."));
      else if (!this.token && this.view) this.say(t("You are watching this game: only its player can move."));
      return;
    }
    const id = /** @type {string} */ (this.id);
    const token = this.token;
    this.queue = this.queue.then(async () => {
      if (id !== this.id) return;
      this.pending += 1;
      try {
        // cells=changed: the answer carries the changed cells, not the whole window again.
        const answer = /** @type {MoveAnswer} */ (await request(
          "POST", `/api/games/${encodeURIComponent(id)}/${kind}${windowQuery(this.box())}&cells=changed`, { row, col }, token));
        if (id !== this.id) return;
        this.showAnswer(answer, kind, row, col);
        if (after) after();
        this.showError(null);
      } catch (error) {
        if (id === this.id) this.refused(error);
      } finally {
        this.pending -= 1;
        if (id === this.id) this.catchUp();
      }
    });
  }

  /** @param {unknown} error */
  refused(error) {
    if (error instanceof ApiError && NOTHING_HAPPENS.has(error.code)) {
      this.say(sayError(error));  // as in the classic game: nothing happens, and no alarm
      return;
    }
    this.showError(error);
  }

  /** @param {MoveAnswer} answer @param {string} kind @param {number} row @param {number} col */
  showAnswer(answer, kind, row, col) {
    const before = this.view ? this.view.status : "IN_PROGRESS";
    const view = answer.view;
    if (kind !== "flag" && answer.changed.length) this.started = true;  // the clock runs from here
    if (view.version > this.version) {
      if (view.version === this.version + 1 && answer.changed_complete && this.sameWindow(view)) {
        this.board.apply(answer.changed, view.status);
        this.version = view.version;
        this.setHeader(view);
      } else if (view.cells) {
        this.takeView(/** @type {View} */ (view));
      } else {
        this.refresh();  // moves of another tab or process came between: read the window
      }
    } else if (view.version === this.version) {
      this.setHeader(view);  // nothing was stored: the clock and counters as they are
    }  // else a newer state is shown already
    this.announceMove(answer, kind, row, col, before);
    if (this.chancesOn && answer.changed.length && view.status === "IN_PROGRESS") this.loadChances();
    if (view.status !== "IN_PROGRESS") this.setChances(null);
  }

  /** The counters, face and status of a view whose cells are on the board already. @param {import("./types.js").AnsweredView} view */
  setHeader(view) {
    const { cells: _, ...header } = view;
    this.view = /** @type {View} */ ({ ...header, cells: [] });
    this.showBar(this.view);
  }

  /** @param {{top: number, left: number, rows: number, cols: number, height: number, width: number}} view */
  sameWindow(view) {
    const b = this.board;
    return view.top === b.top && view.left === b.left && view.height === b.height
      && view.width === b.width && view.rows === b.rows && view.cols === b.cols;
  }

  /**
   * A whole view from the server (a read, the live socket's first message): shown unless the
   * board already shows a newer state of the same window.
   * @param {View} view
   */
  takeView(view) {
    if (this.player) return;  // the replay keeps the board; closing it reads the game again
    const same = this.sameWindow(view);
    if (same && view.version < this.version) return;
    const behind = view.version < this.version;
    this.version = view.version;
    this.drawView(view);
    this.ahead = this.ahead.filter((frame) => frame.version > view.version);
    this.catchUp();
    if (behind) this.refresh();  // another window, read before the moves shown: read it again
  }

  /** Draw a view as it is (a replay's frames too). @param {View} view */
  drawView(view) {
    this.board.render(view);
    ready();
    if (view.elapsed > 0 || this.board.symbols.some((s) => s >= "0" && s <= "8")) this.started = true;
    this.setHeader(view);
  }

  /** The counters, the face, the status line and what follows a game's end. @param {View} view */
  showBar(view) {
    const won = view.status === "WON";
    setLed($("mines-left"), view.mines_left, t("Mines left: {n}", { n: view.mines_left }));
    this.timer = { base: view.elapsed, since: performance.now(), running: view.status === "IN_PROGRESS" && this.started };
    this.tick();
    this.setFace(null);
    const status = $("status");
    const wasOver = status.dataset.status === "WON" || status.dataset.status === "LOST";
    if (status.dataset.status !== view.status) status.dataset.status = view.status;
    if (this.player) return;
    // A watcher is told about the player ("Ann hit a mine"), not as if it were their game.
    const who = this.playerName || t("The player");
    const seconds = fixed(view.elapsed, 1);
    const text = won ? (this.token ? t("You won in {seconds} seconds!", { seconds }) : t("{who} won in {seconds} seconds!", { who, seconds }))
      : view.status === "LOST" ? (this.token ? t("Boom! You hit a mine. Press the face for a new game.") : t("{who} hit a mine. Game over.", { who }))
        : this.token ? t("Playing") : t("Watching");
    // Unchanged text is left alone: a new text node would lay the page out again after every move.
    if (status.textContent !== text) status.textContent = text;
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
    const label = status === "WON" ? t("New game (you won)") : status === "LOST" ? t("New game (you lost)") : t("New game");
    if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  }

  /** A button held on the board: the cells it would act on look pressed, the face says "oh". @param {Press | null} press */
  pressing(press) {
    const on = Boolean(press && this.playable());
    this.board.setPressed(on && press ? press.cell : null, Boolean(press && press.chord));
    this.setFace(on ? "oh" : null);
  }

  tick() {
    const seconds = this.timer.base + (this.timer.running ? (performance.now() - this.timer.since) / 1000 : 0);
    const whole = Math.floor(seconds);
    const led = $("timer");
    if (led.dataset.value !== String(whole)) setLed(led, whole, tn("Time: {n} second", "Time: {n} seconds", whole));
  }

  /** A game just ended: its figures from the server, the leaderboard of its board, and the
   * player's statistics. @param {View} view */
  async finished(view) {
    const id = this.id;
    if (!id || this.counted.has(id)) return;
    this.counted.add(id);
    try {
      const summary = /** @type {Summary} */ (await request("GET", `/api/games/${encodeURIComponent(id)}/summary`, undefined, this.token));
      if (id !== this.id) return;
      this.info = { rows: summary.rows, cols: summary.cols, mines: summary.mines, no_guess: summary.no_guess, preset: summary.preset };
      if (this.token) countGame(summary);
      this.showStats();
      const said = showResult($("result"), summary, !this.token);
      if (!this.token && !this.player) {
        this.playerName = summary.player;
        this.showBar(view);  // the status line now names the player
      }
      if (summary.preset) this.showLeaderboardOf(summary.preset, summary.no_guess);
      else this.loadLeaderboard();
      this.say(said);
    } catch (error) {
      this.showError(error);
      if (view.status === "WON") this.say(t("You won in {seconds} seconds!", { seconds: fixed(view.elapsed, 1) }));
    }
  }

  showStats() {
    if (!this.info) return;
    showStats(/** @type {HTMLTableElement} */ ($("stats")), $("stats-board"), boardKey(this.info));
  }

  /** The header's board choice, the statistics and the leaderboard follow the board shown (a
   * replay's from a link too). @param {BoardInfo} board */
  showBoardOf(board) {
    this.info = board;
    if (board.preset) selectOf("preset").value = board.preset;
    $("custom").hidden = true;  // the custom fields lie over the board: a board shown closes them
    this.showStats();
    if (board.preset) this.showLeaderboardOf(board.preset, board.no_guess);
  }

  /** The leaderboard follows the board being played. @param {string} preset @param {boolean} noGuess */
  showLeaderboardOf(preset, noGuess) {
    selectOf("board-preset").value = preset;
    inputOf("board-no-guess").checked = noGuess;
    this.loadLeaderboard();
  }

  async loadLeaderboard() {
    try {
      await showLeaderboard(/** @type {HTMLTableElement} */ ($("leaderboard")), selectOf("board-preset").value,
        inputOf("board-no-guess").checked, this.id, selectOf("board-period").value);
    } catch (error) {
      this.showError(error);
    }
  }

  // --- live updates --------------------------------------------------------------------

  /** Watch the game's window: the socket's first message is the window's view, then its moves. */
  watch() {
    if (!this.id) return;
    // A browser cannot give a WebSocket a header: a daily game's player's token goes in the query.
    const token = this.token ? `&token=${encodeURIComponent(this.token)}` : "";
    this.live.connect(`/api/games/${encodeURIComponent(this.id)}/live${windowQuery(this.box())}${token}`);
  }

  /** @param {any} data */
  onLive(data) {
    if (data.type === "view") {
      this.takeView(data.view);
    } else if (data.type === "move") {
      if (this.player || data.version <= this.version) return;  // shown already (our own, or in a view)
      this.ahead.push(data);
      this.catchUp();
    } else if (data.type === "refresh") {
      this.refresh();
    }
  }

  /** Apply the frames that follow on from what is shown; a gap no answer will fill is read whole. */
  catchUp() {
    this.ahead.sort((a, b) => a.version - b.version);
    while (this.ahead.length && this.ahead[0].version <= this.version) this.ahead.shift();
    while (this.ahead.length && this.ahead[0].version === this.version + 1) {
      const frame = /** @type {MoveFrame} */ (this.ahead.shift());
      if (!frame.changed_complete || !this.view) {
        this.ahead = [];
        this.refresh();
        return;
      }
      this.board.apply(frame.changed, frame.status);
      this.version = frame.version;
      if (/^[OC]/.test(frame.move)) this.started = true;
      this.setHeader({ ...this.view, status: frame.status, mines_left: frame.mines_left, elapsed: frame.elapsed, version: frame.version });
    }
    if (this.ahead.length && !this.pending) {
      this.ahead = [];
      this.refresh();
    }
  }

  connected() {
    if (this.unreachable) this.showError(null);  // a move refused while away: the server is back
    if (this.wasAway) this.say(t("Connected to the server again; the board is up to date."));
    this.wasAway = false;
    this.showLive("");
  }

  /** @param {number} seconds */
  disconnected(seconds) {
    if (!this.wasAway) this.say(t("The connection to the server is lost; trying again."));
    this.wasAway = true;
    this.showLive(t("Connection to the server lost: trying again in {seconds} s…", { seconds }));
  }

  /** @param {string} text */
  showLive(text) {
    const line = $("live");
    line.textContent = text;
    line.hidden = !text;
  }

  async refresh() {
    if (!this.id) return;
    const id = this.id;
    try {
      const { view } = /** @type {GameAnswer} */ (await request(
        "GET", `/api/games/${encodeURIComponent(id)}${windowQuery(this.box())}`, undefined, this.token));
      if (id !== this.id) return;
      this.takeView(view);
      if (this.chancesOn) this.loadChances();
    } catch (error) {
      this.showError(error);
    }
  }

  // --- question marks ------------------------------------------------------------------

  /** @param {boolean} on */
  setMarks(on) {
    this.marksOn = on;
    localStorage.setItem("mines:marks", on ? "on" : "off");
    if (!on) {
      this.board.setMarks([]);
      this.saveMarks();
    }
    this.say(on ? t("Question marks are on: a right click on a flag makes it a question mark.") : t("Question marks are off."));
  }

  /** @param {number} row @param {number} col @param {boolean} on */
  mark(row, col, on) {
    this.board.setMark(row, col, on);
    this.saveMarks();
    if (on) this.say(tn("Question mark on {cell}; {n} mine left.", "Question mark on {cell}; {n} mines left.", this.view ? this.view.mines_left : 0, { cell: cellName(row, col) }));
  }

  /** @returns {[number, number][]} */
  loadMarks() {
    try {
      const marks = JSON.parse(localStorage.getItem(`mines:marks:${this.id}`) || "[]");
      return Array.isArray(marks) ? marks : [];
    } catch {
      return [];
    }
  }

  saveMarks() {
    if (!this.id) return;
    const marks = this.board.marks();
    if (marks.length) localStorage.setItem(`mines:marks:${this.id}`, JSON.stringify(marks));
    else localStorage.removeItem(`mines:marks:${this.id}`);
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
      this.frame.goTo(row, col);
      return;
    }
    b.setCursor(row, col);
    this.describeCell();
  }

  /** @param {number} top @param {number} left */
  setWindow(top, left) {
    const b = this.board;
    const t = Math.max(0, Math.min(b.rows - b.height, top));
    const l = Math.max(0, Math.min(b.cols - b.width, left));
    const { top: now, left: then } = this.wanted ?? b;
    if (t === now && l === then) return;
    this.wanted = { top: t, left: l };
    // The live socket follows the window: its first message is the new window's view.
    if (!this.player) this.watch();
  }

  /** @param {"reveal" | "flag"} mode */
  setMode(mode) {
    this.mode = mode;
    showMode($("mode"), mode);
    this.say(mode === "flag" ? t("A tap now flags; a long press reveals.") : t("A tap now reveals; a long press flags."));
  }

  // --- practice: chances and hints -----------------------------------------------------

  /**
   * Before the first help in a game that could rank: say that help takes it off the
   * leaderboard, and ask. Resolves true when the player goes on.
   * @param {string} what  "A hint" or "Mine chances"
   * @returns {Promise<boolean>}
   */
  confirmHelp(what) {
    if (!this.ranks) return Promise.resolve(true);
    const dialog = /** @type {HTMLDialogElement} */ ($("help-warning"));
    $("help-what").textContent = what;
    dialog.returnValue = "";
    dialog.showModal();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "help"), { once: true });
    });
  }

  /** The server's word that this game no longer ranks. @param {{ranks?: boolean}} answer */
  helped(answer) {
    if (this.ranks && answer.ranks === false) {
      this.ranks = false;
      this.say(t("This game no longer ranks: you had help."));
      $("cell-info").textContent = t("This game no longer ranks: you had help. Its time will not enter the leaderboard.");
    }
  }

  async toggleChances() {
    if (inputOf("analysis").checked && !this.chancesOn && !(await this.confirmHelp(t("Mine chances")))) {
      inputOf("analysis").checked = false;
      return;
    }
    this.chancesOn = inputOf("analysis").checked;
    if (this.chancesOn) this.loadChances();
    else this.setChances(null);
  }

  async loadChances() {
    if (!this.id || !this.token || !this.view || this.view.status !== "IN_PROGRESS") {
      if (!this.token) this.say(t("Only the game's player can ask for chances."));
      return;
    }
    const id = this.id;
    try {
      const chances = /** @type {Chances} */ (await request(
        "POST", `/api/games/${encodeURIComponent(id)}/analysis${windowQuery(this.box())}`, undefined, this.token));
      if (id !== this.id) return;
      this.helped(chances);
      if (this.chancesOn) this.setChances(chances.cells);
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
    if (!(await this.confirmHelp(t("A hint")))) return;
    const id = /** @type {string} */ (this.id);
    try {
      const hint = /** @type {Hint} */ (await request("POST", `/api/games/${encodeURIComponent(id)}/hint`, undefined, this.token));
      if (id !== this.id) return;
      const b = this.board;
      if (b.index(hint.row, hint.col) < 0) this.frame.goTo(hint.row, hint.col);
      b.setCursor(hint.row, hint.col);
      b.setHint([hint.row, hint.col]);
      $("board").focus();
      // The server's reason names cells from 1 too, as every word on this page does.
      const text = t("Hint: {cell}. {reason}", { cell: cellName(hint.row, hint.col), reason: hint.reason });
      this.say(text);
      $("cell-info").textContent = text;
      this.helped(hint);
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
    if (!chance && !this.chancesOn) return;
    $("cell-info").textContent = sentence(!chance ? "" : cell.dataset.certain === "safe" ? t("{cell}: {chance} chance of a mine (certainly safe).", { cell: cellName(row, col), chance })
      : cell.dataset.certain ? t("{cell}: {chance} chance of a mine (certainly a mine).", { cell: cellName(row, col), chance })
        : t("{cell}: {chance} chance of a mine.", { cell: cellName(row, col), chance }));
  }

  // --- replay --------------------------------------------------------------------------

  /** @param {string} id */
  async openReplay(id) {
    try {
      const path = `/api/games/${encodeURIComponent(id)}`;
      const token = gameToken(id);
      const game = /** @type {GameAnswer} */ (await request("GET", `${path}?top=0&left=0&height=1&width=1`, undefined, token));
      const first = game.view;
      const box = { top: 0, left: 0, height: Math.min(first.rows, WINDOW_MAX.rows), width: Math.min(first.cols, WINDOW_MAX.cols) };
      this.showBoardOf(game.board);
      const replay = /** @type {Replay} */ (await request("GET", `${path}/replay${windowQuery(box)}`, undefined, token));
      if (this.id !== id) {
        this.id = id;
        this.token = token;
        this.live.close();  // a finished game: nothing to watch while it replays
      }
      this.player?.pause();
      const scrub = inputOf("replay-scrub");
      scrub.max = String(replay.frames.length);
      this.player = new Player(replay, (view) => this.drawView(view), (step) => {
        scrub.value = String(step);
        const total = replay.frames.length;
        $("replay-step").textContent = t("move {step} of {total}", { step, total });
        $("status").textContent = t("Replay: move {step} of {total}", { step, total });
        const play = $("replay-play");
        const playing = Boolean(this.player && this.player.playing);
        showPlaying(play, playing);
      });
      this.player.speed = Number(selectOf("replay-speed").value);
      const link = /** @type {HTMLAnchorElement} */ ($("replay-link"));
      link.href = `${location.origin}/#replay=${encodeURIComponent(id)}`;
      /** @type {HTMLAnchorElement} */ ($("replay-review")).href = reviewPath(id);
      $("replay").hidden = false;
      $("replay-open").hidden = true;
      history.replaceState(null, "", `#replay=${encodeURIComponent(id)}`);
      this.board.rows = -1;
      this.player.seek(0);
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
    this.version = -1;
    this.refresh();
    this.watch();
  }

  async copyLink() {
    const href = /** @type {HTMLAnchorElement} */ ($("replay-link")).href;
    try {
      await navigator.clipboard.writeText(href);
      this.say(t("The replay's link is copied."));
    } catch {
      this.say(t("Copy this link: {href}", { href }));
    }
  }

  // --- words ---------------------------------------------------------------------------

  /** @param {unknown} error */
  words(error) {
    return error instanceof ApiError ? sayError(error) : t("Something went wrong in this page. Please reload it.");
  }

  /** @param {unknown} error */
  showError(error) {
    if (error) ready();
    this.unreachable = error instanceof ApiError && error.code === "network";
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
    const where = cellName(row, col);
    const view = answer.view;
    if (view.status === "LOST" && before === "IN_PROGRESS") {
      this.say(t("Boom! A mine at {cell}. Game over.", { cell: where }));
    } else if (view.status === "WON") {
      return;  // `finished` says it
    } else if (kind === "flag") {
      const flagged = this.board.symbolAt(row, col) === "F";
      this.say(flagged ? tn("Flag placed on {cell}; {n} mine left.", "Flag placed on {cell}; {n} mines left.", view.mines_left, { cell: where })
        : tn("Flag removed from {cell}; {n} mine left.", "Flag removed from {cell}; {n} mines left.", view.mines_left, { cell: where }));
    } else if (!answer.changed.length) {
      this.say(kind === "chord" ? t("Nothing to chord at {cell}.", { cell: where }) : t("Nothing to reveal at {cell}.", { cell: where }));
    } else {
      const n = answer.changed.length;
      // A cell's label is its name, a comma and what it shows (js/board.js).
      this.say(n === 1 ? `${where}: ${this.board.cells[this.board.index(row, col)]?.getAttribute("aria-label")?.slice(where.length + 2)}.` : tn("{n} cell revealed.", "{n} cells revealed.", n));
    }
  }
}

async function main() {
  try {
    const meta = /** @type {Meta} */ (await request("GET", "/api/meta"));
    new App(meta).init();
  } catch (error) {
    ready();
    $("status").textContent = error instanceof ApiError ? sayError(error) : t("The page could not start.");
  }
}

main();
