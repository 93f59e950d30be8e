// Governance console: load htmx once (unless the base page already did) and let htmx
// swap 4xx fragments (validation and conflict messages) instead of dropping them.
(function () {
  "use strict";
  var me = document.currentScript;

  // A "Copy" button next to a freshly issued key (only where the clipboard works; the key
  // itself is selectable with one click either way).
  function addCopyButtons(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("[data-copy-for]:empty").forEach(function (slot) {
      var source = document.getElementById(slot.getAttribute("data-copy-for"));
      if (!source) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy";
      button.textContent = slot.getAttribute("data-copy-label");
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.textContent.trim()).then(function () {
          button.textContent = slot.getAttribute("data-copied-label");
        });
      });
      slot.appendChild(button);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { addCopyButtons(document); });
  document.addEventListener("htmx:afterSettle", function (e) { addCopyButtons(e.target); });

  function configure() {
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true, error: false },
      { code: "...", swap: false, error: true },
    ];
  }

  if (window.htmx) {
    configure();
    return;
  }
  var src = me && me.getAttribute("data-htmx-src");
  if (!src) return;
  var script = document.createElement("script");
  script.src = src;
  script.onload = configure;
  document.head.appendChild(script);
})();
