// Errors in a player's words: every code of the API (docs/server.md, "Error codes") has a sentence.

import { fixed, formatDate, formatNumber, t, tn } from "./i18n.js";

/** @typedef {import("./api.js").ApiError} ApiError */

/** A preset's name in the page's language ("beginner" -> "Beginner"). @param {string} name */
export function presetName(name) {
  /** @type {Record<string, string>} */
  const names = { beginner: t("Beginner"), intermediate: t("Intermediate"), expert: t("Expert") };
  return names[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
}

/** What each request field is, for a sentence. */
const FIELDS = {
  rows: t("The number of rows"), cols: t("The number of columns"), mines: t("The number of mines"),
  seed: t("The seed"), player: t("The name"), first_click: t("The first-click rule"), preset: t("The board"),
  no_guess: t("The no-guess choice"), row: t("The cell's row"), col: t("The cell's column"),
  top: t("The view's first row"), left: t("The view's first column"), height: t("The view's height"),
  width: t("The view's width"),
};

/** @type {Record<string, string>} */
export const SENTENCES = {
  validation_error: t("Some of the game's settings are not valid."),
  invalid_request: t("The server cannot do that with these settings."),
  invalid_board: t("That board cannot be made: it needs at least one row and one column, and fewer mines than cells."),
  illegal_move: t("That move is not possible right now."),
  invalid_move: t("That move could not be read."),
  invalid_view: t("That part of the board is too big to show at once."),
  mines_not_placed: t("That is known only once the first cell has been opened."),
  join_refused: t("That race cannot be joined right now."),
  lobby_refused: t("That race cannot be started (or restarted) right now."),
  game_over: t("This game is over. Press the face or New game to play again."),
  cell_flagged: t("That cell has a flag on it. Remove the flag first (right click, long press or F)."),
  game_in_progress: t("The replay opens once the game is over."),
  game_not_found: t("This game is not on the server (any more). Start a new one."),
  room_not_found: t("There is no race at this address (any more). Create a new one."),
  not_authenticated: t("This game was started in another browser: you can watch it here, not play it."),
  forbidden: t("This browser's key does not fit this game: you can watch it here, not play it."),
  storage_unavailable: t("The server could not save that just now, so nothing changed. Please try again in a moment."),
  body_too_large: t("That request was too large for the server."),
  rate_limited: t("That was a lot of requests very quickly. Wait a moment, then go on."),
  server_full: t("The server is full right now. Please try again in a minute."),
  no_guess_too_large: t("A no-guess board that big cannot be made here. Choose a smaller board or fewer mines, or turn off “No guessing needed”."),
  no_guess_timeout: t("Making that no-guess board took too long. Try again, or choose fewer mines."),
  analysis_too_large: t("Mine chances are worked out only for boards up to the size shown in the message; this board is bigger."),
  invalid_name: t("That name cannot be used: it is empty, hidden, too long, or mixes alphabets the way look-alike names do."),
  name_taken: t("That name is taken, or looks just like one that is. Choose another."),
  already_imported: t("This account already has a browser's statistics: an account takes them only once, so these stay in this browser."),
  sign_in_failed: t("That name and password do not match an account."),
  not_signed_in: t("You are not signed in."),
  wrong_password: t("That is not your current password; nothing was changed."),
  account_suspended: t("This account is suspended by the server's operators."),
  address_blocked: t("Requests from your address are refused by this server's operators."),
  player_not_found: t("No player has that name."),
  daily_not_over: t("This is a game on today's daily board: only its player can see it until the day is over (midnight UTC), so that nobody learns the board before playing it."),
  cross_site: t("That came from another site, so it was refused. Use this page itself."),
  review_too_large: t("This game is too big to review exactly here."),
  worker_died: t("The server stopped while it was working on that. Please try again."),
  not_found: t("That address does not exist on this server."),
  method_not_allowed: t("The server does not take that kind of request there."),
  unsupported_media_type: t("The server could not read that request's format."),
  internal_error: t("Something went wrong on the server. Please try again; if it keeps happening, tell whoever runs it."),
  network: t("The server cannot be reached. Check the connection, then try again."),
  server_error: t("Something went wrong on the server. Please try again."),
};

const FALLBACK = t("Something went wrong. Please try again.");
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
  if (seconds >= 120) return tn("{n} minute", "{n} minutes", Math.ceil(seconds / 60));
  return tn("{n} second", "{n} seconds", seconds);
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
      element.textContent = t("You can try again now.");
      window.clearInterval(timer);
      owner.stopCount = undefined;
      return;
    }
    element.textContent = t("Too many tries in a short time: wait {wait}, then try again.", { wait: sayWait(left) });
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
  if (error.code === "rate_limited" && error.retryAfter) return t("That was a lot of requests very quickly. Wait {wait}, then go on.", { wait: sayWait(error.retryAfter) });
  if (error.code !== "validation_error" || !error.errors.length) return said;
  const names = error.errors
    .map((item) => FIELDS[/** @type {keyof typeof FIELDS} */ (lastPart(item.field))])
    .filter(Boolean);
  if (!names.length) return said;
  return tn("{fields} is not valid.", "{fields} are not valid.", names.length, { fields: unique(names).join(", ") });
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
  historyTitle: t("Games"),
  historyBoard: t("Board"),
  historyResult: t("Result"),
  allBoards: t("All boards"),
  customBoards: t("Custom boards"),
  allResults: t("All results"),
  won: t("Won"),
  lost: t("Lost"),
  noFlagWins: t("No-flag wins"),
  moreGames: t("More games"),
  noGames: t("No finished games match."),
  bestNoFlagsTitle: t("Best no-flag times"),
  boardHead: t("Board"),
  classicHead: t("Classic"),
  noGuessHead: t("No guessing"),
  replay: t("Replay"),
  review: t("Review"),
  lobbyTitle: t("Public races"),
  lobbyRooms: t("Waiting for players"),
  lobbyLive: t("Racing now: watch"),
  lobbyNoRooms: t("No public room is waiting for players right now."),
  lobbyNoLive: t("No public race is being played right now."),
  join: t("Join"),
  watch: t("Watch"),
  publicRoom: t("List this room in the lobby, for anyone to join or watch"),
  roomName: t("Room name in the lobby"),
  roomNameHelp: t("Shown to everyone: an account's name rule (one script). Your name when empty."),
};

/**
 * A board in words: its preset, or its size.
 * @param {{preset: string | null, rows: number, cols: number, mines: number}} board
 */
export function sayBoard(board) {
  if (board.preset) return presetName(board.preset);
  return tn("{rows}×{cols}, {n} mine", "{rows}×{cols}, {n} mines", board.mines, { rows: board.rows, cols: board.cols });
}

/**
 * One finished game of a player's history, in a line (its links follow it).
 * @param {import("./types.js").HistoryEntry} game
 */
export function sayHistoryGame(game) {
  const when = formatDate(game.finished_at * 1000, { dateStyle: "medium", timeStyle: "short" });
  let kind = game.no_guess ? t(" (no guessing)") : "";
  if (game.daily) kind += t(", daily board of {day}", { day: game.daily });
  const result = game.status === "WON" ? t("won in {seconds} s", { seconds: fixed(game.elapsed, 2) }) : t("lost");
  const figures = [t("3BV {n}", { n: formatNumber(game.three_bv) })];
  if (game.three_bv_per_second !== null) figures.push(t("{n} 3BV/s", { n: fixed(game.three_bv_per_second, 2) }));
  if (game.efficiency !== null) figures.push(t("efficiency {n}%", { n: formatNumber(Math.round(game.efficiency)) }));
  const marks = `${game.no_flags ? t(", no flags") : ""}${game.ranked ? t(", ranked") : ""}`;
  return t("{board}{kind}: {result}{marks} ({figures}), {when}. ", {
    board: sayBoard(game), kind, result, marks, figures: figures.join(", "), when,
  });
}

/**
 * A public room of the lobby, in a line.
 * @param {{name: string, board: {preset: string | null, rows: number, cols: number, mines: number, rule: string}, mode: string, players: string[], max_players: number}} room
 */
export function sayLobbyRoom(room) {
  const rule = room.board.rule === "noguess" ? t(", no guessing") : "";
  const mode = room.mode === "duel" ? t("duel") : t("shared board");
  const players = tn("{n} of {max} player", "{n} of {max} players", room.max_players, {
    n: room.players.length, max: room.max_players,
  });
  return t("{name}: {board}{rule}, {mode}; {players} ({names}) ", {
    name: room.name, board: sayBoard(room.board), rule, mode, players, names: room.players.join(", "),
  });
}
