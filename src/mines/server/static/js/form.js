// The New game form: options from the server's presets and limits, custom sizes checked as typed.

import { t, tn } from "./i18n.js";
import { presetName } from "./words.js";

/** @typedef {import("./types.js").Meta} Meta */

/** @param {string} id */
function input(id) {
  return /** @type {HTMLInputElement} */ (document.getElementById(id));
}
/** @param {string} id */
function select(id) {
  return /** @type {HTMLSelectElement} */ (document.getElementById(id));
}

/** A whole number typed in a field, or null. @param {string} text */
function wholeNumber(text) {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

/** What Python's `str.strip()` takes off a name's ends (its `str.isspace()` characters). */
const SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const ENDS = new RegExp(`^${SPACE}+|${SPACE}+$`, "gu");
const MARKS = /[\p{Mn}\p{Me}]+/gu;

/**
 * A player name as the server will store it, or null when the server would refuse it: the
 * server's own rule (`mines.server.names`), every part of it from /api/meta's `names`. NFKC,
 * the ends trimmed; none of its invisible characters; at most `marks` combining marks on one
 * letter; then its pattern.
 * @param {string} typed
 * @param {Meta} meta
 */
export function playerName(typed, meta) {
  const rule = meta.names;
  const name = typed.normalize("NFKC").replace(ENDS, "");
  if (new RegExp(rule.invisible, "u").test(name.normalize("NFD"))) return null;
  for (const run of name.normalize("NFD").match(MARKS) || []) {
    if ([...run].length > rule.marks) return null;
  }
  return new RegExp(rule.pattern, "u").test(name) ? name : null;
}

/**
 * The longest name the server takes, in characters: its own figure in /api/meta when it gives
 * one, else read off its name pattern (the last `{0,N}` allows N + 1), else 24.
 * @param {Meta} meta
 */
export function nameLength(meta) {
  /** @type {any} */
  const given = meta;
  const figure = given.limits?.name_max_length ?? given.limits?.player_max_length ?? given.player_max_length;
  if (Number.isInteger(figure) && figure > 0) return figure;
  const counts = [...String(meta.player_pattern || "").matchAll(/\{0,(\d+)\}/g)];
  return counts.length ? Number(counts[counts.length - 1][1]) + 1 : 24;
}

/** Every name field takes as many characters as the server does, and says so. @param {Meta} meta @param {string[]} ids */
export function limitNames(meta, ids) {
  const most = String(nameLength(meta));
  for (const id of ids) {
    const field = document.getElementById(id);
    if (field instanceof HTMLInputElement) field.maxLength = Number(most);
  }
}

/** Fill the board and first-click choices from the server. @param {Meta} meta */
export function fillChoices(meta) {
  const preset = select("preset");
  const custom = preset.querySelector('option[value="custom"]');
  for (const p of meta.presets) {
    const option = new Option(tn("{board} {rows}×{cols}, {n} mine", "{board} {rows}×{cols}, {n} mines", p.mines, { board: presetName(p.name), rows: p.rows, cols: p.cols }), p.name);
    preset.insertBefore(option, custom);
  }
  preset.value = meta.presets[meta.presets.length - 1].name;
  limitNames(meta, ["player", "account-name"]);
  const rule = select("first-click");
  /** @type {Record<string, string>} */
  const names = { opening: t("First click opens an area (classic)"), safe: t("First click is never a mine"), any: t("First click may be a mine") };
  for (const name of meta.first_click) rule.append(new Option(names[name] || t("First click: {rule}", { rule: name }), name));
  const board = select("board-preset");
  for (const p of meta.presets) board.append(new Option(presetName(p.name), p.name));
  board.value = preset.value;
}

/**
 * Check the form as it stands: the body to send, or the problems, each tied to its field.
 * @param {Meta} meta
 * @returns {{body: Record<string, unknown> | null, problems: Map<string, string>}}
 */
export function readForm(meta) {
  /** @type {Map<string, string>} */
  const problems = new Map();
  /** @type {Record<string, unknown>} */
  const body = {};
  const choice = select("preset").value;
  const { max_cells: maxCells } = meta.limits;
  if (choice === "custom") {
    const rows = wholeNumber(input("rows").value);
    const cols = wholeNumber(input("cols").value);
    const mines = wholeNumber(input("mines").value);
    const side = (/** @type {number | null} */ value, /** @type {string} */ other) => {
      const most = Math.max(1, Math.floor(maxCells / Math.max(1, other === "rows" ? rows || 1 : cols || 1)));
      return value === null || value < 1 || value > most ? most : 0;
    };
    const rowProblem = side(rows, "cols");
    const colProblem = side(cols, "rows");
    if (rowProblem) problems.set("rows", t("Rows: a whole number from 1 to {most}.", { most: rowProblem }));
    if (colProblem) problems.set("cols", t("Columns: a whole number from 1 to {most}.", { most: colProblem }));
    if (rows !== null && cols !== null && !rowProblem && !colProblem) {
      const cells = rows * cols;
      if (mines === null || mines > cells - 1) {
        problems.set("mines", t("Mines: a whole number from 0 to {most} (fewer than the {cells} cells).", { most: cells - 1, cells }));
      }
    } else if (mines === null) {
      problems.set("mines", t("Mines: a whole number, fewer than the board's cells."));
    }
    Object.assign(body, { rows, cols, mines });
  } else {
    body.preset = choice;
  }
  const seedText = input("seed").value.trim();
  if (seedText) {
    const seed = wholeNumber(seedText);
    if (seed === null || !Number.isSafeInteger(seed)) problems.set("seed", t("Seed: a whole number from 0 to {most}, or empty for a random board.", { most: Number.MAX_SAFE_INTEGER }));
    else body.seed = seed;
  }
  if (input("no-guess").checked) body.no_guess = true;
  else body.first_click = select("first-click").value;
  if (input("daily").checked && choice !== "custom") {
    // Today's daily board of the preset: its seed and first click are the server's.
    body.daily = choice;
    delete body.preset;
    delete body.seed;
    delete body.first_click;
  }
  const typed = input("player").value;
  if (typed.trim()) {
    const player = playerName(typed, meta);
    if (player === null) problems.set("player", t("Name: {rule}.", { rule: meta.names.rule }));
    else body.player = player;
  }
  return { body: problems.size ? null : body, problems };
}

/** Show each field's problem next to it, and the limits while nothing is wrong. @param {Meta} meta */
export function showProblems(meta) {
  const { problems } = readForm(meta);
  /** @type {Record<string, string>} */
  const quiet = { rows: t("Rows and columns: at most {most} cells in all.", { most: meta.limits.max_cells }), cols: "", mines: t("Mines: fewer than the cells."), seed: "", player: "" };
  for (const field of ["rows", "cols", "mines", "seed", "player"]) {
    const problem = problems.get(field) || "";
    const element = input(field);
    element.setAttribute("aria-invalid", problem ? "true" : "false");
    const help = document.getElementById(`${field}-help`);
    if (help) help.textContent = problem || quiet[field];
  }
  return problems;
}
