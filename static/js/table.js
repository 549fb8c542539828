// The scorekeeper's round form fills itself from the hands posted on the players' phones
// (progressive: without this file the form is filled when the page is loaded).
// Every few seconds it asks /g/<edit>/posts?v=<key>: 204 while nothing changed, else JSON with
// each posted hand. A seat the scorekeeper has not touched takes the posted hand (and its
// revision, in seen_<seat>); a seat the scorekeeper typed in keeps what was typed and is marked
// "changed on their phone" with the posted value beside it, which counts as seen (seen_<seat>):
// the next Save keeps the typing; the server refuses a save over a post the page never showed. What the scorekeeper typed is kept on the phone until the round is
// saved (a reload puts it back), and a box that differs from its phone's post offers "Use
// Bob's post". A saved round, a handover or a new request reloads the page when
// nothing was typed (a tick, a starter), else says so (docs/TABLE.md).
(function () {
  "use strict";

  function field(form, name) { return form.querySelector('[name="' + name + '"]'); }

  // A part of this page needed now and then, run when needed: static/js/<name>.js, run anew
  // each time, with what it needs in window.cfcLater[name] (kept.js: kept typing of another
  // round waits; handover.js: this phone no longer keeps score).
  var LATER = window.cfcLater = {}, HERE = (document.currentScript || {}).src;
  function later(name) {
    LATER[name] = arguments; // [name, the form, a refused answer, banner]
    document.head.appendChild(document.createElement("script")).src = HERE.replace("table.js", name + ".js");
  }

  function fill(form, seat, hand) {
    var total = field(form, "total_" + seat), key = postKey(hand);
    if (total) {
      total.value = /\D/.test(key) ? "" : key; // ("out", "tiles:...": not a total)
      // a tile post shows its sum in the empty box, so the scorekeeper sees what typing replaces
      if (!total.hasAttribute("data-placeholder")) { total.setAttribute("data-placeholder", total.placeholder); }
      total.placeholder = hand.points != null && !hand.went_out ? String(hand.points) : total.getAttribute("data-placeholder");
    }
    (field(form, "out_" + seat) || {}).checked = !!hand.went_out;
    // the post the box now holds, as HandValue.key() writes it: the server tells it from typing
    (field(form, "filled_" + seat) || {}).value = key;
    setTiles(form, seat, hand.tiles);
    (field(form, "seen_" + seat) || {}).value = hand.revision;
  }

  // Tick ``tiles`` in a hand's open picker; a hand whose tile picker is not open (pickers are
  // built on demand) carries them as hidden fields, so that saving sends them as if tapped.
  function setTiles(form, seat, tiles) {
    var total = field(form, "total_" + seat);
    var boxes = form.querySelectorAll('input[type="checkbox"][name="tiles_' + seat + '"]');
    boxes.forEach(function (box) { // (a box changed says so: the picker's sum, score.js)
      if (box.checked !== tiles.includes(box.value)) {
        box.checked = !box.checked;
        box.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
    form.querySelectorAll('input.posted-tile[name="tiles_' + seat + '"]').forEach(function (old) {
      old.remove();
    });
    if (!boxes.length && total) {
      var hand_box = total.closest("fieldset") || form;
      tiles.forEach(function (tile) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = "tiles_" + seat;
        input.value = tile;
        input.className = "posted-tile";
        hand_box.appendChild(input);
      });
    }
  }

  // --- the scorekeeper's own typing, kept on this phone until the round is saved -----------
  // One entry per game in localStorage ("cf-round-typed:<game id>") holding the form's key
  // (data-draft: id:rounds:double, web/kept_keys round_key), per hand typed in the box,
  // the tick, the tiles, the post revision the form had seen and the post the box was filled
  // from, and (once one was touched) the round's ticks and who started. A reload, or a tab the
  // phone killed, puts them back; a save of this phone's drops the entry. An entry of another
  // round (saved or undone since: the rounds entered changed, not the game's version, which a
  // switch changes too) waits aside ("cf-round-typed:<game id>!", by key): static/js/kept.js
  // shows one saved since beside the saved round; one undone since comes back with its round
  // (docs/TABLE.md: "The scorekeeper's typing survives a reload", "Typing of a round
  // saved meanwhile is never dropped unsaid").
  var STORE = (function () {
    try { return window.localStorage || null; } catch (e) { return null; }
  })();

  function draftName(form) {
    return "cf-round-typed:" + (form.getAttribute("data-draft") || "").split(":")[0];
  }

  // What the form holds for one hand now.
  function handNow(form, seat) {
    var total = field(form, "total_" + seat);
    var out = field(form, "out_" + seat);
    var tiles = [].map.call(form.querySelectorAll('input.posted-tile[name="tiles_' + seat + '"], input[type="checkbox"][name="tiles_' + seat + '"]:checked'), function (box) { return box.value; });
    return {
      total: total ? total.value : "",
      out: !!(out && out.checked),
      tiles: tiles.sort(),
      seen: (field(form, "seen_" + seat) || {}).value || "",
      filled: (field(form, "filled_" + seat) || {}).value || ""
    };
  }

  // The hand as one string, as the server's HandValue.key() and fill() write it: the same
  // number however written ("08", " 8") is the same hand (play._untouched's rule).
  function formKey(form, seat) {
    var now = handNow(form, seat), total = now.total.trim();
    if (/^\d+$/.test(total)) { total = String(+total); }
    if (now.out) { return "out"; }
    return now.tiles.length ? "tiles:" + now.tiles.join(" ") + (total && "|" + total) : total;
  }

  function postKey(hand) {
    if (hand.went_out) { return "out"; }
    if (hand.tiles.length) { return "tiles:" + hand.tiles.slice().sort().join(" "); }
    return hand.total === null ? "" : String(hand.total);
  }

  // What a box holds: a tick's checked, else its value.
  function prop(box) { return box.type === "checkbox" ? "checked" : "value"; }

  // Keep this phone's typing; how much it is. A hand is this phone's when typed here (dirty)
  // or when its box holds other than it was filled with (filled_<seat>: the post, or nothing),
  // as typing an undo put back does (play._typed_by_phone's rule): kept with "back", so a
  // reload leaves that box to the server, which draws it again (or a post made since). A hand
  // its phone posted again after the typing (newer: marked "changed on their phone") is kept
  // so: the page drawn again has the newest post's seen_, and only this says it came after.
  function keepTyping(form, dirty, own, newer) {
    var seats = {};
    form.querySelectorAll('[name^="filled_"]').forEach(function (filled) {
      var seat = filled.name.slice(7);
      if (dirty[seat] || formKey(form, seat) !== filled.value) {
        (seats[seat] = handNow(form, seat)).back = !dirty[seat];
        if (newer[seat]) { seats[seat].newer = 1; }
      }
    });
    var n = Object.keys(seats).length + Object.keys(own).length;
    keep(draftName(form), n && { key: form.getAttribute("data-draft"), seats: seats, own: own });
    return n;
  }

  // Keep ``value`` under ``name``; nothing (0, null): drop the entry. (No storage: STORE null,
  // and its calls fail here.)
  function keep(name, value) {
    try {
      if (value) { STORE.setItem(name, JSON.stringify(value)); } else { STORE.removeItem(name); }
    } catch (e) { /* storage full or refused: the form itself still holds the typing */ }
  }

  function read(name) {
    try { return JSON.parse(STORE.getItem(name)); } catch (e) { return null; }
  }

  // The kept typing of this form's round ({key, seats, own}), or null: the entry of another round
  // goes aside, the one of this round waiting aside (undone since, now back) comes back, and
  // kept.js is loaded while anything waits. The hand a photo filled since is not put back
  // (data-fresh: its seat; the photo's tiles must not be typed over).
  function keptTyping(form) {
    var key = form.getAttribute("data-draft"), name = draftName(form);
    var kept = read(name), aside = read(name + "!") || {};
    if (kept && kept.key !== key) { aside[kept.key] = kept; kept = null; }
    kept = kept || aside[key];
    delete aside[key];
    keep(name, kept);
    var waits = Object.keys(aside).length;
    keep(name + "!", waits && aside);
    if (waits) { later("kept", form); }
    if (kept) { delete kept.seats[form.getAttribute("data-fresh")]; }
    return kept;
  }

  // The hand's mark: its state in words, when the phone posted, and the post itself (a tile
  // post with its sum), the same words the server writes (templates/games/_post_mark.html).
  function mark(form, seat, state, hand) {
    var badge = form.querySelector('.post-mark[data-seat="' + seat + '"]');
    if (!badge) { return; }
    badge.className = "post-mark " + state;
    badge.textContent = form.getAttribute("data-" + state) || state;
    if (hand && hand.at) {
      // written (and its tooltip) as every time on the phone: static/js/app.js
      var time = document.createElement("time");
      time.dateTime = hand.at;
      badge.append(" ", time);
      if (window.cfcLocalise) { window.cfcLocalise(badge); }
    }
    if (hand && hand.words && (state !== "posted" || (hand.tiles && hand.tiles.length))) {
      var words = document.createElement("span");
      words.className = "post-words";
      words.textContent = hand.words;
      badge.append(": ", words);
    }
  }

  function banner(form, text) {
    var box = document.querySelector(".live-banner");
    if (!box) {
      box = document.createElement("p");
      box.className = "flash info live-banner";
      box.setAttribute("role", "status");
      form.parentNode.insertBefore(box, form);
    }
    box.textContent = text;
  }

  // An answer to the round form, before htmx handles it. A Save refused as this phone no longer
  // keeps score (handed over): handover.js, run once loaded (after htmx has enabled the Save
  // button again), disables the page's scorekeeper's forms. A Save that saved (its answer
  // points the address bar at the game page): the kept typing is dropped before the next
  // round's form is drawn (a correction form has no entry).
  document.addEventListener("htmx:beforeOnLoad", function (ev) {
    var xhr = ev.detail.xhr, form = ev.detail.elt.closest && ev.detail.elt.closest("form.round-form");
    if (form && xhr.status === 403) { later("handover", form, xhr.responseText); }
    if (form && xhr.getResponseHeader("HX-Push-Url")) { keep(draftName(form)); }
  });

  function start(form) {
    var url = form.getAttribute("data-posts"), key = form.getAttribute("data-key"), version = form.getAttribute("data-version");
    var seconds = +form.getAttribute("data-poll") || 2;
    var dirty = {}, own = {}; // own: the round's ticks and starter set here, name -> value
    // seat -> 1: its phone posted again after the typing in its box, which stays; marked
    // "changed on their phone" until the box takes the post (or holds its value), is typed in
    // again, or the outbox puts back a Save whose refusal named it (the "put-back" event: seen)
    var newer = {};
    var latest = {}; // seat -> the last posted hand seen by the poll
    var asking = document.querySelectorAll("form.handover").length;
    // "Use Bob's post (12 points)" under a hand whose box differs from what its phone posted.
    function offer(seat) {
      var button = form.querySelector('button.use-post[data-seat="' + seat + '"]');
      if (!button) { return; }
      var hand = latest[seat];
      var differs = !!hand && formKey(form, seat) !== postKey(hand);
      button.hidden = !differs;
      // the points go in the button's last child, an empty span, after a no-break space: the
      // button is a flex box, which drops a plain space there ("Use Bob's post(12 points)")
      if (differs) { button.lastChild.textContent = "\xa0(" + hand.words + ")"; }
    }
    function show(seat, state, hand) {
      mark(form, seat, state, hand);
      offer(seat);
    }
    function remember() { return keepTyping(form, dirty, own, newer); }
    // A hand typed over its post says so at once ("typed over their post: 12 points"); typed
    // back to the post's own value it is "posted", as the page drawn again says. ``seen``: the
    // newer post a row is marked changed with was seen: typed in its box here (its input), or
    // named by the refusal the outbox put back: typed over it now. (A hand with no post, not
    // posted or typed by you, stays so; a post marked changed stays so while not seen: newer.)
    function typedOver(seat, seen) {
      var post = latest[seat], same = post && formKey(form, seat) === postKey(post);
      if (seen || same) { delete newer[seat]; }
      // (a post's mark carries it: data-post, or the poll's; no mark drawn: mark() does nothing)
      if (!post || newer[seat]) { offer(seat); } else { show(seat, same ? "posted" : "typed", post); }
    }
    // (the outbox's put-back announces its values as typed, untrusted: not seen by typing; a
    // change event, also fired as a box is left, is no typing seen either)
    function typedIn(ev, trusted) {
      var m = /^(total|tiles|out)_(\d+)$|./.exec(ev.target.name || "");
      if (!m || !trusted) { return; }
      if (m[2]) {
        dirty[m[2]] = true;
        // a total typed over a hand's tiles wins: its tiles unticked (a posted tile hand's
        // hidden fields too), so the save takes the typed points instead of being refused
        if (m[1] === "total" && ev.target.value.trim() !== "") { setTiles(form, m[2], []); }
        typedOver(m[2], ev.type === "input" && ev.isTrusted);
      } else { own[ev.target.name] = ev.target[prop(ev.target)]; }
      remember();
    }
    form.addEventListener("input", function (ev) { typedIn(ev, true); });
    form.addEventListener("change", function (ev) { typedIn(ev, ev.isTrusted); });
    form.addEventListener("click", function (ev) {
      var button = ev.target.closest("button.use-post");
      var seat = button && button.getAttribute("data-seat");
      if (!seat || !latest[seat]) { return; }
      fill(form, seat, latest[seat]);
      delete dirty[seat];
      delete newer[seat];
      show(seat, "posted", latest[seat]);
      remember();
    });
    // The outbox's "Put mine back in the form" (static/js/offline.js) put back a Save whose
    // refusal named newer posts ("<seat>:<revision>" each): seen now, the typing stands over
    // each ("typed over"); a post made after the refusal stays "changed", as does a box the
    // Save took from a post untyped (its filled_: docs/TABLE.md).
    form.addEventListener("put-back", function (ev) {
      var had = new URLSearchParams(ev.detail.fields);
      Object.keys(latest).forEach(function (seat) {
        var hand = latest[seat], now = formKey(form, seat);
        if ((ev.detail.named || []).includes(seat + ":" + hand.revision)) { typedOver(seat, true); }
        if (now && now === had.get("filled_" + seat) && now !== postKey(hand)) { newer[seat] = 1; show(seat, "changed", hand); }
      });
      remember();
    });
    // The posts the page was written with, then what this phone typed before a reload: back
    // in the boxes, marked "typed by you, not saved yet"; a hand its phone posted is marked
    // "typed over their post" with the post beside, as before the reload (the post's time and
    // value are the player's, never "typed by you"), or, posted again after the typing (its
    // revision is not the one the typing kept, or it was marked so before), "changed on their
    // phone", as the open page said: the page's seen_/filled_ are the newest post's, so Save
    // keeps the typing shown beside it, as on the open page (the form kept while a photo was
    // taken, drawn with the typing in it, too). A refused Save names each newer post under
    // its row (has-error): its mark stands ("typed over"), but for a post marked changed before.
    // A row whose box the refusal filled with the newer post (took: typed, if at all, to the
    // post's own value, so not over it; play._untouched) holds it, as its words say.
    form.querySelectorAll(".post-mark[data-post]").forEach(function (badge) {
      try { latest[badge.getAttribute("data-seat")] = JSON.parse(badge.getAttribute("data-post")); } catch (e) { /* none */ }
    });
    var kept = keptTyping(form) || {};
    Object.keys(kept.own || {}).forEach(function (name) {
      var box = field(form, name);
      if (box) { box[prop(box)] = own[name] = kept.own[name]; }
    });
    kept = kept.seats;
    Object.keys(kept || {}).forEach(function (seat) {
      var box = field(form, "total_" + seat);
      if (kept[seat].back || !box || box.closest(".took")) { return; }
      dirty[seat] = true;
      var hand = latest[seat] || null, drawn = formKey(form, seat);
      box.value = kept[seat].total; // (the same value as drawn, "09" for 9 too: as drawn)
      (field(form, "out_" + seat) || {}).checked = kept[seat].out;
      setTiles(form, seat, kept[seat].tiles || []);
      var now = formKey(form, seat), over = hand && now !== postKey(hand); // ("09" over 9 is not)
      if (over && (kept[seat].newer || (!box.closest(".has-error") && hand.revision != kept[seat].seen))) {
        newer[seat] = 1;
        show(seat, "changed", hand);
      } else if (now !== drawn && (over || !hand)) { show(seat, hand ? "typed" : "restored", hand); }
    });
    remember(); // (the revisions seen now, and typing an undo put back)
    form.querySelectorAll("button.use-post[data-seat]").forEach(function (button) {
      offer(button.getAttribute("data-seat"));
    });
    var stopped = false;
    function poll() {
      if (stopped || !document.body.contains(form)) { return; }
      fetch(url + "?v=" + encodeURIComponent(key), { credentials: "same-origin" }).then(function (r) {
        // the server reached: the page's offline copy (static/sw.js) is live again, made
        // current below (a reload, or its typing compared), and kept as the phone shows it
        var copy = document.querySelector(".flash.offline-copy");
        if (copy) { copy.remove(); document.body.removeAttribute("data-offline-copy"); }
        if (r.status === 204) { return null; }
        if (r.status === 403) {
          // This phone no longer keeps score (handed over): say so at once. A form with
          // something typed in it (keepTyping counts it, an undo's put back too) stays, so
          // the typed values can still be read and passed on.
          stopped = true;
          if (!remember()) { window.location.reload(); return null; }
          return r.text().then(function (body) { later("handover", form, body, banner); });
        }
        if (!r.ok) { return null; }
        return r.json();
      }).then(function (data) {
        if (!data || !document.body.contains(form)) { return; }
        key = data.key;
        // out of band: who joined, the blocked-round hint
        if (data.oob && window.htmx) { htmx.swap(form, data.oob, { swapStyle: "none" }); }
        var changed = data.version != version;
        if (changed || data.asking > asking) {
          if (!remember()) { window.location.reload(); return; }
          // its round saved meanwhile: Save shows it beside the typing; a Save kept in the
          // outbox is compared there (a second Save replaced it while another tab sent it)
          if (data.saved.includes(+field(form, "double").value)) { stopped = true; form.parentNode.querySelector(".outbox-kept") ? location.reload() : form.requestSubmit(); return; }
          banner(form, data.said[changed ? 0 : 1]);
        }
        Object.keys(data.hands).forEach(function (seat) {
          var hand = data.hands[seat];
          var seen = field(form, "seen_" + seat);
          latest[seat] = hand;
          // a post the box has seen stays as drawn: it may hold typing an undo put back
          if (seen && seen.value == hand.revision) {
            offer(seat);
          } else if (!dirty[seat]) {
            fill(form, seat, hand);
            show(seat, "posted", hand);
          } else {
            // the typing stays, the newer post shown beside it: seen now, so the next Save
            // keeps the typing (the phone is told it was overruled), as after a 409; only a
            // post this page has not shown is refused (docs/TABLE.md). Kept as newer: a
            // reload says it again (a box holding the post's value: "posted"). Its filled_
            // is the post's, as the page drawn again has it: the box is typed over the post
            // shown, so a refusal over one posted later keeps it too (play._untouched).
            if (seen) { seen.value = hand.revision; }
            (field(form, "filled_" + seat) || {}).value = postKey(hand);
            newer[seat] = 1;
            show(seat, "changed", hand);
            typedOver(seat);
            remember();
          }
        });
      }).catch(function () { /* offline: try again at the next tick */ });
    }
    window.setInterval(poll, seconds * 1000);
  }

  function init(root) {
    // (the server's UTC times of the marks are shown in the phone's zone by static/js/app.js)
    if (!root.querySelectorAll) { return; }
    // (started: a property, not an attribute, which the page's offline copy would keep)
    root.querySelectorAll("form.round-form[data-posts]").forEach(function (form) {
      if (!form.live) { form.live = 1; start(form); }
    });
    // a finished game's page: no round form, only its key and save address for kept.js
    root.querySelectorAll("form.kept-typing").forEach(keptTyping);
  }
  // The tabs over the game: a tap shows the round or the scoreboard alone (#game[data-tab],
  // app.css); without this file both stay on the page and the tabs are links to them.
  document.addEventListener("click", function (ev) {
    var tab = ev.target.closest && ev.target.closest("nav.game-tabs a[data-tab]");
    var game = tab && tab.closest("#game");
    if (!tab || !game) { return; }
    ev.preventDefault();
    game.setAttribute("data-tab", tab.getAttribute("data-tab"));
    game.querySelectorAll("nav.game-tabs a[data-tab]").forEach(function (a) {
      a.setAttribute("aria-current", a === tab ? "true" : "false");
    });
    tab.closest("nav").scrollIntoView({ block: "start" });
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSwap", function (ev) { init(ev.target || document); });
})();
