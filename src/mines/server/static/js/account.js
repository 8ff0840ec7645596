// Signing in, up and out on the game page: only games started while signed in rank, under the
// account's name. The session is an HttpOnly cookie this script never sees; it asks /api/me.

import { ApiError, request } from "./api.js";
import { $, inputOf } from "./dom.js";
import { importableStats, sayImported } from "./scores.js";
import { showRefusal } from "./words.js";
import { t, tn } from "./i18n.js";

/** @typedef {{name: string, created_at: number, stats_imported: boolean}} Account */
/** @typedef {import("./types.js").Meta} Meta */

/** Set once this browser offered its statistics to an account, taken or not: it asks once. */
const OFFERED_KEY = "mines:stats-offered";

/** Show who is signed in (or the form), and put the account's name in the game's name field. @param {Account | null} account */
function show(account) {
  $("account-form").hidden = account !== null;
  $("account-signed-in").hidden = account === null;
  $("account-summary").textContent = account ? account.name : t("Sign in");
  $("account-error").textContent = "";
  $("account-who").textContent = account ? account.name : "";
  if (account) {
    /** @type {HTMLAnchorElement} */ ($("account-profile")).href = `/players/${encodeURIComponent(account.name)}`;
    inputOf("player").value = account.name;
  }
  inputOf("player").readOnly = account !== null;
}

/** @param {string} words */
function say(words) {
  $("account-said").textContent = words;
}

/**
 * After a sign-up or sign-in: offer this browser's own statistics to the account, once per
 * browser, when it has some of a preset board and the account has taken none.
 * @param {Account} account
 */
async function offerStats(account) {
  if (account.stats_imported || localStorage.getItem(OFFERED_KEY)) return;
  const boards = importableStats((await meta()).presets);
  if (!boards.length) return;
  $("import-stats-boards").replaceChildren(...boards.map((board) => {
    const item = document.createElement("li");
    item.textContent = sayImported(board);
    return item;
  }));
  const dialog = /** @type {HTMLDialogElement} */ ($("import-stats"));
  dialog.returnValue = "";
  dialog.showModal();
  await new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
  try {
    localStorage.setItem(OFFERED_KEY, String(Date.now()));
  } catch {
    // Storage refused (private mode): the offer may come again, and the server takes it once.
  }
  if (dialog.returnValue !== "import") {
    say(t("This browser's statistics stay in this browser only."));
    return;
  }
  await request("POST", "/api/me/imported-stats", { boards });
  say(t("This browser's statistics were added to your profile, marked as imported and not verified."));
}

/** @type {Promise<Meta> | null} */
let metaAsked = null;

/** The server's presets and rules (/api/meta), asked once. @returns {Promise<Meta>} */
function meta() {
  metaAsked ??= request("GET", "/api/meta");
  return metaAsked;
}

/** The password help, from the server's limits. */
async function showPasswordRule() {
  try {
    const { min_length: least, max_length: most } = (await meta()).passwords;
    $("password-help").textContent = t("{least} to {most} characters.", { least, most });
  } catch {
    // The server is away: the form says so when it is sent.
  }
}

async function start() {
  showPasswordRule();
  try {
    // /api/session answers 200 signed in or not: no failed request in the console.
    show((/** @type {{account: Account | null}} */ (await request("GET", "/api/session"))).account);
  } catch (error) {
    show(null);  // the server is away: the form is offered
  }
  $("account-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const creating = submitter instanceof HTMLButtonElement && submitter.value === "sign-up";
    const body = { name: inputOf("account-name").value, password: inputOf("account-password").value };
    const passwords = (await meta()).passwords;
    if (body.password.length < passwords.min_length) {
      $("account-error").textContent = t("A password has {n} characters or more.", { n: passwords.min_length });
      inputOf("account-password").focus();
      return;
    }
    try {
      /** @type {Account} */
      const account = await request("POST", creating ? "/api/accounts" : "/api/session", body);
      inputOf("account-password").value = "";
      show(account);
      say(t("Signed in as {name}. New games rank on the leaderboard.", { name: account.name }));
      $("sign-out").focus();
      await offerStats(account);
    } catch (error) {
      if (error instanceof ApiError) showRefusal($("account-error"), error);
      else $("account-error").textContent = String(error);
    }
  });
  $("account-manage-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const deleting = submitter instanceof HTMLButtonElement && submitter.value === "delete";
    const password = inputOf("account-current").value;
    try {
      if (deleting) {
        if (!window.confirm(t("Delete your account? Your games stay, anonymous. This cannot be undone."))) return;
        await request("DELETE", "/api/me", { password });
        inputOf("account-current").value = "";
        show(null);
        say(t("Your account is deleted. New games are anonymous and do not rank."));
        return;
      }
      const newPassword = inputOf("account-new").value;
      const passwords = (await meta()).passwords;
      if (newPassword.length < passwords.min_length) {
        $("account-error").textContent = t("A password has {n} characters or more.", { n: passwords.min_length });
        inputOf("account-new").focus();
        return;
      }
      /** @type {{signed_out: number}} */
      const done = await request("PUT", "/api/me/password", { password, new_password: newPassword });
      inputOf("account-current").value = "";
      inputOf("account-new").value = "";
      $("account-error").textContent = "";
      say(tn("Password changed; {n} other session signed out.", "Password changed; {n} other sessions signed out.", done.signed_out));
    } catch (error) {
      if (error instanceof ApiError) showRefusal($("account-error"), error);
      else $("account-error").textContent = String(error);
    }
  });
  $("sign-out").addEventListener("click", async () => {
    try {
      await request("DELETE", "/api/session");
      show(null);
      say(t("Signed out. New games are anonymous and do not rank."));
      inputOf("account-name").focus();
    } catch (error) {
      if (error instanceof ApiError) showRefusal($("account-error"), error);
      else $("account-error").textContent = String(error);
    }
  });
  // The panel closes with Escape, or a press anywhere else, and gives the focus back.
  const panel = /** @type {HTMLDetailsElement} */ ($("account"));
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !panel.open) return;
    panel.open = false;
    $("account-summary").focus();
  });
  // (A dialog the panel opened, the offer of this browser's statistics, leaves it open.)
  document.addEventListener("pointerdown", (event) => {
    const target = event.target;
    if (!panel.open || !(target instanceof Element) || panel.contains(target) || target.closest("dialog")) return;
    panel.open = false;
  });
}

start();
