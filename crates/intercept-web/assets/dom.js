// What every page script shares (loaded before it): `$` finds an element by id, `el` makes one with
// attributes (`text` sets its text; null, undefined and false leave an attribute out, true sets it empty)
// and children.
'use strict';

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...kids);
  return e;
}
