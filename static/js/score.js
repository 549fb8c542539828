// Tile picker enhancements for the round form (progressive: the form works without this file).
// - shows how many tiles are tapped and their points (each checkbox carries the points the
//   engine gives that tile under the house rules in data-points; this only adds them up);
// - greys out, in the other players' pickers, a tile already tapped for one player.
(function () {
  "use strict";

  function pickers(root) {
    return Array.prototype.slice.call(root.querySelectorAll("fieldset.picker"));
  }

  function refreshSum(picker) {
    var boxes = picker.querySelectorAll("input[type=checkbox]:checked");
    var points = 0;
    boxes.forEach(function (b) { points += parseInt(b.getAttribute("data-points") || "0", 10); });
    var out = document.querySelector('output.picked-sum[data-for="' + picker.getAttribute("data-field") + '"]');
    if (out) {
      var one = boxes.length === 1 && out.getAttribute("data-template-one");
      var words = one || out.getAttribute("data-template") || "{n}: {p}";
      out.textContent = boxes.length ? words.replace("{n}", boxes.length).replace("{p}", points) : "";
    }
  }

  function refreshTaken(form) {
    var all = pickers(form);
    var taken = {};
    all.forEach(function (p) {
      p.querySelectorAll("input[type=checkbox]:checked").forEach(function (b) {
        taken[b.value] = p.getAttribute("data-field");
      });
    });
    all.forEach(function (p) {
      var field = p.getAttribute("data-field");
      p.querySelectorAll("input[type=checkbox]").forEach(function (b) {
        var other = taken[b.value] && taken[b.value] !== field;
        b.disabled = !!other && !b.checked;
        b.parentNode.classList.toggle("taken", !!other && !b.checked);
      });
    });
  }

  function init(root) {
    root.querySelectorAll("form.round-form").forEach(function (form) {
      pickers(form).forEach(refreshSum);
      refreshTaken(form);
    });
  }

  document.addEventListener("change", function (ev) {
    var box = ev.target;
    if (!box || box.type !== "checkbox") { return; }
    var picker = box.closest("fieldset.picker");
    if (!picker) { return; }
    refreshSum(picker);
    refreshTaken(picker.closest("form"));
  });
  // Before sending, re-enable greyed tiles so nothing typed is lost (disabled boxes are unchecked
  // anyway, so this sends nothing extra).
  document.addEventListener("submit", function (ev) {
    if (ev.target && ev.target.classList && ev.target.classList.contains("round-form")) {
      ev.target.querySelectorAll("fieldset.picker input[disabled]").forEach(function (b) { b.disabled = false; });
    }
  }, true);
  // Deferred: the page is parsed when this runs. Start now rather than at DOMContentLoaded,
  // which a stalled CDN copy of htmx (deferred after this) can hold up for as long as it stalls.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
  document.addEventListener("htmx:afterSwap", function (ev) { init(ev.target || document); });
})();
