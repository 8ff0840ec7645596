// Signing in, up and out on the game page: only games started while signed in rank, under the
// account's name. The session is an HttpOnly cookie this script never sees; it asks /api/me.

import { ApiError, request } from "./api.js";
import { $, inputOf } from "./dom.js";
import { sayError } from "./words.js";

/** @typedef {{name: string, created_at: number}} Account */

/** Show who is signed in (or the form), and put the account's name in the game's name field. @param {Account | null} account */
function show(account) {
  $("account-form").hidden = account !== null;
  $("account-signed-in").hidden = account === null;
  $("account-summary").textContent = account ? account.name : "Sign in";
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

async function start() {
  try {
    show(await request("GET", "/api/me"));
  } catch (error) {
    show(null);  // nobody is signed in (401), or the server is away: the form is offered
  }
  $("account-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const creating = submitter instanceof HTMLButtonElement && submitter.value === "sign-up";
    const body = { name: inputOf("account-name").value, password: inputOf("account-password").value };
    if (body.password.length < 8) {
      $("account-error").textContent = "A password has 8 characters or more.";
      inputOf("account-password").focus();
      return;
    }
    try {
      /** @type {Account} */
      const account = await request("POST", creating ? "/api/accounts" : "/api/session", body);
      inputOf("account-password").value = "";
      show(account);
      say(`Signed in as ${account.name}. New games rank on the leaderboard.`);
      $("sign-out").focus();
    } catch (error) {
      $("account-error").textContent = error instanceof ApiError ? sayError(error) : String(error);
    }
  });
  $("sign-out").addEventListener("click", async () => {
    try {
      await request("DELETE", "/api/session");
      show(null);
      say("Signed out. New games are anonymous and do not rank.");
      inputOf("account-name").focus();
    } catch (error) {
      $("account-error").textContent = error instanceof ApiError ? sayError(error) : String(error);
    }
  });
}

start();
