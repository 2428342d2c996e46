// The judges' dashboard: keeps the page live from the server's event
// stream (/events). Each "table" event carries a table's card rendered by
// the server, which replaces the one on the page; a new event is also
// added to the full history on the table's own page.
(function () {
  "use strict";
  var body = document.body;
  var detail = document.querySelector("main.detail");
  var archivePage = document.querySelector("main.archive-game");
  var only = detail ? detail.getAttribute("data-table") : "";
  var multi = document.querySelector("main.multi");
  var standingsPage = document.querySelector("main.standings-page");
  var url = "/events" + (only ? "?table=" + encodeURIComponent(only) : multi ? "?view=tiles" : standingsPage ? "?view=standings" : "");
  var live = document.getElementById("live");
  var dropped = false;

  function counts() {
    var n = document.getElementById("n-tables");
    var off = document.getElementById("n-offline");
    if (!detail && n) n.textContent = document.querySelectorAll("#tables .tile").length;
    if (!detail && off) off.textContent = document.querySelectorAll("#tables .tile.st-offline").length;
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
        if (fresh && r) replaceResult(r, document.importNode(fresh, true));
        ["certify-form", "reject-form"].forEach(function (id) {
          var f = document.getElementById(id);
          if (f && !doc.getElementById(id)) f.remove();
        });
      })
      .catch(function () {})
      .then(function () { refreshing = false; });
  }

  // replaceResult puts a fresh result panel in place of r. A verdict being
  // confirmed on a result that is still there (another of the queue
  // changed) stays open, with the reason typed: each box and reason is
  // known by its result's hash, never by its place.
  function replaceResult(r, fresh) {
    var open = [], typed = [];
    r.querySelectorAll("details[open][data-box]").forEach(function (d) {
      open.push([d.getAttribute("data-box"), d.getAttribute("data-for")]);
    });
    r.querySelectorAll('input[name="reason"][data-for]').forEach(function (i) {
      if (i.value) typed.push([i.getAttribute("data-for"), i.value]);
    });
    r.replaceWith(fresh);
    fillCSRF(fresh);
    open.forEach(function (o) {
      var d = fresh.querySelector('details[data-box="' + o[0] + '"][data-for="' + o[1] + '"]');
      if (d) d.open = true;
    });
    typed.forEach(function (t) {
      var i = fresh.querySelector('input[name="reason"][data-for="' + t[0] + '"]');
      if (i) i.value = t[1];
    });
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
        appendToTurns(hist, li);
      }
    }
    if (detail && stepping) {
      // The live board changed under the stepper: keep it, show the step.
      liveBoard = null;
      show(stepAt);
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
      var rv = document.querySelector("#result .current-result .verdict");
      if ((cv ? cv.className : "") !== (rv ? rv.className : "")) refreshResult();
    }
    if (detail && m.result) {
      var r = document.getElementById("result");
      var fresh = fromHTML(m.result);
      // A verdict being confirmed stays open while the results are the
      // same.
      if (r && fresh.getAttribute("data-sig") === r.getAttribute("data-sig") &&
          r.querySelector("details[open]")) {
        fresh = null;
      }
      if (r && fresh) replaceResult(r, fresh);
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

  // The multiboard: tiles drawn from the stream's small JSON deltas.
  var layout = null;
  var HEX = { Y: "#f2c200", B: "#1f6fd6", R: "#d62828", G: "#239b3a" };
  var SVGNS = "http://www.w3.org/2000/svg";

  function svgEl(name, attrs) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  // drawPieces puts the pieces of a position (PPN) on a board, as the
  // server draws them (board.go).
  function drawPieces(svg, ppn, mismatch, lastMove) {
    svg.querySelectorAll(".piece, .mismatch, .lastmove").forEach(function (e) { e.remove(); });
    if (!ppn || !layout) return;
    var R = layout.r;
    var placed = { Y: 0, B: 0, R: 0, G: 0 };
    function piece(site, c, x, y, r) {
      svg.appendChild(svgEl("circle", { "class": "piece", "data-site": site, "data-colour": c, cx: x, cy: y, r: r,
        fill: HEX[c], stroke: "#222", "stroke-width": 1.5 }));
    }
    var placement = ppn.split(" ")[0];
    if (placement !== "-") {
      placement.split(",").forEach(function (entry) {
        var i = entry.indexOf(":");
        var site = entry.slice(0, i), cols = entry.slice(i + 1);
        for (var k = 0; k < cols.length; k++) placed[cols[k]]++;
        if (site.length === 2 && site[1] === "G" && HEX[site[0]]) {
          var g = layout.goals[site[0]][cols.length - 1];
          for (var j = 0; j < cols.length; j++) piece(site, cols[j], g[j][0], g[j][1], R.Goal);
          return;
        }
        var sq = layout.sites[site];
        if (!sq) return;
        if (cols.length === 1) {
          piece(site, cols[0], sq[0], sq[1], R.Piece);
        } else {
          var dx = sq[2] ? R.Step : 0, dy = sq[2] ? 0 : R.Step;
          piece(site, cols[0], sq[0] - dx, sq[1] - dy, R.Pair);
          piece(site, cols[1], sq[0] + dx, sq[1] + dy, R.Pair);
        }
      });
    }
    "YBRG".split("").forEach(function (c) {
      for (var i = 0; i < 4 - placed[c]; i++) {
        var h = layout.homes[c][i];
        piece(c + "H", c, h[0], h[1], R.Home);
      }
    });
    (mismatch || []).forEach(function (site) {
      var sq = layout.sites[site];
      if (sq) svg.appendChild(svgEl("circle", { "class": "mismatch", cx: sq[0], cy: sq[1], r: 15, fill: "none",
        stroke: "#e00000", "stroke-width": 2.5, "stroke-dasharray": "4 2" }));
    });
    // The last move: a ring where it went, a dashed one where it came from.
    var ends = (lastMove || "").split(/[-x]/);
    var to = layout.sites[ends[ends.length - 1]], from = ends.length > 1 && layout.sites[ends[0]];
    if (from) svg.appendChild(svgEl("circle", { "class": "lastmove from", cx: from[0], cy: from[1], r: 13, fill: "none",
      stroke: "#00c853", "stroke-width": 2, "stroke-dasharray": "3 2" }));
    if (to) svg.appendChild(svgEl("circle", { "class": "lastmove", cx: to[0], cy: to[1], r: 13, fill: "none",
      stroke: "#00c853", "stroke-width": 3 }));
  }

  function tileBefore(a, b) {
    var na = Number(a.getAttribute("data-need")), nb = Number(b.getAttribute("data-need"));
    if (na !== nb) return na < nb;
    var ea = a.getAttribute("data-ev"), eb = b.getAttribute("data-ev");
    if (ea !== eb) return ea < eb;
    return a.getAttribute("data-tb").localeCompare(b.getAttribute("data-tb"), undefined, { numeric: true }) < 0;
  }

  // place moves a tile to where the order by need puts it.
  function place(tile) {
    var grid = document.getElementById("tables");
    var tiles = grid.querySelectorAll(".tile");
    for (var i = 0; i < tiles.length; i++) {
      if (tiles[i] !== tile && tileBefore(tile, tiles[i])) {
        if (tiles[i] !== tile.nextElementSibling) grid.insertBefore(tile, tiles[i]);
        return;
      }
    }
    if (grid.lastElementChild !== tile) grid.appendChild(tile);
  }

  var filter = "all", round = "";
  function shown(tile) {
    var need = Number(tile.getAttribute("data-need"));
    if (round && tile.getAttribute("data-round") !== round) return false;
    switch (filter) {
      case "need": return need <= 2;
      case "live": return need === 3;
      case "done": return need === 4;
    }
    return true;
  }
  function applyFilters() {
    document.querySelectorAll("#tables .tile").forEach(function (t) { t.hidden = !shown(t); });
  }

  function updatePending() {
    var p = document.getElementById("pending");
    if (!p) return;
    var waiting = document.querySelectorAll('#tables .tile[data-need="0"]');
    var ul = p.querySelector("ul"), none = p.querySelector(".none");
    if (!waiting.length) {
      if (ul) ul.remove();
      if (none) none.hidden = false;
      return;
    }
    if (none) none.hidden = true;
    if (!ul) { ul = document.createElement("ul"); p.appendChild(ul); }
    ul.textContent = "";
    waiting.forEach(function (t) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = t.querySelector("a").getAttribute("href");
      a.textContent = t.querySelector(".name").textContent + " " + t.getAttribute("data-ev");
      li.appendChild(a);
      li.appendChild(document.createTextNode(" — " + t.querySelector(".why").textContent));
      ul.appendChild(li);
    });
  }

  // What the stream brought, for the judges' tools and the tests: events
  // and bytes of their data.
  var seen = window.parchisStream = { tiles: 0, bytes: 0 };
  var enc = window.TextEncoder ? new TextEncoder() : null;

  function onTile(ev) {
    seen.tiles++;
    if (enc) seen.bytes += enc.encode(ev.data).length;
    var m = JSON.parse(ev.data);
    var tile = document.getElementById("tile-" + m.id);
    if (!tile) {
      var none = document.getElementById("no-tables");
      if (none) none.remove();
      tile = document.getElementById("tile-template").content.firstElementChild.cloneNode(true);
      tile.id = "tile-" + m.id;
      document.getElementById("tables").appendChild(tile);
    }
    if (Number(tile.getAttribute("data-seq")) > m.s && m.k === Number(tile.getAttribute("data-need"))) return;
    tile.className = "tile need-" + m.k + " st-" + m.st;
    tile.setAttribute("data-id", m.id);
    tile.setAttribute("data-need", m.k);
    tile.setAttribute("data-seq", m.s);
    tile.setAttribute("data-round", m.rd || "");
    tile.setAttribute("data-ev", m.ev);
    tile.setAttribute("data-tb", m.tb);
    tile.querySelector("a").setAttribute("href", "/t/" + m.ev + "/" + m.tb);
    var name = tile.querySelector(".name");
    name.textContent = name.textContent.replace(/\S*$/, m.tb);
    tile.querySelector(".ev").textContent = m.ev;
    var rd = tile.querySelector(".rd");
    rd.textContent = m.rd ? (rd.getAttribute("data-label") || "R") + " " + m.rd : "";
    var rsel = document.getElementById("round-filter");
    if (m.rd && rsel && !rsel.querySelector('option[value="' + CSS.escape(m.rd) + '"]')) {
      var o = document.createElement("option");
      o.value = o.textContent = m.rd;
      rsel.appendChild(o);
    }
    tile.querySelector(".tu").className = "tu dot" + (m.tu ? " c" + m.tu : "");
    tile.querySelector(".th").textContent = m.th || "";
    tile.querySelector(".why").textContent = (m.y || "") + (m.r ? " · " + m.r : "");
    tile.querySelector(".last").textContent = m.l || "";
    var pp = tile.querySelector(".pairs");
    if (pp) pp.textContent = m.pp || "";
    drawPieces(tile.querySelector("svg.board"), m.p, m.m, m.ls);
    var bar = tile.querySelector("svg.winbar");
    if (bar) {
      // YR's win chance, from the bottom of the bar; BG's is the rest.
      bar.hidden = m.wc === undefined;
      if (m.wc !== undefined) {
        bar.setAttribute("aria-valuenow", m.wc);
        var yr = bar.querySelector("rect.yr");
        yr.setAttribute("y", 100 - m.wc);
        yr.setAttribute("height", m.wc);
      }
      bar.classList.toggle("stale", !!m.wx);
    }
    place(tile);
    tile.hidden = !shown(tile);
    updatePending();
    counts();
  }

  // The history, grouped by turn: a throw by another colour begins a
  // turn.
  var turnStarts = { "throw": 1, "rethrow": 1, "lost": 1, "third-six": 1, "start": 1 };
  function appendToTurns(hist, li) {
    var type = (li.className.match(/ev-(\S+)/) || [])[1];
    var colour = li.getAttribute("data-colour");
    var turns = hist.querySelectorAll(":scope > li.turn");
    var cur = turns[turns.length - 1];
    var curColour = cur ? cur.getAttribute("data-colour") || "" : "";
    if (!cur || (turnStarts[type] && (type === "start" || (colour && colour !== curColour)))) {
      cur = document.createElement("li");
      cur.className = "turn";
      cur.setAttribute("data-colour", colour || "");
      var who = document.createElement("span");
      who.className = "who";
      var dot = document.createElement("span");
      dot.className = "dot" + (colour ? " c" + colour : "");
      who.appendChild(dot);
      who.appendChild(document.createTextNode(li.getAttribute("data-cname") || "—"));
      cur.appendChild(who);
      cur.appendChild(document.createElement("ol")).className = "feed";
      hist.appendChild(cur);
    }
    cur.querySelector("ol").appendChild(li);
    if (!stepping) hist.parentNode.scrollTop = hist.parentNode.scrollHeight;
  }

  // The stepper: a click on an event of the history shows the board as
  // it was after it; ◀ ▶ (or the arrow keys) step, "en directo" returns.
  var stepping = false, stepAt = -1, liveBoard = null;
  function mainBoard() { return document.querySelector(".big svg.board"); }
  function steps() { return Array.prototype.slice.call(document.querySelectorAll("#history li.ev[data-pos]")); }
  function show(i) {
    var all = steps();
    if (!all.length) return;
    i = Math.max(0, Math.min(all.length - 1, i));
    var svg = mainBoard();
    if (!svg) return;
    if (!stepping || !liveBoard) liveBoard = svg.innerHTML;
    stepping = true;
    stepAt = i;
    body.classList.add("stepping");
    svg.querySelectorAll(".light").forEach(function (e) { e.remove(); });
    drawPieces(svg, all[i].getAttribute("data-pos"), [], all[i].getAttribute("data-move"));
    document.querySelectorAll("#history li.ev.at").forEach(function (e) { e.classList.remove("at"); });
    all[i].classList.add("at");
    all[i].scrollIntoView({ block: "center" });
    var at = document.getElementById("step-at");
    if (at) at.textContent = at.getAttribute("data-label") + " " + all[i].getAttribute("data-seq") + ": " +
      all[i].querySelector("b").textContent + " " + all[i].querySelector(".txt").textContent;
  }
  function backToLive() {
    var svg = mainBoard();
    if (svg && liveBoard) svg.innerHTML = liveBoard;
    stepping = false;
    liveBoard = null;
    body.classList.remove("stepping");
    document.querySelectorAll("#history li.ev.at").forEach(function (e) { e.classList.remove("at"); });
    var at = document.getElementById("step-at");
    if (at) at.textContent = "";
  }
  if (detail || archivePage) {
    var lj2 = document.getElementById("board-layout");
    if (lj2) layout = JSON.parse(lj2.textContent);
    var hist0 = document.getElementById("history");
    if (hist0) {
      hist0.addEventListener("click", function (ev) {
        var li = ev.target.closest("li.ev[data-pos]");
        if (li) show(steps().indexOf(li));
      });
      hist0.parentNode.scrollTop = hist0.parentNode.scrollHeight;
    }
    var sb = document.getElementById("step-back"), sf = document.getElementById("step-fwd"), sl = document.getElementById("step-live");
    if (sb) sb.addEventListener("click", function () { show(stepping ? stepAt - 1 : steps().length - 2); });
    if (sf) sf.addEventListener("click", function () { if (stepping) show(stepAt + 1); });
    if (sl) sl.addEventListener("click", backToLive);
    document.addEventListener("keydown", function (ev) {
      if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
      if (ev.key === "ArrowLeft") show(stepping ? stepAt - 1 : steps().length - 2);
      else if (ev.key === "ArrowRight" && stepping) show(stepAt + 1);
      else if (ev.key === "Escape" && stepping) backToLive();
    });
  }

  // The correction by picture: the judge edits a copy of the board; the
  // PPN field follows, and the server says what the engine makes of it and
  // how it differs from the table's position before it is sent.
  function editor() {
    var ed = document.getElementById("editor");
    var input = document.getElementById("correct-position");
    if (!ed || !input || !layout) return;
    var svg = ed.querySelector("svg.board");
    var send = document.getElementById("correct-send");
    var fields = { turn: "edit-turn", phase: "edit-phase", sixes: "edit-sixes", last: "edit-last", starter: "edit-starter" };
    var place = {}, tool = "Y", timer = null;

    function parse(ppn) {
      var f = ppn.trim().split(" ");
      place = {};
      if (f[0] && f[0] !== "-") f[0].split(",").forEach(function (e) {
        var i = e.indexOf(":");
        if (i > 0) place[e.slice(0, i)] = e.slice(i + 1);
      });
      var set = function (k, v) { if (v !== undefined) document.getElementById(fields[k]).value = v; };
      set("turn", f[1]); set("phase", f[2]); set("sixes", f[3]); set("last", f[4]); set("starter", f[5]);
    }
    function ppn() {
      var parts = [];
      layout.order.forEach(function (site) { if (place[site]) parts.push(site + ":" + place[site]); });
      var v = function (k) { return document.getElementById(fields[k]).value.trim() || "-"; };
      return [parts.length ? parts.join(",") : "-", v("turn"), v("phase"), v("sixes"), v("last"), v("starter")].join(" ");
    }
    function check() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        fetch(ed.getAttribute("data-preview") + "?position=" + encodeURIComponent(input.value), { credentials: "same-origin" })
          .then(function (r) { return r.json(); }).then(function (pv) {
            var verdict = document.getElementById("edit-verdict");
            verdict.className = "verdict-line " + (pv.ok ? "ok" : "bad");
            verdict.textContent = pv.ok ? ed.getAttribute("data-valid") : pv.error;
            var ul = document.getElementById("edit-diff");
            ul.textContent = "";
            (pv.diff || []).forEach(function (d) { var li = document.createElement("li"); li.textContent = d; ul.appendChild(li); });
            var mv = document.getElementById("edit-moves");
            mv.textContent = pv.moves ? mv.getAttribute("data-label") + ": " + pv.moves : "";
            send.disabled = !pv.ok;
            ed.setAttribute("data-checked", input.value);
          });
      }, 150);
    }
    function draw(fromInput) {
      if (!fromInput) input.value = ppn();
      drawPieces(svg, input.value, [], "");
      check();
    }
    // site returns the site under a click: a piece's, or the nearest
    // square, goal or home.
    function siteAt(ev) {
      var s = ev.target.getAttribute && ev.target.getAttribute("data-site");
      if (s) return s;
      var pt = svg.createSVGPoint();
      pt.x = ev.clientX; pt.y = ev.clientY;
      var p = pt.matrixTransform(svg.getScreenCTM().inverse());
      var best = "", bd = 15 * 15;
      for (var k in layout.sites) {
        var c = layout.sites[k], d = (c[0] - p.x) * (c[0] - p.x) + (c[1] - p.y) * (c[1] - p.y);
        if (d < bd) { bd = d; best = k; }
      }
      return best;
    }
    svg.addEventListener("click", function (ev) {
      var site = siteAt(ev);
      if (!site || /H$/.test(site) && site.length === 2) return; // a home: its pieces are those not placed
      var cur = place[site] || "";
      if (tool === "-") {
        place[site] = cur.slice(0, -1);
      } else {
        var goal = site.length === 2 && site[1] === "G" && "YBRG".indexOf(site[0]) >= 0;
        if (goal ? cur.length >= 4 : cur.length >= 2) return;
        place[site] = cur + (goal ? site[0] : tool);
      }
      if (!place[site]) delete place[site];
      draw(false);
    });
    ed.querySelectorAll(".tool").forEach(function (b) {
      b.addEventListener("click", function () {
        tool = b.getAttribute("data-tool");
        ed.querySelectorAll(".tool").forEach(function (x) { x.classList.toggle("on", x === b); x.setAttribute("aria-checked", x === b); });
      });
    });
    ed.querySelector('.tool[data-tool="Y"]').classList.add("on");
    Object.keys(fields).forEach(function (k) {
      var el = document.getElementById(fields[k]);
      el.addEventListener("change", function () { draw(false); });
      el.addEventListener("input", function () { draw(false); });
    });
    input.addEventListener("input", function () { parse(input.value); draw(true); });
    document.getElementById("edit-reset").addEventListener("click", function () {
      input.value = input.getAttribute("data-table");
      parse(input.value);
      draw(true);
    });
    parse(input.value);
    draw(true);
  }

  if (detail) editor();

  if (multi) {
    var lj = document.getElementById("board-layout");
    if (lj) layout = JSON.parse(lj.textContent);
    document.querySelectorAll("#filters button").forEach(function (b) {
      b.addEventListener("click", function () {
        filter = b.getAttribute("data-filter");
        document.querySelectorAll("#filters button").forEach(function (x) { x.classList.toggle("on", x === b); });
        applyFilters();
      });
    });
    var rs = document.getElementById("round-filter");
    if (rs) rs.addEventListener("change", function () { round = rs.value; applyFilters(); });
  }

  if (!window.EventSource || archivePage || document.querySelector("main.archive-list")) return;
  var es = new EventSource(url);
  es.addEventListener("tile", onTile);
  // A result certified: the standings are drawn again.
  es.addEventListener("standings", function () { if (!submitting) location.reload(); });
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
