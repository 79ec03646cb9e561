// Edit mode: pieces dragged on, off and around the board, from the palette or with
// the keyboard; each edit sent to the server, which checks it (a refused one is rolled back).

import { squareName, pieceName } from "./codec.js";
import { $, state, setPosition, svg, drawPiece, render, renderBoard, announce, squareAt, boardPoint } from "./board.js";

// Edits apply to the board last sent, so quick edits in a row all count; the server checks
// each (a footman on its last rank is refused) and a refused one leaves the last good position.
export function editedBoard(change) {
  const base = state.pendingEdit ||
    { board: state.board, penalties: state.penalties, quiet: state.quiet, turn: state.turn };
  const next = { board: base.board.slice(), penalties: base.penalties.slice(), quiet: base.quiet, turn: base.turn };
  change(next);
  return next;
}

export async function commitEdit(change) {
  const next = editedBoard(change);
  state.pendingEdit = next;
  state.analysis = null;
  await setPosition(next);
  if (state.pendingEdit === next) state.pendingEdit = null;
  syncEditControls();
}

export async function placePiece(piece, from, to) {
  await commitEdit((next) => {
    if (from !== null) next.board[from] = null;
    if (to !== null) next.board[to] = piece;
  });
}

export function editActivate(sq) {
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

export function buildPalette() {
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

export function arm(piece) {
  state.armed = state.armed === piece ? null : piece;
  for (const box of $("palette").querySelectorAll("svg")) {
    box.setAttribute("aria-pressed", String(box.dataset.piece === state.armed));
    box.classList.toggle("armed", box.dataset.piece === state.armed);
  }
  if (state.armed) announce(`${pieceName(piece)}: choose squares on the board to place it; Escape stops.`);
}

export function startDrag(event, piece, from) {
  event.preventDefault();
  state.drag = { piece, from, moved: false, startX: event.clientX, startY: event.clientY };
  document.addEventListener("pointermove", moveDrag);
  document.addEventListener("pointerup", endDrag, { once: true });
}

export function moveDrag(event) {
  const drag = state.drag;
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 6) return;
  if (!drag.moved) { drag.moved = true; renderBoard(); }
  const layer = $("layer-drag");
  layer.replaceChildren();
  const p = boardPoint(event.clientX, event.clientY);
  drawPiece(drag.piece, p.x - 50, p.y - 60, layer);
}

export function endDrag(event) {
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

export function syncEditControls() {
  $("pen-white").value = String(state.penalties[0]);
  $("pen-black").value = String(state.penalties[1]);
}
