// burraco-td: the player's page at the table (/s/{code}). Everything here
// is an enhancement: without it the page is one form with every hand, sent
// by the browser, and the server answers as usual.
//  - one hand at a time (a step per hand, back and forth), with the hand's
//    total from the rules engine (/s/{code}/preview: this script never
//    scores a hand itself);
//  - the draft kept on the phone (localStorage): a reload, a discarded tab
//    or a closed browser brings back what was typed (never the pair code);
//  - a form sent while the network is down stays queued on the phone and is
//    sent when the network is back; the idempotency key it carries makes
//    the server answer a repeat with its first answer (nothing twice). The
//    queue on the phone never holds a pair code: the whole form waits in
//    this page's memory only, and after a reload the pair is asked to type
//    its code again (what it typed comes back from the draft).
(function () {
  "use strict";
  var store = null;
  try { store = window.localStorage; store.setItem("btd-test", "1"); store.removeItem("btd-test"); } catch (e) { store = null; }
  var QUEUE = "btd-queue";
  // Never written to the phone's storage.
  var SECRET = ["pair_code", "answer_code"];
  // The whole bodies of the queued forms, code included, for this page's
  // life only (key: the idempotency key).
  var waiting = {};

  function readJSON(key) {
    if (!store) { return null; }
    try { return JSON.parse(store.getItem(key) || "null"); } catch (e) { return null; }
  }
  function writeJSON(key, value) {
    if (!store) { return; }
    try { store.setItem(key, JSON.stringify(value)); } catch (e) { /* full: keep going */ }
  }

  // ---- the queue of forms waiting for the network ----

  var state = document.querySelector(".queue-state");
  function say(key) {
    if (!state) { return; }
    var text = document.body.getAttribute("data-msg-" + key) || "";
    state.textContent = text;
    state.hidden = !text;
    state.setAttribute("data-state", key);
  }

  // Shows the server's answer as the page (an error page keeps what was
  // typed; a success is the redirect's page).
  function showAnswer(res) {
    return res.text().then(function (html) {
      if (res.redirected && res.url) { window.location.replace(res.url); return; }
      document.open();
      document.write(html);
      document.close();
    });
  }

  function send(item, body) {
    return fetch(item.url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: body,
      credentials: "same-origin",
      redirect: "follow"
    });
  }

  var flushing = false;
  function flush() {
    var q = readJSON(QUEUE) || [];
    if (!q.length || flushing) { return; }
    flushing = true;
    var item = q[0];
    var body = waiting[item.key];
    if (!body) {
      // Queued before a reload: its code was not kept. The pair types it
      // again (the draft brought back what it typed).
      flushing = false;
      writeJSON(QUEUE, q.slice(1));
      if (item.page === window.location.pathname) { say("retype"); }
      return;
    }
    say("sending");
    send(item, body).then(function (res) {
      flushing = false;
      delete waiting[item.key];
      var rest = (readJSON(QUEUE) || []).filter(function (x) { return x.key !== item.key; });
      writeJSON(QUEUE, rest);
      if (item.draft && res.ok) { store && store.removeItem(item.draft); }
      if (item.page === window.location.pathname) { return showAnswer(res); }
      say("sent");
    }).catch(function () {
      flushing = false;
      say("queued");
    });
  }
  window.addEventListener("online", flush);
  setInterval(flush, 5000);
  flush();

  function queueForm(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var body = new URLSearchParams(data).toString();
    var kept = new URLSearchParams(data);
    SECRET.forEach(function (k) { kept.delete(k); });
    var item = {
      url: form.getAttribute("action"),
      // What the phone's storage keeps: the form without its code.
      body: kept.toString(),
      full: body,
      key: data.get("idempotency_key") || String(Date.now()),
      draft: form.getAttribute("data-draft") ? "btd-draft:" + form.getAttribute("data-draft") : null,
      page: window.location.pathname
    };
    return item;
  }

  document.querySelectorAll("form[data-queue]").forEach(function (form) {
    form.addEventListener("submit", function (ev) {
      if (!window.fetch) { return; }
      ev.preventDefault();
      var item = queueForm(form, ev.submitter);
      var buttons = form.querySelectorAll("button[type=submit]");
      buttons.forEach(function (b) { b.disabled = true; });
      say("sending");
      var full = item.full;
      delete item.full;
      send(item, full).then(function (res) {
        if (item.draft && res.ok) { store && store.removeItem(item.draft); }
        return showAnswer(res);
      }).catch(function () {
        // No network: kept (without its code) on the phone, the whole form
        // in this page's memory, sent when the network is back.
        waiting[item.key] = full;
        var q = (readJSON(QUEUE) || []).filter(function (x) { return x.key !== item.key; });
        q.push(item);
        writeJSON(QUEUE, q);
        buttons.forEach(function (b) { b.disabled = false; });
        say("queued");
      });
    });
  });

  // ---- the sheet form ----

  var form = document.getElementById("phone-sheet");
  if (!form) { return; }
  var draftKey = "btd-draft:" + form.getAttribute("data-draft");
  var secret = { pair_code: true, answer_code: true };

  function values() {
    var out = {};
    new FormData(form).forEach(function (v, k) {
      if (!secret[k]) { out[k] = v; }
    });
    return out;
  }
  function saveDraft() { writeJSON(draftKey, { at: Date.now(), values: values(), step: current }); }
  function restore(d) {
    form.querySelectorAll("input[name]").forEach(function (el) {
      if (secret[el.name] || el.type === "hidden") { return; }
      var v = Object.prototype.hasOwnProperty.call(d.values, el.name) ? d.values[el.name] : null;
      if (el.type === "radio") { el.checked = v !== null && el.value === v; }
      else if (el.type === "checkbox") { el.checked = v !== null; }
      else { el.value = v === null ? "" : v; }
    });
    if (d.values.idempotency_key) {
      var k = form.querySelector("input[name=idempotency_key]");
      if (k) { k.value = d.values.idempotency_key; }
    }
  }

  // One hand at a time.
  var steps = Array.prototype.slice.call(form.querySelectorAll(".step"));
  var current = 0;
  form.classList.add("stepped");
  form.querySelectorAll(".step-nav").forEach(function (p) { p.hidden = false; });
  function show(i) {
    current = Math.max(0, Math.min(steps.length - 1, i));
    steps.forEach(function (s, k) { s.classList.toggle("current", k === current); });
    var bar = form.querySelector(".step-bar");
    if (bar) { bar.hidden = false; bar.querySelector(".step-label").textContent = steps[current].querySelector("legend").textContent; }
  }
  // The last step is where the pair code goes: arriving there by a tap or
  // the keyboard's Enter puts the cursor in it (the keyboard stays open).
  function arrive() {
    var code = document.getElementById("pair_code");
    if (current === steps.length - 1 && code && !code.value) { code.focus(); }
  }
  function next() {
    // A hand not played ends the sheet: on to the totals.
    var end = steps[current].querySelector("input[type=radio]:checked");
    show(end && end.value === "" ? steps.length - 1 : current + 1);
  }
  form.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-step]");
    if (!b) { return; }
    ev.preventDefault();
    if (b.getAttribute("data-step") === "next") { next(); } else { show(current - 1); }
    saveDraft();
    window.scrollTo(0, form.getBoundingClientRect().top + window.pageYOffset - 8);
    arrive();
  });
  // Choosing the end of a hand moves to its first box (no extra tap).
  form.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el.type === "radio" && /_end$/.test(el.name)) {
      var hand = el.closest(".step");
      var first = hand && hand.querySelector(".line-box input[type=text]");
      if (first && el.value !== "") { first.focus(); }
    }
  });
  // Enter (the keyboard's Next) in a box goes to the next box of the hand
  // in card order, past the rare rows (semi-clean, royal…: a tap reaches
  // them), as the desk's Enter does; after the hand's last box, on to the
  // next step (the totals and the pair code after the last hand).
  form.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || ev.target.tagName !== "INPUT" || ev.target.type !== "text") { return; }
    if (ev.target.name === "pair_code") { return; }
    ev.preventDefault();
    var boxes = Array.prototype.slice.call(steps[current].querySelectorAll("input[type=text]"));
    var i = boxes.indexOf(ev.target);
    for (var k = i + 1; i >= 0 && k < boxes.length; k++) {
      if (!boxes[k].closest(".rare")) { boxes[k].focus(); return; }
    }
    next();
    saveDraft();
    window.scrollTo(0, form.getBoundingClientRect().top + window.pageYOffset - 8);
    if (current === steps.length - 1) { arrive(); }
    else { var f = steps[current].querySelector("input[type=radio]:checked") || steps[current].querySelector("input[type=radio]"); if (f) { f.focus(); } }
  });

  // A sign key for the boxes that may be negative (phone keypads have none).
  form.querySelectorAll("input[data-signed]").forEach(function (input) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sign";
    b.textContent = "±";
    b.setAttribute("aria-label", document.body.getAttribute("data-msg-sign") || "±");
    b.addEventListener("click", function () {
      var v = input.value.trim();
      input.value = v.charAt(0) === "-" ? v.slice(1) : "-" + v;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
    });
    input.insertAdjacentElement("afterend", b);
  });

  // The draft: restored on a fresh page (not on a page that came back from
  // the server with what was posted), kept on every change.
  var fresh = form.getAttribute("data-fresh") === "1";
  var draft = readJSON(draftKey);
  var start = 0;
  if (fresh && draft && draft.values) {
    restore(draft);
    start = draft.step || 0;
  } else {
    // The first step with a problem, or the first.
    steps.some(function (s, k) { if (s.querySelector(".has-error, .field-error")) { start = k; return true; } return false; });
  }
  show(start);

  // The engine's totals, live.
  var url = form.getAttribute("data-preview");
  var timer = null, seq = 0;
  // Thousands grouped as the page's language writes them (7.265, 7,265).
  function grouped(n) {
    var sep = document.documentElement.lang === "en" ? "," : ".";
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  }
  function paint(data) {
    form.querySelectorAll("fieldset.hand").forEach(function (hand, i) {
      var h = data.ok && data.hands[i];
      hand.querySelectorAll(".line-box").forEach(function (box) {
        var out = box.querySelector(".hand-total");
        if (out) { out.textContent = h ? "= " + grouped(h[box.getAttribute("data-line")]) : ""; }
      });
    });
    document.getElementById("total-ns").textContent = data.ok ? grouped(data.totals.ns) : "—";
    document.getElementById("total-ew").textContent = data.ok ? grouped(data.totals.ew) : "—";
    document.getElementById("vp").textContent = data.ok ? data.vp.ns + "–" + data.vp.ew : "—";
  }
  function refresh() {
    var params = new URLSearchParams(new FormData(form));
    params.delete("pair_code");
    params.delete("idempotency_key");
    var mine = ++seq;
    fetch(url + "?" + params.toString(), { headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && mine === seq) { paint(data); form.setAttribute("data-preview-seq", String(mine)); } })
      .catch(function () {});
  }
  function changed() { saveDraft(); clearTimeout(timer); timer = setTimeout(refresh, 200); }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  refresh();
})();
