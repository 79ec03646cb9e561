// Analyse mode: the tablebase value or the engine's analysis of the position, both
// players' strategies as arrows and sorted tables, the value bar.

import { moveText } from "./codec.js";
import { ApiError, api } from "./api.js";
import { $, state, renderArrows } from "./board.js";

export function sortedStrategy(object) {
  return Object.entries(object || {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export async function analyse() {
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

export function formatValue(v) {
  if (Math.abs(v) < 5e-4) return "0.000";
  return (v > 0 ? "+" : "−") + Math.abs(v).toFixed(3);
}

export function renderAnalysis() {
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
      const box = document.createElement("div");
      box.className = `prob ${side}`;
      const bar = document.createElement("div");
      bar.className = "bar";
      bar.style.width = `${(p * 70).toFixed(1)}%`;
      const pct = document.createElement("span");
      pct.className = "pct";
      pct.textContent = `${(p * 100).toFixed(1)}%`;
      box.append(bar, pct);
      prob.append(box);
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

export function highlightMove(side, moveText, on) {
  const board = $("board");
  board.classList.toggle("focusing", on);
  for (const g of board.querySelectorAll(".arrow")) {
    g.classList.toggle("highlight", on && g.dataset.side === side && g.dataset.move === moveText);
  }
}
