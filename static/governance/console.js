// Governance console: load htmx once (unless the base page already did) and let htmx
// swap 4xx fragments (validation and conflict messages) instead of dropping them.
(function () {
  "use strict";
  var me = document.currentScript;

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
