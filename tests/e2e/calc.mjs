// The quick calculators page end to end, in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and
// a phone's width: naval dice and distance set in the form must give the chance and the table of hexes moved
// that `intercept-sim odds naval --json` gives, a cavalry order and morale the chances `odds cavalry --json`
// gives, and then a unit type and facing its answer (all computed by tests/workbench_e2e.rs and handed over as
// JSON); axe-core finds no accessibility violation, one h1, every button named once; no sideways scrolling,
// screenshots.
// Any console error or page error fails it. Run by tests/workbench_e2e.rs:
//   node calc.mjs URL EXPECTED_JSON SCREENSHOT_DIR
import { atBothWidths, fail, namedOnce, noAxeViolations, noOverflow, openAt } from './browser.mjs';

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
}

async function calc(browser, width) {
  const { context, page, where } = await openAt(browser, width, base.replace(/\/$/, '') + '/calc');
  await page.locator('#naval-dice').waitFor();
  await noAxeViolations(page, `${where} opening`);
  await naval(page, where);
  await cavalry(page, where);
  await noAxeViolations(page, `${where} answered`);
  await page.click('#calc-cavalry summary');
  await noAxeViolations(page, `${where} all values open`);
  await namedOnce(page, `${where} calculators`);
  await noOverflow(page, `${where} calculators`);
  await page.screenshot({ path: `${shots}/calc-${width > 600 ? 'desktop' : 'phone'}.png`, fullPage: true });
  await context.close();
}

await atBothWidths('calculators', calc);
