// burraco-td: suggestions from the player directory on the pair form.
// Without JavaScript the search form above the pair form does the same.
(function () {
  "use strict";
  var form = document.querySelector("form[data-directory]");
  if (!form || !window.fetch) { return; }
  var url = form.getAttribute("data-directory");
  var found = {};
  var timer = null;

  function field(seat, part) { return form.querySelector("[name=" + seat + "_" + part + "]"); }

  function label(p) {
    return [p.surname + " " + p.name, p.card, p.club].filter(function (s) { return s && s.trim(); }).join(" · ");
  }

  function fill(seat, p) {
    field(seat, "surname").value = p.surname;
    field(seat, "name").value = p.name;
    field(seat, "card").value = p.card;
    field(seat, "club").value = p.club;
  }

  form.querySelectorAll("input[data-seat]").forEach(function (input) {
    var list = document.createElement("datalist");
    list.id = "dir-" + input.id;
    input.parentNode.appendChild(list);
    input.setAttribute("list", list.id);
    input.setAttribute("autocomplete", "off");
    var seat = input.getAttribute("data-seat");

    input.addEventListener("input", function () {
      var picked = found[input.value];
      if (picked) { fill(seat, picked); return; }
      var q = input.value.trim();
      window.clearTimeout(timer);
      if (q.length < 2) { return; }
      timer = window.setTimeout(function () {
        fetch(url + "?q=" + encodeURIComponent(q), { credentials: "same-origin", headers: { "Accept": "application/json" } })
          .then(function (r) { return r.ok ? r.json() : { players: [] }; })
          .then(function (data) {
            while (list.firstChild) { list.removeChild(list.firstChild); }
            (data.players || []).forEach(function (p) {
              var text = label(p);
              found[text] = p;
              var opt = document.createElement("option");
              opt.value = text;
              list.appendChild(opt);
            });
          })
          .catch(function () { /* the plain search still works */ });
      }, 200);
    });
  });
})();
