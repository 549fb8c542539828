// The language picker (templates/_language_picker.html) is a small form of its own: choosing a
// language posts it and the server sends the phone back to the same page, now in the chosen
// language. Without this script, everything typed into the page's other forms (names of a new
// game, a round's points, a checker question) was gone after the reload. Here the picker's
// submit keeps the typed values for this tab (sessionStorage), and the page it comes back to
// puts them back into the same fields (same form action, same field name) before anything
// else reads them. Hidden fields (the CSRF token, ids) always come from the new page.
(function () {
  "use strict";

  var KEY = "language-picker-typed";
  var KEPT_TYPES = /^(text|search|number|tel|email|url|date|time|datetime-local|month|week|checkbox|radio)$/;

  function kept(field) {
    if (!field.name || field.disabled) { return false; }
    if (field.tagName === "TEXTAREA" || field.tagName === "SELECT") { return true; }
    return field.tagName === "INPUT" && KEPT_TYPES.test(field.type || "text");
  }

  function formKey(form) {
    return (form.getAttribute("action") || "") + "#" + Array.prototype.indexOf.call(document.forms, form);
  }

  function typed() {
    var fields = [];
    Array.prototype.forEach.call(document.forms, function (form) {
      if (form.closest(".language-picker")) { return; }
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!kept(field)) { return; }
        var value = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
        fields.push({ form: formKey(form), name: field.name, value: field.value, state: value });
      });
    });
    return fields;
  }

  function putBack(fields) {
    Array.prototype.forEach.call(document.forms, function (form) {
      var key = formKey(form);
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!kept(field)) { return; }
        fields.forEach(function (saved) {
          if (saved.form !== key || saved.name !== field.name) { return; }
          if (field.type === "checkbox" || field.type === "radio") {
            if (saved.value !== field.value) { return; }
            if (field.checked === saved.state) { return; }
            field.checked = saved.state;
          } else {
            if (field.value === saved.state) { return; }
            field.value = saved.state;
          }
          // the page's own scripts (the round's sums, the hand's total) follow the value
          field.dispatchEvent(new Event("input", { bubbles: true }));
          field.dispatchEvent(new Event("change", { bubbles: true }));
        });
      });
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.closest || !form.closest(".language-picker")) { return; }
    var back = form.querySelector("input[name='next']");
    try {
      sessionStorage.setItem(KEY, JSON.stringify({ page: back ? back.value : "", fields: typed() }));
    } catch (e) { /* storage off: the choice still works, the typed values are not kept */ }
  }, true);

  function restore() {
    var saved;
    try {
      saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
      sessionStorage.removeItem(KEY);
    } catch (e) { return; }
    if (!saved || !saved.fields) { return; }
    if (saved.page && saved.page !== location.pathname + location.search) { return; }
    putBack(saved.fields);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", restore);
  } else {
    restore();
  }
})();
