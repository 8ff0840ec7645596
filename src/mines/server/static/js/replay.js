// Playing back a finished game from the server's frames: no rules here, only the cells each move changed.

import { $, inputOf, selectOf } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Changed} Changed */

const LONGEST_PAUSE_MS = 1500;
const SHORTEST_PAUSE_MS = 40;

export class Player {
  /**
   * @param {Replay} replay
   * @param {(view: View) => void} show  draws a frame as a view of the window
   * @param {(step: number) => void} moved  told the step shown after every change
   */
  constructor(replay, show, moved) {
    this.replay = replay;
    this.show = show;
    this.moved = moved;
    this.step = 0;
    this.speed = 1;
    /** @type {number | null} */
    this.timer = null;
    const { height, width } = replay;
    /** @type {string[]} */
    this.cells = replay.initial.join("").split("");
    // What each frame overwrote, so stepping back restores it without any rule.
    /** @type {Changed[][]} */
    this.before = [];
    const work = this.cells.slice();
    for (const frame of replay.frames) {
      this.before.push(frame.changed.map(([r, c]) => {
        const i = (r - replay.top) * width + (c - replay.left);
        const old = /** @type {Changed} */ ([r, c, work[i]]);
        return old;
      }));
      for (const [r, c, s] of frame.changed) work[(r - replay.top) * width + (c - replay.left)] = s;
    }
    this.height = height;
    this.width = width;
  }

  get length() {
    return this.replay.frames.length;
  }

  get playing() {
    return this.timer !== null;
  }

  /** The view after `step` moves. */
  view() {
    const { replay, step } = this;
    const frame = step > 0 ? replay.frames[step - 1] : null;
    const lines = [];
    for (let r = 0; r < this.height; r++) lines.push(this.cells.slice(r * this.width, (r + 1) * this.width).join(""));
    const final = step === this.length;
    return /** @type {View} */ ({
      rows: replay.final.rows, cols: replay.final.cols, top: replay.top, left: replay.left,
      status: frame ? frame.status : "IN_PROGRESS",
      mines_left: frame ? frame.mines_left : replay.final.mines_left + countFlags(replay.final),
      elapsed: final ? replay.final.elapsed : frame ? frame.time : 0,
      cells: lines,
    });
  }

  /** @param {Changed[]} changed */
  write(changed) {
    for (const [r, c, s] of changed) this.cells[(r - this.replay.top) * this.width + (c - this.replay.left)] = s;
  }

  /** Go to a step, forward or back. @param {number} target */
  seek(target) {
    const to = Math.max(0, Math.min(this.length, Math.round(target)));
    while (this.step < to) this.write(this.replay.frames[this.step++].changed);
    while (this.step > to) this.write(this.before[--this.step]);
    this.show(this.view());
    this.moved(this.step);
  }

  play() {
    if (this.step >= this.length) this.seek(0);
    this.pause();
    const next = () => {
      if (this.step >= this.length) {
        this.pause();
        this.moved(this.step);
        return;
      }
      this.seek(this.step + 1);
      if (this.step >= this.length) {
        this.pause();
        this.moved(this.step);
        return;
      }
      const now = this.replay.frames[this.step - 1].time;
      const then = this.replay.frames[this.step].time;
      const pause = Math.min(LONGEST_PAUSE_MS, Math.max(SHORTEST_PAUSE_MS, (then - now) * 1000)) / this.speed;
      this.timer = window.setTimeout(next, pause);
    };
    this.timer = window.setTimeout(next, SHORTEST_PAUSE_MS);
    this.moved(this.step);
  }

  pause() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

const PLAY_PATH = "M4 2v12l10-6z";
const PAUSE_PATH = "M3 2h4v12H3zM9 2h4v12H9z";

/**
 * The play button as what a press does now: play, or pause while playing (drawn as inline
 * SVG: the ⏸ and ▶ characters are empty boxes in fonts that lack them).
 * @param {HTMLElement} button @param {boolean} playing
 */
export function showPlaying(button, playing) {
  const path = button.querySelector("svg path");
  if (path) path.setAttribute("d", playing ? PAUSE_PATH : PLAY_PATH);
  button.dataset.playing = String(playing);
  button.setAttribute("aria-label", playing ? t("Pause") : t("Play"));
}

/**
 * Wires a page's replay bar (play, back, forward, scrub, speed) to whichever player is open.
 * The single game's page and the race page share the bar's markup and these handlers.
 * @param {() => Player | null} current
 */
export function bindControls(current) {
  // Stepping or scrubbing by hand pauses the playback first.
  /** @param {(step: number) => number} to */
  const seek = (to) => {
    const player = current();
    if (!player) return;
    player.pause();
    player.seek(to(player.step));
  };
  $("replay-play").addEventListener("click", () => {
    const player = current();
    if (!player) return;
    if (player.playing) {
      player.pause();
      player.moved(player.step);
    } else {
      player.play();
    }
  });
  $("replay-back").addEventListener("click", () => seek((step) => step - 1));
  $("replay-forward").addEventListener("click", () => seek((step) => step + 1));
  $("replay-scrub").addEventListener("input", () => seek(() => Number(inputOf("replay-scrub").value)));
  $("replay-speed").addEventListener("change", () => {
    const player = current();
    if (player) player.speed = Number(selectOf("replay-speed").value);
  });
}

/** Flags in a view: before any move, the counter shows every mine. @param {View} view */
function countFlags(view) {
  let flags = 0;
  for (const line of view.cells) for (const ch of line) if (ch === "F" || ch === "W") flags++;
  return flags;
}
