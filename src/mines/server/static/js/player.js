// A player's profile page, /players/<name>: the statistics the server counts from the account's
// games, the best times per board (daily boards apart), and the latest games with their replays
// and reviews.

import { ApiError, request } from "./api.js";
import { $, fillTerms } from "./dom.js";
import { sayImported } from "./scores.js";
import { presetName, sayError } from "./words.js";
import { fixed, formatDate, formatNumber, t } from "./i18n.js";

/** @typedef {import("./types.js").Profile} Profile */

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
  $("history").replaceChildren(...profile.history.map((game) => {
    const item = document.createElement("li");
    const board = game.preset ?? `${game.rows}×${game.cols}, ${game.mines} mines`;
    const when = new Date(game.finished_at * 1000).toLocaleString();
    const result = game.status === "WON" ? `won in ${game.elapsed.toFixed(2)} s` : "lost";
    const kind = `${game.no_guess ? " (no guessing)" : ""}${game.daily ? `, daily board of ${game.daily}` : ""}`;
    item.textContent = `${board}${kind}: ${result}${game.ranked ? ", ranked" : ""}, ${when}. `;
    const replay = document.createElement("a");
    replay.href = game.replay;
    replay.textContent = "Replay";
    const review = document.createElement("a");
    review.href = `/review/${encodeURIComponent(game.id)}`;
    review.textContent = "Review";
    item.append(replay, " · ", review);
    return item;
  }));
  $("profile").hidden = false;
}

async function load() {
  try {
    /** @type {Profile} */
    const profile = await request("GET", `/api/players/${encodeURIComponent(playerName())}`);
    show(profile);
  } catch (error) {
    $("error").textContent = error instanceof ApiError ? sayError(error) : String(error);
  }
}

load();
