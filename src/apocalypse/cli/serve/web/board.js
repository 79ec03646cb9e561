// The page's state and the board drawn in SVG: squares, pieces, marks, arrows, the
// cursor; setPosition loads a position through the server, only the latest request counting.

import { START, FILES, squareName, squareIndex, sideOf, parseMove, moveText } from "./codec.js";
import { api } from "./api.js";
import { analyse, renderAnalysis } from "./analyse.js";
import { lastTurn, humanMoves, renderPrompt, renderBanner } from "./play.js";
import { syncEditControls } from "./edit.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

export const SQUARE = 100;      // square size in board units

export const LEFT = 30;         // room for the rank numbers

export const $ = (id) => document.getElementById(id);

export const state = {
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
  positionToken: 0,                // the latest /api/board + /api/moves request
  pendingEdit: null,               // edit: the board sent and not yet answered
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

// Loads a position string, or an edited board ({board, penalties, quiet, turn}): /api/board
// checks it and gives its squares, /api/moves the declarable moves. Only the latest request
// counts: one overtaken by a later one is dropped when it answers. False when the server
// refused it or it was overtaken; the page then keeps showing the last good position.
export async function setPosition(source) {
  const token = ++state.positionToken;
  let board;
  let reply;
  try {
    board = await api("/api/board", typeof source === "string" ? { position: source } : source);
    reply = await api("/api/moves", { position: board.position });
  } catch (error) {
    if (token !== state.positionToken) return false;
    $("position-error").textContent = error.message;
    render();
    return false;
  }
  if (token !== state.positionToken) return false;
  $("position-error").textContent = "";
  if (reply.position !== state.position) announce("");
  state.position = reply.position;
  state.board = board.board;
  state.penalties = board.penalties;
  state.quiet = board.quiet;
  state.turn = board.turn;
  state.moves = { white: reply.white, black: reply.black };
  state.outcome = reply.outcome;
  state.selected = null;
  state.redeployFor = null;
  state.focusSquare = null;
  $("position").value = reply.position;
  render();
  return true;
}

export function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// Top-left corner of a square on the drawn board (White at the bottom unless flipped).
export function corner(sq) {
  const file = sq % 5;
  const rank = Math.floor(sq / 5);
  const col = state.flipped ? 4 - file : file;
  const row = state.flipped ? rank : 4 - rank;
  return [LEFT + col * SQUARE, row * SQUARE];
}

export function center(sq) {
  const [x, y] = corner(sq);
  return [x + SQUARE / 2, y + SQUARE / 2];
}

export const FOOTMAN_BODY = "M38 47 Q50 41 62 47 Q58 53 57 57 Q60 69 68 77 L71 81 Q73 87 67 87 " +
  "L33 87 Q27 87 29 81 L32 77 Q40 69 43 57 Q42 53 38 47 Z";

export const HORSEMAN_BODY = "M31 87 L73 87 Q76 81 71 76 C76 58 75 37 62 25 L60 13 L53 21 L47 13 " +
  "L44 24 C35 28 26 39 21 51 Q19 60 26 62 Q32 64 37 58 L45 52 C47 61 39 70 33 76 Q28 80 31 87 Z";

// One piece drawn in a 100-unit box whose top-left corner is (x, y).
export function drawPiece(piece, x, y, parent, extraClass) {
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

export function render() {
  renderBoard();
  renderCounters();
  renderBanner();
  renderPrompt();
  if (state.mode === "analyse") renderAnalysis();
  syncEditControls();
}

export function renderBoard() {
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

export function markSquare(parent, sq, cls) {
  const [x, y] = corner(sq);
  return svg("rect", { class: `mark ${cls}`, x, y, width: SQUARE, height: SQUARE }, parent);
}

export function renderMarks(layer) {
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
export function drawArrow(layer, side, moveText, from, to, redeploy, width, label, extraClass) {
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

export function renderArrows() {
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

export function renderCursor() {
  const layer = $("layer-cursor");
  layer.replaceChildren();
  const [x, y] = corner(state.cursor);
  svg("rect", { class: "cursor", x: x + 3, y: y + 3, width: SQUARE - 6, height: SQUARE - 6, rx: 6 }, layer);
}

export function renderCounters() {
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

export function squareAt(clientX, clientY) {
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

export function boardPoint(clientX, clientY) {
  const board = $("board");
  const point = board.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  return point.matrixTransform(board.getScreenCTM().inverse());
}

export function announce(text) { $("board-status").textContent = text; }
