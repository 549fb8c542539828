// A player's hand kept on this phone and not sent yet, said on the pages a phone that lost its
// seat comes back to: its game's join page and the home page (templates/_waiting_hands.html).
//
// Why: a hand posted without a connection waits in the outbox (static/js/offline.js) and is
// sent from the hand page. A phone whose session was lost meanwhile (its cookie gone, the
// server forgot the phone) no longer opens that page: it is sent to the join page, and the
// player may come back by the home page; neither said a hand was waiting. Here each waiting
// hand is said with its round and its values, whose it is and what to do (join that seat
// again: it is sent by itself then), or it can be forgotten. Nothing is sent from here. A hand
// the server refused (its round saved with other values, a refusal in words) is listed too,
// drawn as its hand page draws it (offline.js's draw: the refusal's words, Forget): the
// phone may never open that page again. So is a hand whose game is over (the server is
// asked: ask()), which can never be sent: not counted. The outbox's rules are offline.js's
// (window.cfc: its store, whose seat a hand is, what was refused, Forget): that file is on
// every page that loads this one, and runs first (both deferred, base.html's first).
// Only these pages load this file (the scorekeeper's first visit does not pay for it).
(function () {
  "use strict";

  var script = document.currentScript;
  var box = document.getElementById("waiting-hands");
  var refusals = document.getElementById("refused-hands");
  var cfc = window.cfc; // offline.js
  if (!script || !box || !cfc) { return; }
  var words = script.dataset;
  var todo = JSON.parse(words.todo || "{}"); // seat id -> what to do (a game's join page)
  var ended = {}; // hand page of a game over -> what a hand kept for it says (the server's)
  var asked = null; // the pages last asked about: asked again when they change, or back online
  var pending = false; // asked, not answered yet: the hands still to send are not said yet
  var WAIT_MS = 3000; // an answer slower than this: they are said as waiting meanwhile
  var shown = null; // the entries drawn, by key: drawn again only when they change

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }

  // The entry leaves the phone with its form's kept typing: offline.js's forget, the one rule
  function forget(entry) {
    if (!window.confirm(words.forgetConfirm)) { return; }
    cfc.forget(entry);
    render();
  }
  // the server's refusal, kept with its answer
  function refused(e) { return cfc.refused(e.state); }

  // Which games of the hands still to send are over (data-ask: companion/table/views.py
  // hands_over). The server is asked, not told by the page: a phone that lost its session is
  // known by none of its games. Such a hand can never be sent (not counted, never "sent by
  // itself then"), so the hands still to send wait for the answer before they are said; not
  // answered (offline, or slow: WAIT_MS), they are said as waiting until it comes.
  function ask(hands) {
    var pages = hands.map(function (e) { return e.page; }).filter(function (p, i, all) { return all.indexOf(p) === i; });
    var query = new URLSearchParams(pages.map(function (p) { return ["page", p]; })) + "";
    if (!pages.length || query === asked) { return; }
    asked = query;
    pending = true;
    var done = function () { pending = false; render(); };
    setTimeout(done, WAIT_MS);
    fetch(words.ask + "?" + query).then(function (r) { return r.ok ? r.json() : {}; }).then(function (over) {
      ended = over;
      done();
    }, done); // (asked again back online)
  }
  window.addEventListener("online", function () { asked = null; });
  // Back to this page from the browser's back-forward cache (Back tapped while a hand's post
  // was on its way: the server may have taken it) runs no load, so offline.js made no send
  // pass since, until its next try (15 s), and the hand was said "not sent yet" meanwhile,
  // taken or not. The pass offline.js makes when the connection comes back is made now (its
  // "online" listener: no byte more in offline.js, on the scorekeeper's first visit): a hand
  // the server took is answered as saved to its key, and leaves.
  window.addEventListener("pageshow", function (ev) {
    if (ev.persisted) { window.dispatchEvent(new Event("online")); }
  });

  // The hands that need the player, drawn as their hand page draws them (offline.js draw(),
  // the one home of that grouping: under "Not saved: check these"): those the server refused
  // and those of a game over (e.over: offline.js over() says it with its words, Forget, no
  // Send now); then the hands still to send, with what to do. On a join page, that game's only.
  function render() {
    var all = cfc.load().filter(function (e) {
      return cfc.seatOf(e.url) && (!words.page || e.page === words.page);
    });
    all.forEach(function (e) { e.over = !refused(e) && ended[e.page]; });
    ask(all.filter(function (e) { return !refused(e); }));
    var now = pending + all.map(function (e) { return e.key + e.state + e.over; }).join();
    if (now === shown) { return; }
    shown = now;
    var no = all.filter(function (e) { return refused(e) || e.over; });
    refusals.hidden = !no.length;
    cfc.draw(refusals, no);
    var hands = pending ? [] : all.filter(function (e) { return !refused(e) && !e.over; });
    box.querySelectorAll(".outbox-entry").forEach(function (n) { n.remove(); });
    box.hidden = !hands.length;
    hands.forEach(function (entry) {
      var item = box.appendChild(el("div", "", "outbox-entry waiting"));
      item.appendChild(el("h3", entry.label));
      item.appendChild(el("p", todo[cfc.seatOf(entry.url)] || words.home, "outbox-state"));
      var own = item.appendChild(el("div", "", "outbox-own"));
      own.appendChild(el("p", words.mine));
      var list = own.appendChild(el("ul"));
      (entry.own || []).forEach(function (line) { list.appendChild(el("li", line)); });
      var actions = item.appendChild(el("div", "", "actions"));
      if (!words.page) { actions.appendChild(el("a", words.open, "button secondary")).href = entry.page; }
      var button = actions.appendChild(el("button", words.forget, "secondary"));
      button.type = "button";
      button.addEventListener("click", function () { forget(entry); });
    });
  }

  render();
  refusals.addEventListener("click", render); // (after offline.js's Forget: it leaves)
  // sent meanwhile (offline.js sends what it can from this page too; another tab): it leaves
  window.addEventListener("storage", render); // (render draws only what changed)
  setInterval(render, 2000);
})();
