// What-if in one click, end to end in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and a
// phone's width: in the editor on the naval three-level chain, "sweep" beside taranto's distance moves the
// focus to the panel and solves the values around the current one exactly at once (no sampling): the chart
// and the table with every value in ascending order, the current one marked; values typed out of order come
// back in order with the current one added; the Monte Carlo sweep on request adds estimates, one point's
// estimate and exact value equal to the command line's `sweep --json`, and shows under them exactly the
// command that gave those (the values in the order sampled, the current one first, the trials and seed);
// a change to the scenario greys the results and labels them. Two keys put into the tornado show as bars ranked by
// their change. A form edit keeps the TOML's comments, and a finished Monte Carlo table does not make the
// phone page scroll sideways. Any console error or page error fails it. Run by tests/workbench_e2e.rs:
//   node whatif.mjs URL VALUES TRIALS POINT_JSON COMMAND SCREENSHOT_DIR
// VALUES: the values the sweep must offer ("6, 7, 8, 9, 10"); POINT_JSON: {"value", "estimate", "exact"} of
// one point as COMMAND (`intercept-sim sweep FILE --set KEY=8,6,... --trials N --seed S`) gives it with --json.
import { atBothWidths, fail, noAxeViolations, noOverflow, openAt } from './browser.mjs';

const [base, values, trials, pointJson, command, shots] = process.argv.slice(2);
const point = JSON.parse(pointJson);




async function sweep(page, where) {
  await page.click('#f-naval-group-0-distance ~ button[data-whatif="sweep"]');
  await page.waitForSelector('#sweep-state[data-state="exact"]');
  const focused = await page.evaluate(() => document.activeElement.id);
  if (focused !== 'sweep-heading') fail(`${where}: opening the sweep left focus on ${focused}`);
  const offered = await page.inputValue('#sweep-values');
  if (offered !== values) fail(`${where}: the sweep offers ${JSON.stringify(offered)}, not ${JSON.stringify(values)}`);
  if (!/solved exactly at every value/.test(await page.textContent('#sweep-state'))) fail(`${where}: the exact sweep sampled`);
  const shown = await page.$$eval('#sweep-svg g.point', (gs) => gs.map((g) => g.dataset.value));
  if (shown.join(',') !== '6,7,8,9,10') fail(`${where}: the chart shows the values ${shown}`);
  const marked = await page.$$eval('#sweep-svg g.base-point', (gs) => gs.map((g) => g.dataset.value));
  if (marked.join() !== '8') fail(`${where}: the chart marks ${marked} as the current value`);
  const row = page.locator(`#sweep-results tr[data-value="${point.value}"]`);
  if (Number(await row.getAttribute('data-exact')) !== point.exact) fail(`${where}: at ${point.value} the exact value differs from the command line's`);
  if (!(await page.textContent('#sweep-results tr.base')).includes('(current)')) fail(`${where}: no current row`);
  // Values typed out of order, one the rules refuse: answered in order, the current value among them.
  await page.fill('#sweep-values', '10, -1, 7, 6');
  await page.click('#sweep-solve');
  await page.waitForFunction(() => document.querySelector('#sweep-values').value === '-1, 6, 7, 8, 10');
  const order = await page.$$eval('#sweep-results tbody tr', (rs) => rs.map((r) => r.dataset.value));
  if (order.join() !== '-1,6,7,8,10') fail(`${where}: the table is in the order ${order}`);
  if (!/refused: .*-1 is out of range/.test(await page.textContent('#sweep-results tr[data-value="-1"]'))) fail(`${where}: -1 is not said to be refused`);
  // Monte Carlo on request: the estimates join the exact values, the command line's to the bit.
  await page.fill('#sweep-values', values);
  await page.click('#sweep-solve');
  await page.waitForSelector('#sweep-state[data-state="exact"]');
  await page.fill('#sweep-trials', trials);
  await page.click('#sweep-run');
  await page.locator('#sweep-progress').waitFor({ state: 'visible' });
  await page.waitForSelector('#sweep-state[data-state="done"]', { timeout: 90000 });
  await page.waitForFunction((v) => document.querySelector(`#sweep-results tr[data-value="${v}"]`)?.dataset.estimate, String(point.value));
  const estimate = Number(await row.getAttribute('data-estimate'));
  if (estimate !== point.estimate) fail(`${where}: at ${point.value} the page estimates ${estimate}; the command line ${point.estimate}`);
  if ((await page.locator('#sweep-results tbody tr').count()) !== 5) fail(`${where}: the table has not 5 rows`);
  // The command under the results is the one whose output the estimate was compared with.
  const said = await page.textContent('#sweep-command');
  const shownCommand = await page.textContent('#sweep-command code');
  if (shownCommand !== command) fail(`${where}: the page shows the command ${JSON.stringify(shownCommand)}, not ${JSON.stringify(command)}`);
  if (/once the scenario is saved/.test(said)) fail(`${where}: the file is said to differ from the text swept: ${said}`);
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

/** A change to the scenario greys the sweep and the tornado and says they ran on an earlier version. */
async function staleAfterAChange(page, where) {
  await page.fill('#f-naval-group-3-factors', '5');
  await page.waitForFunction(() => ['sweep-panel', 'tornado-panel'].every((id) => document.getElementById(id).classList.contains('stale')));
  const notes = await page.$$eval('#sweep-panel > .stale-note, #tornado-panel > .stale-note', (ns) => ns.map((n) => (n.hidden ? '' : n.textContent)));
  if (!notes.every((n) => /earlier version/.test(n))) fail(`${where}: the what-if results are not labelled stale: ${notes}`);
  await page.fill('#f-naval-group-3-factors', '6');
  await page.waitForFunction(() => !document.getElementById('sweep-panel').classList.contains('stale'));
}

async function editor(browser, width) {
  const { context, page, where } = await openAt(browser, width, base.replace(/\/$/, '') + '/edit?path=naval/three-level-chain.toml');
  await page.waitForSelector('#answer[data-state="ready"]');
  // The groups whose numbers it changes, unfolded from their one-line summaries.
  for (const group of [0, 2, 3]) await page.click(`details[data-key="naval.group.${group}"] > summary`);
  await keepsComments(page, where);
  await sweep(page, where);
  await tornado(page, where);
  await monteCarlo(page, where);
  await noOverflow(page, `${where} editor with what-if`);
  await noAxeViolations(page, `${where} editor with what-if`);
  await staleAfterAChange(page, where);
  await page.locator('#whatif').screenshot({ path: `${shots}/whatif-${width > 600 ? 'desktop' : 'phone'}.png` });
  await context.close();
}

await atBothWidths('what-if', editor);
