// The quick calculators page: one form per calculator, built from the parameter descriptions of
// GET /api/odds, answering from GET /api/odds/{rule_set} as a value changes. Nothing here knows a rule set.
"use strict";

const percent = (p) => (100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1) + "%";

// A key of the answer in words: p_reach -> "chance to reach", p_intercept -> "chance to intercept".
const words = (key) => {
  const plain = key.replace(/_/g, " ");
  return key.startsWith("p_") ? "chance " + (/^p_(pass|intercept|reach)$/.test(key) ? "to " : "of ") + plain.slice(2) : plain;
};

// One input for a parameter: a number box, a check box, or a choice list; blank means "not given". Its label
// is its name alone; the help is its description (aria-describedby), so a screen reader says the name first.
function input(calc, p) {
  const id = calc + "-" + p.name;
  const help = el("span", { class: "help", id: id + "-help", text: p.help });
  if (p.type === "flag") {
    const box = el("input", { type: "checkbox", id, name: p.name, "aria-describedby": help.id });
    if (p.default === true) box.checked = true;
    return el("div", { class: "field flag" }, box, el("label", { for: id, text: p.name }), help);
  }
  let field;
  if (p.type === "choice") {
    field = el("select", { id, name: p.name });
    if (!p.required) field.append(el("option", { value: "", text: "—" }));
    for (const a of p.allowed) field.append(el("option", { value: a, text: a.replace(/_/g, " ") }));
  } else {
    field = el("input", { type: "number", id, name: p.name, min: p.least, max: p.most, step: 1, inputmode: "numeric" });
    field.placeholder = p.required ? p.least + "–" + p.most : "optional";
  }
  field.setAttribute("aria-describedby", help.id);
  if (p.required) field.setAttribute("aria-required", "true");
  if (p.default !== null && p.default !== undefined) field.value = String(p.default);
  const star = p.required ? el("span", { "aria-hidden": "true", text: " *" }) : "";
  return el("div", { class: "field" }, el("label", { for: id }, p.name, star), field, help);
}

// The query of a form: every value given, flags as true/false; a parameter that requires one left blank is left out.
function query(form, params) {
  const q = new URLSearchParams();
  for (const p of params) {
    const f = form.elements[p.name];
    if (p.type === "flag") { q.set(p.name, f.checked ? "true" : "false"); continue; }
    if (f.value === "") continue;
    if (p.requires && form.elements[p.requires].value === "") continue;
    q.set(p.name, f.value);
  }
  return q;
}

// The answer: its sentence first, then arrays of rows as tables, then every other value (each chance in words
// with its exact fraction) folded away under "All NAME values" (one such switch per calculator, each named
// for its own).
function render(answer, out, name) {
  const tables = [];
  const walk = (obj) => {
    const list = el("ul", { class: "words" });
    for (const [k, v] of Object.entries(obj)) {
      if (k.endsWith("_fraction") || k === "answer") continue;
      if (Array.isArray(v) && v.length && typeof v[0] === "object") tables.push([k, v]);
      else if (v !== null && typeof v === "object") list.append(el("li", { text: words(k) + ":" }, walk(v)));
      else if (typeof v === "number" && k.startsWith("p_")) {
        const exact = obj[k + "_fraction"];
        list.append(el("li", { text: words(k) + ": " + percent(v) + (exact ? " (exactly " + exact + ")" : "") }));
      } else list.append(el("li", { text: words(k) + ": " + v }));
    }
    return list;
  };
  const values = el("details", { class: "values" }, el("summary", { text: "All " + name + " values" }), walk(answer));
  out.replaceChildren();
  if (answer.answer) out.append(el("p", { class: "sentence", text: answer.answer }));
  for (const [name, rows] of tables) out.append(table(name, rows));
  out.append(values);
}

function table(name, rows) {
  const keys = Object.keys(rows[0]).filter((k) => k !== "fraction");
  const head = el("tr", {}, ...keys.map((k) => el("th", { text: words(k) })));
  const body = rows.map((r) => {
    const cells = keys.map((k) => el("td", { text: k === "probability" ? percent(r[k]) + (r.fraction ? " (" + r.fraction + ")" : "") : String(r[k]) }));
    return el("tr", r.reached === true ? { class: "yes" } : {}, ...cells);
  });
  return el("table", { class: "odds" }, el("caption", { text: words(name) }), el("thead", {}, head), el("tbody", {}, ...body));
}

// The error under a calculator's form, and the field it is about marked for every reader: aria-invalid, and
// the message's id first among what the field is described by (before its help), so a screen reader says it
// on the field. The server names the parameter first ("morale: ..."); "Give NAME." names the one missing.
function showError(form, error, message) {
  error.textContent = message;
  for (const f of form.querySelectorAll("[aria-invalid]")) {
    f.removeAttribute("aria-invalid");
    f.setAttribute("aria-describedby", f.id + "-help");
    f.closest(".field").classList.remove("invalid");
  }
  const name = (message.match(/^(?:Give )?([a-z_]+)[:.]/) || [])[1];
  const field = name && form.elements[name];
  if (!field || !field.id) return;
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", error.id + " " + field.id + "-help");
  field.closest(".field").classList.add("invalid");
}

// One calculator's section, and its first answer (asked at once when its defaults give every value it needs).
function calculator(c) {
  const form = el("form", { "data-rule-set": c.rule_set }, ...c.params.map((p) => input(c.rule_set, p)));
  const out = el("div", { class: "answer", "aria-live": "polite" });
  const error = el("p", { class: "error", role: "alert", id: c.rule_set + "-error" });
  let asked = 0;
  const ask = async () => {
    const mine = ++asked;
    const empty = c.params.find((p) => p.required && p.type !== "flag" && form.elements[p.name].value === "");
    if (empty) {
      showError(form, error, "Give " + empty.name + ".");
      out.replaceChildren();
      return;
    }
    const reply = await fetch("/api/odds/" + c.rule_set + "?" + query(form, c.params));
    const body = await reply.json();
    if (mine !== asked) return;
    showError(form, error, reply.ok ? "" : body.error);
    if (reply.ok) render(body, out, c.rule_set); else out.replaceChildren();
  };
  form.addEventListener("input", ask);
  form.addEventListener("submit", (e) => { e.preventDefault(); ask(); });
  const given = c.params.every((p) => !p.required || p.type === "flag" || form.elements[p.name].value !== "");
  const heading = el("h2", { text: c.title, tabindex: "-1" });
  const section = el("section", { class: "calculator", id: "calc-" + c.rule_set }, heading, form, error, out);
  return { section, answered: given ? ask() : Promise.resolve() };
}

// The calculator the address names (/calc#RULE_SET, or #calc-RULE_SET), scrolled to the top of the window
// (as far as the page goes), outlined, and its heading focused so that Tab goes on into its fields: the page is
// built after it loads, too late for the browser's own jump to the hash.
function showAsked() {
  const name = decodeURIComponent(location.hash.slice(1)).replace(/^calc-/, "");
  const section = name && document.getElementById("calc-" + name);
  if (!section) return;
  for (const s of document.querySelectorAll(".calculator.asked")) s.classList.remove("asked");
  section.classList.add("asked");
  section.scrollIntoView({ block: "start" });
  section.querySelector("h2").focus({ preventScroll: true });
}

async function main() {
  const main = document.getElementById("calculators");
  const { calculators } = await (await fetch("/api/odds")).json();
  const built = calculators.map(calculator);
  main.replaceChildren(...built.map((b) => b.section));
  const { games } = await (await fetch("/api/play")).json();
  const nav = document.querySelector("nav.tools");
  for (const g of games) nav.append(" · ", el("a", { href: g.page, text: "play " + g.title.replace(/\s*\(.*\)$/, "") }));
  // Once the page is laid out whole: the links and first answers above the one asked for would push it down.
  await Promise.allSettled(built.map((b) => b.answered));
  showAsked();
  window.addEventListener("hashchange", showAsked);
}

main().catch((e) => { document.getElementById("calculators").textContent = "The calculators could not load: " + e; });
