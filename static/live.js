// burraco-td: public pages that follow the tournament. Every 15 s the page
// asks /t/{id}/rev (a few bytes, 304 while nothing changed); when the
// revision moves, it fetches the page again and swaps the parts marked
// data-live in place: no reload, no flash. Without JavaScript the pages
// work the same, with a manual reload. The hall screen (data-screen) shows
// one page of its tables at a time and turns them.
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser) { return; }
  var EVERY = 15000;
  var busy = false;

  function root() { return document.querySelector("[data-rev-url]"); }

  function typing() {
    var a = document.activeElement;
    return a && a.closest && a.closest("[data-live]") &&
      (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA");
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    if (!doc.querySelector("[data-rev-url]")) { return; }
    document.querySelectorAll("[data-live][id]").forEach(function (el) {
      var fresh = doc.getElementById(el.id);
      if (fresh) { el.replaceWith(document.importNode(fresh, true)); }
    });
    if (doc.title) { document.title = doc.title; }
    document.dispatchEvent(new Event("btd:updated"));
  }

  function check() {
    var r = root();
    if (!r || busy || document.hidden || typing()) { return; }
    busy = true;
    var seen = r.getAttribute("data-rev");
    fetch(r.getAttribute("data-rev-url"), { headers: { "Accept": "application/json" } })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (data) {
        if (!data || String(data.revision) === seen) { return null; }
        return fetch(window.location.href, { headers: { "Accept": "text/html" } })
          .then(function (res) { return res.ok ? res.text() : null; })
          .then(function (html) { if (html) { swap(html); } });
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }

  if (root()) {
    setInterval(check, EVERY);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { check(); }
    });
  }
})();

(function () {
  "use strict";
  // The hall screen: every panel's table cut into pages that fit the
  // window, shown one at a time (standings pages, then the seating).
  if (!document.querySelector("[data-screen]")) { return; }
  var TURN = 12000;
  document.documentElement.classList.add("js-screen");
  var pages = [];
  var at = 0;

  function layout() {
    pages = [];
    var box = document.querySelector("[data-screen]");
    if (!box) { return; }
    box.querySelectorAll(".panel").forEach(function (panel) {
      panel.classList.add("on");
      var rows = Array.prototype.slice.call(panel.querySelectorAll("tbody tr"));
      rows.forEach(function (tr) { tr.hidden = false; });
      var per = rows.length || 1;
      if (rows.length) {
        var top = rows[0].getBoundingClientRect().top;
        var h = rows[0].getBoundingClientRect().height || 1;
        per = Math.max(1, Math.floor((window.innerHeight - top - 16) / h));
      }
      var count = Math.max(1, Math.ceil(rows.length / per));
      for (var i = 0; i < count; i++) {
        pages.push({ panel: panel, rows: rows, from: i * per, to: (i + 1) * per, n: i + 1, of: count });
      }
      panel.classList.remove("on");
    });
    if (at >= pages.length) { at = 0; }
  }

  function show() {
    var p = pages[at];
    if (!p) { return; }
    document.querySelectorAll("[data-screen] .panel").forEach(function (el) {
      el.classList.toggle("on", el === p.panel);
    });
    p.rows.forEach(function (tr, i) { tr.hidden = i < p.from || i >= p.to; });
    var pager = p.panel.querySelector(".pager");
    if (pager) { pager.textContent = p.of > 1 ? p.n + "/" + p.of : ""; }
  }

  function turn() {
    if (pages.length) { at = (at + 1) % pages.length; }
    show();
  }

  layout();
  show();
  setInterval(turn, TURN);
  document.addEventListener("btd:updated", function () { layout(); show(); });
  window.addEventListener("resize", function () { layout(); show(); });

  var full = document.querySelector("[data-fullscreen]");
  if (full && document.documentElement.requestFullscreen) {
    full.hidden = false;
    full.addEventListener("click", function () {
      document.documentElement.requestFullscreen().catch(function () {});
    });
  }
})();
