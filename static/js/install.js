// The home page's "Install the app" button (templates/games/index.html), shown where the browser
// offers installing (beforeinstallprompt; docs/OFFLINE.md). Only the home page loads it (it was
// part of offline.js, which the scorekeeper's page loads too: issue 26's byte budget).
(function () {
  "use strict";

  var hint = document.getElementById("install-hint");
  var button = document.getElementById("install-app");
  if (!hint || !button) { return; }
  var offer = null;
  window.addEventListener("beforeinstallprompt", function (ev) {
    ev.preventDefault();
    offer = ev;
    hint.hidden = false;
  });
  button.addEventListener("click", function () {
    if (!offer) { return; }
    offer.prompt();
    offer.userChoice.then(function () { hint.hidden = true; offer = null; });
  });
  window.addEventListener("appinstalled", function () { hint.hidden = true; });
})();
