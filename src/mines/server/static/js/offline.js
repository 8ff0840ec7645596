// The installable app: registers the service worker and says when the page is offline.

import { t } from "./i18n.js";

/** A notice at the top of the page while the network is away: play needs the server. */
function showState() {
  let notice = document.getElementById("offline");
  if (navigator.onLine) {
    if (notice) notice.hidden = true;
    return;
  }
  if (!notice) {
    notice = document.createElement("p");
    notice.id = "offline";
    notice.className = "offline";
    notice.setAttribute("role", "status");
    notice.textContent = t("You are offline. Playing and races need the server; the game reviews you opened before stay readable.");
    document.body.prepend(notice);
  }
  notice.hidden = false;
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // No worker (a private window, an old browser): the pages work online as before.
  });
}
window.addEventListener("online", showState);
window.addEventListener("offline", showState);
showState();
