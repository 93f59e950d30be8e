// Engram pages work without this file; it only polishes keyboard focus after htmx swaps.
// (Served as a static file: the content security policy forbids inline scripts.)
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || !document.body.contains(target)) {
      // outerHTML swaps replace the target; find the new element by id instead.
      target = event.detail.elt && event.detail.elt.id ? document.getElementById(event.detail.elt.id) : null;
    }
    var scope = target || document;
    var focusable = scope.querySelector("[autofocus]");
    if (focusable) {
      focusable.focus();
      return;
    }
    // After an inline correction or deletion, keep focus in the same place in the list.
    var status = scope.querySelector && scope.querySelector("[role=status]");
    if (target && target.classList && target.classList.contains("memory")) {
      target.setAttribute("tabindex", "-1");
      target.focus();
    } else if (status) {
      status.setAttribute("tabindex", "-1");
    }
  });
})();
