import { get, path, APIError } from "./api.js";
import { el, table, card, formatNumber, formatMoney, formatDate } from "./dom.js";

const chartsAvailable = () => typeof window.Chart === "function";

function barChart(label, days, series) {
  const canvas = el("canvas", { role: "img", "aria-label": label });
  const box = el("div", { className: "chart" }, canvas);
  new window.Chart(canvas, {
    type: "bar",
    data: { labels: days, datasets: series.map(([name, data]) => ({ label: name, data })) },
    options: { animation: false, responsive: true, maintainAspectRatio: false },
  });
  return box;
}

// `range` is {days} (a preset) or {from, to} (YYYY-MM-DD, UTC days, both included).
export async function overview(view, range) {
  const presets = [7, 30, 90];
  const picker = el("select", { id: "range", "aria-label": "Range" },
    presets.map((d) => el("option", { value: d, selected: d === range.days, text: `Last ${d} days` })),
    el("option", { value: "custom", selected: !range.days, text: "Chosen dates" }));
  picker.addEventListener("change", () => {
    if (picker.value === "custom") { from.focus(); return; }
    location.hash = `#overview/${picker.value}`;
  });
  const from = el("input", { id: "range-from", type: "date", required: true, value: range.from ?? "" });
  const to = el("input", { id: "range-to", type: "date", required: true, value: range.to ?? "" });
  const form = el("form", { className: "toolbar", id: "range-form", "aria-label": "Date range" },
    el("label", { for: "range-from", text: "From" }), from, el("label", { for: "range-to", text: "To" }), to,
    el("button", { type: "submit", id: "range-show", text: "Show" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `#overview/${encodeURIComponent(from.value)}/${encodeURIComponent(to.value)}`;
  });
  const toolbar = el("div", { className: "toolbar" }, picker, form);
  let data;
  try {
    data = await get(path.overview(range));
  } catch (error) {
    // A range the server refuses (from after to, too long, not a date): say why, keep the picker.
    if (!(error instanceof APIError) || error.status !== 400) throw error;
    view.replaceChildren(el("h2", { text: "Overview" }), toolbar,
      el("p", { className: "error", id: "range-error", role: "alert", text: error.message }));
    return;
  }
  if (!from.value) from.value = data.range.from;
  if (!to.value) to.value = data.range.to;
  const currencies = [...new Set(data.daily.flatMap((d) => [...d.revenue, ...d.refunds].map((a) => a.currency)))].sort();
  const sumOf = (list, c) => list.filter((a) => a.currency === c).reduce((s, a) => s + a.amount, 0);
  view.replaceChildren(
    el("h2", { text: "Overview" }),
    toolbar,
    el("div", { className: "cards" },
      card("Active subscriptions", formatNumber(data.activeSubscriptions), "active-subscriptions"),
      card("Active trials", formatNumber(data.activeTrials), "active-trials"),
      card("Billing retry", formatNumber(data.inBillingRetry), "billing-retry"),
      card("Grace period", formatNumber(data.inGracePeriod), "grace-period"),
      card("MRR", data.mrr.length ? data.mrr.map((m) => formatMoney(m.amount, m.currency)).join(", ") : "—", "mrr"),
      card("New customers", formatNumber(data.daily.reduce((s, d) => s + d.newCustomers, 0)), "new-customers")),
  );
  const labels = data.daily.map((d) => d.day);
  if (chartsAvailable()) {
    view.append(
      barChart("Revenue per day", labels, currencies.map((c) => [`Revenue ${c}`, data.daily.map((d) => sumOf(d.revenue, c))])),
      barChart("Refunds per day", labels, currencies.map((c) => [`Refunds ${c}`, data.daily.map((d) => sumOf(d.refunds, c))])),
      barChart("New customers per day", labels, [["New customers", data.daily.map((d) => d.newCustomers)]]));
  } else {
    view.append(el("p", { className: "note", id: "charts-missing",
      text: "Charts need Chart.js (Debian's libjs-chart.js, dashboard.chartJS); the numbers are shown as tables." }));
  }
  view.append(el("h3", { text: "Per day" }), table(["Day", "Revenue", "Refunds", "New customers"],
    data.daily.slice().reverse().map((d) => [d.day,
      d.revenue.map((a) => formatMoney(a.amount, a.currency)).join(", ") || "—",
      d.refunds.map((a) => formatMoney(a.amount, a.currency)).join(", ") || "—",
      formatNumber(d.newCustomers)]), "Per day"));
  view.append(el("h3", { text: "Live subscriptions by product" }), table(["Product", "Active", "Trials"],
    data.products.map((p) => [p.productId, formatNumber(p.active), formatNumber(p.trials)]), "By product"));
}

export async function customers(view, query) {
  const input = el("input", { id: "search", type: "search", value: query || "", "aria-label": "Search customers",
    placeholder: "appUserId prefix, transaction id, original transaction id or appAccountToken" });
  const form = el("form", { className: "toolbar", role: "search" }, input, el("button", { type: "submit", text: "Search" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = "#customers/" + encodeURIComponent(input.value);
  });
  view.replaceChildren(el("h2", { text: "Customers" }), form);
  input.focus();
  if (!query) return;
  const data = await get(path.search(query));
  if (!data.customers.length) { view.append(el("p", { id: "no-results", text: "No customer matches." })); return; }
  view.append(table(["Customer", "Matched by"], data.customers.map((c) =>
    [el("a", { href: "#customer/" + encodeURIComponent(c.appUserId), className: "customer-link", text: c.appUserId }), c.matchedBy]),
    "Results"));
}

export async function customer(view, id, cursor) {
  const [state, history, identity] = await Promise.all([get(path.customer(id)), get(path.history(id, cursor)),
    get(path.identity(id))]);
  const c = state.customer;
  const attributes = Object.keys(identity.attributes).sort().map((k) => [k, identity.attributes[k]]);
  view.replaceChildren(
    el("h2", {}, "Customer ", el("span", { id: "customer-id", text: c.appUserId })),
    el("h3", { text: "Entitlements" }),
    table(["Feature", "Products", "Expires"], c.entitlements.map((e) => [e.feature, e.productIds.join(", "), formatDate(e.expiresDate)]), "Entitlements"),
    el("h3", { text: "Subscriptions" }),
    table(["Product", "Status", "Expires", "Will renew", "Pending product"], c.subscriptions.map((s) =>
      [s.productId, s.status, formatDate(s.expiresDate), s.willRenew ? "yes" : "no", s.pendingProductId]), "Subscriptions"),
    el("h3", { text: "Balances and debts" }),
    table(["Currency", "Balance", "Debt"], Object.keys({ ...c.balances, ...c.debts }).sort().map((k) =>
      [k, formatNumber(c.balances[k] ?? 0), formatNumber(c.debts[k] ?? 0)]), "Balances"),
    el("h3", { text: "Aliases" }),
    identity.aliasOf ? el("p", { id: "alias-of", text: `${id} is an alias of ${identity.aliasOf}` }) : "",
    table(["Anonymous id", "Aliased"], identity.aliases.map((a) => [a.alias, formatDate(a.created)]), "Aliases"),
    el("h3", { text: "Attributes" }),
    table(["Key", "Value"], attributes, "Attributes"),
    el("h3", { text: "History (newest first)" }),
    table(["Date", "Kind", "Detail", "State"], history.items.map((item) => historyRow(item)), "History"),
  );
  if (history.nextCursor) {
    view.append(el("a", { href: `#customer/${encodeURIComponent(id)}/${encodeURIComponent(history.nextCursor)}`, text: "Older…" }));
  }
}

function historyRow(item) {
  let detail = "";
  let state = "";
  switch (item.kind) {
    case "transaction":
      detail = `${item.productId} · ${item.transactionId} (${item.type})`;
      if (item.revocationDate) state = el("span", { className: "refunded", text: "Refunded " + formatDate(item.revocationDate) });
      break;
    case "ledger": detail = `${item.entry} ${item.amount} ${item.currency}`; break;
    case "transfer": detail = `${item.originalTransactionId}: ${item.fromAppUserId} → ${item.toAppUserId}`; break;
    case "alias": detail = `${item.alias} became an alias: its purchases moved here`; break;
    case "notification": detail = [item.type, item.subtype].filter(Boolean).join(" / "); state = item.result; break;
    default: detail = item.kind;
  }
  return [formatDate(item.date), item.kind, detail, state];
}

export async function transactions(view, filter) {
  const data = await get(path.transactions(filter));
  const refunded = el("select", { id: "refunded", "aria-label": "Refunded" },
    [["", "All"], ["true", "Refunded"], ["false", "Not refunded"]].map(([v, t]) => el("option", { value: v, selected: (filter.refunded ?? "") === v, text: t })));
  const product = el("input", { id: "product", "aria-label": "Product id", placeholder: "product id", value: filter.productId ?? "" });
  const type = el("select", { id: "type", "aria-label": "Type" },
    [["", "All types"], ["Auto-Renewable Subscription", "Subscriptions"], ["Non-Renewing Subscription", "Non-renewing"],
     ["Non-Consumable", "Non-consumables"], ["Consumable", "Consumables"]]
      .map(([v, t]) => el("option", { value: v, selected: (filter.type ?? "") === v, text: t })));
  const form = el("form", { className: "toolbar" }, product, type, refunded, el("button", { type: "submit", text: "Filter" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const next = {};
    if (product.value) next.productId = product.value;
    if (type.value) next.type = type.value;
    if (refunded.value) next.refunded = refunded.value;
    location.hash = "#transactions/" + new URLSearchParams(next).toString();
  });
  view.replaceChildren(el("h2", { text: "Transactions" }), form, table(
    ["Purchased", "Customer", "Product", "Transaction", "Price", "State"],
    data.transactions.map((t) => [formatDate(t.purchaseDate),
      el("a", { href: "#customer/" + encodeURIComponent(t.appUserId), text: t.appUserId }), t.productId, t.transactionId,
      t.price === null ? "—" : formatMoney(t.price, t.currency),
      t.refunded ? el("span", { className: "refunded", text: "Refunded" }) : ""]), "Transactions"));
  if (data.nextCursor) {
    view.append(el("a", { id: "older", href: "#transactions/" + new URLSearchParams({ ...filter, cursor: data.nextCursor }).toString(),
      text: "Older…" }));
  }
}

/** What the Customer cell says of a notification that names no customer: only a `pending` one waits for its chain's
 *  owner; a `recorded` one is of a type that carries no customer state (TEST, RENEWAL_EXTENSION/SUMMARY, an unknown type). */
function noCustomer(result) {
  if (result === "pending") return "(waiting for its chain's owner)";
  if (result === "recorded") return "(none: this type carries no customer state)";
  return "(none)";
}

export async function notifications(view, page) {
  const data = await get(path.notifications(page));
  view.replaceChildren(el("h2", { text: "Notifications" }), data.notifications.length ? table(
    ["Received", "Type", "Subtype", "Customer", "Result", "Delivery anomaly"],
    data.notifications.map((n) => [formatDate(n.receivedDate), n.notificationType, n.subtype, n.appUserId ?? noCustomer(n.result), n.result, n.anomaly ?? ""]),
    "Notifications") : el("p", { text: "No notifications stored." }));
  if (data.nextCursor) {
    view.append(el("a", { id: "older", href: "#notifications/" + new URLSearchParams({ cursor: data.nextCursor }).toString(),
      text: "Older…" }));
  }
}

export async function catalog(view) {
  const data = await get(path.catalog());
  view.replaceChildren(el("h2", { text: "Catalog" }), table(["Product", "Kind", "Price", "Period", "Entitlements", "Currencies"],
    data.products.map((p) => [p.productId, p.kind, formatMoney(p.price, p.currency), p.period, p.entitlements.join(", "),
      p.currencies.map((c) => `${c.amount} ${c.currency}`).join(", ")]), "Catalog"));
}
