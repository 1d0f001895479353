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
(function () {
  "use strict";
  // Print buttons.
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t && t.hasAttribute && t.hasAttribute("data-print")) { window.print(); }
  });
  // A file input that fills a textarea (CSV import: no upload needed).
  document.querySelectorAll("input[type=file][data-fills]").forEach(function (input) {
    input.addEventListener("change", function () {
      var target = document.getElementById(input.getAttribute("data-fills"));
      var file = input.files && input.files[0];
      if (!target || !file) { return; }
      var reader = new FileReader();
      reader.onload = function () { target.value = String(reader.result || ""); };
      reader.readAsText(file, "UTF-8");
    });
  });
})();
