// A player's typing on their own hand page (templates/table/hand.html) is kept on the phone
// until it is posted (progressive: without this file the page works as before).
//
// Why: a Post tapped as the page reloads (the live poll, a pull to refresh, the page loaded
// again after an earlier post) fell between the two pages, or on the new page's empty box,
// and the page ended on "Not posted yet" with the typing gone. Now what the form holds is kept
// in localStorage ("cfc-hand-typed:<form address>": the round's double and the hand) whenever it is not
// the phone's post; the page drawn again puts it back in the form, saying it is not posted
// yet, so a tap that lands on the new page posts it and one that was lost leaves it one tap
// away. A post that went through drops it (the page then shows that post), as does a round
// moved on without it, "Count my pips from a photo" (the server keeps the typing then, and the
// photo's hand must not be typed over) and "Keep that" after a clash (docs/TABLE.md). Typing
// of a round saved before it was posted is answered with what the saved round holds.
(function () {
  "use strict";

  var form = document.getElementById("hand-form");
  if (!form) { return; }
  // (the form's address names its seat: typing kept for one seat is never put in another's
  // form when the phone joins another seat)
  var NAME = "cfc-hand-typed:" + form.getAttribute("action");
  var double = (form.querySelector('input[name="double"]') || {}).value || "";
  var posted = form.getAttribute("data-posted") || ""; // the phone's post, HandValue.key()

  function box(name) { return form.querySelector('input[name="' + name + '"]'); }

  // What the form holds now: the typed total, "I went out", the tapped tiles and their points
  // (the picker's data-points, the engine's under the house rules).
  function handNow() {
    var tiles = [], points = 0;
    form.querySelectorAll('input[name="tiles"]:checked').forEach(function (b) {
      tiles.push(b.value);
      points += +b.getAttribute("data-points");
    });
    var total = box("total"), out = box("went_out");
    return { total: total ? total.value.trim() : "", out: !!(out && out.checked), tiles: tiles.sort(), points: points };
  }

  // The hand as one string, as the server's HandValue.key() writes a post ("out",
  // "tiles:5-0 8-7", "12"); a total typed beside tiles is typing of its own, unless it is
  // their points: the server posts only the tiles then, and the kept typing must equal that
  // post (it said "Not posted yet" beside "Hand posted" until the round was saved).
  function key(hand) {
    if (hand.out) { return "out"; }
    var own = hand.total && !(/^[0-9]+$/.test(hand.total) && +hand.total === hand.points);
    if (hand.tiles.length) { return "tiles:" + hand.tiles.join(" ") + (own ? "|" + hand.total : ""); }
    return hand.total;
  }

  // A post the server refuses whatever the connection is refused here at once, in the
  // server's words (round_check's rules for this round, given by the page), online or not:
  // never kept on the phone (static/js/offline.js) to be refused when the connection is back.
  // A total above the most a hand may hold (data-too-many: that most, the most digits and
  // the words, {typed} filled in), said first, as the server does, "I went out" ticked or
  // not. With it not ticked: a typed 0 and no tiles, where the house rules and centre double
  // refuse it (data-zero; absent where such a 0 stands); a total typed beside tapped tiles
  // that add up to other points (data-beside: the words per plural form of the language,
  // {points} and {typed} filled in; the tiles' points are the picker's data-points, the
  // engine's under the house rules). With it ticked (data-out, the server's order): tapped
  // tiles (its "tiles"), then a typed total other than 0 (its "total", {typed} filled in).
  // A total that is no number is left to the server, which says that first.
  function json(name) {
    try { return JSON.parse(form.getAttribute(name)) || {}; } catch (e) { return {}; }
  }
  var zero = form.getAttribute("data-zero"), beside = json("data-beside"), over = json("data-too-many");
  var out = json("data-out");
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
  function refusal() {
    var hand = handNow(), typed = +hand.total, number = /^[0-9]+$/.test(hand.total), words;
    if (hand.total && !number) { return ""; }
    if (number && over.words && (hand.total.length > over.digits || typed > over.bound)) {
      return over.words.replace("{typed}", hand.total);
    }
    if (hand.out) {
      if (hand.tiles.length) { return out.tiles || ""; }
      return typed ? (out.total || "").split("{typed}").join(typed) : "";
    }
    if (!number) { return ""; }
    if (hand.tiles.length) {
      if (typed === hand.points) { return ""; }
      words = (plurals && beside[plurals.select(hand.points)]) || beside.other || "";
      return words.replace("{points}", hand.points).split("{typed}").join(typed);
    }
    return typed ? "" : zero || "";
  }

  // Said where the server's refusal of a post shows (table/hand.html: under the heading, an
  // error notice), in the same look, once Post was tapped: a bubble of the browser's vanished
  // at the next touch and was missed. It follows the typing from then on (gone once the hand
  // is one the server takes); what was typed stays in the form.
  var heading = document.querySelector("main h1"), told = false;
  var note = heading && heading.nextElementSibling;
  if (note && !note.matches("p.flash.error")) { note = null; }
  function say(words) {
    if (!note && words && heading) {
      note = document.createElement("p");
      note.className = "flash error";
      note.setAttribute("role", "alert");
      heading.parentNode.insertBefore(note, heading.nextSibling);
    }
    if (note) { note.textContent = words; note.hidden = !words; }
  }
  function refused() {
    var total = box("total"), words = refusal();
    if (total) { total.setCustomValidity(words); }
    if (told) { say(words); }
    return !!words;
  }

  function read() {
    try { return JSON.parse(localStorage.getItem(NAME)); } catch (e) { return null; }
  }
  function keep(value) {
    try {
      if (value) { localStorage.setItem(NAME, JSON.stringify(value)); } else { localStorage.removeItem(NAME); }
    } catch (e) { /* no storage: the form itself still holds the typing */ }
  }

  function keepTyping() {
    var hand = handNow();
    keep(key(hand) !== posted && { double: double, hand: hand });
  }

  // Tick ``tiles`` in the picker; false when the picker is not on the page (built on demand).
  function setTiles(tiles) {
    var boxes = form.querySelectorAll('input[type="checkbox"][name="tiles"]');
    boxes.forEach(function (b) {
      var on = tiles.indexOf(b.value) !== -1;
      if (b.checked !== on) { b.checked = on; b.dispatchEvent(new Event("change", { bubbles: true })); }
    });
    return boxes.length > 0;
  }

  function putBack(hand) {
    if (box("total")) { box("total").value = hand.total; }
    if (box("went_out")) { box("went_out").checked = hand.out; }
    if (hand.tiles.length && !setTiles(hand.tiles)) {
      // the picker comes from the server (static/js/score.js, once htmx is there): tick the
      // tiles when it arrives
      var open = function () {
        var opener = form.querySelector("button.picker-open");
        if (opener && window.htmx) { opener.click(); return true; }
        return false;
      };
      var arrived = function () {
        if (setTiles(hand.tiles)) { document.removeEventListener("htmx:load", arrived); } else { open(); }
      };
      document.addEventListener("htmx:load", arrived);
      open();
    }
    var note = document.createElement("p");
    note.className = "flash info kept-hand";
    note.setAttribute("role", "status");
    note.textContent = form.getAttribute("data-kept") || "";
    // under the form: nothing the player may be tapping moves
    form.parentNode.insertBefore(note, form.nextSibling);
  }

  // Typing kept for a round saved before it was posted (the page moved on to the next round
  // as the player typed or tapped Post): the server is asked what the saved round holds
  // (saved_only: never a post) and its answer shown under the heading: "saved as you typed
  // it", or the round's saved hand beside the typing, with "tell the scorekeeper". Until then
  // and while it shows, a Post of the new round's empty box is not sent: it was that typing's
  // tap, and an empty hand is only ever refused ("Type the points left in your hand…").
  var asking = false, answer = null, tapped = false;

  function showAnswer() {
    var head = answer && answer.querySelector("h2");
    if (!head) { return; }
    head.setAttribute("tabindex", "-1");
    head.focus();
  }

  function askSaved(kept) {
    var body = new URLSearchParams();
    body.append("csrf_token", (box("csrf_token") || {}).value || "");
    body.append("double", kept.double);
    body.append("saved_only", "1");
    body.append("total", kept.hand.total);
    if (kept.hand.out) { body.append("went_out", "y"); }
    kept.hand.tiles.forEach(function (t) { body.append("tiles", t); });
    asking = true;
    fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) { return response.status === 204 ? "" : response.text(); })
      .then(function (html) {
        asking = false;
        var now = read();
        if (now && now.double === kept.double) { keep(null); } // answered: the page says it
        var doc = new DOMParser().parseFromString(html || "<p>", "text/html");
        var node = doc.querySelector(".card.closed") || doc.querySelector("#flashes > .flash");
        var heading = document.querySelector("main h1");
        if (!node || !heading) { return; }
        answer = document.importNode(node, true);
        answer.classList.add("kept-answer");
        heading.parentNode.insertBefore(answer, heading.nextSibling);
        if (tapped) { showAnswer(); }
      }, function () { asking = false; }); // no connection: kept, asked again by the next page
  }

  var kept = read();
  if (document.querySelector("main .card.closed")) {
    // the page is the server's answer to this typing's post (a round saved meanwhile): said
    // once, here; not asked again (a third request, a second copy), nor on the next load
    keep(null);
    // a reload is a look at the page (GET), not this post sent again (a 409 on every load)
    if (window.history && history.replaceState) { history.replaceState(null, "", location.href); }
  } else if (kept && kept.hand && kept.double === double && key(kept.hand) !== posted) {
    // not posted: back in the form, unless the page shows it already (a refused post's page)
    if (key(kept.hand) !== key(handNow())) { putBack(kept.hand); }
  } else if (kept && kept.hand && kept.double !== double && key(kept.hand)) {
    askSaved(kept); // another round's, never posted: what became of it is said, not dropped
  } else if (kept) {
    keep(null); // posted
  }
  refused();
  form.addEventListener("input", function () { keepTyping(); refused(); });
  form.addEventListener("change", function (ev) { if (ev.isTrusted) { keepTyping(); } refused(); });
  form.addEventListener("submit", function (ev) {
    var named = ev.submitter && ev.submitter.name;
    // "Count my pips from a photo": the server keeps what was typed while the photo page is open
    if (named === "to_photo") { keep(null); return; }
    // (the form is novalidate: the browser's own words for its other checks are not the
    // player's language; the server says those)
    if (named) { return; }
    if (refused()) {
      told = true;
      refused();
      box("total").focus();
      if (note) { note.scrollIntoView({ block: "nearest" }); }
    } else if ((asking || answer) && !key(handNow())) {
      tapped = true;
      showAnswer();
    } else {
      return;
    }
    // not sent: stopped before static/js/offline.js sends or keeps it (it listens on the
    // document), and the next tap is sent (static/js/app.js marks the form as sending)
    ev.preventDefault();
    form.removeAttribute("data-sending");
  });
  // "Tap the tiles" that could not fetch the picker (no connection: it comes from the server,
  // static/js/score.js) says so beside the button, in plain words, and how to post the hand
  // meanwhile (data-picker-offline), not the page's "Could not reach the server… What is
  // shown may be out of date" (static/js/app.js): the page is not out of date. Said again
  // at each tap; gone when the picker comes.
  form.addEventListener("htmx:sendError", function (ev) {
    var button = ev.target.closest && ev.target.closest("button.picker-open");
    if (!button) { return; }
    ev.stopPropagation();
    var said = button.nextElementSibling;
    if (!said || !said.classList.contains("picker-offline")) {
      said = document.createElement("p");
      said.className = "flash error picker-offline";
      said.setAttribute("role", "alert");
      button.parentNode.insertBefore(said, button.nextSibling);
    }
    said.textContent = "";
    said.textContent = form.getAttribute("data-picker-offline") || "";
  });
  document.addEventListener("htmx:load", function () {
    if (!form.querySelector("button.picker-open")) {
      form.querySelectorAll(".picker-offline").forEach(function (p) { p.remove(); });
    }
  });
  // A hand kept on the phone, not sent (static/js/offline.js, "Not sent yet"): the notices of
  // the phone's last post above it ("Hand posted", "This replaced your earlier post") are
  // about an older hand and said the opposite; they go, as any notice does at the next action.
  // The typing is the outbox's now: not also put back as "Not posted yet" by the next page.
  form.addEventListener("outbox-kept", function () { document.getElementById("flashes").textContent = ""; keep(null); });
  // "Keep that" (another phone's post after a clash): this phone's typing gives way
  document.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest(".card.clash a")) { keep(null); }
  });
})();
