// The entry module of `apocalypse serve`'s page: wires the controls, reads the server's
// defaults and opens the position in the address (or the start position) for analysis.
// No libraries: every module the page needs is served by the server itself.

import { START } from "./codec.js";
import { api } from "./api.js";
import { $, state, setPosition, announce } from "./board.js";
import { setMode, wire } from "./input.js";
import { wireTables } from "./tables.js";

export async function start() {
  wire();
  wireTables();
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
