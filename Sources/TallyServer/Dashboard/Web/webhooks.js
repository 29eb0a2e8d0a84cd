// The Webhooks page: the outbox's counts, its deliveries (newest event first, paged, filtered by state) and a Retry
// button on each failing or dead-lettered one, which needs a secret key (the dashboard key only reads).
// Every value from the server goes in as text (dom.js's `el`).
import { get, send, path, APIError } from "./api.js";
import { el, table, card, formatNumber, formatDate } from "./dom.js";

// The secret key lives in this page's memory only: never in storage, gone on reload.
let secretKey = "";

const states = ["all", "pending", "failed", "dead", "delivered"];

export async function webhooks(view, page) {
  const state = states.includes(page.state) ? page.state : "all";
  const query = { state, ...(page.cursor ? { cursor: page.cursor } : {}), ...(page.limit ? { limit: page.limit } : {}) };
  const data = await get(path.webhooks(query));
  const status = el("p", { id: "webhooks-status", role: "status" });
  const key = el("input", { id: "webhooks-secret-key", type: "password", autocomplete: "off", value: secretKey,
    "aria-label": "Secret key (kept in this page only)", placeholder: "secret key, to retry" });

  async function retry(eventId) {
    secretKey = key.value.trim();
    if (!secretKey) { status.className = "error"; status.textContent = "Retrying needs a secret key (the dashboard key only reads)."; return; }
    try {
      const answer = await send("POST", path.webhookRetry(), { eventId }, secretKey);
      await webhooks(view, page);
      const next = document.getElementById("webhooks-status");
      next.className = "note";
      next.textContent = `Event ${answer.eventId} is due again (${answer.requeued} delivery${answer.requeued === 1 ? "" : "ies"}).`;
    } catch (error) {
      status.className = "error";
      status.textContent = error instanceof APIError ? `${error.code}: ${error.message}` : String(error);
    }
  }

  const rows = data.deliveries.map((d) => [
    formatDate(d.createdAt), d.type, el("a", { href: "#customer/" + encodeURIComponent(d.appUserId), text: d.appUserId }),
    d.endpoint, el("span", { className: "state-" + d.state, text: d.state }), formatNumber(d.attempts),
    d.lastStatus === null ? "—" : String(d.lastStatus), d.lastError ?? "—",
    d.state === "delivered" ? formatDate(d.deliveredAt) : formatDate(d.nextAttemptAt), d.eventId,
    d.state === "delivered" ? "" : el("button", { type: "button", className: "retry", "data-event": d.eventId,
      text: "Retry", onclick: () => retry(d.eventId) }),
  ]);
  view.replaceChildren(
    el("h2", { text: "Webhooks" }),
    data.endpoints.length ? el("p", { id: "webhook-endpoints", text: "Endpoints: " + data.endpoints.join(", ") })
      : el("p", { id: "no-endpoints", className: "note", text: "No webhook endpoint is configured (webhooks in tally-server.json)." }),
    el("div", { className: "cards" },
      card("Pending", formatNumber(data.stats.pending), "webhooks-pending"),
      card("Failing", formatNumber(data.stats.failing), "webhooks-failing"),
      card("Dead letters", formatNumber(data.stats.dead), "webhooks-dead"),
      card("Delivered", formatNumber(data.stats.delivered), "webhooks-delivered"),
      card("Oldest pending (s)", formatNumber(data.stats.oldestPendingAgeSeconds), "webhooks-oldest")),
    el("div", { className: "toolbar" }, states.map((s) => s === state
      ? el("strong", { text: s }) : el("a", { href: "#webhooks/" + new URLSearchParams({ state: s }).toString(), text: s })),
      key),
    status,
    rows.length ? table(["Written", "Event", "Customer", "Endpoint", "State", "Attempts", "Last status", "Last error",
      "Delivered / next attempt", "Event id", ""], rows, "Webhook deliveries")
      : el("p", { id: "no-deliveries", text: "No delivery in this state." }));
  if (data.nextCursor) {
    view.append(el("a", { id: "older", href: "#webhooks/" + new URLSearchParams({ state, cursor: data.nextCursor }).toString(),
      text: "Older…" }));
  }
}
