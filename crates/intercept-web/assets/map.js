// The map on the scenario editor, for a scenario on a hex map. After each change the text goes to POST
// /api/where (the command line's `where --json`, with the map drawn and each option's settings): the map
// shows every hex of the route coloured by its exact value, the best ringed and the best line's paths drawn,
// and says where to act in one sentence. A hex of the route is a button (click, Enter or Space), as is each
// row's "intercept here" in the table under the map: it puts that option and the best line below it into the
// text as one undoable edit, so the answer the page then solves is the value the table gives that hex.
//
// The map belongs to the text it was drawn for, as every result does (editor.js: current, markStale); a
// request is aborted when another is made, and a reply for a text no longer on the page is dropped.
// Uses dom.js and editor.js (ed, post, current, patch, queue, reread).
'use strict';

ed.where = { controller: null };

/** Asks where to act on `text`, and shows the map and the answer when they come. */
async function askWhere(text) {
  ed.where.controller?.abort();
  const controller = (ed.where.controller = new AbortController());
  $('where-state').textContent = $('map-section').hidden ? '' : 'Solving every hex of the route…';
  try {
    const r = await post('/api/where', text, controller.signal);
    if (text !== ed.text) return;
    showWhere(r, text);
  } catch (e) {
    if (e.name !== 'AbortError') $('where-state').textContent = `No answer: ${e.message}`;
  }
}

function showWhere(r, text) {
  if (!r.ok) {
    // The map shown stays, greyed as an earlier version's, under the reason there is no new one.
    $('where-state').textContent = r.body.error;
    return;
  }
  const doc = r.body;
  $('map-section').hidden = doc.map === null;
  if (doc.map === null) return;
  $('map').innerHTML = doc.map; // the server's own SVG
  $('where-state').textContent = doc.refused ? `No choice to answer here: ${doc.refused}` : '';
  const where = doc.where;
  $('where-answer').textContent = where ? where.answer : '';
  $('where-table').replaceChildren();
  if (where) {
    const byOption = new Map(where.options.map((o) => [o.option, o]));
    for (const choice of doc.choices) makeHexButton(choice, byOption.get(choice.option), where.metric);
    $('where-table').append(whereTable(where, doc.choices));
  }
  current('map', text);
}

/** The hex of `choice` on the map, made a button that takes it. */
function makeHexButton(choice, option, metric) {
  const hex = $('map').querySelector(`polygon[data-hex="${CSS.escape(choice.option)}"]`);
  if (!hex) return;
  const said = option && option.value != null ? `: ${metric} ${(100 * option.value).toFixed(1)}%` : '';
  hex.setAttribute('class', 'option');
  hex.setAttribute('tabindex', '0');
  hex.setAttribute('role', 'button');
  hex.setAttribute('aria-label', `intercept at ${choice.option}${said}`);
  hex.addEventListener('click', () => take(choice));
  hex.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    take(choice);
  });
}

/** Every option ranked, its exact value and the line below it, each with a button that takes it. */
function whereTable(where, choices) {
  const byOption = new Map(choices.map((c) => [c.option, c]));
  const written = new Set(where.options.filter((o) => o.written).map((o) => o.option));
  const head = el('thead', {}, el('tr', {}, ...['rank', 'hex', where.metric, 'fraction', 'then', 'choose'].map((h) => el('th', { scope: 'col', text: h }))));
  const body = el('tbody');
  const ranked = where.options.filter((o) => o.rank != null).sort((a, b) => a.rank - b.rank);
  for (const o of ranked) {
    const choice = byOption.get(o.option);
    const button = el('button', { type: 'button', class: 'whatif', text: 'intercept here', 'aria-label': `intercept here at ${o.option}` });
    button.addEventListener('click', () => choice && take(choice));
    const then = o.then.map((t) => `${t.act} at ${t.choice}`).join('; ');
    body.append(el('tr', { 'data-option': o.option, 'data-exact': o.value, class: written.has(o.option) ? 'base' : null },
      el('td', { text: String(o.rank) }), el('td', { text: written.has(o.option) ? `${o.option} (your hex)` : o.option }),
      el('td', { text: o.value.toFixed(6) }), el('td', { text: o.value_fraction }), el('td', { class: 'note', text: then }),
      el('td', {}, button)));
  }
  return el('table', { class: 'results' }, head, body);
}

/** The model path a dotted key names: a list item by its `name`, else by its index. */
function pathOf(key) {
  const path = [];
  let v = ed.model;
  for (const part of key.split('.')) {
    if (Array.isArray(v)) {
      const named = v.findIndex((item) => item && item.name === part);
      const i = named >= 0 ? named : Number(part);
      if (!Number.isInteger(i) || i < 0 || i >= v.length) return null;
      path.push(i);
      v = v[i];
    } else {
      path.push(part);
      v = v == null ? undefined : v[part];
    }
  }
  return path;
}

/** Puts `choice`'s settings into the text, as one undo step, and refills the form. */
function take(choice) {
  const paths = choice.settings.map((s) => [pathOf(s.key), s]);
  const missing = paths.find(([p]) => p === null);
  if (missing) {
    $('status').textContent = `${missing[1].key} is not in this scenario any more: edit the TOML instead.`;
    return;
  }
  const edit = { field: 'map' };
  for (const [path, s] of paths) patch(path, JSON.stringify(s.value), 'set', { edit });
  queue(() => reread(ed.text));
  $('status').textContent = `intercepting at ${choice.option}, each side's best answer below taken`;
}
