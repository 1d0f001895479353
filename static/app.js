// burraco-td: small progressive enhancements; every page works without it.
(function () {
  "use strict";
  // Confirm buttons that ask for it (data-confirm="…").
  document.addEventListener("submit", function (ev) {
    var btn = ev.submitter;
    var msg = (btn && btn.getAttribute("data-confirm")) || ev.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) { ev.preventDefault(); }
  });
})();
