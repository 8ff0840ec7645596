// The race page: a lobby, then the room's board and scores, live; the server decides everything.

import { ApiError, request } from "./api.js";
import { Board } from "./board.js";
import { Frame } from "./frame.js";
import { $, inputOf, selectOf } from "./dom.js";
import { limitNames } from "./form.js";
import { listen, showMode } from "./input.js";
import { buildLed, setLed } from "./leds.js";
import { LiveSocket } from "./live.js";
import { Player, bindControls, showPlaying } from "./replay.js";
import { WORDS, presetName, sayError, sayLobbyRoom, showRefusal } from "./words.js";
import { formatNumber, t, tn } from "./i18n.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Meta} Meta */
/**
 * @typedef {object} RacePlayer
 * @property {number} id
 * @property {string} name
 * @property {number} score
 * @property {boolean} out
 * @property {number} frozen_for
 * @property {number} progress
 */
/**
 * @typedef {object} Room  A race room as the server shows it to this player (or a watcher).
 * @property {string} id
 * @property {"lobby" | "racing" | "over"} state
 * @property {"shared" | "duel"} mode
 * @property {"out" | "freeze"} on_mine
 * @property {number} seq
 * @property {number | null} starts_in
 * @property {number | null} you
 * @property {number | null} winner
 * @property {RacePlayer[]} players
 * @property {View} view
 * @property {string[]} openers
 */
/**
 * @typedef {object} RaceEvent
 * @property {number} seq
 * @property {"joined" | "started" | "opened" | "mine" | "over" | "rematch"} kind
 * @property {number | null} player
 * @property {[number, number, string, number][]} cells
 * @property {number[]} scores
 */
/** @typedef {{player: number, token: string, room: Room}} Joined */
/**
 * @typedef {import("./types.js").Frame & {openers: number[], scores: number[]}} RaceFrame
 * A move a watcher saw: a game's frame, with who opened each changed cell (-1: nobody) and
 * the scores after it.
 */
/** @typedef {Omit<import("./types.js").Replay, "frames"> & {frames: RaceFrame[]}} RaceReplay */
/**
 * @typedef {object} LobbyRoom  A public room as the lobby lists it.
 * @property {string} id
 * @property {string} name
 * @property {{preset: string | null, rows: number, cols: number, mines: number, rule: string}} board
 * @property {string} mode
 * @property {string[]} players
 * @property {number} max_players
 */

const LETTERS = "ABCDEFGH";
/** Sentences for the race's own refusals, before the general ones of words.js. */
const RACE_WORDS = {
  game_not_found: t("There is no race at this address (any more). Create a new one."),
  join_refused: t("This race is full or has started: you can watch it."),
  forbidden: t("This browser is not a player of this race: you can watch it."),
  not_authenticated: t("Join the race to play; until then you are watching."),
};


/** The room ID in the address (/race/ID), or null on the lobby page. */
function roomInAddress() {
  const match = location.pathname.match(/^\/race\/([0-9a-f]+)$/);
  return match ? match[1] : null;
}

/** Where this browser keeps its token for a room, so a reload rejoins. @param {string} id */
const tokenKey = (id) => `mines:race:${id}`;

class RaceApp {
  constructor() {
    this.board = new Board($("board"));
    this.frame = new Frame(this.board, {
      viewport: $("viewport"), reserve: 56, pan: $("pan"), label: $("window-info"),
      minimap: /** @type {HTMLCanvasElement} */ ($("minimap")),
      zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), zoomFit: $("zoom-fit"),
    });
    /** @type {string | null} */
    this.id = roomInAddress();
    /** @type {string | null} */
    this.token = this.id ? localStorage.getItem(tokenKey(this.id)) : null;
    /** @type {Room | null} */
    this.room = null;
    this.wasAway = false;
    this.live = new LiveSocket({
      message: (data) => {
        if (data.type === "room") this.show(data.room);
        else if (data.type === "event") this.onEvent(data.event);
        else this.refresh();
      },
      back: () => {
        if (this.wasAway) this.say(t("Connected to the server again; the race is up to date."));
        this.wasAway = false;
        this.showLive("");
      },
      away: (seconds) => {
        if (!this.wasAway) this.say(t("The connection to the server is lost; trying again."));
        this.wasAway = true;
        this.showLive(t("Connection to the server lost: trying again in {seconds} s…", { seconds }));
      },
      gone: () => this.showLive(""),
    });
    /** @type {"reveal" | "flag"} */
    this.mode = "reveal";
    /** @type {Promise<void>} moves go one at a time, in order */
    this.queue = Promise.resolve();
    /** @type {number | undefined} */
    this.ticker = undefined;
    /** @type {Player | null} the replay being watched, which the room's updates leave alone */
    this.player = null;
    /** @type {LiveSocket | null} the lobby's public rooms, on the page without a room */
    this.lobby = null;
  }

  /** @param {Meta} meta */
  async init(meta) {
    document.body.classList.add("ready");  // shown at once: the style sheet's first-board wait is the game page's
    buildLed($("mines-left"), 3);
    buildLed($("your-score"), 3);
    limitNames(meta, ["create-name", "join-name", "race-room-name"]);
    $("race-public-label").textContent = WORDS.publicRoom;
    $("race-room-name-label").textContent = WORDS.roomName;
    $("race-room-name-help").textContent = WORDS.roomNameHelp;
    for (const preset of meta.presets) {
      const option = document.createElement("option");
      option.value = preset.name;
      option.textContent = tn("{board} {rows}×{cols}, {n} mine", "{board} {rows}×{cols}, {n} mines", preset.mines, { board: presetName(preset.name), rows: preset.rows, cols: preset.cols });
      selectOf("race-preset").append(option);
    }
    document.documentElement.dataset.theme = localStorage.getItem("mines:theme") || "auto";
    const remembered = localStorage.getItem("mines:player") || "";
    inputOf("create-name").value = remembered;
    inputOf("join-name").value = remembered;
    $("create-form").addEventListener("submit", (event) => { event.preventDefault(); this.create(); });
    $("join-form").addEventListener("submit", (event) => { event.preventDefault(); this.join(); });
    $("copy-link").addEventListener("click", () => this.copyLink());
    $("start-race").addEventListener("click", () => this.start());
    $("rematch").addEventListener("click", () => this.rematch());
    $("replay-open").addEventListener("click", () => this.openReplay());
    $("replay-close").addEventListener("click", () => this.closeReplay());
    bindControls(() => this.player);
    $("mode").addEventListener("click", () => this.setMode(this.mode === "reveal" ? "flag" : "reveal"));
    listen($("board"), {
      ...this.frame.gestures(),
      primary: (r, c) => this.move(/^[1-8]$/.test(this.board.symbolAt(r, c)) ? "chord" : "reveal", r, c),
      flag: (r, c) => this.move("flag", r, c),
      chord: (r, c) => this.move("chord", r, c),
      moveCursor: (dr, dc) => this.moveCursor(dr, dc),
      pan: (dr, dc) => this.frame.panPage(dr, dc),
      newGame: () => {},
      inspect: (r, c) => this.board.setCursor(r, c),
      pressing: () => {},
      mode: () => this.mode,
      cursor: () => this.board.cursor,
    });
    if (this.id === null) {
      $("create").hidden = false;
      this.openLobby();
      inputOf("create-name").focus();
      return;
    }
    await this.enter();
  }

  // --- the lobby ---------------------------------------------------------------------------

  /** The public rooms, kept up to date by the server's lobby socket (no polling). */
  openLobby() {
    for (const [id, text] of /** @type {[string, string][]} */ ([
      ["lobby-title", WORDS.lobbyTitle], ["lobby-rooms-title", WORDS.lobbyRooms],
      ["lobby-live-title", WORDS.lobbyLive], ["lobby-rooms-empty", WORDS.lobbyNoRooms],
      ["lobby-live-empty", WORDS.lobbyNoLive],
    ])) $(id).textContent = text;
    $("lobby").hidden = false;
    this.lobby = new LiveSocket({
      message: (data) => { if (data.type === "lobby") this.showLobby(data.rooms, data.live); },
      back: () => {},
      away: () => {},
    });
    this.lobby.connect("/api/races/live");
  }

  /** @param {LobbyRoom[]} rooms  to join @param {LobbyRoom[]} live  to watch */
  showLobby(rooms, live) {
    for (const [key, list, link] of /** @type {const} */ ([["rooms", rooms, WORDS.join], ["live", live, WORDS.watch]])) {
      $(`lobby-${key}`).replaceChildren(...list.map((room) => {
        const item = document.createElement("li");
        item.textContent = sayLobbyRoom(room);
        const go = document.createElement("a");
        go.href = `/race/${encodeURIComponent(room.id)}`;
        go.textContent = link;
        item.append(go);
        return item;
      }));
      $(`lobby-${key}-empty`).hidden = list.length > 0;
    }
  }

  async create() {
    const name = inputOf("create-name").value.trim();
    const seed = inputOf("race-seed").value.trim();
    /** @type {Record<string, unknown>} */
    const body = {
      player: name,
      preset: selectOf("race-preset").value,
      mode: selectOf("race-mode").value,
      on_mine: selectOf("race-mine").value,
      no_guess: inputOf("race-no-guess").checked,
    };
    if (inputOf("race-public").checked) {
      body.public = true;
      const title = inputOf("race-room-name").value.trim();
      if (title) body.name = title;
    }
    if (seed) body.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
    try {
      /** @type {Joined} */
      const joined = await request("POST", "/api/races", body);
      localStorage.setItem("mines:player", name);
      this.keep(joined);
      history.pushState(null, "", `/race/${joined.room.id}`);
      $("create").hidden = true;
      $("lobby").hidden = true;
      this.lobby?.close();
      await this.enter();
    } catch (error) {
      this.fail(error);
    }
  }

  async join() {
    if (!this.id) return;
    const name = inputOf("join-name").value.trim();
    try {
      /** @type {Joined} */
      const joined = await request("POST", `/api/races/${this.id}/join`, { player: name });
      localStorage.setItem("mines:player", name);
      this.keep(joined);
      $("join").hidden = true;
      this.show(joined.room);
      this.connect();
    } catch (error) {
      this.fail(error);
    }
  }

  /** @param {Joined} joined */
  keep(joined) {
    this.id = joined.room.id;
    this.token = joined.token;
    localStorage.setItem(tokenKey(this.id), joined.token);
  }

  async start() {
    try {
      this.show(await request("POST", `/api/races/${this.id}/start`, undefined, this.token));
    } catch (error) {
      this.fail(error);
    }
  }

  async rematch() {
    try {
      this.show(await request("POST", `/api/races/${this.id}/rematch`, undefined, this.token));
    } catch (error) {
      this.fail(error);
    }
  }

  copyLink() {
    const field = inputOf("share-link");
    field.select();
    navigator.clipboard?.writeText(field.value).then(
      () => this.say(t("The link is copied.")),
      () => this.say(t("Select the link and copy it.")),
    );
  }

  // --- the room ----------------------------------------------------------------------------

  async enter() {
    try {
      this.show(await this.read());
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403) && this.token) {
        localStorage.removeItem(tokenKey(this.id || ""));  // a key from an older room
        this.token = null;
        this.show(await this.read());
      } else {
        this.fail(error);
        return;
      }
    }
    this.connect();
  }

  /** @returns {Promise<Room>} */
  read() {
    return request("GET", `/api/races/${this.id}`, undefined, this.token);
  }

  /** Watch the room: the socket's first message is the whole room, then its events; a lost
   * socket comes back with backoff and that first message resynchronises the page. */
  connect() {
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    this.live.connect(`/api/races/${this.id}/live${query}`);
  }

  async refresh() {
    try {
      this.show(await this.read());
    } catch (error) {
      this.fail(error);
    }
  }

  /** An event of the room: the cells it opened, or a change that needs the room read again. @param {RaceEvent} event */
  onEvent(event) {
    if (this.player) return;  // the replay keeps the board; closing it reads the room again
    const room = this.room;
    if (!room || event.seq <= room.seq) return;  // already in what was shown
    if (event.seq !== room.seq + 1 || event.kind !== "opened") {
      this.refresh();
      return;
    }
    room.seq = event.seq;
    this.board.apply(event.cells.map(([r, c, symbol]) => [r, c, symbol]), room.view.status);
    for (const [r, c, , who] of event.cells) this.mark(r, c, who);
    event.scores.forEach((score, i) => { if (room.players[i]) room.players[i].score = score; });
    this.showPlayers(room);
  }

  /** Show the whole room. @param {Room} room */
  show(room) {
    const before = this.room;
    this.room = room;
    $("room").hidden = false;
    const playing = room.you !== null;
    $("join").hidden = playing || room.state !== "lobby";
    $("share").hidden = room.state !== "lobby";
    inputOf("share-link").value = `${location.origin}/race/${room.id}`;
    $("start-race").hidden = !(room.state === "lobby" && room.you === 0);
    $("rematch").hidden = !(room.state === "over" && room.you === 0);
    $("replay-open").hidden = room.state !== "over" || this.player !== null;
    // Who hit a mine since the room was last shown (the mine's event makes it read again).
    room.players.forEach((player, i) => {
      const was = before?.id === room.id ? before.players[i] : undefined;
      if (was && ((player.out && !was.out) || (player.frozen_for > 0 && !(was.frozen_for > 0)))) this.sayMine(i);
    });
    if (this.player) return;  // the replay keeps the board until it is closed
    this.board.render(room.view);
    room.openers.forEach((line, r) => {
      for (let c = 0; c < line.length; c++) this.mark(r, c, line[c] === "." ? -1 : line[c] === "*" ? -2 : Number(line[c]));
    });
    setLed($("mines-left"), room.view.mines_left, t("Mines left: {n}", { n: room.view.mines_left }));
    this.showPlayers(room);
    this.showStatus(room);
    if (before?.state === "lobby" && room.state === "racing" && playing) $("board").focus();
    if (room.state === "over" && before?.state !== "over") this.say($("result").textContent || "");
  }

  // --- the replay: the server's frames, played by the single game's player --------------

  async openReplay() {
    if (!this.id) return;
    try {
      const replay = /** @type {RaceReplay} */ (await request("GET", `/api/races/${this.id}/replay`));
      this.player?.pause();
      const scrub = inputOf("replay-scrub");
      scrub.max = String(replay.frames.length);
      this.player = new Player(replay, (view) => this.board.render(view), (step) => this.showStep(replay, step));
      this.player.speed = Number(selectOf("replay-speed").value);
      $("replay").hidden = false;
      $("replay-open").hidden = true;
      this.player.seek(0);
      this.player.play();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Who opened each cell and the scores after `step` frames, as the server's frames say.
   * @param {RaceReplay} replay @param {number} step */
  showStep(replay, step) {
    const owners = new Map();
    /** @type {number[]} */
    let scores = [];
    for (const frame of replay.frames.slice(0, step)) {
      frame.changed.forEach(([r, c], i) => owners.set(`${r},${c}`, frame.openers[i]));
      scores = frame.scores;
    }
    for (let r = 0; r < replay.height; r++) {
      for (let c = 0; c < replay.width; c++) this.mark(r, c, owners.get(`${r},${c}`) ?? -1);
    }
    const room = this.room;
    if (room) this.showPlayers({ ...room, players: room.players.map((p, i) => ({ ...p, score: scores[i] ?? 0 })) });
    inputOf("replay-scrub").value = String(step);
    const total = replay.frames.length;
    $("replay-step").textContent = t("move {step} of {total}", { step, total });
    const playing = Boolean(this.player?.playing);
    const play = $("replay-play");
    showPlaying(play, playing);
  }

  closeReplay() {
    this.player?.pause();
    this.player = null;
    $("replay").hidden = true;
    this.refresh();
  }

  /** @param {number} row @param {number} col @param {number} who  -1: nobody, -2: the room */
  mark(row, col, who) {
    const cell = this.board.cells[this.board.index(row, col)];
    if (!cell) return;
    for (const name of [...cell.classList]) if (name.startsWith("owner-")) cell.classList.remove(name);
    delete cell.dataset.mark;
    const player = who >= 0 ? this.room?.players[who] : undefined;
    if (!player) return;
    cell.classList.add(`owner-${who}`);
    cell.dataset.mark = LETTERS[who];
    const label = cell.getAttribute("aria-label") || "";
    const opened = t(", opened by {name}", { name: player.name });
    if (!label.endsWith(opened)) cell.setAttribute("aria-label", `${label}${opened}`);
  }

  /** A player hit a mine: said to them as "you", to everyone else by the player's name. @param {number} who */
  sayMine(who) {
    const room = this.room;
    const player = room?.players[who];
    if (!room || !player) return;
    const out = room.on_mine !== "freeze";
    const text = who === room.you
      ? (out ? t("You hit a mine: you are out of the race.") : t("You hit a mine: 10 points off, and you are frozen for 5 s."))
      : out ? t("{name} hit a mine and is out of the race.", { name: player.name }) : t("{name} hit a mine.", { name: player.name });
    $("race-said").textContent = text;
    this.say(text);
  }

  /** @param {Room} room */
  showPlayers(room) {
    const rows = room.players.map((player) => {
      const row = document.createElement("tr");
      if (player.id === room.you) row.className = "you";
      const name = document.createElement("td");
      const swatch = document.createElement("span");
      swatch.className = `swatch owner-${player.id}`;
      swatch.textContent = LETTERS[player.id];
      swatch.setAttribute("aria-hidden", "true");
      name.append(swatch, player.name + (player.id === room.you ? t(" (you)") : ""));
      const score = document.createElement("td");
      score.textContent = room.mode === "duel" ? formatNumber(player.progress, { style: "percent" }) : formatNumber(player.score);
      const state = document.createElement("td");
      // After the race each player's final state: the winner, out (a mine), or finished.
      state.textContent = room.winner === player.id ? t("winner") : player.out ? t("out")
        : room.state === "over" ? t("finished")
          : player.frozen_for > 0 ? t("frozen {seconds} s", { seconds: Math.round(player.frozen_for) })
            : room.state === "racing" ? t("racing") : t("ready");
      row.append(name, score, state);
      return row;
    });
    $("players").querySelector("tbody")?.replaceChildren(...rows);
    const you = room.you === null ? null : room.players[room.you];
    setLed($("your-score"), you ? you.score : 0, t("Your score: {n}", { n: you ? you.score : 0 }));
  }

  /** @param {Room} room */
  showStatus(room) {
    window.clearTimeout(this.ticker);
    const result = $("result");
    result.hidden = room.state !== "over";
    let text = "";
    if (room.state === "lobby") {
      const count = room.players.length;
      text = `${t("Waiting for players: {n} in the room.", { n: count })} ` + (room.you === 0 ? t("Start the race when everyone is in.")
        : room.you === null ? t("Join to play.") : t("The host starts the race."));
    } else if (room.state === "racing" && room.starts_in && room.starts_in > 0) {
      text = t("The race starts in {seconds} s…", { seconds: Math.ceil(room.starts_in) });
      this.ticker = window.setTimeout(() => this.refresh(), Math.min(1000, room.starts_in * 1000));
    } else if (room.state === "racing") {
      text = room.you === null ? t("The race is on: you are watching.") : t("Go! Open the cells before the others do.");
    } else {
      const winner = room.winner === null ? null : room.players[room.winner];
      result.textContent = !winner ? t("The race is over.") : room.mode === "duel" ? t("{name} wins.", { name: winner.name })
        : tn("{name} wins with {n} point.", "{name} wins with {n} points.", winner.score, { name: winner.name });
      text = t("The race is over.");
    }
    $("room-status").textContent = text;
  }

  // --- moves -------------------------------------------------------------------------------

  /** @param {"reveal" | "flag" | "chord"} kind @param {number} row @param {number} col */
  move(kind, row, col) {
    if (!this.token || !this.room || this.room.state !== "racing") return;
    this.board.setCursor(row, col);
    this.queue = this.queue.then(async () => {
      try {
        this.show(await request("POST", `/api/races/${this.id}/${kind}`, { row, col }, this.token));
        $("error").textContent = "";
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /** @param {number} dr @param {number} dc */
  moveCursor(dr, dc) {
    const view = this.room?.view;
    if (!view) return;
    const [row, col] = this.board.cursor;
    this.board.setCursor(Math.min(Math.max(row + dr, 0), view.rows - 1), Math.min(Math.max(col + dc, 0), view.cols - 1));
  }

  /** @param {"reveal" | "flag"} mode */
  setMode(mode) {
    this.mode = mode;
    showMode($("mode"), mode);
  }

  /** @param {string} text */
  showLive(text) {
    const line = $("live");
    line.textContent = text;
    line.hidden = !text;
  }

  /** @param {string} text */
  say(text) {
    $("announce").textContent = text;
  }

  /** @param {unknown} error */
  fail(error) {
    if (error instanceof ApiError) {
      /** @type {Record<string, string>} */
      const words = RACE_WORDS;
      const said = error.code === "name_taken" && /sign in/.test(error.detail)
        ? t("That name is an account's: sign in to that account on the game page to race under it, or choose another name.")
        : words[error.code] || sayError(error);
      showRefusal($("error"), error, said);
    } else {
      $("error").textContent = String(error);
    }
  }
}

request("GET", "/api/meta").then(
  (meta) => new RaceApp().init(/** @type {Meta} */ (meta)),
  (error) => { $("error").textContent = t("The server cannot be reached: {error}", { error: String(error) }); },
);
