// The new game night's date starts at the server's "today": a phone in another time zone (a
// US table at 9 PM on a server running on UTC) is on another day, so the field starts at the
// phone's own date instead. Only a field the server marked as its untouched default
// (data-server-today) is changed: a date the player picked, or one sent back with a refusal,
// is kept.
(function () {
  "use strict";
  var field = document.querySelector("input[type=date][data-server-today]");
  if (!field || field.value !== field.getAttribute("data-server-today")) { return; }
  var now = new Date();
  function two(n) { return (n < 10 ? "0" : "") + n; }
  field.value = now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate());
})();
