// What every page script shares (loaded before it): `$` finds an element by id, `el` makes one with
// attributes (`text` sets its text; null, undefined and false leave an attribute out, true sets it empty)
// and children, and `TOML`, the headers of a request whose body is config text.
'use strict';

const $ = (id) => document.getElementById(id);

// The type every config body is sent with: the server refuses a POST or PUT whose body type a page of
// another site could send without asking first (text/plain, forms), so each request says what it carries.
const TOML = { 'content-type': 'application/toml' };

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...kids);
  return e;
}
