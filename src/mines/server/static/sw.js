// The service worker: the versioned app shell kept for offline use, and the reviews a player opened.

// The server writes in the release's version and its shell (web/assets.py) when it serves this file.
const VERSION = "VERSION";
/** @type {string[]} */
const SHELL = ["SHELL"];
const SHELL_CACHE = `mines-shell-${VERSION}`;
/** Reviews outlive a release (their answers do not change): one cache, the newest kept. */
const REVIEW_CACHE = "mines-reviews-v1";
const REVIEWS_KEPT = 20;
/** Cached answers that let the pages start offline; always asked of the network first. */
const FRESH_FIRST = new Set(["/api/meta"]);
const REVIEW = /^\/api\/games\/[^/]+\/review$/;
/** A page at an address with an ID: answered offline with the page kept for its kind. */
const PAGES = [["/review/", "/review/shell"], ["/players/", "/players/shell"], ["/race", "/race"]];

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  // An older release's shell goes: its files are not this release's.
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names
      .filter((name) => name.startsWith("mines-shell-") && name !== SHELL_CACHE)
      .map((name) => caches.delete(name))))
    .then(() => worker.clients.claim()));
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request, url));
  else if (url.pathname.startsWith(`/static/${VERSION}/`)) event.respondWith(shellFile(request));
  else if (REVIEW.test(url.pathname)) event.respondWith(review(request));
  else if (FRESH_FIRST.has(url.pathname)) event.respondWith(freshFirst(request, SHELL_CACHE));
});

/** A page: the network's when it answers, else the kept page of its kind. @param {Request} request @param {URL} url */
async function page(request, url) {
  try {
    return await fetch(request);
  } catch (error) {
    const kind = PAGES.find(([prefix]) => url.pathname.startsWith(prefix));
    const kept = await caches.match(kind ? kind[1] : "/", { cacheName: SHELL_CACHE });
    if (kept) return kept;
    throw error;
  }
}

/** A file of this release: it never changes, so the kept copy is used. @param {Request} request */
async function shellFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  return kept ?? fetch(request);
}

/** The network's answer, kept; the kept one when the network fails. @param {Request} request @param {string} cacheName */
async function freshFirst(request, cacheName) {
  try {
    const answer = await fetch(request);
    if (answer.ok) {
      const cache = await caches.open(cacheName);
      await cache.put(request, answer.clone());
    }
    return answer;
  } catch (error) {
    const kept = await caches.match(request, { cacheName });
    if (kept) return kept;
    throw error;
  }
}

/** A game's review, kept when viewed (the newest REVIEWS_KEPT), readable offline. @param {Request} request */
async function review(request) {
  const answer = await freshFirst(request, REVIEW_CACHE);
  if (answer.ok) {
    const cache = await caches.open(REVIEW_CACHE);
    const keys = await cache.keys();
    // Keys come back in the order they were put: the oldest go first.
    await Promise.all(keys.slice(0, Math.max(0, keys.length - REVIEWS_KEPT)).map((key) => cache.delete(key)));
  }
  return answer;
}
