// The shapes of the server's JSON answers, for the JSDoc types tsc checks.

/** @typedef {"IN_PROGRESS" | "WON" | "LOST"} Status */
/**
 * @typedef {object} View  What the player sees in a window of the board.
 * @property {number} rows
 * @property {number} cols
 * @property {Status} status
 * @property {number} mines_left
 * @property {number} elapsed
 * @property {number} top
 * @property {number} left
 * @property {string[]} cells
 */
/** @typedef {[number, number, string]} Changed  [row, col, symbol now] */
/**
 * @typedef {object} MoveAnswer
 * @property {View} view
 * @property {Changed[]} changed
 * @property {boolean} changed_complete
 */
/**
 * @typedef {object} Created
 * @property {string} id
 * @property {string} token
 * @property {View} view
 */
/** @typedef {{name: string, rows: number, cols: number, mines: number}} Preset */
/**
 * @typedef {object} Limits
 * @property {number} min_side
 * @property {number} max_side
 * @property {number} max_cells
 * @property {number} view_limit
 * @property {number} changed_limit
 */
/**
 * @typedef {object} Meta  Presets and limits, from /api/meta.
 * @property {Preset[]} presets
 * @property {string[]} first_click
 * @property {Limits} limits
 * @property {string} player_pattern
 */
/**
 * @typedef {object} Frame  One replayed move and the cells it changed in the window.
 * @property {string} move
 * @property {number} time
 * @property {Status} status
 * @property {number} mines_left
 * @property {Changed[]} changed
 */
/**
 * @typedef {object} Replay
 * @property {string} id
 * @property {number} top
 * @property {number} left
 * @property {number} height
 * @property {number} width
 * @property {string[]} initial
 * @property {Frame[]} frames
 * @property {View} final
 */
/**
 * @typedef {object} Summary  The result of a finished game.
 * @property {string} id
 * @property {Status} status
 * @property {number} elapsed
 * @property {string | null} preset
 * @property {boolean} no_guess
 * @property {number} three_bv
 * @property {number} rows
 * @property {number} cols
 * @property {number} mines
 */
/**
 * @typedef {object} LeaderboardEntry
 * @property {number} rank
 * @property {string} player
 * @property {number} time
 * @property {string} game_id
 */
/**
 * @typedef {object} Chances  The server's analysis of the player's view.
 * @property {[number, number, number, string | null][]} cells  [row, col, chance, "safe" | "mine" | null]
 */
/**
 * @typedef {object} Hint
 * @property {number} row
 * @property {number} col
 * @property {boolean} safe
 * @property {number} probability
 * @property {string} reason
 */

export {};
