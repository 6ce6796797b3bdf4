// Find a value for a target, on the scenario editor. Beside every metric of the exact odds, "find value" opens
// the panel on that metric: the key to vary (a select of every number of the scenario, as `solve --vary`
// names it: POST /api/solve/keys; the keys the file sets first), a relation (at most, at least, exactly) and a
// value (a fraction, a decimal or a percentage). "Find value" asks POST /api/solve, the command line's `solve
// --target METRIC<=V --vary KEY --json`, and shows its answer sentence and its table of values solved.
//
// The answer shown always belongs to the input shown: it remembers the scenario text and the inputs it was
// found for, and the moment either changes it is greyed and labelled (editor.js: markStale asks solveStale).
// A request is aborted when the scenario or an input changes or another is made (which stops its solve on the
// server), and a reply that is not the latest request's, or whose input is no longer on screen, is dropped.
// Uses dom.js and editor.js (ed, markStale).
'use strict';

ed.solve = { metric: null, seq: 0, pending: null, shown: null, keysFor: null };

/** The "find value" button of one metric's row of the exact odds. */
function solveButton(metric) {
  const button = el('button', { type: 'button', class: 'whatif', 'data-solve': metric, text: 'find value',
    'aria-label': `find value for a target on ${metric}`, title: `find the value of a key that gives a target for ${metric}` });
  button.addEventListener('click', () => openSolve(metric));
  return button;
}

/** The inputs on screen, and the scenario text they go with, as one comparable string. */
function solveSignature(text = ed.text) {
  return JSON.stringify([text, ed.solve.metric, $('solve-key').value, $('solve-relation').value, $('solve-value').value.trim()]);
}

/** Why the answer shown does not belong to the page as it stands (`text` the scenario typed): 'text' when the
 * scenario changed, 'inputs' when an input did, null when it belongs (or none is shown). A request under way
 * for anything else is aborted. */
function solveStale(text) {
  const pending = ed.solve.pending;
  if (pending && pending.signature !== solveSignature(text)) {
    pending.controller.abort();
    ed.solve.pending = null;
    solveState('changed', 'The scenario or the inputs changed: press Find value to answer them.');
  }
  const shown = ed.solve.shown;
  if (!shown) return null;
  if (shown.text !== text) return 'text';
  if (shown.signature !== solveSignature(text)) return 'inputs';
  // Back on the scenario and inputs the answer was found for: it is current again, and its state line says so.
  if (!ed.solve.pending && $('solve-state').dataset.state === 'changed') solveState('answered', shown.said);
  return null;
}

function solveState(state, text) {
  $('solve-state').textContent = text;
  $('solve-state').dataset.state = state;
}

/** Opens the panel on `metric` (focus moves to it), with the scenario's keys. */
async function openSolve(metric) {
  ed.solve.metric = metric;
  $('solve').hidden = false;
  $('solve-metric').textContent = metric;
  markStale('computing');
  $('solve-heading').focus();
  $('solve-heading').scrollIntoView({ block: 'start' });
  await solveKeys(ed.text);
}

/** The numbers of scenario `text` in the key select (the selected one kept where it still is), the keys
 * the file sets first; asked again only when the text changed. */
async function solveKeys(text) {
  if ($('solve').hidden || ed.solve.keysFor === text) return;
  const r = await fetch('/api/solve/keys?name=' + encodeURIComponent(ed.name), { method: 'POST', headers: TOML, body: text });
  const body = await r.json();
  if (text !== ed.text) return; // keys of an earlier text
  if (!r.ok) {
    solveState('refused', body.error);
    return;
  }
  ed.solve.keysFor = text;
  const chosen = $('solve-key').value;
  const own = fileKeys();
  const option = (k) => el('option', { value: k.key, text: `${k.key} (${k.value})` });
  const groups = [['set in the file', body.keys.filter((k) => own.has(k.key))], ['left at their defaults', body.keys.filter((k) => !own.has(k.key))]];
  $('solve-key').replaceChildren(...groups.filter(([, keys]) => keys.length).map(([label, keys]) => el('optgroup', { label }, ...keys.map(option))));
  if (body.keys.some((k) => k.key === chosen)) $('solve-key').value = chosen;
  markStale('computing');
}

/** The dotted keys of every number the file itself sets, as the command line names them. */
function fileKeys() {
  const keys = new Set();
  const walk = (value, path) => {
    if (typeof value === 'number') keys.add(dotted(path));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, path.concat(Array.isArray(value) ? Number(k) : k));
  };
  for (const [table, value] of Object.entries(ed.model)) if (table !== 'run') walk(value, [table]);
  return keys;
}

/** Asks the server for the value of the key that meets the target, and shows the answer if it is still the
 * one the page asks for. */
async function findValue(event) {
  event?.preventDefault();
  if (!ed.solve.metric || !$('solve-key').value) return;
  ed.solve.pending?.controller.abort();
  const text = ed.text;
  const signature = solveSignature(text);
  const seq = ++ed.solve.seq;
  const controller = new AbortController();
  ed.solve.pending = { seq, signature, controller };
  const target = `${ed.solve.metric}${$('solve-relation').value}${$('solve-value').value.trim()}`;
  const q = new URLSearchParams({ target, vary: $('solve-key').value, name: ed.name });
  solveState('solving', 'solving exactly…');
  try {
    const r = await fetch('/api/solve?' + q, { method: 'POST', headers: TOML, body: text, signal: controller.signal });
    const doc = await r.json();
    // A late reply: another request was made since, or the scenario or an input changed.
    if (seq !== ed.solve.seq || controller.signal.aborted || signature !== solveSignature()) return;
    ed.solve.pending = null;
    if (!r.ok) {
      clearSolve();
      solveState('refused', doc.error);
      return;
    }
    showSolve(doc, text, signature);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (seq === ed.solve.seq) solveState('failed', `No answer: ${e.message}`);
  }
}

/** No answer on screen. */
function clearSolve() {
  ed.solve.shown = null;
  $('solve-answer').textContent = '';
  $('solve-table').replaceChildren();
  markStale('computing');
}

function showSolve(doc, text, signature) {
  $('solve-answer').textContent = doc.answer;
  $('solve-table').replaceChildren(solveTable(doc));
  const said = doc.method === 'sampled'
    ? `sampled, the tree being too large to solve exactly: ${doc.probes.length} values of ${doc.key}, ${doc.trials} trials each`
    : doc.numerator
      ? `solved exactly: the metric as a polynomial in ${doc.key}, from ${doc.solves} exact solves`
      : `solved exactly: ${doc.points.length} values of ${doc.key}`;
  solveState('answered', said);
  ed.solve.shown = { text, signature, said };
  markStale('computing');
}

/** The values solved, ascending: the metric there exactly and whether it meets the target; the key's own
 * value marked. */
function solveTable(doc) {
  const key = doc.key.split('.').pop();
  const metric = doc.target.metric;
  const goal = `${doc.target.relation} ${doc.target.fraction}`;
  const table = el('table', { class: 'results', id: 'solve-results' },
    el('caption', { text: `${metric} as ${doc.key} changes; the target: ${metric} ${goal}; the scenario's value is ${doc.current}` }),
    el('thead', {}, el('tr', {}, ...[key, 'exact', 'fraction', 'meets target'].map((h) => el('th', { scope: 'col', text: h })))));
  if (doc.method === 'sampled') return sampledTable(doc, key, metric, goal);
  const body = el('tbody');
  for (const p of doc.points || []) {
    const current = Number(p.value) === Number(doc.current);
    body.append(el('tr', { class: current ? 'base' : null, 'data-value': p.value, 'data-exact-fraction': p.exact_fraction, 'data-meets': p.meets },
      el('th', { scope: 'row', text: current ? `${p.value} (current)` : String(p.value) }),
      el('td', { text: Number(p.exact).toFixed(6) }), el('td', { text: p.exact_fraction }), el('td', { text: p.meets ? 'yes' : 'no' })));
  }
  table.append(body);
  return table;
}

/** A tree too large to solve exactly: the values tried, each estimate with its 95% interval. */
function sampledTable(doc, key, metric, goal) {
  const table = el('table', { class: 'results', id: 'solve-results' },
    el('caption', { text: `${metric} as ${doc.key} changes, sampled on ${doc.trials} trials a value; the target: ${metric} ${goal}` }),
    el('thead', {}, el('tr', {}, ...[key, 'estimate', '95% interval', 'meets target'].map((h) => el('th', { scope: 'col', text: h })))));
  const body = el('tbody');
  const says = { meets: 'yes', fails: 'no', unsure: 'cannot tell' };
  for (const p of doc.probes) {
    body.append(el('tr', { 'data-value': p.value, 'data-meets': p.verdict },
      el('th', { scope: 'row', text: String(p.value) }), el('td', { text: Number(p.estimate).toFixed(6) }),
      el('td', { text: `${Number(p.ci_low).toFixed(6)} to ${Number(p.ci_high).toFixed(6)}` }), el('td', { text: says[p.verdict] })));
  }
  table.append(body);
  return table;
}

function wireSolve() {
  $('solve-form').addEventListener('submit', findValue);
  for (const id of ['solve-key', 'solve-relation', 'solve-value']) {
    $(id).addEventListener('input', () => markStale('computing'));
    $(id).addEventListener('change', () => markStale('computing'));
  }
}

document.addEventListener('DOMContentLoaded', wireSolve);
