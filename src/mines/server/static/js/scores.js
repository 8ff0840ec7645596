// The leaderboard of the board just played, and the player's own statistics kept in this browser.

import { request } from "./api.js";
import { fillTerms } from "./dom.js";
import { fixed, formatNumber, t, tn } from "./i18n.js";
import { presetName } from "./words.js";

/** @typedef {import("./types.js").LeaderboardEntry} LeaderboardEntry */
/** @typedef {import("./types.js").Summary} Summary */
/**
 * @typedef {object} BoardStats
 * @property {number} games
 * @property {number} wins
 * @property {number} streak
 * @property {number} bestStreak
 * @property {number | null} bestTime
 * @property {number | null} best3bvs
 * @property {string[]} [counted]  ids of the last games counted, so a reload does not count twice
 */

const STATS_KEY = "mines:stats";
const COUNTED_KEPT = 50;

/**
 * Show the best times of a board, the given game's entry marked.
 * @param {HTMLTableElement} table
 * @param {string} preset
 * @param {boolean} noGuess
 * @param {string | null} gameId
 * @param {string} [period]  "all", "month" (this UTC month) or "daily" (today's daily board)
 */
export async function showLeaderboard(table, preset, noGuess, gameId, period = "all") {
  const data = /** @type {{entries: LeaderboardEntry[]}} */ (
    await request("GET", `/api/leaderboard?preset=${encodeURIComponent(preset)}&no_guess=${noGuess}&board=${encodeURIComponent(period)}`));
  const rows = data.entries.map((entry) => {
    const tr = document.createElement("tr");
    const you = entry.game_id === gameId;
    const rank = document.createElement("td");
    rank.textContent = String(entry.rank);
    // The name opens the player's profile; names are shown as text, never as HTML.
    const player = document.createElement("td");
    const profile = document.createElement("a");
    profile.href = `/players/${encodeURIComponent(entry.player)}`;
    profile.textContent = entry.player;
    player.append(profile, you ? t(" (you)") : "");
    tr.append(rank, player);
    // The time opens the game's review: every move of the winning game, judged.
    const time = document.createElement("td");
    if (entry.game_id === null) {
      time.textContent = t("{time} s", { time: fixed(entry.time, 2) });  // a daily board's games stay hidden today
    } else {
      const link = document.createElement("a");
      link.href = reviewPath(entry.game_id);
      link.textContent = t("{time} s", { time: fixed(entry.time, 2) });
      time.append(link);
    }
    tr.append(time);
    if (you) {
      tr.className = "you";
      tr.setAttribute("aria-current", "true");
    }
    return tr;
  });
  if (!rows.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 3;
    td.textContent = t("No times yet.");
    tr.append(td);
    rows.push(tr);
  }
  table.tBodies[0].replaceChildren(...rows);
}

/** The address of a finished game's review page. @param {string} gameId */
export function reviewPath(gameId) {
  return `/review/${encodeURIComponent(gameId)}`;
}

/** The key of a board's statistics. @param {{rows: number, cols: number, mines: number, no_guess: boolean}} board */
export function boardKey(board) {
  return `${board.rows}x${board.cols}/${board.mines}${board.no_guess ? " no-guess" : ""}`;
}

/** @returns {Record<string, BoardStats>} */
function loadAll() {
  try {
    const data = JSON.parse(localStorage.getItem(STATS_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** @param {string} key @returns {BoardStats} */
export function statsOf(key) {
  return loadAll()[key] || { games: 0, wins: 0, streak: 0, bestStreak: 0, bestTime: null, best3bvs: null };
}

/** Count a finished game once. @param {Summary} summary */
export function countGame(summary) {
  const all = loadAll();
  const key = boardKey(summary);
  const stats = all[key] || statsOf(key);
  const counted = stats.counted || [];
  if (counted.includes(summary.id)) return stats;
  stats.games += 1;
  if (summary.status === "WON") {
    stats.wins += 1;
    stats.streak += 1;
    stats.bestStreak = Math.max(stats.bestStreak, stats.streak);
    stats.bestTime = stats.bestTime === null ? summary.elapsed : Math.min(stats.bestTime, summary.elapsed);
    if (summary.three_bv_per_second !== null) {
      const rate = summary.three_bv_per_second;  // the server's figure, as the result box shows
      stats.best3bvs = stats.best3bvs === null ? rate : Math.max(stats.best3bvs, rate);
    }
  } else {
    stats.streak = 0;
  }
  stats.counted = [...counted, summary.id].slice(-COUNTED_KEPT);
  all[key] = stats;
  try {
    localStorage.setItem(STATS_KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused (private mode): the stats stay as shown, unsaved.
  }
  return stats;
}

/**
 * This browser's statistics of the preset boards (classic and no-guess), in the shape
 * `POST /api/me/imported-stats` takes; boards never played are left out.
 * @param {import("./types.js").Preset[]} presets
 * @returns {import("./types.js").ImportedBoard[]}
 */
export function importableStats(presets) {
  const all = loadAll();
  return presets.flatMap((preset) => [false, true].flatMap((noGuess) => {
    const stats = all[boardKey({ ...preset, no_guess: noGuess })];
    if (!stats || !stats.games) return [];
    return [{
      preset: /** @type {import("./types.js").PresetName} */ (preset.name),
      no_guess: noGuess,
      games: stats.games,
      wins: stats.wins,
      best_streak: stats.bestStreak,
      best_time: stats.bestTime,
      best_three_bv_per_second: stats.best3bvs,
    }];
  }));
}

/** One board's imported statistics in words. @param {import("./types.js").ImportedBoard} board */
export function sayImported(board) {
  const name = presetName(board.preset);
  const parts = [tn("{n} game", "{n} games", board.games), tn("{n} win", "{n} wins", board.wins)];
  if (board.best_streak) parts.push(t("best streak {n}", { n: board.best_streak }));
  if (board.best_time !== null) parts.push(t("best time {time} s", { time: fixed(board.best_time, 2) }));
  if (board.best_three_bv_per_second !== null) parts.push(t("best 3BV/s {rate}", { rate: fixed(board.best_three_bv_per_second, 2) }));
  return board.no_guess ? t("{board}, no guessing: {figures}", { board: name, figures: parts.join(", ") })
    : t("{board}: {figures}", { board: name, figures: parts.join(", ") });
}

/** @param {HTMLTableElement} table @param {HTMLElement} caption @param {string} key */
export function showStats(table, caption, key) {
  const s = statsOf(key);
  caption.textContent = t("Board {board}", { board: key });
  const rows = [
    [t("Games"), formatNumber(s.games)],
    [t("Wins"), s.games ? t("{wins} ({percent})", { wins: s.wins, percent: formatNumber(s.wins / s.games, { style: "percent" }) }) : formatNumber(0)],
    [t("Streak"), t("{streak} (best {best})", { streak: s.streak, best: s.bestStreak })],
    [t("Best time"), s.bestTime === null ? "–" : t("{time} s", { time: fixed(s.bestTime, 2) })],
    [t("Best 3BV/s"), s.best3bvs === null ? "–" : fixed(s.best3bvs, 2)],
  ].map(([name, value]) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = name;
    const td = document.createElement("td");
    td.textContent = value;
    tr.append(th, td);
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
}

/** Why a win did not rank, in words (`unranked` of the summary). @type {Record<string, string>} */
const UNRANKED = {
  anonymous: t("Not ranked: only games started while signed in rank."),
  too_fast: t("Not ranked: faster than any person has played, so taken for a program."),
  seeded: t("Not ranked: a board chosen by its seed."),
  custom: t("Not ranked: only the preset boards with the classic first click rank."),
};

/**
 * The end-of-game box: time, 3BV, 3BV/s, clicks (useful and wasted) and efficiency, all as
 * the server counted them. Returns the same in one sentence, for a screen reader.
 * @param {HTMLElement} box
 * @param {Summary} summary
 * @param {boolean} [watching]  the page watches another's game: it speaks about its player
 */
export function showResult(box, summary, watching = false) {
  const won = summary.status === "WON";
  const who = summary.player;
  const figure = (/** @type {number | null} */ value, /** @type {number} */ places) => value === null ? "–" : fixed(value, places);
  const rows = [
    [t("Time"), t("{time} s", { time: fixed(summary.elapsed, 2) })],
    [t("3BV"), formatNumber(summary.three_bv)],
    [t("3BV/s"), figure(summary.three_bv_per_second, 2)],
    [t("Clicks"), t("{clicks} ({useful} useful, {wasted} wasted)", { clicks: summary.clicks, useful: summary.useful_clicks, wasted: summary.wasted_clicks })],
    [t("Efficiency"), summary.efficiency === null ? "–" : formatNumber(summary.efficiency / 100, { style: "percent" })],
  ];
  const list = document.createElement("dl");
  fillTerms(list, rows);
  const title = document.createElement("h2");
  title.textContent = won ? (watching ? t("{who} won", { who }) : t("You won")) : watching ? t("{who} hit a mine", { who }) : t("Game over");
  const note = document.createElement("p");
  note.className = "help";
  note.textContent = summary.ranked ? t("This time is on the leaderboard.")
    : summary.assisted ? (watching ? t("Not ranked: {who} had help (a hint or the mine chances).", { who }) : t("Not ranked: you had help (a hint or the mine chances)."))
    : won && !watching ? UNRANKED[summary.unranked ?? ""] ?? "" : "";
  const review = document.createElement("p");
  const link = document.createElement("a");
  link.id = "result-review";
  link.href = reviewPath(summary.id);
  link.textContent = t("Review every move");
  review.append(link);
  box.replaceChildren(title, list, ...(note.textContent ? [note] : []), review);
  box.hidden = false;
  const sentence = rows.map(([name, value]) => `${name} ${value}`).join(", ");
  const over = watching ? t("{who} hit a mine. Game over.", { who }) : t("Game over.");
  const seconds = fixed(summary.elapsed, 1);
  const ending = won ? (watching ? t("{who} won in {seconds} seconds!", { who, seconds }) : t("You won in {seconds} seconds!", { seconds })) : over;
  return `${ending} ${sentence}.${note.textContent ? ` ${note.textContent}` : ""}`;
}
