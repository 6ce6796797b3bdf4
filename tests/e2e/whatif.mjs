// What-if in one click, end to end in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and a
// phone's width: in the editor on the naval three-level chain, "sweep" beside taranto's distance opens the
// values around the current one, runs the sweep with its progress, and shows the chart and the table with
// every value (the current one marked); one point's estimate and exact value must equal the command line's
// `sweep --json` for the same values, trials and seed. Two keys put into the tornado show as bars ranked by
// their change. A form edit keeps the TOML's comments, and a finished Monte Carlo table does not make the
// phone page scroll sideways. Any console error or page error fails it. Run by tests/workbench_e2e.rs:
//   node whatif.mjs URL VALUES TRIALS POINT_JSON SCREENSHOT_DIR
// VALUES: the values the sweep must offer ("8, 6, 7, 9, 10"); POINT_JSON: {"value", "estimate", "exact"} of
// one point from the command line.
import { atBothWidths, fail, noOverflow, openAt } from './browser.mjs';

const [base, values, trials, pointJson, shots] = process.argv.slice(2);
const point = JSON.parse(pointJson);




async function sweep(page, where) {
  await page.click('#f-naval-group-0-distance ~ button[data-whatif="sweep"]');
  await page.waitForSelector('#sweep-state[data-state="ready"]');
  const offered = await page.inputValue('#sweep-values');
  if (offered !== values) fail(`${where}: the sweep offers ${JSON.stringify(offered)}, not ${JSON.stringify(values)}`);
  await page.fill('#sweep-trials', trials);
  await page.click('#sweep-run');
  await page.locator('#sweep-progress').waitFor({ state: 'visible' });
  await page.waitForSelector('#sweep-state[data-state="done"]', { timeout: 90000 });
  await page.locator('#sweep-svg').waitFor();
  const shown = await page.$$eval('#sweep-svg g.point', (gs) => gs.map((g) => g.dataset.value));
  if (shown.join(',') !== '6,7,8,9,10') fail(`${where}: the chart shows the values ${shown}`);
  const marked = await page.$$eval('#sweep-svg g.base-point', (gs) => gs.map((g) => g.dataset.value));
  if (marked.join() !== '8') fail(`${where}: the chart marks ${marked} as the current value`);
  const row = page.locator(`#sweep-results tr[data-value="${point.value}"]`);
  const estimate = Number(await row.getAttribute('data-estimate'));
  const exact = Number(await row.getAttribute('data-exact'));
  if (estimate !== point.estimate || exact !== point.exact) {
    fail(`${where}: at ${point.value} the page says ${estimate} (exact ${exact}); the command line ${point.estimate} (exact ${point.exact})`);
  }
  if ((await page.locator('#sweep-results tbody tr').count()) !== 5) fail(`${where}: the table has not 5 rows`);
  if (!(await page.textContent('#sweep-results tr.base')).includes('(current)')) fail(`${where}: no current row`);
}

async function tornado(page, where) {
  await page.click('#f-naval-group-0-distance ~ button[data-whatif="tornado"]');
  await page.click('#f-naval-group-2-factors ~ button[data-whatif="tornado"]');
  const keys = await page.$$eval('#tornado-keys .chip', (cs) => cs.map((c) => c.dataset.key));
  if (keys.join() !== 'naval.group.taranto.distance,naval.group.force-b.factors') fail(`${where}: tornado keys ${keys}`);
  await page.fill('#tornado-trials', trials);
  await page.click('#tornado-run');
  await page.waitForSelector('#tornado-state[data-state="done"]', { timeout: 90000 });
  await page.locator('#tornado-svg').waitFor();
  const bars = await page.$$eval('#tornado-svg g.bar', (gs) => gs.map((g) => [g.dataset.key, Number(g.dataset.size)]));
  if (bars.length !== 2) fail(`${where}: ${bars.length} tornado bars`);
  if (!(bars[0][1] >= bars[1][1] && bars[0][1] > 0)) fail(`${where}: the bars are not ranked: ${JSON.stringify(bars)}`);
  if (bars[0][0] !== 'naval.group.force-b.factors') fail(`${where}: the largest change is ${bars[0][0]}`);
}

/** A form edit changes only its line of the TOML: the comments stay. */
async function keepsComments(page, where) {
  await page.fill('#f-naval-group-3-factors', '7');
  await page.waitForFunction(() => document.querySelector('#toml').value.includes('factors = 7'));
  const toml = await page.inputValue('#toml');
  for (const comment of ['# A three-level chain in the Mediterranean', '# level 3', '# defers to join']) {
    if (!toml.includes(comment)) fail(`${where}: the form edit dropped the comment ${JSON.stringify(comment)}`);
  }
  await page.fill('#f-naval-group-3-factors', '6');
  await page.waitForFunction(() => /name = "flotilla"[^[]*factors = 6\n/.test(document.querySelector('#toml').value));
  await page.waitForSelector('#answer[data-state="ready"]');
}

async function monteCarlo(page, where) {
  await page.fill('#trials', '20000');
  await page.click('#run');
  await page.waitForSelector('#run-state[data-state="done"]', { timeout: 90000 });
  await page.locator('#run-result table').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await noOverflow(page, `${where} after Monte Carlo`);
}

async function editor(browser, width) {
  const { context, page, where } = await openAt(browser, width, base.replace(/\/$/, '') + '/edit?path=naval/three-level-chain.toml');
  await page.waitForSelector('#answer[data-state="ready"]');
  await keepsComments(page, where);
  await sweep(page, where);
  await tornado(page, where);
  await monteCarlo(page, where);
  await noOverflow(page, `${where} editor with what-if`);
  await page.locator('#whatif').screenshot({ path: `${shots}/whatif-${width > 600 ? 'desktop' : 'phone'}.png` });
  await context.close();
}

await atBothWidths('what-if', editor);
