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
}());
