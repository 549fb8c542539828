// Failed htmx requests must never look like a success (progressive: without JavaScript every
// form is a plain post and the server's page says what happened).
// A refused save (409, 422) is swapped like a success: it is the form again with what to fix
// (htmx-config responseHandling in templates/base.html). htmx does not swap the other 4xx/5xx
// answers and does nothing visible when the network drops. Here, on htmx:responseError,
// htmx:sendError and htmx:timeout, a message goes into the live region next to the form
// (.save-status; made here when missing). The form is left as it was.
(function () {
  "use strict";

  // The live region for ``elt``: the one inside its form, else one made right after it.
  function statusFor(elt) {
    var form = elt.closest ? (elt.closest("form") || elt) : elt;
    var region = form.querySelector ? form.querySelector(".save-status") : null;
    if (!region) {
      region = form.nextElementSibling;
      if (!region || !region.classList.contains("save-status")) {
        region = document.createElement("div");
        region.className = "save-status";
        region.setAttribute("aria-live", "polite");
        form.parentNode.insertBefore(region, form.nextSibling);
      }
    }
    return region;
  }

  // A failed save says "Not saved"; a failed load (e.g. the live scoreboard's poll) says the
  // page may be out of date instead (the words: base.html, the form's region). A named button
  // (tap: auto-save, the seat lock) saves no round: not the form's "tap Save again".
  function messageText(region, verb, tap) {
    return verb === "get" ? document.body.getAttribute("data-load-failed") :
      !tap && region.getAttribute("data-failed") || document.body.getAttribute("data-save-failed");
  }

  function verbOf(ev) {
    var config = ev.detail && ev.detail.requestConfig;
    return config && config.verb ? String(config.verb).toLowerCase() : "post";
  }

  // The server's own words from an HTML error page (its heading and first paragraph), if any.
  function serverMessage(xhr) {
    var type = (xhr && xhr.getResponseHeader && xhr.getResponseHeader("Content-Type")) || "";
    if (!xhr || type.indexOf("text/html") === -1 || !xhr.responseText) { return ""; }
    var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var main = doc.querySelector("main") || doc.body;
    if (!main) { return ""; }
    var title = main.querySelector("h1");
    // the page's own alert (e.g. "Scorekeeping was handed over…"), else its first shown
    // paragraph: never the hidden install hint that every page carries above its content
    var para = main.querySelector("[role=alert]") ||
      main.querySelector("p:not(.flash):not([hidden]):not(.install-hint)");
    var parts = [];
    if (title && title.textContent.trim()) { parts.push(title.textContent.trim()); }
    if (para && para.textContent.trim()) { parts.push(para.textContent.trim()); }
    return parts.join(": ");
  }

  // ``ev``'s request failed: its message in the region of ``elt``. A poll (no triggering
  // event) says it where it is: the view stays on what the player reads (their kept hand).
  function show(ev, detailText, tap) {
    var elt = ev.detail.elt, verb = verbOf(ev), asked = (ev.detail.requestConfig || {}).triggeringEvent;
    var region = statusFor(elt);
    region.textContent = "";
    var box = document.createElement("div");
    tap = tap && tap.name;
    box.className = tap ? "flash error tap" : "flash error";
    // A refusal in the server's words (a 4xx page) is the whole message: "check the
    // connection" would be wrong, the connection worked.
    var main = document.createElement("p");
    main.textContent = detailText || messageText(region, verb, tap);
    if (detailText) { main.className = "server-message"; }
    box.appendChild(main);
    region.appendChild(box);
    if (asked && region.scrollIntoView) { region.scrollIntoView({ block: "nearest" }); }
  }

  function clear(elt) {
    var form = elt.closest ? (elt.closest("form") || elt) : elt;
    var region = form.querySelector ? form.querySelector(".save-status") : null;
    if (!region && form.nextElementSibling && form.nextElementSibling.classList.contains("save-status")) {
      region = form.nextElementSibling;
    }
    if (region) { region.textContent = ""; }
  }

  // A form with data-confirm (e.g. "Undo the last change") asks before it is sent.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    // The question may end with what the form shows already (data-confirm-detail: the undo
    // summary is sent once, not twice).
    var detail = question && form.querySelector("[data-confirm-detail]");
    if (detail) { question = question + " " + detail.textContent.trim(); }
    if (question && !window.confirm(question)) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      return;
    }
    // A plain (non-htmx) form is sent once: a double tap on "Rematch" or "Undo" must not send
    // it twice. htmx forms are guarded by hx-disabled-elt instead.
    // htmx forms (hx-post, or boosted) are left to htmx: they stay on the page.
    var plain = form && form.tagName === "FORM" && (form.method || "").toLowerCase() === "post" &&
      !form.hasAttribute("hx-post") && !form.closest("[hx-boost='true']");
    if (plain) {
      if (form.getAttribute("data-sending")) {
        ev.preventDefault();
        ev.stopImmediatePropagation();
        return;
      }
      form.setAttribute("data-sending", "1");
    }
  }, true);
  // A page brought back by the Back button may be sent again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sending]").forEach(function (f) { f.removeAttribute("data-sending"); });
  });

  document.addEventListener("htmx:beforeRequest", function (ev) { clear(ev.detail.elt); });
  document.addEventListener("htmx:responseError", function (ev) {
    var xhr = ev.detail.xhr;
    var detailText = xhr && xhr.status >= 400 && xhr.status < 500 ? serverMessage(xhr) : "";
    show(ev, detailText);
  });
  // After a swap that carries a notice ("Round saved."), move the focus to it so a screen
  // reader reads it and the keyboard continues from the top of the fresh game area.
  document.addEventListener("htmx:afterSettle", function (ev) {
    var target = ev.detail.target;
    if (!target || target.id !== "round-area") { return; }
    // outerHTML swap: the old #round-area is gone, look the fresh one up.
    var notice = document.querySelector("#round-area > .flash.success[role=status]");
    if (notice) {
      notice.setAttribute("tabindex", "-1");
      notice.focus({ preventScroll: true });
    }
  });
  function failed(ev) {
    show(ev, "", ((ev.detail.requestConfig || {}).triggeringEvent || {}).submitter);
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  window.addEventListener("online", function () {
    document.querySelectorAll(".flash.tap").forEach(function (node) { node.remove(); });
  });
})();

// Times in the phone's own time zone: the server stamps a moment in UTC (<time datetime="...Z">,
// its text says "UTC" for a page read without JavaScript); here it is written again in the
// page's language and the phone's zone ("5:30 AM UTC" -> "6:30 AM" in Berlin), its tooltip
// the same moment with its date ("12/6/26, 6:30 AM"; the server's UTC text there read as the
// phone's time). After an htmx swap too (a ruling just saved), and for the marks table.js
// writes live (window.cfcLocalise).
(function () {
  "use strict";

  // The one way a moment is written on a phone: the short time of day in the page's language
  // and the phone's zone ("4:16 PM"), with the date before it when it is not today or
  // ``dated`` ("12/3/26, 4:16 PM"); "" when it cannot be.
  function localTime(moment, dated) {
    if (!window.Intl || isNaN(moment)) { return ""; }
    var today = !dated && moment.toDateString() === new Date().toDateString();
    try {
      return new Intl.DateTimeFormat(document.documentElement.lang || undefined,
        today ? { timeStyle: "short" } : { dateStyle: "short", timeStyle: "short" }).format(moment);
    } catch (e) { return ""; }
  }
  function localise(root) {
    root.querySelectorAll('time[datetime$="Z"]:not([data-local])').forEach(function (el) {
      var moment = new Date(el.dateTime), text = localTime(moment);
      if (!text) { return; }
      el.title = localTime(moment, 1);
      el.textContent = text;
      el.setAttribute("data-local", "");
    });
  }
  window.cfcLocalise = localise;

  document.addEventListener("DOMContentLoaded", function () { localise(document); });
  // the whole page: after an outerHTML swap the event's target is the element swapped out
  document.addEventListener("htmx:afterSettle", function () { localise(document); });
})();
