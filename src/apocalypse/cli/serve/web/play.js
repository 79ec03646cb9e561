// Play mode: a game against the engine, a move declared by clicks or typed, both
// moves revealed together with what happened, undo and new game.

import { START, squareName, capitalized, parseMove, moveText } from "./codec.js";
import { api } from "./api.js";
import { $, state, setPosition, render, announce } from "./board.js";
import { sortedStrategy, formatValue } from "./analyse.js";

export function renderBanner() {
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

export function lastTurn() {
  const turns = state.game.turns;
  return turns.length ? turns[turns.length - 1].reply : null;
}

export function humanMoves() {
  return state.moves[state.game.human].map(parseMove).filter((m) => m);
}

export function renderPrompt() {
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

export function playActivate(sq) {
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

export async function declare(text) {
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
      exploit: $("exploit").checked,
      ...(state.game.modelId === undefined ? {} : { game: state.game.modelId }),
    });
  } catch (error) {
    state.game.busy = false;
    render();
    $("reveal").replaceChildren(paragraph(error.message, "error"));
    return;
  }
  state.game.turns.push({ before: state.position, reply });
  state.game.modelId = reply.model ? reply.model.game : undefined;
  $("move-input").value = "";
  await setPosition(reply.next);
  state.game.busy = false;
  render();
  renderReveal();
  renderHistory();
  announce(reply.report.join(". ") + (reply.outcome.over ? `. ${reply.outcome.text}.` : "."));
}

export function paragraph(text, cls) {
  const p = document.createElement("p");
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

export function renderReveal() {
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
  if (turn.model) box.append(modelNote(turn.model));
}

/** What the engine thought of the person on the last turn, from the reply's `model`. */
function modelNote(model) {
  const p = document.createElement("p");
  p.className = "model-note";
  const trust = document.createElement("meter");
  trust.className = "trust";
  trust.min = 0;
  trust.max = 1;
  trust.value = model.trust;
  const guess = model.prediction.slice(0, 3).map((m) => `${m.move} ${Math.round(m.probability * 100)}%`).join(", ");
  const habits = model.habits
    .filter((h) => Math.abs(h.weight) >= 0.5)
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight))
    .slice(0, 2)
    .map((h) => `${h.habit} ${h.weight > 0 ? "more" : "less"} often than optimal play`);
  const stance = model.strayed > 0
    ? `it moved ${Math.round(model.strayed * 100)}% of its strategy towards the best reply to that guess`
    : "it played its optimal strategy";
  p.append(
    "Engine's model of you: trust ",
    trust,
    ` ${Math.round(model.trust * 100)}%. It expected ${guess || "nothing yet"}; ${stance}. ` +
      `Value you have given away so far: ${model.budget.toFixed(3)} (all it may risk).` +
      (model.follows_search ? " Your moves match its own short search, so it predicts you by that search." : "") +
      (habits.length ? ` Your habits: ${habits.join("; ")}.` : ""),
  );
  return p;
}

export function renderHistory() {
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

export async function newGame(position) {
  state.game.turns = [];
  state.game.modelId = undefined;
  state.game.human = $("human-side").value;
  state.flipped = state.game.human === "black";
  $("flip").setAttribute("aria-pressed", String(state.flipped));
  $("reveal").replaceChildren();
  renderHistory();
  await setPosition(position || START);
}

export async function undo() {
  if (state.game.busy || state.game.turns.length === 0) return;
  const turn = state.game.turns.pop();
  // The engine's budget counts the turns as played: a taken-back turn starts a new model.
  state.game.modelId = undefined;
  await setPosition(turn.before);
  renderReveal();
  renderHistory();
  announce("Last turn taken back.");
}
