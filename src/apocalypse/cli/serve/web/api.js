// Talking to the server's JSON API: one request at a time counted so the page can show
// it is busy, a refused request as an ApiError with the server's one-line message.

import { state } from "./board.js";

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function api(path, body) {
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
