// The Neural page: training runs graded while they learn, and a network's view of a position beside
// the exact values (web/neural.py serves it). Uses the arena's helpers (window.arena, app.js).
const arena = window.arena;
const { api, el, toast } = arena;
const $ = (id) => document.getElementById(id);

const state = { runs: [], agents: [], selected: null, timer: null };

function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }

// -- runs and their curves ------------------------------------------------------------------------

async function loadRuns() {
  const doc = await api("/api/neural/runs");
  state.runs = doc.runs;
  state.agents = doc.agents;
  const table = $("nn-runs");
  const head = el("tr", {}, ...["run", "learner", "game", "status", "grades", "last rate", "best rate"].map((t) => el("th", { text: t })));
  const rows = doc.runs.map((r) => el("tr", {
    class: r.id === state.selected ? "selected" : "", "data-run": r.id, tabindex: "0",
    onclick: () => selectRun(r.id), onkeydown: (e) => { if (e.key === "Enter") selectRun(r.id); },
  }, ...[String(r.id), r.learner, r.game || "", r.status, String(r.grades),
    pct(r.last && r.last.optimal_move_rate), pct(r.best && r.best.optimal_move_rate)].map((t) => el("td", { text: t }))));
  table.replaceChildren(head, ...rows);
  $("nn-runs-note").textContent = doc.runs.length ? "Click a run to see its grades over time." :
    "No neural training run in this arena's store yet: noughts train az SPEC --out FILE --db STORE records one.";
  const select = $("nn-agent");
  const before = select.value;
  select.replaceChildren(...doc.agents.map((a) => el("option", { value: "saved:" + a.name, text: `${a.name} (${a.kind}, ${a.game || "?"})`, "data-game": a.game || "" })));
  if (before && doc.agents.some((a) => "saved:" + a.name === before)) select.value = before;
  agentChanged();
}

async function selectRun(id) {
  state.selected = id;
  for (const tr of document.querySelectorAll("#nn-runs tr[data-run]")) tr.classList.toggle("selected", Number(tr.dataset.run) === id);
  await refreshRun();
}

async function refreshRun() {
  clearTimeout(state.timer);
  if (state.selected === null) return;
  const run = await api(`/api/neural/runs/${state.selected}`);
  drawCurve($("nn-curve"), run.curve);
  const last = run.last;
  $("nn-curve-note").textContent = last
    ? `${run.learner} on ${run.game}, ${run.status}: ${run.grades} grades; latest after ${last.games.toLocaleString()} games ` +
      `(${last.seconds.toFixed(0)} s): optimal-move rate ${pct(last.optimal_move_rate)} on ${last.positions} positions ` +
      `(random ${pct(last.random_rate)}); against the perfect player as first ${last.first_wins}/${last.first_draws}/${last.first_losses}, ` +
      `as second ${last.second_wins}/${last.second_draws}/${last.second_losses} (W/D/L)`
    : `${run.learner} on ${run.game}, ${run.status}: no grade yet`;
  $("nn-curve").dataset.points = String(run.curve.length);
  if (run.status === "running" && location.hash.startsWith("#/neural")) state.timer = setTimeout(() => refreshRun().catch((e) => toast(e.message)), 5000);
}

function drawCurve(canvas, curve) {
  const ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, pad = 36;
  ctx.clearRect(0, 0, w, h);
  ctx.font = "11px sans-serif";
  ctx.strokeStyle = "#999";
  ctx.strokeRect(pad, 8, w - pad - 8, h - pad - 8);
  if (!curve.length) return;
  const maxGames = Math.max(1, ...curve.map((r) => r.games));
  const low = Math.min(0.5, ...curve.map((r) => Math.min(r.optimal_move_rate, r.random_rate)));
  const x = (g) => pad + (w - pad - 8) * (g / maxGames);
  const y = (v) => 8 + (h - pad - 8) * (1 - (v - low) / (1 - low));
  ctx.fillStyle = "#666";
  for (const v of [low, (low + 1) / 2, 1]) ctx.fillText(v.toFixed(2), 2, y(v) + 4);
  ctx.fillText(`${maxGames.toLocaleString()} games`, w - 90, h - 8);
  ctx.setLineDash([4, 4]);
  ctx.strokeStyle = "#888";
  ctx.beginPath();
  curve.forEach((r, i) => (i ? ctx.lineTo(x(r.games), y(r.random_rate)) : ctx.moveTo(x(r.games), y(r.random_rate))));
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.strokeStyle = "#2563eb";
  ctx.lineWidth = 2;
  ctx.beginPath();
  curve.forEach((r, i) => (i ? ctx.lineTo(x(r.games), y(r.optimal_move_rate)) : ctx.moveTo(x(r.games), y(r.optimal_move_rate))));
  ctx.stroke();
  ctx.lineWidth = 1;
  for (const r of curve) { ctx.fillStyle = "#2563eb"; ctx.fillRect(x(r.games) - 2, y(r.optimal_move_rate) - 2, 4, 4); }
}

// -- a network's view of a position beside the exact values -------------------------------------

function agentChanged() {
  const option = $("nn-agent").selectedOptions[0];
  if (option && option.dataset.game) $("nn-game").value = option.dataset.game;
}

async function explain() {
  const agent = $("nn-agent").value;
  if (!agent) { toast("No saved checkpoint: train one with noughts train az|dqn (it registers its best)"); return; }
  const body = { agent, game: $("nn-game").value.trim(), position: $("nn-position").value.trim() || null, max_seconds: 2 };
  $("nn-view-note").textContent = "asking the network and the solver ...";
  const doc = await api("/api/neural/explain", body);
  renderView(doc);
}

function heatmap(board, cellsOf, title) {
  const wrap = el("figure", { class: "nn-map" }, el("figcaption", { text: title }));
  for (const panel of board.panels) {
    const cols = panel.cells[0].length;
    const grid = el("div", { class: "nn-grid", style: `grid-template-columns: repeat(${cols}, 2.6em)` });
    for (const row of panel.cells) {
      for (const cell of row) {
        if (cell === null) { grid.append(el("div", { class: "nn-cell hole" })); continue; }
        grid.append(cellsOf(cell));
      }
    }
    if (panel.title) wrap.append(el("div", { class: "nn-panel-title", text: panel.title }));
    wrap.append(grid);
  }
  return wrap;
}

function renderView(doc) {
  const net = doc.network;
  const exact = doc.exact;
  const byKey = new Map(doc.board.moves.filter((m) => m.key !== null).map((m) => [m.key, m.move]));
  const netMoves = new Map(net.moves.map((m) => [m.move, m]));
  const exactMoves = new Map();
  if (exact.solved) for (const m of exact.evaluation.moves) exactMoves.set(m.move, m);
  // a grid cell holds one slot (its key and mark); Otrio's rings are not a network's game
  const slot = (cell) => (cell.slots && cell.slots.length ? cell.slots[0] : { key: cell.key, mark: cell.mark });
  const mark = (cell) => { const m = slot(cell).mark; return m && m !== "." ? m : ""; };
  const score = (m) => (net.kind === "dqn" ? m.q : m.prior);
  const what = net.kind === "dqn" ? "action value (Q)" : "prior";
  const netMap = heatmap(doc.board, (cell) => {
    const m = netMoves.get(byKey.get(slot(cell).key));
    if (!m) return el("div", { class: "nn-cell taken", text: mark(cell), title: cell.name });
    const v = score(m);
    const strength = net.kind === "dqn" ? (v + 1) / 2 : Math.sqrt(v);
    const text = net.kind === "dqn" ? v.toFixed(2) : Math.round(100 * v) + "";
    const chosen = m.move === net.move ? " chosen" : "";
    return el("div", { class: "nn-cell net" + chosen, style: `background-color: rgba(37, 99, 235, ${strength.toFixed(3)})`,
      text, title: `${cell.name}: ${what} ${v}`, "data-move": m.move, "data-score": String(v) });
  }, `The network: ${what}${net.kind === "dqn" ? "" : " in %"}; its value ${net.value.toFixed(2)} (outlined: its move ${net.move})`);
  const exactMap = heatmap(doc.board, (cell) => {
    const move = byKey.get(slot(cell).key);
    const m = move === undefined ? null : exactMoves.get(move);
    if (!m) return el("div", { class: "nn-cell taken", text: move === undefined ? mark(cell) : "?", title: cell.name });
    const letter = { win: "W", draw: "D", loss: "L" }[m.verdict] || "?";
    return el("div", { class: `nn-cell exact v-${m.verdict}`, text: letter + (m.plies ? m.plies : ""),
      title: `${cell.name}: ${m.describe || m.verdict}`, "data-move": move, "data-verdict": m.verdict });
  }, exact.solved ? `The truth: every move's exact value for the mover (${exact.evaluation.describe})` : "The truth: not solved in time");
  $("nn-maps").replaceChildren(netMap, exactMap);
  const verdict = exact.solved && exactMoves.get(net.move) ? exactMoves.get(net.move).verdict : null;
  const best = exact.solved ? exact.evaluation.verdict : null;
  $("nn-view-note").textContent = !exact.solved ? `The solver did not finish: ${exact.reason}` :
    `The network plays ${net.move}: ${verdict === best ? "it keeps the value (" + best + ")" : `a blunder: ${best} thrown to ${verdict}`}.`;
  $("nn-maps").dataset.ready = "1";
}

function playAgainst() {
  const agent = $("nn-agent").value;
  if (!agent) return;
  $("play-spec").value = $("nn-game").value.trim();
  $("play-o").dataset.touched = "";
  location.hash = "#/play";
  arena.fillAgents($("play-spec").closest(".card"), agent).catch((e) => toast(e.message));
}

function setup() {
  $("nn-refresh").addEventListener("click", () => loadRuns().catch((e) => toast(e.message)));
  $("nn-agent").addEventListener("change", agentChanged);
  $("nn-explain").addEventListener("click", () => explain().catch((e) => { $("nn-view-note").textContent = e.message; toast(e.message); }));
  $("nn-play").addEventListener("click", playAgainst);
  arena.pageHooks.neural = () => { loadRuns().then(() => refreshRun()).catch((e) => toast(e.message)); };
}

setup();
