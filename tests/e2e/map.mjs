// The live map, end to end in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and a phone's
// width: the editor on the Mediterranean chain (configs/naval/chain-on-the-map.toml) draws its map with every
// hex named, says where to intercept in the command line's own sentence, and makes each hex of the route a
// button; clicking one (HEX) puts it and the best line below it into the TOML as one edit, and the exact
// answer then equals `where --json`'s value for that hex; one undo brings the text as written back, and its
// answer; Enter on a focused hex takes it too; axe-core
// finds nothing on the page with the map. Any console or page error fails it. Run by tests/workbench_e2e.rs:
//   node map.mjs URL WHERE_JSON HEX SCREENSHOT_DIR
// WHERE_JSON: `intercept-sim where configs/naval/chain-on-the-map.toml --json`.
import { atBothWidths, fail, noAxeViolations, noOverflow, openAt } from './browser.mjs';

const [base, whereJson, hex, shots] = process.argv.slice(2);
const where = JSON.parse(whereJson);
const clicked = where.options.find((o) => o.option === hex);
const written = where.options.find((o) => o.written);

/** The exact chance the mission completes, as the odds table shows it once the answer is in. */
async function completed(page) {
  await page.waitForFunction(() => document.querySelector('#answer').dataset.state === 'ready'
    && !document.getElementById('odds').classList.contains('stale'));
  return Number(await page.getAttribute('#exact tr[data-metric="mission.completed"]', 'data-exact'));
}

async function map(browser, width) {
  const { context, page, where: at } = await openAt(browser, width, base.replace(/\/$/, '') + '/edit?path=naval/chain-on-the-map.toml');
  await page.waitForSelector('#map-section:not([hidden]) #map polygon.option');
  const hexes = await page.locator('#map polygon[data-hex]').count();
  if (hexes !== 480) fail(`${at}: the map draws ${hexes} hexes, not 480`);
  const said = await page.textContent('#where-answer');
  if (said !== where.answer) fail(`${at}: the page says ${JSON.stringify(said)}; the command line ${JSON.stringify(where.answer)}`);
  const options = await page.locator('#map polygon.option').count();
  if (options !== where.options.length) fail(`${at}: ${options} hexes are buttons, not the ${where.options.length} of the route`);
  const asWritten = await completed(page);
  await noOverflow(page, `${at} with the map`);
  await noAxeViolations(page, `${at} with the map`);
  await page.locator('#map-section').screenshot({ path: `${shots}/map-${width > 600 ? 'desktop' : 'phone'}.png` });

  // A click on a hex of the route: it, and each side's best answer below it, go into the text as one edit.
  await page.click(`#map polygon[data-hex="${hex}"]`);
  await page.waitForFunction((h) => document.querySelector('#toml').value.includes(`intercept_at = "${h}"`), hex);
  await page.waitForFunction((h) => document.querySelector(`#where-table tr[data-option="${h}"]`)?.classList.contains('base')
    && !document.getElementById('map-section').classList.contains('stale'), hex);
  const now = await completed(page);
  if (now !== clicked.value) fail(`${at}: after a click on ${hex} the answer is ${now}; where --json gives ${clicked.value}`);
  for (const pick of clicked.then) {
    if (!(await page.inputValue('#toml')).includes(`intercept_at = "${pick.choice}"`)) fail(`${at}: the line below ${hex} (${pick.act} at ${pick.choice}) is not in the text`);
  }
  await noAxeViolations(page, `${at} after a click on the map`);

  // By keyboard: the written hex's button, then one undo back.
  await page.click('#undo');
  await page.waitForFunction(({ w, h }) => document.querySelector('#toml').value.includes(`intercept_at = "${w}"`)
    && !document.querySelector('#toml').value.includes(`intercept_at = "${h}"`), { w: written.option, h: hex });
  if ((await completed(page)) !== asWritten) fail(`${at}: one undo does not bring back the answer as written`);
  await page.focus(`#map polygon[data-hex="${hex}"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((h) => document.querySelector('#toml').value.includes(`intercept_at = "${h}"`), hex);
  await context.close();
}

await atBothWidths('map', map);
