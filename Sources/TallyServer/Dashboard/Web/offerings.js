// The Offerings page: the live offerings document (offerings, placements, targeting and the experiment split),
// edited as JSON (or a placement's offering and an experiment's shares with controls, which write into the JSON) and
// saved with a secret key (the dashboard key only reads), with its history and rollback.
import { get, send, path, APIError } from "./api.js";
import { el, table, formatDate } from "./dom.js";

// The secret key lives in this page's memory only: never in storage, gone on reload.
let secretKey = "";

function packagesText(offering) {
  return offering.packages.map((p) => `${p.id} → ${p.productId}`).join(", ") || "(no packages)";
}

function conditions(rule) {
  const parts = [];
  if (rule.placement) parts.push(`placement ${rule.placement}`);
  if (rule.storefronts) parts.push(`storefronts ${rule.storefronts.join(", ")}`);
  if (rule.appVersion) parts.push(`app ${rule.appVersion.min ?? "any"}–${rule.appVersion.max ?? "any"}`);
  return parts.join(" · ") || "everyone";
}

// One experiment's split as a bar of its arms (widths are the shares) and the same as text.
function split(arms) {
  const bar = el("div", { className: "split", role: "img", "aria-label": arms.map((a) => `${a.id} ${a.percent}%`).join(", ") },
    arms.map((a) => {
      const arm = el("span", { className: "arm", text: `${a.id} ${a.percent}%` });
      arm.style.width = `${Number(a.percent)}%`;  // through the CSSOM: the page's CSP allows no inline style attribute
      return arm;
    }));
  return el("div", {}, bar, el("div", { className: "arms", text: arms.map((a) => `${a.id}: ${a.percent}% → ${a.offering}`).join(" · ") }));
}

export async function offerings(view) {
  const [live, history] = await Promise.all([get(path.offeringsDocument()), get(path.offeringsHistory())]);
  const doc = live.document;
  const status = el("p", { id: "offerings-status", role: "status" });
  const editor = el("textarea", { id: "offerings-json", rows: 24, spellcheck: "false", "aria-label": "Offerings document (JSON)" });
  editor.value = JSON.stringify(doc, null, 2);
  const key = el("input", { id: "secret-key", type: "password", autocomplete: "off", value: secretKey,
    "aria-label": "Secret key (kept in this page only)", placeholder: "secret key, to save" });
  const save = el("button", { id: "offerings-save", type: "submit", text: `Save as version ${live.version + 1}` });
  const form = el("form", { id: "offerings-form", className: "editor" }, editor, el("div", { className: "toolbar" }, key, save));

  async function write(method, target, body) {
    secretKey = key.value.trim();
    if (!secretKey) { status.className = "error"; status.textContent = "Saving needs a secret key (the dashboard key only reads)."; return; }
    try {
      const saved = await send(method, target, body, secretKey, { "If-Match": `"${live.version}"` });
      await offerings(view);
      const next = document.getElementById("offerings-status");
      next.className = "note";
      next.textContent = `Saved version ${saved.version}.`;
    } catch (error) {
      status.className = "error";
      status.textContent = error instanceof APIError ? `${error.code}: ${error.message}` : String(error);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let body;
    try { body = JSON.parse(editor.value); } catch (error) {
      status.className = "error"; status.textContent = "Not JSON: " + error.message; return;
    }
    await write("PUT", path.offerings(), body);
  });

  const names = new Map(doc.offerings.map((o) => [o.id, o]));
  // Structured edits write into the JSON in the editor; Save sends it.
  function edit(change) {
    let draft;
    try { draft = JSON.parse(editor.value); } catch (error) {
      status.className = "error"; status.textContent = "Not JSON: " + error.message; return;
    }
    change(draft);
    editor.value = JSON.stringify(draft, null, 2);
    status.className = "note";
    status.textContent = "Edited; not saved yet.";
  }
  const placementSelect = (placement) => el("select", {
    className: "placement-offering", "data-placement": placement, "aria-label": `Offering of ${placement}`,
    onchange: (event) => edit((draft) => { draft.placements[placement] = event.target.value; }),
  }, doc.offerings.map((o) => el("option", { value: o.id, selected: o.id === doc.placements[placement], text: o.id })));
  const armInputs = (ruleIndex, arms) => el("div", { className: "toolbar" }, arms.map((arm, armIndex) =>
    el("label", {}, `${arm.id} `, el("input", {
      type: "number", min: 0, max: 100, step: "0.01", value: arm.percent, className: "arm-percent",
      "data-rule": doc.targeting[ruleIndex].id, "data-arm": arm.id, "aria-label": `Share of arm ${arm.id} (%)`,
      onchange: (event) => edit((draft) => {
        draft.targeting[ruleIndex].experiment.arms[armIndex].percent = Number(event.target.value);
      }),
    }), "%")));
  view.replaceChildren(
    el("h2", {}, "Offerings ", el("span", { id: "offerings-version", text: `version ${live.version}` })),
    el("p", { className: "note", text: `Saved ${formatDate(live.savedAt)} (${live.origin}). Current: ${doc.current ?? "none"}.` }),
    status,
    table(["Offering", "Description", "Packages", ""], doc.offerings.map((o) => [o.id, o.description, packagesText(o),
      o.id === doc.current ? "current" : ""]), "Offerings"),
    el("h3", { text: "Placements" }),
    table(["Placement", "Offering"], Object.keys(doc.placements).sort().map((p) => [p, placementSelect(p)]), "Placements"),
    el("h3", { text: "Targeting and experiments (first match wins)" }),
    table(["Rule", "For", "Shows"], doc.targeting.map((r, index) => [r.id, conditions(r),
      r.experiment ? el("div", {}, split(r.experiment.arms), armInputs(index, r.experiment.arms))
        : (names.has(r.offering) ? r.offering : `${r.offering} (missing)`)]), "Targeting"),
    el("h3", { text: "Edit" }),
    form,
    el("h3", { text: "History" }),
    table(["Version", "Saved", "Origin", ""], history.versions.map((v) => [String(v.version), formatDate(v.savedAt),
      v.origin + (v.rolledBackTo ? ` of ${v.rolledBackTo}` : ""),
      v.version === live.version ? "live" : el("button", { type: "button", className: "rollback", "data-version": v.version,
        text: `Roll back to ${v.version}`, onclick: () => write("POST", path.offeringsRollback(), { version: v.version }) })]),
      "History"),
  );
}
