// The dashboard's only way to the server: same origin, the key as a bearer token from sessionStorage.
const storageKey = "tally.dashboardKey";

export function savedKey() { return sessionStorage.getItem(storageKey); }
export function saveKey(key) { sessionStorage.setItem(storageKey, key); }
export function forgetKey() { sessionStorage.removeItem(storageKey); }

export class APIError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

// GET `path` (already encoded) with the saved key; the parsed JSON, or an APIError.
export async function get(path, key = savedKey()) {
  const response = await fetch(path, {
    headers: { Authorization: "Bearer " + key, Accept: "application/json" },
    credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer",
  });
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  if (!response.ok) {
    const error = body && body.error ? body.error : { code: "http_" + response.status, message: response.statusText };
    throw new APIError(response.status, error.code, error.message);
  }
  return body;
}

// `method` `path` with a JSON `body`, the given key and extra headers; the parsed JSON, or an APIError.
export async function send(method, path, body, key, headers = {}) {
  const response = await fetch(path, {
    method, body: JSON.stringify(body),
    headers: { Authorization: "Bearer " + key, Accept: "application/json", "Content-Type": "application/json", ...headers },
    credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer",
  });
  let parsed = null;
  try { parsed = await response.json(); } catch { parsed = null; }
  if (!response.ok) {
    const error = parsed && parsed.error ? parsed.error : { code: "http_" + response.status, message: response.statusText };
    throw new APIError(response.status, error.code, error.message);
  }
  return parsed;
}

export const path = {
  offerings: () => "/v1/offerings",
  offeringsDocument: () => "/v1/offerings/document",
  offeringsHistory: () => "/v1/offerings/history?limit=100",
  offeringsRollback: () => "/v1/offerings/rollback",
  overview: (range) => "/v1/dashboard/overview?" + new URLSearchParams(range).toString(),
  search: (q) => `/v1/dashboard/customers?q=${encodeURIComponent(q)}`,
  transactions: (filter) => "/v1/dashboard/transactions?" + new URLSearchParams(filter).toString(),
  notifications: (page = {}) => "/v1/dashboard/notifications?" + new URLSearchParams(page).toString(),
  catalog: () => "/v1/dashboard/catalog",
  offers: (page = {}) => "/v1/dashboard/offers?" + new URLSearchParams(page).toString(),
  webhooks: (page = {}) => "/v1/dashboard/webhooks?" + new URLSearchParams(page).toString(),
  webhookRetry: () => "/v1/dashboard/webhooks/retry",
  identity: (id) => `/v1/dashboard/identity?id=${encodeURIComponent(id)}`,
  customer: (id) => `/v1/customers/${encodeURIComponent(id)}`,
  history: (id, cursor) => `/v1/customers/${encodeURIComponent(id)}/history?limit=50` +
    (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""),
};
