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
    if (detail && m.result) {
      var r = document.getElementById("result");
      var fresh = fromHTML(m.result);
      // A verdict being confirmed on this very result stays open.
      if (r && fresh.getAttribute("data-hash") === r.getAttribute("data-hash") &&
          fresh.getAttribute("data-verdict") === r.getAttribute("data-verdict") &&
          r.querySelector("details[open]")) {
        fresh = null;
      }
      if (r && fresh) {
        r.replaceWith(fresh);
        fillCSRF(fresh);
      }
    }
    counts();
  }

  // Forms drawn from the event stream carry no token: the page's is put
  // in.
  function fillCSRF(root) {
    var tok = body.getAttribute("data-csrf");
    if (!tok) return;
    root.querySelectorAll('input[name="csrf"]').forEach(function (i) {
      if (!i.value) i.value = tok;
    });
  }
  fillCSRF(document);

  function flash(msg, ok) {
    var f = document.getElementById("flash");
    if (!f) {
      f = document.createElement("p");
      f.id = "flash";
      var top = document.querySelector("header.top");
      top.parentNode.insertBefore(f, top.nextSibling);
    }
    f.className = "flash " + (ok ? "ok" : "err");
    f.textContent = msg;
  }

  if (!window.EventSource) return;
  var es = new EventSource(url);
  // A judge's action is on its way: reloading now would cancel it.
  var submitting = false;
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.classList.contains("confirm") && window.fetch) {
      // A verdict is sent from the page, which stays live: the table's
      // certified result arrives on the stream.
      ev.preventDefault();
      fillCSRF(form);
      var btn = form.querySelector("button");
      if (btn) btn.disabled = true;
      fetch(form.action, {
        method: "POST", credentials: "same-origin",
        headers: { "X-Parchis-Fetch": "1" },
        body: new URLSearchParams(new FormData(form)),
      }).then(function (r) { return r.json(); }).then(function (rep) {
        flash(rep.message, rep.ok);
        if (btn) btn.disabled = false;
        var box = form.closest("details");
        if (box && rep.ok) box.open = false;
      }).catch(function () {
        if (btn) btn.disabled = false;
        form.submit();
      });
      return;
    }
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
