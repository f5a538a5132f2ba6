// The analysis board: a game as a tree of moves (the main line and its variations), stepped
// through with the mouse or the arrow keys, reviewed against the solver, shared by its URL,
// exported and imported as a record, continued against any agent. Everything goes through the
// JSON API (/api/board, /api/step, /api/records/*, /api/review, /api/games).
"use strict";

// ctx: the page's helpers (api, el, toast, renderBoard, extraInfo, common, agentsFor, fitBoard, showLegend)
const SOLVE_DEBOUNCE_MS = 250;  // the pause after the last step before its position is analysed

export function setupAnalysis(ctx) {
  const { api, el, toast } = ctx;
  const $ = (id) => document.getElementById(id);

  // a node: {move, label, player, position, to_move, result, view, children, parent, comment, nags, review}
  const node = (fields, parent) => ({ children: [], parent: parent || null, view: null, ...fields });

  const an = {
    game: null, name: "", start: null, root: null, current: null, review: null, turn: 0,
    tags: {}, first: "?", second: "?", overlay: null, shown: null,
    path() { const out = []; for (let n = this.current; n && n.parent; n = n.parent) out.unshift(n); return out; },
    ply(n) { let k = 0; for (let m = n || this.current; m && m.parent; m = m.parent) k++; return k; },
    mainLine() { const out = []; let n = this.root; while (n && n.children.length) { n = n.children[0]; out.push(n); } return out; },
  };

  // -- loading ---------------------------------------------------------------------------------

  function fromRecord(doc) {
    an.game = doc.game;
    an.name = doc.name || doc.game;
    an.start = doc.start_position;
    an.startGiven = doc.start !== null && doc.start !== undefined;  // not the game's own start
    an.tags = doc.tags || {};
    an.first = doc.first || "?";
    an.second = doc.second || "?";
    an.review = null;
    an.root = node({ position: doc.start_position, move: null }, null);
    const grow = (parent, moves) => {
      let at = parent;
      for (const m of moves) {
        const child = node({ move: m.move, label: m.label, player: m.player, position: m.position, comment: m.comment, nags: m.nags || [] }, at);
        at.children.push(child);
        // a move's variations are alternatives to it, from the position before it
        for (const v of m.variations || []) grow(at, v.moves);
        at = child;
      }
    };
    grow(an.root, doc.moves || []);
    // variations were pushed after their main move only when they came first: keep the main line first
    an.current = an.root;
  }

  async function loadLine(spec, start, moves, at) {
    const doc = await api("/api/records/write", { record: { game: spec, start: start || null, moves } });
    fromRecord(doc);
    const main = an.mainLine();
    an.current = at === undefined || at === null ? (main.length ? main[main.length - 1] : an.root) : (at === 0 ? an.root : main[Math.min(at, main.length) - 1]);
    await show();
  }

  async function loadRecordText(text) {
    const doc = await api("/api/records/read", { text });
    fromRecord(doc.games[0]);
    const main = an.mainLine();
    an.current = main.length ? main[main.length - 1] : an.root;
    await show();
    return doc.games.length;
  }

  // -- the record of the tree --------------------------------------------------------------------

  function lineOf(first) {
    // the line that starts with `first` and follows the main continuation; variations of each move
    const moves = [];
    let n = first;
    while (n) {
      const siblings = n.parent.children;
      const entry = { move: n.move, comment: n.comment || null, nags: n.nags || [], variations: [] };
      if (siblings[0] === n) for (const alt of siblings.slice(1)) entry.variations.push({ moves: lineOf(alt), comment: null });
      moves.push(entry);
      n = n.children[0];
    }
    return moves;
  }

  function recordDoc() {
    const tags = { ...an.tags };
    return {
      game: an.game, start: an.start, first: an.first, second: an.second, tags,
      moves: an.root.children.length ? lineOf(an.root.children[0]) : [],
    };
  }

  // -- drawing ---------------------------------------------------------------------------------

  async function viewOf(n) {
    if (!n.view) {
      const last = n.move;
      const data = await api("/api/board", { game: an.game, position: n.position, last });
      n.view = data.view;
      n.to_move = data.to_move;
      n.result = data.result;
    }
    return n.view;
  }

  // the solver runs by itself at every move only on boards it can answer quickly (Solve asks anywhere)
  const AUTO_SOLVE_CELLS = 64;
  const cellsOf = (view) => view.panels.reduce((n, p) => n + p.cells.reduce((m, row) => m + row.filter(Boolean).length, 0), 0);

  let showing = 0;
  async function show() {
    const token = ++showing;
    const n = an.current;
    const view = await viewOf(n);
    if (token !== showing) return;
    ctx.renderBoard($("an-board"), view, {
      onSlot: (key) => playAt({ key }),
      turn: an.turn,
      evaluation: an.overlay && an.overlay.node === n ? an.overlay.evaluation : null,
      hint: an.overlay && an.overlay.node === n ? an.overlay.evaluation.best : null,
    });
    ctx.extraInfo($("an-extra"), view, n, null);
    const ply = an.ply(n);
    const who = n.result ? `over: ${n.result}` : `${n.to_move} to move`;
    $("an-status").textContent = `${an.name} · ${ply ? `after ${ply}. ${n.move}` : "start"} · ${who}`;
    drawMoves();
    drawGraph();
    writeUrl();
    $("an-verdict").textContent = "";
    $("an-pv").textContent = "";
    $("an-moves").replaceChildren();
    $("an-cost").textContent = "";
    $("an-continue").disabled = Boolean(n.result);
    an.shown = n;  // the board, the status and the list now show `n` (tests wait for this)
    if (an.overlay && an.overlay.node === n) showVerdict(an.overlay.analysis, an.overlay.view);
    else if ($("an-auto").checked && cellsOf(view) <= AUTO_SOLVE_CELLS) solveSoon(n);
  }

  // stepping through a game with the arrow keys asks for one analysis: of the position it stops at
  let solveTimer = null;
  function solveSoon(n) {
    clearTimeout(solveTimer);
    solveTimer = setTimeout(() => { if (an.current === n) solve(); }, SOLVE_DEBOUNCE_MS);
  }

  function mark(n) {
    const r = n.review;
    if (!r || !r.class || r.class === "best") return null;
    return el("span", { class: "mark " + r.class, title: `${r.class}: ${r.after ? r.after.text : "?"} (was ${r.before ? r.before.text : "?"}); best ${r.best.join(", ")}`, text: r.class === "mistake" ? "?" : "?!" });
  }

  function moveButton(n, ply) {
    const cls = "mv" + (n === an.current ? " current" : "");
    return el("button", { class: cls, "data-ply": ply, title: `${n.label} played ${n.move}`, onclick: () => go(n) },
      el("span", { class: "who mark-" + (n.label === "o" ? "o" : "x"), text: n.label }), " ", n.move, mark(n));
  }

  function drawLine(container, first, depth) {
    let n = first;
    while (n) {
      const ply = an.ply(n);
      const row = el("div", { class: "move-row", "data-depth": depth }, el("span", { class: "num", text: `${ply}.` }), moveButton(n, ply));
      if (n.comment) row.append(el("span", { class: "comment", text: n.comment }));
      container.append(row);
      const siblings = n.parent.children;
      if (siblings[0] === n && siblings.length > 1) {
        for (const alt of siblings.slice(1)) {
          const box = el("div", { class: "variation" });
          drawLine(box, alt, depth + 1);
          container.append(box);
        }
      }
      n = n.children[0];
    }
  }

  function drawMoves() {
    const list = $("an-tree");
    list.replaceChildren();
    if (an.root.children.length) drawLine(list, an.root.children[0], 0);
    else list.append(el("p", { class: "hint-text", text: "No moves yet: click the board or type a move." }));
    const current = list.querySelector(".mv.current");
    if (current) {  // keep the current move in view inside the list (never scroll the page)
      const top = current.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 24) list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  // the evaluation graph: one point per position of the main line, from x's side (+1 x wins)
  function drawGraph() {
    const svg = $("an-graph");
    const r = an.review;
    svg.replaceChildren();
    $("an-graph-card").hidden = !r;
    if (!r) return;
    const W = 600, H = 150, pad = 8;
    const n = r.positions.length;
    const px = (k) => pad + (n <= 1 ? 0 : (k * (W - 2 * pad)) / (n - 1));
    const py = (v) => H / 2 - v * (H / 2 - pad);
    const ns = "http://www.w3.org/2000/svg";
    const mk = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.append(mk("rect", { x: 0, y: 0, width: W, height: H / 2, class: "g-x" }), mk("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "g-o" }));
    svg.append(mk("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "g-axis" }));
    const pts = r.positions.map((p, k) => (p.value ? [px(k), py(p.value.eval)] : null));
    let d = "";
    pts.forEach((p) => { if (p) d += (d ? " L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1); });
    if (d) svg.append(mk("path", { d, class: "g-line" }));
    const at = an.ply();
    const main = an.mainLine();
    const onMain = an.current === an.root || main.includes(an.current);
    pts.forEach((p, k) => {
      if (!p) return;
      const move = k > 0 ? r.moves[k - 1] : null;
      const cls = "g-point" + (move && move.class && move.class !== "best" ? " " + move.class : "") + (onMain && k === at ? " here" : "");
      const dot = mk("circle", { cx: p[0], cy: p[1], r: onMain && k === at ? 6 : 4.5, class: cls, "data-ply": k, tabindex: "-1" });
      const title = mk("title", {});
      const value = r.positions[k].value;
      title.textContent = (k ? `${k}. ${move.label} ${move.move}${move.class ? " (" + move.class + ")" : ""}: ` : "start: ") + (value ? value.text : "?");
      dot.append(title);
      dot.addEventListener("click", () => go(k === 0 ? an.root : main[k - 1]));
      svg.append(dot);
    });
  }

  function showVerdict(analysis, view) {
    ctx.showLegend($("an-eval-legend"), view ? view.grades : null);
    if (!analysis || !analysis.solved) {
      $("an-verdict").textContent = analysis ? (view ? `Not solved. The engine's view: ${view.describe}` : "Not solved") : "";
      $("an-cost").textContent = analysis ? analysis.reason + (view ? `; the engine's view took ${view.seconds.toFixed(2)} s` : "") : "";
      $("an-pv").textContent = analysis ? "none proven (not solved)" : "";
      if (view) {  // the engine's best moves, in words (W7 / L12: proven; +0.42: an estimate for the mover)
        $("an-moves").replaceChildren(
          el("tr", {}, el("th", { text: "move" }), el("th", { text: "engine" }), el("th", { text: "what it says" })),
          ...view.moves.slice(0, 10).map((m) => el("tr", {}, el("td", { text: m.move }), el("td", { class: "g-text-" + m.grade, text: m.label }), el("td", { text: m.describe }))),
        );
      }
      return;
    }
    const ev = analysis.evaluation, sv = analysis.solve;
    $("an-verdict").textContent = `With perfect play: ${ev.describe}`;
    // no line: the game is over, or the engine (the Breaker prover, the quotient) proves values only
    $("an-pv").textContent = sv.pv.join(" ") || (ev.moves.length ? `none: the ${sv.engine} engine proves the value without a line` : "(the game is over)");
    $("an-moves").replaceChildren(
      el("tr", {}, el("th", { text: "move" }), el("th", { text: "for the mover" }), el("th", { text: "plies" }), el("th", { text: "result" })),
      ...ev.moves.map((m) => el("tr", {}, el("td", { text: m.move }), el("td", { class: "t-" + m.verdict, text: m.verdict }), el("td", { text: m.plies === null ? "?" : m.plies }), el("td", { text: m.describe }))),
    );
    $("an-cost").textContent = sv.nodes > 0
      ? `${sv.nodes.toLocaleString()} positions searched in ${sv.seconds < 0.01 ? "under a hundredth of a second" : `${sv.seconds.toFixed(2)} s`}`
      : "";  // known without a search (the game's end, a table): nothing to report
  }

  async function solve() {
    const n = an.current;
    $("an-verdict").textContent = "solving…";
    try {
      const analysis = await api("/api/analyse", { game: an.game, position: n.position, max_seconds: Number($("an-budget").value) });
      if (an.current !== n) return;
      let view = null;
      if (!analysis.solved && !n.result) {  // the engine's view instead (claim games; others have none)
        $("an-verdict").textContent = "not solved: asking the engine…";
        try { view = await api("/api/evaluate", { game: an.game, position: n.position }); } catch (e) { view = null; }
        if (an.current !== n) return;
      }
      const evaluation = analysis.solved ? analysis.evaluation : view;
      an.overlay = evaluation ? { node: n, evaluation, analysis, view } : null;
      if (evaluation) {
        ctx.renderBoard($("an-board"), n.view, { onSlot: (key) => playAt({ key }), turn: an.turn, evaluation, hint: evaluation.best });
      }
      showVerdict(analysis, view);
    } catch (e) { $("an-verdict").textContent = ""; toast(e.message); }
  }

  // -- moving around ---------------------------------------------------------------------------

  async function go(n) {
    if (!n) return;
    an.current = n;
    await show();
  }

  // a move from the current node: an existing child if there is one, else a new branch
  async function playAt(body) {
    const from = an.current;
    if (from.result) { toast(`The game is over here (${from.result}).`); return false; }
    try {
      const step = await api("/api/step", { game: an.game, position: from.position, ...body });
      let child = from.children.find((c) => c.move === step.move);
      if (!child) {
        child = node({ move: step.move, label: step.label, player: step.player, position: step.position, to_move: step.to_move, result: step.result, view: step.view, nags: [] }, from);
        from.children.push(child);
        if (an.mainLine().includes(child)) an.review = null;  // the main line grew: its graph is out of date
      }
      await go(child);
      return true;
    } catch (e) { toast(e.message); return false; }
  }

  const stepBack = () => go(an.current.parent);
  const stepForward = () => go(an.current.children[0]);
  const toStart = () => go(an.root);
  const toEnd = () => { let n = an.current; while (n.children.length) n = n.children[0]; return go(n); };

  // promote the current variation to be the main line at its branch point
  function promote() {
    let n = an.current;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    if (!n.parent) return;
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
    an.review = null;
    show();
  }

  function removeVariation() {
    const n = an.current;
    if (!n.parent) return;
    const siblings = n.parent.children;
    if (siblings[0] === n) an.review = null;  // a main line changed: its review is out of date
    siblings.splice(siblings.indexOf(n), 1);
    go(n.parent);
  }

  // -- the URL: the game, its start, the line through the current position, and where we are --

  let writing = false;
  function writeUrl() {
    const path = an.path();
    let n = an.current;
    const line = path.map((m) => m.move);
    while (n.children.length) { n = n.children[0]; line.push(n.move); }
    const q = new URLSearchParams();
    q.set("game", an.game);
    if (an.startGiven) q.set("start", an.start);
    if (line.length) q.set("moves", line.join(" "));
    q.set("ply", String(path.length));
    const hash = "#/analyse?" + q.toString();
    if (location.hash !== hash) { writing = true; history.replaceState(null, "", hash); writing = false; }
  }

  async function readUrl(query) {
    const q = new URLSearchParams(query);
    if (/^\d+$/.test(q.get("record") || "")) {  // a stored game, by its id (the Games page's links)
      try {
        fromRecord(await api(`/api/games/${q.get("record")}/record`));
        const main = an.mainLine();
        an.current = main.length ? main[main.length - 1] : an.root;
        await show();
      } catch (e) { toast(e.message); }
      return true;
    }
    const spec = q.get("game");
    if (!spec) return false;
    const moves = (q.get("moves") || "").split(" ").map((m) => m.trim()).filter(Boolean);
    const ply = q.has("ply") ? Number(q.get("ply")) : moves.length;
    if (an.root && an.game === spec && an.start === (q.get("start") || an.start) && an.path().map((m) => m.move).join(" ") === moves.slice(0, ply).join(" ")) return true;
    try {
      await loadLine(spec, q.get("start"), moves, ply);
      writeUrl();
    } catch (e) { toast(e.message); }
    return true;
  }

  // -- review, records, continue ------------------------------------------------------------------

  async function runReview() {
    const doc = recordDoc();
    $("an-review-note").textContent = "Reviewing…";
    try {
      const r = await api("/api/review", { record: doc, max_seconds: Number($("an-review-budget").value) });
      an.review = r;
      const main = an.mainLine();
      r.moves.forEach((m, i) => { if (main[i]) main[i].review = m; });
      const acc = (p) => (p.accuracy === null ? "—" : `${Math.round(100 * p.accuracy)}%`);
      $("an-accuracy").replaceChildren(
        el("tr", {}, ...[["", ""], ["accuracy", "share of best moves"], ["best", "best moves"], ["?!", "inaccuracies"], ["?", "mistakes"]].map(([h, t]) => el("th", { text: h, title: t }))),
        ...["first", "second"].map((k) => {
          const p = r.players[k];
          return el("tr", { "data-player": k }, el("td", {}, el("b", { class: "mark-" + (p.label === "o" ? "o" : "x"), text: p.label }), p.name && p.name !== "?" ? " " + p.name : ""),
            el("td", { class: "accuracy", text: acc(p) }), el("td", { text: p.best }), el("td", { text: p.inaccuracies }), el("td", { text: p.mistakes }));
        }),
      );
      const est = r.moves.some((m) => m.class && !m.exact);
      $("an-review-note").textContent = (r.complete ? `Reviewed ${r.reviewed} moves` : `Stopped: ${r.stopped}`)
        + ` with ${r.engine || "no exact engine"}` + (est ? `; moves marked (estimate) were judged by ${r.estimator}` : "") + ` in ${r.seconds.toFixed(2)} s.`;
      show();
    } catch (e) { $("an-review-note").textContent = ""; toast(e.message); }
  }

  async function exportRecord(asJson) {
    try {
      const out = await api("/api/records/write", { record: recordDoc(), as_json: asJson });
      $("an-record").value = out.text;
      const blob = new Blob([out.text], { type: asJson ? "application/json" : "text/plain" });
      const link = $("an-download");
      if (link.href && link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
      link.href = URL.createObjectURL(blob);
      link.download = `${an.game.replace(/[^A-Za-z0-9_-]+/g, "_")}.${asJson ? "json" : "ntr"}`;
      link.hidden = false;
      return out.text;
    } catch (e) { toast(e.message); return null; }
  }

  async function importRecord() {
    const text = $("an-record").value;
    if (!text.trim()) { toast("Paste a record first (or choose a file)."); return; }
    try {
      const games = await loadRecordText(text);
      $("an-record-note").textContent = games > 1 ? `The record holds ${games} games: the first is on the board.` : "Record read.";
    } catch (e) { $("an-record-note").textContent = e.message; }
  }

  async function continueHere() {
    const n = an.current;
    if (n.result) { toast("The game is over here."); return; }
    const side = $("an-side").value;
    const agent = $("an-opponent").value;
    const x = side === "x" ? "human" : agent;
    const o = side === "o" ? "human" : agent;
    try {
      const state = await api("/api/games", { game: an.game, x, o, position: n.position });
      ctx.tokens.set(state.id, state.token);
      location.hash = `#/play/${state.id}`;  // the token stays in this browser
    } catch (e) { toast(e.message); }
  }

  async function fillOpponents() {
    if (!an.game) return;
    const agents = (await ctx.agentsFor(an.game)).filter((a) => a.spec !== "human");
    const before = $("an-opponent").value;
    $("an-opponent").replaceChildren(...agents.map((a) => el("option", { value: a.spec, text: a.name, title: a.note })));
    if (agents.some((a) => a.spec === before)) $("an-opponent").value = before;
    else if (agents.some((a) => a.spec === "perfect")) $("an-opponent").value = "perfect";
  }

  // -- wiring ----------------------------------------------------------------------------------

  $("an-run").addEventListener("click", async () => {
    const spec = $("an-spec").value.trim();
    const position = $("an-position").value.trim() || null;
    try {
      await loadLine(spec, position, [], 0);
      writeUrl();
      fillOpponents();
      solve();
    } catch (e) { toast(e.message); }
  });
  $("an-solve").addEventListener("click", () => solve());
  $("an-first").addEventListener("click", toStart);
  $("an-prev").addEventListener("click", stepBack);
  $("an-next").addEventListener("click", stepForward);
  $("an-last").addEventListener("click", toEnd);
  $("an-flip").addEventListener("click", () => { an.turn = (an.turn + 2) % 4; show(); });
  $("an-rotate").addEventListener("click", () => { an.turn = (an.turn + 1) % 4; show(); });
  $("an-promote").addEventListener("click", promote);
  $("an-delete").addEventListener("click", removeVariation);
  $("an-review").addEventListener("click", runReview);
  $("an-export").addEventListener("click", () => exportRecord(false));
  $("an-export-json").addEventListener("click", () => exportRecord(true));
  $("an-import").addEventListener("click", importRecord);
  $("an-save").addEventListener("click", async () => {
    try {
      const out = await api("/api/records/import", { text: (await exportRecord(false)) || "" });
      for (const [id, token] of Object.entries(out.tokens || {})) ctx.tokens.set(id, token);  // yours to play on
      $("an-record-note").textContent = `Saved to the store as game ${out.ids.join(", ")} (see Games).`;
    } catch (e) { toast(e.message); }
  });
  $("an-file").addEventListener("change", async () => {
    const file = $("an-file").files[0];
    if (!file) return;
    $("an-record").value = await file.text();
    importRecord();
  });
  $("an-continue").addEventListener("click", continueHere);
  $("an-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("an-move").value.trim();
    if (!text) return;
    if (await playAt({ move: text })) $("an-move").value = "";
    else $("an-move").select();
  });
  $("an-move").addEventListener("keydown", (event) => { if (event.key === "Escape") $("an-move").blur(); });

  // arrows step through the game (unless the focus is in a box or on the board, whose arrows move
  // between cells); a key that can start a move goes to the move box
  document.addEventListener("keydown", (event) => {
    if (ctx.currentPage() !== "analyse" || !an.root) return;
    if (event.target.closest("input, select, textarea")) return;
    if (event.ctrlKey || event.metaKey) return;
    const onBoard = event.target.closest("#an-board");
    const keys = { ArrowLeft: stepBack, ArrowRight: stepForward, Home: toStart, End: toEnd };
    if (keys[event.key] && !onBoard && !event.altKey) { event.preventDefault(); keys[event.key](); return; }
    if (event.altKey || event.key.length !== 1) return;
    if (ctx.startsMove(an.current.view, event.key)) { $("an-move").focus(); return; }
    if (event.key === "f") { event.preventDefault(); an.turn = (an.turn + 2) % 4; show(); }
  });

  window.addEventListener("resize", () => { if (ctx.currentPage() === "analyse" && an.current) show(); });

  return {
    state: an,
    loadLine: async (spec, start, moves, at) => { await loadLine(spec, start, moves, at); writeUrl(); fillOpponents(); },
    readUrl: async (query) => { const ok = await readUrl(query); fillOpponents(); return ok; },
    isWriting: () => writing,
    review: runReview,
    exportRecord,
    go,
  };
}
