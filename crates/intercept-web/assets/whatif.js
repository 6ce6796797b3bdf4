// What-if in one click, on the scenario editor: beside every number of the form, "sweep" opens a panel with
// the values around the current one (from /api/sweep/values, editable) and runs POST /api/sweep as a job
// (progress, cancel), then draws the headline metric across the values (estimate, 95% interval, exact value
// where the sweep document gives one, the current value marked) as an inline SVG chart and a table;
// "tornado" adds the key to a list that POST /api/sensitivity moves one step each way, drawn as ranked bars
// with their intervals. Uses dom.js ($, el) and the editor's helpers (editor.js: ed, dotted, track).
'use strict';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

/** The number input with its "sweep" and "tornado" buttons. */
function whatIfButtons(path, input) {
  const sweep = el('button', { type: 'button', class: 'whatif', 'data-whatif': 'sweep', title: 'sweep this value', text: 'sweep' });
  const tornado = el('button', { type: 'button', class: 'whatif', 'data-whatif': 'tornado', title: 'add to the tornado', text: 'tornado' });
  sweep.addEventListener('click', () => openSweep(dotted(path)));
  tornado.addEventListener('click', () => addToTornado(dotted(path)));
  return el('div', { class: 'with-whatif' }, input, sweep, tornado);
}

// ---- sweep ----

const sweepParts = { progress: 'sweep-progress', state: 'sweep-state', cancel: 'sweep-cancel', result: 'sweep-table',
  done: () => { ed.sweepJob = null; } };

async function openSweep(key) {
  const panel = $('sweep-panel');
  panel.hidden = false;
  $('sweep-key').textContent = key;
  $('sweep-chart').replaceChildren();
  $('sweep-table').replaceChildren();
  const r = await fetch(`/api/sweep/values?key=${encodeURIComponent(key)}&name=${encodeURIComponent(ed.name)}`,
    { method: 'POST', headers: TOML, body: $('toml').value });
  const body = await r.json();
  if (!r.ok) {
    $('sweep-state').textContent = body.error;
    return;
  }
  ed.sweep = { key: body.key, current: body.values[0] };
  $('sweep-key').textContent = body.key;
  $('sweep-values').value = body.values.join(', ');
  $('sweep-state').textContent = `the current value is ${body.values[0]}; edit the values, then run`;
  $('sweep-state').dataset.state = 'ready';
  panel.scrollIntoView({ block: 'nearest' });
}

async function startSweep(event) {
  event.preventDefault();
  if (ed.sweepJob || !ed.sweep) return;
  const values = $('sweep-values').value.split(',').map((v) => v.trim()).filter(Boolean).join(',');
  const q = new URLSearchParams({ key: ed.sweep.key, values, trials: $('sweep-trials').value, seed: $('seed').value, name: ed.name });
  $('sweep-chart').replaceChildren();
  ed.sweepJob = await track('/api/sweep?' + q, sweepParts, showSweep);
}

/** The headline metric of every point, sorted by the swept value, the current value marked. */
function sweepRows(doc) {
  const current = Number(ed.sweep.current);
  return doc.points.map((p, i) => {
    const value = Object.values(p.settings)[0];
    return { value, x: Number(value), m: p.metrics[0], base: Number(value) === current, first: i === doc.base_point };
  }).filter((r) => r.m).sort((a, b) => a.x - b.x);
}

function showSweep(id, job) {
  const rows = sweepRows(job.result);
  if (!rows.length) return;
  $('sweep-chart').replaceChildren(sweepChart(rows));
  $('sweep-table').replaceChildren(sweepTable(rows, job.result));
}

const fmt = (x) => (x == null ? '–' : Number(x).toFixed(4));

function sweepTable(rows, doc) {
  const key = doc.axes[0].key.split('.').pop();
  const head = [key, rows[0].m.metric, '95% interval', 'exact', 'vs first value'];
  const table = el('table', { class: 'results', id: 'sweep-results' },
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))));
  const body = el('tbody');
  for (const r of rows) {
    const d = r.m.difference == null ? '(first)' : `${r.m.difference >= 0 ? '+' : ''}${fmt(r.m.difference)} [${fmt(r.m.difference_low)}, ${fmt(r.m.difference_high)}]`;
    body.append(el('tr', { class: r.base ? 'base' : null, 'data-value': String(r.value), 'data-estimate': r.m.estimate, 'data-exact': r.m.exact ?? '' },
      el('td', { text: r.base ? `${r.value} (current)` : String(r.value) }), el('td', { text: fmt(r.m.estimate) }),
      el('td', { text: `${fmt(r.m.ci_low)}–${fmt(r.m.ci_high)}` }),
      el('td', { text: r.m.exact == null ? '–' : fmt(r.m.exact), title: r.m.exact_fraction }), el('td', { text: d })));
  }
  table.append(body);
  return table;
}

/** Estimates with their intervals (bars), exact values (rings) and the current value (orange), across values. */
function sweepChart(rows) {
  const [w, h, l, r, t, b] = [360, 200, 46, 12, 22, 30];
  const ys = rows.flatMap((p) => [p.m.ci_low, p.m.ci_high, p.m.exact]).filter((y) => y != null);
  let [lo, hi] = [Math.min(...ys), Math.max(...ys)];
  const pad = (hi - lo) * 0.1 || 0.01;
  [lo, hi] = [lo - pad, hi + pad];
  const [x0, x1] = [rows[0].x, rows[rows.length - 1].x];
  const X = (x) => (x1 === x0 ? (l + w - r) / 2 : l + ((x - x0) / (x1 - x0)) * (w - l - r));
  const Y = (y) => t + ((hi - y) / (hi - lo)) * (h - t - b);
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': `${rows[0].m.metric} across values`, id: 'sweep-svg' });
  chart.append(svg('text', { x: l, y: 13 }, `${rows[0].m.metric}: estimate, 95% interval, exact (ring)`));
  chart.append(svg('line', { class: 'axis', x1: l, y1: h - b, x2: w - r, y2: h - b }), svg('line', { class: 'axis', x1: l, y1: t, x2: l, y2: h - b }));
  for (const y of [lo + pad, (lo + hi) / 2, hi - pad]) {
    chart.append(svg('text', { x: l - 4, y: Y(y) + 4, 'text-anchor': 'end' }, y.toFixed(3)));
  }
  chart.append(svg('polyline', { points: rows.map((p) => `${X(p.x)},${Y(p.m.estimate)}`).join(' '), fill: 'none', class: 'ci', 'stroke-opacity': 0.4 }));
  for (const p of rows) {
    const g = svg('g', { 'data-value': String(p.value), class: p.base ? 'point base-point' : 'point' });
    g.append(svg('line', { class: 'ci', x1: X(p.x), x2: X(p.x), y1: Y(p.m.ci_low), y2: Y(p.m.ci_high) }));
    if (p.m.exact != null) g.append(svg('circle', { class: 'exact', cx: X(p.x), cy: Y(p.m.exact), r: 5 }));
    g.append(svg('circle', { class: p.base ? 'base' : 'est', cx: X(p.x), cy: Y(p.m.estimate), r: 3 }));
    g.append(svg('text', { x: X(p.x), y: h - b + 14, 'text-anchor': 'middle' }, p.base ? `${p.value}*` : String(p.value)));
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
  $('tornado-panel').scrollIntoView({ block: 'nearest' });
}

function showTornadoKeys() {
  const chips = ed.tornado.map((key) => {
    const remove = el('button', { type: 'button', title: `remove ${key}`, text: '×' });
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

function showTornado(id, job) {
  const m = job.result.metrics[0];
  const parts = [tornadoChart(m)];
  if (m.unchanged.length) parts.push(el('p', { class: 'help', text: `no change: ${m.unchanged.map((u) => u.key || u).join(', ')}` }));
  $('tornado-chart').replaceChildren(...parts);
}

/** One row per key, largest change first: the step down (blue) and up (orange) as bars from the base value,
 * each with its 95% interval. */
function tornadoChart(m) {
  const rows = m.ranked;
  const [w, l, r, rowH, top] = [360, 8, 8, 40, 34];
  const h = top + rows.length * rowH + 8;
  const ends = rows.flatMap((k) => [k.down, k.up]).filter(Boolean).flatMap((s) => [s.change_low, s.change_high, s.change]);
  const most = Math.max(1e-9, ...ends.map(Math.abs));
  const mid = (l + w - r) / 2;
  const X = (d) => mid + (d / most) * ((w - l - r) / 2);
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': `change in ${m.metric}`, id: 'tornado-svg' });
  chart.append(svg('text', { x: l, y: 13 }, `${m.metric}: base ${Number(m.base).toFixed(4)}${m.exact ? ' (exact)' : ''}`));
  chart.append(svg('text', { x: l, y: 27 }, `change one step down / up; ±${most.toFixed(4)} at the edges`));
  chart.append(svg('line', { class: 'axis', x1: mid, x2: mid, y1: top - 4, y2: h - 4 }));
  rows.forEach((k, i) => {
    const y = top + i * rowH;
    const g = svg('g', { class: 'bar', 'data-key': k.key, 'data-rank': i, 'data-size': Math.max(...[k.down, k.up].filter(Boolean).map((s) => Math.abs(s.change))) });
    g.append(svg('text', { x: l, y: y + 11 }, `${k.key} = ${k.value}`));
    for (const [side, s] of [['down', k.down], ['up', k.up]]) {
      if (!s) continue;
      const [a, bEnd] = [X(0), X(s.change)];
      const by = y + (side === 'down' ? 15 : 26);
      g.append(svg('rect', { class: side, x: Math.min(a, bEnd), y: by, width: Math.max(1, Math.abs(bEnd - a)), height: 9 }));
      g.append(svg('line', { class: 'ci', x1: X(s.change_low), x2: X(s.change_high), y1: by + 4.5, y2: by + 4.5 }));
      // The step's label sits on the other side of the middle line from its bar.
      const right = s.change >= 0;
      g.append(svg('text', { x: right ? mid - 4 : mid + 4, y: by + 8, 'text-anchor': right ? 'end' : 'start' }, `${side} ${s.stepped}: ${right ? '+' : ''}${s.change.toFixed(4)}`));
    }
    chart.append(g);
  });
  return chart;
}
