// The scenario editor's form, generated from the config's JSON Schema (GET /api/schema/{rule_set}): one
// field per key, in the order the rule set declares them (the schema's `x-order`), required keys first and
// marked, keys left at their defaults folded under "more", every enumerated key a select listing every allowed
// value, every key with its help. Every table but the rule set's own, and every item of a list, folds to one
// line: its name and the values it sets (a group's target, distance, factors), kept current as they are
// typed, so that a long scenario reads as a list on a phone; a click, Enter or Space unfolds it. The form
// never rebuilds while a field is typed in (a name typed relabels its group in place), so focus stays where
// the player is. Uses dom.js and the editor's state (editor.js: ed, getAt, setAt, dotted, patch, editOf,
// endEdit, whatIfButtons).
'use strict';

// ---- the schema ----

/** A schema node with its `$ref` followed and an optional null dropped, keeping its own description/default. */
function resolve(node) {
  let n = node || {};
  while (n.$ref) {
    const target = ed.schema.$defs[n.$ref.split('/').pop()];
    const { $ref, ...own } = n;
    n = { ...target, ...own, description: own.description || target.description };
  }
  const options = n.anyOf || (n.oneOf && !choiceList(n.oneOf) ? n.oneOf : null);
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

/** The allowed values of a list of schema options when every one is a value or a list of values: `[value,
 * description]` pairs (schemars writes undocumented variants as one `enum` and documented ones as `const`). */
function choiceList(options) {
  if (!options.every((o) => 'const' in o || Array.isArray(o.enum))) return null;
  return options.flatMap((o) => ('const' in o ? [[o.const, o.description || '']] : o.enum.map((v) => [v, ''])));
}

function choices(n) {
  if (n.enum) return n.enum.map((v) => [v, '']);
  return n.oneOf ? choiceList(n.oneOf) : null;
}

function child(node, key) {
  const props = (node && node.properties) || {};
  return resolve(props[key] || (typeof node?.additionalProperties === 'object' ? node.additionalProperties : {}));
}

/** A table's keys in the order the rule set declares them. */
function keysOf(node) {
  const declared = node['x-order'] || [];
  return declared.filter((k) => k in node.properties).concat(Object.keys(node.properties).filter((k) => !declared.includes(k)));
}

/** The schema node of the value at `path`. */
function fieldNode(path) {
  let node = resolve(ed.schema);
  for (const k of path) node = typeof k === 'number' ? resolve(node.items) : child(node, k);
  return node;
}

// ---- TOML literals ----

/** A value as a TOML literal, typed as its schema says (a whole number in a decimal key is written `2.0`). */
function literal(v, node) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return typeOf(node) === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v);
  if (Array.isArray(v)) return '[' + v.map((x) => literal(x, resolve(node.items))).join(', ') + ']';
  if (v !== null && typeof v === 'object') {
    const inner = Object.entries(v).map(([k, x]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k)} = ${literal(x, child(node, k))}`);
    return '{ ' + inner.join(', ') + ' }';
  }
  return String(v);
}

// ---- the form ----

/** The form built afresh from the model; every table and item the player opened or folded stays so. */
function buildForm() {
  const form = $('form');
  const was = new Map([...form.querySelectorAll('details[data-key]')].map((d) => [d.dataset.key, d.open]));
  form.replaceChildren();
  const root = resolve(ed.schema);
  for (const key of keysOf(root)) form.append(section([key], child(root, key), key === ed.table));
  for (const d of form.querySelectorAll('details[data-key]')) if (was.has(d.dataset.key)) d.open = was.get(d.dataset.key);
}

/** Opens every fold around `node`, so that it shows. */
function unfold(node) {
  for (let d = node.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
}

// ---- folds: a table or list item in one line ----

/** How many of its values a folded line names before it counts the rest. */
const FOLD_VALUES = 4;

/** A fold's name: a table's `[a.b]`, a list item's own name, else its place in its list (`band #2`). */
function foldName(path) {
  const last = path[path.length - 1];
  if (typeof last !== 'number') return `[${path.join('.')}]`;
  return getAt(path)?.name || `${path[path.length - 2]} #${last + 1}`;
}

/** The values a table or list item sets as one line, the required ones first and numbers before words among
 * each (`distance 8, factors 20, target convoy`): the numbers are what a player scans a folded list for. A list
 * of tables says its count (`band × 5`); a table inside has a line of its own. */
function foldValues(path, node) {
  const value = getAt(path);
  if (!value || typeof value !== 'object') return '';
  const required = new Set(node.required || []);
  const rank = ([k, v]) => (required.has(k) ? 0 : 2) + (typeof v === 'number' ? 0 : 1);
  const said = keysOf(node).filter((k) => k !== 'name' && value[k] !== undefined)
    .map((k) => [k, value[k]])
    .filter(([, v]) => Array.isArray(v) || typeof v !== 'object')
    .sort((a, b) => rank(a) - rank(b))
    .map(([k, v]) => (!Array.isArray(v) ? `${k} ${v}` : typeof v[0] === 'object' ? `${k} × ${v.length}` : `${k} [${v.join(', ')}]`));
  const rest = said.length - FOLD_VALUES;
  return said.slice(0, FOLD_VALUES).join(', ') + (rest > 0 ? `, ${rest} more` : '');
}

/** What a fold's summary says: its name, then its values. */
function foldLine(path, node) {
  const values = foldValues(path, node);
  return [el('span', { class: 'name', text: foldName(path) }), el('span', { class: 'values', text: values ? `: ${values}` : '' })];
}

/** A table or list item that folds to its line, open or not. */
function fold(path, node, open, attrs = {}) {
  return el('details', { ...attrs, open, 'data-key': path.join('.'), 'data-fold': JSON.stringify(path) },
    el('summary', {}, ...foldLine(path, node)));
}

/** The lines of every fold around `node`, after a value in it changed. */
function refold(node) {
  for (let d = node.closest('details[data-fold]'); d; d = d.parentElement.closest('details[data-fold]')) {
    const path = JSON.parse(d.dataset.fold);
    d.querySelector(':scope > summary').replaceChildren(...foldLine(path, fieldNode(path)));
  }
}

function isTableNode(node) {
  return typeOf(node) === 'object' && node.properties;
}

function isListOfTables(node) {
  return typeOf(node) === 'array' && isTableNode(resolve(node.items));
}

function section(path, node, open) {
  if (isTableNode(node)) return table(path, node, open);
  if (isListOfTables(node)) return tableList(path, node);
  return field(path, node);
}

/** A table, folded unless `open`: its required keys and the keys the file sets, then the rest folded under
 * "more". */
function table(path, node, open) {
  const box = fold(path, node, open);
  if (node.description) box.append(el('p', { class: 'help', text: node.description }));
  box.append(...keyed(path, node));
  return box;
}

/** The fields of a table's keys, those left at their defaults folded: shown are the required keys, the keys
 * the file sets, and for an item of a list the keys every other item sets (a new group gets the `distance` the
 * others are written with, which the schema cannot call required: a map may give it instead). */
function keyed(path, node) {
  const required = new Set(node.required || []);
  const keys = keysOf(node);
  const fellows = fellowKeys(path);
  const shown = (k) => required.has(k) || fellows.has(k) || getAt(path.concat(k)) !== undefined;
  const first = keys.filter(shown).map((k) => section(path.concat(k), child(node, k), false));
  const rest = keys.filter((k) => !shown(k));
  if (!rest.length) return first;
  const more = el('details', { class: 'more', 'data-key': path.concat('…').join('.'), 'data-count': rest.length },
    el('summary', { text: moreText(path, rest.length) }));
  more.append(...rest.map((k) => section(path.concat(k), child(node, k), false)));
  return first.concat([more]);
}

/** The keys every other item of the list holding the item at `path` sets; none for a table not in a list. */
function fellowKeys(path) {
  const at = path[path.length - 1];
  if (typeof at !== 'number') return new Set();
  const others = (getAt(path.slice(0, -1)) || []).filter((item, i) => i !== at && item && typeof item === 'object');
  if (!others.length) return new Set();
  return new Set(Object.keys(others[0]).filter((k) => others.every((item) => k in item)));
}

/** The summary of a table's folded keys, naming the table (a list item by its name). */
function moreText(path, n) {
  return `${n} more ${n === 1 ? 'key' : 'keys'} of ${dotted(path)}, at ${n === 1 ? 'its default' : 'their defaults'}`;
}

/** A list of tables (an array of tables such as `[[table.item]]`): each item, its remove button, and an add button. */
function tableList(path, node) {
  const items = getAt(path) || [];
  const itemNode = resolve(node.items);
  const name = path.join('.');
  const box = el('details', { open: items.length > 0, 'data-key': name });
  box.append(el('summary', { text: `[[${name}]] × ${items.length}` }));
  const about = itemNode.description || node.description;
  if (about) box.append(el('p', { class: 'help', text: about }));
  items.forEach((item, i) => {
    const set = el('fieldset', { 'data-item': JSON.stringify(path.concat(i)) }, el('legend', { text: item.name || `#${i + 1}` }));
    set.append(...keyed(path.concat(i), itemNode));
    const remove = el('button', { type: 'button', class: 'remove', text: 'remove', 'aria-label': `remove ${item.name || `#${i + 1}`} from ${name}` });
    remove.addEventListener('click', () => patch(path.concat(i), null, 'remove', { focus: `[data-add="${name}"]` }));
    set.append(remove);
    const folded = fold(path.concat(i), itemNode, false, { class: 'item' });
    folded.append(set);
    box.append(folded);
  });
  const add = el('button', { type: 'button', 'data-add': name, text: `add to ${name}` });
  const first = keysOf(itemNode)[0];
  add.addEventListener('click', () => patch(path, null, 'append', { focus: `#${fieldId(path.concat(items.length, first))}` }));
  box.append(add);
  return box;
}

function fieldId(path) {
  return 'f-' + path.join('-');
}

/** One key: its label (required ones marked), its input (a select for every enumerated key), its help. */
function field(path, node) {
  const key = path[path.length - 1];
  const id = fieldId(path);
  const value = getAt(path);
  const t = typeOf(node);
  const opts = choices(node) || (t === 'boolean' ? [[true, ''], [false, '']] : null);
  const shown = node.default === undefined ? '' : JSON.stringify(node.default);
  const required = (fieldNode(path.slice(0, -1)).required || []).includes(key);
  let input;
  if (opts) {
    input = el('select', { id, 'aria-required': required ? 'true' : null });
    input.append(el('option', { value: '', text: shown ? `(default ${shown})` : '(not set)' }));
    for (const [v] of opts) input.append(el('option', { value: JSON.stringify(v), text: String(v) }));
    input.value = value === undefined ? '' : JSON.stringify(value);
  } else {
    const numeric = t === 'integer' || t === 'number';
    input = el('input', { id, type: 'text', placeholder: shown, 'aria-required': required ? 'true' : null,
      inputmode: numeric ? (t === 'integer' ? 'numeric' : 'decimal') : null, autocomplete: 'off', spellcheck: 'false' });
    input.value = value === undefined ? '' : t === 'string' || numeric ? String(value) : JSON.stringify(value);
  }
  input.dataset.path = JSON.stringify(path);
  input.dataset.kind = opts ? 'choice' : t;
  input.addEventListener(opts ? 'change' : 'input', () => fieldChanged(input));
  // A typed value is one undo step from the first keystroke until the field is left or Enter commits it.
  for (const end of ['change', 'blur']) input.addEventListener(end, () => endEdit(input));
  const help = helpText(node, t, opts, shown);
  input.setAttribute('aria-describedby', helpId(id));
  const label = el('label', { for: id }, key, required ? el('abbr', { class: 'required', title: 'required', text: ' *' }) : '');
  // The [run] table's numbers (trials, seed, chunk size, tree limit) say how the odds are computed, not what is
  // modelled: sweeping them answers no what-if, so they get no buttons.
  const number = (t === 'integer' || t === 'number') && path[0] !== 'run';
  return el('div', { class: 'field' }, label, number ? whatIfButtons(path, input) : input,
    el('p', { class: 'help', id: helpId(id), text: help }));
}

/** The id of the help under the field `id` (what the field is described by when it holds no error). */
function helpId(id) {
  return id + '-help';
}

/** The help under a key: its description, the meaning of each allowed value, its type and default. */
function helpText(node, t, opts, shown) {
  const described = opts && opts.some(([, d]) => d) ? opts.map(([v, d]) => (d ? `${v}: ${d}` : String(v))).join('; ') : '';
  const allowed = opts && !described ? `allowed: ${opts.map(([v]) => v).join(', ')}` : '';
  const kind = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', array: 'a list' }[t] || '';
  const range = node.minimum !== undefined || node.maximum !== undefined ? ` from ${node.minimum ?? '…'} to ${node.maximum ?? '…'}` : '';
  const fallback = opts ? '' : kind + range;
  const parts = [node.description, described || allowed, node.description ? '' : fallback, shown ? `default ${shown}` : ''];
  return parts.filter(Boolean).join('. ').replace(/\.\./g, '.');
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
  if (input.dataset.kind !== 'string') {
    try { return JSON.parse(text); } catch { return text; }
  }
  return text;
}

/** A field typed in: the model and the TOML change, the form stays. A group's name relabels its legend and
 * the buttons that name it. */
function fieldChanged(input) {
  const path = JSON.parse(input.dataset.path);
  const value = fieldValue(input);
  setAt(path, value);
  if (path[path.length - 1] === 'name') relabel(input.closest('fieldset'));
  refold(input);
  const edit = input.dataset.kind === 'choice' ? null : editOf(input);
  patch(path, value === undefined ? null : literal(value, fieldNode(path)), 'set', { edit });
}

/** The legend and button names of a list item, after its name changed. */
function relabel(set) {
  if (!set) return;
  const path = JSON.parse(set.dataset.item);
  const name = getAt(path.concat('name')) || `#${path[path.length - 1] + 1}`;
  set.querySelector('legend').textContent = name;
  set.querySelector('button.remove').setAttribute('aria-label', `remove ${name} from ${path.slice(0, -1).join('.')}`);
  for (const b of set.querySelectorAll('button.whatif')) labelWhatIf(b);
  const more = set.querySelector(':scope > details.more');
  if (more) more.querySelector('summary').textContent = moreText(path, Number(more.dataset.count));
}
