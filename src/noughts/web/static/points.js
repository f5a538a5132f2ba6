// Boards given by their lines (issue 27: finite planes, tori, a user's hypergraph): a board with
// no coordinates drawn as its points on a circle with its lines between them; on every such
// board the lines listed beside it, the completed ones highlighted, and a hovered (or focused)
// point lighting every line through it, in the picture and in the list.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const MAX_SIDE = 640;  // px: the circle's largest diameter

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// the cells of `view` (layout "points") by slot key: { cell, key }
function pointsOf(view) {
  const out = [];
  for (const row of view.panels[0].cells) for (const c of row) if (c) out.push(c);
  return out;
}

// draw the points of `view` (layout "points": each cell has x, y in the unit square) into `box`,
// each point the button `button(cell)` makes; the lines as polylines in the order written
export function drawPoints(box, view, button) {
  const points = pointsOf(view);
  const n = points.length;
  const room = Math.min(MAX_SIDE, Math.max(240, (box.parentElement || box).clientWidth || MAX_SIDE));
  // cells sized so that neighbours on the circle do not touch: the circle's length is pi * side
  const cell = Math.max(22, Math.min(64, Math.floor((Math.PI * room) / (1.7 * n + Math.PI))));
  const side = Math.max(3 * cell, room - cell);
  box.style.setProperty("--cell", `${cell}px`);
  box.dataset.cell = String(cell);
  const at = new Map();
  for (const c of points) at.set(c.slots[0].key, [c.x * side + cell / 2, c.y * side + cell / 2]);
  const picture = document.createElement("div");
  picture.className = "points";
  picture.style.cssText = `width: ${side + cell}px; height: ${side + cell}px`;
  const svg = svgNode("svg", { class: "point-lines", width: side + cell, height: side + cell, viewBox: `0 0 ${side + cell} ${side + cell}`, "aria-hidden": "true" });
  const won = new Set(view.won_lines || []);
  view.lines.forEach((line, j) => {
    const path = line.map((key) => at.get(key).map((v) => v.toFixed(1)).join(",")).join(" ");
    svg.append(svgNode("polyline", { points: path, "data-line": j, class: "hl" + (won.has(j) ? " won" : "") }));
  });
  picture.append(svg);
  for (const c of points) {
    const node = button(c);
    node.classList.add("point");
    const [x, y] = at.get(c.slots[0].key);
    node.style.cssText = `left: ${(x - cell / 2).toFixed(1)}px; top: ${(y - cell / 2).toFixed(1)}px`;
    if (c.slots[0].mark === ".") node.append(Object.assign(document.createElement("span"), { className: "pname", textContent: c.name }));
    picture.append(node);
  }
  const panel = document.createElement("div");
  panel.className = "panel";
  panel.append(picture);
  box.append(panel);
}

// the lines listed (each point by its name, coloured by its mark), the completed ones marked
export function listLines(box, view) {
  const names = new Map(), marks = new Map();
  for (const p of view.panels) for (const row of p.cells) for (const c of row) if (c) { names.set(c.slots[0].key, c.name); marks.set(c.slots[0].key, c.slots[0].mark); }
  const won = new Set(view.won_lines || []);
  const list = document.createElement("ol");
  list.className = "line-list";
  list.setAttribute("aria-label", `the ${view.lines.length} lines`);
  view.lines.forEach((line, j) => {
    const item = document.createElement("li");
    item.dataset.line = String(j);
    if (won.has(j)) item.classList.add("won");
    line.forEach((key, i) => {
      if (i) item.append(" ");
      const span = document.createElement("span");
      const mark = marks.get(key);
      span.className = "m-" + (mark === "." ? "none" : mark);
      span.textContent = names.get(key);
      item.append(span);
    });
    list.append(item);
  });
  const node = document.createElement("div");
  node.className = "lines-panel";
  const title = document.createElement("div");
  title.className = "panel-title";
  title.textContent = `lines (${view.lines.length})` + (won.size ? `: ${won.size} completed` : "") + " — point at a cell to light its lines";
  node.append(title, list);
  box.append(node);
}

// hovering or focusing a point lights every line through it (the picture's polylines, the list's
// items and the other points on them); hovering a listed line lights that line
export function hoverLines(box, view) {
  const through = new Map();
  view.lines.forEach((line, j) => { for (const key of line) { if (!through.has(key)) through.set(key, []); through.get(key).push(j); } });
  const light = (lines) => {
    for (const node of box.querySelectorAll(".through")) node.classList.remove("through");
    for (const node of box.querySelectorAll(".on-line")) node.classList.remove("on-line");
    for (const j of lines) {
      for (const node of box.querySelectorAll(`[data-line="${j}"]`)) node.classList.add("through");
      for (const key of view.lines[j]) for (const node of box.querySelectorAll(`button[data-key="${key}"]`)) node.classList.add("on-line");
    }
    box.classList.toggle("lighting", lines.length > 0);
  };
  for (const node of box.querySelectorAll("button[data-key]")) {
    const lines = through.get(Number(node.dataset.key)) || [];
    node.addEventListener("mouseenter", () => light(lines));
    node.addEventListener("focus", () => light(lines));
    node.addEventListener("mouseleave", () => light([]));
    node.addEventListener("blur", () => light([]));
  }
  for (const item of box.querySelectorAll("li[data-line]")) {
    item.addEventListener("mouseenter", () => light([Number(item.dataset.line)]));
    item.addEventListener("mouseleave", () => light([]));
  }
}
