// The Offers page: the transactions bought with an offer (newest first, paged) and each offer's count of redemptions.
// Every value from the server goes in as text (dom.js's `el`).
import { get, path } from "./api.js";
import { el, table, formatNumber, formatMoney, formatDate } from "./dom.js";

// Apple's `offerType` values.
const offerTypes = { 1: "Introductory", 2: "Promotional", 3: "Offer code", 4: "Win-back" };
const typeName = (type) => offerTypes[type] ?? `Type ${type}`;

export async function offers(view, page) {
  const data = await get(path.offers(page));
  view.replaceChildren(
    el("h2", { text: "Offers" }),
    el("h3", { text: "Redemptions per offer" }),
    data.totals.length ? table(["Offer type", "Offer", "Redemptions"], data.totals.map((t) =>
      [typeName(t.offerType), t.offerIdentifier ?? "(no identifier)", formatNumber(t.count)]), "Offer totals")
      : el("p", { id: "no-offers", text: "No transaction was bought with an offer." }),
    el("h3", { text: "Redemptions (newest first)" }),
    table(["Purchased", "Customer", "Product", "Offer type", "Offer", "Discount", "Price", "Environment", "Transaction"],
      data.redemptions.map((r) => [formatDate(r.purchaseDate),
        el("a", { href: "#customer/" + encodeURIComponent(r.appUserId), text: r.appUserId }), r.productId,
        typeName(r.offerType), r.offerIdentifier, r.offerDiscountType,
        r.price === null ? "—" : formatMoney(r.price, r.currency), r.environment, r.transactionId]), "Offer redemptions"));
  if (data.nextCursor) {
    view.append(el("a", { id: "older", href: "#offers/" + new URLSearchParams({ ...page, cursor: data.nextCursor }).toString(),
      text: "Older…" }));
  }
}
