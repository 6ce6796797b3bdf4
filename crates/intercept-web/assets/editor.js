// The scenario editor. A form generated from the config's JSON Schema and the TOML text stay in sync; after
// each edit (300 ms quiet) the TOML goes to /api/validate (a bad value is marked on its field with the command
// line's message), then /api/exact (the headline answer and odds) and /api/picture. Monte Carlo runs as a job
// polled for its progress (track), as are the what-if sweeps and tornado (whatif.js). A form edit sets its one
// key in the TOML through /api/set, keeping the file's comments. Share puts the TOML, deflated, into the URL's
// hash; Save puts it into the configs folder. Plain script (dom.js's $ and el), no framework; every page element
// is in editor.html.
'use strict';

const ed = { schema: null, model: {}, table: null, name: 'scenario.toml', path: null, seq: 0, timer: null, job: null, patching: Promise.resolve(),
  jobs: new Set(), tornado: [] };

// ---- the schema ----

/** A schema node with its `$ref` followed and an optional null dropped, keeping its own description/default. */
function resolve(node) {
  let n = node || {};
  while (n.$ref) {
    const target = ed.schema.$defs[n.$ref.split('/').pop()];
    const { $ref, ...own } = n;
    n = { ...target, ...own };
  }
  const options = n.anyOf || (n.oneOf && !n.oneOf.every((o) => 'const' in o) ? n.oneOf : null);
  if (options) {
    const real = options.filter((o) => o.type !== 'null');
    if (real.length === 1) {
      const { anyOf, oneOf, ...own } = n;
      return resolve({ ...real[0], ...own });
    }
  }
  return n;
}

/** The node's main JSON type: the first one that is not null. */
function typeOf(n) {
  const t = Array.isArray(n.type) ? n.type.find((x) => x !== 'null') : n.type;
  if (t) return t;
  if (n.properties) return 'object';
  return n.enum || n.oneOf ? 'string' : 'any';
}

function choices(n) {
  if (n.enum) return n.enum.map((v) => [v, '']);
  if (n.oneOf && n.oneOf.every((o) => 'const' in o)) return n.oneOf.map((o) => [o.const, o.description || '']);
  return null;
}

// ---- the model: the parsed TOML, read and changed by path (keys and array indexes) ----

function getAt(path) {
  return path.reduce((v, k) => (v == null ? undefined : v[k]), ed.model);
}

function setAt(path, value) {
  let v = ed.model;
  for (const k of path.slice(0, -1)) v = v[k] ??= {};
  if (value === undefined) delete v[path[path.length - 1]];
  else v[path[path.length - 1]] = value;
}

/** The dotted key the command line names, an array item by its `name` where it has one. */
function dotted(path) {
  const out = [];
  path.forEach((k, i) => {
    const item = typeof k === 'number' ? getAt(path.slice(0, i + 1)) : null;
    out.push(typeof k === 'number' ? (item && item.name) || String(k) : k);
  });
  return out.join('.');
}

// ---- TOML out ----

const bare = (k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));
const isTable = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isTableArray = (v) => Array.isArray(v) && v.length > 0 && v.every(isTable);

function scalar(v, node) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return typeOf(node) === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v);
  if (Array.isArray(v)) return '[' + v.map((x) => scalar(x, resolve(node.items))).join(', ') + ']';
  if (isTable(v)) {
    const inner = Object.entries(v).map(([k, x]) => `${bare(k)} = ${scalar(x, child(node, k))}`);
    return '{ ' + inner.join(', ') + ' }';
  }
  return String(v);
}

function child(node, key) {
  const props = (node && node.properties) || {};
  return resolve(props[key] || (typeof node?.additionalProperties === 'object' ? node.additionalProperties : {}));
}

function emit(prefix, table, node, out) {
  const entries = Object.entries(table);
  for (const [k, v] of entries) {
    if (!isTable(v) && !isTableArray(v)) out.push(`${bare(k)} = ${scalar(v, child(node, k))}`);
  }
  for (const [k, v] of entries) {
    const name = prefix.concat(bare(k)).join('.');
    if (isTable(v)) {
      out.push('', `[${name}]`);
      emit(prefix.concat(bare(k)), v, child(node, k), out);
    } else if (isTableArray(v)) {
      for (const item of v) {
        out.push('', `[[${name}]]`);
        emit(prefix.concat(bare(k)), item, resolve(child(node, k).items), out);
      }
    }
  }
}

function toToml() {
  const out = [];
  emit([], ed.model, resolve(ed.schema), out);
  return out.join('\n').replace(/^\n+/, '') + '\n';
}

// ---- the form ----

function buildForm() {
  const form = $('form');
  form.replaceChildren();
  const root = resolve(ed.schema);
  for (const key of Object.keys(root.properties)) form.append(section([key], child(root, key), key === ed.table));
}

function section(path, node, open) {
  const t = typeOf(node);
  if (t === 'object' && node.properties) {
    const box = el('details', { open: open || getAt(path) !== undefined, 'data-key': path.join('.') });
    box.append(el('summary', { text: `[${path.join('.')}]` }));
    if (node.description) box.append(el('p', { class: 'help', text: node.description }));
    for (const key of Object.keys(node.properties)) box.append(section(path.concat(key), child(node, key), false));
    return box;
  }
  if (t === 'array' && typeOf(resolve(node.items)) === 'object' && resolve(node.items).properties) {
    return tableArray(path, node);
  }
  return field(path, node);
}

function tableArray(path, node) {
  const items = getAt(path) || [];
  const itemNode = resolve(node.items);
  const box = el('details', { open: items.length > 0, 'data-key': path.join('.') });
  box.append(el('summary', { text: `[[${path.join('.')}]] × ${items.length}` }));
  if (node.description || itemNode.description) box.append(el('p', { class: 'help', text: itemNode.description || node.description }));
  items.forEach((item, i) => {
    const set = el('fieldset', {}, el('legend', { text: item.name || `#${i + 1}` }));
    for (const key of Object.keys(itemNode.properties)) set.append(section(path.concat(i, key), child(itemNode, key), false));
    const remove = el('button', { type: 'button', text: 'remove' });
    remove.addEventListener('click', () => { items.splice(i, 1); formChanged(true); });
    set.append(remove);
    box.append(set);
  });
  const add = el('button', { type: 'button', text: `add to ${path.join('.')}` });
  add.addEventListener('click', () => { setAt(path, items.concat([{}])); formChanged(true); });
  box.append(add);
  return box;
}

function field(path, node) {
  const key = path[path.length - 1];
  const id = 'f-' + path.join('-');
  const value = getAt(path);
  const t = typeOf(node);
  const opts = choices(node);
  const shown = node.default === undefined ? '' : JSON.stringify(node.default);
  let input;
  if (opts || t === 'boolean') {
    const list = opts || [[true, ''], [false, '']];
    input = el('select', { id }, el('option', { value: '', text: shown ? `(default ${shown})` : '(not set)' }));
    for (const [v] of list) input.append(el('option', { value: JSON.stringify(v), text: String(v) }));
    input.value = value === undefined ? '' : JSON.stringify(value);
  } else if (t === 'integer' || t === 'number') {
    input = el('input', { id, type: 'text', inputmode: t === 'integer' ? 'numeric' : 'decimal', placeholder: shown });
    input.value = value === undefined ? '' : String(value);
  } else {
    const json = t !== 'string';
    input = el('input', { id, type: 'text', placeholder: shown, 'data-json': json });
    input.value = value === undefined ? '' : json ? JSON.stringify(value) : value;
  }
  input.dataset.path = JSON.stringify(path);
  input.dataset.kind = opts || t === 'boolean' ? 'choice' : t;
  input.addEventListener('input', () => fieldChanged(input, key === 'name'));
  const help = [node.description, opts && opts.some(([, d]) => d) ? opts.map(([v, d]) => `${v}: ${d}`).join('; ') : '']
    .filter(Boolean).join(' ');
  // The [run] table's numbers (trials, seed, chunk size, tree limit) say how the odds are computed, not what is
  // modelled: sweeping them answers no what-if, so they get no buttons.
  const number = (t === 'integer' || t === 'number') && path[0] !== 'run';
  const box = el('div', { class: 'field' }, el('label', { for: id, text: key }), number ? whatIfButtons(path, input) : input);
  if (help) box.append(el('p', { class: 'help', text: help }));
  return box;
}

/** A field's text as the value to store: numbers stay numbers when they read as one, else the text (which
 * the server then refuses with the command line's message, marked on this field). */
function fieldValue(input) {
  const text = input.value.trim();
  if (text === '') return undefined;
  if (input.dataset.kind === 'choice') return JSON.parse(text);
  if (input.dataset.kind === 'integer' || input.dataset.kind === 'number') {
    return /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) ? Number(text) : text;
  }
  if (input.dataset.json === '') {
    try { return JSON.parse(text); } catch { return text; }
  }
  return text;
}

function fieldChanged(input, relabel) {
  const path = JSON.parse(input.dataset.path);
  const value = fieldValue(input);
  setAt(path, value);
  const node = fieldNode(path);
  patchToml(path, value === undefined ? null : scalar(value, node), relabel);
}

/** The schema node of the value at `path`. */
function fieldNode(path) {
  let node = resolve(ed.schema);
  for (const k of path) node = typeof k === 'number' ? resolve(node.items) : child(node, k);
  return node;
}

/** Sets one key in the TOML text on the server (/api/set), which keeps every comment and the order of keys;
 * writes the TOML from the form instead when the text cannot be patched in place. Edits are patched one after
 * another, each on the text the one before left. */
function patchToml(path, literal, relabel) {
  ed.patching = ed.patching.then(async () => {
    const r = await fetch('/api/set?name=' + encodeURIComponent(ed.name), {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: $('toml').value, path, value: literal }),
    });
    const patched = r.ok ? (await r.json()).text : null;
    if (patched !== null) {
      $('toml').value = patched;
      if (relabel) buildForm();
      schedule();
    } else {
      formChanged(relabel);
    }
  });
}

function formChanged(rebuild) {
  $('toml').value = toToml();
  if (rebuild) buildForm();
  schedule();
}

// ---- TOML in ----

async function tomlChanged() {
  const text = $('toml').value;
  const r = await fetch('/api/parse?name=' + encodeURIComponent(ed.name), { method: 'POST', headers: TOML, body: text });
  if (text !== $('toml').value) return;
  if (r.ok) {
    ed.model = await r.json();
    $('toml-error').textContent = '';
    buildForm();
  } else {
    $('toml-error').textContent = (await r.json()).error;
  }
}

// ---- the answers ----

function schedule() {
  clearTimeout(ed.timer);
  ed.timer = setTimeout(refresh, 300);
}

async function post(url, text) {
  const r = await fetch(`${url}?name=${encodeURIComponent(ed.name)}`, { method: 'POST', headers: TOML, body: text });
  const body = r.status === 204 ? null : r.headers.get('content-type').includes('json') ? await r.json() : await r.text();
  return { ok: r.ok, status: r.status, body };
}

async function refresh() {
  const seq = ++ed.seq;
  const text = $('toml').value;
  $('answer').dataset.state = 'loading';
  const valid = await post('/api/validate', text);
  if (seq !== ed.seq) return;
  markErrors(valid.ok ? null : valid.body.error);
  if (!valid.ok) {
    $('answer').dataset.state = 'invalid';
    $('status').textContent = valid.body.error;
    return;
  }
  $('status').textContent = 'valid';
  const [exact, picture] = await Promise.all([post('/api/exact', text), post('/api/picture', text)]);
  if (seq !== ed.seq) return;
  showExact(exact);
  if (picture.status === 204) $('picture').textContent = 'This rule set draws no picture of its scenarios.';
  else if (picture.ok) $('picture').innerHTML = picture.body; // the server's own SVG
  $('answer').dataset.state = exact.ok ? 'ready' : 'no-exact';
}

function showExact(exact) {
  const rows = $('exact').tBodies[0];
  rows.replaceChildren();
  if (!exact.ok) {
    $('answer').textContent = `No exact answer: ${exact.body.error}`;
    return;
  }
  const doc = exact.body;
  $('answer').textContent = doc.answer || `Solved exactly over ${doc.leaves} leaves.`;
  const headline = new Set(doc.headline || []);
  const metrics = doc.metrics.filter((m) => headline.size === 0 || headline.has(m.metric));
  for (const m of metrics) {
    const row = el('tr', { 'data-metric': m.metric, 'data-exact': m.exact },
      el('td', { text: m.metric }), el('td', { text: m.exact == null ? '–' : m.exact.toFixed(6) }),
      el('td', { text: m.exact_fraction ?? '' }));
    rows.append(row);
  }
}

/** Marks the field the message names (`key 'a.b.c'`), with the message; clears every other mark. */
function markErrors(message) {
  for (const box of document.querySelectorAll('.field.invalid')) {
    box.classList.remove('invalid');
    box.querySelector('.message')?.remove();
  }
  const key = message && (message.match(/key '([^']+)'/) || [])[1];
  if (!key) return;
  for (const input of document.querySelectorAll('#form [data-path]')) {
    if (dotted(JSON.parse(input.dataset.path)) !== key) continue;
    const box = input.closest('.field');
    box.classList.add('invalid');
    box.append(el('p', { class: 'message', role: 'alert', text: message }));
    for (let d = box.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  }
}

// ---- Monte Carlo ----

async function startRun(event) {
  event.preventDefault();
  if (ed.job) return;
  const q = new URLSearchParams({ trials: $('trials').value, seed: $('seed').value, name: ed.name });
  ed.job = await track('/api/run?' + q, mcParts, showRun);
}

const mcParts = { progress: 'progress', state: 'run-state', cancel: 'cancel', result: 'run-result', done: () => { ed.job = null; } };

/** Queues a job (`url`, the TOML as body) and follows it: progress bar, state line, cancel button, then
 * `show(id, job)` once done. Returns its id, or null when refused (the error is shown on the state line). */
async function track(url, parts, show) {
  const r = await fetch(url, { method: 'POST', headers: TOML, body: $('toml').value });
  const body = await r.json();
  if (!r.ok) {
    $(parts.state).textContent = body.error;
    $(parts.state).dataset.state = 'refused';
    parts.done();
    return null;
  }
  ed.jobs.add(body.id);
  $(parts.result).replaceChildren();
  Object.assign($(parts.progress), { hidden: false, value: 0 });
  $(parts.cancel).hidden = false;
  $(parts.cancel).onclick = () => fetch('/api/run/' + body.id, { method: 'DELETE' });
  poll(body.id, parts, show);
  return body.id;
}

async function poll(id, parts, show) {
  const r = await fetch('/api/run/' + id);
  const job = await r.json();
  const state = $(parts.state);
  if (!r.ok) {
    state.textContent = job.error;
    ed.jobs.delete(id);
    parts.done();
    return;
  }
  // A job every point of which the enumerator solved samples nothing: say so rather than "0 of 0 trials".
  const exactOnly = job.state === 'done' && job.trials === 0;
  $(parts.progress).value = job.trials ? job.trials_done / job.trials : (exactOnly ? 1 : 0);
  state.textContent = exactOnly ? 'done: solved exactly, no trials needed'
    : `${job.state}: ${job.trials_done.toLocaleString('en')} of ${job.trials.toLocaleString('en')} trials`;
  state.dataset.state = job.state;
  if (job.state === 'queued' || job.state === 'running') {
    setTimeout(() => poll(id, parts, show), 250);
    return;
  }
  ed.jobs.delete(id);
  parts.done();
  $(parts.cancel).hidden = true;
  if (job.reason) state.textContent += ` (${job.reason})`;
  if (job.state === 'done') show(id, job);
}

function showRun(id, job) {
  const fmt = (x) => (x == null ? '–' : Number(x).toFixed(4));
  const table = el('table', { class: 'results' },
    el('thead', {}, el('tr', {}, ...['metric', 'estimate', '95% interval', 'exact'].map((h) => el('th', { text: h })))));
  const body = el('tbody');
  for (const m of job.result.metrics) {
    body.append(el('tr', { 'data-metric': m.metric }, el('td', { text: m.metric }), el('td', { text: fmt(m.estimate) }),
      el('td', { text: m.ci_low == null ? '–' : `${fmt(m.ci_low)}–${fmt(m.ci_high)}` }),
      el('td', { text: m.exact == null ? '–' : `${fmt(m.exact)} (${m.exact_fraction})` })));
  }
  table.append(body);
  const links = el('p', { class: 'row' });
  for (const f of ['summary.parquet', 'report.html'].filter((f) => job.files.includes(f))) {
    links.append(el('a', { href: `/api/run/${id}/files/${f}`, download: f === 'report.html' ? null : f, text: f }));
  }
  $('run-result').replaceChildren(table, links);
}

// ---- Share and Save ----

async function squeeze(text, stream) {
  return new Response(new Blob([text]).stream().pipeThrough(stream)).arrayBuffer();
}

async function deflate(text) {
  const bytes = new Uint8Array(await squeeze(text, new CompressionStream('deflate-raw')));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function inflate(code) {
  const bin = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(await squeeze(bytes, new DecompressionStream('deflate-raw')));
}

async function share() {
  const hash = new URLSearchParams({ s: await deflate($('toml').value), seed: $('seed').value });
  history.replaceState(null, '', '/edit#' + hash);
  const url = $('share-url');
  url.value = location.href;
  url.hidden = false;
  url.select();
  try { await navigator.clipboard.writeText(location.href); $('status').textContent = 'link copied'; } catch { $('status').textContent = 'copy the link above'; }
}

async function save() {
  const path = prompt('Save as (a path inside the configs folder, ending .toml)', ed.path || `${ed.table}/my-scenario.toml`);
  if (!path) return;
  const put = (over) => fetch(`/api/scenarios/${path.split('/').map(encodeURIComponent).join('/')}${over ? '?overwrite=1' : ''}`,
    { method: 'PUT', headers: TOML, body: $('toml').value });
  let r = await put(false);
  if (r.status === 409 && confirm(`${path} exists. Overwrite it?`)) r = await put(true);
  if (r.ok) {
    ed.path = path;
    history.replaceState(null, '', '/edit?path=' + encodeURIComponent(path));
  }
  $('status').textContent = r.ok ? `saved as ${path}` : r.status === 409 ? 'not saved' : (await r.json()).error;
}

// ---- start ----

async function load() {
  const query = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get('s')) {
    if (hash.get('seed')) $('seed').value = hash.get('seed');
    return inflate(hash.get('s'));
  }
  const source = query.get('path') ? '/api/scenarios/' + query.get('path').split('/').map(encodeURIComponent).join('/')
    : query.get('rule_set') ? '/api/starter/' + encodeURIComponent(query.get('rule_set')) : null;
  if (!source) throw new Error('open a scenario from the start page, or add ?path= or ?rule_set= to the address');
  ed.path = query.get('path');
  if (ed.path) ed.name = ed.path.split('/').pop();
  const r = await fetch(source);
  if (!r.ok) throw new Error((await r.json()).error);
  return r.text();
}

async function start() {
  const text = await load();
  $('toml').value = text;
  const parsed = await fetch('/api/parse?name=' + encodeURIComponent(ed.name), { method: 'POST', headers: TOML, body: text });
  if (!parsed.ok) throw new Error((await parsed.json()).error);
  ed.model = await parsed.json();
  const sets = (await (await fetch('/api/rule-sets')).json()).rule_sets.map((s) => s.table);
  ed.table = Object.keys(ed.model).find((k) => sets.includes(k));
  if (!ed.table) throw new Error(`no rule-set table in this config; allowed: ${sets.join(', ')}`);
  ed.schema = await (await fetch('/api/schema/' + ed.table)).json();
  $('title').textContent = `${ed.path || ed.model.run?.name || 'new scenario'} (${ed.table})`;
  if (ed.model.run?.seed !== undefined && !location.hash) $('seed').value = ed.model.run.seed;
  buildForm();
  refresh();
}

document.addEventListener('DOMContentLoaded', () => {
  $('toml').addEventListener('input', () => { tomlChanged(); schedule(); });
  $('run-form').addEventListener('submit', startRun);
  $('sweep-form').addEventListener('submit', startSweep);
  $('tornado-form').addEventListener('submit', startTornado);
  $('share').addEventListener('click', share);
  $('save').addEventListener('click', save);
  // A page closed cancels its jobs: a DELETE that outlives the page (keepalive), not a beacon, whose
  // plain POST the server refuses.
  window.addEventListener('pagehide', () => { for (const id of ed.jobs) fetch(`/api/run/${id}`, { method: 'DELETE', keepalive: true }); });
  start().catch((e) => { $('answer').textContent = e.message; $('answer').dataset.state = 'failed'; });
});
