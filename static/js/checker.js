// Rules checker, progressive enhancement (the page works without it):
// in the "Can this tile go here?" form, tapping a tile and then an end (in the list or on the
// picture) asks at once, without pressing the button.
(function () {
  "use strict";

  function askForm() {
    var form = document.getElementById("ask-form");
    return form && form.dataset.tab === "move" ? form : null;
  }

  function submitIfReady(form) {
    if (form.querySelector("input[name=tile]:checked") && form.querySelector("input[name=on]:checked")) {
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
  }

  document.addEventListener("change", function (event) {
    var form = askForm();
    if (form && form.contains(event.target) && (event.target.name === "tile" || event.target.name === "on")) {
      submitIfReady(form);
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
    submitIfReady(form);
  }, true);
}());
