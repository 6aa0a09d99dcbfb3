// skillbox graph viewer: canvas renderer over positions precomputed in Python.
// All text from the code is written with textContent, never parsed as HTML.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("graph-data").textContent);
  var N = D.counts.nodes;
  var communityById = {};
  D.communities.forEach(function (c) { communityById[c.id] = c; });
  // The nodes and edges (nearly all of the page's bytes) sit in a second JSON block after this script: the
  // overview draws from the small block above, and the bulk is parsed once the document is complete, or on first
  // need. Nodes come as columns (one array per field), positions as ints in 1/D.scale units.
  var C = null, NAME, KIND, FILE, LINE, COMM, DEG, X, Y, DOC, RAW, E, REASON; // E flat: source, target, relation, confidence
  var byCommunity = {};
  function loadBulk() {
    if (C) return true;
    var block = document.getElementById("graph-bulk");
    if (!block) return false;
    var B = JSON.parse(block.textContent);
    C = B.nodes; E = B.edges; D.files = B.files;
    NAME = C.name; KIND = C.kind; FILE = C.file; LINE = C.line; COMM = C.community; DEG = C.degree;
    X = new Float64Array(N); Y = new Float64Array(N);
    for (var p = 0; p < N; p++) { X[p] = C.x[p] / D.scale; Y[p] = C.y[p] / D.scale; }
    DOC = {};
    C.doc_at.forEach(function (i, k) { DOC[i] = C.doc[k]; });
    REASON = {};
    if (B.edge_reasons) B.edge_reasons.at.forEach(function (e, k) { REASON[e] = B.edge_reasons.text[k]; });
    RAW = new Uint8Array(N);
    C.id_raw_at.forEach(function (i) { RAW[i] = 1; });
    D.communities.forEach(function (c) { byCommunity[c.id] = []; });
    for (var i = 0; i < N; i++) (byCommunity[COMM[i]] = byCommunity[COMM[i]] || []).push(i);
    window.__readyMs = performance.now();
    document.body.setAttribute("data-ready", "1");
    return true;
  }
  var adjacency = null; // built on first need
  function neighbours(i) {
    if (!adjacency) {
      adjacency = new Array(N);
      for (var k = 0; k < N; k++) adjacency[k] = [];
      for (var e = 0; e < E.length; e += 4) {
        adjacency[E[e]].push(e);
        adjacency[E[e + 1]].push(e);
      }
    }
    return adjacency[i];
  }

  var palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#17becf"];
  function colour(cid) { return palette[((cid % palette.length) + palette.length) % palette.length]; }

  var canvas = document.getElementById("canvas");
  var ctx = canvas.getContext("2d");
  var view = { x: 0, y: 0, scale: 1 };
  var state = { community: null, selected: -1, highlight: {} };
  var filters = { kind: {}, relation: {}, confidence: {} };
  D.kinds.forEach(function (_, k) { filters.kind[k] = true; });
  D.relations.forEach(function (_, k) { filters.relation[k] = true; });
  D.confidences.forEach(function (_, k) { filters.confidence[k] = true; });

  function resize() {
    var r = canvas.getBoundingClientRect();
    var dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(r.width * dpr));
    canvas.height = Math.max(1, Math.round(r.height * dpr));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    draw();
  }
  function fit(minX, minY, maxX, maxY) {
    var r = canvas.getBoundingClientRect();
    var w = Math.max(maxX - minX, 1), h = Math.max(maxY - minY, 1);
    view.scale = Math.min(r.width / w, (r.height - 50) / h) * 0.9;
    view.x = r.width / 2 - ((minX + maxX) / 2) * view.scale;
    view.y = (r.height + 40) / 2 - ((minY + maxY) / 2) * view.scale;
  }
  function fitOverview() {
    var minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    D.communities.forEach(function (c) {
      minX = Math.min(minX, c.x - c.r); maxX = Math.max(maxX, c.x + c.r);
      minY = Math.min(minY, c.y - c.r); maxY = Math.max(maxY, c.y + c.r);
    });
    if (minX === Infinity) { minX = minY = -1; maxX = maxY = 1; }
    fit(minX, minY, maxX, maxY);
  }
  function fitCommunity(cid) {
    var c = communityById[cid];
    fit(c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r);
  }
  function sx(x) { return x * view.scale + view.x; }
  function sy(y) { return y * view.scale + view.y; }

  function nodeVisible(i) {
    return filters.kind[KIND[i]] && (state.community === null || COMM[i] === state.community);
  }
  function edgeVisible(e) { return filters.relation[E[e + 2]] && filters.confidence[E[e + 3]]; }

  var firstDraw = true;
  function draw() {
    var r = canvas.getBoundingClientRect();
    ctx.clearRect(0, 0, r.width, r.height);
    ctx.fillStyle = "#f6f7f9";
    ctx.fillRect(0, 0, r.width, r.height);
    if (state.community === null) drawOverview(); else drawCommunity(state.community);
    if (firstDraw) {
      firstDraw = false;
      window.__firstDrawMs = performance.now();
      document.body.setAttribute("data-drawn", "1");
    }
  }
  function drawOverview() {
    ctx.lineWidth = 1;
    D.links.forEach(function (l) {
      var a = communityById[l[0]], b = communityById[l[1]];
      if (!a || !b) return;
      ctx.strokeStyle = "rgba(80,90,110," + Math.min(0.5, 0.05 + l[2] / 200) + ")";
      ctx.beginPath(); ctx.moveTo(sx(a.x), sy(a.y)); ctx.lineTo(sx(b.x), sy(b.y)); ctx.stroke();
    });
    D.communities.forEach(function (c) {
      var rad = Math.max(2, c.r * view.scale);
      ctx.fillStyle = c.isolated ? "#c9ced6" : colour(c.id);
      ctx.globalAlpha = 0.85;
      ctx.beginPath(); ctx.arc(sx(c.x), sy(c.y), rad, 0, Math.PI * 2); ctx.fill();
      ctx.globalAlpha = 1;
      if (rad > 26) {
        ctx.fillStyle = "#111";
        ctx.font = "12px system-ui, sans-serif";
        ctx.textAlign = "center";
        ctx.fillText(c.label.slice(0, 40) + " (" + c.size + ")", sx(c.x), sy(c.y) + 4);
      }
    });
  }
  function drawCommunity(cid) {
    if (!loadBulk()) return;
    var members = byCommunity[cid] || [];
    var inside = {};
    members.forEach(function (i) { if (nodeVisible(i)) inside[i] = true; });
    ctx.lineWidth = 0.6;
    ctx.strokeStyle = "rgba(90,100,120,0.35)";
    ctx.beginPath();
    members.forEach(function (i) {
      neighbours(i).forEach(function (e) {
        if (E[e] !== i) return;
        var j = E[e + 1];
        if (!inside[i] || !inside[j] || !edgeVisible(e)) return;
        ctx.moveTo(sx(X[i]), sy(Y[i])); ctx.lineTo(sx(X[j]), sy(Y[j]));
      });
    });
    ctx.stroke();
    if (state.selected >= 0) {
      // the selected node's edges: solid when EXTRACTED, dashed when a guess (INFERRED or AMBIGUOUS)
      ctx.strokeStyle = "#d9480f"; ctx.lineWidth = 1.5;
      [false, true].forEach(function (guessed) {
        ctx.setLineDash(guessed ? [4, 3] : []);
        ctx.beginPath();
        neighbours(state.selected).forEach(function (e) {
          if (!edgeVisible(e) || (D.confidences[E[e + 3]] !== "EXTRACTED") !== guessed) return;
          var a = E[e], b = E[e + 1];
          ctx.moveTo(sx(X[a]), sy(Y[a])); ctx.lineTo(sx(X[b]), sy(Y[b]));
        });
        ctx.stroke();
      });
      ctx.setLineDash([]);
    }
    var base = Math.max(1.5, Math.min(6, 2.5 * view.scale));
    var labels = view.scale > 1.2;
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "left";
    members.forEach(function (i) {
      if (!inside[i]) return;
      var rad = base + Math.min(6, Math.sqrt(DEG[i]) * 0.6);
      ctx.fillStyle = i === state.selected ? "#d9480f" : state.highlight[i] ? "#ffb000" : colour(KIND[i]);
      ctx.beginPath(); ctx.arc(sx(X[i]), sy(Y[i]), rad, 0, Math.PI * 2); ctx.fill();
      if (labels || i === state.selected) {
        ctx.fillStyle = "#222";
        ctx.fillText(NAME[i].slice(0, 48), sx(X[i]) + rad + 2, sy(Y[i]) + 3);
      }
    });
  }

  // -- interaction ---------------------------------------------------------------------------------------------
  function hit(px, py) {
    if (state.community === null) {
      var best = null;
      D.communities.forEach(function (c) {
        var dx = px - sx(c.x), dy = py - sy(c.y), rad = Math.max(4, c.r * view.scale);
        if (dx * dx + dy * dy <= rad * rad && (!best || c.r < best.r)) best = c;
      });
      return best ? { community: best.id } : null;
    }
    if (!loadBulk()) return null;
    var bestI = -1, bestD = 14 * 14;
    (byCommunity[state.community] || []).forEach(function (i) {
      if (!nodeVisible(i)) return;
      var dx = px - sx(X[i]), dy = py - sy(Y[i]), d = dx * dx + dy * dy;
      if (d < bestD) { bestD = d; bestI = i; }
    });
    return bestI >= 0 ? { node: bestI } : null;
  }
  var drag = null;
  canvas.addEventListener("mousedown", function (ev) { drag = { x: ev.clientX, y: ev.clientY, moved: false }; });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) { view.x += dx; view.y += dy; drag.x = ev.clientX; drag.y = ev.clientY; draw(); }
  });
  window.addEventListener("mouseup", function (ev) {
    var wasClick = drag && !drag.moved;
    drag = null;
    if (!wasClick || ev.target !== canvas) return;
    var r = canvas.getBoundingClientRect();
    var h = hit(ev.clientX - r.left, ev.clientY - r.top);
    if (!h) return;
    if (h.community !== undefined) openCommunity(h.community);
    else select(h.node);
  });
  canvas.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var r = canvas.getBoundingClientRect();
    var px = ev.clientX - r.left, py = ev.clientY - r.top;
    var k = Math.exp(-ev.deltaY * 0.0015);
    view.x = px - (px - view.x) * k; view.y = py - (py - view.y) * k; view.scale *= k;
    draw();
  }, { passive: false });
  window.addEventListener("resize", resize);

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function idOf(i) { // ids come relative to their file (see id_raw_at)
    if (RAW[i]) return C.id[i];
    var f = D.files[FILE[i]];
    return C.id[i] === "" ? f : f + "::" + C.id[i];
  }
  function where(i) {
    var f = FILE[i] >= 0 ? D.files[FILE[i]] : "";
    return f ? f + (LINE[i] ? ":" + LINE[i] : "") : "(no file)";
  }
  function crumb() {
    var c = state.community === null ? null : communityById[state.community];
    document.getElementById("crumb").textContent = c ? "community " + c.id + ": " + c.label + " (" + c.size + ")" :
      D.communities.length + " communities, " + N + " nodes";
    document.getElementById("community").value = c ? String(c.id) : "";
  }
  function openCommunity(cid) {
    loadBulk();
    state.community = cid; state.selected = -1; state.highlight = {};
    fitCommunity(cid); crumb(); draw();
    var c = communityById[cid];
    var box = document.getElementById("details");
    box.replaceChildren(el("h2", c.label), el("p", c.size + " nodes, cohesion " + c.cohesion, "muted"));
    box.appendChild(el("h3", "Most connected"));
    var ul = el("ul");
    (byCommunity[cid] || []).slice().sort(function (a, b) { return DEG[b] - DEG[a]; })
      .slice(0, 15).forEach(function (i) { ul.appendChild(nodeItem(i, "")); });
    box.appendChild(ul);
  }
  function showOverview() {
    state.community = null; state.selected = -1; state.highlight = {};
    fitOverview(); crumb(); draw();
  }
  function nodeItem(i, prefix) {
    var li = el("li");
    if (prefix) li.appendChild(el("span", prefix + " ", "muted"));
    var a = el("a", NAME[i]);
    a.addEventListener("click", function () { select(i); });
    li.appendChild(a);
    li.appendChild(el("span", " " + D.kinds[KIND[i]] + " · " + where(i), "muted"));
    return li;
  }
  function select(i) {
    loadBulk();
    if (state.community !== COMM[i]) { state.community = COMM[i]; fitCommunity(COMM[i]); crumb(); }
    state.selected = i;
    state.highlight = {};
    neighbours(i).forEach(function (e) { state.highlight[E[e] === i ? E[e + 1] : E[e]] = true; });
    draw();
    var box = document.getElementById("details");
    box.replaceChildren();
    var title = el("h2", NAME[i]);
    title.id = "selected-name";
    box.appendChild(title);
    box.appendChild(el("p", D.kinds[KIND[i]] + " · id " + idOf(i), "muted"));
    if (FILE[i] >= 0) {
      var link = el("a", where(i));
      link.href = "file://" + encodeURI((D.root ? D.root + "/" : "") + D.files[FILE[i]]) + (LINE[i] ? "#L" + LINE[i] : "");
      link.title = "open " + where(i);
      box.appendChild(link);
    }
    if (DOC[i]) box.appendChild(el("p", DOC[i], "doc"));
    var c = communityById[COMM[i]];
    if (c) box.appendChild(el("p", "community " + c.id + ": " + c.label, "muted"));
    var groups = {};
    neighbours(i).forEach(function (e) {
      if (!edgeVisible(e)) return;
      var out = E[e] === i, other = out ? E[e + 1] : E[e];
      var key = (out ? "" : "← ") + D.relations[E[e + 2]] + (out ? " →" : "");
      (groups[key] = groups[key] || []).push([other, D.confidences[E[e + 3]], REASON[e / 4]]);
    });
    Object.keys(groups).sort().forEach(function (key) {
      box.appendChild(el("h3", key + " (" + groups[key].length + ")"));
      var ul = el("ul");
      groups[key].slice(0, 60).forEach(function (p) {
        ul.appendChild(nodeItem(p[0], "[" + p[1] + (p[2] ? ": " + p[2] : "") + "]"));
      });
      if (groups[key].length > 60) ul.appendChild(el("li", "… " + (groups[key].length - 60) + " more", "muted"));
      box.appendChild(ul);
    });
  }

  // -- search --------------------------------------------------------------------------------------------------
  var lower = null, lowerName = null;
  var results = document.getElementById("results");
  document.getElementById("search").addEventListener("input", function (ev) {
    var q = ev.target.value.trim().toLowerCase();
    results.replaceChildren();
    if (!q || !loadBulk()) { results.style.display = "none"; return; }
    if (!lower) {
      lower = new Array(N); lowerName = new Array(N);
      for (var m = 0; m < N; m++) {
        lowerName[m] = NAME[m].toLowerCase();
        lower[m] = lowerName[m] + " " + (FILE[m] >= 0 ? D.files[FILE[m]].toLowerCase() : "");
      }
    }
    // every match counts (not the first few hundred in node order): exact names first, then the most connected
    var hits = [];
    for (var k = 0; k < N; k++) if (lower[k].indexOf(q) >= 0) hits.push(k);
    hits.sort(function (a, b) {
      var ea = lowerName[a] === q ? 0 : 1, eb = lowerName[b] === q ? 0 : 1;
      return ea - eb || DEG[b] - DEG[a] || a - b;
    });
    hits.slice(0, 50).forEach(function (k) {
      var row = el("div");
      row.appendChild(el("strong", NAME[k]));
      row.appendChild(el("span", " " + D.kinds[KIND[k]] + " · " + where(k)));
      row.className = "result";
      row.addEventListener("click", function () { results.style.display = "none"; select(k); });
      results.appendChild(row);
    });
    if (!hits.length) results.appendChild(el("div", "no match"));
    results.style.display = "block";
  });

  // -- filters and summary -------------------------------------------------------------------------------------
  function checkboxes(id, names, store) {
    var box = document.getElementById(id);
    names.forEach(function (name, k) {
      var label = el("label");
      var input = el("input");
      input.type = "checkbox"; input.checked = true;
      input.dataset.value = name;
      input.addEventListener("change", function () { store[k] = input.checked; if (state.selected >= 0) select(state.selected); else draw(); });
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + name));
      box.appendChild(label);
    });
  }
  checkboxes("f-kind", D.kinds, filters.kind);
  checkboxes("f-relation", D.relations, filters.relation);
  checkboxes("f-confidence", D.confidences, filters.confidence);
  var select_ = document.getElementById("community");
  D.communities.slice(0, 500).forEach(function (c) {
    var o = el("option", c.id + ": " + c.label.slice(0, 50) + " (" + c.size + ")");
    o.value = String(c.id);
    select_.appendChild(o);
  });
  select_.addEventListener("change", function () {
    if (select_.value === "") showOverview(); else openCommunity(Number(select_.value));
  });
  document.getElementById("overview").addEventListener("click", showOverview);
  document.getElementById("summary").textContent = N + " nodes, " + D.counts.edges + " edges, " +
    D.communities.length + " communities, " + D.counts.files + " files";
  window.skillboxViewer = { select: select, openCommunity: openCommunity, overview: showOverview, data: D };
  fitOverview();
  crumb();
  resize();
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setTimeout(loadBulk, 0); });
  } else {
    setTimeout(loadBulk, 0);
  }
})();
