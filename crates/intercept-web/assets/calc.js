// The quick calculators page: one form per calculator, built from the parameter descriptions of
// GET /api/odds, answering from GET /api/odds/{rule_set} as a value changes. Nothing here knows a rule set.
"use strict";

const percent = (p) => (100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1) + "%";

// A key of the answer in words: p_reach -> "chance to reach", p_intercept -> "chance to intercept".
const words = (key) => {
  const plain = key.replace(/_/g, " ");
  return key.startsWith("p_") ? "chance " + (/^p_(pass|intercept|reach)$/.test(key) ? "to " : "of ") + plain.slice(2) : plain;
};

// One input for a parameter: a number box, a text box, a check box, or a choice list; blank means "not given".
// Its label is its name alone; the help is its description (aria-describedby, kept in data-help to come back
// to), so a screen reader says the name first. A parameter given instead of another (p.alternative) is not
// marked required: either way will do.
function input(calc, p) {
  const id = calc + "-" + p.name;
  const help = el("span", { class: "help", id: id + "-help", text: p.help });
  if (p.type === "text" && p.many) return entries(calc, p, help);
  if (p.type === "flag") {
    const box = el("input", { type: "checkbox", id, name: p.name, "aria-describedby": help.id, "data-help": help.id });
    if (p.default === true) box.checked = true;
    return el("div", { class: "field flag" }, box, el("label", { for: id, text: p.name }), help);
  }
  const required = p.required && !p.alternative;
  let field;
  if (p.type === "choice") {
    field = el("select", { id, name: p.name });
    if (!p.required) field.append(el("option", { value: "", text: "—" }));
    for (const a of p.allowed) field.append(el("option", { value: a, text: a.replace(/_/g, " ") }));
  } else if (p.type === "text") {
    field = el("input", { type: "text", id, name: p.name, autocomplete: "off", spellcheck: "false", placeholder: p.value_name });
  } else {
    field = el("input", { type: "number", id, name: p.name, min: p.least, max: p.most, step: 1, inputmode: "numeric" });
    field.placeholder = p.required ? p.least + "–" + p.most : "optional";
  }
  field.setAttribute("aria-describedby", help.id);
  field.dataset.help = help.id;
  if (required) field.setAttribute("aria-required", "true");
  if (p.default !== null && p.default !== undefined) field.value = String(p.default);
  const star = required ? el("span", { "aria-hidden": "true", text: " *" }) : "";
  return el("div", { class: "field" }, el("label", { for: id }, p.name, star), field, help);
}

// A parameter given any number of times: a text box a value, each labelled with its number (NAME 1, NAME 2,
// ...), and a button that adds one more and moves to it. Boxes left blank are not given.
function entries(calc, p, help) {
  const id = calc + "-" + p.name;
  const list = el("div", { class: "list" });
  const add = () => {
    const n = list.children.length + 1;
    const box = el("input", { type: "text", id: id + "-" + n, name: p.name, autocomplete: "off", spellcheck: "false",
      placeholder: p.value_name, "aria-describedby": help.id, "data-help": help.id });
    list.append(el("div", { class: "entry" }, el("label", { for: box.id, text: p.name + " " + n }), box));
    return box;
  };
  add();
  const more = el("button", { type: "button", id: id + "-add", text: "Add " + p.name });
  more.addEventListener("click", () => add().focus());
  return el("fieldset", { class: "field entries" }, el("legend", { text: p.name }), list, more, help);
}

// The values given for a parameter: every box of that name that is not blank.
const given = (form, name) => [...form.querySelectorAll(`[name="${name}"]`)].map((f) => f.value).filter((v) => v !== "");

// The query of a form: every value given (each of a parameter given many times), flags as true/false; a
// parameter that requires one left blank is left out.
function query(form, params) {
  const q = new URLSearchParams();
  for (const p of params) {
    const f = form.elements[p.name];
    if (p.type === "flag") { q.set(p.name, f.checked ? "true" : "false"); continue; }
    if (p.requires && !given(form, p.requires).length) continue;
    for (const v of given(form, p.name)) q.append(p.name, v);
  }
  return q;
}

// The first parameter the form still needs: required, blank, and its alternative (if it has one) blank too.
const missing = (form, params) => params.find((p) => p.required && p.type !== "flag" && !given(form, p.name).length
  && !(p.alternative && given(form, p.alternative).length));

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
  for (const [name, rows] of tables) out.append(scrolls(table(name, rows)));
  out.append(values);
}

// Rows as a table: a column for each plain value (an exact fraction goes with its chance, in the chance's cell;
// values within values are left to the JSON), the row's own name first (`group` of `groups`: the answer's keys
// come in alphabetical order), a row of a distance reached marked.
function table(name, rows) {
  const plain = (v) => v === null || typeof v !== "object";
  const own = name.replace(/s$/, "");
  const keys = Object.keys(rows[0]).filter((k) => k !== "fraction" && !k.endsWith("_fraction") && plain(rows[0][k]))
    .sort((a, b) => (b === own) - (a === own));
  const cell = (r, k) => {
    const exact = k === "probability" ? r.fraction : r[k + "_fraction"];
    if (k !== "probability" && !k.startsWith("p_")) return String(r[k]);
    return percent(r[k]) + (exact ? " (" + exact + ")" : "");
  };
  const head = el("tr", {}, ...keys.map((k) => el("th", { text: words(k) })));
  const body = rows.map((r) => el("tr", r.reached === true ? { class: "yes" } : {}, ...keys.map((k) => el("td", { text: cell(r, k) }))));
  return el("table", { class: "odds" }, el("caption", { text: words(name) }), el("thead", {}, head), el("tbody", {}, ...body));
}

// A table in a box of its own that scrolls sideways when the table is wider than a phone's window (reached by
// Tab and named by its caption, so the keyboard scrolls it too), rather than the whole page.
const scrolls = (t) => el("div", { class: "scrolls", role: "region", tabindex: "0", "aria-label": t.caption.textContent }, t);

// The error under a calculator's form, and the field it is about marked for every reader: aria-invalid, and
// the message's id first among what the field is described by (before its help), so a screen reader says it
// on the field. The server names the parameter first ("morale: ..."); "Give NAME." names the one missing. Of a
// parameter given many times, the box whose value the message quotes is marked, else its first.
function showError(form, error, message) {
  error.textContent = message;
  for (const f of form.querySelectorAll("[aria-invalid]")) {
    f.removeAttribute("aria-invalid");
    f.setAttribute("aria-describedby", f.dataset.help);
    f.closest(".entry, .field").classList.remove("invalid");
  }
  const name = (message.match(/^(?:Give )?([a-z_]+)[:.,]/) || [])[1];
  const boxes = name ? [...form.querySelectorAll(`[name="${name}"]`)] : [];
  const field = boxes.find((f) => f.value && message.includes(JSON.stringify(f.value))) || boxes[0];
  if (!field || !field.id) return;
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", error.id + " " + field.dataset.help);
  field.closest(".entry, .field").classList.add("invalid");
}

// One calculator's section, and its first answer (asked at once when its defaults give every value it needs).
function calculator(c) {
  const form = el("form", { "data-rule-set": c.rule_set }, ...c.params.map((p) => input(c.rule_set, p)));
  const out = el("div", { class: "answer", "aria-live": "polite" });
  const error = el("p", { class: "error", role: "alert", id: c.rule_set + "-error" });
  let asked = 0;
  const ask = async () => {
    const mine = ++asked;
    const empty = missing(form, c.params);
    if (empty) {
      showError(form, error, "Give " + empty.name + (empty.alternative ? ", or " + empty.alternative : "") + ".");
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
  const heading = el("h2", { text: c.title, tabindex: "-1" });
  const section = el("section", { class: "calculator", id: "calc-" + c.rule_set }, heading, form, error, out);
  return { section, answered: missing(form, c.params) ? Promise.resolve() : ask() };
}

// The calculator the address names (/calc#RULE_SET, or #calc-RULE_SET), scrolled to the top of the window
// (as far as the page goes, never a fraction of a pixel past it), outlined, and its heading focused so that Tab goes on into its fields: the page is
// built after it loads, too late for the browser's own jump to the hash.
function showAsked() {
  const name = decodeURIComponent(location.hash.slice(1)).replace(/^calc-/, "");
  const section = name && document.getElementById("calc-" + name);
  if (!section) return;
  for (const s of document.querySelectorAll(".calculator.asked")) s.classList.remove("asked");
  section.classList.add("asked");
  section.scrollIntoView({ block: "start" });
  // Scrolled by whole pixels, a section at a fraction of one would start just above the window: back to its top.
  const above = section.getBoundingClientRect().top;
  if (above < 0) window.scrollBy(0, Math.floor(above));
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
