// The HTTP API of docs/web-api.md. The browser only sends intents; every answer is a view.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// Deal seeds go up to 2^63, beyond the integers a JavaScript number holds exactly: they are read
// as strings so that the page shows them exactly (it never computes with them).
export function parseJson(text) {
  return JSON.parse(text.replace(/("seed"\s*:\s*)(\d{16,})/g, '$1"$2"'));
}

// The other way: a seed the page holds as a string of digits is sent as a JSON number, exactly.
export function stringifyJson(body) {
  return JSON.stringify(body).replace(/("seed":)"(\d+)"/g, "$1$2");
}

export async function request(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = stringifyJson(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { error: "network" });
  }
  let data = null;
  try {
    data = parseJson(await response.text());
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data);
    error.retryAfter = Number(response.headers.get("Retry-After") || 0); // seconds, on a 429
    throw error;
  }
  return data;
}

const base = (id) => `/api/matches/${encodeURIComponent(id)}`;

export const api = {
  list: () => request("GET", "/api/matches"),
  create: (options) => request("POST", "/api/matches", options),
  get: (id) => request("GET", base(id)),
  act: (id, version, action) => request("POST", `${base(id)}/actions`, { version, action }),
  step: (id, version) => request("POST", `${base(id)}/step`, { version }),
  nextDeal: (id, version) => request("POST", `${base(id)}/next-deal`, { version }),
  recordUrl: (id) => `${base(id)}/record`,
  setName: (name) => request("POST", "/api/me", { name }),
  say: (id, phrase) => request("POST", `${base(id)}/phrase`, { phrase }),
  seatComputer: (id, seat) => request("POST", `${base(id)}/seats/${encodeURIComponent(seat)}/computer`),
  reinvite: (id, seat) => request("POST", `${base(id)}/seats/${encodeURIComponent(seat)}/invite`),
  reserve: (id, seat, name) => request(name === null ? "DELETE" : "POST", `${base(id)}/seats/${encodeURIComponent(seat)}/reserve`, name === null ? undefined : { name }),
  freeSeat: (id, seat) => request("POST", `${base(id)}/seats/${encodeURIComponent(seat)}/free`),
  leave: (id) => request("POST", `${base(id)}/leave`),
  computerPlayers: () => request("GET", "/api/computer-players"),
  history: () => request("GET", "/api/history"),
  deal: (id, n) => request("GET", `${base(id)}/deals/${encodeURIComponent(n)}`),
  // Learning mode (coach.js).
  learning: (id, on) => request("POST", `${base(id)}/learning`, { learning: on }),
  hint: (id, version) => request("POST", `${base(id)}/hint`, { version }),
  undo: (id, version) => request("POST", `${base(id)}/undo`, { version }),
  analysis: (id, deal) => request("GET", `${base(id)}/deals/${deal}/analysis`),
};
