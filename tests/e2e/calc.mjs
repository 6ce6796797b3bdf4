// The quick calculators page end to end, in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and
// a phone's width: naval dice and distance set in the form must give the chance and the table of hexes moved
// that `intercept-sim odds naval --json` gives, a cavalry order and morale the chances `odds cavalry --json`
// gives, and then a unit type and facing its answer (all computed by tests/workbench_e2e.rs and handed over as
// JSON); two naval groups with their modifiers against a raid, the second added with the form's button, the
// sentence and each group's dice and chance that `odds naval --activity raider --group ... --json` gives, a
// bad modifier marked on its own box; a value out of range and a required one left blank marked on their
// fields for a screen reader (aria-invalid, the error first in the field's description), the marks gone once
// fixed; each calculator's
// address (/calc#RULE_SET) opening with that calculator in view and its heading focused; axe-core finds no
// accessibility violation, one h1, every button named once; no sideways scrolling, screenshots.
// Any console error or page error fails it. Run by tests/workbench_e2e.rs:
//   node calc.mjs URL EXPECTED_JSON SCREENSHOT_DIR
import { allow, atBothWidths, fail, namedOnce, noAxeViolations, noOverflow, openAt } from './browser.mjs';

const [base, expectedJson, shots] = process.argv.slice(2);
const expected = JSON.parse(expectedJson);




/** Waits until an item of the calculator's answer starting with `words` says `exactly FRACTION`. */
async function chance(page, calc, words, fraction, where) {
  const found = await page.waitForFunction(([calc, words, fraction]) => {
    const items = [...document.querySelectorAll(`#calc-${calc} .words li`)].map((li) => li.firstChild.textContent);
    return items.find((t) => t.startsWith(words) && t.includes(`(exactly ${fraction})`));
  }, [calc, words, fraction], { timeout: 10000 }).catch(() => null);
  if (!found) {
    const shown = await page.textContent(`#calc-${calc} .answer`);
    fail(`${where}: ${calc} shows ${JSON.stringify(shown)}, not "${words}… (exactly ${fraction})"`);
  }
}

/** Waits until the calculator's answer opens with the sentence `odds --json` gives. */
async function sentence(page, calc, answer, where) {
  const found = await page.waitForFunction(([calc, answer]) =>
    document.querySelector(`#calc-${calc} .answer .sentence`)?.textContent === answer,
  [calc, answer], { timeout: 10000 }).catch(() => null);
  if (!found) {
    const shown = await page.textContent(`#calc-${calc} .answer`);
    fail(`${where}: ${calc} does not open with ${JSON.stringify(answer)}; it shows ${JSON.stringify(shown)}`);
  }
}

async function naval(page, where) {
  const n = expected.naval;
  await page.fill('#naval-dice', String(n.dice));
  await page.fill('#naval-distance', String(n.distance));
  await chance(page, 'naval', 'chance to reach', n.p_reach_fraction, where);
  await sentence(page, 'naval', n.answer, where);
  const rows = await page.$$eval('#calc-naval table.odds tbody tr', (trs) =>
    trs.map((tr) => ({ cells: [...tr.cells].map((td) => td.textContent), yes: tr.classList.contains('yes') })));
  if (rows.length !== n.moved.length) fail(`${where}: the hexes-moved table has ${rows.length} rows, not ${n.moved.length}`);
  n.moved.forEach((m, i) => {
    const row = rows[i];
    if (row.cells[0] !== String(m.hexes) || !row.cells[1].endsWith(`(${m.fraction})`) || row.yes !== m.reached) {
      fail(`${where}: hexes-moved row ${i} is ${JSON.stringify(row)}, not ${JSON.stringify(m)}`);
    }
  });
}

async function cavalry(page, where) {
  const c = expected.cavalry;
  await page.selectOption('#cavalry-order', c.order);
  await page.fill('#cavalry-morale', String(c.morale));
  await page.fill('#cavalry-leader', String(c.leader));
  await chance(page, 'cavalry', 'chance to intercept', c.p_intercept_fraction, where);
  await chance(page, 'cavalry', 'chance to pass', c.p_pass_fraction, where);
  await sentence(page, 'cavalry', c.answer, where);
  const targets = await page.$$eval('#cavalry-target option', (os) => os.map((o) => o.value).filter(Boolean));
  if (!targets.includes(c.front.target)) fail(`${where}: the unit types offered are ${targets}`);
  await page.selectOption('#cavalry-target', c.front.target);
  await page.selectOption('#cavalry-facing', c.front.facing);
  await sentence(page, 'cavalry', c.front.answer, where);
  allow.status = null;
}

/** How field `id` is marked: aria-invalid, and the texts of what it is described by, in order. */
async function marks(page, id) {
  return page.$eval(`#${id}`, (f) => ({ invalid: f.getAttribute('aria-invalid'),
    said: (f.getAttribute('aria-describedby') || '').split(' ').map((d) => document.getElementById(d)?.textContent) }));
}

/** Waits until field `id` is marked invalid with an error starting `words`, first in what describes it. */
async function markedInvalid(page, id, words, where) {
  const ok = await page.waitForFunction(([id, words]) => {
    const f = document.getElementById(id);
    const first = document.getElementById((f.getAttribute('aria-describedby') || '').split(' ')[0]);
    return f.getAttribute('aria-invalid') === 'true' && first?.textContent.startsWith(words) && first.getAttribute('role') === 'alert';
  }, [id, words], { timeout: 10000 }).catch(() => null);
  if (!ok) fail(`${where}: #${id} is not marked invalid with "${words}…": ${JSON.stringify(await marks(page, id))}`);
}

async function markedValid(page, id, where, help = `${id}-help`) {
  const ok = await page.waitForFunction(([id, help]) => {
    const f = document.getElementById(id);
    return !f.hasAttribute('aria-invalid') && f.getAttribute('aria-describedby') === help;
  }, [id, help], { timeout: 10000 }).catch(() => null);
  if (!ok) fail(`${where}: #${id} is still marked after the fix: ${JSON.stringify(await marks(page, id))}`);
}

/** A morale out of range (the server's error names it) and the dice left blank (the page asks for them): each
 * field marked for a screen reader, axe-core finding nothing; fixed, the marks go and the answers come back. */
async function fieldErrors(page, where) {
  const [c, n] = [expected.cavalry, expected.naval];
  allow.status = 400;
  await page.fill('#cavalry-morale', '60');
  await markedInvalid(page, 'cavalry-morale', 'morale: ', where);
  await page.fill('#naval-dice', '');
  await markedInvalid(page, 'naval-dice', 'Give dice, or group.', where);
  await noAxeViolations(page, `${where} field errors`);
  await page.fill('#cavalry-morale', String(c.morale));
  await page.fill('#naval-dice', String(n.dice));
  await markedValid(page, 'cavalry-morale', where);
  await markedValid(page, 'naval-dice', where);
  await sentence(page, 'naval', n.answer, where);
  await sentence(page, 'cavalry', c.front.answer, where);
  allow.status = null;
}

/** Dice and distance cleared (the page asks for them, or a group), then two groups with their modifiers against
 * the mission the activity sets, the second box added with the button (which moves to it): the sentence, and a
 * row a group with its dice, how they come about and its chance, as `odds naval --group ... --json` gives them;
 * a modifier misspelt is marked on its own box, and the mark goes once it is fixed. */
async function groups(page, where) {
  const g = expected.groups;
  allow.status = 400;
  await page.fill('#naval-dice', '');
  await page.fill('#naval-distance', '');
  await markedInvalid(page, 'naval-dice', 'Give dice, or group.', where);
  await page.selectOption('#naval-activity', g.activity);
  await page.fill('#naval-group-1', g.groups[0]);
  await page.click('#naval-group-add');
  const focused = await page.evaluate(() => document.activeElement.id);
  if (focused !== 'naval-group-2') fail(`${where}: adding a group moves to #${focused}, not #naval-group-2`);
  await page.fill('#naval-group-2', g.groups[1].replace('spotting', 'spoting'));
  await markedInvalid(page, 'naval-group-2', 'group: ', where);
  await page.fill('#naval-group-2', g.groups[1]);
  await markedValid(page, 'naval-group-2', where, 'naval-group-help');
  await sentence(page, 'naval', g.answer, where);
  allow.status = null;
  await chance(page, 'naval', 'chance to intercept', g.p_intercept_fraction, where);
  const rows = await page.$$eval('#calc-naval table.odds tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  if (rows.length !== g.rows.length) fail(`${where}: the groups table has ${rows.length} rows, not ${g.rows.length}`);
  g.rows.forEach((r, i) => {
    const cells = rows[i];
    const ok = cells[0] === String(r.group) && cells.includes(String(r.dice)) && cells.includes(r.dice_from)
      && cells[cells.length - 1].endsWith(`(${r.p_reach_fraction})`);
    if (!ok) fail(`${where}: group row ${i} is ${JSON.stringify(cells)}, not ${JSON.stringify(r)}`);
  });
}

/** Each calculator's address, /calc#RULE_SET, opens with that calculator in the window, its form whole, and
 * its heading focused, so that Tab goes on into its fields. */
async function opensAtItsCalculator(browser, width) {
  const { calculators } = await (await fetch(base.replace(/\/$/, '') + '/api/odds')).json();
  for (const { rule_set: name } of calculators) {
    const { context, page, where } = await openAt(browser, width, `${base.replace(/\/$/, '')}/calc#${name}`);
    const shown = await page.waitForFunction((name) => {
      const section = document.getElementById(`calc-${name}`);
      if (!section || document.activeElement !== section.querySelector('h2')) return false;
      const [box, form] = [section.getBoundingClientRect(), section.querySelector('form').getBoundingClientRect()];
      return box.top >= 0 && form.bottom <= window.innerHeight;
    }, name, { timeout: 10000 }).catch(() => null);
    if (!shown) {
      const at = await page.evaluate((name) => [document.getElementById(`calc-${name}`)?.getBoundingClientRect().top, window.innerHeight, document.activeElement.tagName], name);
      fail(`${where}: /calc#${name} does not show its calculator (its top, the window's height, the focus: ${at})`);
    }
    await context.close();
  }
}

async function calc(browser, width) {
  const { context, page, where } = await openAt(browser, width, base.replace(/\/$/, '') + '/calc');
  await page.locator('#naval-dice').waitFor();
  await noAxeViolations(page, `${where} opening`);
  await naval(page, where);
  await cavalry(page, where);
  await noAxeViolations(page, `${where} answered`);
  await fieldErrors(page, where);
  await groups(page, where);
  await noAxeViolations(page, `${where} groups`);
  await page.click('#calc-cavalry summary');
  await noAxeViolations(page, `${where} all values open`);
  await namedOnce(page, `${where} calculators`);
  await noOverflow(page, `${where} calculators`);
  await page.screenshot({ path: `${shots}/calc-${width > 600 ? 'desktop' : 'phone'}.png`, fullPage: true });
  await context.close();
  await opensAtItsCalculator(browser, width);
}

await atBothWidths('calculators', calc);
