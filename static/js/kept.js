// Run by static/js/table.js (anew each time: window.cfcLater.kept holds its call, the round
// form second) while kept typing of another round waits aside on this phone
// ("cf-round-typed:<game id>!": the entries by their key, game id : rounds entered : double,
// split at its colons here: written by companion/web/kept_keys.py round_key, its one home).
// Its round was saved since (fewer rounds entered than the form's now: on another phone, by
// auto-save, while the tab was closed): the entry is posted to the form's save address as the
// stale form it was, and the server answers 409 with the saved round and this phone's values
// beside it, as a Save of it would (companion/games/play.py _conflict, _beside_saved: the one
// rule of the comparison). That is shown above the round form, and the entry stays until the
// scorekeeper saves it in a correction ("Put mine back in the form", then Save) or forgets
// it: a reload, or a Cancel of the correction, shows it again, as kept with the entry (posted
// once: no 409 at each page), until the round changes (corrected on another phone: compared
// again, once). Nothing differs, or no such round was saved (a double burned): dropped
// quietly. Offline: it waits, and is compared when the connection is back (the
// "online" event). An entry of a round undone since waits for its round to come again
// (table.js puts it back then). docs/TABLE.md "Typing of a round saved meanwhile is never
// dropped unsaid".
(function () {
  "use strict";

  // This file's tag (put in by table.js) takes itself out: the copy the page keeps of itself
  // for offline (static/js/offline.js, a snapshot of the page as shown) must not hold it. A
  // copy kept before, or while the file loaded, still may: run from it, before table.js, this
  // file has nothing to do (table.js loads it again if anything waits).
  var me = document.currentScript || document.createElement("script");
  me.remove();
  var call = (window.cfcLater || {}).kept;
  if (!call) { return; }
  var form = call[1], here = me.src;
  var draft = (form.getAttribute("data-draft") || "").split(":");
  var name = "cf-round-typed:" + draft[0] + "!";
  var area = form.closest("#round-area") || form.parentNode;

  function waiting() {
    try { return JSON.parse(localStorage.getItem(name)) || {}; } catch (e) { return {}; }
  }

  function drop(key) {
    var all = waiting();
    delete all[key];
    try { localStorage.setItem(name, JSON.stringify(all)); } catch (e) { /* refused */ }
  }

  // The kept entry as the form it was: this page's form (its CSRF token, its save address)
  // holding only the kept round's double, hands, ticks and starter, and no version: a stale
  // form, from which the server saves nothing (a round saved meanwhile is compared first).
  function asPosted(kept) {
    var data = new FormData(form);
    Array.from(data.keys()).forEach(function (field) {
      if (/^((total|tiles|out|seen|filled)_\d+|version|double|blocked|out_on_double|starter)$/.test(field)) { data.delete(field); }
    });
    data.set("version", "");
    data.set("double", kept.key.split(":")[2]);
    Object.keys(kept.seats || {}).forEach(function (seat) {
      var hand = kept.seats[seat];
      data.set("total_" + seat, hand.total);
      (hand.tiles || []).forEach(function (tile) { data.append("tiles_" + seat, tile); });
      if (hand.out) { data.set("out_" + seat, "y"); }
      data.set("seen_" + seat, hand.seen || "");
      data.set("filled_" + seat, hand.filled || "");
    });
    ["blocked", "out_on_double", "starter"].forEach(function (field) {
      var value = (kept.own || {})[field];
      if (value) { data.set(field, value === true ? "y" : value); }
    });
    return data;
  }

  function shown(key) {
    return [].some.call(document.querySelectorAll("[data-kept]"), function (box) {
      return box.getAttribute("data-kept") === key;
    });
  }

  // The comparison shown for ``key`` kept with its entry (``answer``: the server's words and
  // the saved round with this phone's values beside it), so that a later page shows it
  // without posting the entry again.
  function remember(key, html) {
    var all = waiting();
    if (!all[key]) { return; }
    all[key].answer = html;
    try { localStorage.setItem(name, JSON.stringify(all)); } catch (e) { /* refused */ }
  }

  // True when ``html``, a comparison kept for ``key``, is of its round as saved now (a
  // correction made since on another phone changed it: asked again). The rule's one home:
  // static/js/offline.js (the game page runs it before table.js loads this file).
  function current(key, html) {
    return !!window.cfc.current(area.querySelector(".rounds-saved"), key.split(":")[2], html);
  }

  // The saved round with this phone's values beside it, from the 409 answer (or as kept from
  // it), above the form.
  function show(key, html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var mine = doc.querySelector(".saved-hands.mine");
    if (!mine) { drop(key); return; } // nothing differs
    if (shown(key) || !document.body.contains(form)) { return; }
    var box = document.createElement("div");
    box.setAttribute("data-kept", key);
    var said = doc.querySelector(".flash.error");
    if (said) { box.appendChild(said); }
    box.appendChild(mine.closest("section"));
    remember(key, box.innerHTML);
    // a kept one's Put mine back: with this page's CSRF token
    box.querySelectorAll("[name=csrf_token]").forEach(function (field) {
      field.value = (form.querySelector("[name=csrf_token]") || field).value;
    });
    // newest round first, whichever answer came first
    // (the server's own comparison, a section inside the round area, counts by its place)
    var boxes = [].map.call(area.querySelectorAll("[data-kept]"), function (other) {
      var top = other;
      while (top.parentNode !== area) { top = top.parentNode; }
      return { top: top, rounds: +other.getAttribute("data-kept").split(":")[1] };
    });
    var older = boxes.filter(function (other) { return other.rounds < +key.split(":")[1]; })[0];
    var last = boxes[boxes.length - 1];
    area.insertBefore(box, older ? older.top : last ? last.top.nextSibling : area.firstChild);
  }

  function compare(key, kept) {
    fetch(form.action, {
      method: "POST",
      // asked again (the round corrected since): what the comparison named this phone's only
      // (companion/games/play.py _named_own), not a seat another phone corrected since
      body: window.cfc.withPutBack(asPosted(kept), kept.answer),
      credentials: "same-origin",
      headers: { "HX-Request": "true" }
    }).then(function (r) {
      // 409: the comparison (or what was saved, nothing beside it); 422: no such round saved;
      // anything else (offline, handed over): try again at the next page
      if (r.status === 422) { drop(key); }
      return r.status === 409 ? r.text() : null;
    }).then(function (html) {
      if (html !== null) { show(key, html); }
    }).catch(function () { /* offline: the entry waits */ });
  }

  // the correction "Put mine back" opened was saved (whatever it holds now): resolved
  document.querySelectorAll("[data-resolved]").forEach(function (mark) {
    drop(mark.getAttribute("data-resolved"));
  });
  var all = waiting();
  var saved = Object.keys(all).filter(function (key) {
    var rounds = +key.split(":")[1];
    if (rounds === +draft[1]) { drop(key); } // another double at the same point: not coming
    return rounds < +draft[1];
  }).sort(function (a, b) { return b.split(":")[1] - a.split(":")[1]; });
  // A comparison the page shows already (a Save refused, or the auto-save switch, as the
  // round was saved meanwhile) is the newest waiting entry's: it answers for it.
  var there = area.querySelector(".saved-hands.mine");
  var section = there && there.closest("section:not([data-kept])");
  if (section && saved.length && !there.closest("[data-kept]")) {
    section.setAttribute("data-kept", saved[0]);
    var said = area.querySelector(".flash.error");
    remember(saved[0], (said ? said.outerHTML : "") + section.outerHTML);
  }
  // Each entry is posted at most once for its round as saved: the comparison it was answered
  // with is kept and shown on later pages until the round changes.
  saved.forEach(function (key) {
    if (shown(key)) { return; }
    if (current(key, all[key].answer)) { show(key, all[key].answer); } else { compare(key, all[key]); }
  });

  if (window.cfcLater.keptOn) { return; }
  window.cfcLater.keptOn = true;
  // Offline (a page from the service worker's copy, this file from its shell) the comparisons
  // failed and the entries wait: compared again as soon as the connection is back, the page
  // not reloaded (this file run anew, for the form shown then).
  window.addEventListener("online", function () {
    if (here) { document.head.appendChild(document.createElement("script")).src = here; }
  });
  // Resolved: forgotten (the link, without JavaScript, only draws the game page again), or
  // put back in a correction that was saved: "Put mine back" sends the entry's key along
  // (kept), the correction carries it, and its Save's answer names it (data-resolved, above).
  // A tap alone drops nothing: a Cancel, or a tap offline, would lose the typing.
  document.addEventListener("submit", function (ev) {
    var box = ev.target.closest && ev.target.closest("[data-kept]");
    if (!box) { return; }
    var key = document.createElement("input");
    key.type = "hidden";
    key.name = "kept";
    key.value = box.getAttribute("data-kept");
    ev.target.appendChild(key);
  });
  document.addEventListener("click", function (ev) {
    var forget = ev.target.closest && ev.target.closest("[data-forget]");
    var box = forget && forget.closest("[data-kept]");
    if (!box) { return; }
    ev.preventDefault();
    drop(box.getAttribute("data-kept"));
    box.remove();
  });
})();
