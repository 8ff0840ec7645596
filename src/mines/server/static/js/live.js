// A WebSocket that comes back: reconnects with backoff after a restart or a network drop.

const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 15_000;

/**
 * Whether a close code means trying again cannot help: no such game or room, a bad window,
 * a frame the server refuses (docs/server.md, "WebSocket").
 * @param {number} code
 */
function isFinal(code) {
  return code === 1003 || code === 1009 || (code >= 4400 && code < 4500 && code !== 4429);
}

/**
 * @typedef {object} Listener
 * @property {(data: any) => void} message  each message, parsed
 * @property {() => void} back  the socket is open (again): its first message is the whole state
 * @property {(seconds: number) => void} away  the socket is lost; the next try is in `seconds`
 * @property {(code: number) => void} [gone]  closed for good (`isFinal`): no more tries
 */

export class LiveSocket {
  /** @param {Listener} listener */
  constructor(listener) {
    this.listener = listener;
    /** @type {string | null} */
    this.path = null;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.failures = 0;
    /** @type {number | undefined} */
    this.retry = undefined;
    this.away = false;
    // Back online or back in view: try at once rather than at the end of a long wait.
    const now = () => { if (this.away && this.path) this.open(); };
    window.addEventListener("online", now);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) now(); });
  }

  /** Watch `path` (from the site's root, with its query), instead of whatever before. @param {string} path */
  connect(path) {
    this.path = path;
    this.failures = 0;
    this.open();
  }

  close() {
    this.path = null;
    window.clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
    this.away = false;
  }

  open() {
    window.clearTimeout(this.retry);
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      old.close();
    }
    if (!this.path) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = socket;
    let opened = false;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      opened = true;
      this.failures = 0;
      this.away = false;
      this.listener.back();
    });
    socket.addEventListener("message", (event) => {
      if (this.socket === socket) this.listener.message(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;  // replaced or closed on purpose
      this.socket = null;
      if (isFinal(event.code)) {
        this.path = null;
        this.listener.gone?.(event.code);
        return;
      }
      if (!opened) this.failures += 1;
      // Doubling waits with jitter, so a restarted server is not met by every page at once.
      const wait = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(this.failures, 10));
      const jittered = Math.round(wait * (0.5 + Math.random() / 2));
      this.away = true;
      this.listener.away(Math.ceil(jittered / 1000));
      this.retry = window.setTimeout(() => this.open(), jittered);
    });
  }
}
