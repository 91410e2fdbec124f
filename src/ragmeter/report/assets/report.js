// The question table and drill-down of a ragmeter report.
// Every piece of data reaches the page as text (textContent, option.value, title),
// never as markup: a prediction or page that holds HTML is shown, not run.
(function () {
  "use strict";

  var ROWS_PER_PAGE = 100;
  // Column positions in the embedded rows.
  var C = { i: 0, id: 1, label: 2, domain: 3, qtype: 4, dyn: 5, pop: 6, query: 7, pred: 8, secs: 9,
            cat: 10 };

  var data = JSON.parse(document.getElementById("rm-rows").textContent);
  var details = null;
  function getDetails() {
    // Parsed on first use only: the page opens without reading the drill-down data.
    if (details === null) {
      details = JSON.parse(document.getElementById("rm-details").textContent);
    }
    return details;
  }

  var runs = data.runs;
  // Diagnosis categories (reports of diagnosed runs only): name -> [description, colour].
  var categories = new Map();
  (data.categories || []).forEach(function (c) { categories.set(c[0], c); });
  var byId = runs.map(function (run) {
    var m = new Map();
    run.rows.forEach(function (r) { m.set(r[C.id], r); });
    return m;
  });

  var state = { run: 0, q: "", label: "", domain: "", qtype: "", cat: "", flipped: false,
                sort: C.i, dir: 1, page: 0, openId: null };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function add(parent) {
    for (var k = 1; k < arguments.length; k++) {
      var c = arguments[k];
      if (c === null || c === undefined) { continue; }
      parent.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return parent;
  }
  function badge(label) {
    return el("span", "lbl " + (label || "none"), label || "absent");
  }
  function catChip(name) {
    if (!name) { return el("span", "muted", "—"); }
    var chip = el("span", "cat", name);
    var info = categories.get(name);
    // The colour comes from the report's fixed palette (a rule per colour in the style sheet).
    if (info) { chip.dataset.c = info[2]; chip.title = info[1]; }
    return chip;
  }
  function yesNo(v, unknown) {
    if (v === null || v === undefined) { return unknown; }
    return v ? "yes" : "no";
  }
  function fmtSecs(s) {
    if (s === null || s === undefined) { return "—"; }
    if (s >= 100) { return Math.round(s).toLocaleString("en") + " s"; }
    if (s >= 1) { return s.toFixed(2) + " s"; }
    return Math.round(s * 1000) + " ms";
  }

  function isFlipped(id) {
    var seen = null;
    for (var r = 0; r < byId.length; r++) {
      var row = byId[r].get(id);
      if (!row) { continue; }
      if (seen === null) { seen = row[C.label]; } else if (seen !== row[C.label]) { return true; }
    }
    return false;
  }

  // ---- filters -------------------------------------------------------------------
  var search = document.getElementById("rm-search");
  var selLabel = document.getElementById("rm-label");
  var selDomain = document.getElementById("rm-domain");
  var selType = document.getElementById("rm-type");
  var selCat = document.getElementById("rm-cat");
  var selRun = document.getElementById("rm-run");
  var chkFlip = document.getElementById("rm-flipped");
  var tbody = document.getElementById("rm-tbody");
  var count = document.getElementById("rm-count");
  var pageInfo = document.getElementById("rm-page");
  var prev = document.getElementById("rm-prev");
  var next = document.getElementById("rm-next");

  function fillSelect(sel, values, allText) {
    sel.replaceChildren();
    var all = el("option", null, allText);
    all.value = "";
    sel.appendChild(all);
    values.forEach(function (v) {
      var o = el("option", null, v);
      o.value = v;
      sel.appendChild(o);
    });
  }
  function distinct(col) {
    var s = new Set();
    runs.forEach(function (run) {
      run.rows.forEach(function (r) { if (r[col]) { s.add(r[col]); } });
    });
    return Array.from(s).sort();
  }
  fillSelect(selLabel, ["correct", "incorrect", "missing", "unscored"], "all labels");
  fillSelect(selDomain, distinct(C.domain), "all domains");
  fillSelect(selType, distinct(C.qtype), "all types");
  if (selCat) {
    var present = new Set(distinct(C.cat));
    fillSelect(selCat, Array.from(categories.keys()).filter(function (c) { return present.has(c); }),
               "all categories");
  }
  if (selRun) {
    selRun.replaceChildren();
    runs.forEach(function (run, k) {
      var o = el("option", null, run.name);
      o.value = String(k);
      selRun.appendChild(o);
    });
  }

  function matches(r) {
    if (state.label && r[C.label] !== state.label) { return false; }
    if (state.domain && r[C.domain] !== state.domain) { return false; }
    if (state.qtype && r[C.qtype] !== state.qtype) { return false; }
    if (state.cat && r[C.cat] !== state.cat) { return false; }
    if (state.flipped && !isFlipped(r[C.id])) { return false; }
    if (state.q) {
      var hay = (r[C.id] + "\n" + r[C.query] + "\n" + (r[C.pred] || "")).toLowerCase();
      if (hay.indexOf(state.q) < 0) { return false; }
    }
    return true;
  }

  function compare(a, b) {
    var x = a[state.sort], y = b[state.sort];
    if (x === y) { return a[C.i] - b[C.i]; }
    if (x === null || x === undefined) { return 1; }
    if (y === null || y === undefined) { return -1; }
    return (x < y ? -1 : 1) * state.dir;
  }

  function render() {
    var rows = runs[state.run].rows.filter(matches);
    rows.sort(compare);
    var pages = Math.max(1, Math.ceil(rows.length / ROWS_PER_PAGE));
    if (state.page >= pages) { state.page = pages - 1; }
    var start = state.page * ROWS_PER_PAGE;
    var shown = rows.slice(start, start + ROWS_PER_PAGE);
    var frag = document.createDocumentFragment();
    shown.forEach(function (r) {
      var tr = el("tr");
      tr.dataset.id = r[C.id];
      tr.tabIndex = 0;
      if (r[C.id] === state.openId) { tr.className = "open"; }
      var label = el("td");
      label.appendChild(badge(r[C.label]));
      var q = el("td", null, r[C.query]);
      q.title = r[C.query];
      var p = el("td", null, r[C.pred] === null ? "(no prediction)" : r[C.pred]);
      if (r[C.pred] !== null) { p.title = r[C.pred]; }
      var id = el("td", "mono", r[C.id]);
      id.title = r[C.id];
      var cat = null;
      if (selCat) {
        cat = el("td");
        cat.appendChild(catChip(r[C.cat]));
      }
      add(tr, el("td", "num", r[C.i] + 1), id, label, el("td", null, r[C.domain] || "—"),
          el("td", null, r[C.qtype] || "—"), cat, q, p, el("td", "num", fmtSecs(r[C.secs])));
      frag.appendChild(tr);
    });
    tbody.replaceChildren(frag);
    var total = runs[state.run].rows.length;
    count.textContent = rows.length === total
      ? total.toLocaleString("en") + " questions"
      : rows.length.toLocaleString("en") + " of " + total.toLocaleString("en") + " questions";
    pageInfo.textContent = rows.length
      ? "rows " + (start + 1) + "–" + (start + shown.length) + " · page " + (state.page + 1) + " of " + pages
      : "no question matches";
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  }

  var timer = null;
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      state.q = search.value.trim().toLowerCase();
      state.page = 0;
      render();
    }, 120);
  });
  function onSelect(sel, key) {
    sel.addEventListener("change", function () { state[key] = sel.value; state.page = 0; render(); });
  }
  onSelect(selLabel, "label");
  onSelect(selDomain, "domain");
  onSelect(selType, "qtype");
  if (selCat) { onSelect(selCat, "cat"); }
  if (selRun) {
    selRun.addEventListener("change", function () {
      state.run = Number(selRun.value); state.page = 0; render();
    });
  }
  if (chkFlip) {
    chkFlip.addEventListener("change", function () {
      state.flipped = chkFlip.checked; state.page = 0; render();
    });
  }
  prev.addEventListener("click", function () { state.page -= 1; render(); });
  next.addEventListener("click", function () { state.page += 1; render(); });

  var sortCols = { num: C.i, id: C.id, label: C.label, domain: C.domain, qtype: C.qtype,
                   cat: C.cat, query: C.query, pred: C.pred, secs: C.secs };
  document.querySelectorAll("table.qs th[data-sort]").forEach(function (th) {
    th.addEventListener("click", function () {
      var col = sortCols[th.dataset.sort];
      state.dir = state.sort === col ? -state.dir : 1;
      state.sort = col;
      document.querySelectorAll("table.qs th").forEach(function (h) {
        h.classList.remove("sorted-asc", "sorted-desc");
      });
      th.classList.add(state.dir > 0 ? "sorted-asc" : "sorted-desc");
      render();
    });
  });

  tbody.addEventListener("click", function (ev) {
    var tr = ev.target.closest("tr");
    if (tr && tr.dataset.id !== undefined) { open(state.run, tr.dataset.id); }
  });
  tbody.addEventListener("keydown", function (ev) {
    var tr = ev.target.closest("tr");
    if (ev.key === "Enter" && tr && tr.dataset.id !== undefined) { open(state.run, tr.dataset.id); }
  });
  document.querySelectorAll("[data-open]").forEach(function (e) {
    e.addEventListener("click", function () { open(0, e.dataset.open); });
  });
  // "questions" buttons of the diagnosis table: show that category's questions.
  document.querySelectorAll("button[data-cat]").forEach(function (b) {
    b.addEventListener("click", function () {
      if (!selCat) { return; }
      if (selRun && b.dataset.run !== undefined) {
        selRun.value = b.dataset.run;
        state.run = Number(b.dataset.run);
      }
      selCat.value = b.dataset.cat;
      state.cat = selCat.value;
      state.page = 0;
      render();
      document.getElementById("questions").scrollIntoView();
    });
  });

  // ---- drill-down ------------------------------------------------------------------
  var panel = document.getElementById("panel");
  var body = document.getElementById("panel-body");
  document.getElementById("panel-close").addEventListener("click", close);
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") { close(); } });

  function close() {
    panel.hidden = true;
    state.openId = null;
    tbody.querySelectorAll("tr.open").forEach(function (t) { t.classList.remove("open"); });
  }

  function section(title) { return el("h3", null, title); }
  function kvTable(pairs) {
    var t = el("table", "kv");
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === "") { return; }
      var tr = el("tr");
      var v = el("td");
      add(v, typeof p[1] === "object" ? p[1] : String(p[1]));
      add(tr, el("td", null, p[0]), v);
      t.appendChild(tr);
    });
    return t;
  }

  function markedText(text, spans) {
    var box = el("div", "text");
    var pos = 0;
    (spans || []).forEach(function (s) {
      if (s[0] > pos) { box.appendChild(document.createTextNode(text.slice(pos, s[0]))); }
      var m = el("mark", s[2] === "gold" ? "gold" : "pred", text.slice(s[0], s[1]));
      m.title = s[2] === "gold" ? "gold answer" : "the prediction";
      box.appendChild(m);
      pos = s[1];
    });
    if (pos < text.length) { box.appendChild(document.createTextNode(text.slice(pos))); }
    return box;
  }

  function predictionBox(d) {
    var box = el("div", "box");
    if (d.prediction === null) {
      box.appendChild(el("span", "muted", "no prediction"));
      return box;
    }
    if (d.truncated && d.cut !== null && d.prediction.indexOf(d.cut) === 0) {
      add(box, d.cut);
      var rest = el("span", "cutoff", d.prediction.slice(d.cut.length));
      rest.title = "cut before scoring (first 75 tokens kept)";
      box.appendChild(rest);
    } else {
      add(box, d.prediction);
    }
    return box;
  }

  function runTabs(id, current) {
    if (runs.length < 2) { return null; }
    var wrap = el("div", "controls");
    runs.forEach(function (run, k) {
      var row = byId[k].get(id);
      var b = el("button", null, run.name + ": ");
      b.appendChild(badge(row ? row[C.label] : null));
      b.disabled = !row || k === current;
      b.addEventListener("click", function () { open(k, id); });
      wrap.appendChild(b);
    });
    return wrap;
  }

  function diagnosisSection(g) {
    add(body, section("Diagnosis"));
    var info = categories.get(g.category);
    var head = el("div");
    add(head, catChip(g.category), " ", el("span", "muted", info ? info[1] : ""));
    body.appendChild(head);
    var supported = yesNo(g.supported, "not judged");
    if (g.probability !== null && g.probability !== undefined) {
      supported += " (probability " + g.probability.toFixed(3) + ")";
    }
    add(body, kvTable([
      ["answer in the pages", yesNo(g.in_pages, "unknown (no pages, or an answer no text can attest)")],
      ["answer in the evidence", yesNo(g.in_evidence, "unknown")],
      ["evidence supports the answer", supported],
      ["evidence chunks", g.chunks],
      ["false premise", g.false_premise ? "yes" : null],
      ["note", g.note]
    ]));
  }

  function open(runIndex, id) {
    var row = byId[runIndex].get(id);
    if (!row) { return; }
    var d = getDetails()[runIndex][row[C.i]];
    state.openId = id;
    tbody.querySelectorAll("tr").forEach(function (t) {
      t.classList.toggle("open", t.dataset.id === id);
    });
    body.replaceChildren();
    var head = el("div");
    add(head, badge(d.label), " ", el("span", "mono", d.id));
    if (runs.length > 1) { add(head, " ", el("span", "muted", "in " + runs[runIndex].name)); }
    add(body, head, runTabs(id, runIndex), el("div", "query", d.query));
    var labels = d.labels || {};
    add(body, kvTable([
      ["query time", d.query_time || "not recorded"],
      ["domain", labels.domain], ["question type", labels.question_type],
      ["dynamism", labels.static_or_dynamic], ["popularity", labels.popularity]
    ]));

    add(body, section("Gold answer"));
    add(body, el("div", "box", d.gold === null ? "(none)" : d.gold));
    if (d.alternatives.length) {
      add(body, el("div", "muted", "alternative answers"));
      var ul = el("ul");
      d.alternatives.forEach(function (a) { ul.appendChild(el("li", null, a)); });
      body.appendChild(ul);
    }

    add(body, section("Prediction"));
    add(body, predictionBox(d));
    if (d.truncated) {
      add(body, el("div", "muted", "struck-through text was cut before scoring (75-token limit)"));
    }
    var verdict = el("span");
    add(verdict, badge(d.label));
    add(body, kvTable([
      ["label", verdict],
      ["settled by", d.rule ? "rule: " + d.rule : (d.votes.length ? "judges" : null)],
      ["rule detail", d.rule_detail],
      ["approximate", d.approximate ? "yes: rules only, no judge looked at it" : null],
      ["judge agreement", d.agreement === null ? null : Math.round(d.agreement * 100) + "%"],
      ["unscored because", d.unscored_reason],
      ["refused", d.refused === null ? null : (d.refused ? "yes" : "no")],
      ["confidence", d.confidence === undefined ? null : d.confidence.toFixed(3)],
      ["raw answer", d.raw_answer],
      ["raw answer's label", d.raw_label ? badge(d.raw_label) : null],
      ["missing because", d.missing_reason],
      ["error", d.error]
    ]));

    if (d.diagnosis) { diagnosisSection(d.diagnosis); }

    if (d.votes.length) {
      add(body, section("Judges"));
      d.votes.forEach(function (v) {
        var box = el("div", "vote");
        var title = el("div");
        add(title, el("b", null, v.judge || "judge"), " ", el("span", "muted", v.model || ""), " → ",
            badge(v.verdict === "correct" ? "correct" : (v.verdict === "incorrect" ? "incorrect" : "unscored")));
        box.appendChild(title);
        if (v.error) { box.appendChild(el("div", "neg", v.error)); }
        v.checks.forEach(function (c) {
          var t = kvTable([["gold", c.gold], ["verdict", c.verdict || "none"],
                           ["rationale", c.rationale], ["error", c.error]]);
          box.appendChild(t);
        });
        body.appendChild(box);
      });
    }

    add(body, section("Retrieved chunks (" + d.chunks.length + ")"));
    if (!d.chunks.length) { add(body, el("div", "muted", "none recorded")); }
    if (d.chunks.length) {
      var legend = el("div", "legend");
      add(legend, el("mark", "gold", "gold answer"), el("mark", "pred", "prediction"));
      body.appendChild(legend);
    }
    d.chunks.forEach(function (c, k) {
      var box = el("div", "chunk");
      var meta = "#" + (k + 1) + (c.score === null ? "" : " · score " + c.score.toFixed(3)) +
        (c.doc === null ? "" : " · doc " + c.doc) + (c.source ? " · " + c.source : "") +
        (c.chunk_id ? " · " + c.chunk_id : "");
      box.appendChild(el("div", "meta", meta));
      if (c.before) { box.appendChild(el("div", "meta", "… " + c.before.toLocaleString("en") + " characters before")); }
      box.appendChild(markedText(c.text, c.spans));
      if (c.after) { box.appendChild(el("div", "meta", "… " + c.after.toLocaleString("en") + " characters after")); }
      body.appendChild(box);
    });
    if (d.trust.length) {
      add(body, section("Trust-Score"));
      add(body, kvTable(d.trust));
    }

    if (d.citations.length) {
      add(body, section("Citations"));
      var cl = el("ol");
      d.citations.forEach(function (docs) {
        // Name the cited documents by the retrieved chunks that came from them.
        var names = docs.map(function (x) {
          var c = d.chunks.find(function (ch) { return ch.doc === x; });
          return "[" + x + "]" + (c && c.source ? " " + c.source : "");
        });
        cl.appendChild(el("li", null, docs.length ? "cites " + names.join("; ") : "no citation"));
      });
      body.appendChild(cl);
    }

    add(body, section("Latency and tokens"));
    var st = el("table");
    var hr = el("tr");
    add(hr, el("th", null, "stage"), el("th", "num", "time"), el("th", "num", "prompt tokens"),
        el("th", "num", "completion tokens"));
    st.appendChild(hr);
    d.stages.forEach(function (s) {
      var tr = el("tr");
      add(tr, el("td", null, s[0]), el("td", "num", fmtSecs(s[1])), el("td", "num", s[2]),
          el("td", "num", s[3]));
      st.appendChild(tr);
    });
    var tot = el("tr");
    add(tot, el("td", null, "whole question"), el("td", "num", fmtSecs(d.seconds)), el("td"), el("td"));
    st.appendChild(tot);
    body.appendChild(st);

    panel.hidden = false;
    panel.scrollTop = 0;
  }

  render();
})();
