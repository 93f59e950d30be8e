// Engram pages work without this file; it only keeps keyboard focus in a sensible place
// after htmx swaps. (A static file: the content security policy forbids inline scripts.)
//
// htmx itself focuses an [autofocus] element of new content once it has processed it (at
// settle time), so the inline correct/delete forms need nothing here. After an inline
// correction or deletion the row that replaced the form gets focus, so keyboard users
// stay where they were in the list instead of being sent back to the top of the page.
(function () {
  "use strict";
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.id || elt.querySelector("[autofocus]")) {
      return;
    }
    var row = document.getElementById(elt.id);
    if (row && row.classList.contains("memory") && !row.classList.contains("editing")) {
      row.setAttribute("tabindex", "-1");
      row.focus();
    }
  });
})();
