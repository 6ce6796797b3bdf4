// The scenario editor end to end, in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and a
// phone's width: the start page, the naval three-level chain opened in the editor, a group's distance changed
// in the form (the exact answer must become the command line's), a bad value marked on its field with the
// command line's message, a Monte Carlo run to the end with its progress bar, another cancelled, the share
// link opened in a fresh browser context, saved into the configs folder (and over it, once confirmed), no sideways scrolling, screenshots. Any console error or page
// error fails it. Run by tests/workbench_e2e.rs:
//   node editor.mjs URL EXPECTED_COMPLETED "BAD_MESSAGE" SCREENSHOT_DIR
import { allow, atBothWidths, fail, noOverflow, openAt, watch } from './browser.mjs';

const [base, expectedText, badMessage, shots] = process.argv.slice(2);
const expected = Number(expectedText);




const completed = (page) => page.locator('#exact tr[data-metric="mission.completed"]');

async function ready(page) {
  await page.waitForSelector('#answer[data-state="ready"]');
}

async function editor(browser, width) {
  const { context, page, where } = await openAt(browser, width, base);
  await noOverflow(page, `${where} start page`);
  await page.click('a[href="/edit?path=naval/three-level-chain.toml"]');
  await ready(page);
  const first = await page.textContent('#answer');
  if (!/58\.2%/.test(first)) fail(`${where}: the first answer is ${JSON.stringify(first)}`);
  if (!(await page.locator('#picture svg').count())) fail(`${where}: no picture of the chain`);

  const distance = page.locator('#f-naval-group-0-distance');
  await distance.fill('10');
  await page.waitForFunction((x) => {
    const row = document.querySelector('#exact tr[data-metric="mission.completed"]');
    return row && Number(row.dataset.exact) === x && document.querySelector('#answer').dataset.state === 'ready';
  }, expected);
  if (!(await page.inputValue('#toml')).includes('distance = 10')) fail(`${where}: the TOML did not follow the form`);
  const answer = await page.textContent('#answer');
  if (answer === first) fail(`${where}: the answer sentence did not change`);

  allow.status = 422;
  await distance.fill('-3');
  const message = page.locator('.field.invalid .message');
  await message.waitFor();
  const shown = await message.textContent();
  if (!shown.includes(badMessage)) fail(`${where}: the field says ${JSON.stringify(shown)}, not ${JSON.stringify(badMessage)}`);
  await distance.fill('10');
  await ready(page);
  allow.status = null;
  if (Number(await completed(page).getAttribute('data-exact')) !== expected) fail(`${where}: the answer did not come back`);

  await page.fill('#trials', '300000');
  await page.click('#run');
  await page.locator('#progress').waitFor({ state: 'visible' });
  await page.waitForSelector('#run-state[data-state="done"]', { timeout: 90000 });
  await page.locator('#run-result tr[data-metric="mission.completed"]').waitFor();
  const parquet = await page.getAttribute('#run-result a[href$="summary.parquet"]', 'href');
  const download = await page.request.get(base.replace(/\/$/, '') + parquet);
  if (download.status() !== 200) fail(`${where}: summary.parquet answered ${download.status()}`);
  if (!(await page.locator('#run-result a[href$="report.html"]').count())) fail(`${where}: no report link`);

  await page.evaluate(() => window.scrollTo(0, 0));
  await noOverflow(page, `${where} editor`);
  await page.screenshot({ path: `${shots}/editor-${width > 600 ? 'desktop' : 'phone'}.png` });

  await page.fill('#trials', '50000000');
  await page.click('#run');
  await page.waitForSelector('#run-state[data-state="running"]');
  await page.click('#cancel');
  await page.waitForSelector('#run-state[data-state="cancelled"]');


  await save(page, width);

  await page.click('#share');
  await page.locator('#share-url').waitFor({ state: 'visible' });
  const link = await page.inputValue('#share-url');
  const toml = await page.inputValue('#toml');
  const fresh = await browser.newContext({ viewport: { width, height: 900 } });
  const other = await fresh.newPage();
  watch(other, `${where} shared link`);
  await other.goto(link);
  await ready(other);
  if ((await other.inputValue('#toml')) !== toml) fail(`${where}: the shared link shows another scenario`);
  if ((await other.inputValue('#seed')) !== (await page.inputValue('#seed'))) fail(`${where}: the shared seed differs`);
  if (Number(await completed(other).getAttribute('data-exact')) !== expected) fail(`${where}: the shared answer differs`);
  await fresh.close();
  await context.close();
}

/** Save as a new file, then again: the second asks to overwrite (409), and does once confirmed. */
async function save(page, width) {
  const path = `naval/saved-${width}.toml`;
  const asked = [];
  const answer = (d) => { asked.push(d.type()); return d.type() === 'prompt' ? d.accept(path) : d.accept(); };
  page.on('dialog', answer);
  await page.click('#save');
  await page.waitForFunction((p) => document.querySelector('#status').textContent === `saved as ${p}`, path);
  await page.evaluate(() => { document.querySelector('#status').textContent = ''; });
  allow.status = 409;
  await page.click('#save');
  await page.waitForFunction((p) => document.querySelector('#status').textContent === `saved as ${p}`, path);
  allow.status = null;
  page.off('dialog', answer);
  if (asked.join() !== 'prompt,prompt,confirm') fail(`${width} px: save asked ${asked.join()}`);
  const saved = await page.request.get(`${base.replace(/\/$/, '')}/api/scenarios/${path}`);
  if ((await saved.text()) !== (await page.inputValue('#toml'))) fail(`${width} px: the saved file differs`);
}

await atBothWidths('editor', editor);
