// Offline-tolerant entries and the installable app (issue 14). Progressive: without JavaScript
// or service workers every form is a plain post, as before.
//
// * Registers the service worker (/sw.js).
// * A page answered by the service worker from its copy (body[data-offline-copy]) says so, with
//   the time it was last updated.
// * The outbox: a form marked data-outbox (a round, a correction, a posted hand) gets a fresh
//   idempotency key per tap. The entry is kept in localStorage before it is sent, so a request
//   lost on the way (no connection, a locked phone, a reload) stays on the phone, shown as
//   "waiting to be sent" on its page, and is sent again with the same key when the connection
//   returns (on "online", at load, every RETRY_MS, or "Send now"). The server applies a key
//   once (companion/services/idempotency.py). Whether an answer means saved is read in one
//   place, saved(): an answer to a stale CSRF token (X-Stale-Form) never does; that entry
//   waits and is sent again with its page's fresh token (post). A hand refused only because
//   the phone holds another seat (X-Other-Seat) waits for its own (away()). An entry the
//   server refuses is shown with its answer beside this phone's values until it is removed,
//   put back in the form or its round is saved (docs/OFFLINE.md).
(function () {
  "use strict";

  var STORE = "cfc-outbox";
  var RETRY_MS = 15000;
  var script = document.currentScript;
  var words = script ? script.dataset : {};
  var sending = false;
  var inFlight = {}; // keys this page is sending right now (htmx): not sent twice at once
  var PAGE = newKey(); // this page load: its entries (e.from) are the ones it may replace

  // --- the outbox, kept in localStorage ------------------------------------------------------

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]") || []; } catch (e) { return []; }
  }
  function store(entries) {
    try { localStorage.setItem(STORE, JSON.stringify(entries)); } catch (e) { /* full: kept in memory only */ }
  }
  function update(key, change) {
    var entries = load();
    entries.forEach(function (e) { if (e.key === key) { Object.assign(e, change); } });
    store(entries);
  }
  function drop(key) { store(load().filter(function (e) { return e.key !== key; })); }
  // Every Forget (waiting.js's too): the entry and its form's kept typing (hand.js)
  function forget(entry) {
    drop(entry.key);
    try { localStorage.removeItem("cfc-hand-typed:" + entry.url); } catch (e) {}
  }
  // The outbox's knowledge other scripts share, one home: waiting.js (the join and home pages),
  // kept.js (current, withPutBack: table.js loads it after this file ran)
  window.cfc = {
    forget: forget, draw: draw, seatOf: seatOf, refused: refused, load: load,
    current: current, withPutBack: withPutBack
  };
  // (randomUUID only in a secure context: a phone on the hall's Wi-Fi over plain HTTP gets
  // 128 random bits as four numbers, "3951-20417-…", a key companion/services/idempotency.py
  // takes as well)
  function newKey() {
    return crypto.randomUUID ? crypto.randomUUID() : crypto.getRandomValues(new Uint32Array(4)).join("-");
  }

  // What the form holds, in the player's words, as lines: one per hand ("Ann (went out)",
  // "Bob: 12", "Cy: 6-4 3-2 (2 tiles: 15 points)"), one per other group of the form under its
  // legend ("How the round ended: Nobody went out: the round was blocked"; who started on
  // a line of its own: "Who started: Cy"),
  // one per other box under its label ("Points left in my hand: 12"). A hand's tick and who
  // started are said as the saved round's summary says them (templates/_hand_words.html:
  // data-went-out, "{name} (went out)"; data-started), not as the form asks them. Everything
  // the player set is said: a typed box, a ticked box, tapped tiles, a chosen option. Not said:
  // hidden fields, buttons, empty boxes, unticked boxes, a list left at its empty first choice
  // ("Not recorded"), a disabled box (not sent either).
  function textOf(node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; }
  function labelOf(control) {
    return (control.getAttribute("aria-label") || textOf(control.labels && control.labels[0])).trim();
  }
  function legendOf(fieldset) { return textOf(fieldset.querySelector(":scope > legend")); }
  function named(label, value) {
    if (!label) { return value; }
    return label + (/[?:]$/.test(label) || value[0] === "(" ? " " : ": ") + value;
  }

  // Whether a control of ``type`` (the DOM's, lower case) holds no value the player set.
  function inert(type) { return /^(hidden|submit|button|reset|image|file)$/.test(type); }

  // The parts ``scope`` holds, leaving out the controls ``skip`` says. In a hand a typed box
  // is its bare value (the hand's legend names the player; a tile picker's inner legend,
  // "Tiles left in …", must not make a typed total read as tiles); elsewhere its label says
  // what it is. An option valued "" or data-quiet says nothing.
  function said(scope, inHand, skip) {
    var parts = [];
    var pickers = [];
    scope.querySelectorAll("input, select, textarea").forEach(function (control) {
      var type = control.type;
      if (!control.name || control.disabled || skip(control) || inert(type)) { return; }
      var picker = control.closest("fieldset.picker");
      if (picker && scope.contains(picker)) {
        if (!control.checked) { return; }
        var seen = pickers.filter(function (p) { return p.node === picker; })[0];
        if (!seen) {
          seen = { node: picker, tiles: [], at: parts.length };
          pickers.push(seen);
          parts.push("");
        }
        seen.tiles.push(control.value);
        return;
      }
      if (type === "checkbox" || type === "radio") {
        if (control.checked) { parts.push(labelOf(control)); }
      } else if (control.tagName === "SELECT") {
        var chosen = [].filter.call(control.options, function (o) { return o.selected && o.value !== "" && !o.dataset.quiet; });
        if (chosen.length) { parts.push(named(control.name === "starter" ? words.started : labelOf(control), chosen.map(textOf).join(", "))); }
      } else if (control.value.trim()) {
        parts.push(inHand ? control.value.trim() : named(labelOf(control), control.value.trim()));
      }
    });
    pickers.forEach(function (p) {
      var box = p.node.closest("details");
      var sum = textOf(box ? box.querySelector("output.picked-sum") : null);
      var tiles = p.tiles.join(" ") + (sum ? " (" + sum + ")" : "");
      parts[p.at] = inHand ? tiles : named(legendOf(p.node), tiles);
    });
    return parts;
  }

  function describe(form) {
    var hands = [].slice.call(form.querySelectorAll("fieldset.hand"));
    var within = function (nodes) {
      return function (control) { return nodes.some(function (n) { return n.contains(control); }); };
    };
    var lines = hands.map(function (hand) {
      var out = hand.querySelector("[name^=out_]:checked");
      var text = said(hand, true, function (c) { return c === out; }).join(", ");
      var name = legendOf(hand);
      return out ? words.wentOut.replace("{name}", text ? named(name, text) : name) : named(name, text || "–");
    });
    // The form's other groups: its own fieldsets outside the hands (a tile picker is said
    // with the box it belongs to).
    var groups = [].filter.call(form.querySelectorAll("fieldset"), function (f) {
      var outer = f.parentElement && f.parentElement.closest("fieldset");
      return !f.matches(".hand, .picker") &&
        !within(hands)(f) && !(outer && form.contains(outer));
    });
    // who started is not how the round ended: its own line, as the saved round says it
    var starter = function (control) { return control.name === "starter"; };
    groups.forEach(function (group) {
      var parts = said(group, false, starter);
      if (parts.length) { lines.push(named(legendOf(group), parts.join(", "))); }
    });
    return lines.concat(said(form, false, function (c) { return !starter(c) && within(hands.concat(groups))(c); }));
  }

  function entryFor(form, key) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
    });
    return {
      key: key,
      url: form.getAttribute("action"),
      page: form.getAttribute("data-outbox-page") || location.pathname,
      label: form.getAttribute("data-outbox") || "",
      fields: fields,
      own: describe(form),
      keeper: form.hasAttribute("data-outbox-keeper"), // the scorekeeper's own form
      draft: form.getAttribute("data-draft"), // its kept typing's key (static/js/table.js)
      wait: form.getAttribute("data-outbox-wait"), // said while its seat is held elsewhere
      from: PAGE,
      state: "sending"
    };
  }

  // A tap on Save of a form already waiting replaces its entry: one entry per form and round
  // and page, or with the same values (a tap again after a reload). Another tab's (or an
  // earlier page's) with other values stays: sent after it, it is compared.
  function keep(entry) {
    store(load().filter(function (e) {
      return e.from !== PAGE && e.own + "" !== entry.own + "" || !sameRound(e, entry) || refused(e.state);
    }).concat([entry]));
  }

  // --- sending ------------------------------------------------------------------------------

  // Post ``entry`` once. Resolves to "sent", "waiting" (no connection, try later), "stale"
  // (its CSRF token refused: waits for a fresh one), "seat" (this phone holds another seat
  // now, or none: waits for its own) or the server's refusal ("conflict"/"refused", kept with
  // its answer).
  // A server that never answers (weak Wi-Fi) is given up on after SEND_TIMEOUT_MS, as htmx
  // gives up (its "timeout" in base.html's htmx-config): the entry then waits; should the
  // first request arrive late after all, its key makes the retry a no-op on the server.
  var SEND_TIMEOUT_MS = 12000;
  function send(entry) {
    var abort = new AbortController();
    var timer = setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
    return post(entry, { "Idempotency-Key": entry.key }, abort.signal).then(function (response) {
      clearTimeout(timer);
      if (saved(response)) {
        superseded(entry);
        drop(entry.key);
        return "sent";
      }
      // refused for its stale token: kept, sent again with a fresh one (post)
      if (has(response, "X-Stale-Form")) { return waits(entry.key, "stale"); }
      if (has(response, "X-Other-Seat")) { return waits(entry.key, "seat"); }
      if (unreached(response.status)) { return waits(entry.key); }
      return response.text().then(function (html) { entry.html = html; return answered(entry, response.status, html); });
    }, function () {
      clearTimeout(timer);
      return waits(entry.key);
    });
  }

  // An entry's post (its own key in ``headers``, or none; ``back``: recheck). With this page's
  // CSRF token when this is the entry's own page as loaded now (not the worker's copy): a token
  // stale since the entry was kept (a lost session, a new server secret) is replaced by its
  // page loaded again, the typed values sent as they were. A redirect is not followed: the
  // notice it left is shown by the page loaded next.
  function post(entry, headers, signal, back) {
    var token = document.querySelector("[name=csrf_token]");
    var body = withPutBack(new URLSearchParams(entry.fields), back);
    if (token && !document.body.hasAttribute("data-offline-copy") && ownPage(entry)) { body.set(token.name, token.value); }
    return fetch(entry.url, { method: "POST", body: body, headers: headers, redirect: "manual", signal: signal });
  }

  // Whether ``entry`` was kept on this page, or its form is here: sent with this page's token
  function ownPage(entry) { return entry.page === location.pathname || formFor(entry); }

  // Whether the server's answer to an entry says it is saved: the one reading of it. Every
  // saving view answers a redirect (or, asked again, the same answer in words: 2xx); an answer
  // to a stale CSRF token (X-Stale-Form, companion/web/stale_forms.py) never is one, whatever
  // its status: the form shown again, nothing saved.
  // (``response``: fetch's, or htmx's XMLHttpRequest)
  function saved(response) {
    return !has(response, "X-Stale-Form") && (response.type === "opaqueredirect" || (response.status > 199 && response.status < 300));
  }
  // (the header ``h`` of ``response``, or null: whether it carries it)
  function has(response, h) {
    return response.getResponseHeader ? response.getResponseHeader(h) : response.headers.get(h);
  }

  // Whether an entry's state (or a send's result) is the server's refusal, kept with its
  // answer ("conflict", "refused"); an entry's other states are "sending" and "waiting".
  function refused(state) { return state === "conflict" || state === "refused"; }

  // 502, 503, 504: a proxy's answer that the app was not reached (a restart): the entry waits.
  function unreached(status) { return status > 501 && status < 505; }
  // (``why`` "stale": its token was; said so, and sent again from its page loaded again;
  // "seat": its state, sent from a page that holds its seat)
  function waits(key, why) {
    update(key, { state: why === "seat" ? why : "waiting", stale: why === "stale" });
    return why || "waiting";
  }

  // Whether ``entry`` is kept for a seat this page does not hold (not its hand page's
  // data-holds, nor its form here): not sent from this page, said so. So is a stale one (its
  // token refused) of a game over (data-also) on a page not of its seat (the rematch's): only
  // its own page's fresh token is sent with it (post), and that game is over. So is one
  // waiting.js was told is of a game over (e.over: its words, as data-over's; never stored).
  function away(entry) {
    return entry.over || (entry.state === "seat" || entry.stale && over(entry)) && !document.querySelector('[data-holds="' + seatOf(entry.url) + '"]') && !formFor(entry);
  }
  // The words of an entry of a game over shown on this page (table/hand.html's or removed.html's
  // data-also, with data-over: the page of its rematch, or its own; or e.over, waiting.js's),
  // or nothing. Away, it is never sent, not counted: said so (the caller asks away() first, once).
  function over(entry) {
    var end = document.querySelector('[data-also="' + entry.page + '"]');
    return entry.over || end && end.dataset.over;
  }

  // The server refused ``entry`` (``status``, its page ``html``): kept with its answer (what
  // is saved beside this phone's values, or why it was refused): "conflict" or "refused". Its
  // round saved with nothing of this phone's differing (the server's news, not an error: a
  // round corrected since to what this phone had, too) answers it: it leaves ("sent"), the
  // server's answer said among the page's notices.
  function answered(entry, status, html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var back = doc.querySelector("#round-area > .card.saved form[action]");
    // the server's "Put mine back in the form" of a round saved meanwhile, on the
    // scorekeeper's page: sent as it is, it opens the round as saved now with this phone's own
    // seats and ticks put back (companion/games/play.py _put_back: the one rule; a correction
    // made on another phone since stays); its address opens the round as saved
    var change = { state: status === 409 ? "conflict" : "refused", correct: back && back.getAttribute("action"), back: back && back.outerHTML };
    var answer = change.answer = answerOf(doc);
    // the hands a refusal named, with the post it named ("<seat>:<revision>": the mark of each
    // row with its words): Put mine back makes only those "typed over" (table.js's put-back)
    change.named = [].map.call(doc.querySelectorAll(".has-error [data-post]"), function (mark) {
      return mark.dataset.seat + ":" + JSON.parse(mark.dataset.post).revision;
    });
    // its round saved (never say "not saved" about it): this answer is the comparison for the
    // older entries of that round with the same values refused so (a Save the live poll made
    // as the outbox sent, cut short by the reload, sent again from the next page)
    if ((change.saved = /class="card (saved|closed)"/.test(answer))) { store(load().filter(function (e) { return e.key === entry.key || !e.saved || !sameRound(e, entry) || e.own + "" !== entry.own + ""; })); }
    if (/"card saved"/.test(answer) && !/"flash error/.test(answer)) {
      drop(entry.key);
      document.getElementById("flashes").innerHTML += answer;
      return "sent";
    }
    update(entry.key, change);
    return change.state;
  }

  // Whether a comparison (``html``, a 409 answer) is of the round of ``double`` as saved now:
  // its Put mine back's play ("compared") is the round's in ``mark``, the page's .rounds-saved
  // (data-plays: " <double>:<play>"); null when it compared nothing.
  function current(mark, double, html) {
    var then = /"compared" value="(\w+)/.exec(html || "");
    return then && !!mark && (" " + mark.dataset.plays + " ").includes(" " + double + ":" + then[1] + " ");
  }

  // ``body``, a comparison asked again, with the seats its first answer ``html`` named this
  // phone's (companion/games/play.py _named_own)
  function withPutBack(body, html) {
    var named = /name="put_back" value="(\w+)"/g, m;
    while ((m = named.exec(html || ""))) { body.append("put_back", m[1]); }
    return body;
  }

  // An entry's answer is of its round as saved then; corrected since on another phone (the
  // page's play of the round, data-plays, is not the one its Put mine back compared), the
  // entry is sent once more as it was (no key: a saved round's Save saves nothing), so that
  // it shows the round as saved now, or leaves, saved now as this phone had it.
  function recheck(entry) {
    inFlight[entry.key] = 1; // (asked once a page; offline: at the next page)
    // with what its comparison named this phone's: a seat corrected since elsewhere stays so
    post(entry, {}, null, entry.back).then(function (r) {
      // saved now as this phone had it
      if (saved(r)) { drop(entry.key); render(); }
      return r.status === 409 && r.text();
    }).then(function (html) {
      if (html) { answered(entry, 409, html); render(); }
    }, function () {});
  }

  // The value of ``name`` among an entry's fields.
  // (a photo's Confirm names its round in its address: ?double=)
  function fieldOf(entry, name) {
    var field = entry.fields.find(function (f) { return f[0] === name; });
    return field ? field[1] : new URL(entry.url, location.href).searchParams.get(name);
  }

  // The address an entry was sent to without its query ("?missing=…" changes as the form is
  // filled again: the same form and round all the same).
  function pathOf(url) { return String(url || "").split("?")[0]; }
  // The seat a hand's address names (templates/table/hand.html: every seat posts to one page),
  // or "": an entry typed for one seat never goes back into another seat's form.
  function seatOf(url) { return (/[?&]seat=(\d+)/.exec(url || "") || [])[1] || ""; }

  // Whether two entries are of the same form and round.
  function sameRound(a, b) {
    return pathOf(a.url) === pathOf(b.url) && seatOf(a.url) === seatOf(b.url) && fieldOf(a, "double") === fieldOf(b, "double");
  }

  // An entry was saved: the older refused entries of the same form and round are answered by
  // it (a waiting one, another tab's, is sent: compared; an answer repeated late, nothing).
  function superseded(entry) {
    var entries = load(), at = entries.findIndex(function (e) { return e.key === entry.key; });
    store(entries.filter(function (e, i) {
      return i >= at || !sameRound(e, entry) || !refused(e.state);
    }));
  }

  // A refused entry whose round the page shows saved since (templates/games/_rounds_saved.html:
  // " <double>:<play>") leaves the phone. One that came back with the saved round beside it
  // (``saved``) stays until removed, beside the round as saved now (recheck). A player's page
  // names the rounds whose one still matters (data-compare: table/hand.html): another round's
  // leaves (the game moved on, or its round was undone: its form is open again).
  function answeredElsewhere() {
    var entries = load();
    var matters = document.querySelector("[data-compare]");
    var left = entries.filter(function (e) {
      // (a photo's Confirm: its hand page's, entry.page)
      var mark = document.querySelector('.rounds-saved[data-url="' + pathOf(e.url) + '"], .rounds-saved[data-url="' + e.page + '"]');
      var double = fieldOf(e, "double");
      if (e.saved && matters && (mark || pathOf(e.url) === location.pathname) && matters.dataset.compare.indexOf(" " + double + " ") < 0) { return false; }
      if ((" " + (mark && mark.dataset.plays) + " ").indexOf(" " + double + ":") < 0) { return true; }
      if (current(mark, double, e.back || e.answer) === false && !inFlight[e.key]) { recheck(e); }
      return e.saved || !refused(e.state);
    });
    if (left.length !== entries.length) { store(left); }
  }

  // The part of the server's page that says what happened (its messages, what is saved), without
  // its forms and its "On this phone:" box (the entry lists its own values; the round area
  // shows that comparison, kept.js).
  function answerOf(doc) {
    var parts = doc.querySelectorAll("#flashes > .flash, #round-area > .flash, #round-area > .card.saved, main > .flash.error, main > .card.clash, main > .card.closed, main > h1 + p");
    return [].map.call(parts, function (node) {
      node.querySelectorAll("form,.beside").forEach(function (f) { f.remove(); });
      return node.outerHTML;
    }).join("");
  }

  // Send every waiting entry (and any left "sending" by a page closed mid-send), one by one.
  // One tab at a time: two at once wrote their copies over each other's answers (a lock; held
  // by a tab that reloads until it is gone).
  function flush() {
    if (sending) { return; }
    sending = true;
    var all = function () { return new Promise(sendAll); };
    navigator.locks ? navigator.locks.request(STORE, all) : all();
  }
  function sendAll(done) {
    // (a stale one only from its own page, with the page's fresh token: its own is refused
    // again, for good, a 400 a load or every RETRY_MS for nothing)
    var queue = load().filter(function (e) {
      return !refused(e.state) && !inFlight[e.key] && !away(e) && (!e.stale || ownPage(e));
    });
    if (!queue.length) { sending = false; return done(); }
    var reload = false;
    var news = false; // an entry of this page came back refused: the player must see it
    var next = function (i) {
      if (i >= queue.length) {
        sending = false;
        if (news) { attentionNext(); }
        if (reload) { location.assign(reload); } else { render(); showAttention(); done(); }
        return;
      }
      var e = queue[i];
      send(e).then(function (result) {
        if (refused(result) && mineHere(e)) { news = true; }
        // This page's entry was answered (saved, or refused with what is saved now): show
        // the game as it is now; a refused entry stays in the outbox beside it.
        // Refused for a stale token: the page loaded again sends it with a fresh one (once:
        // a page whose fresh token is refused too, cookies off, shows it waiting); the others'
        // tokens are as stale. Not one of a game over shown on another page (data-also, the
        // rematch's): its own page leads back here, and it says it was not counted (away()).
        var old = result === "stale";
        if ((old ? !e.stale && (e.page === location.pathname || !over(e)) : !/waiting|seat/.test(result)) && mineHere(e)) { reload = e.page; }
        if (result === "waiting") { sending = false; render(); return done(); }
        // (a stale one of another page, sent with its own token, ends nothing: it held back
        // this page's, sent with the fresh one, for good: a lost session in another game)
        next(old && ownPage(e) ? queue.length : i + 1);
      });
    };
    next(0);
  }

  // True when ``entry`` is shown on this page (a photo's confirm: on the photo page too; an
  // entry of the game this one is the rematch of, which leads here: over()).
  function mineHere(entry) { return entry.page === location.pathname || entry.url === location.pathname || over(entry) || formFor(entry); }

  // A background send came back refused while the phone shows the next round's form near
  // Save: the outbox (at the top of the page) is brought into view, its heading focused (a
  // screen reader reads it), once, after the reload that follows. The page's own scroll
  // position is not restored over it.
  var ATTENTION = "cfc-outbox-attention";
  function attentionNext() {
    try { sessionStorage.setItem(ATTENTION, "1"); } catch (e) { return; }
    history.scrollRestoration = "manual"; // (a browser without it: a property, unread)
  }
  function showAttention() {
    var wanted = false;
    try { wanted = sessionStorage.getItem(ATTENTION) === "1"; sessionStorage.removeItem(ATTENTION); } catch (e) { return; }
    // the browser's own restoring comes back for the next time the page is left (set back
    // now, it would still scroll this page to where it was before the reload)
    if (history.scrollRestoration === "manual") {
      window.addEventListener("pagehide", function () { history.scrollRestoration = "auto"; }, { once: true });
    }
    var head = wanted ? document.querySelector("#outbox > .attention > h2, #outbox > .saved > h2") : null;
    if (!head) { return; }
    head.tabIndex = -1;
    head.scrollIntoView({ block: "start" });
    head.focus({ preventScroll: true });
  }

  // --- showing the outbox -------------------------------------------------------------------

  // (a button of its own: type "button", never a form's submit)
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (tag === "button") { node.type = tag; }
    if (cls) { node.className = cls; }
    if (text) { node.textContent = text; }
    return node;
  }

  // base.html's data-saved-other(-keeper), data-conflict, data-refused, data-stale or data-waiting;
  // its form's data-outbox-wait away from its seat
  function stateWords(entry) {
    if (away(entry)) { return over(entry) || entry.wait || words.waiting; }
    if (entry.saved) { return entry.keeper ? words.savedOtherKeeper : words.savedOther; }
    return words[refused(entry.state) ? entry.state : entry.stale ? "stale" : "waiting"];
  }

  function render() {
    var main = document.getElementById("main");
    if (!main) { return; }
    answeredElsewhere();
    // a round saved meanwhile, put back in a correction that was saved (its answer names the
    // entry's kept typing, data-resolved: static/js/kept.js): resolved, it leaves the phone
    var done = document.querySelector("[data-resolved]");
    if (done) { store(load().filter(function (e) { return e.draft !== done.dataset.resolved; })); }
    var mine = load().filter(mineHere);
    var box = document.getElementById("outbox");
    if (!mine.length) { if (box) { box.remove(); } return; }
    if (!box) {
      box = el("section", "card outbox");
      box.id = "outbox";
      var flashes = document.getElementById("flashes");
      main.insertBefore(box, flashes ? flashes.nextSibling : main.firstChild);
    }
    draw(box, mine);
  }
  // (window.cfc.draw, waiting.js: a refused hand on the join and home pages)
  function draw(box, mine) {
    box.textContent = "";
    // Two groups, each under a heading that says what it holds: the entries the server refused
    // (the game changed meanwhile, or not accepted), which need the player, first; then those
    // still waiting to be sent. Never one heading over both.
    // (an entry of a game over, never sent now, needs the player too)
    var heads = [];
    var titles = { saved: words.savedTitle, attention: words.attention, waiting: words.title };
    Object.keys(titles).forEach(function (name) {
      var entries = mine.filter(function (e) {
        return name === (e.saved ? "saved" : refused(e.state) || away(e) && over(e) ? "attention" : "waiting");
      });
      if (!entries.length) { return; }
      var part = box.appendChild(el("div", "outbox-group " + name));
      var title = part.appendChild(el("h2", "", titles[name]));
      title.id = "outbox-" + name + "-title";
      heads.push(title.id);
      entries.forEach(function (entry) { part.appendChild(entryItem(entry)); });
    });
    box.setAttribute("aria-labelledby", heads.join(" "));
  }

  function entryItem(entry) {
    var item = el("div", "outbox-entry " + entry.state);
    item.dataset.state = entry.state;
    var title = item.appendChild(el("h3", "", entry.label));
    var status = el("p", "outbox-state", stateWords(entry));
    status.setAttribute("role", refused(entry.state) ? "alert" : "status");
    item.appendChild(status);
    // what is saved, then this phone's values, one above the other (at 360 px two columns
    // were cramped); a player's hand beside the saved round (table/hand.html's card) says
    // both and what to do: said once, by it
    var whole;
    if (entry.answer) {
      var theirs = el("div", "outbox-answer");
      theirs.innerHTML = entry.answer; // the app's own page, parsed, its forms removed
      // a round saved meanwhile: the state above says so, the server's words not again; its
      // heading ("Saved: the round with 6-6") is the entry's title (said once)
      if (entry.saved) {
        theirs.querySelectorAll(".flash").forEach(function (n) { n.remove(); });
        theirs.querySelectorAll("h2").forEach(function (n) { title.textContent = n.textContent; n.parentNode.removeAttribute("aria-labelledby"); n.remove(); });
      }
      if ((whole = theirs.querySelector(".closed"))) { status.remove(); }
      // refused with no round saved (a hand changed on a player's phone): the server's own
      // words say why, not "here is what is saved"
      else if (entry.state === "conflict" && !theirs.querySelector(".card")) { status.remove(); }
      item.appendChild(theirs);
    }
    if (!whole) {
      var own = item.appendChild(el("div", "outbox-own"));
      own.appendChild(el("p", "", words.mine));
      var list = own.appendChild(el("ul"));
      entry.own.forEach(function (line) { list.appendChild(el("li", "", line)); });
    }
    var actions = el("div", "actions");
    // A round saved meanwhile: this entry is the phone's typing of it (its key, data-kept), so
    // static/js/kept.js shows no second comparison in the round area, adds the key to the Put
    // mine back below (its correction's Save resolves it) and forgets it with the entry.
    if (entry.saved && entry.draft) { item.setAttribute("data-kept", entry.draft); }
    if (entry.saved && entry.keeper && entry.correct) {
      if (entry.back) {
        actions.innerHTML = entry.back; // the app's own form, with this page's CSRF token
        var token = document.querySelector("[name=csrf_token]");
        if (token) { actions.querySelector("[name=csrf_token]").value = token.value; }
      }
      actions.appendChild(el("a", "button secondary", words.correct)).href = entry.correct;
    }
    if (!refused(entry.state) && !away(entry)) {
      actions.appendChild(el("button", "secondary", words.sendNow)).addEventListener("click", flush);
    } else {
      var remove = el("button", "secondary", words.dismiss);
      remove.setAttribute("data-forget", ""); // kept.js: its kept typing goes with it
      remove.addEventListener("click", function (ev) {
        if (window.confirm(entry.saved ? words.dismissSaved : words.dismissConfirm)) { forget(entry); render(); } else { ev.stopPropagation(); }
      });
      // Not saved: the round is not saved either, so the whole entry is this phone's and goes
      // back into the form on this page (a round saved meanwhile: the server's Put mine back)
      var form = !entry.saved && formFor(entry);
      if (form) {
        var mine = el("button", "", words.putBack);
        mine.addEventListener("click", function () {
          putBack(form, entry);
          // its values are in the form now (kept there as typed): the entry has done its part
          drop(entry.key);
          render();
        });
        actions.appendChild(mine);
      }
      actions.appendChild(remove);
    }
    item.appendChild(actions);
    return item;
  }

  // The form on this page that an entry can go back into: the same address (and seat) and the
  // same round (a round saved since has moved the page's form on: nothing to put back into then).
  function formFor(entry) {
    return [].find.call(document.querySelectorAll("form[data-outbox]"), function (form) {
      var double = form.querySelector('input[name="double"]');
      var action = form.getAttribute("action");
      return pathOf(action) === pathOf(entry.url) && seatOf(action) === seatOf(entry.url) && (!double || double.value === fieldOf(entry, "double"));
    });
  }

  // "Put mine back in the form": every box, tick and choice of the entry back where it was
  // (tiles of a picker not open travel as hidden fields, as a posted hand's do, and it opens
  // to show them ticked: score.js), each change
  // announced as typed (input/change events), so the live form keeps it over later posts.
  function putBack(form, entry) {
    var values = {};
    entry.fields.forEach(function (f) { (values[f[0]] = values[f[0]] || []).push(f[1]); });
    form.querySelectorAll("input, select, textarea").forEach(function (control) {
      var type = control.type;
      var name = control.name;
      if (!name || inert(type)) { return; }
      var mine = values[name] || [];
      if (type === "checkbox" || type === "radio") {
        // "y": a tick's value in entries kept before its box lost its value attribute ("on")
        control.checked = mine.includes(control.value) || mine.includes("y");
      } else {
        control.value = mine.length ? mine[0] : "";
      }
      ["input", "change"].forEach(function (type) { control.dispatchEvent(new Event(type, { bubbles: true })); });
    });
    Object.keys(values).forEach(function (name) {
      if (!/^tiles_\d+$/.test(name) || form.querySelector('input[type="checkbox"][name="' + name + '"]')) { return; }
      var total = form.querySelector('[name="total_' + name.slice(6) + '"]');
      var box = (total && total.closest("fieldset")) || form;
      box.querySelectorAll('input.posted-tile[name="' + name + '"]').forEach(function (old) { old.remove(); });
      values[name].forEach(function (tile) {
        var input = box.appendChild(el("input", "posted-tile"));
        input.type = "hidden";
        input.name = name;
        input.value = tile;
      });
      var open = box.querySelector(".picker-open");
      if (open) { open.click(); }
    });
    form.dispatchEvent(new CustomEvent("put-back", { detail: entry })); // (table.js)
    form.scrollIntoView({ block: "start" });
  }

  // Say next to the form that the entry is kept.
  function sayKept(form) {
    var next = form.nextElementSibling;
    var region = form.querySelector(".save-status") || (next && next.matches(".save-status") ? next : null);
    if (!region) {
      region = el("div", "save-status");
      region.setAttribute("aria-live", "polite");
      form.appendChild(region);
    }
    // The outbox keeps the entry, so app.js's "Not saved — tap Save again" would contradict
    // it: only the outbox's word stays. Tapping again replaces the entry: app.js's double-tap
    // guard is lifted.
    form.removeAttribute("data-sending");
    // and the notices of the last answer ("Round saved."): this Save is not saved yet
    document.querySelectorAll("#round-area > .flash, .save-status .flash.error").forEach(function (node) { node.remove(); });
    var note = region.querySelector(".outbox-kept") || el("p", "outbox-kept");
    note.textContent = words.waiting; // the card's words
    region.appendChild(note);
    form.dispatchEvent(new Event("outbox-kept")); // a photo's reading leaves (photo.js)
  }

  // --- capturing entries --------------------------------------------------------------------

  function outboxForm(elt, path) {
    var form = elt && elt.closest ? elt.closest("form[data-outbox]") : null;
    return form && (!path || path === form.getAttribute("action")) ? form : null;
  }

  // A button with a name of its own ("Tap the tiles", a photo) asks for a page, saves nothing.
  function namedSubmitter(ev) {
    return ev && ev.submitter && ev.submitter.name;
  }

  // htmx forms (the round form): the key goes with the request; kept until an answer comes.
  document.addEventListener("htmx:configRequest", function (ev) {
    var form = outboxForm(ev.detail.elt, ev.detail.path);
    // (htmx's verb: lower case)
    if (!form || ev.detail.verb !== "post" || namedSubmitter(ev.detail.triggeringEvent)) { return; }
    var key = newKey();
    ev.detail.headers["Idempotency-Key"] = key;
    form.dataset.outboxKey = key;
    inFlight[key] = true;
    keep(entryFor(form, key));
  });
  // beforeOnLoad: the answer is in, the form not yet swapped out (a detached form's later
  // events no longer reach the document).
  document.addEventListener("htmx:beforeOnLoad", function (ev) {
    var form = outboxForm(ev.detail.elt);
    var key = form && form.dataset.outboxKey;
    var xhr = ev.detail.xhr;
    if (key) { delete inFlight[key]; }
    if (!key || !xhr || !xhr.status || unreached(xhr.status)) { return; }
    if (saved(xhr)) { superseded(entryFor(form, key)); }
    drop(key); // the server answered: htmx shows its answer as usual
    delete form.dataset.outboxKey;
    render();
    pageChanged();
  });
  function failed(ev) {
    var form = outboxForm(ev.detail.elt);
    var key = form && form.dataset.outboxKey;
    if (!key) { return; }
    delete inFlight[key];
    waits(key);
    delete form.dataset.outboxKey;
    sayKept(form);
    render();
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", function (ev) {
    var xhr = ev.detail.xhr;
    if (xhr && unreached(xhr.status)) { failed(ev); }
  });

  // Plain forms (a player's hand): sent here with the key. A redirect is success (the page is
  // loaded again, with its notice); no connection keeps the entry; any other answer is shown.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented || !outboxForm(form) || form.hasAttribute("hx-post") || namedSubmitter(ev)) { return; }
    ev.preventDefault();
    var entry = entryFor(form, newKey());
    keep(entry);
    send(entry).then(function (result) {
      if (/sent|stale|seat/.test(result)) {
        // (stale: sent again from there, with its fresh token; seat: said there as kept)
        location.assign(entry.page);
      } else if (result === "waiting") {
        sayKept(form);
        render();
        document.getElementById("outbox").scrollIntoView({ block: "nearest" }); // "kept": in view
      } else {
        // A round saved meanwhile: the entry stays (with the answer) until removed
        var kept = load().filter(function (e) { return e.key === entry.key; })[0];
        if (kept && kept.saved) { render(); } else { drop(entry.key); }
        show(entry.html, entry.url);
      }
    });
  });

  // The answer page of that one post, as the browser shows one (not posted twice): its
  // scripts run again (the CSP allows no inline one); at its address, a reload a GET. The
  // htmx there stays (htmx-fallback.js loads no copy over it): it starts the page unless a
  // new copy did (a stalled CDN holds up DOMContentLoaded: 3 s, as htmx-fallback.js waits).
  function show(html, url) {
    var htmx = window.htmx;
    var go = function () {
      if (htmx && window.htmx === htmx) { htmx.process(document.body); htmx.trigger(document.body, "htmx:load", {}); }
      htmx = 0;
    };
    clearInterval(retry);
    history.replaceState(null, "", url);
    document.open();
    document.write(html);
    document.close();
    document.addEventListener("DOMContentLoaded", go);
    setTimeout(go, 3000);
  }

  // --- the service worker, the offline copy -------------------------------

  var pending = null;
  // The page shown changed (a save, the live scoreboard): the worker's copy becomes what the
  // phone shows now, without this page's passing notices and entries.
  function pageChanged() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || pending || document.body.hasAttribute("data-offline-copy")) { return; }
    pending = setTimeout(function () {
      pending = null;
      var copy = document.documentElement.cloneNode(true);
      copy.querySelectorAll("#outbox, .flash.offline-copy, #round-area > .flash, .save-status > *, #flashes > *, script[src*='/static/vendor/']")
        .forEach(function (node) { node.remove(); });
      worker.postMessage({ type: "snapshot", path: location.pathname, html: "<!doctype html>\n" + copy.outerHTML });
    }, 1000);
  }
  document.addEventListener("htmx:afterSwap", function (ev) {
    var id = ev.detail.target && ev.detail.target.id;
    // a round saved or changed: its refused entries go
    if (/^(scoreboard|round-area|hand-live)$/.test(id)) { pageChanged(); if (id !== "scoreboard") { render(); } }
  });

  function showOfflineCopy() {
    var saved = document.body.getAttribute("data-offline-copy");
    if (saved == null) { return; }
    var when = new Date(saved); // ("": an invalid date, "?")
    var time = isNaN(when) ? "?" : when.toLocaleString(document.documentElement.lang || [], { dateStyle: "medium", timeStyle: "short" });
    var note = el("p", "flash offline-copy", (words.offlineCopy || "").replace("{time}", time));
    note.setAttribute("role", "status");
    var main = document.getElementById("main");
    if (main) { main.insertBefore(note, main.firstChild); }
  }

  showOfflineCopy();
  render();
  if ("serviceWorker" in navigator && words.sw) {
    // A page loaded before any worker controlled it (a fresh browser's first page) asks the
    // worker, once it takes over, to keep it for offline too.
    if (!navigator.serviceWorker.controller) {
      navigator.serviceWorker.addEventListener("controllerchange", function () {
        var worker = navigator.serviceWorker.controller;
        if (worker) { worker.postMessage({ type: "keep-first", path: location.pathname }); }
      }, { once: true });
    }
    navigator.serviceWorker.register(words.sw, { scope: "/" }).catch(function () {});
  }
  window.addEventListener("online", flush);
  // another tab's entry: this tab's card shows it too
  window.addEventListener("storage", function (ev) { if (ev.key === STORE) { render(); } });
  // after load (the outbox drawn again): a refusal from before the reload comes into view
  window.addEventListener("pageshow", function () { render(); showAttention(); });
  var online = function () { if (navigator.onLine !== false) { flush(); } };
  var retry = setInterval(online, RETRY_MS);
  online();
})();
