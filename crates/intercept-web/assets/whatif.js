// What-if in one click, on the scenario editor. Beside every number of the form, "sweep" opens the sweep panel
// and at once solves the headline metric exactly at the values around the current one (POST /api/sweep/exact):
// a chart and a table, values in ascending order, each with its exact value and its exact difference from the
// current value. A value whose tree is too large to solve is said so; "Run Monte Carlo sweep" samples every
// value as a job (POST /api/sweep, the current value as its base point), and its estimates and intervals join
// the chart and table, with the `intercept-sim sweep` command that gives the same estimates under them. "tornado" adds the key to a list that POST /api/sensitivity moves one step each way,
// drawn as ranked bars with their intervals. Each result remembers the scenario text it was computed for and
// is greyed once the text changes (editor.js: current, markStale). Uses dom.js and editor.js (ed, dotted,
// track, current).
'use strict';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

/** The number input with its "sweep" and "tornado" buttons, each named for its key. */
function whatIfButtons(path, input) {
  const sweep = el('button', { type: 'button', class: 'whatif', 'data-whatif': 'sweep', text: 'sweep' });
  const tornado = el('button', { type: 'button', class: 'whatif', 'data-whatif': 'tornado', text: 'tornado' });
  for (const b of [sweep, tornado]) {
    b.dataset.path = JSON.stringify(path);
    labelWhatIf(b);
  }
  sweep.addEventListener('click', () => openSweep(dotted(path)));
  tornado.addEventListener('click', () => addToTornado(dotted(path)));
  return el('div', { class: 'with-whatif' }, input, sweep, tornado);
}

/** A what-if button's name: what it does to which key (the key named as the command line names it). */
function labelWhatIf(button) {
  const key = dotted(JSON.parse(button.dataset.path));
  const label = button.dataset.whatif === 'sweep' ? `sweep ${key}` : `add ${key} to the tornado`;
  button.setAttribute('aria-label', label);
  button.title = label;
}

const fmt = (x) => (x == null ? '–' : Number(x).toFixed(4));
const percent = (x) => (x == null ? '–' : (100 * x).toFixed(2) + '%');
const signed = (x, f = fmt) => (x == null ? '–' : (x > 0 ? '+' : x < 0 ? '−' : '±') + f(Math.abs(x)));

// ---- sweep ----

const sweepParts = { progress: 'sweep-progress', state: 'sweep-state', cancel: 'sweep-cancel', result: 'sweep-table',
  done: () => { ed.sweepJob = null; } };

/** Opens the panel on `key` (focus moves to it) and solves the values around its current one exactly. */
async function openSweep(key) {
  $('sweep-panel').hidden = false;
  $('sweep-key').textContent = key;
  $('sweep-chart').replaceChildren();
  $('sweep-table').replaceChildren();
  showCommand(null);
  $('sweep-heading').focus();
  $('sweep-heading').scrollIntoView({ block: 'start' });
  const r = await fetch(`/api/sweep/values?key=${encodeURIComponent(key)}&name=${encodeURIComponent(ed.name)}`,
    { method: 'POST', headers: TOML, body: ed.text });
  const body = await r.json();
  if (!r.ok) {
    $('sweep-state').textContent = body.error;
    $('sweep-state').dataset.state = 'refused';
    return;
  }
  ed.sweep = { key: body.key, current: body.values[0], exact: null, mc: null };
  $('sweep-key').textContent = body.key;
  $('sweep-values').value = ascending(body.values).join(', ');
  await solveSweep();
}

/** Values as numbers would sort them. */
function ascending(values) {
  return [...values].sort((a, b) => (isNaN(a) || isNaN(b) ? String(a).localeCompare(b) : Number(a) - Number(b)));
}

function typedValues() {
  return $('sweep-values').value.split(',').map((v) => v.trim()).filter(Boolean);
}

/** The typed values solved exactly (the current value always among them), shown as they come. */
async function solveSweep(event) {
  event?.preventDefault();
  if (!ed.sweep) return;
  const text = ed.text;
  const q = new URLSearchParams({ key: ed.sweep.key, values: typedValues().join(','), name: ed.name });
  $('sweep-state').textContent = 'solving exactly…';
  $('sweep-state').dataset.state = 'solving';
  const r = await fetch('/api/sweep/exact?' + q, { method: 'POST', headers: TOML, body: text });
  const doc = await r.json();
  if (!r.ok) {
    $('sweep-state').textContent = doc.error;
    $('sweep-state').dataset.state = 'refused';
    return;
  }
  ed.sweep.exact = doc;
  ed.sweep.mc = null;
  showCommand(null);
  $('sweep-values').value = doc.points.map((p) => p.value).join(', ');
  const solved = doc.points.filter((p) => p.state === 'solved').length;
  $('sweep-state').textContent = doc.too_large
    ? `solved exactly at ${solved} values; ${doc.too_large} too large to solve exactly: run the Monte Carlo sweep for them`
    : `solved exactly at every value (${solved}); no sampling needed`;
  $('sweep-state').dataset.state = 'exact';
  showSweep(text);
}

/** The typed values sampled as a job, the current value first: it is the base point the job's paired
 * differences are measured from. */
async function startSweep(event) {
  event.preventDefault();
  if (ed.sweepJob || !ed.sweep) return;
  const values = [ed.sweep.current].concat(typedValues().filter((v) => Number(v) !== Number(ed.sweep.current) && v !== ed.sweep.current));
  const q = new URLSearchParams({ key: ed.sweep.key, values: values.join(','), trials: $('sweep-trials').value, seed: $('seed').value, name: ed.name });
  ed.sweepJob = await track('/api/sweep?' + q, sweepParts, (id, job, text) => {
    ed.sweep.mc = job.result;
    showSweep(text);
    showCommand(job.result, text);
  });
}

/** A word of a shell command: as it is when plain, else in single quotes. */
function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** The command line that gives the Monte Carlo sweep `doc`'s numbers, run on `text`: the values in the order
 * the sweep sampled them (the current value first: the base every difference is paired with), its trials and
 * seed, and the file in the configs folder, which holds that text once `saved` (else where Save puts it). */
function sweepCommand(doc, text) {
  const saved = Boolean(ed.path) && ed.saved === text;
  const path = saved ? ed.path : $('save-path').value.trim() || fileName();
  const file = `${document.body.dataset.configs.replace(/\/+$/, '')}/${path}`;
  const sets = doc.axes.flatMap((a) => ['--set', shellWord(`${a.key}=${a.values.join(',')}`)]);
  const words = ['intercept-sim', 'sweep', shellWord(file), ...sets, '--trials', doc.trials, '--seed', doc.seed];
  return { words: words.map(String), saved, path };
}

/** Under the sweep's results, the command that reproduces its estimates (none before a Monte Carlo sweep). */
function showCommand(doc, text) {
  const p = $('sweep-command');
  p.hidden = !doc;
  if (!doc) return p.replaceChildren();
  const { words, saved, path } = sweepCommand(doc, text);
  // Each word its own box, so that a line breaks between words (never after the hyphen of --trials).
  const command = el('code', {}, ...words.flatMap((w, i) => (i ? [' ', el('span', { text: w })] : [el('span', { text: w })])));
  const where = document.body.dataset.configs.startsWith('/') ? '' : ', run from the folder the workbench was started in';
  const first = saved ? '' : ` once the scenario is saved as ${path} (this sweep ran on the editor's text, which no file holds yet)`;
  p.replaceChildren('The command line gives these estimates', first, where, ': ', command,
    ' (it samples the current value first, as here: the base every difference is paired with).');
}

/** One row per value, ascending: its exact value and difference, and its estimate where sampled. */
function sweepRows() {
  const s = ed.sweep;
  const rows = new Map();
  for (const p of s.exact ? s.exact.points : []) rows.set(String(p.value), { value: String(p.value), exact: p });
  for (const p of s.mc ? s.mc.points : []) {
    const value = String(Object.values(p.settings)[0]);
    const known = [...rows.keys()].find((k) => Number(k) === Number(value)) ?? value;
    rows.set(known, { ...(rows.get(known) || { value }), mc: p.metrics[0] });
  }
  const current = (v) => v === String(s.current) || Number(v) === Number(s.current);
  return ascending([...rows.keys()]).map((k) => ({ ...rows.get(k), x: Number(k), current: current(k) }));
}

function showSweep(text) {
  const rows = sweepRows();
  const metric = ed.sweep.exact?.metric || ed.sweep.mc?.points[0]?.metrics[0]?.metric || 'metric';
  $('sweep-chart').replaceChildren(sweepChart(rows, metric));
  $('sweep-table').replaceChildren(sweepTable(rows, metric));
  current('sweep', text);
}

function sweepTable(rows, metric) {
  const key = ed.sweep.key.split('.').pop();
  const sampled = rows.some((r) => r.mc);
  const head = [key, `${metric} (exact)`, 'fraction', 'vs current value'].concat(sampled ? ['estimate', '95% interval', 'vs current (paired)'] : []);
  const table = el('table', { class: 'results', id: 'sweep-results' },
    el('caption', { text: `${metric} as ${ed.sweep.key} changes; the current value is ${ed.sweep.current}` }),
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col', text: h })))));
  const body = el('tbody');
  for (const r of rows) {
    const p = r.exact || {};
    const exactCells = p.state === 'solved'
      ? [el('td', { text: percent(p.exact) }), el('td', { text: p.exact_fraction }),
        el('td', { text: r.current ? '(current)' : `${signed(p.difference, percent)} (${p.difference_fraction})` })]
      : [el('td', { colspan: 3, class: 'note', text: p.state ? `${p.state.replace('_', ' ')}: ${p.reason}` : 'not solved' })];
    const m = r.mc;
    const mcCells = !sampled ? [] : m
      ? [el('td', { text: fmt(m.estimate) }), el('td', { text: `${fmt(m.ci_low)}–${fmt(m.ci_high)}` }),
        el('td', { text: m.difference == null ? '(base)' : `${signed(m.difference)} [${fmt(m.difference_low)}, ${fmt(m.difference_high)}]` })]
      : [el('td', { colspan: 3, text: '–' })];
    const th = el('th', { scope: 'row', text: r.current ? `${r.value} (current)` : r.value });
    body.append(el('tr', { class: r.current ? 'base' : null, 'data-value': r.value, 'data-exact': p.exact ?? '',
      'data-estimate': m ? m.estimate : '' }, th, ...exactCells, ...mcCells));
  }
  table.append(body);
  return table;
}

/** Width for a chart drawn in `holder`: its own width, so that its text is drawn at the size it is read. */
function chartWidth(holder) {
  return Math.max(260, Math.min(640, holder.clientWidth || 360));
}

/** Exact values (line and dots), estimates with their intervals (bars), the current value (orange). */
function sweepChart(rows, metric) {
  const w = chartWidth($('sweep-chart'));
  const [h, l, r, t, b] = [236, 52, 14, 42, 34];
  const ys = rows.flatMap((p) => [p.exact?.exact, p.mc?.ci_low, p.mc?.ci_high]).filter((y) => y != null);
  const plotted = rows.filter((p) => p.exact?.state === 'solved' || p.mc);
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'img', id: 'sweep-svg',
    'aria-label': `${metric} across ${ed.sweep.key}: ${plotted.map((p) => `${p.value}: ${p.exact?.state === 'solved' ? percent(p.exact.exact) : fmt(p.mc?.estimate)}`).join(', ')}` });
  if (!ys.length) return chart;
  let [lo, hi] = [Math.min(...ys), Math.max(...ys)];
  const pad = (hi - lo) * 0.1 || 0.01;
  [lo, hi] = [lo - pad, hi + pad];
  const [x0, x1] = [plotted[0].x, plotted[plotted.length - 1].x];
  const X = (x) => (x1 === x0 || isNaN(x) ? (l + w - r) / 2 : l + ((x - x0) / (x1 - x0)) * (w - l - r));
  const Y = (y) => t + ((hi - y) / (hi - lo)) * (h - t - b);
  chart.append(svg('text', { x: 4, y: 14 }, metric));
  chart.append(svg('text', { x: 4, y: 30 }, `line: exact${rows.some((p) => p.mc) ? ' · bars: estimate, 95% interval' : ''}`));
  chart.append(svg('line', { class: 'axis', x1: l, y1: h - b, x2: w - r, y2: h - b }), svg('line', { class: 'axis', x1: l, y1: t, x2: l, y2: h - b }));
  for (const y of [lo + pad, (lo + hi) / 2, hi - pad]) chart.append(svg('text', { x: l - 4, y: Y(y) + 4, 'text-anchor': 'end' }, percent(y)));
  const exact = plotted.filter((p) => p.exact?.state === 'solved');
  if (exact.length > 1) chart.append(svg('polyline', { class: 'exact-line', fill: 'none', points: exact.map((p) => `${X(p.x)},${Y(p.exact.exact)}`).join(' ') }));
  for (const p of plotted) {
    const g = svg('g', { 'data-value': p.value, class: p.current ? 'point base-point' : 'point' });
    if (p.mc) g.append(svg('line', { class: 'ci', x1: X(p.x) + 4, x2: X(p.x) + 4, y1: Y(p.mc.ci_low), y2: Y(p.mc.ci_high) }));
    if (p.exact?.state === 'solved') g.append(svg('circle', { class: p.current ? 'base' : 'exact-dot', cx: X(p.x), cy: Y(p.exact.exact), r: 4 }));
    else if (p.mc) g.append(svg('circle', { class: p.current ? 'base' : 'est', cx: X(p.x) + 4, cy: Y(p.mc.estimate), r: 3 }));
    g.append(svg('text', { x: X(p.x), y: h - b + 16, 'text-anchor': 'middle' }, p.current ? `${p.value}*` : p.value));
    chart.append(g);
  }
  chart.append(svg('text', { x: w - r, y: h - 3, 'text-anchor': 'end' }, '* the current value'));
  return chart;
}

// ---- tornado ----

const tornadoParts = { progress: 'tornado-progress', state: 'tornado-state', cancel: 'tornado-cancel', result: 'tornado-chart',
  done: () => { ed.tornadoJob = null; } };

function addToTornado(key) {
  if (!ed.tornado.includes(key)) ed.tornado.push(key);
  showTornadoKeys();
  $('tornado-heading').focus();
  $('tornado-panel').scrollIntoView({ block: 'nearest' });
  $('status').textContent = `${key} is in the tornado (${ed.tornado.length} ${ed.tornado.length === 1 ? 'key' : 'keys'})`;
}

function showTornadoKeys() {
  const chips = ed.tornado.map((key) => {
    const remove = el('button', { type: 'button', 'aria-label': `remove ${key} from the tornado`, title: `remove ${key}`, text: '×' });
    remove.addEventListener('click', () => { ed.tornado = ed.tornado.filter((k) => k !== key); showTornadoKeys(); });
    return el('span', { class: 'chip', 'data-key': key }, key, remove);
  });
  $('tornado-keys').replaceChildren(...(chips.length ? chips : ['none yet']));
  $('tornado-run').disabled = chips.length === 0;
}

async function startTornado(event) {
  event.preventDefault();
  if (ed.tornadoJob || !ed.tornado.length) return;
  const q = new URLSearchParams({ only: ed.tornado.join(','), trials: $('tornado-trials').value, seed: $('seed').value, name: ed.name });
  ed.tornadoJob = await track('/api/sensitivity?' + q, tornadoParts, showTornado);
}

function showTornado(id, job, text) {
  const m = job.result.metrics[0];
  const parts = [tornadoChart(m)];
  if (m.unchanged.length) parts.push(el('p', { class: 'help', text: `no change: ${m.unchanged.map((u) => u.key || u).join(', ')}` }));
  $('tornado-chart').replaceChildren(...parts);
  current('tornado', text);
}

/** One row per key, largest change first: the step down (blue) and up (orange) as bars from the base value,
 * each with its 95% interval. */
function tornadoChart(m) {
  const rows = m.ranked;
  const w = chartWidth($('tornado-chart'));
  const [l, r, rowH, top] = [8, 8, 44, 38];
  const h = top + rows.length * rowH + 8;
  const ends = rows.flatMap((k) => [k.down, k.up]).filter(Boolean).flatMap((s) => [s.change_low, s.change_high, s.change]);
  const most = Math.max(1e-9, ...ends.map(Math.abs));
  const mid = (l + w - r) / 2;
  const X = (d) => mid + (d / most) * ((w - l - r) / 2);
  const said = rows.map((k) => `${k.key}: ${[k.down, k.up].filter(Boolean).map((s) => `${s.stepped} ${signed(s.change)}`).join(', ')}`);
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'img', id: 'tornado-svg', 'aria-label': `change in ${m.metric}: ${said.join('; ')}` });
  chart.append(svg('text', { x: l, y: 15 }, `${m.metric}: base ${Number(m.base).toFixed(4)}${m.exact ? ' (exact)' : ''}`));
  chart.append(svg('text', { x: l, y: 30 }, `change one step down / up; ±${most.toFixed(4)} at the edges`));
  chart.append(svg('line', { class: 'axis', x1: mid, x2: mid, y1: top - 4, y2: h - 4 }));
  rows.forEach((k, i) => {
    const y = top + i * rowH;
    const g = svg('g', { class: 'bar', 'data-key': k.key, 'data-rank': i, 'data-size': Math.max(...[k.down, k.up].filter(Boolean).map((s) => Math.abs(s.change))) });
    g.append(svg('text', { x: l, y: y + 12 }, `${k.key} = ${k.value}`));
    for (const [side, s] of [['down', k.down], ['up', k.up]]) {
      if (!s) continue;
      const [a, bEnd] = [X(0), X(s.change)];
      const by = y + (side === 'down' ? 17 : 29);
      g.append(svg('rect', { class: side, x: Math.min(a, bEnd), y: by, width: Math.max(1, Math.abs(bEnd - a)), height: 10 }));
      g.append(svg('line', { class: 'ci', x1: X(s.change_low), x2: X(s.change_high), y1: by + 5, y2: by + 5 }));
      // The step's label sits on the other side of the middle line from its bar.
      const right = s.change >= 0;
      g.append(svg('text', { x: right ? mid - 4 : mid + 4, y: by + 9, 'text-anchor': right ? 'end' : 'start' }, `${side} ${s.stepped}: ${signed(s.change)}`));
    }
    chart.append(g);
  });
  return chart;
}

function wireWhatIf() {
  $('sweep-form').addEventListener('submit', solveSweep);
  $('sweep-mc-form').addEventListener('submit', startSweep);
  $('tornado-form').addEventListener('submit', startTornado);
}
