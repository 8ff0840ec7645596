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
 * @property {number} height
 * @property {number} width
 * @property {number} version  the stored moves the view shows: views and frames are ordered by it
 * @property {string[]} cells
 */
/** @typedef {Omit<View, "cells"> & {cells?: string[]}} AnsweredView  a move's answer asked with cells=changed leaves the cells out when `changed` says it all */
/** @typedef {[number, number, string]} Changed  [row, col, symbol now] */
/**
 * @typedef {object} BoardInfo  The board a game is played on.
 * @property {number} rows
 * @property {number} cols
 * @property {number} mines
 * @property {string | null} preset  the preset of its size, or null
 * @property {boolean} no_guess
 */
/**
 * @typedef {object} GameAnswer  A game as the server reads it.
 * @property {string} id
 * @property {View} view
 * @property {BoardInfo} board
 * @property {boolean} ranks  a win would enter the leaderboard (no help so far)
 */
/**
 * @typedef {object} MoveFrame  A stored move as the live socket tells it.
 * @property {"move"} type
 * @property {string} move
 * @property {number} version
 * @property {Status} status
 * @property {number} mines_left
 * @property {number} elapsed
 * @property {Changed[]} changed
 * @property {boolean} changed_complete
 */
/**
 * @typedef {object} MoveAnswer
 * @property {AnsweredView} view
 * @property {Changed[]} changed
 * @property {boolean} changed_complete
 */
/** @typedef {GameAnswer & {token: string}} Created */
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
 * @property {NameRule} names  the one name rule, the server's (`mines.server.names`)
 * @property {{min_length: number, max_length: number}} passwords  an account password's limits
 * @property {string} player_pattern  names.pattern, as before
 * @property {number} player_marks  names.marks, as before
 */
/**
 * @typedef {object} NameRule  What a player's or an account's name may be.
 * @property {string} rule  the rule in words, as a refusal says it
 * @property {string} account_rule  what an account's name must be besides
 * @property {number} max_length
 * @property {string} pattern  an ECMAScript (flag u) and Rust pattern alike
 * @property {number} marks  the most combining marks one letter may carry
 * @property {string} invisible  an ECMAScript (flag u) class of the characters refused as invisible
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
 * @property {string} player  the name it was played under (an account's, or the one given)
 * @property {Status} status
 * @property {number} elapsed
 * @property {string | null} preset
 * @property {boolean} no_guess
 * @property {number} three_bv
 * @property {number | null} three_bv_per_second  for a win
 * @property {number} clicks  every move asked for while the game was on
 * @property {number} useful_clicks  the moves that changed the board
 * @property {number} wasted_clicks  the moves that changed nothing
 * @property {number | null} efficiency  3BV per click, in percent, for a win
 * @property {boolean} assisted  the player had help (hints or chances)
 * @property {boolean} ranked  the win entered the leaderboard
 * @property {"custom" | "seeded" | "anonymous" | "assisted" | "lost" | "too_fast"} [unranked]  why it did not
 * @property {number} rows
 * @property {number} cols
 * @property {number} mines
 */
/**
 * @typedef {object} LeaderboardEntry
 * @property {number} rank
 * @property {string} player
 * @property {number} time
 * @property {string | null} game_id  null on today's daily board (its games stay hidden)
 */
/**
 * @typedef {object} Chances  The server's analysis of the player's view.
 * @property {[number, number, number, string | null][]} cells  [row, col, chance, "safe" | "mine" | null]
 * @property {boolean} ranks  false: help keeps this game off the leaderboard
 */
/**
 * @typedef {object} Hint
 * @property {number} row
 * @property {number} col
 * @property {boolean} safe
 * @property {number} probability
 * @property {string} reason  in words, cells named from 1 ("row 3, column 5")
 * @property {boolean} ranks  false: help keeps this game off the leaderboard
 */
/** @typedef {"logic" | "guess" | "avoidable" | "risky" | "flag" | "wrong-flag" | "unflag" | "lost"} Verdict */
/**
 * @typedef {object} ReviewMove  One move judged from the board before it (`MoveReview.to_dict`).
 * @property {number} index
 * @property {string} move
 * @property {"open" | "flag" | "chord"} kind
 * @property {number} row
 * @property {number} col
 * @property {number} time
 * @property {Verdict} verdict
 * @property {number} risk
 * @property {number} least_risk
 * @property {boolean} safe_known
 * @property {string} label  the verdict in a few words, for the list of moves
 * @property {string} comment
 * @property {{others: number | null, cells: [number, number, number][]}} chances  the undecided cells' chances before it
 * @property {[number, number, "safe" | "mine"][]} proved  cells certain before it, not before the move ahead of it
 * @property {number} mines_left  before it
 * @property {Changed[]} changed  the cells it changed, with their symbols after it
 */
/**
 * @typedef {object} GameReview  A finished game judged move by move (`Review.to_dict`).
 * @property {number} rows
 * @property {number} cols
 * @property {number} mines
 * @property {Status} status
 * @property {number} elapsed
 * @property {number} three_bv
 * @property {number} clicks  every click, the wasted ones too (as the summary's)
 * @property {number} useful_clicks
 * @property {number} wasted_clicks
 * @property {number | null} efficiency  3BV per click, in percent, for a win
 * @property {number | null} three_bv_per_second  for a win
 * @property {number} guesses
 * @property {number} avoidable
 * @property {number} risky
 * @property {number} survived  risks taken and survived
 * @property {number} luck
 * @property {string} summary
 * @property {[string, string][]} figures  the game's figures as terms and words
 * @property {string[]} start  the board before the first move
 * @property {number} final_mines_left
 * @property {ReviewMove[]} moves
 */

export {};
/**
 * @typedef {object} AccountGame  One of a player's latest games (`GET /api/players/{name}`).
 * @property {string} id
 * @property {number} finished_at
 * @property {"beginner" | "intermediate" | "expert" | null} preset
 * @property {number} rows
 * @property {number} cols
 * @property {number} mines
 * @property {boolean} no_guess
 * @property {string | null} daily  the day of the daily board it was played on
 * @property {Status} status
 * @property {number} elapsed
 * @property {number} three_bv
 * @property {boolean} ranked
 * @property {string} replay  the address that plays it back
 * @property {boolean} no_flags  won without a single flag
 * @property {number} clicks
 * @property {number | null} three_bv_per_second  for a win
 * @property {number | null} efficiency  for a win, in percent
 * @property {string} review  the address of its review
 */
/** @typedef {AccountGame} HistoryEntry  One game of `GET /api/players/{name}/games`. */
/** @typedef {{games: HistoryEntry[], next: string | null}} HistoryPage */
/** @typedef {"beginner" | "intermediate" | "expert"} PresetName */
/**
 * @typedef {object} ImportedBoard  One preset board's statistics counted by a browser.
 * @property {PresetName} preset
 * @property {boolean} no_guess
 * @property {number} games
 * @property {number} wins
 * @property {number} best_streak
 * @property {number | null} best_time
 * @property {number | null} best_three_bv_per_second
 */
/**
 * @typedef {object} Imported  A browser's statistics an account took: apart, never verified.
 * @property {number} imported_at
 * @property {false} verified
 * @property {ImportedBoard[]} boards
 */
/**
 * @typedef {object} Profile  A player's public profile (`GET /api/players/{name}`).
 * @property {string} name
 * @property {number} created_at
 * @property {number} games
 * @property {number} wins
 * @property {number | null} win_rate
 * @property {{current: number, best: number}} streak
 * @property {Partial<Record<"beginner" | "intermediate" | "expert", number>>} best
 * @property {Partial<Record<"beginner" | "intermediate" | "expert", number>>} best_no_guess
 * @property {Partial<Record<"beginner" | "intermediate" | "expert", number>>} best_daily
 * @property {Partial<Record<"beginner" | "intermediate" | "expert", number>>} best_daily_no_guess
 * @property {Partial<Record<"beginner" | "intermediate" | "expert", number>>} best_no_flags
 * @property {Partial<Record<"beginner" | "intermediate" | "expert", number>>} best_no_flags_no_guess
 * @property {{best: number | null, average: number | null}} three_bv_per_second
 * @property {number | null} efficiency
 * @property {Imported | null} imported
 * @property {AccountGame[]} history
 */
