// A player's profile page, /players/<name>: the statistics the server counts from the account's
// games, the best times per board (daily boards and no-flag wins apart), and every finished game
// with its replay and review, a page at a time, filtered by board and result.

import { ApiError, request } from "./api.js";
import { $, fillTerms, selectOf } from "./dom.js";
import { sayImported } from "./scores.js";
import { WORDS, presetName, sayError, sayHistoryGame } from "./words.js";
import { fixed, formatDate, formatNumber, t } from "./i18n.js";

/** @typedef {import("./types.js").Profile} Profile */
/** @typedef {import("./types.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./types.js").HistoryPage} HistoryPage */

const PRESETS = /** @type {const} */ (["beginner", "intermediate", "expert"]);

/** The player's name, from the page's address `/players/<name>`. */
function playerName() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
}

/** @param {number | null} value @param {number} places @param {string} [unit] */
function figure(value, places, unit = "") {
  return value === null ? "–" : `${fixed(value, places)}${unit}`;
}

/**
 * Fill the table `id` with a row per preset: its best classic and no-guess times.
 * @param {string} id
 * @param {Profile["best"]} classic
 * @param {Profile["best"]} noGuess
 */
function bestTimes(id, classic, noGuess) {
  const body = /** @type {HTMLTableElement} */ ($(id)).tBodies[0];
  body.replaceChildren(...PRESETS.map((preset) => {
    const row = document.createElement("tr");
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = presetName(preset);
    const cells = [classic[preset], noGuess[preset]].map((time) => {
      const cell = document.createElement("td");
      cell.textContent = time === undefined ? "–" : t("{time} s", { time: fixed(time, 2) });
      return cell;
    });
    row.append(head, ...cells);
    return row;
  }));
}

/** @param {Profile} profile */
function show(profile) {
  $("player-name").textContent = profile.name;
  document.title = t("mines — {name}", { name: profile.name });
  const rows = [
    [t("Games"), formatNumber(profile.games)],
    [t("Wins"), profile.win_rate === null ? formatNumber(profile.wins) : t("{wins} ({percent})", { wins: profile.wins, percent: formatNumber(profile.win_rate, { style: "percent" }) })],
    [t("Streak"), t("{streak} (best {best})", { streak: profile.streak.current, best: profile.streak.best })],
    [t("Best 3BV/s"), figure(profile.three_bv_per_second.best, 2)],
    [t("Average 3BV/s"), figure(profile.three_bv_per_second.average, 2)],
    [t("Efficiency"), profile.efficiency === null ? "–" : formatNumber(profile.efficiency / 100, { style: "percent" })],
  ];
  fillTerms($("figures"), rows);
  bestTimes("best", profile.best, profile.best_no_guess);
  bestTimes("best-daily", profile.best_daily, profile.best_daily_no_guess);
  const imported = profile.imported;
  $("imported").hidden = imported === null;
  if (imported) {
    const when = formatDate(imported.imported_at * 1000);
    $("imported-note").textContent = t("Counted by a browser before the account had them, added on {when}. Nothing checked them: they are not part of the figures above and never rank.", { when });
    $("imported-boards").replaceChildren(...imported.boards.map((board) => {
      const item = document.createElement("li");
      item.textContent = sayImported(board);
      return item;
    }));
  }
  bestTimes("best-no-flags", profile.best_no_flags, profile.best_no_flags_no_guess);
  $("profile").hidden = false;
}

/** @param {HTMLSelectElement} select @param {[string, string][]} items  value and words */
function fillOptions(select, items) {
  select.replaceChildren(...items.map(([value, text]) => {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    return option;
  }));
}

/** The words of the parts of the page this script fills (from words.js, for translation). */
function label() {
  $("history-title").textContent = WORDS.historyTitle;
  $("history-board-label").textContent = WORDS.historyBoard;
  $("history-result-label").textContent = WORDS.historyResult;
  $("history-more").textContent = WORDS.moreGames;
  $("history-empty").textContent = WORDS.noGames;
  $("best-no-flags-title").textContent = WORDS.bestNoFlagsTitle;
  const heads = /** @type {HTMLTableElement} */ ($("best-no-flags")).tHead?.rows[0].cells ?? [];
  [WORDS.boardHead, WORDS.classicHead, WORDS.noGuessHead].forEach((text, i) => { heads[i].textContent = text; });
  fillOptions(selectOf("history-board"), [
    ["", WORDS.allBoards], ...PRESETS.map((name) => /** @type {[string, string]} */ ([name, presetName(name)])),
    ["custom", WORDS.customBoards],
  ]);
  fillOptions(selectOf("history-result"), [
    ["", WORDS.allResults], ["won", WORDS.won], ["lost", WORDS.lost], ["no_flags", WORDS.noFlagWins],
  ]);
}

/** @param {HistoryEntry} game */
function historyItem(game) {
  const item = document.createElement("li");
  item.textContent = sayHistoryGame(game);
  const replay = document.createElement("a");
  replay.href = game.replay;
  replay.textContent = WORDS.replay;
  const review = document.createElement("a");
  review.href = game.review;
  review.textContent = WORDS.review;
  item.append(replay, " · ", review);
  return item;
}

/** Pages through the player's finished games, newest first, by the server's cursor. */
class History {
  constructor() {
    this.path = `/api/players/${encodeURIComponent(playerName())}/games`;
    /** @type {string | null} the cursor of the next page */
    this.next = null;
    /** A new filter counts up: a page asked for under an older one is dropped. */
    this.asked = 0;
    selectOf("history-board").addEventListener("change", () => this.page(true));
    selectOf("history-result").addEventListener("change", () => this.page(true));
    $("history-more").addEventListener("click", () => this.page(false));
  }

  /** The first page (`fresh`, as the filters say now) or the next one. @param {boolean} fresh */
  async page(fresh) {
    const query = new URLSearchParams();
    const board = selectOf("history-board").value;
    const result = selectOf("history-result").value;
    if (board) query.set("board", board);
    if (result) query.set("result", result);
    if (!fresh && this.next) query.set("cursor", this.next);
    const asked = fresh ? ++this.asked : this.asked;
    try {
      /** @type {HistoryPage} */
      const found = await request("GET", `${this.path}?${query}`);
      if (asked !== this.asked) return;
      const list = $("history");
      const more = $("history-more");
      const added = found.games.map(historyItem);
      if (fresh) list.replaceChildren(...added);
      else list.append(...added);
      this.next = found.next;
      const hadFocus = document.activeElement === more;
      more.hidden = this.next === null;
      // The button leaves with the last page: focus goes on, to the last game listed.
      if (hadFocus && more.hidden) /** @type {HTMLElement | null} */ (list.querySelector("li:last-child a"))?.focus();
      $("history-empty").hidden = list.children.length > 0;
    } catch (error) {
      $("error").textContent = error instanceof ApiError ? sayError(error) : String(error);
    }
  }
}

async function load() {
  label();
  try {
    /** @type {Profile} */
    const profile = await request("GET", `/api/players/${encodeURIComponent(playerName())}`);
    show(profile);
    await new History().page(true);
  } catch (error) {
    $("error").textContent = error instanceof ApiError ? sayError(error) : String(error);
  }
}

load();
