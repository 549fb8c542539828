// The local copy of htmx when the CDN copy does not come (static/vendor/htmx.min.js).
//
// base.html loads htmx from the CDN with `defer`, last of the page's scripts, so it never holds
// up the first paint nor the other scripts. This file is deferred too but comes before it, so
// it runs as soon as the page is parsed, whatever the CDN does (no inline script, no
// document.write: the CSP stays strict). It loads the local copy when the CDN copy fails
// (blocked, offline) or has not arrived after WAIT_MS (a stalled CDN on weak Wi-Fi keeps the
// page's load events waiting for as long as it stalls).
//
// A copy that arrives after the page was parsed never starts by itself: htmx 2 waits for
// DOMContentLoaded, which has passed or is held up by the stalled CDN script. So this file
// starts it (htmx.process(document.body), see /work/shared/RECIPES.md) with the page's
// htmx-config meta, and then pins window.htmx so a CDN copy arriving even later cannot
// replace the instance already in use (elements are never bound twice: both copies keep their
// state in the same per-element property). It also stands in for htmx's Back-button handling,
// which such a late copy never sets up.
(function () {
  "use strict";

  var WAIT_MS = 3000;
  var me = document.currentScript;
  var cdn = document.querySelector("script[data-htmx-cdn]");
  var localSrc = me && me.getAttribute("data-local");
  var requested = false;

  function start() {
    var htmx = window.htmx;
    if (!htmx) { return; }
    var meta = document.querySelector('meta[name="htmx-config"]');
    if (meta) {
      try { Object.assign(htmx.config, JSON.parse(meta.getAttribute("content"))); } catch (e) { /* keep defaults */ }
    }
    htmx.process(document.body);
    // htmx sets up its Back-button handling (window.onpopstate) only when it starts itself at
    // DOMContentLoaded, which a late copy misses: then an address htmx pushed is loaded whole
    // when Back or Forward lands on it, instead of leaving the page that was there.
    if (!window.onpopstate) {
      window.addEventListener("popstate", function (ev) {
        if (ev.state && ev.state.htmx) { window.location.reload(); }
      });
    }
    try {
      Object.defineProperty(window, "htmx", { value: htmx, writable: false, configurable: false });
    } catch (e) { /* already pinned */ }
    htmx.trigger(document.body, "htmx:load", {});
  }

  function loadLocal() {
    if (requested || window.htmx || !localSrc) { return; }
    requested = true;
    var script = document.createElement("script");
    script.src = localSrc;
    script.addEventListener("load", start);
    document.head.appendChild(script);
  }

  if (cdn) { cdn.addEventListener("error", loadLocal); }
  window.setTimeout(loadLocal, WAIT_MS);
})();
