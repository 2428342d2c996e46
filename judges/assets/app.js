// The judges' dashboard: keeps the page live from the server's event
// stream (/events). Each "table" event carries a table's card rendered by
// the server, which replaces the one on the page; a new event is also
// added to the full history on the table's own page.
(function () {
  "use strict";
  var body = document.body;
  var detail = document.querySelector("main.detail");
  var only = detail ? detail.getAttribute("data-table") : "";
  var url = "/events" + (only ? "?table=" + encodeURIComponent(only) : "");
  var live = document.getElementById("live");
  var dropped = false;

  function counts() {
    var n = document.getElementById("n-tables");
    var off = document.getElementById("n-offline");
    if (!detail && n) n.textContent = document.querySelectorAll("#tables .card").length;
    if (!detail && off) off.textContent = document.querySelectorAll("#tables .card.st-offline").length;
  }

  function fromHTML(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }

  var refreshing = false;
  function refreshResult() {
    if (refreshing || !window.fetch) return;
    refreshing = true;
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("result");
        var r = document.getElementById("result");
        if (fresh && r) r.replaceWith(document.importNode(fresh, true));
        ["certify-form", "reject-form"].forEach(function (id) {
          var f = document.getElementById(id);
          if (f && !doc.getElementById(id)) f.remove();
        });
      })
      .catch(function () {})
      .then(function () { refreshing = false; });
  }

  function onTable(ev) {
    var m = JSON.parse(ev.data);
    var old = document.getElementById("card-" + m.id);
    var card = fromHTML(m.card);
    if (old) {
      if (Number(old.getAttribute("data-seq")) > m.seq && !m.pending) return;
      old.replaceWith(card);
    } else if (!detail) {
      var grid = document.getElementById("tables");
      var none = document.getElementById("no-tables");
      if (none) none.remove();
      var cards = grid.querySelectorAll(".card");
      var placed = false;
      for (var i = 0; i < cards.length && !placed; i++) {
        if (cards[i].getAttribute("data-id").localeCompare(m.id, undefined, { numeric: true }) > 0) {
          grid.insertBefore(card, cards[i]);
          placed = true;
        }
      }
      if (!placed) grid.appendChild(card);
    }
    var first = card.querySelector(".feed li");
    if (first && m.entry) first.classList.add("fresh");
    if (detail && m.entry) {
      var hist = document.getElementById("history");
      if (hist) {
        var none2 = hist.querySelector(".none");
        if (none2) none2.remove();
        var li = fromHTML(m.entry);
        li.classList.add("fresh");
        hist.insertBefore(li, hist.firstChild);
      }
    }
    if (m.pending) {
      var p = document.getElementById("pending");
      if (p) p.replaceWith(fromHTML(m.pending));
    }
    if (detail && !m.result) {
      // A change of result that came while this page loaded, before its
      // stream was open, is not sent again: the card, drawn afresh at
      // every change, then says another verdict than the result panel.
      // The panel is fetched again (the page is not reloaded: a judge's
      // message would go).
      var cv = card.querySelector(".verdict");
      var rv = document.querySelector("#result .verdict");
      if ((cv ? cv.className : "") !== (rv ? rv.className : "")) refreshResult();
    }
    if (detail && m.result) {
      var r = document.getElementById("result");
      if (r) r.replaceWith(fromHTML(m.result));
      // A verdict is given: its forms are done with.
      if (m.result.indexOf("v-pending") < 0) {
        ["certify-form", "reject-form"].forEach(function (id) {
          var f = document.getElementById(id);
          if (f) f.remove();
        });
      }
    }
    counts();
  }

  if (!window.EventSource) return;
  var es = new EventSource(url);
  // A judge's action is on its way: reloading now would cancel it.
  var submitting = false;
  document.addEventListener("submit", function () {
    submitting = true;
    es.close();
  });
  es.addEventListener("hello", function () {
    if (live) live.classList.remove("down");
    body.setAttribute("data-stream", "open");
    // After a drop the page may have missed changes: load it afresh.
    if (dropped && !submitting) location.reload();
  });
  es.addEventListener("table", onTable);
  es.onerror = function () {
    dropped = true;
    body.setAttribute("data-stream", "closed");
    if (live) live.classList.add("down");
  };
  body.setAttribute("data-js", "on");
})();
