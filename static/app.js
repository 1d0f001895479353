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
})();
(function () {
  "use strict";
  // The round clock (staff pages only): counts down to data-ends-at (ms, UTC).
  document.querySelectorAll("[data-ends-at]").forEach(function (el) {
    var end = Number(el.getAttribute("data-ends-at"));
    var out = el.querySelector(".clock-value");
    function tick() {
      var left = Math.round((end - Date.now()) / 1000);
      if (left <= 0) {
        el.classList.add("over");
        out.textContent = el.getAttribute("data-label-over") || "0:00";
        return;
      }
      var m = Math.floor(left / 60), s = left % 60;
      out.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      setTimeout(tick, 1000);
    }
    tick();
  });

  // Live totals on the score sheet. The numbers (bonuses, closing,
  // pozzetto, VP scale) come from the server; the server stays the judge.
  var form = document.getElementById("sheet-form");
  if (!form) { return; }
  var rules;
  try { rules = JSON.parse(form.getAttribute("data-profile")); } catch (e) { return; }
  function num(input) { var v = parseInt(input && input.value, 10); return isNaN(v) ? 0 : v; }
  function lineScore(box, end, closedBy, otherTook) {
    var total = 0;
    box.querySelectorAll("[data-count]").forEach(function (i) {
      total += num(i) * (rules.bonus[i.getAttribute("data-count")] || 0);
    });
    total += num(box.querySelector("[data-role=melded]")) - num(box.querySelector("[data-role=in-hand]"));
    var line = box.getAttribute("data-line");
    if (end === "closure" && closedBy === line) { total += rules.closing; }
    var took = box.querySelector("[data-role=pozzetto]").checked;
    if (!took && !(end === "time_out" && !otherTook)) { total -= rules.pozzetto; }
    return total;
  }
  function vp(diff) {
    var a = Math.abs(diff), band = rules.scale.length;
    for (var i = 0; i < rules.scale.length; i++) { if (a <= rules.scale[i]) { band = i; break; } }
    var hi = 10 + band, lo = 20 - hi;
    return diff >= 0 ? [hi, lo] : [lo, hi];
  }
  function update() {
    var totals = { ns: 0, ew: 0 };
    form.querySelectorAll("fieldset.hand").forEach(function (hand) {
      var end = hand.querySelector("[data-role=end]").value;
      var boxes = hand.querySelectorAll(".line-box");
      if (!end) { boxes.forEach(function (b) { b.querySelector(".hand-total").textContent = ""; }); return; }
      var closed = hand.querySelector("input[type=radio]:checked");
      var closedBy = closed ? closed.value : "";
      var took = {};
      boxes.forEach(function (b) { took[b.getAttribute("data-line")] = b.querySelector("[data-role=pozzetto]").checked; });
      boxes.forEach(function (b) {
        var line = b.getAttribute("data-line");
        var s = lineScore(b, end, closedBy, took[line === "ns" ? "ew" : "ns"]);
        totals[line] += s;
        b.querySelector(".hand-total").textContent = "= " + s;
      });
    });
    document.getElementById("total-ns").textContent = totals.ns;
    document.getElementById("total-ew").textContent = totals.ew;
    var v = vp(totals.ns - totals.ew);
    document.getElementById("vp").textContent = v[0] + "–" + v[1];
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
(function () {
  "use strict";
  // Typical adjusted scores: fill the adjusted-score form (the referee checks, then saves).
  document.querySelectorAll("button[data-adjust]").forEach(function (b) {
    b.addEventListener("click", function () {
      var v = JSON.parse(b.getAttribute("data-adjust"));
      ["ns_vp", "ew_vp"].forEach(function (k) {
        var input = document.getElementById("adj-" + k);
        if (input) { input.value = v[k]; }
      });
      var reason = document.getElementById("adj-reason");
      if (reason) { reason.value = b.getAttribute("data-reason"); }
    });
  });
})();
