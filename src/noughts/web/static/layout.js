// Boards on any screen: cells sized to the space the board has, the menu folded on small
// screens, and which keys can start a move (so that shortcuts never eat one).
"use strict";

export const MIN_CELL = 24;  // px: the smallest cell drawn (smaller boards scroll in their own box)
const FIT_CELL = 18;         // px: a board that fits whole at this size (15x15 on a phone) is drawn so
const GAP_PANELS = 19;       // px between panels (1.2rem)
const TITLE = 20;            // px: a panel's title (its layer) above it

let zoom = 1;
try { zoom = Number(localStorage.getItem("noughts.zoom")) || 1; } catch (e) { zoom = 1; }

export function setZoom(factor) {
  zoom = Math.min(3, Math.max(0.5, factor));
  try { localStorage.setItem("noughts.zoom", String(zoom)); } catch (e) { /* private mode */ }
  return zoom;
}

export function getZoom() { return zoom; }

// the cell size that fits `view`'s panels into the width the board has (and, for one panel,
// into the window's height), between MIN_CELL and a size that suits the board; then zoomed
export function fitBoard(container, view) {
  const panels = view.panels;
  if (!panels.length) return;
  const rows = panels[0].cells.length, cols = panels[0].cells[0].length;
  const ring = view.layout === "rings" ? 1.6 : 1;
  const count = panels.length;
  const compact = cols * ring >= 8 || count > 2;
  container.classList.toggle("compact", compact);
  for (const c of ["large", "small", "tiny"]) container.classList.remove(c);
  const gap = compact ? 2 : 4;
  const labelled = Boolean(panels[0].columns && panels[0].rows);
  const label = labelled ? 20 : 0;
  const box = container.parentElement || container;
  const width = Math.max(200, box.clientWidth || window.innerWidth) - 2;
  const height = Math.max(240, window.innerHeight - 200);
  const cells = count * rows * cols;
  const cap = cells <= 16 ? 104 : cells <= 49 ? 80 : 64;
  const fixed = (cols - 1) * gap + 2 * gap + label;
  // panels side by side, `perRow` to a row: the size at which they fit the width and (in
  // ceil(count / perRow) rows of panels) the window's height; the best over every perRow, so
  // 7x7x7's seven layers stand in a grid on a desktop, not in one column
  let best = 0, widthBest = 0;
  for (let perRow = 1; perRow <= count; perRow++) {
    const panelWidth = (width - (perRow - 1) * GAP_PANELS) / perRow;
    const byWidth = (panelWidth - fixed) / (cols * ring);
    const panelRows = Math.ceil(count / perRow);
    const titled = count > 1 ? TITLE : 0;
    const panelHeight = (height - (panelRows - 1) * GAP_PANELS) / panelRows - titled;
    const byHeight = (panelHeight - (rows - 1) * gap - 2 * gap - label) / (rows * ring);
    const cell = Math.min(byWidth, byHeight);
    if (cell > best) best = cell;
    if (byWidth > widthBest && perRow === 1) widthBest = byWidth;
  }
  // at least MIN_CELL (the board then scrolls in its own box), unless the person zoomed out or
  // the board fits its box whole at FIT_CELL or more (15x15 on a phone: no column hidden)
  const floor = widthBest >= FIT_CELL && widthBest < MIN_CELL && count === 1 ? Math.floor(widthBest) : MIN_CELL;
  let cell = Math.floor(Math.max(floor, Math.min(cap, best)) * zoom);
  cell = Math.max(zoom < 1 ? 12 : floor, Math.min(160, cell));
  container.style.setProperty("--cell", `${cell}px`);
  container.dataset.cell = String(cell);
}

// can `key` (one character) start a move of the game on `view`'s board (a cell's name, or a
// legal move's notation: 2:b2, !b2, 2,1,3, pass)?
export function startsMove(view, key) {
  if (!view || !key || key.length !== 1) return false;
  const k = key.toLowerCase();
  for (const p of view.panels) {
    for (const row of p.cells) for (const c of row) if (c && c.name.toLowerCase().startsWith(k)) return true;
  }
  return view.moves.some((m) => typeof m.move === "string" && m.move.toLowerCase().startsWith(k));
}

// the navigation folds into a Menu button on small screens
export function setupNav() {
  const toggle = document.getElementById("nav-toggle");
  const nav = document.getElementById("nav");
  if (!toggle || !nav) return;
  toggle.addEventListener("click", () => {
    const open = nav.classList.toggle("open");
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });
  nav.addEventListener("click", (event) => {
    if (event.target.closest("a")) { nav.classList.remove("open"); toggle.setAttribute("aria-expanded", "false"); }
  });
}

// the view turned by `quarters` quarter turns clockwise (2: flipped), each panel's labels with it
export function turnView(view, quarters) {
  let out = view;
  for (let q = 0; q < ((quarters % 4) + 4) % 4; q++) {
    out = {
      ...out,
      panels: out.panels.map((p) => {
        const rows = p.cells.length, cols = p.cells[0].length;
        const cells = [];
        for (let c = 0; c < cols; c++) {
          const row = [];
          for (let r = rows - 1; r >= 0; r--) row.push(p.cells[r][c]);
          cells.push(row);
        }
        return { ...p, cells, rows: p.columns ? p.columns.slice() : p.columns, columns: p.rows ? p.rows.slice().reverse() : p.rows };
      }),
    };
  }
  return out;
}
