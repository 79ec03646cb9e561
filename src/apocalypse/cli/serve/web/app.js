// The page's behaviour: draws the board in SVG, asks the server's JSON API for moves,
// analyses and turns, and lets a person edit positions and play the engine with a mouse, a
// finger or the keyboard alone. No libraries: everything the page needs is in this file.
"use strict";

const START = "npppn/p3p/5/P3P/NPPPN 00 0 1";
const SVG_NS = "http://www.w3.org/2000/svg";
const SQUARE = 100;      // square size in board units
const LEFT = 30;         // room for the rank numbers
const FILES = "abcde";
const $ = (id) => document.getElementById(id);

const state = {
  mode: "analyse",
  position: START,
  board: new Array(25).fill(null), // "P" "N" White, "p" "n" Black, by square index rank*5+file
  penalties: [0, 0],
  quiet: 0,
  turn: 1,
  moves: { white: [], black: [] },
  outcome: null,
  flipped: false,
  cursor: 2,                       // c1
  analysis: null,
  analysisToken: 0,
  focusSquare: null,               // analyse: only this piece's arrows stand out
  selected: null,                  // play: the square of the piece picked
  redeployFor: null,               // play: [from, to] waiting for a redeploy square
  armed: null,                     // edit: piece to place on the next square chosen
  lifted: null,                    // edit: square of the piece picked up with Enter
  drag: null,                      // edit: {piece, from, moved, x, y}
  game: { human: "white", turns: [], busy: false },
  pending: 0,
  movetime: 1000,
};

// ---------- squares, positions, moves ----------

function squareName(sq) { return FILES[sq % 5] + (Math.floor(sq / 5) + 1); }
function squareIndex(name) { return (Number(name[1]) - 1) * 5 + FILES.indexOf(name[0]); }
function sideOf(piece) { return piece === piece.toUpperCase() ? "white" : "black"; }
function pieceName(piece) {
  return (sideOf(piece) === "white" ? "White " : "Black ") +
    (piece.toLowerCase() === "p" ? "footman" : "horseman");
}
function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function parseMove(text) {
  if (text === "0000") return null;
  const [main, redeploy] = text.split("@");
  return {
    from: squareIndex(main.slice(0, 2)),
    to: squareIndex(main.slice(2, 4)),
    redeploy: redeploy ? squareIndex(redeploy) : null,
  };
}

// Reads a position string the server has already checked and written out in full.
function readPosition(text) {
  const fields = text.trim().split(/\s+/);
  const board = new Array(25).fill(null);
  fields[0].split("/").forEach((row, i) => {
    const rank = 4 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-5]/.test(ch)) file += Number(ch);
      else board[rank * 5 + file++] = ch;
    }
  });
  const pen = fields[1] || "00";
  state.board = board;
  state.penalties = [Number(pen[0]), Number(pen[1])];
  state.quiet = Number(fields[2] || 0);
  state.turn = Number(fields[3] || 1);
}

function writePosition() {
  const rows = [];
  for (let rank = 4; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < 5; file++) {
      const piece = state.board[rank * 5 + file];
      if (!piece) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += piece;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join("/")} ${state.penalties[0]}${state.penalties[1]} ${state.quiet} ${state.turn}`;
}

// ---------- the server ----------

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, body) {
  state.pending++;
  document.body.dataset.busy = "1";
  try {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, text.trim() || response.statusText);
    return JSON.parse(text);
  } finally {
    state.pending--;
    document.body.dataset.busy = state.pending > 0 ? "1" : "0";
  }
}

// Loads a position through /api/moves (which checks it); false if the server refused it.
async function setPosition(text) {
  let reply;
  try {
    reply = await api("/api/moves", { position: text });
  } catch (error) {
    $("position-error").textContent = error.message;
    return false;
  }
  $("position-error").textContent = "";
  if (reply.position !== state.position) announce("");
  state.position = reply.position;
  readPosition(reply.position);
  state.moves = { white: reply.white, black: reply.black };
  state.outcome = reply.outcome;
  state.selected = null;
  state.redeployFor = null;
  state.focusSquare = null;
  $("position").value = reply.position;
  render();
  return true;
}

// ---------- drawing ----------

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// Top-left corner of a square on the drawn board (White at the bottom unless flipped).
function corner(sq) {
  const file = sq % 5;
  const rank = Math.floor(sq / 5);
  const col = state.flipped ? 4 - file : file;
  const row = state.flipped ? rank : 4 - rank;
  return [LEFT + col * SQUARE, row * SQUARE];
}
function center(sq) {
  const [x, y] = corner(sq);
  return [x + SQUARE / 2, y + SQUARE / 2];
}

const FOOTMAN_BODY = "M38 47 Q50 41 62 47 Q58 53 57 57 Q60 69 68 77 L71 81 Q73 87 67 87 " +
  "L33 87 Q27 87 29 81 L32 77 Q40 69 43 57 Q42 53 38 47 Z";
const HORSEMAN_BODY = "M31 87 L73 87 Q76 81 71 76 C76 58 75 37 62 25 L60 13 L53 21 L47 13 " +
  "L44 24 C35 28 26 39 21 51 Q19 60 26 62 Q32 64 37 58 L45 52 C47 61 39 70 33 76 Q28 80 31 87 Z";

// One piece drawn in a 100-unit box whose top-left corner is (x, y).
function drawPiece(piece, x, y, parent, extraClass) {
  const g = svg("g", {
    class: `piece ${sideOf(piece)}${extraClass ? " " + extraClass : ""}`,
    transform: `translate(${x} ${y})`,
    "data-piece": piece,
  }, parent);
  if (piece.toLowerCase() === "p") {
    svg("path", { class: "body", d: FOOTMAN_BODY }, g);
    svg("circle", { class: "body", cx: 50, cy: 31, r: 13 }, g);
  } else {
    svg("path", { class: "body", d: HORSEMAN_BODY }, g);
    svg("circle", { class: "detail", cx: 41, cy: 36, r: 2.6 }, g);
    svg("path", { class: "detail", d: "M63 33 C68 47 68 60 64 71", fill: "none" }, g);
  }
  return g;
}

function render() {
  renderBoard();
  renderCounters();
  renderBanner();
  renderPrompt();
  if (state.mode === "analyse") renderAnalysis();
  syncEditControls();
}

function renderBoard() {
  const squares = $("layer-squares");
  const marks = $("layer-marks");
  const pieces = $("layer-pieces");
  for (const layer of [squares, marks, pieces]) layer.replaceChildren();
  for (let sq = 0; sq < 25; sq++) {
    const [x, y] = corner(sq);
    const dark = (sq % 5 + Math.floor(sq / 5)) % 2 === 0;
    svg("rect", {
      class: `square ${dark ? "dark" : "light"}`, x, y, width: SQUARE, height: SQUARE,
      "data-square": squareName(sq),
    }, squares);
  }
  for (let i = 0; i < 5; i++) {
    const file = state.flipped ? 4 - i : i;
    const rank = state.flipped ? i : 4 - i;
    svg("text", { class: "coord", x: LEFT + i * SQUARE + SQUARE / 2, y: 5 * SQUARE + 15 }, squares)
      .textContent = FILES[file];
    svg("text", { class: "coord", x: LEFT / 2, y: i * SQUARE + SQUARE / 2 }, squares)
      .textContent = String(rank + 1);
  }
  renderMarks(marks);
  for (let sq = 0; sq < 25; sq++) {
    const piece = state.board[sq];
    if (!piece) continue;
    const [x, y] = corner(sq);
    const lifted = (state.drag && state.drag.from === sq && state.drag.moved) || state.lifted === sq;
    drawPiece(piece, x, y, pieces, lifted ? "lifted" : "");
  }
  renderArrows();
  renderCursor();
}

function markSquare(parent, sq, cls) {
  const [x, y] = corner(sq);
  return svg("rect", { class: `mark ${cls}`, x, y, width: SQUARE, height: SQUARE }, parent);
}

function renderMarks(layer) {
  if (state.mode === "play") {
    const turn = lastTurn();
    if (turn) {
      for (const side of ["white", "black"]) {
        const m = parseMove(turn[side].played);
        if (m) {
          markSquare(layer, m.from, "last-from");
          markSquare(layer, m.redeploy ?? m.to, "last-to");
        }
        const captured = turn[side].captured;
        if (captured) {
          const [cx, cy] = center(squareIndex(captured.square));
          svg("circle", { class: "mark capture", cx, cy, r: 40 }, layer);
        }
      }
      if (turn.collision) {
        const [cx, cy] = center(squareIndex(turn.collision.square));
        svg("path", { class: "mark collision", d: `M${cx - 30} ${cy - 30} L${cx + 30} ${cy + 30} M${cx + 30} ${cy - 30} L${cx - 30} ${cy + 30}` }, layer);
      }
    }
    if (state.selected !== null) {
      markSquare(layer, state.selected, "selected");
      for (const m of humanMoves()) {
        if (m.from === state.selected) {
          const [cx, cy] = center(m.to);
          svg("circle", { class: "mark target", cx, cy, r: 15 }, layer);
        }
      }
    }
    if (state.redeployFor) {
      for (const m of humanMoves()) {
        if (m.from === state.redeployFor[0] && m.to === state.redeployFor[1] && m.redeploy !== null) {
          const [x, y] = corner(m.redeploy);
          svg("rect", { class: "mark redeploy", x: x + 8, y: y + 8, width: 84, height: 84, rx: 8 }, layer);
        }
      }
    }
  }
  if (state.mode === "edit" && state.lifted !== null) markSquare(layer, state.lifted, "selected");
}

// One arrow from square `from` to square `to` whose shaft is `width` units wide.
function drawArrow(layer, side, moveText, from, to, redeploy, width, label, extraClass) {
  const g = svg("g", { class: `arrow ${side}${extraClass ? " " + extraClass : ""}`, "data-move": moveText, "data-side": side }, layer);
  const [x1, y1] = center(from);
  const [x2, y2] = center(to);
  const length = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / length;
  const uy = (y2 - y1) / length;
  const nx = -uy;
  const ny = ux;
  const shift = 7;                       // keeps a move and its reverse apart
  const head = Math.max(16, width * 0.9);
  const headWidth = width + 16;
  const sx = x1 + ux * 22 + nx * shift;
  const sy = y1 + uy * 22 + ny * shift;
  const ex = x2 - ux * 24 + nx * shift;
  const ey = y2 - uy * 24 + ny * shift;
  const bx = ex - ux * head;
  const by = ey - uy * head;
  const pts = [
    [sx + nx * width / 2, sy + ny * width / 2],
    [bx + nx * width / 2, by + ny * width / 2],
    [bx + nx * headWidth / 2, by + ny * headWidth / 2],
    [ex, ey],
    [bx - nx * headWidth / 2, by - ny * headWidth / 2],
    [bx - nx * width / 2, by - ny * width / 2],
    [sx - nx * width / 2, sy - ny * width / 2],
  ];
  if (redeploy !== null) {
    const [rx, ry] = center(redeploy);
    svg("path", { class: "tail", d: `M${x2} ${y2} L${rx} ${ry}` }, g);
    svg("circle", { class: "ring", cx: rx, cy: ry, r: 20 }, g);
  }
  svg("polygon", { class: "shape", points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") }, g);
  if (label) {
    const t = svg("text", {
      class: "label",
      x: ((sx + bx) / 2 + nx * (width / 2 + 11)).toFixed(1),
      y: ((sy + by) / 2 + ny * (width / 2 + 11)).toFixed(1),
    }, g);
    t.textContent = label;
  }
  return g;
}

function renderArrows() {
  const layer = $("layer-arrows");
  layer.replaceChildren();
  $("board").classList.toggle("focusing", false);
  if (state.mode === "analyse" && state.analysis && state.analysis.position === state.position) {
    for (const side of ["white", "black"]) {
      for (const [moveText, p] of state.analysis[side]) {
        const m = parseMove(moveText);
        if (!m) continue;
        const label = p >= 0.04 ? `${Math.round(p * 100)}%` : "";
        const g = drawArrow(layer, side, moveText, m.from, m.to, m.redeploy, 3 + 22 * p, label);
        if (state.focusSquare !== null && m.from === state.focusSquare) g.classList.add("highlight");
      }
    }
    if (state.focusSquare !== null) $("board").classList.add("focusing");
  }
  if (state.mode === "play") {
    const turn = lastTurn();
    if (turn) {
      for (const side of ["white", "black"]) {
        const m = parseMove(turn[side].played);
        if (m) drawArrow(layer, side, turn[side].played, m.from, m.to, m.redeploy, 8, "", "declared");
      }
    }
  }
}

function renderCursor() {
  const layer = $("layer-cursor");
  layer.replaceChildren();
  const [x, y] = corner(state.cursor);
  svg("rect", { class: "cursor", x: x + 3, y: y + 3, width: SQUARE - 6, height: SQUARE - 6, rx: 6 }, layer);
}

function renderCounters() {
  $("counters").innerHTML = "";
  const items = [
    ["Penalties", `White ${state.penalties[0]} · Black ${state.penalties[1]}`],
    ["Quiet turns", String(state.quiet)],
    ["Turn", String(state.turn)],
  ];
  for (const [name, value] of items) {
    const span = document.createElement("span");
    span.append(`${name}: `);
    const strong = document.createElement("strong");
    strong.textContent = value;
    span.append(strong);
    $("counters").append(span);
  }
}

function renderBanner() {
  const banner = $("banner");
  const outcome = state.outcome;
  if (!outcome || !outcome.over || state.mode !== "play") {
    banner.hidden = true;
    return;
  }
  const human = state.game.human;
  $("banner-title").textContent = outcome.winner ? `${capitalized(outcome.winner)} wins` : "Draw";
  const verdict = !outcome.winner ? "" : outcome.winner === human ? " — you win" : " — the engine wins";
  $("banner-reason").textContent = `${capitalized(outcome.reason)}${verdict}`;
  $("banner-undo").hidden = state.game.turns.length === 0;
  banner.className = `banner ${outcome.winner || "draw"}`;
  banner.hidden = false;
}

// ---------- analysis ----------

function sortedStrategy(object) {
  return Object.entries(object || {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

async function analyse() {
  const token = ++state.analysisToken;
  const position = state.position;
  state.analysis = null;
  renderArrows();
  if (state.outcome && state.outcome.over) {
    state.analysis = {
      position, value: state.outcome.winner === "white" ? 1 : state.outcome.winner === "black" ? -1 : 0,
      white: [], black: [], exact: true, kind: `game over: ${state.outcome.text}`, meta: "",
    };
    renderAnalysis();
    return;
  }
  $("value-number").textContent = "…";
  $("value-kind").textContent = "thinking";
  $("value-kind").className = "value-kind";
  $("analysis-meta").textContent = "";
  $("analyse").disabled = true;
  let result = null;
  try {
    try {
      const probe = await api("/api/probe", { position });
      result = {
        value: probe.value, white: sortedStrategy(probe.white), black: sortedStrategy(probe.black),
        exact: true, kind: "exact · tablebase",
        meta: probe.win ? `The winner's strategy makes progress (${probe.win === "sure" ? "a sure win" : "wins with probability → 1"}).` : "",
      };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
    }
    if (!result) {
      const [kind, amount] = $("analysis-limit").value.split(":");
      const reply = await api("/api/solve", { position, [kind]: Number(amount) });
      const common = { value: reply.value, white: sortedStrategy(reply.white), black: sortedStrategy(reply.black) };
      if (kind === "turns") {
        result = {
          ...common, exact: true, kind: `exact · ${reply.turns}-turn game`,
          meta: `Games unfinished after ${reply.turns} turns count as draws. ${reply.nodes.toLocaleString("en")} positions, ${reply.time_ms} ms, exploitability ${reply.exploitability}.`,
        };
      } else {
        result = {
          ...common, exact: reply.exact,
          kind: reply.exact ? `exact · search reached every end (depth ${reply.depth})` : `estimated at depth ${reply.depth}`,
          meta: `${reply.nodes.toLocaleString("en")} positions in ${reply.time_ms} ms.`,
        };
      }
    }
  } catch (error) {
    if (token !== state.analysisToken) return;
    $("value-number").textContent = "–";
    $("value-kind").textContent = "";
    $("analysis-meta").textContent = error.message;
    $("analyse").disabled = false;
    return;
  }
  if (token !== state.analysisToken) return;
  result.position = position;
  state.analysis = result;
  $("analyse").disabled = false;
  renderAnalysis();
  renderArrows();
}

function formatValue(v) {
  if (Math.abs(v) < 5e-4) return "0.000";
  return (v > 0 ? "+" : "−") + Math.abs(v).toFixed(3);
}

function renderAnalysis() {
  const a = state.analysis && state.analysis.position === state.position ? state.analysis : null;
  const fill = $("value-fill");
  const marker = $("value-marker");
  for (const side of ["white", "black"]) {
    const body = $(`${side}-table`).querySelector("tbody");
    body.replaceChildren();
    if (!a) continue;
    for (const [moveText, p] of a[side]) {
      const row = document.createElement("tr");
      row.tabIndex = 0;
      row.dataset.move = moveText;
      row.dataset.side = side;
      const move = document.createElement("td");
      move.className = "move";
      move.textContent = moveText === "0000" ? "0000 (pass)" : moveText;
      const prob = document.createElement("td");
      prob.innerHTML = `<div class="prob ${side}"><div class="bar" style="width:${(p * 70).toFixed(1)}%"></div><span class="pct">${(p * 100).toFixed(1)}%</span></div>`;
      row.append(move, prob);
      const focus = () => highlightMove(side, moveText, true);
      const blur = () => highlightMove(side, moveText, false);
      row.addEventListener("mouseenter", focus);
      row.addEventListener("mouseleave", blur);
      row.addEventListener("focus", focus);
      row.addEventListener("blur", blur);
      body.append(row);
    }
  }
  if (!a) {
    fill.style.width = "0";
    marker.style.left = "50%";
    return;
  }
  const v = Math.max(-1, Math.min(1, a.value));
  const pct = (v + 1) * 50;
  marker.style.left = `${pct}%`;
  fill.className = `value-fill ${v >= 0 ? "white" : "black"}`;
  fill.style.left = `${Math.min(50, pct)}%`;
  fill.style.width = `${Math.abs(pct - 50)}%`;
  $("value-bar").setAttribute("aria-valuenow", v.toFixed(3));
  $("value-number").textContent = formatValue(a.value);
  $("value-kind").textContent = a.kind;
  $("value-kind").className = `value-kind${a.exact ? " exact" : ""}`;
  $("analysis-meta").textContent = a.meta;
}

function highlightMove(side, moveText, on) {
  const board = $("board");
  board.classList.toggle("focusing", on);
  for (const g of board.querySelectorAll(".arrow")) {
    g.classList.toggle("highlight", on && g.dataset.side === side && g.dataset.move === moveText);
  }
}

// ---------- play ----------

function lastTurn() {
  const turns = state.game.turns;
  return turns.length ? turns[turns.length - 1].reply : null;
}

function humanMoves() {
  return state.moves[state.game.human].map(parseMove).filter((m) => m);
}

function moveText(m) {
  return squareName(m.from) + squareName(m.to) + (m.redeploy !== null ? "@" + squareName(m.redeploy) : "");
}

function renderPrompt() {
  const prompt = $("play-prompt");
  const human = state.game.human;
  const over = state.outcome && state.outcome.over;
  for (const id of ["declare", "pass", "move-input"]) $(id).disabled = over || state.game.busy;
  $("undo").disabled = state.game.busy || state.game.turns.length === 0;
  if (over) prompt.textContent = `Game over: ${state.outcome.text}.`;
  else if (state.game.busy) prompt.textContent = "Both moves are being revealed…";
  else if (state.redeployFor) prompt.textContent = `Pick the square where your footman redeploys.`;
  else if (state.selected !== null) prompt.textContent = `Pick the target of ${squareName(state.selected)}, or another piece.`;
  else prompt.textContent = `Your move as ${capitalized(human)}: pick a piece, then its target. The engine declares at the same time.`;
}

function playActivate(sq) {
  if (state.game.busy || (state.outcome && state.outcome.over)) return;
  const moves = humanMoves();
  if (state.redeployFor) {
    const [from, to] = state.redeployFor;
    const m = moves.find((c) => c.from === from && c.to === to && c.redeploy === sq);
    state.redeployFor = null;
    if (m) { declare(moveText(m)); return; }
    state.selected = null;
    render();
    return;
  }
  if (state.selected !== null) {
    const options = moves.filter((m) => m.from === state.selected && m.to === sq);
    if (options.length === 1 && options[0].redeploy === null) { declare(moveText(options[0])); return; }
    if (options.length > 0) {
      state.redeployFor = [state.selected, sq];
      state.selected = null;
      render();
      announce(`${squareName(sq)}: now pick the redeploy square.`);
      return;
    }
  }
  state.selected = moves.some((m) => m.from === sq) && state.selected !== sq ? sq : null;
  render();
}

async function declare(text) {
  if (state.game.busy || !text) return;
  const human = state.game.human;
  const engine = human === "white" ? "black" : "white";
  state.game.busy = true;
  state.selected = null;
  state.redeployFor = null;
  render();
  let reply;
  try {
    reply = await api("/api/play", {
      position: state.position,
      [human]: text,
      [engine]: "engine",
      movetime: Number($("engine-time").value),
    });
  } catch (error) {
    state.game.busy = false;
    render();
    $("reveal").replaceChildren(paragraph(error.message, "error"));
    return;
  }
  state.game.turns.push({ before: state.position, reply });
  $("move-input").value = "";
  await setPosition(reply.next);
  state.game.busy = false;
  render();
  renderReveal();
  renderHistory();
  announce(reply.report.join(". ") + (reply.outcome.over ? `. ${reply.outcome.text}.` : "."));
}

function paragraph(text, cls) {
  const p = document.createElement("p");
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

function renderReveal() {
  const box = $("reveal");
  box.replaceChildren();
  const turn = lastTurn();
  if (!turn) return;
  const human = state.game.human;
  const h3 = document.createElement("h3");
  h3.textContent = `Turn ${state.game.turns.length}: both moves revealed`;
  const chips = document.createElement("div");
  chips.className = "declared";
  for (const side of ["white", "black"]) {
    const chip = document.createElement("span");
    chip.className = `chip ${side}`;
    chip.append(`${side === human ? "You" : "Engine"} · ${capitalized(side)}`);
    const code = document.createElement("code");
    code.textContent = turn[side].declared;
    chip.append(code);
    chips.append(chip);
  }
  const list = document.createElement("ul");
  for (const line of turn.report) {
    const li = document.createElement("li");
    li.textContent = line;
    if (/void|removed|captures/.test(line)) li.className = "bad";
    list.append(li);
  }
  box.append(h3, chips, list);
  for (const choice of turn.engine) {
    const strategy = sortedStrategy(choice.search[choice.side]);
    const shown = strategy.slice(0, 4).map(([m, p]) => `${m} ${Math.round(p * 100)}%`).join(", ");
    const more = strategy.length > 4 ? `, … (${strategy.length} moves)` : "";
    const kind = choice.search.exact ? "exact" : `depth ${choice.search.depth}`;
    box.append(paragraph(
      `The engine drew ${choice.move} (${(choice.probability * 100).toFixed(1)}%) from its strategy ${shown}${more}; value ${formatValue(choice.search.value)} for White, ${kind}.`,
      "engine-note"));
  }
}

function renderHistory() {
  const list = $("history");
  list.replaceChildren();
  state.game.turns.forEach(({ reply }) => {
    const li = document.createElement("li");
    const events = [];
    for (const side of ["white", "black"]) {
      if (reply[side].void) events.push(`${side} void`);
      if (reply[side].captured) events.push(`${side} takes ${reply[side].captured.square}`);
    }
    if (reply.collision) events.push(`collision ${reply.collision.square}`);
    li.textContent = `${reply.white.declared} ${reply.black.declared}${events.length ? "  (" + events.join(", ") + ")" : ""}`;
    list.append(li);
  });
  const turn = lastTurn();
  if (turn && turn.outcome.over) {
    const li = document.createElement("li");
    li.className = "result";
    li.textContent = `${turn.outcome.result} ${turn.outcome.text}`;
    list.append(li);
  }
}

async function newGame(position) {
  state.game.turns = [];
  state.game.human = $("human-side").value;
  state.flipped = state.game.human === "black";
  $("flip").setAttribute("aria-pressed", String(state.flipped));
  $("reveal").replaceChildren();
  renderHistory();
  await setPosition(position || START);
}

async function undo() {
  if (state.game.busy || state.game.turns.length === 0) return;
  const turn = state.game.turns.pop();
  await setPosition(turn.before);
  renderReveal();
  renderHistory();
  announce("Last turn taken back.");
}

// ---------- edit ----------

function footmanOnLastRank(piece, sq) {
  const rank = Math.floor(sq / 5);
  return (piece === "P" && rank === 4) || (piece === "p" && rank === 0);
}

async function placePiece(piece, from, to) {
  if (to !== null && footmanOnLastRank(piece, to)) {
    $("position-error").textContent = `A ${pieceName(piece).toLowerCase()} cannot stand on ${squareName(to)}, its last rank.`;
    render();
    return;
  }
  if (from !== null) state.board[from] = null;
  if (to !== null) state.board[to] = piece;
  await commitEdit();
}

async function commitEdit() {
  state.analysis = null;
  await setPosition(writePosition());
}

function editActivate(sq) {
  if (state.armed) {
    placePiece(state.armed, null, sq);
    return;
  }
  if (state.lifted !== null) {
    const from = state.lifted;
    state.lifted = null;
    if (from !== sq) placePiece(state.board[from], from, sq);
    else render();
    return;
  }
  if (state.board[sq]) {
    state.lifted = sq;
    render();
    announce(`${pieceName(state.board[sq])} on ${squareName(sq)} picked up: move the cursor and press Enter.`);
  }
}

function buildPalette() {
  const palette = $("palette");
  for (const piece of ["P", "N", "p", "n"]) {
    const box = svg("svg", { viewBox: "0 0 100 100", tabindex: "0", role: "button", "aria-label": `Place a ${pieceName(piece)}`, "aria-pressed": "false", "data-piece": piece });
    drawPiece(piece, 0, 0, box);
    box.addEventListener("pointerdown", (event) => startDrag(event, piece, null));
    box.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); arm(piece); }
    });
    palette.append(box);
  }
}

function arm(piece) {
  state.armed = state.armed === piece ? null : piece;
  for (const box of $("palette").querySelectorAll("svg")) {
    box.setAttribute("aria-pressed", String(box.dataset.piece === state.armed));
    box.style.outline = box.dataset.piece === state.armed ? "3px solid var(--accent)" : "";
  }
  if (state.armed) announce(`${pieceName(piece)}: choose squares on the board to place it; Escape stops.`);
}

// ---------- pointer and keyboard ----------

function squareAt(clientX, clientY) {
  const board = $("board");
  const point = board.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  const p = point.matrixTransform(board.getScreenCTM().inverse());
  const col = Math.floor((p.x - LEFT) / SQUARE);
  const row = Math.floor(p.y / SQUARE);
  if (col < 0 || col > 4 || row < 0 || row > 4) return null;
  const file = state.flipped ? 4 - col : col;
  const rank = state.flipped ? row : 4 - row;
  return rank * 5 + file;
}

function boardPoint(clientX, clientY) {
  const board = $("board");
  const point = board.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  return point.matrixTransform(board.getScreenCTM().inverse());
}

function startDrag(event, piece, from) {
  event.preventDefault();
  state.drag = { piece, from, moved: false, startX: event.clientX, startY: event.clientY };
  document.addEventListener("pointermove", moveDrag);
  document.addEventListener("pointerup", endDrag, { once: true });
}

function moveDrag(event) {
  const drag = state.drag;
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 6) return;
  if (!drag.moved) { drag.moved = true; renderBoard(); }
  const layer = $("layer-drag");
  layer.replaceChildren();
  const p = boardPoint(event.clientX, event.clientY);
  drawPiece(drag.piece, p.x - 50, p.y - 60, layer);
}

function endDrag(event) {
  document.removeEventListener("pointermove", moveDrag);
  const drag = state.drag;
  state.drag = null;
  $("layer-drag").replaceChildren();
  if (!drag) return;
  const sq = squareAt(event.clientX, event.clientY);
  if (!drag.moved) {
    if (drag.from === null) arm(drag.piece);
    else if (sq !== null) editActivate(sq);
    return;
  }
  if (drag.from === sq) { render(); return; }
  placePiece(drag.piece, drag.from, sq);
}

function announce(text) { $("board-status").textContent = text; }

function describeCursor() {
  const piece = state.board[state.cursor];
  return `${squareName(state.cursor)}: ${piece ? pieceName(piece) : "empty"}`;
}

function activate(sq) {
  state.cursor = sq;
  if (state.mode === "play") playActivate(sq);
  else if (state.mode === "edit") editActivate(sq);
  else {
    state.focusSquare = state.board[sq] && state.focusSquare !== sq ? sq : null;
    renderArrows();
    renderCursor();
  }
}

function onBoardKey(event) {
  const steps = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (steps[event.key]) {
    event.preventDefault();
    const [dc, dr] = steps[event.key];
    const file = state.cursor % 5;
    const rank = Math.floor(state.cursor / 5);
    const col = Math.min(4, Math.max(0, (state.flipped ? 4 - file : file) + dc));
    const row = Math.min(4, Math.max(0, (state.flipped ? rank : 4 - rank) + dr));
    state.cursor = (state.flipped ? row : 4 - row) * 5 + (state.flipped ? 4 - col : col);
    renderCursor();
    announce(describeCursor());
    return;
  }
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    activate(state.cursor);
    return;
  }
  if (event.key === "Escape") {
    state.selected = null;
    state.redeployFor = null;
    state.lifted = null;
    state.focusSquare = null;
    if (state.armed) arm(state.armed);
    render();
    return;
  }
  if (state.mode !== "edit") return;
  if ("PNpn".includes(event.key) && event.key.length === 1) {
    event.preventDefault();
    placePiece(event.key, null, state.cursor);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    if (state.board[state.cursor]) placePiece(state.board[state.cursor], state.cursor, null);
  }
}

// ---------- modes and controls ----------

async function setMode(mode) {
  state.mode = mode;
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const on = tab.dataset.mode === mode;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  state.selected = null;
  state.redeployFor = null;
  state.lifted = null;
  if (state.armed) arm(state.armed);
  render();
  if (mode === "analyse" && (!state.analysis || state.analysis.position !== state.position)) analyse();
  if (mode === "play") { renderReveal(); renderHistory(); }
}

function wire() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => setMode(tab.dataset.mode));
    tab.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      const next = tabs[(i + step + tabs.length) % tabs.length];
      next.focus();
      setMode(next.dataset.mode);
    });
  });
  const board = $("board");
  board.addEventListener("click", (event) => {
    if (state.mode === "edit") return;
    const sq = squareAt(event.clientX, event.clientY);
    if (sq !== null) activate(sq);
  });
  board.addEventListener("pointerdown", (event) => {
    if (state.mode !== "edit") return;
    const sq = squareAt(event.clientX, event.clientY);
    if (sq === null) return;
    state.cursor = sq;
    if (state.board[sq] && !state.armed) startDrag(event, state.board[sq], sq);
    else editActivate(sq);
  });
  board.addEventListener("keydown", onBoardKey);
  // Say where the cursor is when the keyboard brings the focus here (a click says it itself).
  board.addEventListener("focus", () => {
    if (board.matches(":focus-visible")) announce(describeCursor());
  });

  $("position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("position").value.trim();
    if (state.mode === "play") {
      if (await setPosition(text)) await newGame(state.position);
    } else if (await setPosition(text)) {
      if (state.mode === "analyse") analyse();
    }
  });
  $("copy").addEventListener("click", async () => {
    $("position").value = state.position;
    try {
      await navigator.clipboard.writeText(state.position);
      announce("Position copied.");
    } catch (error) {
      $("position").select();
      announce("Position selected: copy it with Ctrl+C.");
    }
  });
  $("analyse").addEventListener("click", analyse);
  $("analysis-limit").addEventListener("change", analyse);
  $("flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    $("flip").setAttribute("aria-pressed", String(state.flipped));
    renderBoard();
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    declare($("move-input").value.trim());
  });
  $("pass").addEventListener("click", () => declare("0000"));
  $("undo").addEventListener("click", undo);
  $("banner-undo").addEventListener("click", undo);
  $("new-game").addEventListener("click", () => newGame(START));
  $("banner-new").addEventListener("click", () => newGame(START));
  $("human-side").addEventListener("change", () => newGame(state.game.turns.length ? state.game.turns[0].before : state.position));
  $("pen-white").addEventListener("change", (e) => { state.penalties[0] = Number(e.target.value); commitEdit(); });
  $("pen-black").addEventListener("change", (e) => { state.penalties[1] = Number(e.target.value); commitEdit(); });
  $("edit-start").addEventListener("click", () => { state.analysis = null; setPosition(START); });
  $("edit-clear").addEventListener("click", () => { state.board.fill(null); commitEdit(); });
  $("edit-play").addEventListener("click", async () => {
    const position = state.position;
    await setMode("play");
    await newGame(position);
  });
  buildPalette();
}

function syncEditControls() {
  $("pen-white").value = String(state.penalties[0]);
  $("pen-black").value = String(state.penalties[1]);
}

async function start() {
  wire();
  try {
    const info = await api("/api/info");
    state.movetime = info.movetime;
    const option = [...$("engine-time").options].find((o) => Number(o.value) === info.movetime);
    if (!option) $("engine-time").add(new Option(`${info.movetime / 1000} s`, String(info.movetime), true, true));
    else $("engine-time").value = option.value;
  } catch (error) {
    announce(`Server not reachable: ${error.message}`);
  }
  const fromAddress = new URLSearchParams(location.search).get("position");
  if (!(await setPosition(fromAddress || START))) await setPosition(START);
  await setMode("analyse");
}

start();
