// Tile picker enhancements for the round form (progressive: the form works without this file).
// - shows how many tiles are tapped and their points (each checkbox carries the points the
//   engine gives that tile under the house rules in data-points; this only adds them up);
// - greys out, in the other open pickers, a tile already tapped for one player;
// - fetches a hand's picker when its button is tapped, without the tile symbols once the page
//   has them (?defs=0).
// A tap costs the same whatever the players: it updates its own picker's running sum and the
// same tile in each other *open* picker (found through an index built once per picker), never
// the whole form. Pickers are built only when opened, so closed hands cost nothing here.
(function () {
  "use strict";

  // fieldset.picker -> {byValue: {tile: checkbox}, checked: {tile: true}, count, points, out}
  var states = new WeakMap();
  // form.round-form -> the pickers set up in it (detached ones are dropped when seen)
  var formPickers = new WeakMap();

  function pointsOf(box) { return parseInt(box.getAttribute("data-points") || "0", 10); }

  // A count in the page's language: data-tiles / data-points hold the words per plural
  // category ({"one": "{n} tile", "other": "{n} tiles"}, companion.web.languages.plural_words).
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;

  function countWords(out, name, n) {
    var words = {};
    try { words = JSON.parse(out.getAttribute("data-" + name) || "{}"); } catch (e) { words = {}; }
    var form = (plurals && words[plurals.select(n)]) || words.other || "{n}";
    return form.replace("{n}", String(n));
  }

  function showSum(st) {
    if (!st.out) { return; }
    st.out.textContent = st.count
      ? countWords(st.out, "tiles", st.count) + ": " + countWords(st.out, "points", st.points)
      : "";
  }

  function markTaken(box, taken) {
    if (!box || box.checked) { return; }
    box.disabled = taken;
    box.parentNode.classList.toggle("taken", taken);
  }

  // The other pickers of the same form that are still on the page.
  function others(picker) {
    var form = picker.closest("form");
    var list = (form && formPickers.get(form)) || [];
    var alive = list.filter(function (p) { return p.isConnected; });
    if (form && alive.length !== list.length) { formPickers.set(form, alive); }
    return alive.filter(function (p) { return p !== picker; });
  }

  // Index one picker (once): its checkboxes by tile, its sum; grey out tiles tapped elsewhere
  // and, elsewhere, the tiles it already holds; tiles held hidden (table.js setTiles) ticked.
  function setup(picker) {
    var st = states.get(picker);
    if (st) { return st; }
    st = { byValue: {}, checked: {}, count: 0, points: 0, out: null };
    picker.querySelectorAll("input[type=checkbox]").forEach(function (box) {
      var held = document.querySelector('.posted-tile[name="' + box.name + '"][value="' + box.value + '"]');
      if (held) { box.checked = true; held.remove(); }
      st.byValue[box.value] = box;
      if (box.checked) { st.checked[box.value] = true; st.count += 1; st.points += pointsOf(box); }
    });
    var box = picker.closest("details");
    st.out = box ? box.querySelector("output.picked-sum") : null;
    states.set(picker, st);
    showSum(st);
    var form = picker.closest("form");
    if (form) {
      others(picker).forEach(function (other) {
        var os = states.get(other);
        Object.keys(os.checked).forEach(function (tile) { markTaken(st.byValue[tile], true); });
        Object.keys(st.checked).forEach(function (tile) { markTaken(os.byValue[tile], true); });
      });
      formPickers.set(form, (formPickers.get(form) || []).concat([picker]));
    }
    return st;
  }

  function init(root) {
    if (!root || !root.querySelectorAll) { return; }
    if (root.matches && root.matches("fieldset.picker")) { setup(root); }
    root.querySelectorAll("form.round-form fieldset.picker").forEach(setup);
  }

  document.addEventListener("change", function (ev) {
    var box = ev.target;
    if (!box || box.type !== "checkbox") { return; }
    var picker = box.closest("fieldset.picker");
    if (!picker) { return; }
    var st = setup(picker);
    var tile = box.value;
    if (box.checked && !st.checked[tile]) {
      st.checked[tile] = true; st.count += 1; st.points += pointsOf(box);
    } else if (!box.checked && st.checked[tile]) {
      delete st.checked[tile]; st.count -= 1; st.points -= pointsOf(box);
    }
    showSum(st);
    others(picker).forEach(function (other) {
      markTaken(states.get(other).byValue[tile], box.checked);
    });
  });
  // Before sending, re-enable greyed tiles so nothing typed is lost (disabled boxes are unchecked
  // anyway, so this sends nothing extra).
  document.addEventListener("submit", function (ev) {
    if (ev.target && ev.target.classList && ev.target.classList.contains("round-form")) {
      ev.target.querySelectorAll("fieldset.picker input[disabled]").forEach(function (b) { b.disabled = false; });
    }
  }, true);
  // "Tap the tiles": fetch that hand's picker (htmx fragment) for the button (without htmx
  // the form is sent: the page comes with that picker open). The form names its address
  // (data-picker-url); after the first picker the tile symbols are there (?defs=0). The
  // button is enabled again when the fetch ends, failed (rejected with nothing: handled, no
  // "undefined" logged) or dropped by a Save on its way (the hands' hx-sync,
  // templates/games/_round_form.html): the Save's answer may keep this button.
  document.addEventListener("click", function (ev) {
    var button = ev.target && ev.target.closest ? ev.target.closest("button.picker-open") : null;
    var form = button && button.form;
    if (!button || !form || !window.htmx || !form.getAttribute("data-picker-url")) { return; }
    ev.preventDefault();
    ev.stopPropagation();
    var url = form.getAttribute("data-picker-url") + "&seat=" + encodeURIComponent(button.value);
    if (document.querySelector("svg.tile-defs")) { url += "&defs=0"; }
    var on = function () { button.disabled = false; };
    button.disabled = true;
    window.htmx.ajax("GET", url, { source: button, target: button, swap: "outerHTML" }).then(on, on);
  }, true);
  // Deferred: the page is parsed when this runs. Start now rather than at DOMContentLoaded,
  // which a stalled CDN copy of htmx (deferred after this) can hold up for as long as it stalls.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
  document.addEventListener("htmx:load", function (ev) { init(ev.detail && ev.detail.elt); });
})();
