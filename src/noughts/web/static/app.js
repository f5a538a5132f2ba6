// The noughts arena page: framework-free; everything it does goes through the JSON API (/docs).
"use strict";

import { setupAnalysis } from "./analysis.js";
import { fitBoard, getZoom, setZoom, setupNav, startsMove, turnView } from "./layout.js";
import { drawPoints, hoverLines, listLines } from "./points.js";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// -- the API -----------------------------------------------------------------------------------------

// games are changed with their token (given when they start): kept here and in the page's URL
const tokens = {
  get(id) { try { return JSON.parse(localStorage.getItem("noughts.tokens") || "{}")[id] || null; } catch (e) { return null; } },
  set(id, token) {
    if (!token) return;
    let all = {};
    try { all = JSON.parse(localStorage.getItem("noughts.tokens") || "{}"); } catch (e) { all = {}; }
    all[id] = token;
    try { localStorage.setItem("noughts.tokens", JSON.stringify(all)); } catch (e) { /* private mode: the URL keeps it */ }
  },
};

// batches and training runs are stopped (and saved) with their token, given when they start
const jobTokens = {
  get(kind, id) { try { return JSON.parse(localStorage.getItem("noughts.jobs") || "{}")[`${kind}/${id}`] || null; } catch (e) { return null; } },
  set(kind, id, token) {
    if (!token) return;
    let all = {};
    try { all = JSON.parse(localStorage.getItem("noughts.jobs") || "{}"); } catch (e) { all = {}; }
    all[`${kind}/${id}`] = token;
    try { localStorage.setItem("noughts.jobs", JSON.stringify(all)); } catch (e) { /* private mode: kept for this page only */ }
  },
};

async function api(path, body, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (init.method !== "GET") init.headers["X-Noughts-Client"] = "page";
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const game = path.match(/^\/api\/games\/(\d+)\//);
  if (game && tokens.get(game[1])) init.headers["X-Game-Token"] = tokens.get(game[1]);
  const job = path.match(/^\/api\/(batches|training)\/(\d+)\//);
  if (job && jobTokens.get(job[1], job[2])) init.headers["X-Job-Token"] = jobTokens.get(job[1], job[2]);
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.retryAfter = Number(response.headers.get("Retry-After") || 0);
    throw error;
  }
  return data;
}

let toastTimer = null;
function toast(message, kind) {
  const el = $("toast");
  el.textContent = message;
  el.className = "show" + (kind === "info" ? " info" : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = kind === "info" ? "info" : ""; }, 3500);
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v;  // through the CSSOM: the CSP forbids style attributes
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// -- drawing a board -----------------------------------------------------------------------------------

const VERDICT_LETTER = { win: "W", draw: "D", loss: "L" };

// the engine's view (/api/evaluate) on big boards labels only its best few moves (a proven loss
// only when it is the best there is), so the board stays readable; every cell keeps its graded
// colour and its full text in the title
const ENGINE_LABELS = 5;
const ENGINE_ALL_LABELS_CELLS = 64;

function showsLabel(m, cells) {
  if (m.rank === undefined) return m.label !== "";
  return cells <= ENGINE_ALL_LABELS_CELLS || (m.rank <= ENGINE_LABELS && (m.grade !== "loss" || m.rank === 1));
}

function valueLabel(m) {
  if (m.label !== undefined) return m.label;
  if (m.verdict === "draw") return m.score !== null && m.score !== undefined ? `D${m.score >= 0 ? "+" : ""}${m.score}` : "D";
  return VERDICT_LETTER[m.verdict] + (m.plies === null ? "" : m.plies);  // null: distance unknown
}

function valueTitle(m) {
  if (m.grade !== undefined) return `${m.move}: ${m.describe} (engine)`;
  if (m.label !== undefined) return `${m.move}: estimated${m.label ? " " + m.label : ""}`;
  if (m.verdict === "draw") return `${m.move}: draw`;
  if (m.plies === null) return `${m.move}: ${m.verdict === "win" ? "win" : "loss"} (distance unknown)`;
  return `${m.move}: ${m.verdict === "win" ? "win" : "loss"} in ${m.plies} ${m.plies === 1 ? "ply" : "plies"}`;
}

const cellsOf = (view) => view.panels.reduce((n, p) => n + p.cells.reduce((m, row) => m + row.filter(Boolean).length, 0), 0);

// the engine view's legend: one swatch per grade, with what it says in words (null: hidden)
function showLegend(container, grades) {
  if (!container) return;
  container.hidden = !grades;
  container.replaceChildren(...(grades || []).map((g) => el("span", { class: "legend-item" }, el("span", { class: "swatch g-" + g.grade }), g.text)));
}

// view: the API's board view; opts: onSlot(key), evaluation, hint (notation list), last,
// selected (Morris: the key of the mark picked up, whose slides are shown)
function renderBoard(container, view, opts) {
  opts = opts || {};
  if (opts.turn && view.layout !== "points") view = turnView(view, opts.turn);
  container.replaceChildren();
  const selected = opts.selected === undefined ? null : opts.selected;
  const legal = new Map();
  const origins = new Set();
  for (const m of view.moves) {
    if (m.key === null) continue;
    if (m.from === undefined) legal.set(m.key, m);
    else {
      origins.add(m.from);
      if (m.from === selected) legal.set(m.key, m);
    }
  }
  const values = new Map();
  if (opts.evaluation) {
    for (const m of opts.evaluation.moves) {
      if (m.key === null) continue;
      if (m.from === undefined) values.set(m.key, m);
      else if (m.from === selected) values.set(m.key, m);
      else if (selected === null && !values.has(m.from)) values.set(m.from, m); // a mark's best slide (moves come best first)
    }
  }
  const lifetimes = view.lifetimes || {};
  const leaving = view.leaving === undefined ? null : view.leaving;
  const hinted = new Set();
  if (opts.hint) for (const m of view.moves) if (opts.hint.includes(m.move) && m.key !== null) hinted.add(m.key);
  const line = new Set(view.highlight || []);
  const last = view.last && view.last.key !== null ? view.last.key : null;
  const forbidden = view.step && view.step.forbidden !== null && view.step.forbidden !== undefined ? view.step.forbidden : null;
  let cells = 0;
  for (const p of view.panels) for (const row of p.cells) cells += row.length;
  container.classList.toggle("rings", view.layout === "rings");
  container.dataset.cells = String(cells);
  fitBoard(container, view);
  // a cell's button (every layout but Otrio's rings)
  const makeButton = (cell) => {
    const slot = cell.slots[0];
    const classes = ["cell", "m-" + (slot.mark === "." ? "none" : slot.mark)];
    if (legal.has(slot.key)) classes.push("legal");
    if (slot.key === last) classes.push("last");
    if (line.has(slot.key)) classes.push("line");
    if (hinted.has(slot.key)) classes.push("hinted");
    if (slot.key === forbidden) classes.push("forbidden");
    if (slot.key === leaving) classes.push("leaving");
    if (origins.has(slot.key)) classes.push(slot.key === selected ? "origin selected" : "origin legal");
    const v = values.get(slot.key);
    if (v) classes.push(v.grade ? "g-" + v.grade : "v-" + v.verdict);
    const labelled = v && showsLabel(v, cells);
    if (labelled && v.rank !== undefined) classes.push("ranked");
    const age = lifetimes[String(slot.key)];
    const label = cell.name + (slot.mark !== "." ? `, ${slot.mark}` : "") + (age !== undefined ? `, ${age} ${age === 1 ? "ply" : "plies"} left` : "") + (slot.key === leaving ? ", leaves after this move" : "") + (v ? `, ${valueTitle(v)}` : "");
    const button = el("button", {
      class: classes.join(" "), "data-key": slot.key, "aria-label": label, title: label,
      onclick: () => opts.onSlot && opts.onSlot(slot.key, cell.name),
    }, slot.mark === "x" ? "×" : slot.mark === "o" ? "○" : "");
    if (age !== undefined) button.append(el("span", { class: "age", text: String(age) }));
    if (labelled) button.append(el("span", { class: "val", text: valueLabel(v) }));
    return button;
  };
  container.style.maxWidth = "";
  if (view.layout === "points") drawPoints(container, view, makeButton);
  else view.panels.forEach((panel, i) => {
    const dead = view.dead && view.dead[i];
    const cols = panel.cells[0].length;
    const grid = el("div", { class: "grid", style: `grid-template-columns: repeat(${cols}, auto)` });
    for (const row of panel.cells) {
      for (const cell of row) {
        if (cell === null) { grid.append(el("div", { class: "cell hole" })); continue; }
        if (view.layout === "rings") {
          const box = el("div", { class: "cell", "data-name": cell.name });
          cell.slots.forEach((slot) => {
            const size = slot.size[0];
            const classes = ["ring", size, "m-" + (slot.mark === "." ? "none" : slot.mark)];
            if (legal.has(slot.key)) classes.push("legal");
            if (slot.key === last) classes.push("last");
            if (line.has(slot.key)) classes.push("line");
            if (hinted.has(slot.key)) classes.push("hinted");
            const v = values.get(slot.key);
            if (v) classes.push(v.grade ? "g-" + v.grade : "v-" + v.verdict);
            const label = `${cell.name} ${slot.size}` + (slot.mark !== "." ? `, ${slot.mark}` : "") + (v ? `, ${valueTitle(v)}` : "");
            box.append(el("button", {
              class: classes.join(" "), "data-key": slot.key, "aria-label": label, title: label,
              onclick: () => opts.onSlot && opts.onSlot(slot.key, cell.name),
            }));
          });
          grid.append(box);
          continue;
        }
        grid.append(makeButton(cell));
      }
    }
    const node = el("div", { class: "panel" + (dead ? " dead" : "") });
    if (panel.title) node.append(el("div", { class: "panel-title", text: panel.title }));
    if (panel.columns && panel.rows) {
      // rows and columns labelled as moves are typed (b2; 2,1,3 on n^d boards: layer, row, column)
      const framed = el("div", { class: "framed" });
      // a label per cell, as wide (and as tall) as the cell: Otrio's cells are 1.6 cells wide
      const unit = view.layout === "rings" ? "calc(var(--cell) * 1.6)" : "var(--cell)";
      framed.append(el("div", { class: "corner" }), el("div", { class: "col-labels", style: `grid-template-columns: repeat(${cols}, ${unit})` },
        ...panel.columns.map((c) => el("span", { class: "axis", text: c }))));
      framed.append(el("div", { class: "row-labels", style: `grid-auto-rows: ${unit}` }, ...panel.rows.map((r) => el("span", { class: "axis", text: r }))), grid);
      node.append(framed);
    } else {
      node.append(grid);
    }
    container.append(node);
  });
  if (view.panel_columns > 1 && view.layout === "layers" && view.panels.length > view.panel_columns) {
    // 4D and beyond: a row of panels per block
    const first = container.firstElementChild;
    if (first) container.style.maxWidth = `${(first.getBoundingClientRect().width + 20) * view.panel_columns}px`;
  }
  if (view.lines) { listLines(container, view); hoverLines(container, view); }  // boards given by their lines
}

function extraInfo(container, view, state, onPass) {
  container.replaceChildren();
  if (view.step && view.step.kind !== "over") {
    const who = state && state.to_move ? state.to_move : "";
    const text = view.step.kind === "veto"
      ? `Veto step: ${who} may forbid one empty cell (click it) or pass`
      : view.step.forbidden === null ? "No cell is forbidden this turn" : "Claim step: the striped cell is vetoed";
    container.append(el("span", { class: "pill", text }));
    if (view.step.kind === "veto" && onPass) container.append(el("button", { id: "veto-pass", onclick: onPass, text: "Pass (veto nothing)" }));
  }
  if (view.score) container.append(el("span", { class: "pill", text: "Score: " + Object.entries(view.score).map(([k, v]) => `${k} ${v}`).join(", ") }));
  if (view.lifetimes !== undefined) {
    const names = {};
    for (const p of view.panels) for (const row of p.cells) for (const c of row) if (c) names[c.slots[0].key] = c.name;
    const text = view.leaving !== null && view.leaving !== undefined
      ? `${names[view.leaving]} leaves after this move (numbers: plies each mark has left)`
      : "Marks vanish when their time is up (numbers: plies each mark has left)";
    container.append(el("span", { class: "pill", text }));
  }
  if (view.in_hand) {
    const hand = Object.entries(view.in_hand).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
    const text = view.phase === "moving" ? "Moving: click a mark, then an adjacent empty cell" : `To place: ${hand.join(", ")}`;
    container.append(el("span", { class: "pill", text }));
  }
  if (view.rings_left) {
    for (const [mark, left] of Object.entries(view.rings_left)) {
      container.append(el("span", { class: "pill" }, el("b", { class: "mark-" + mark, text: mark }), ` holds ${left.small} small, ${left.medium} medium, ${left.large} large`));
    }
  }
}

// arrow keys move the focus to the nearest slot in that direction (works across panels and rings)
function arrowNavigation(board) {
  board.addEventListener("keydown", (event) => {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = dirs[event.key];
    if (!d) return;
    const buttons = [...board.querySelectorAll("button[data-key]")];
    if (!buttons.length) return;
    event.preventDefault();
    const current = document.activeElement && board.contains(document.activeElement) ? document.activeElement : null;
    if (!current) { buttons[0].focus(); return; }
    const a = current.getBoundingClientRect();
    const ax = a.left + a.width / 2, ay = a.top + a.height / 2;
    let best = null, bestScore = Infinity;
    for (const b of buttons) {
      if (b === current) continue;
      const r = b.getBoundingClientRect();
      const dx = r.left + r.width / 2 - ax, dy = r.top + r.height / 2 - ay;
      const along = dx * d[0] + dy * d[1];
      if (along <= 1) continue;
      const across = Math.abs(dx * d[1] - dy * d[0]);
      const score = along + 3 * across;
      if (score < bestScore) { bestScore = score; best = b; }
    }
    if (best) best.focus();
  });
}

// -- shared pickers -----------------------------------------------------------------------------------

const common = { presets: [], agents: [], byGame: {} };

// the agents that can play a game (a saved agent plays the game it was trained on)
async function agentsFor(spec) {
  if (!spec) return common.agents;
  if (!common.byGame[spec]) {
    try { common.byGame[spec] = await api(`/api/agents?game=${encodeURIComponent(spec)}`); } catch (e) { return common.agents; }
  }
  return common.byGame[spec];
}

async function loadCommon() {
  const [presets, agents] = await Promise.all([api("/api/presets"), api("/api/agents")]);
  common.presets = presets;
  common.agents = agents;
  for (const select of document.querySelectorAll(".game-preset")) {
    select.replaceChildren(...presets.map((p) => el("option", { value: p.spec, text: `${p.name} — ${p.spec}`, title: p.note })));
    select.append(el("option", { value: "", text: "Other (type a spec)" }));
    const card = select.closest(".card");
    const spec = card.querySelector(".game-spec");
    select.addEventListener("change", () => {
      if (!select.value) return;
      spec.value = select.value;
      const preset = presets.find((p) => p.spec === select.value);
      const o = card.querySelector("#play-o");
      if (o && preset) delete o.dataset.touched;  // a new game: its default opponent, unless chosen after
      fillAgents(card, preset && preset.opponent);
    });
    let timer = null;
    spec.addEventListener("input", () => {
      select.value = presets.some((p) => p.spec === spec.value) ? spec.value : "";
      clearTimeout(timer);
      timer = setTimeout(() => fillAgents(card), 400);
    });
  }
  await Promise.all([...document.querySelectorAll(".game-preset")].map((s) => fillAgents(s.closest(".card"))));
}

// fill a card's seat pickers with the agents that can play its game; `opponent`: o's default
async function fillAgents(card, opponent) {
  const cards = card ? [card] : [...document.querySelectorAll(".game-preset")].map((s) => s.closest(".card"));
  for (const c of cards) {
    const specInput = c.querySelector(".game-spec");
    const agents = await agentsFor(specInput ? specInput.value.trim() : null);
    for (const select of c.querySelectorAll(".agent-select")) {
      const before = select.value;
      const watch = select.id.startsWith("watch");
      const options = agents.filter((a) => !(watch && a.spec === "human"));
      select.replaceChildren(...options.map((a) => el("option", { value: a.spec, text: a.name, title: a.note })));
      if (before && options.some((a) => a.spec === before)) select.value = before;
      else if (options.length) select.value = options[0].spec;
    }
  }
  const has = (id, spec) => [...$(id).options].some((o) => o.value === spec);
  if (!$("play-x").dataset.touched && has("play-x", "human")) $("play-x").value = "human";
  if (!$("play-o").dataset.touched) {
    const preset = common.presets.find((p) => p.spec === $("play-spec").value.trim());
    const wanted = opponent || (preset && preset.opponent) || "perfect";
    if (has("play-o", wanted)) $("play-o").value = wanted;
  }
  if (!$("watch-x").dataset.touched && has("watch-x", "perfect")) $("watch-x").value = "perfect";
  if (!$("watch-o").dataset.touched && has("watch-o", "random")) $("watch-o").value = "random";
}

// -- a game on the board: playing and watching ----------------------------------------------------------

class GameController {
  constructor(prefix, { watch }) {
    this.prefix = prefix;
    this.watch = watch;
    this.state = null;
    this.evaluation = null;
    this.hint = null;
    this.selected = null;
    this.paused = false;
    this.running = false;
    this.token = 0;
    this.board = $(prefix + "-board");
    arrowNavigation(this.board);
  }

  get delay() {
    return this.watch ? Number($("watch-speed").value) : 250;
  }

  async start(spec, x, o) {
    const state = await api("/api/games", { game: spec, x, o });
    tokens.set(state.id, state.token);
    this.paused = false;
    this.show(state);
    if (!this.watch) location.hash = `#/play/${state.id}`;  // the token stays in this browser, never in the address bar
    this.drive();
  }

  async open(id, token) {
    if (token) tokens.set(id, token);
    const state = await api(`/api/games/${id}`);
    this.show(state);
    this.drive();
  }

  // change who plays a seat, at any time: take it over (human) or hand it to an agent
  async setSeats(x, o) {
    if (!this.state) return;
    try {
      this.token++;
      this.show(await api(`/api/games/${this.state.id}/seats`, { x, o }));
      this.drive();
    } catch (e) { toast(e.message); }
  }

  show(state) {
    this.state = state;
    const section = document.getElementById("page-" + this.prefix);
    if (section) section.dataset.playing = "1";  // on a phone the new-game card goes below the game then
    this.selected = null;
    this.evaluation = null;
    this.hint = null;
    this.render();
    this.refreshEvaluation();
  }

  render() {
    const s = this.state;
    if (!s) return;
    renderBoard(this.board, { ...s.view }, {
      onSlot: (key, name) => this.click(key, name),
      evaluation: this.evaluation,
      hint: this.hint,
      selected: this.watch ? null : this.selected,
    });
    const humanVeto = !this.watch && s.turn === "human";
    extraInfo($(this.prefix + "-extra"), s.view, s, humanVeto ? () => this.send({ move: "pass", ply: s.ply }) : null);
    const status = $(this.prefix + "-status");
    const watching = this.watch || (s.owned && !tokens.get(s.id));  // not this browser's game
    if (s.over) {
      const result = String(s.result).replace(/ wins$/, " won");
      status.replaceChildren(`${s.name || s.game} · `, el("span", { class: "win", text: `Game over: ${result}` }), ` after ${s.ply} ${s.ply === 1 ? "move" : "moves"}`);
    } else {
      const who = s.turn === "human" ? (watching ? "watching" : "your move") : this.failed ? `${s.turn} could not move` : `${s.turn} is thinking…`;
      status.textContent = `${s.name || s.game} · ${s.to_move} to move · ${who}`;
    }
    const links = $(this.prefix + "-links");
    if (links) {  // share the watch link; the play link (with the token) is for the player alone
      const base = `${location.origin}${location.pathname}#/play/${s.id}`;
      const token = tokens.get(s.id);
      links.hidden = false;
      links.replaceChildren("Share to watch: ", el("a", { href: `#/play/${s.id}`, class: "watch-link", text: base }),
        ...(token ? [" · your play link (whoever has it can move): ", el("a", { href: `${base}/${token}`, class: "play-link", text: "copy this link" })] : []));
    }
    const decision = $(this.prefix + "-decision");
    if (decision) {
      const d = s.decision;
      decision.replaceChildren();
      if (d) {
        const note = String(d.note || "");
        const proven = d.proven === true ? "proven best" : d.proven === false ? (note.startsWith("not proven") ? note : `not proven: ${note}`) : "";
        decision.append(`${d.by} played ${d.move}`, proven ? el("span", { class: d.proven ? "proven" : "unproven", text: ` (${proven})` }) : "", ` · ${d.seconds.toFixed(2)} s`);
      }
    }
    const error = $(this.prefix + "-error");
    if (error) {
      error.replaceChildren();
      error.hidden = !s.error;
      if (s.error && !s.over) {
        error.append(el("span", { text: s.error }), " ",
          el("button", { class: "retry", text: "Try again", onclick: () => this.drive(true) }),
          this.watch ? "" : " The game is still yours: undo, or change a seat below.");
      }
    }
    this.showSeats();
    const list = $(this.prefix + "-moves");
    const movers = s.movers || [];
    list.replaceChildren(...s.moves.map((m, i) => el("li", {
      class: "mv-item", title: `${movers[i] || ""} played ${m}: open the game here on the analysis board`,
      onclick: () => openInAnalysis(s, i + 1),
    }, el("span", { class: "who mark-" + (movers[i] === "o" ? "o" : "x"), text: movers[i] || "" }), " ", m)));
    list.scrollTop = list.scrollHeight;
    if (!this.watch) {
      $("play-notation").textContent = "Notation: " + s.notation;
      $("play-undo").disabled = s.over || s.ply === 0;
    }
  }

  async click(key, name) {
    const s = this.state;
    if (!s || this.watch) return;
    if (s.over) { toast(`The game is over (${s.result}). Start a new one.`); return; }
    if (s.turn !== "human") { toast(`Wait: it is ${s.turn}'s turn.`); return; }
    const slides = s.view.moves.filter((m) => m.from !== undefined);
    if (slides.length) { // Morris: pick up a mark, then put it on an adjacent empty cell
      const slide = slides.find((m) => m.from === this.selected && m.key === key);
      if (slide) { this.selected = null; await this.send({ action: slide.action, ply: s.ply }); return; }
      this.selected = slides.some((m) => m.from === key) && this.selected !== key ? key : null;
      if (this.selected === null && !slides.some((m) => m.from === key)) toast("Click one of your marks that can move, then where it goes.");
      this.render();
      return;
    }
    await this.send({ key, ply: s.ply });
  }

  async typed(text) {
    const s = this.state;
    if (!s) { toast("Start a game first."); return false; }
    if (s.turn !== "human" && !s.over) { toast(`Wait: it is ${s.turn}'s turn.`); return false; }
    return await this.send({ move: text, ply: s.ply });  // true when played: the move box is emptied
  }

  async send(body) {
    try {
      this.show(await api(`/api/games/${this.state.id}/move`, body));
      this.drive();
      return true;
    } catch (e) {
      toast(e.message);
      if (e.status === 409) await this.open(this.state.id);
      return false;
    }
  }

  // the seats card: who plays now, changeable at any time
  async showSeats() {
    if (this.watch || !$("seats-card")) return;
    const s = this.state;
    $("seats-card").hidden = !s;
    if (!s || $("seats-card").dataset.game === `${s.id}:${s.x}:${s.o}`) return;
    $("seats-card").dataset.game = `${s.id}:${s.x}:${s.o}`;
    const agents = await agentsFor(s.game);
    for (const [id, current] of [["seat-x", s.x], ["seat-o", s.o]]) {
      const options = agents.some((a) => a.spec === current) ? agents : [{ spec: current, name: current, note: "" }, ...agents];
      $(id).replaceChildren(...options.map((a) => el("option", { value: a.spec, text: a.name, title: a.note })));
      $(id).value = current;
    }
  }

  // agents move while it is their turn (watching: at the chosen speed, unless paused); a busy
  // arena is asked again after the time it names; a failed agent leaves the game as it was
  async drive(retry) {
    const token = ++this.token;
    this.failed = false;
    if (retry && this.state) this.render();
    while (this.state && !this.state.over && this.state.turn !== "human" && !this.paused) {
      await sleep(this.delay);
      if (token !== this.token || this.paused) return;
      try {
        const state = await api(`/api/games/${this.state.id}/turn`, { ply: this.state.ply });
        if (token !== this.token) return;
        this.show(state);
      } catch (e) {
        if (token !== this.token) return;
        if (e.status === 429) {
          if (/warming up/.test(e.message)) $(this.prefix + "-status").textContent = `${this.state.name || this.state.game} · ${e.message}`;
          await sleep(1000 * (e.retryAfter || 1));
          continue;
        }
        if (e.status === 409) { await this.open(this.state.id); return; }
        this.failed = true;
        try { this.state = await api(`/api/games/${this.state.id}`); } catch (e2) { /* keep what we have */ }
        if (!this.state.error) this.state.error = e.message;
        this.render();
        toast(e.message);
        return;
      }
    }
  }

  async step() {
    if (!this.state || this.state.over) return;
    this.paused = true;
    this.token++;
    try { this.show(await api(`/api/games/${this.state.id}/turn`, { ply: this.state.ply })); } catch (e) { toast(e.message); }
  }

  async undo() {
    if (!this.state) return;
    try {
      this.token++;
      this.show(await api(`/api/games/${this.state.id}/undo`, {}));
      this.drive();
    } catch (e) { toast(e.message); }
  }

  async refreshEvaluation() {
    if (this.watch) return;
    $("play-eval-note").textContent = "";
    showLegend($("play-eval-legend"), null);
    if (!$("play-eval").checked || !this.state || this.state.over) return;
    const s = this.state;
    $("play-eval-note").textContent = "Solving…";
    const analysis = await this.analyse();
    if (this.state !== s) return;
    if (analysis && analysis.solved) {
      this.evaluation = analysis.evaluation;
      const legend = analysis.evaluation.distances === false ? "W = win, L = loss (distances unknown: the misère quotient decides, not a search)" : "W5 = win in 5 plies, D = draw, L6 = loss in 6";
      $("play-eval-note").textContent = `With perfect play: ${analysis.evaluation.describe}. ${legend} (for ${s.to_move}).`;
      this.render();
    } else if (analysis) {
      // not solved within the budget: the engine's view of every move (claim games)
      try {
        const view = await api("/api/evaluate", { game: s.game, position: s.position });
        if (this.state !== s) return;
        this.evaluation = view;
        $("play-eval-note").textContent = `${analysis.reason}. The engine's view instead: ${view.describe}. For ${s.to_move}: W7 / L12 a proven win / loss in that many plies, +0.42 an estimate from -1 (lost) to +1 (won)${cellsOf(s.view) > ENGINE_ALL_LABELS_CELLS ? `; labels on its best moves (up to ${ENGINE_LABELS})` : ""}.`;
        showLegend($("play-eval-legend"), view.grades);
        this.render();
      } catch (e) {
        if (!/claim games/.test(e.message) || !common.agents.some((a) => a.spec.startsWith("minimax"))) { $("play-eval-note").textContent += ` (no estimate: ${e.message})`; return; }
        // a game whose turns are more than a claim: minimax's own ranking, its best and worst moves
        // coloured (its scores are internal numbers, not shown)
        try {
          const est = await api("/api/estimate", { game: s.game, position: s.position, depth: cellsOf(s.view) > 64 ? 1 : 2 });
          if (this.state !== s) return;
          const scores = est.moves.map((m) => m.score);
          const hi = Math.max(...scores), lo = Math.min(...scores);
          this.evaluation = { estimate: true, moves: est.moves.map((m) => ({ ...m, verdict: m.score === hi ? "win" : m.score === lo && lo < hi ? "loss" : "draw", label: "" })) };
          $("play-eval-note").textContent = `${analysis.reason}. Showing ${est.agent}'s ranking instead (green: its best moves, red: its worst; not a proven value).`;
          this.render();
        } catch (e2) { $("play-eval-note").textContent += ` (no estimate: ${e2.message})`; }
      }
    }
  }

  async analyse() {
    const s = this.state;
    try {
      const analysis = await api("/api/analyse", { game: s.game, position: s.position, max_seconds: Number($("play-budget").value) });
      if (!analysis.solved) $("play-eval-note").textContent = `Overlay hidden: ${analysis.reason}`;
      return analysis;
    } catch (e) { toast(e.message); return null; }
  }

  async showHint() {
    const s = this.state;
    if (!s || s.over) return;
    const analysis = await this.analyse();
    if (this.state !== s) return;
    if (analysis && analysis.solved) {
      this.hint = analysis.evaluation.best;
      toast(`Best: ${this.hint.join(", ")} (${analysis.evaluation.describe})`, "info");
    } else {
      // the engine's view (as the overlay shows it), where it values the moves of this game
      try {
        const view = await api("/api/evaluate", { game: s.game, position: s.position });
        if (this.state !== s) return;
        if (view.best && view.best.length) {
          this.hint = view.best;
          toast(`The engine's best: ${view.best.join(", ")} (${view.describe})`, "info");
          this.render();
          return;
        }
      } catch (e) { /* not a claim game: another agent suggests */ }
      const helper = common.agents.find((a) => a.spec.startsWith("mcts")) || common.agents.find((a) => a.spec.startsWith("minimax"));
      if (!helper) { toast("No hint: the solver ran out of time here."); return; }
      try {
        const suggestion = await api("/api/suggest", { game: s.game, position: s.position, agent: helper.spec });
        this.hint = [suggestion.move.move];
        toast(`${helper.name} suggests ${suggestion.move.move} (the solver ran out of time)`, "info");
      } catch (e) { toast(e.message); return; }
    }
    this.render();
  }
}

// -- pages -------------------------------------------------------------------------------------------

const play = new GameController("play", { watch: false });
const watch = new GameController("watch", { watch: true });

function setupPlay() {
  $("play-start").addEventListener("click", () => play.start($("play-spec").value.trim(), $("play-x").value, $("play-o").value).catch((e) => toast(e.message)));
  $("play-o").addEventListener("change", () => { $("play-o").dataset.touched = "1"; });
  $("play-x").addEventListener("change", () => { $("play-x").dataset.touched = "1"; });
  $("seats-change").addEventListener("click", () => play.setSeats($("seat-x").value, $("seat-o").value));
  $("play-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("play-move").value.trim();
    if (!text) return;
    if (await play.typed(text)) $("play-move").value = "";
    else $("play-move").select();
  });
  $("play-move").addEventListener("keydown", (event) => {
    if (event.key === "Escape") { $("play-move").blur(); const b = $("play-board").querySelector("button.legal"); if (b) b.focus(); }
  });
  $("play-undo").addEventListener("click", () => play.undo());
  $("play-hint").addEventListener("click", () => play.showHint());
  $("play-analyse").addEventListener("click", () => {
    if (!play.state) { toast("Start a game first."); return; }
    openInAnalysis(play.state, play.state.ply);
  });
  $("play-eval").addEventListener("change", () => { play.evaluation = null; play.render(); play.refreshEvaluation(); });
  // single-key shortcuts only where the key cannot start a move (or with Alt); a key that can
  // start a move goes to the move box, wherever the focus is (but in another box)
  const shortcuts = { KeyU: () => play.undo(), KeyH: () => play.showHint(), KeyE: () => $("play-eval").click() };
  document.addEventListener("keydown", (event) => {
    if (currentPage() !== "play" || event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey) return;
    const shortcut = shortcuts[event.code];
    if (event.altKey) { if (shortcut) { event.preventDefault(); shortcut(); } return; }
    if (event.key.length !== 1 || event.key === " ") return;
    const view = play.state && play.state.view;
    if (startsMove(view, event.key)) { $("play-move").focus(); return; }  // the key is typed into the box
    if (shortcut && event.key.toLowerCase() === event.code.slice(3).toLowerCase()) { event.preventDefault(); shortcut(); return; }
    if (/^[a-z0-9!:,]$/i.test(event.key)) $("play-move").focus();
  });
}

function setupWatch() {
  const speedText = () => { $("watch-speed-text").textContent = `${(Number($("watch-speed").value) / 1000).toFixed(2)} s a move`; };
  $("watch-speed").addEventListener("input", speedText);
  speedText();
  for (const id of ["watch-x", "watch-o"]) $(id).addEventListener("change", () => { $(id).dataset.touched = "1"; });
  $("watch-start").addEventListener("click", () => watch.start($("watch-spec").value.trim(), $("watch-x").value, $("watch-o").value).catch((e) => toast(e.message)));
  $("watch-pause").addEventListener("click", () => {
    watch.paused = !watch.paused;
    $("watch-pause").textContent = watch.paused ? "Resume" : "Pause";
    if (!watch.paused) watch.drive();
  });
  $("watch-step").addEventListener("click", () => { $("watch-pause").textContent = "Resume"; watch.step(); });
  let batchId = null;
  $("batch-start").addEventListener("click", async () => {
    try {
      const state = await api("/api/batches", { game: $("watch-spec").value.trim(), x: $("watch-x").value, o: $("watch-o").value, games: Number($("batch-games").value) });
      batchId = state.id;
      jobTokens.set("batches", state.id, state.token);
      showBatch(state);
      while (batchId === state.id) {
        await sleep(300);
        const now = await api(`/api/batches/${state.id}`);
        showBatch(now);
        if (now.status !== "running") break;
      }
    } catch (e) { toast(e.message); }
  });
  $("batch-stop").addEventListener("click", async () => { if (batchId !== null) { try { showBatch(await api(`/api/batches/${batchId}/stop`, {})); } catch (e) { toast(e.message); } } });
}

function showBatch(b) {
  const bar = $("batch-bar");
  const total = Math.max(b.played, 1);
  bar.replaceChildren(
    ...[["first", `x ${b.first}`], ["draw", `draw ${b.draw}`], ["second", `o ${b.second}`]].map(([k, label]) =>
      el("div", { class: k, style: `width: ${(100 * b[k]) / total}%`, title: label, text: b[k] ? label : "" })),
  );
  const pct = (n) => `${((100 * n) / total).toFixed(1)}%`;
  $("batch-text").textContent = `${b.played} of ${b.games} games (${b.status}${b.error ? ": " + b.error : ""}) · ${b.x} wins ${pct(b.first)}, draws ${pct(b.draw)}, ${b.o} wins ${pct(b.second)} · ${b.seconds.toFixed(1)} s`;
}

// the analysis board (analysis.js), and counts of the game on it
let analysis = null;

function setupAnalyse() {
  analysis = setupAnalysis({ api, el, toast, renderBoard, extraInfo, agentsFor, currentPage, startsMove, tokens, common, showLegend });
  arena.analysis = analysis;  // the board's handle (its state: arena.analysis.state)
  $("an-count").addEventListener("click", async () => {
    try {
      $("an-counts").replaceChildren(el("tr", {}, el("td", { text: "counting…" })));
      const c = await api("/api/count", { game: (analysis.state.game || $("an-spec").value.trim()), max_seconds: Number($("an-budget").value) });
      const rows = [["positions", c.positions], ["positions up to symmetry", c.positions_up_to_symmetry], ["terminal positions", c.terminal_positions], ["complete games", c.games], ["won by the first player", c.games_by_outcome && c.games_by_outcome.first], ["won by the second player", c.games_by_outcome && c.games_by_outcome.second], ["drawn", c.games_by_outcome && c.games_by_outcome.draw], ["game-tree nodes", c.tree_nodes], ["seconds", c.seconds && c.seconds.toFixed(3)]];
      $("an-counts").replaceChildren(...rows.filter((r) => r[1] !== null && r[1] !== undefined).map(([k, v]) => el("tr", {}, el("td", { text: k }), el("td", { text: typeof v === "number" ? v.toLocaleString() : v }))));
    } catch (e) { $("an-counts").replaceChildren(); toast(e.message); }
  });
}


// open a game (a state of the API: game, start, moves) on the analysis board at ply `at`
async function openInAnalysis(s, at) {
  try {
    await analysis.loadLine(s.game, s.start, s.moves, at);
    route();  // the board wrote its URL (#/analyse?...): show the page
  } catch (e) { toast(e.message); }
}

async function showGames() {
  const filter = document.querySelector("input[name=games-filter]:checked").value;
  try {
    const games = await api("/api/games" + (filter === "match" ? "?source=match" : filter ? `?status=${filter}` : ""));
    $("games-table").replaceChildren(
      el("tr", {}, ...["#", "game", "x", "o", "moves", "status", "updated", ""].map((h) => el("th", { text: h }))),
      ...games.map((g) => el("tr", {},
        el("td", { text: g.id }), el("td", { text: g.game }), el("td", { text: g.x }), el("td", { text: g.o }), el("td", { text: g.plies }),
        el("td", { text: g.result || g.status }), el("td", { text: (g.updated || "").replace("T", " ").slice(0, 19) }),
        el("td", { class: "g-links" }, el("a", { href: `#/play/${g.id}`, text: g.status === "playing" ? (tokens.get(g.id) ? "resume" : "watch") : "open" }),
          " · ", el("a", { href: `#/analyse?record=${g.id}`, text: "analyse" }),
          " · ", el("a", { href: `/api/games/${g.id}/record?download=1`, download: `game-${g.id}.ntr`, text: "record" })))),
    );
  } catch (e) { toast(e.message); }
}

// -- training ----------------------------------------------------------------------------------------

// a line chart on a canvas: lines = [{label, color, points: [[x, y], ...]}]; y from lo to hi
function lineChart(canvas, lines, lo, hi) {
  const ctx = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height, L = 48, R = 12, T = 10, B = 24;
  ctx.clearRect(0, 0, W, H);
  const xs = lines.flatMap((l) => l.points.map((p) => p[0]));
  const ys = lines.flatMap((l) => l.points.map((p) => p[1])).filter((y) => y !== null && y !== undefined);
  if (hi === undefined) hi = Math.max(1, ...ys);
  if (lo === undefined) lo = Math.min(0, ...ys);
  const x0 = Math.min(0, ...xs), x1 = Math.max(1, ...xs);
  const px = (x) => L + ((x - x0) / (x1 - x0 || 1)) * (W - L - R);
  const py = (y) => H - B - ((y - lo) / (hi - lo || 1)) * (H - T - B);
  ctx.font = "11px system-ui, sans-serif";
  ctx.strokeStyle = "#e5e7eb"; ctx.fillStyle = "#6b7280"; ctx.lineWidth = 1;
  for (let i = 0; i <= 4; i++) {
    const y = lo + ((hi - lo) * i) / 4;
    ctx.beginPath(); ctx.moveTo(L, py(y)); ctx.lineTo(W - R, py(y)); ctx.stroke();
    ctx.fillText(Math.abs(hi) >= 1000 ? Math.round(y).toLocaleString() : y.toFixed(2), 4, py(y) + 4);
  }
  ctx.fillText(`${Math.round(x1).toLocaleString()} episodes`, W - R - 90, H - 6);
  for (const line of lines) {
    ctx.strokeStyle = line.color; ctx.lineWidth = 2; ctx.beginPath();
    let started = false;
    for (const [x, y] of line.points) {
      if (y === null || y === undefined) continue;
      if (!started) { ctx.moveTo(px(x), py(y)); started = true; } else ctx.lineTo(px(x), py(y));
    }
    ctx.stroke();
    ctx.fillStyle = line.color;
    const drawn = line.points.filter((p) => p[1] !== null && p[1] !== undefined);
    const marks = drawn.length <= 24 ? drawn : drawn.slice(-1);  // few points: each; many: the last
    for (const [x, y] of marks) { ctx.beginPath(); ctx.arc(px(x), py(y), 3.5, 0, 2 * Math.PI); ctx.fill(); }
  }
  const legend = canvas.parentElement.querySelector(".legend") || canvas.parentElement.appendChild(el("div", { class: "legend" }));
  legend.replaceChildren(...lines.map((l) => el("span", {}, el("i", { style: `background:${l.color}` }), l.label)));
}

function drawTraining(run) {
  const s = run.series;
  const pts = (key) => s.map((p) => [p.episodes, p[key]]);
  lineChart($("chart-results"), [
    { label: "first player wins", color: "#2563eb", points: pts("first") },
    { label: "draws", color: "#9ca3af", points: pts("draw") },
    { label: "second player wins", color: "#e11d48", points: pts("second") },
  ], 0, 1);
  lineChart($("chart-epsilon"), [{ label: "epsilon", color: "#0f766e", points: pts("epsilon") }], 0, 1);
  lineChart($("chart-size"), [{ label: "positions in the table", color: "#7c3aed", points: pts("size") }]);
  lineChart($("chart-grade"), [{ label: "optimal-move rate (oracle)", color: "#16a34a", points: pts("grade") }], 0, 1);
  const last = s[s.length - 1];
  $("train-status").textContent = `${run.learner} on ${run.game}: ${run.done.toLocaleString()} of ${run.episodes.toLocaleString()} episodes · ${run.status}${run.error ? ": " + run.error : ""} · ${run.seconds.toFixed(1)} s`
    + (last && last.grade !== null ? ` · grade ${last.grade.toFixed(3)}` : "");
}

const training = { id: null, learners: [] };

async function setupTrain(arena) {
  training.learners = await api("/api/learners");
  $("train-learner").replaceChildren(...training.learners.map((l) => el("option", { value: l.kind, text: l.kind })));
  $("train-learner").value = training.learners.some((l) => l.kind === "qlearning") ? "qlearning" : training.learners[0].kind;
  const help = () => { const l = training.learners.find((x) => x.kind === $("train-learner").value); $("train-help").textContent = l ? l.options : ""; };
  $("train-learner").addEventListener("change", help);
  help();
  $("train-start").addEventListener("click", async () => {
    const options = {};
    for (const part of $("train-options").value.split(",").map((x) => x.trim()).filter(Boolean)) {
      const [k, v] = part.split("=");
      if (v === undefined) { toast(`Write options as key=value, not ${part}`); return; }
      options[k.trim()] = v.trim();
    }
    try {
      const run = await api("/api/training", { game: $("train-spec").value.trim(), learner: $("train-learner").value, options, episodes: Number($("train-episodes").value) });
      training.id = run.id;
      jobTokens.set("training", run.id, run.token);
      $("train-download").hidden = true;
      while (training.id === run.id) {
        const now = await api(`/api/training/${run.id}`);
        drawTraining(now);
        if (now.status !== "running") break;
        await sleep(400);
      }
    } catch (e) { toast(e.message); }
  });
  $("train-stop").addEventListener("click", async () => { if (training.id !== null) { try { await api(`/api/training/${training.id}/stop`, {}); } catch (e) { toast(e.message); } } });
  $("train-save").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (training.id === null) { toast("Train an agent first."); return; }
    try {
      const saved = await api(`/api/training/${training.id}/save`, { name: $("train-name").value.trim() });
      await refreshAgents();
      $("train-note").textContent = `Saved as ${saved.spec}: pick it in any seat.`;
      const link = $("train-download");
      link.href = `/api/agents/${encodeURIComponent(saved.name)}/download`;
      link.textContent = `Download ${saved.name}.zip`;
      link.hidden = false;
    } catch (e) { toast(e.message); }
  });
  $("train-upload").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("train-file").files[0];
    const name = $("train-upload-name").value.trim();
    if (!file || !name) { toast("Choose a zip and give it a name."); return; }
    try {
      const response = await fetch(`/api/agents/upload?name=${encodeURIComponent(name)}`, { method: "POST", headers: { "Content-Type": "application/zip", "X-Noughts-Client": "page" }, body: file });
      const data = await response.json();
      if (!response.ok) throw new Error(data.error);
      await refreshAgents();
      $("train-note").textContent = `Uploaded as ${data.spec} (${data.kind} for ${data.game}).`;
    } catch (e) { toast(e.message); }
  });
}

async function refreshAgents() {
  common.agents = await api("/api/agents");
  common.byGame = {};
  await fillAgents();
}

async function showLeaderboard() {
  const select = $("lb-game");
  // the ratings are fitted from every recorded game: the first load can take seconds
  $("lb-note").textContent = "Loading the ratings (fitted from every recorded game between agents)…";
  $("page-leaderboard").setAttribute("aria-busy", "true");
  try {
    const board = await api("/api/leaderboard" + (select.value ? `?game=${encodeURIComponent(select.value)}` : ""));
    const chosen = board.game || "";
    select.replaceChildren(...board.games.map(([spec, n]) => el("option", { value: spec, text: `${spec} (${n} games)` })));
    select.value = chosen;
    $("lb-table").replaceChildren(
      el("tr", {}, ...["#", "agent", "rating", "±", "games", "wins", "draws", "losses"].map((h) => el("th", { text: h }))),
      ...board.ratings.flatMap((r, i) => [
        ...(board.groups > 1 && (i === 0 || board.ratings[i - 1].group !== r.group)
          ? [el("tr", { class: "group-row" }, el("td", { colspan: "8", text: `Group ${r.group}: agents linked by games played (a scale of their own)` }))] : []),
        el("tr", { "data-group": r.group }, el("td", { text: i + 1 }), el("td", { text: r.agent }), el("td", { text: r.rating.toFixed(0) }),
        el("td", { text: r.stderr === null ? "" : r.stderr.toFixed(0) }), el("td", { text: r.games }), el("td", { text: r.wins }), el("td", { text: r.draws }), el("td", { text: r.losses }))]),
    );
    $("lb-note").textContent = board.ratings.length
      ? "Bradley-Terry ratings on the Elo scale (mean 0 in each group) from every recorded game between agents of this game: batches, matches and watched games."
        + (board.groups > 1 ? " Agents that never met, even through others, are rated in separate groups: compare ratings only within a group." : "")
      : "No games between agents recorded yet: run a batch on the Watch page.";
  } catch (e) { $("lb-note").textContent = ""; toast(e.message); }
  finally { $("page-leaderboard").removeAttribute("aria-busy"); }
}

// -- routing ----------------------------------------------------------------------------------------

const pageHooks = { games: showGames, leaderboard: showLeaderboard };
const featureSetup = { train: setupTrain, leaderboard: (a) => $("lb-game").addEventListener("change", showLeaderboard) };

function currentPage() {
  return (location.hash.replace(/^#\//, "").split(/[/?]/)[0]) || "play";
}

function route() {
  const hash = location.hash.replace(/^#\//, "");
  const q = hash.indexOf("?");
  const query = q < 0 ? "" : hash.slice(q + 1);
  const parts = (q < 0 ? hash : hash.slice(0, q)).split("/");
  let page = parts[0] || "play";
  if (!$("page-" + page) || document.querySelector(`nav a[data-page=${page}]`)?.hidden) page = "play";
  for (const section of document.querySelectorAll(".page")) section.hidden = section.id !== "page-" + page;
  for (const a of document.querySelectorAll("nav a[data-page]")) a.classList.toggle("active", a.dataset.page === page);
  if (page === "play" && parts[2]) {  // a play link: keep its token here, and take it out of the address bar
    tokens.set(parts[1], parts[2]);
    history.replaceState(null, "", `#/play/${parts[1]}`);
  }
  if (page === "play" && parts[1] && (!play.state || String(play.state.id) !== parts[1])) play.open(Number(parts[1])).catch((e) => toast(e.message));
  if (page === "analyse" && query && analysis && !analysis.isWriting()) analysis.readUrl(query);
  if (pageHooks[page]) pageHooks[page]();
  const current = page === "play" ? play : page === "watch" ? watch : null;
  if (current && current.state) current.render();  // sized to the page now shown
}

export const arena = { api, play, watch, pageHooks, renderBoard, toast, common, fillAgents, el };
window.arena = arena;

// boards zoom (the cells' size, kept for the next visit)
function setupZoom() {
  const redraw = () => {
    const page = currentPage();
    if (page === "play" && play.state) play.render();
    else if (page === "watch" && watch.state) watch.render();
    else if (page === "analyse" && analysis && analysis.state.current) analysis.go(analysis.state.current);
  };
  for (const b of document.querySelectorAll(".zoom-in")) b.addEventListener("click", () => { setZoom(getZoom() * 1.25); redraw(); });
  for (const b of document.querySelectorAll(".zoom-out")) b.addEventListener("click", () => { setZoom(getZoom() / 1.25); redraw(); });
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(redraw, 100); });
}

// the kernels' warm-up after a start: "warming up (n of m kernels)" until every kernel is ready
// (a move asked meanwhile waits for it); data-warm on the body says "1" once it is
async function showWarmUp() {
  const banner = $("warmup");
  for (;;) {
    let warm = null;
    try { warm = (await api("/api/health")).workers.warmup; } catch (e) { warm = null; }
    if (warm && warm.ready) break;
    if (warm) {
      const n = warm.total ? `${warm.done} of ${warm.total} kernels` : "starting";
      banner.textContent = `The arena is warming up (${n}${warm.current ? ": " + warm.current : ""}): compiled once, then every move answers at once. A move asked now waits for it.`;
      banner.hidden = false;
    }
    await sleep(1000);
  }
  banner.hidden = true;
  document.body.dataset.warm = "1";
}

async function main() {
  setupNav();
  setupZoom();
  setupPlay();
  setupWatch();
  setupAnalyse();
  for (const radio of document.querySelectorAll("input[name=games-filter]")) radio.addEventListener("change", showGames);
  window.addEventListener("hashchange", route);
  try { await loadCommon(); } catch (e) { toast("Cannot reach the arena: " + e.message); }
  const extras = await api("/api/health").then((h) => h.features || []).catch(() => []);
  for (const feature of extras) {
    const link = document.querySelector(`nav a[data-page=${feature}]`);
    if (link) link.hidden = false;
    try { if (featureSetup[feature]) await featureSetup[feature](arena); } catch (e) { toast(e.message); }
  }
  route();
  showWarmUp();
  document.body.dataset.ready = "1";
}

main();
