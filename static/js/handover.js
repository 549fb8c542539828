// Loaded by static/js/table.js when this phone no longer keeps score (scorekeeping was handed
// over): a Save or the poll was refused (403). The server's page says so
// (data-scorekeeping-ended in templates/games/not_scorekeeper.html): nothing the round form
// sends is saved any more, so its buttons and boxes are disabled (what was typed stays
// readable in them), and so are the page's other scorekeeper's forms.
(function () {
  "use strict";

  function disable(form) {
    form.setAttribute("data-retired", "");
    form.querySelectorAll("button, input, select, textarea").forEach(function (control) {
      if ((control.type || "").toLowerCase() !== "hidden") { control.disabled = true; }
    });
  }
  // The round form, and every other scorekeeper's form of the page (the seat buttons: lock,
  // close the join panel, remove a phone, auto-save, a request's answer): each posts under the
  // game's edit link, which the server now refuses from this phone.
  function retire(form) {
    disable(form);
    var page = form.getAttribute("data-outbox-page");
    if (!page) { return; }
    [].forEach.call(document.forms, function (other) {
      if (other.method === "post" && other.action.indexOf(page + "/") > 0) { disable(other); }
    });
  }

  // This file's tag takes itself out, and run from a tag the page's offline copy kept anyway
  // (before table.js) it does nothing: as static/js/kept.js.
  var me = document.currentScript || document.createElement("script");
  me.remove();
  var call = (window.cfcLater || {}).handover;
  if (!call) { return; }
  // The round form, the refused answer and (the poll's refusal) table.js's banner, which says
  // the answer's title above the form.
  var form = call[1], body = call[2] || "";
  var banner = call[3];
  if (banner) {
    var title = new DOMParser().parseFromString(body, "text/html").querySelector("main h1");
    banner(form, title ? title.textContent.trim() : "");
  }
  if (/data-scorekeeping-ended/.test(body)) { retire(form); }
})();
