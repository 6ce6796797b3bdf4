// The scenario editor. The form (form.js, from the config's JSON Schema) and the TOML text stay in sync: a
// form edit changes its one key in the text on the server (/api/set, which keeps every comment; adding or
// removing a list item too), a text edit refills the form. Every change goes on the undo list, all the
// keystrokes of one edit of a field as one step. After each change (300 ms quiet) the text goes to
// /api/validate (a bad value is marked on its field with the command line's message, for screen readers
// too), then /api/exact (the answer, what it rests on, the odds) and /api/picture, then the map and where to
// act on it (map.js); the request before is aborted, which stops its solve on the server.
//
// Every number on the page belongs to the text on the page: each result (the answer and odds, the picture,
// a Monte Carlo run, a sweep, the tornado) remembers the text it was computed for, and the moment the text
// changes it is greyed and labelled as belonging to an earlier version until it is computed again. Monte
// Carlo runs as a job polled for its progress (track), as do the what-if sweeps and tornado (whatif.js).
// Beside each exact number, "find value" solves for the value of a key that gives a target (solve.js).
// Share puts the TOML, deflated, into the URL's hash; Download saves it as a file; Save puts it into the
// configs folder. Plain script (dom.js, form.js), no framework; every page element is in editor.html.
'use strict';

const ed = { schema: null, model: {}, table: null, name: 'scenario.toml', path: null, saved: null, text: '', seq: 0, timer: null,
  parseTimer: null, controller: null, job: null, patching: Promise.resolve(), jobs: new Set(), tornado: [],
  past: [], future: [], results: {}, edit: null, lastEdit: null };

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

// ---- changes, and undoing them ----

/** Makes `text` the scenario: remembered for undo (unless `undoing`), shown, every result checked for
 * staleness, the answers asked again. The keystrokes of one edit of a field (`edit`, from editOf) are one
 * undo step: only the first of them remembers the text before it. */
function commit(text, undoing = false, edit = null) {
  if (text === ed.text) return;
  if (!undoing) {
    if (!edit || edit !== ed.lastEdit) ed.past.push(ed.text);
    ed.future = [];
  }
  ed.lastEdit = undoing ? null : edit;
  ed.text = text;
  if ($('toml').value !== text) $('toml').value = text;
  showHistory();
  markStale('computing');
  schedule();
}

function showHistory() {
  $('undo').disabled = ed.past.length === 0;
  $('redo').disabled = ed.future.length === 0;
}

/** One edit of a field: from its first keystroke until the field is left or its value committed (Enter), as
 * a form in an editor counts it; typing `10` over `8` is one edit, and undoing it gives `8` back. */
function editOf(input) {
  if (ed.edit?.field !== input) ed.edit = { field: input };
  return ed.edit;
}

/** The field's edit is over: its next keystroke starts another undo step. */
function endEdit(input) {
  if (ed.edit?.field === input) ed.edit = null;
}

/** Undoes (or redoes) one step, once the edits typed before it have reached the text: a Ctrl+Z pressed while
 * a keystroke is still on its way undoes the whole edit, that keystroke included. */
function undo(back = true) {
  ed.edit = null;
  queue(async () => {
    const [from, to] = back ? [ed.past, ed.future] : [ed.future, ed.past];
    if (!from.length) return;
    to.push(ed.text);
    const text = from.pop();
    commit(text, true);
    await reread(text);
    $('status').textContent = back ? 'undone' : 'redone';
  });
}

/** Sets one key (`op` set, `literal` null removes it), adds a table to a list (`append`) or removes a list
 * item (`remove`) in the text on the server, which keeps every comment; one edit after another, each on the
 * text the one before left. A list changed rebuilds the form and focuses `after.focus`; `after.edit` is the
 * field edit a keystroke belongs to (one undo step). An edit that cannot be made in the text changes nothing
 * and says why. */
function patch(path, literal, op, after = {}) {
  queue(async () => {
    const r = await fetch('/api/set?name=' + encodeURIComponent(ed.name), {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: ed.text, path, value: literal, op }),
    });
    const answer = await r.json();
    if (!r.ok || answer.text === null) {
      $('status').textContent = `That change cannot be made in the text (${answer.reason || answer.error}); edit the TOML instead.`;
      await reread(ed.text);
      return;
    }
    commit(answer.text, false, after.edit);
    if (op !== 'set') {
      await reread(answer.text);
      const target = after.focus && document.querySelector(after.focus);
      if (target) { unfold(target); target.focus(); }
    }
  });
}

/** Runs `step` once every change queued before it is made, one at a time, each on the text the one before
 * left; a step that fails says so, and the ones after it still run. */
function queue(step) {
  ed.patching = ed.patching.then(step).catch((e) => { $('status').textContent = `That change was not made: ${e.message}`; });
}

/** `text` read as TOML by the server (/api/parse): the model, or the reader's one-line error. */
async function parse(text) {
  const r = await fetch('/api/parse?name=' + encodeURIComponent(ed.name), { method: 'POST', headers: TOML, body: text });
  const body = await r.json();
  return r.ok ? { model: body } : { error: body.error };
}

/** The model read again from `text`, and the form rebuilt from it (focus kept on the same field). */
async function reread(text) {
  const parsed = await parse(text);
  if (text !== ed.text) return;
  $('toml-error').textContent = parsed.error || '';
  if (parsed.error) return;
  ed.model = parsed.model;
  const focused = document.activeElement && document.activeElement.id;
  buildForm();
  if (focused && $(focused) && !$('toml').contains($(focused))) $(focused).focus();
}

/** The text typed: taken as a change once typing pauses, then the form refilled. */
function textTyped() {
  markStale('computing', $('toml').value);
  clearTimeout(ed.parseTimer);
  ed.parseTimer = setTimeout(() => {
    commit($('toml').value);
    reread($('toml').value);
  }, 400);
}

// ---- the answers, and which text they belong to ----

const NOTES = {
  computing: 'Computing for your change…',
  invalid: 'From an earlier version of the scenario: fix the error to see this one’s.',
  'too-large': 'From an earlier version of the scenario.',
  job: 'Ran on an earlier version of the scenario: run it again for this one.',
  solve: 'Found for an earlier version of the scenario: press Find value to answer this one.',
  'solve-inputs': 'Found for other inputs: press Find value to answer these.',
};

/** Marks every result computed for another text than `text` (the scenario's by default) as stale, with the
 * note that says why; results for this text are shown as current. */
function markStale(why, text = ed.text) {
  for (const view of document.querySelectorAll('.view')) {
    const kind = view.dataset.view;
    const result = ed.results[kind];
    // The value found for a target belongs to its inputs as well as to the text (solve.js).
    const solveWhy = kind === 'solve' ? solveStale(text) : null;
    const stale = kind === 'solve' ? solveWhy !== null : result !== undefined && result !== text;
    view.classList.toggle('stale', stale);
    const note = view.querySelector(':scope > .stale-note');
    if (!note) continue;
    note.hidden = !stale;
    const job = ['run', 'sweep', 'tornado'].includes(kind);
    const said = kind === 'solve' ? (solveWhy === 'text' ? 'solve' : 'solve-inputs') : job ? 'job' : why;
    note.textContent = stale ? NOTES[said] : '';
  }
}

/** Result `kind` now belongs to `text`. */
function current(kind, text) {
  ed.results[kind] = text;
  markStale('computing');
}

function schedule() {
  clearTimeout(ed.timer);
  ed.timer = setTimeout(refresh, 300);
}

async function post(url, text, signal) {
  const r = await fetch(`${url}?name=${encodeURIComponent(ed.name)}`, { method: 'POST', headers: TOML, body: text, signal });
  const body = r.status === 204 ? null : r.headers.get('content-type').includes('json') ? await r.json() : await r.text();
  return { ok: r.ok, status: r.status, body };
}

async function refresh() {
  ed.controller?.abort();
  const controller = (ed.controller = new AbortController());
  const text = ed.text;
  $('answer').dataset.state = 'loading';
  try {
    const valid = await post('/api/validate', text, controller.signal);
    markErrors(valid.ok ? null : valid.body.error);
    if (!valid.ok) {
      showAnswer('invalid', `The config has an error: ${valid.body.error}`);
      markStale('invalid');
      return;
    }
    $('status').textContent = '';
    const [exact, picture] = await Promise.all([post('/api/exact', text, controller.signal), post('/api/picture', text, controller.signal)]);
    if (picture.status === 204) $('picture').textContent = 'This rule set draws no picture of its scenarios.';
    else if (picture.ok) $('picture').innerHTML = picture.body; // the server's own SVG
    current('picture', text);
    showExact(exact, text);
    solveKeys(text).catch(() => {});
    askWhere(text);
  } catch (e) {
    if (e.name !== 'AbortError') showAnswer('failed', `No answer: ${e.message}`);
  }
}

function showAnswer(state, text) {
  $('answer').textContent = text;
  $('answer').dataset.state = state;
}

function showExact(exact, text) {
  const rows = $('exact').tBodies[0];
  rows.replaceChildren();
  $('assumptions').replaceChildren();
  current('answer', text);
  if (!exact.ok) {
    const large = /too large|not solved exactly within|more than \d+ leaves/.test(exact.body.error);
    showAnswer(large ? 'too-large' : 'no-exact', large
      ? 'Too large to solve exactly here: run Monte Carlo below for an estimate with its interval.'
      : `No exact answer: ${exact.body.error}`);
    if (large) $('status').textContent = exact.body.error;
    return;
  }
  const doc = exact.body;
  showAnswer('ready', doc.answer || `Solved exactly over ${doc.leaves} leaves.`);
  for (const a of doc.assumptions || []) $('assumptions').append(assumption(a));
  const headline = new Set(doc.headline || []);
  const metrics = doc.metrics.filter((m) => headline.size === 0 || headline.has(m.metric));
  for (const m of metrics) {
    rows.append(el('tr', { 'data-metric': m.metric, 'data-exact': m.exact },
      el('td', { text: m.metric }), el('td', { text: m.exact == null ? '–' : m.exact.toFixed(6) }),
      el('td', { text: m.exact_fraction ?? '' }), el('td', {}, solveButton(m.metric))));
  }
}

/** One reading the answer rests on, whether the file sets it or leaves it at its default, and a button that
 * takes the player to its key. */
function assumption(a) {
  const path = a.key.split('.');
  const set = getAt(path) !== undefined;
  const change = el('button', { type: 'button', class: 'link', text: 'change', 'aria-label': `change ${a.key}` });
  change.addEventListener('click', () => goToKey(a.key));
  return el('li', { 'data-key': a.key }, `${a.said} `, el('span', { class: 'why', text: set ? `(${a.key})` : `(${a.key}, the default)` }), ' ', change);
}

/** Opens the form where key `dotted` is, and focuses its field (or its table). */
function goToKey(key) {
  const input = [...document.querySelectorAll('#form [data-kind]')].find((i) => dotted(JSON.parse(i.dataset.path)) === key);
  const target = input || document.querySelector(`#form details[data-key="${key}"] > summary`);
  if (!target) return;
  unfold(target);
  target.scrollIntoView({ block: 'center' });
  target.focus();
}

/** Marks the field the message names (`key 'a.b.c'`), with the message; clears every other mark. The mark is
 * for every reader: the field is `aria-invalid` and the message, by its id, the first thing it is described by,
 * so a screen reader says it on the field, not only once as it appears. */
function markErrors(message) {
  for (const box of document.querySelectorAll('.field.invalid')) {
    box.classList.remove('invalid');
    box.querySelector('.message')?.remove();
    const input = box.querySelector('[data-kind]');
    input.removeAttribute('aria-invalid');
    input.setAttribute('aria-describedby', helpId(input.id));
  }
  const key = message && (message.match(/key '([^']+)'/) || [])[1];
  if (!key) return;
  for (const input of document.querySelectorAll('#form [data-kind]')) {
    if (dotted(JSON.parse(input.dataset.path)) !== key) continue;
    const box = input.closest('.field');
    const id = input.id + '-message';
    box.classList.add('invalid');
    box.append(el('p', { class: 'message', id, role: 'alert', text: message }));
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', `${id} ${helpId(input.id)}`);
    unfold(box);
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
 * `show(id, job, text)` once done, `text` being the scenario it ran on. Returns its id, or null when refused
 * (the error is shown on the state line). */
async function track(url, parts, show) {
  const text = ed.text;
  const r = await fetch(url, { method: 'POST', headers: TOML, body: text });
  const body = await r.json();
  if (!r.ok) {
    $(parts.state).textContent = body.error;
    $(parts.state).dataset.state = 'refused';
    parts.done();
    return null;
  }
  ed.jobs.add(body.id);
  Object.assign($(parts.progress), { hidden: false, value: 0 });
  $(parts.cancel).hidden = false;
  $(parts.cancel).onclick = () => fetch('/api/run/' + body.id, { method: 'DELETE' });
  poll(body.id, parts, (id, job) => show(id, job, text));
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

function showRun(id, job, text) {
  const fmt = (x) => (x == null ? '–' : Number(x).toFixed(4));
  const table = el('table', { class: 'results' },
    el('thead', {}, el('tr', {}, ...['metric', 'estimate', '95% interval', 'exact'].map((h) => el('th', { scope: 'col', text: h })))));
  const body = el('tbody');
  for (const m of job.result.metrics) {
    body.append(el('tr', { 'data-metric': m.metric }, el('td', { text: m.metric }), el('td', { text: fmt(m.estimate) }),
      el('td', { text: m.ci_low == null ? '–' : `${fmt(m.ci_low)}–${fmt(m.ci_high)}` }),
      el('td', { text: m.exact == null ? '–' : `${fmt(m.exact)} (${m.exact_fraction})` })));
  }
  table.append(body);
  const links = el('p', { class: 'row' });
  for (const f of ['summary.parquet', 'report.html'].filter((f) => job.files.includes(f))) {
    links.append(el('a', { href: `/api/run/${id}/files/${f}`, download: f, text: f }));
  }
  $('run-result').replaceChildren(table, links);
  current('run', text);
}

// ---- Share, Download and Save ----

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
  const hash = new URLSearchParams({ s: await deflate(ed.text), seed: $('seed').value });
  history.replaceState(null, '', '/edit#' + hash);
  $('share-box').hidden = false;
  const url = $('share-url');
  url.value = location.href;
  url.focus();
  url.select();
  try { await navigator.clipboard.writeText(location.href); $('status').textContent = 'link copied'; } catch { $('status').textContent = 'copy the link above'; }
}

/** The file name the scenario saves and downloads as: the one it was opened from, else its run name. */
function fileName() {
  const run = (ed.model.run && ed.model.run.name) || 'my-scenario';
  return ed.path ? ed.path.split('/').pop() : run.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-|-$/g, '') + '.toml';
}

function download() {
  const link = el('a', { href: URL.createObjectURL(new Blob([ed.text], { type: 'application/toml' })), download: fileName() });
  document.body.append(link);
  link.click();
  link.remove();
  $('status').textContent = `downloaded ${fileName()}`;
}

/** Saves into the configs folder under the path typed; a file that exists is replaced only once asked. */
async function save(event, overwrite = false) {
  event?.preventDefault();
  const path = $('save-path').value.trim();
  if (!path) { $('status').textContent = `give a path to save to, such as ${ed.table.replace(/_/g, '-')}/my-scenario.toml`; return; }
  const url = `/api/scenarios/${path.split('/').map(encodeURIComponent).join('/')}${overwrite ? '?overwrite=1' : ''}`;
  const text = ed.text;
  const r = await fetch(url, { method: 'PUT', headers: TOML, body: text });
  $('save-over').hidden = r.status !== 409;
  if (r.status === 409) {
    $('status').textContent = `${path} exists: Replace it, or save under another name.`;
    $('save-over').focus();
    return;
  }
  if (r.ok) {
    ed.path = path;
    ed.saved = text;
    history.replaceState(null, '', '/edit?path=' + encodeURIComponent(path));
  }
  $('status').textContent = r.ok ? `saved as ${path}` : (await r.json()).error;
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
  // The name is the file's path in the configs folder: a file it names (a map beside it) is read from there.
  if (ed.path) ed.name = ed.path;
  const r = await fetch(source);
  if (!r.ok) throw new Error((await r.json()).error);
  const text = await r.text();
  if (ed.path) ed.saved = text;
  return text;
}

async function start() {
  const text = await load();
  ed.text = text;
  $('toml').value = text;
  const parsed = await parse(text);
  if (parsed.error) throw new Error(parsed.error);
  ed.model = parsed.model;
  const sets = (await (await fetch('/api/rule-sets')).json()).rule_sets.map((s) => s.table);
  ed.table = Object.keys(ed.model).find((k) => sets.includes(k));
  if (!ed.table) throw new Error(`no rule-set table in this config; allowed: ${sets.join(', ')}`);
  ed.schema = await (await fetch('/api/schema/' + ed.table)).json();
  $('title').textContent = `${ed.path || ed.model.run?.name || 'New scenario'} (${ed.table})`;
  document.title = `${$('title').textContent} · intercept-sim workbench`;
  $('save-path').value = ed.path || `${ed.table.replace(/_/g, '-')}/${fileName()}`;
  if (ed.model.run?.seed !== undefined && !location.hash) $('seed').value = ed.model.run.seed;
  buildForm();
  refresh();
}

/** Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) undo and redo the scenario's changes, except in the TOML text,
 * which keeps its own undo while it is typed in. */
function shortcuts(event) {
  if (!(event.ctrlKey || event.metaKey) || event.target === $('toml')) return;
  const key = event.key.toLowerCase();
  if (key === 'z' || key === 'y') {
    event.preventDefault();
    undo(key === 'z' && !event.shiftKey);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  $('toml').addEventListener('input', textTyped);
  $('run-form').addEventListener('submit', startRun);
  $('undo').addEventListener('click', () => undo(true));
  $('redo').addEventListener('click', () => undo(false));
  document.addEventListener('keydown', shortcuts);
  $('share').addEventListener('click', share);
  $('download').addEventListener('click', download);
  $('save-form').addEventListener('submit', save);
  $('save-over').addEventListener('click', () => save(null, true));
  wireWhatIf();
  // A page closed cancels its jobs: a DELETE that outlives the page (keepalive), not a beacon, whose
  // plain POST the server refuses.
  window.addEventListener('pagehide', () => { for (const id of ed.jobs) fetch(`/api/run/${id}`, { method: 'DELETE', keepalive: true }); });
  start().catch((e) => showAnswer('failed', e.message));
});
