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
// phone may never open that page again. The outbox's rules are offline.js's (window.cfc: its
// store, whose seat a hand is, what was refused, Forget): that file is on every page that
// loads this one, and runs first (both deferred, base.html's first).
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
  var ended = JSON.parse(words.ended || "[]"); // hand pages of games over (the home page)
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

  // What to do with a hand still to send. One kept for its seat in a game over can never be
  // sent (as offline.js over() says on its hand page): not counted, not "sent by itself then".
  function said(entry) {
    if (entry.state === "seat" && ended.indexOf(entry.page) > -1) { return words.over; }
    return todo[cfc.seatOf(entry.url)] || words.home;
  }

  // The hands still to send, then those refused; on a join page, that game's only.
  function render() {
    var all = cfc.load().filter(function (e) {
      return cfc.seatOf(e.url) && (!words.page || e.page === words.page);
    });
    var now = all.map(function (e) { return e.key + e.state; }).join();
    if (now === shown) { return; }
    shown = now;
    var no = all.filter(refused);
    refusals.hidden = !no.length;
    cfc.draw(refusals, no);
    var hands = all.filter(function (e) { return !refused(e); });
    box.querySelectorAll(".outbox-entry").forEach(function (n) { n.remove(); });
    box.hidden = !hands.length;
    hands.forEach(function (entry) {
      var item = box.appendChild(el("div", "", "outbox-entry waiting"));
      item.appendChild(el("h3", entry.label));
      item.appendChild(el("p", said(entry), "outbox-state"));
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
