// The tablebase line in the page's header: which endgame tables the server has loaded
// ("Tablebases: K ≤ 4 loaded"), a button that asks it to build the next size (K ≤ 5,
// minutes) and the build's progress, polled until the new tables are in use.

import { $ } from "./board.js";

const POLL_MS = 1000;
let polling = false;

// GET /api/tablebases without the page's busy marker (this runs in the background).
async function status() {
  const response = await fetch("/api/tablebases");
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  return response.json();
}

function show(reply) {
  const build = reply.build;
  const button = $("tables-build");
  $("tables-loaded").textContent = reply.max_pieces > 0
    ? `K ≤ ${reply.max_pieces} loaded` : "none loaded";
  if (build.state === "building") {
    $("tables-state").textContent =
      `building K ≤ ${build.max_pieces}: ${Math.floor(build.progress * 100)} %`;
    button.hidden = true;
  } else {
    $("tables-state").textContent = build.state === "failed" ? `build failed: ${build.message}` : "";
    button.hidden = reply.max_pieces >= 5 || reply.dir === null;
  }
  return build.state === "building";
}

async function refresh() {
  try {
    const building = show(await status());
    if (building && !polling) {
      polling = true;
      setTimeout(() => { polling = false; refresh(); }, POLL_MS);
    }
  } catch (error) {
    $("tables-state").textContent = `unavailable: ${error.message}`;
  }
}

async function build() {
  $("tables-build").hidden = true;
  const response = await fetch("/api/tablebases/build", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ max_pieces: 5 }),
  });
  if (!response.ok && response.status !== 409) {
    $("tables-state").textContent = `build refused: ${(await response.text()).trim()}`;
  }
  await refresh();
}

export function wireTables() {
  $("tables-build").addEventListener("click", build);
  refresh();
}
