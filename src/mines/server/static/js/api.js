// Talking to the server: JSON requests, and errors that keep the server's machine-readable code.

export class ApiError extends Error {
  /**
   * @param {number} status  HTTP status, 0 when the server could not be reached
   * @param {string} code  the server's stable code (docs/server.md, "Error codes")
   * @param {string} detail  the server's own sentence (shown where it names what to change: a name's rule)
   * @param {{field: string, problem: string}[]} errors  which fields a validation error names
   * @param {number | null} [retryAfter]  seconds the server asked to wait (its Retry-After)
   */
  constructor(status, code, detail, errors, retryAfter = null) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }
}

/** A code for answers without one (a proxy's page, an older server). @param {number} status */
function codeOf(status) {
  if (status === 401) return "not_authenticated";
  if (status === 403) return "forbidden";
  if (status === 404) return "game_not_found";
  if (status === 409) return "illegal_move";
  if (status === 413) return "body_too_large";
  if (status === 422) return "validation_error";
  if (status === 429) return "rate_limited";
  if (status === 503) return "storage_unavailable";
  return "server_error";
}

/**
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<T>}
 */
export async function request(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", String(error), []);
  }
  /** @type {any} */
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = data && typeof data.code === "string" ? data.code : codeOf(response.status);
    const detail = data && typeof data.detail === "string" ? data.detail : response.statusText;
    const errors = data && Array.isArray(data.errors) ? data.errors : [];
    const wait = Number(response.headers.get("Retry-After"));
    throw new ApiError(response.status, code, detail, errors, Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : null);
  }
  return /** @type {T} */ (data);
}

/**
 * The token this browser keeps for a game it created, or null. Moves need it; so do reads of
 * a daily game until its day is over (only its player may read it, docs/server.md).
 * @param {string} id
 */
export function gameToken(id) {
  return localStorage.getItem(`mines:token:${id}`);
}

/** Keep a new game's token in this browser. @param {string} id @param {string} token */
export function keepGameToken(id, token) {
  localStorage.setItem(`mines:token:${id}`, token);
}

/** The query of a window. @param {{top: number, left: number, height: number, width: number}} box */
export function windowQuery(box) {
  return `?top=${box.top}&left=${box.left}&height=${box.height}&width=${box.width}`;
}
