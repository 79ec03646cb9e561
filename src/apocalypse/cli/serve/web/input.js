// Pointer and keyboard on the board, the mode tabs and every control's wiring.

import { START, squareName, pieceName } from "./codec.js";
import { $, state, setPosition, render, renderBoard, renderArrows, renderCursor, announce, squareAt } from "./board.js";
import { analyse } from "./analyse.js";
import { playActivate, declare, renderReveal, renderHistory, newGame, undo } from "./play.js";
import { commitEdit, placePiece, editActivate, buildPalette, arm, startDrag } from "./edit.js";

export function describeCursor() {
  const piece = state.board[state.cursor];
  return `${squareName(state.cursor)}: ${piece ? pieceName(piece) : "empty"}`;
}

export function activate(sq) {
  state.cursor = sq;
  if (state.mode === "play") playActivate(sq);
  else if (state.mode === "edit") editActivate(sq);
  else {
    state.focusSquare = state.board[sq] && state.focusSquare !== sq ? sq : null;
    renderArrows();
    renderCursor();
  }
}

export function onBoardKey(event) {
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

export async function setMode(mode) {
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

export function wire() {
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
  $("pen-white").addEventListener("change", (e) => commitEdit((next) => { next.penalties[0] = Number(e.target.value); }));
  $("pen-black").addEventListener("change", (e) => commitEdit((next) => { next.penalties[1] = Number(e.target.value); }));
  $("edit-start").addEventListener("click", () => { state.analysis = null; state.pendingEdit = null; setPosition(START); });
  $("edit-clear").addEventListener("click", () => commitEdit((next) => { next.board.fill(null); }));
  $("edit-play").addEventListener("click", async () => {
    const position = state.position;
    await setMode("play");
    await newGame(position);
  });
  buildPalette();
}
