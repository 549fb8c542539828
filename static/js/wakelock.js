// Keeps the screen awake while a game page is open, where the browser supports the Screen Wake
// Lock API. The lock is released by the browser when the page is hidden, so it is requested
// again whenever the page becomes visible.
(function () {
  "use strict";
  if (!("wakeLock" in navigator)) { return; }
  var lock = null;

  function acquire() {
    if (document.visibilityState !== "visible" || (lock && !lock.released)) { return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
    }).catch(function () {
      lock = null; // e.g. battery saver or no user gesture yet: silently go without
    });
  }

  document.addEventListener("visibilitychange", acquire);
  document.addEventListener("click", acquire, { once: true });
  acquire();
})();
