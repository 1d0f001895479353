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
  // The round clock (staff pages only): counts down to data-ends-at (ms, UTC)
  // and raises the 10- and 5-minute warnings; the server renders the same
  // state on every reload, so nothing depends on this script.
  document.querySelectorAll("[data-ends-at]").forEach(function (el) {
    var end = Number(el.getAttribute("data-ends-at"));
    var out = el.querySelector(".clock-value");
    var warn = el.querySelector(".clock-warning");
    function warning(level) {
      if (!warn) { return; }
      el.classList.toggle("warn-ten", level === "ten");
      el.classList.toggle("warn-five", level === "five");
      if (level) {
        warn.textContent = el.getAttribute("data-label-" + level) || "";
        warn.hidden = false;
      }
    }
    function tick() {
      var left = Math.round((end - Date.now()) / 1000);
      if (left <= 0) {
        el.classList.add("over");
        if (out) { out.textContent = el.getAttribute("data-label-over") || "0:00"; }
        warning("five");
        return;
      }
      var m = Math.floor(left / 60), s = left % 60;
      if (out) { out.textContent = (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s; }
      warning(left <= 300 ? "five" : (left <= 600 ? "ten" : null));
      setTimeout(tick, 1000);
    }
    tick();
  });

})();
(function () {
  "use strict";
  // The desk's score sheet: keyboard entry in card order and live totals.
  // The totals come from the server (the rules engine, /preview): this
  // script never scores a hand itself.
  var form = document.getElementById("sheet-form");
  if (!form) { return; }
  function focusables(root) {
    return Array.prototype.filter.call(
      root.querySelectorAll("input:not([type=hidden]), select, textarea"),
      function (el) { return !el.disabled && el.offsetParent !== null; });
  }
  var groups = Array.prototype.slice.call(form.querySelectorAll(".kgroup"));
  function submitNext() {
    var btn = document.getElementById("save-next");
    if (form.requestSubmit) { form.requestSubmit(btn); } else { btn.click(); }
  }
  form.addEventListener("keydown", function (ev) {
    var el = ev.target;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    // End of hand: its digit (1-5) chooses it; the focus stays, so Tab
    // goes to the next box as everywhere else (issue 21: it used to jump
    // on by itself and the Tab after it skipped a box).
    if (el.getAttribute && el.getAttribute("data-role") === "end" && /^[1-9]$/.test(ev.key)) {
      var opt = el.querySelector("option[data-key='" + ev.key + "']");
      if (opt) {
        ev.preventDefault();
        el.value = opt.value;
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
      return;
    }
    if (ev.key !== "Enter" || el.tagName === "TEXTAREA" || el.tagName === "BUTTON") { return; }
    // Enter: the first box of the next row group; on the last group, save.
    ev.preventDefault();
    var g = el.closest(".kgroup");
    var i = groups.indexOf(g);
    for (var k = i + 1; k < groups.length; k++) {
      var f = focusables(groups[k]);
      if (f.length) { f[0].focus(); if (f[0].select) { f[0].select(); } return; }
    }
    submitNext();
  });
  var focus = document.getElementById(form.getAttribute("data-focus"));
  if (focus && document.activeElement === document.body) { focus.focus(); }

  // Correcting a pair's entry: each box the desk changes shows the
  // players' value beside it (data-was), as the server does on a reload.
  var wasLabel = form.getAttribute("data-was-label") || "";
  function markChange(el) {
    if (!el.hasAttribute || !el.hasAttribute("data-was")) { return; }
    var was = el.getAttribute("data-was");
    var now = el.type === "checkbox" ? (el.checked ? "on" : "") : el.value.trim();
    var norm = function (v) { return (v === "0" || v === "off") ? "" : v; };
    var label = el.closest("label");
    var changed = norm(now) !== norm(was);
    label.classList.toggle("changed", changed);
    var note = label.querySelector("small.was");
    if (changed && !note) {
      note = document.createElement("small");
      note.className = "was";
      label.appendChild(note);
    }
    if (note) {
      note.hidden = !changed;
      note.textContent = wasLabel + ": " + (el.type === "checkbox" ? (was ? "☑" : "☐") : (was || "—"));
    }
  }
  form.addEventListener("input", function (ev) { markChange(ev.target); });
  form.addEventListener("change", function (ev) { markChange(ev.target); });

  var url = form.getAttribute("data-preview");
  var timer = null, seq = 0;
  // Thousands grouped as the page's language writes them (7.265, 7,265).
  function grouped(n) {
    var sep = document.documentElement.lang === "en" ? "," : ".";
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  }
  function show(data) {
    form.querySelectorAll("fieldset.hand").forEach(function (hand, i) {
      var h = data.ok && data.hands[i];
      hand.querySelectorAll(".line-box").forEach(function (box) {
        var out = box.querySelector(".hand-total");
        out.textContent = h ? "= " + grouped(h[box.getAttribute("data-line")]) : "";
      });
    });
    document.getElementById("total-ns").textContent = data.ok ? grouped(data.totals.ns) : "—";
    document.getElementById("total-ew").textContent = data.ok ? grouped(data.totals.ew) : "—";
    document.getElementById("vp").textContent = data.ok ? data.vp.ns + "–" + data.vp.ew : "—";
  }
  function refresh() {
    var params = new URLSearchParams(new FormData(form));
    params.delete("csrf_token");
    var mine = ++seq;
    fetch(url + "?" + params.toString(), { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && mine === seq) { show(data); form.setAttribute("data-preview-seq", String(mine)); } })
      .catch(function () {});
  }
  function schedule() { clearTimeout(timer); timer = setTimeout(refresh, 200); }
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
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

(function () {
  // The desk's control room: every 5 s, ask whether any table's state
  // changed (a pair entered, confirmed or disputed); if so, reload the
  // page, unless the referee is typing in a field of it.
  var board = document.querySelector("[data-desk-states]");
  if (!board || !window.fetch) return;
  var url = board.getAttribute("data-desk-states");
  var seen = board.getAttribute("data-fingerprint");
  function busy() {
    var a = document.activeElement;
    return a && (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA") && a.value;
  }
  setInterval(function () {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.fingerprint !== seen && !busy()) {
          window.location.reload();
        }
      })
      .catch(function () {});
  }, 5000);
})();
