import { get, path, savedKey, saveKey, forgetKey, APIError } from "./api.js";
import { el } from "./dom.js";
import * as views from "./views.js";
import { offerings } from "./offerings.js";
import { offers } from "./offers.js";
import { webhooks } from "./webhooks.js";

const view = document.getElementById("view");
const login = document.getElementById("login");
const nav = document.getElementById("nav");
const loginError = document.getElementById("login-error");

function showLogin(message) {
  nav.hidden = true;
  view.replaceChildren();
  login.hidden = false;
  loginError.hidden = !message;
  loginError.textContent = message || "";
  document.getElementById("key").focus();
}

login.addEventListener("submit", async (event) => {
  event.preventDefault();
  const key = document.getElementById("key").value.trim();
  try {
    await get(path.catalog(), key);
    saveKey(key);
    document.getElementById("key").value = "";
    login.hidden = true;
    if (!location.hash || location.hash === "#login") location.hash = "#overview"; else route();
  } catch (error) {
    showLogin(error instanceof APIError && (error.status === 401 || error.status === 403)
      ? "That key was refused: use a dashboard (or secret) key." : "The server did not answer: " + error.message);
  }
});

document.getElementById("logout").addEventListener("click", () => { forgetKey(); showLogin(); });

async function route() {
  if (!savedKey()) { showLogin(); return; }
  login.hidden = true;
  nav.hidden = false;
  const [name, ...rest] = location.hash.replace(/^#/, "").split("/");
  const arg = rest.length ? decodeURIComponent(rest[0]) : "";
  view.setAttribute("data-state", "loading");
  try {
    switch (name) {
      case "customers": await views.customers(view, arg); break;
      case "customer": await views.customer(view, arg, rest[1] ? decodeURIComponent(rest[1]) : ""); break;
      case "transactions": await views.transactions(view, Object.fromEntries(new URLSearchParams(rest.join("/")))); break;
      case "notifications": await views.notifications(view, Object.fromEntries(new URLSearchParams(rest.join("/")))); break;
      case "catalog": await views.catalog(view); break;
      case "offerings": await offerings(view); break;
      case "offers": await offers(view, Object.fromEntries(new URLSearchParams(rest.join("/")))); break;
      case "webhooks": await webhooks(view, Object.fromEntries(new URLSearchParams(rest.join("/")))); break;
      default: await views.overview(view, /^\d{4}-\d{2}-\d{2}$/.test(arg) && rest.length === 2
        ? { from: arg, to: decodeURIComponent(rest[1]) }
        : { days: [7, 30, 90].includes(Number(arg)) ? Number(arg) : 30 });
    }
  } catch (error) {
    if (error instanceof APIError && error.status === 401) { forgetKey(); showLogin("The key is no longer accepted."); return; }
    view.replaceChildren(el("p", { className: "error", role: "alert", text: `${error.code ?? "error"}: ${error.message}` }));
  }
  view.setAttribute("data-state", "ready");
}

window.addEventListener("hashchange", route);
route();
