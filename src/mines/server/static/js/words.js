// Errors in a player's words: every code of the API (docs/server.md, "Error codes") has a sentence.

/** @typedef {import("./api.js").ApiError} ApiError */

/** What each request field is, for a sentence. */
const FIELDS = {
  rows: "The number of rows", cols: "The number of columns", mines: "The number of mines",
  seed: "The seed", player: "The name", first_click: "The first-click rule", preset: "The board",
  no_guess: "The no-guess choice", row: "The cell's row", col: "The cell's column",
  top: "The view's first row", left: "The view's first column", height: "The view's height",
  width: "The view's width",
};

/** @type {Record<string, string>} */
export const SENTENCES = {
  validation_error: "Some of the game's settings are not valid.",
  invalid_request: "The server cannot do that with these settings.",
  invalid_board: "That board cannot be made: it needs at least one row and one column, and fewer mines than cells.",
  illegal_move: "That move is not possible right now.",
  invalid_move: "That move could not be read.",
  invalid_view: "That part of the board is too big to show at once.",
  mines_not_placed: "That is known only once the first cell has been opened.",
  join_refused: "That race cannot be joined right now.",
  lobby_refused: "That race cannot be started (or restarted) right now.",
  game_over: "This game is over. Press the face or New game to play again.",
  cell_flagged: "That cell has a flag on it. Remove the flag first (right click, long press or F).",
  game_in_progress: "The replay opens once the game is over.",
  game_not_found: "This game is not on the server (any more). Start a new one.",
  room_not_found: "There is no race at this address (any more). Create a new one.",
  not_authenticated: "This game was started in another browser: you can watch it here, not play it.",
  forbidden: "This browser's key does not fit this game: you can watch it here, not play it.",
  storage_unavailable: "The server could not save that just now, so nothing changed. Please try again in a moment.",
  body_too_large: "That request was too large for the server.",
  rate_limited: "That was a lot of requests very quickly. Wait a moment, then go on.",
  server_full: "The server is full right now. Please try again in a minute.",
  no_guess_too_large: "A no-guess board that big cannot be made here. Choose a smaller board or fewer mines, or turn off “No guessing needed”.",
  no_guess_timeout: "Making that no-guess board took too long. Try again, or choose fewer mines.",
  analysis_too_large: "Mine chances are worked out only for boards up to the size shown in the message; this board is bigger.",
  invalid_name: "That name cannot be used: it is empty, hidden, too long, or mixes alphabets the way look-alike names do.",
  name_taken: "That name is taken, or looks just like one that is. Choose another.",
  already_imported: "This account already has a browser's statistics: an account takes them only once, so these stay in this browser.",
  sign_in_failed: "That name and password do not match an account.",
  not_signed_in: "You are not signed in.",
  wrong_password: "That is not your current password; nothing was changed.",
  account_suspended: "This account is suspended by the server's operators.",
  address_blocked: "Requests from your address are refused by this server's operators.",
  player_not_found: "No player has that name.",
  daily_not_over: "This is a game on today's daily board: only its player can see it until the day is over (midnight UTC), so that nobody learns the board before playing it.",
  cross_site: "That came from another site, so it was refused. Use this page itself.",
  review_too_large: "This game is too big to review exactly here.",
  worker_died: "The server stopped while it was working on that. Please try again.",
  not_found: "That address does not exist on this server.",
  method_not_allowed: "The server does not take that kind of request there.",
  unsupported_media_type: "The server could not read that request's format.",
  internal_error: "Something went wrong on the server. Please try again; if it keeps happening, tell whoever runs it.",
  network: "The server cannot be reached. Check the connection, then try again.",
  server_error: "Something went wrong on the server. Please try again.",
};

const FALLBACK = "Something went wrong. Please try again.";
/** Refusals whose server sentence says what to change (which rule a name broke): shown as is. */
const SERVER_SAYS = new Set(["invalid_name"]);

/** A server sentence, started with a capital and ended with a full stop. @param {string} text */
function sentence(text) {
  const trimmed = text.trim();
  if (!trimmed) return "";
  return `${trimmed[0].toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? "" : "."}`;
}

/** How long is left, in words. @param {number} seconds */
export function sayWait(seconds) {
  if (seconds >= 120) return `${Math.ceil(seconds / 60)} minutes`;
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

/**
 * Show a refusal in an element; a rate limit's counts down from the server's Retry-After
 * until it is over (then it says so). Returns a function that stops the count.
 * @param {HTMLElement} element @param {ApiError} error @param {string} [text]  the sentence, if not sayError's
 */
export function showRefusal(element, error, text) {
  const owner = /** @type {HTMLElement & {stopCount?: () => void}} */ (element);
  owner.stopCount?.();
  owner.stopCount = undefined;
  if (error.code !== "rate_limited" || !error.retryAfter) {
    element.textContent = text ?? sayError(error);
    return;
  }
  const until = Date.now() + error.retryAfter * 1000;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      element.textContent = "You can try again now.";
      window.clearInterval(timer);
      owner.stopCount = undefined;
      return;
    }
    element.textContent = `Too many tries in a short time: wait ${sayWait(left)}, then try again.`;
  };
  const timer = window.setInterval(tick, 1000);
  owner.stopCount = () => window.clearInterval(timer);
  tick();
}

/**
 * The sentence for an error answer: its code's sentence, and for a validation error the fields
 * it names.
 * @param {ApiError} error
 */
export function sayError(error) {
  const said = SENTENCES[error.code];
  if (!said) return FALLBACK;
  if (SERVER_SAYS.has(error.code) && error.detail) return sentence(error.detail);
  if (error.code === "rate_limited" && error.retryAfter) return `That was a lot of requests very quickly. Wait ${sayWait(error.retryAfter)}, then go on.`;
  if (error.code !== "validation_error" || !error.errors.length) return said;
  const names = error.errors
    .map((item) => FIELDS[/** @type {keyof typeof FIELDS} */ (lastPart(item.field))])
    .filter(Boolean);
  if (!names.length) return said;
  return `${unique(names).join(", ")} ${names.length > 1 ? "are" : "is"} not valid.`;
}

/** `body.rows` -> `rows`. @param {string} field */
function lastPart(field) {
  const parts = String(field).split(".");
  return parts[parts.length - 1];
}

/** @param {string[]} items */
function unique(items) {
  return [...new Set(items)];
}

/** Whether a code has its own sentence (the tests check every documented code). @param {string} code */
export function hasSentence(code) {
  return Object.hasOwn(SENTENCES, code);
}

// --- the pages' words for a player's history, no-flag bests and the race lobby (issue 48) ---

/** Labels of the profile's history and the race lobby, in one place for the translations. */
export const WORDS = {
  historyTitle: "Games",
  historyBoard: "Board",
  historyResult: "Result",
  allBoards: "All boards",
  customBoards: "Custom boards",
  allResults: "All results",
  won: "Won",
  lost: "Lost",
  noFlagWins: "No-flag wins",
  moreGames: "More games",
  noGames: "No finished games match.",
  bestNoFlagsTitle: "Best no-flag times",
  boardHead: "Board",
  classicHead: "Classic",
  noGuessHead: "No guessing",
  replay: "Replay",
  review: "Review",
  lobbyTitle: "Public races",
  lobbyRooms: "Waiting for players",
  lobbyLive: "Racing now: watch",
  lobbyNoRooms: "No public room is waiting for players right now.",
  lobbyNoLive: "No public race is being played right now.",
  join: "Join",
  watch: "Watch",
  publicRoom: "List this room in the lobby, for anyone to join or watch",
  roomName: "Room name in the lobby",
  roomNameHelp: "Shown to everyone: an account's name rule (one script). Your name when empty.",
};

/** A preset's name as a title. @param {string} name */
export const sayPreset = (name) => `${name[0].toUpperCase()}${name.slice(1)}`;

/**
 * A board in words: its preset, or its size.
 * @param {{preset: string | null, rows: number, cols: number, mines: number}} board
 */
export function sayBoard(board) {
  return board.preset ? sayPreset(board.preset) : `${board.rows}×${board.cols}, ${board.mines} mines`;
}

/**
 * One finished game of a player's history, in a line (its links follow it).
 * @param {import("./types.js").HistoryEntry} game
 */
export function sayHistoryGame(game) {
  const when = new Date(game.finished_at * 1000).toLocaleString();
  const kind = `${game.no_guess ? " (no guessing)" : ""}${game.daily ? `, daily board of ${game.daily}` : ""}`;
  const result = game.status === "WON" ? `won in ${game.elapsed.toFixed(2)} s` : "lost";
  const figures = [`3BV ${game.three_bv}`];
  if (game.three_bv_per_second !== null) figures.push(`${game.three_bv_per_second.toFixed(2)} 3BV/s`);
  if (game.efficiency !== null) figures.push(`efficiency ${Math.round(game.efficiency)}%`);
  const marks = `${game.no_flags ? ", no flags" : ""}${game.ranked ? ", ranked" : ""}`;
  return `${sayBoard(game)}${kind}: ${result}${marks} (${figures.join(", ")}), ${when}. `;
}

/**
 * A public room of the lobby, in a line.
 * @param {{name: string, board: {preset: string | null, rows: number, cols: number, mines: number, rule: string}, mode: string, players: string[], max_players: number}} room
 */
export function sayLobbyRoom(room) {
  const rule = room.board.rule === "noguess" ? ", no guessing" : "";
  const mode = room.mode === "duel" ? "duel" : "shared board";
  return `${room.name}: ${sayBoard(room.board)}${rule}, ${mode}; ${room.players.length} of ${room.max_players} players (${room.players.join(", ")}) `;
}
