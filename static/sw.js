// The service worker (served at /sw.js by companion/web/offline.py, which puts self.CFC first:
// the cache version and the versioned URLs of the app shell).
//
// * The shell (CSS, scripts, icons, the local htmx copy) is fetched at install into
//   "cfc-shell-<version>" and answered from there (versioned URLs never change); a new
//   version deletes the old shell cache when it takes over. A shell file asked for at
//   another version goes to the network, and offline gets the shell's copy.
// * Pages: only the start page "/" and the game pages the server marks as this phone's
//   (header X-Offline-Page: <game id>, on /g/<edit> for its scorekeeper and /p/<share> for a
//   joined player) are kept, each game in "cfc-game-<id>", and answered from there only when
//   the network fails (network first), marked with the time they were saved. Any other answer
//   for such an address (handed over, seat freed, game deleted) deletes the copy, and these
//   pages list the games this phone may still keep (X-Offline-Games): the others are deleted.
// * Everything else (posts, htmx polls and fragments, other pages) goes to the network
//   untouched: nothing is cached that the server did not mark as this phone's.
/* global self, caches, CFC */
"use strict";

var SHELL = "cfc-shell-" + CFC.version;
var GAME = "cfc-game-";
var START = "cfc-start";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL)
      .then(function (cache) {
        // Without cookies: these answers must never write the session cookie back.
        return cache.addAll(CFC.shell.map(function (u) { return new Request(u, { credentials: "omit" }); }));
      })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (n) {
          return n.indexOf("cfc-shell-") === 0 && n !== SHELL;
        }).map(function (n) { return caches.delete(n); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function sameOrigin(url) { return url.origin === self.location.origin; }
function isShell(url) { return sameOrigin(url) && url.pathname.indexOf("/static/") === 0; }
function isStart(url) { return sameOrigin(url) && url.pathname === "/" && !url.search; }
function isGamePage(url) {
  return sameOrigin(url) && !url.search && /^\/(g|p)\/[A-Za-z0-9_-]+$/.test(url.pathname);
}
function pageKey(url) { return url.origin + url.pathname; }

// Delete the kept copy of ``key`` from every game's cache.
function forget(key) {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf(GAME) === 0; })
      .map(function (n) { return caches.open(n).then(function (c) { return c.delete(key); }); }));
  });
}

// Delete the copies of the games this phone may no longer keep (header X-Offline-Games).
function keepOnly(listed) {
  if (listed === null || !/^[0-9,]*$/.test(listed)) { return Promise.resolve(); }
  var keep = listed.split(",").filter(Boolean).map(function (id) { return GAME + id; });
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf(GAME) === 0 && keep.indexOf(n) === -1;
    }).map(function (n) { return caches.delete(n); }));
  });
}

// Keep ``response`` for ``url`` when the server marked it as this phone's; else forget it.
function remember(url, response) {
  var game = response.headers.get("X-Offline-Page") || "";
  var ok = response.type === "basic" && response.status === 200 && !response.redirected;
  var name = null;
  if (ok && isGamePage(url) && /^[0-9]+$/.test(game)) { name = GAME + game; }
  if (ok && isStart(url)) { name = START; }
  if (!name) { return isGamePage(url) ? forget(pageKey(url)) : Promise.resolve(); }
  return response.text().then(function (html) {
    // without its notices (base.html's #flashes: only <p>s): "Hand posted" is news of one
    // answer, not part of the page; shown again offline, it told of an older hand
    html = html.replace(/(<div id="flashes"[^>]*>)[\s\S]*?<\/div>/, "$1</div>");
    var kept = new Response(html, { headers: {
      "Content-Type": "text/html; charset=utf-8",
      "X-Saved-At": new Date().toISOString()
    } });
    return caches.open(name).then(function (c) { return c.put(pageKey(url), kept); });
  });
}

// The kept copy of a page, marked as offline with the time it was saved (offline.js shows it).
function keptCopy(url) {
  return caches.match(pageKey(url)).then(function (hit) {
    if (!hit) { return Response.error(); }
    var saved = hit.headers.get("X-Saved-At") || "";
    return hit.text().then(function (html) {
      var marked = html.replace("<body", '<body data-offline-copy="' + saved.replace(/"/g, "") + '"');
      return new Response(marked, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (isShell(url)) {
    // A file the page asks for at another version than the shell's (table.js loads kept.js
    // and handover.js at its own address with their name, so with table.js's digest): the
    // network, as ever (the server answers any version with the current file); without a
    // connection, the shell's copy of that file. Kept typing and a handover then work offline.
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).catch(function () {
        return caches.open(SHELL).then(function (cache) { return cache.match(request, { ignoreSearch: true }); })
          .then(function (copy) { return copy || Response.error(); });
      });
    }));
    return;
  }
  if (request.mode !== "navigate" || !(isGamePage(url) || isStart(url))) { return; }
  event.respondWith(
    fetch(request).then(function (response) {
      var copy = response.clone(); // before the page reads the body
      event.waitUntil(keepOnly(response.headers.get("X-Offline-Games"))
        .then(function () { return remember(url, copy); }));
      return response;
    }, function () { return keptCopy(url); })
  );
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "keep-first" && typeof data.path === "string") {
    // The first page a fresh browser opened was loaded before this worker controlled it, so
    // it was not kept: fetch it once now (as the page would) and keep it as any page is kept.
    var first = new URL(data.path, self.location.origin);
    if (!isGamePage(first) && !isStart(first)) { return; }
    event.waitUntil(fetch(new Request(first.href, { credentials: "same-origin", headers: { "X-Offline-Copy": "1" } })).then(function (response) {
      return keepOnly(response.headers.get("X-Offline-Games")).then(function () { return remember(first, response); });
    }).catch(function () {}));
    return;
  }
  if (data.type === "snapshot" && typeof data.path === "string" && typeof data.html === "string") {
    // The page changed while open (a save, the live scoreboard): its copy becomes what the
    // phone shows now. Only a page already kept (marked by the server) is updated; no request
    // is made, so no notice meant for the page is taken by a background fetch.
    var url = new URL(data.path, self.location.origin);
    if (!isGamePage(url)) { return; }
    var key = pageKey(url);
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf(GAME) === 0; }).map(function (n) {
        return caches.open(n).then(function (cache) {
          return cache.match(key).then(function (hit) {
            if (!hit) { return null; }
            return cache.put(key, new Response(data.html, { headers: {
              "Content-Type": "text/html; charset=utf-8",
              "X-Saved-At": new Date().toISOString()
            } }));
          });
        });
      }));
    }));
  }
});
