// Rules checker, progressive enhancement (the page works without it):
// in the "Can this tile go here?" form, tapping a tile and then an end (in the list or on the
// picture) asks at once, without pressing the button. Only taps made on this page count, so a
// tile and end preselected from the last ruling are not asked again by a single tap.
(function () {
  "use strict";

  var tapped = new WeakMap();

  function askForm() {
    var form = document.getElementById("ask-form");
    return form && form.dataset.tab === "move" ? form : null;
  }

  function note(form, name) {
    var seen = tapped.get(form) || {};
    seen[name] = true;
    tapped.set(form, seen);
    if (seen.tile && seen.on && form.querySelector("input[name=tile]:checked") &&
        form.querySelector("input[name=on]:checked")) {
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
  }

  document.addEventListener("change", function (event) {
    var form = askForm();
    var name = event.target.name;
    if (form && form.contains(event.target) && (name === "tile" || name === "on")) {
      note(form, name);
    }
  });

  document.addEventListener("click", function (event) {
    var form = askForm();
    var link = event.target.closest && event.target.closest("a.end-link");
    if (!form || !link) { return; }
    var radio = form.querySelector("input[name=on][value='" + link.dataset.on + "']");
    if (!radio) { return; }
    event.preventDefault();
    event.stopPropagation();
    radio.checked = true;
    note(form, "on");
  }, true);

  // The tile and end of the ruling just shown stay preselected in the form. A tap on "Can it
  // go there?" right after a tap-to-ask (tile, then end: asked at once, above) would ask the
  // same question again and save the ruling twice, Back then landing on the copy. Untouched,
  // the form has nothing new to ask: the answer on the page is brought into view instead.
  document.addEventListener("submit", function (event) {
    var form = askForm();
    var verdict = document.getElementById("verdict");
    var seen = form && tapped.get(form);
    if (!form || event.target !== form || !verdict || seen && (seen.tile || seen.on)) { return; }
    event.preventDefault();
    event.stopPropagation();
    bringIntoView(verdict);
  }, true);

  function bringIntoView(element) {
    if (!element.hasAttribute("tabindex")) { element.setAttribute("tabindex", "-1"); }
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: "center" });
  }

  // A refused answer (422: a position that cannot be read or played, a question missing
  // something) is swapped in where the swap's "show:" puts the page (nowhere for the position
  // form, the top of the checker for a question): its message may be far from the button
  // just tapped, so it is brought into view (and focused, so it is read out) or the tap would
  // look as if nothing happened. After a timeout: htmx applies "show:" after afterSettle.
  document.addEventListener("htmx:afterSettle", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || xhr.status !== 422) { return; }
    setTimeout(function () {
      var message = document.querySelector("#checker .refusal, #checker .problem[role=alert]");
      if (message) { bringIntoView(message); }
    }, 0);
  });

  // A deep layout is drawn at its own scale and scrolls inside its box: bring the tile that
  // matters into view (the move asked about, the refused placement, else the centre double).
  function centreThePicture() {
    var box = document.querySelector(".picture");
    var svg = box && box.querySelector("svg.layout");
    if (!svg || box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight) {
      return;
    }
    var target = svg.querySelector("g.tile.illegal, g.tile.legal, g.tile.refused") ||
      svg.querySelector("g.tile.centre");
    if (!target) { return; }
    var t = target.getBoundingClientRect();
    var b = box.getBoundingClientRect();
    box.scrollLeft += (t.left + t.width / 2) - (b.left + b.width / 2);
    box.scrollTop += (t.top + t.height / 2) - (b.top + b.height / 2);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", centreThePicture);
  } else {
    centreThePicture();
  }
  document.addEventListener("htmx:afterSettle", centreThePicture);
}());
