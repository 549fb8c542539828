// The photo page's headline is what will be posted: the points of the tiles picked, under the
// house rules (each option carries its points, worked out on the server: the double-blank at
// its value, blank halves as set). Re-added whenever a tile's picker changes; tiles still on
// "?" add nothing and keep the "pick each one" line shown. Without JS the headline is the
// server's sum of the tiles it was sure of.
(function () {
  "use strict";

  function update(form) {
    var total = 0;
    var toPick = 0;
    form.querySelectorAll("select[name=tile]").forEach(function (select) {
      var option = select.options[select.selectedIndex];
      if (!option) { return; }
      if (option.value === "?") { toPick += 1; }
      total += parseInt(option.getAttribute("data-points") || "0", 10) || 0;
    });
    document.querySelectorAll("[data-hand-points]").forEach(function (out) {
      out.textContent = String(total);
    });
    document.querySelectorAll("[data-to-pick]").forEach(function (line) {
      line.hidden = toPick === 0;
    });
  }

  function wire() {
    document.querySelectorAll("form[data-photo-hand]").forEach(function (form) {
      if (form.dataset.wired) { return; }
      form.dataset.wired = "1";
      form.addEventListener("change", function () { update(form); });
      update(form);
    });
  }

  document.addEventListener("DOMContentLoaded", wire);
  document.addEventListener("htmx:afterSettle", wire);
  wire();
})();
