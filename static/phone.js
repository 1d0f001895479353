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
  function autoEnds() {
    return Array.prototype.map.call(form.querySelectorAll("fieldset.hand[data-auto-end]"), function (h) { return h.id; });
  }
  function saveDraft() { writeJSON(draftKey, { at: Date.now(), values: values(), step: current, auto: autoEnds() }); }
  function restore(d) {
    form.querySelectorAll("input[name]").forEach(function (el) {
      if (secret[el.name] || el.type === "hidden") { return; }
      var v = Object.prototype.hasOwnProperty.call(d.values, el.name) ? d.values[el.name] : null;
      if (el.type === "radio") { el.checked = v !== null && el.value === v; }
      else if (el.type === "checkbox") { el.checked = v !== null; }
      else { el.value = v === null ? "" : v; }
    });
    (d.auto || []).forEach(function (id) {
      var h = document.getElementById(id);
      var c = h && h.querySelector("input[type=radio]:checked");
      if (c && c.value) { h.setAttribute("data-auto-end", c.value); }
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
  function typed(step) {
    return Array.prototype.some.call(step.querySelectorAll("input[type=text]"), function (b) { return b.value.trim() !== ""; });
  }
  function next() {
    // A hand not played (no end, nothing typed) ends the sheet: on to the
    // totals. In totals mode the end may still be on its way (proposed).
    var end = steps[current].querySelector("input[type=radio]:checked");
    show(end && end.value === "" && !typed(steps[current]) ? steps.length - 1 : current + 1);
  }
  // Where the cursor goes on arriving at a hand: in totals mode straight
  // to its first box (the end is proposed from the totals), else the end.
  var totalsMode = form.classList.contains("sheet-totals");
  function arriveHand() {
    var s = steps[current];
    var f = totalsMode ? s.querySelector(".line-box input[type=text]") : null;
    f = f || s.querySelector("input[type=radio]:checked") || s.querySelector("input[type=radio]");
    if (f) { f.focus(); }
  }
  form.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("[data-step]");
    if (!b) { return; }
    ev.preventDefault();
    if (b.getAttribute("data-step") === "next") { next(); } else { show(current - 1); }
    saveDraft();
    window.scrollTo(0, form.getBoundingClientRect().top + window.pageYOffset - 8);
    arrive();
    if (totalsMode && current < steps.length - 1) { arriveHand(); }
  });
  // The banner of a refused send: each step named is a link to it.
  document.querySelectorAll("a[data-goto]").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      var i = steps.findIndex(function (s) { return s.id === a.getAttribute("data-goto"); });
      if (i < 0) { return; }
      ev.preventDefault();
      show(i);
      steps[i].scrollIntoView();
    });
  });
  // A typed total changes what the end of its hand may be: a proposed end
  // is proposed again.
  form.addEventListener("input", function (ev) {
    var hand = ev.target.closest && ev.target.closest("fieldset.hand[data-auto-end]");
    if (!hand || ev.target.type !== "text") { return; }
    var none = hand.querySelector("input[type=radio][value='']");
    if (none) { none.checked = true; }
    hand.removeAttribute("data-auto-end");
  });
  // Choosing the end of a hand moves to its first box (no extra tap).
  form.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el.type === "radio" && /_end$/.test(el.name)) {
      var hand = el.closest(".step");
      // The pair's own choice: no longer a proposal.
      if (hand) { hand.removeAttribute("data-auto-end"); }
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
    if (current === steps.length - 1) { arrive(); } else { arriveHand(); }
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
  if (window.location.hash) {
    steps.forEach(function (s, k) { if ("#" + s.id === window.location.hash) { start = k; } });
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
  // A hand shows its total only when it breaks no rule; else its message
  // where the total would be. The round's totals and VP only for a sheet
  // the server would take (the same verdict as the send).
  function paint(data) {
    form.querySelectorAll("fieldset.hand").forEach(function (hand, i) {
      var h = data.hands && data.hands[i];
      var errs = (h && h.errors) || { ns: [], ew: [], end: [] };
      hand.querySelectorAll(".line-box").forEach(function (box) {
        var line = box.getAttribute("data-line");
        var out = box.querySelector(".hand-total");
        if (!out) { return; }
        var mine = errs[line] || [];
        var bad = mine.length > 0;
        out.classList.toggle("bad", bad);
        out.textContent = bad ? mine.join(" ") : (h && h[line] !== null && h[line] !== undefined && !errs.end.length ? "= " + grouped(h[line]) : "");
      });
      // The live check supersedes what the server placed on the form it
      // refused (the form has changed since, or says the same).
      hand.querySelectorAll(".field-error:not(.hand-check):not(output)").forEach(function (e) { e.hidden = true; });
      hand.querySelectorAll("label.box.has-error").forEach(function (e) { e.classList.remove("has-error"); });
      hand.querySelectorAll(".line-box").forEach(function (box) {
        box.classList.toggle("has-error", (errs[box.getAttribute("data-line")] || []).length > 0);
      });
      var ends = hand.querySelector(".end-choices");
      if (ends) { ends.classList.toggle("has-error", errs.end.length > 0); }
      var endOut = hand.querySelector("[data-check-of=end]");
      if (endOut) { endOut.textContent = errs.end.join(" "); endOut.hidden = !errs.end.length; }
      suggest(hand, h && h.suggest);
    });
    document.getElementById("total-ns").textContent = data.ok ? grouped(data.totals.ns) : "—";
    document.getElementById("total-ew").textContent = data.ok ? grouped(data.totals.ew) : "—";
    document.getElementById("vp").textContent = data.ok ? data.vp.ns + "–" + data.vp.ew : "—";
    var sent = form.querySelector(".sheet-errors");
    if (sent) { sent.hidden = true; }
    var list = form.querySelector(".live-check");
    if (list) {
      list.textContent = "";
      (data.errors || []).forEach(function (e) {
        var li = document.createElement("li");
        li.textContent = e;
        list.appendChild(li);
      });
      list.hidden = !(data.errors && data.errors.length);
    }
  }
  // Totals mode: an end of hand the pair has not chosen is proposed from
  // the two totals (by the server); the pair sees it and may change it.
  function suggest(hand, choice) {
    var note = hand.querySelector(".end-suggested");
    var picked = hand.querySelector("input[type=radio]:checked");
    var auto = hand.getAttribute("data-auto-end");
    if (!choice || (picked && picked.value !== "" && !auto)) {
      if (note) { note.hidden = !auto; }
      return;
    }
    var input = hand.querySelector("input[type=radio][value=" + choice + "]");
    if (!input || input.checked) { if (note) { note.hidden = false; } return; }
    input.checked = true;
    hand.setAttribute("data-auto-end", choice);
    if (note) { note.hidden = false; }
    changed();
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
