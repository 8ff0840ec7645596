// The leaderboard of the board just played, and the player's own statistics kept in this browser.

import { request } from "./api.js";
import { fillTerms } from "./dom.js";

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
    player.append(profile, you ? " (you)" : "");
    tr.append(rank, player);
    // The time opens the game's review: every move of the winning game, judged.
    const time = document.createElement("td");
    if (entry.game_id === null) {
      time.textContent = `${entry.time.toFixed(2)} s`;  // a daily board's games stay hidden today
    } else {
      const link = document.createElement("a");
      link.href = reviewPath(entry.game_id);
      link.textContent = `${entry.time.toFixed(2)} s`;
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
    td.textContent = "No times yet.";
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
  const name = board.preset[0].toUpperCase() + board.preset.slice(1);
  const parts = [`${board.games} ${board.games === 1 ? "game" : "games"}`, `${board.wins} ${board.wins === 1 ? "win" : "wins"}`];
  if (board.best_streak) parts.push(`best streak ${board.best_streak}`);
  if (board.best_time !== null) parts.push(`best time ${board.best_time.toFixed(2)} s`);
  if (board.best_three_bv_per_second !== null) parts.push(`best 3BV/s ${board.best_three_bv_per_second.toFixed(2)}`);
  return `${name}${board.no_guess ? ", no guessing" : ""}: ${parts.join(", ")}`;
}

/** @param {HTMLTableElement} table @param {HTMLElement} caption @param {string} key */
export function showStats(table, caption, key) {
  const s = statsOf(key);
  caption.textContent = `Board ${key}`;
  const rows = [
    ["Games", String(s.games)],
    ["Wins", s.games ? `${s.wins} (${Math.round((100 * s.wins) / s.games)}%)` : "0"],
    ["Streak", `${s.streak} (best ${s.bestStreak})`],
    ["Best time", s.bestTime === null ? "–" : `${s.bestTime.toFixed(2)} s`],
    ["Best 3BV/s", s.best3bvs === null ? "–" : s.best3bvs.toFixed(2)],
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
  anonymous: "Not ranked: only games started while signed in rank.",
  too_fast: "Not ranked: faster than any person has played, so taken for a program.",
  seeded: "Not ranked: a board chosen by its seed.",
  custom: "Not ranked: only the preset boards with the classic first click rank.",
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
  const who = watching ? summary.player : "You";
  const figure = (/** @type {number | null} */ value, /** @type {number} */ places) => value === null ? "–" : value.toFixed(places);
  const rows = [
    ["Time", `${summary.elapsed.toFixed(2)} s`],
    ["3BV", String(summary.three_bv)],
    ["3BV/s", figure(summary.three_bv_per_second, 2)],
    ["Clicks", `${summary.clicks} (${summary.useful_clicks} useful, ${summary.wasted_clicks} wasted)`],
    ["Efficiency", summary.efficiency === null ? "–" : `${summary.efficiency.toFixed(0)}%`],
  ];
  const list = document.createElement("dl");
  fillTerms(list, rows);
  const title = document.createElement("h2");
  title.textContent = won ? `${who} won` : watching ? `${who} hit a mine` : "Game over";
  const note = document.createElement("p");
  note.className = "help";
  note.textContent = summary.ranked ? "This time is on the leaderboard."
    : summary.assisted ? `Not ranked: ${watching ? `${who} had` : "you had"} help (a hint or the mine chances).`
    : won && !watching ? UNRANKED[summary.unranked ?? ""] ?? "" : "";
  const review = document.createElement("p");
  const link = document.createElement("a");
  link.id = "result-review";
  link.href = reviewPath(summary.id);
  link.textContent = "Review every move";
  review.append(link);
  box.replaceChildren(title, list, ...(note.textContent ? [note] : []), review);
  box.hidden = false;
  const sentence = rows.map(([name, value]) => `${name} ${value}`).join(", ");
  const over = watching ? `${who} hit a mine. Game over.` : "Game over.";
  return `${won ? `${who} won in ${summary.elapsed.toFixed(1)} seconds!` : over} ${sentence}.${note.textContent ? ` ${note.textContent}` : ""}`;
}
