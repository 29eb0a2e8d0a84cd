// Building the page: every value from the server goes in as text (textContent), never as HTML.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "className") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const locale = navigator.language || undefined;
export const formatNumber = (n) => new Intl.NumberFormat(locale).format(n);
export function formatMoney(amount, currency) {
  try { return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount); }
  catch { return `${formatNumber(amount)} ${currency}`; }
}
export function formatDate(iso) {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

// A table of `rows`, each cell a string or a node, under `headings`.
export function table(headings, rows, label) {
  return el("div", { className: "scroll" }, el("table", { "aria-label": label },
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c ?? "—")))))));
}

export function card(label, value, id) {
  return el("div", { className: "card" }, el("div", { className: "label", text: label }),
    el("div", { className: "value", id, text: value }));
}
