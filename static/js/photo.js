// The photo page's headline is what will be posted: the points of the tiles picked, under the
// house rules (each option carries its points, worked out on the server: the double-blank at
// its value, blank halves as set). Re-added whenever a tile's picker changes; tiles still on
// "?" add nothing and keep the "pick each one" line shown. Without JS the headline is the
// server's sum of the picks, added up again by the form's "Add up my picks" (removed here).
// Confirm is held back, in the server's words (the form's data-twice, data-pick, data-none),
// while a tile is picked twice (a set has one of each), a tile is still on "?", every tile
// is "not a tile", or the round's centre double is picked (data-centre): the browser points at
// the tile to fix and nothing on the page is lost. The server refuses the same picks the same
// way when this script does not run. A tile in another hand (data-elsewhere: tile -> the
// server's words, the centre double's too) is flagged beside its picker but not held back:
// that hand may be the wrong one, and the server decides.
(function () {
  "use strict";

  function check(form, selects) {
    var elsewhere = JSON.parse(form.getAttribute("data-elsewhere") || "{}");
    var counts = {};
    var tiles = 0;
    var pending = 0;
    selects.forEach(function (select) {
      var value = select.value;
      if (value === "?") { pending += 1; return; }
      if (value === form.getAttribute("data-not-a-tile")) { return; }
      counts[value] = (counts[value] || 0) + 1;
      tiles += 1;
    });
    selects.forEach(function (select, index) {
      var value = select.value;
      var words = "";
      var warning = false;
      if (value === "?") {
        words = form.dataset.pick.replace("{n}", String(index + 1));
      } else if (counts[value] > 1) {
        words = form.dataset.twice.split("{t}").join(value);
      } else if (Object.prototype.hasOwnProperty.call(elsewhere, value)) {
        words = elsewhere[value];
        warning = value !== form.getAttribute("data-centre");
      } else if (index === 0 && tiles === 0 && pending === 0) {
        words = form.dataset.none;
      }
      select.setCustomValidity(warning ? "" : words);
      // a tile still on "?" keeps the mark the server gave it after a refused Confirm, and
      // gets none before one (it is not wrong yet, only not picked)
      if (value === "?") { return; }
      // the words are shown beside the picker too (drawn by the server from the first render),
      // not only said when Confirm is pressed
      var shown = document.getElementById("fix-words-" + index);
      if (shown) {
        shown.textContent = words;
        shown.hidden = !words;
      }
      var described = (select.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
        return id && id !== "fix-words-" + index;
      });
      if (words) {
        select.setAttribute("aria-invalid", "true");
        if (shown) { described.push("fix-words-" + index); }
      } else {
        select.removeAttribute("aria-invalid");
      }
      if (described.length) {
        select.setAttribute("aria-describedby", described.join(" "));
      } else {
        select.removeAttribute("aria-describedby");
      }
    });
  }

  // The photo's labels follow the picks ("1: 5-4"; a tile on "?" keeps the server's label,
  // "not a tile" shows ×), so the photo never shows what will not be posted.
  function relabel(form, selects) {
    selects.forEach(function (select, index) {
      var label = document.querySelector('a.tile-mark[href="#fix-' + index + '"] text');
      if (!label) { return; }
      if (!label.hasAttribute("data-read")) { label.setAttribute("data-read", label.textContent); }
      var value = select.value;
      var shown = value === form.getAttribute("data-not-a-tile") ? "\u00d7" : value;
      label.textContent = value === "?" ? label.getAttribute("data-read") : (index + 1) + ": " + shown;
    });
  }

  function update(form) {
    var total = 0;
    var toPick = 0;
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[name=tile]"));
    selects.forEach(function (select) {
      var option = select.options[select.selectedIndex];
      if (!option) { return; }
      if (option.value === "?") { toPick += 1; }
      total += parseInt(option.getAttribute("data-points") || "0", 10) || 0;
    });
    document.querySelectorAll("[data-hand-points]").forEach(function (out) {
      out.textContent = String(total);
    });
    // the outbox names the entry with the points it will post ("Bo's hand from a photo,
    // points: 20"), as the headline says them now
    var named = form.getAttribute("data-outbox-words");
    if (named) { form.setAttribute("data-outbox", named.replace("{n}", String(total))); }
    document.querySelectorAll("[data-to-pick]").forEach(function (line) {
      line.hidden = toPick === 0;
    });
    check(form, selects);
    relabel(form, selects);
  }

  function wire() {
    document.querySelectorAll("form[data-photo-hand]").forEach(function (form) {
      if (form.dataset.wired) { return; }
      form.dataset.wired = "1";
      // the headline is added up here as tiles are picked: the no-JS "Add up my picks" is not needed
      // (removed, not hidden: the stylesheet's buttons are flex boxes, which [hidden] loses to)
      form.querySelectorAll("[data-add-up]").forEach(function (button) { button.remove(); });
      form.addEventListener("change", function () { update(form); });
      // Confirm kept in the outbox (offline.js: no connection). The reading is the answer to a
      // post, with no address of its own: a reload or coming back opens the entry's page
      // instead (the hand page, the scorekeeper's game page: the service worker keeps their
      // copies), which shows the entry waiting, with its picks, and no Confirm to post it
      // again. The scorekeeper goes back to the game page now, to go on with the round;
      // without a service worker that page cannot be opened offline: the reading stays.
      form.addEventListener("outbox-kept", function () {
        var page = form.getAttribute("data-outbox-page");
        if (!page || !window.history.replaceState) { return; }
        window.history.replaceState(null, "", page);
        if (form.hasAttribute("data-outbox-keeper") && navigator.serviceWorker && navigator.serviceWorker.controller) {
          window.location.replace(page);
        }
      });
      update(form);
    });
  }

  // A page drawn as the answer to a post (a reading, a refusal) takes its photo page's own
  // address in the history: Back after Confirm, or a reload, then opens the photo page afresh
  // instead of "Confirm Form Resubmission" (the photo is not kept, so it cannot be shown again).
  // The photo page opened by its own address keeps its query: a link's "?lang=de" was dropped
  // from the address at once, so the page looked as if it had not taken it.
  var upload = document.querySelector("form.photo-upload");
  if (upload && window.history.replaceState) {
    var address = new URL(upload.action, window.location.href);
    if (address.pathname === window.location.pathname) { address.search = window.location.search; }
    window.history.replaceState(null, "", address.href);
  }

  // A tap on a tile of the photo (or on its wider tap circle) jumps to its picker (a plain link
  // without JS) and opens it for the thumb: the picker takes the focus. So does "If not, add
  // the missed tile." under the headline, for the first added tile's picker, whose folded
  // "The photo missed a tile?" is opened first (a closed one's picker cannot take the focus).
  document.addEventListener("click", function (event) {
    var links = "a.tile-mark, a.tile-hit, a.add-missed";
    var link = event.target.closest ? event.target.closest(links) : null;
    var target = link ? document.getElementById((link.getAttribute("href") || "").slice(1)) : null;
    var picker = target ? target.querySelector("select") : null;
    if (!picker) { return; }
    event.preventDefault();
    var folded = target.closest("details");
    if (folded) { folded.open = true; }
    picker.scrollIntoView({ block: "center" });
    picker.focus();
  });

  document.addEventListener("DOMContentLoaded", wire);
  document.addEventListener("htmx:afterSettle", wire);
  wire();
})();
