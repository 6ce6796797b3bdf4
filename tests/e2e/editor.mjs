// The scenario editor end to end, in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and a
// phone's width: the start page, the naval three-level chain opened in the editor and its answer with what it
// rests on; its groups folded to one line each with their numbers, unfolded from the keyboard; a group's
// distance typed over (the exact answer must become the command line's), and one Ctrl+Z undoing the whole
// edit, answer included; axe-core finding nothing while the answer is computed, once results are stale and
// with an error; a bad value marked on its field with the command line's message (aria-invalid, the message
// in the field's description, both gone once fixed), the error itself shown as current while every number on
// the page is greyed, readable, and labelled as belonging to an earlier version; a name typed at human speed
// (focus stays, the group relabels);
// a group added and removed keeping every comment of the file, with undo and redo; the combat model changed
// through the answer's "change" link; a Monte Carlo run to the end with its progress bar, another cancelled;
// saved into the configs folder (and over it, once asked); the share link opened in a fresh browser context;
// a scenario built with the keyboard alone from the naval starter (under 4,000 px tall on a phone, Save
// within 10 Tabs of the top through the skip link); "find value" beside an exact number, from
// the keyboard: the answer sentence and table the command line's `solve --json` gives, greyed and labelled
// when an input or the scenario changes, a reply to an old request dropped, a value that is no number refused
// with the command line's message; axe-core finding nothing at each stage; no sideways scrolling;
// screenshots. Any console error or page error fails it. Run by tests/workbench_e2e.rs:
//   node editor.mjs URL EXPECTED_COMPLETED BEFORE_COMPLETED "BAD_MESSAGE" BUILT_JSON SOLVE_JSON "DEFENDER_ANSWER"
//     SCREENSHOT_DIR
// EXPECTED_COMPLETED: the command line's exact chance with taranto 10 hexes away; BEFORE_COMPLETED: at its own 8.
// BUILT_JSON: {"toml": [lines the built scenario must hold], "completed": the command line's exact value}.
// SOLVE_JSON: {"metric", "key", "relation", "value", "answer": solve's sentence, "points": [[value, exact
// fraction], ...], "bad": {"value", "said": the command line's error}}. DEFENDER_ANSWER: the command line's answer
// sentence with taranto 10 hexes away and `naval.side = "defender"`.
import { allow, atBothWidths, fail, namedOnce, noAxeViolations, noOverflow, openAt, watch } from './browser.mjs';

const [base, expectedText, beforeText, badMessage, builtJson, solveJson, defenderAnswer, shots] = process.argv.slice(2);
const expected = Number(expectedText);
const before = Number(beforeText);
const built = JSON.parse(builtJson);
const solve = JSON.parse(solveJson);
const root = base.replace(/\/$/, '');

const completed = (page) => page.locator('#exact tr[data-metric="mission.completed"]');
const comments = (text) => text.split('\n').filter((l) => l.trim().startsWith('#'));

async function ready(page) {
  await page.waitForSelector('#answer[data-state="ready"]');
}

/** The exact answer once it is the one for `value` of mission.completed. */
async function answered(page, value) {
  await page.waitForFunction((x) => {
    const row = document.querySelector('#exact tr[data-metric="mission.completed"]');
    return row && Number(row.dataset.exact) === x && document.querySelector('#answer').dataset.state === 'ready'
      && !document.querySelector('#odds').classList.contains('stale');
  }, value);
}

async function opens(page, where) {
  await noOverflow(page, `${where} start page`);
  await noAxeViolations(page, `${where} start page`);
  await page.click('a[href="/edit?path=naval/three-level-chain.toml"]');
  await ready(page);
  const first = await page.textContent('#answer');
  if (!/58\.2%/.test(first)) fail(`${where}: the first answer is ${JSON.stringify(first)}`);
  if (!(await page.locator('#picture svg').count())) fail(`${where}: no picture of the chain`);
  const rests = await page.textContent('#assumptions');
  if (!rests.includes('combat: fixed odds') || !rests.includes('factors ignored') || !rests.includes('naval.combat.model, the default')) {
    fail(`${where}: the answer does not say it rests on the fixed combat odds: ${JSON.stringify(rests)}`);
  }
  const order = await page.$$eval('fieldset[data-item="[\\"naval\\",\\"group\\",0]"] > .field label', (ls) => ls.map((l) => l.textContent));
  // `distance` is written but not starred: it is required only without a [naval.map], which gives it.
  if (order.join() !== 'name *,target *,distance,factors *') fail(`${where}: a group's form reads ${order}`);
  await foldedGroups(page, where);
  await noAxeViolations(page, `${where} editor`);
  await namedOnce(page, `${where} editor`);
  return first;
}

/** Every group of the chain folded to one line, its name and numbers; the first unfolded from the keyboard
 * (Tab to its line, Enter), its fields then shown. */
async function foldedGroups(page, where) {
  const lines = await page.$$eval('details.item[data-key^="naval.group."]', (ds) => ds.map((d) => ({ open: d.open,
    text: d.querySelector('summary').textContent, high: d.querySelector('summary').getBoundingClientRect().height })));
  const line = Math.max(...lines.map((l) => l.high));
  if (lines.length !== 4 || lines.some((l) => l.open) || line > 40) fail(`${where}: the groups are not folded to one line each: ${JSON.stringify(lines)}`);
  // Required values first: `distance` is required only without a [naval.map], so it follows.
  if (!/^taranto: factors 20, target malta-convoy, distance 8\b/.test(lines[0].text)) fail(`${where}: taranto's line says ${JSON.stringify(lines[0].text)}`);
  await page.focus('details[data-key="naval.group.0"] > summary');
  await page.keyboard.press('Enter');
  await page.locator('#f-naval-group-0-distance').waitFor({ state: 'visible' });
}

/** `10` typed over taranto's `8` one key at a time: the answer becomes the command line's for 10, the folded
 * line follows; one Ctrl+Z (focus still in the field) gives 8 back, in the field, the text and the answer, and
 * is the only step to undo (the `1` typed on the way is none); Ctrl+Shift+Z gives 10 again. */
async function undoesOneEdit(page, where) {
  const distance = page.locator('#f-naval-group-0-distance');
  await distance.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('10', { delay: 90 });
  await answered(page, expected);
  if (!(await page.inputValue('#toml')).includes('distance = 10')) fail(`${where}: the TOML did not follow the form`);
  const line = await page.textContent('details[data-key="naval.group.0"] > summary');
  if (!line.includes('distance 10')) fail(`${where}: taranto's line did not follow the form: ${JSON.stringify(line)}`);
  await page.keyboard.press('Control+z');
  await answered(page, before);
  const [value, text, canUndo] = [await distance.inputValue(), await page.inputValue('#toml'), await page.isEnabled('#undo')];
  if (value !== '8' || !text.includes('distance = 8') || canUndo) {
    fail(`${where}: one undo after typing 10 over 8 left ${JSON.stringify(value)} in the field, ${canUndo ? 'more steps to undo' : 'no step'}`);
  }
  await page.keyboard.press('Control+Shift+z');
  await answered(page, expected);
  if ((await distance.inputValue()) !== '10') fail(`${where}: redo did not give 10 back`);
}

/** Whether each result view is greyed (drained of colour) and labelled as belonging to an earlier version. */
async function greyedAndLabelled(page, views) {
  return page.evaluate((views) => views.map((view) => {
    const v = document.querySelector(view);
    const note = v.querySelector(':scope > .stale-note');
    return { view, stale: v.classList.contains('stale'), note: note.hidden ? '' : note.textContent,
      greyed: getComputedStyle(v.querySelector(':scope > :not(.stale-note):not(h2):not(.status)')).filter.includes('grayscale') };
  }), views);
}

/** axe-core finds nothing while the answer is being computed (the reply held back), nor once it is in and the
 * Monte Carlo run beside it belongs to an earlier version: greyed results stay readable. */
async function readableWhileComputingAndStale(page, where) {
  let release;
  const held = new Promise((go) => { release = go; });
  await page.route('**/api/validate*', async (route) => { await held; await route.continue().catch(() => {}); });
  await page.locator('#f-naval-group-0-factors').fill('21');
  await page.waitForFunction(() => /Computing/.test(document.querySelector('#answer-box > .stale-note').textContent));
  const computing = await greyedAndLabelled(page, ['#answer-box', '#odds']);
  if (computing.some((v) => !v.stale || !v.greyed)) fail(`${where}: a result being computed again is not greyed: ${JSON.stringify(computing)}`);
  await noAxeViolations(page, `${where} computing`);
  release();
  await page.unroute('**/api/validate*');
  await page.waitForFunction(() => document.querySelector('#answer').dataset.state === 'ready' && !document.querySelector('#odds').classList.contains('stale'));
  const [run] = await greyedAndLabelled(page, ['#run-box']);
  if (!run.stale || !run.greyed || !/earlier version/.test(run.note)) fail(`${where}: a run on an earlier version is not greyed and labelled: ${JSON.stringify(run)}`);
  await noAxeViolations(page, `${where} stale`);
  await page.locator('#f-naval-group-0-factors').fill('20');
  await answered(page, expected);
}

/** A bad value: marked on its field for every reader (aria-invalid, the message first in its description), the
 * answer line says so as current (not greyed), every number on the page is greyed and says it belongs to an
 * earlier version, and axe-core finds nothing; fixed, the mark goes. */
async function staleWhenInvalid(page, where) {
  const distance = page.locator('#f-naval-group-0-distance');
  allow.status = 422;
  await distance.fill('-3');
  const message = page.locator('.field.invalid .message');
  await message.waitFor();
  const shown = await message.textContent();
  if (!shown.includes(badMessage)) fail(`${where}: the field says ${JSON.stringify(shown)}, not ${JSON.stringify(badMessage)}`);
  const marked = await distance.evaluate((f) => ({ invalid: f.getAttribute('aria-invalid'),
    said: (f.getAttribute('aria-describedby') || '').split(' ').map((id) => document.getElementById(id)?.textContent) }));
  if (marked.invalid !== 'true' || marked.said[0] !== shown) fail(`${where}: the bad field is not marked for a screen reader: ${JSON.stringify(marked)}`);
  await page.waitForSelector('#answer[data-state="invalid"]');
  const answer = await page.$eval('#answer', (a) => [getComputedStyle(a).filter, getComputedStyle(a).color]);
  if (answer[0] !== 'none' || answer[1] !== 'rgb(170, 0, 0)') fail(`${where}: the error in the answer line is drawn as stale: ${answer}`);
  const views = await greyedAndLabelled(page, ['#odds', '#picture-section', '#run-box']);
  for (const state of views) {
    if (!state.stale || !/earlier version/.test(state.note) || !state.greyed) fail(`${where}: ${state.view} is not greyed and labelled: ${JSON.stringify(state)}`);
  }
  await noAxeViolations(page, `${where} error`);
  await distance.fill('10');
  await answered(page, expected);
  allow.status = null;
  const fixed = await distance.evaluate((f) => [f.getAttribute('aria-invalid'), f.getAttribute('aria-describedby')]);
  if (fixed[0] !== null || fixed[1] !== 'f-naval-group-0-distance-help') fail(`${where}: the fixed field is still marked: ${fixed}`);
}

/** A name typed one key at a time: focus stays in the field, the group's legend follows. */
async function typesAName(page, where) {
  const name = page.locator('#f-naval-group-3-name');
  await page.click('details[data-key="naval.group.3"] > summary');
  await name.click();
  await name.press('End');
  await page.keyboard.type('-two', { delay: 90 });
  const [focused, value, legend] = await page.evaluate(() => [document.activeElement.id, document.activeElement.value,
    document.querySelector('fieldset[data-item="[\\"naval\\",\\"group\\",3]"] legend').textContent]);
  if (focused !== 'f-naval-group-3-name' || value !== 'flotilla-two') fail(`${where}: typing a name left focus on ${focused} with ${value}`);
  if (legend !== 'flotilla-two') fail(`${where}: the group's legend says ${legend}`);
  const line = await page.textContent('details[data-key="naval.group.3"] > summary');
  if (!line.startsWith('flotilla-two: ')) fail(`${where}: the group's line says ${JSON.stringify(line)}`);
  await page.waitForFunction(() => document.querySelector('#toml').value.includes('name = "flotilla-two"'));
  await ready(page);
}

/** "add to naval.group", fill it, remove it: every comment of the file stays; undo and redo walk it back. */
async function addsAndRemoves(page, where) {
  const before = await page.inputValue('#toml');
  allow.status = 422; // an empty group is refused until it is filled in
  await page.click('button[data-add="naval.group"]');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'f-naval-group-4-name');
  const added = await page.inputValue('#toml');
  if (comments(added).join('\n') !== comments(before).join('\n')) fail(`${where}: adding a group lost comments`);
  if (!added.includes('[[naval.group]]', added.lastIndexOf('name = "flotilla-two"'))) fail(`${where}: no new group after the last`);
  await page.click('#undo');
  await page.waitForFunction((t) => document.querySelector('#toml').value === t, before);
  await page.click('#redo');
  await page.waitForFunction((t) => document.querySelector('#toml').value === t, added);
  await page.click('button[aria-label="remove #5 from naval.group"]');
  await page.waitForFunction(() => document.querySelectorAll('fieldset[data-item^="[\\"naval\\",\\"group\\","]').length === 4);
  const removed = await page.inputValue('#toml');
  if (comments(removed).join('\n') !== comments(before).join('\n')) fail(`${where}: removing a group lost comments`);
  await page.keyboard.press('Control+z');
  await page.waitForFunction((t) => document.querySelector('#toml').value === t, added);
  await page.click('#undo');
  await page.waitForFunction((t) => document.querySelector('#toml').value === t, before);
  await ready(page);
  allow.status = null;
}

/** The answer's "change" link leads to the combat model, a select of every model; choosing strength changes
 * the answer and what it rests on. */
async function changesWhatItRestsOn(page, where) {
  await page.click('#assumptions button[aria-label="change naval.combat.model"]');
  const focused = await page.evaluate(() => document.activeElement.id);
  if (focused !== 'f-naval-combat-model') fail(`${where}: "change" focused ${focused}`);
  const models = await page.$$eval('#f-naval-combat-model option', (os) => os.map((o) => o.textContent));
  if (models.join() !== '(default "fixed"),fixed,strength') fail(`${where}: the combat models offered are ${models}`);
  await page.selectOption('#f-naval-combat-model', '"strength"');
  await page.waitForFunction(() => /combat: by strength/.test(document.querySelector('#assumptions').textContent)
    && document.querySelector('#answer').dataset.state === 'ready');
  if ((await page.textContent('#assumptions')).includes('the default')) fail(`${where}: a model set in the file is called the default`);
  await page.click('#undo');
  await answered(page, expected);
}

/** Issue 51: the side the player takes, a select among the `[naval]` keys; the defender's side gets its own
 * question answered first (the command line's sentence: its groups catching the convoy), and the table leads
 * with that metric. Undone, the moving side's answer comes back. */
async function answersTheSide(page, where) {
  // Left at its default, the side is among the keys folded under "more"; a player opens them to pick it.
  await page.click('details.more[data-key="naval.…"] > summary');
  const sides = await page.$$eval('#f-naval-side option', (os) => os.map((o) => o.textContent));
  if (sides.join() !== '(default "moving"),defender,moving') fail(`${where}: the sides offered are ${sides}`);
  await page.selectOption('#f-naval-side', '"defender"');
  await page.waitForFunction((a) => document.querySelector('#answer').textContent.includes(a)
    && document.querySelector('#answer').dataset.state === 'ready', defenderAnswer);
  const first = await page.$eval('#exact tr[data-metric]', (r) => r.dataset.metric);
  if (first !== 'mission.intercepted') fail(`${where}: for the defender the table leads with ${first}`);
  await page.click('#undo');
  await answered(page, expected);
  const back = await page.textContent('#answer');
  if (!/^The malta-convoy force completes its mission/.test(back.trim())) fail(`${where}: undone, the answer reads ${JSON.stringify(back)}`);
}

/** The find-value panel's state: greyed (stale), its note, its answer sentence. */
async function solvePanel(page) {
  return page.$eval('#solve', (v) => ({ stale: v.classList.contains('stale'), note: v.querySelector('.stale-note').hidden ? '' : v.querySelector('.stale-note').textContent,
    answer: v.querySelector('#solve-answer').textContent, greyed: getComputedStyle(v.querySelector('#solve-result')).filter.includes('grayscale') }));
}

/** "find value" beside mission.completed, from the keyboard: the panel takes the focus; the key, relation and
 * value chosen, Enter answers with the command line's `solve --json` sentence and table. A changed input or
 * scenario greys the answer and says why; a reply to an earlier request is dropped; a value that is no number
 * is refused with the command line's message and no answer shown. */
async function findsValue(page, where, width) {
  await page.focus(`#exact tr[data-metric="${solve.metric}"] button[data-solve]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'solve-heading');
  await page.waitForFunction((k) => [...document.querySelectorAll('#solve-key option')].some((o) => o.value === k), solve.key);
  const group = await page.$eval(`#solve-key option[value="${solve.key}"]`, (o) => o.parentElement.label);
  if (group !== 'set in the file') fail(`${where}: ${solve.key} is offered under ${JSON.stringify(group)}`);
  await page.selectOption('#solve-key', solve.key);
  await page.selectOption('#solve-relation', solve.relation);
  await page.fill('#solve-value', solve.value);
  await page.press('#solve-value', 'Enter');
  await page.waitForSelector('#solve-state[data-state="answered"]');
  let shown = await solvePanel(page);
  if (shown.answer !== solve.answer) fail(`${where}: the page finds ${JSON.stringify(shown.answer)}; the command line ${JSON.stringify(solve.answer)}`);
  if (shown.stale) fail(`${where}: a fresh answer is greyed: ${JSON.stringify(shown)}`);
  const rows = await page.$$eval('#solve-results tbody tr', (rs) => rs.map((r) => [Number(r.dataset.value), r.dataset.exactFraction]));
  if (JSON.stringify(rows) !== JSON.stringify(solve.points)) fail(`${where}: the table of values differs from the command line's: ${JSON.stringify(rows).slice(0, 300)}`);
  if (!(await page.textContent('#solve-results tr.base th')).startsWith('10 (current)')) fail(`${where}: the scenario's own value is not marked`);
  await noOverflow(page, `${where} find value`);
  await noAxeViolations(page, `${where} find value`);
  await page.locator('#solve').screenshot({ path: `${shots}/solve-${width > 600 ? 'desktop' : 'phone'}.png` });
  // Another value typed: the answer is for other inputs until asked again; typed back, it is current again.
  await page.fill('#solve-value', '60%');
  shown = await solvePanel(page);
  if (!shown.stale || !shown.greyed || !/other inputs/.test(shown.note)) fail(`${where}: an answer for other inputs is not greyed and labelled: ${JSON.stringify(shown)}`);
  await page.fill('#solve-value', solve.value);
  if ((await solvePanel(page)).stale) fail(`${where}: the answer for the inputs on screen is greyed`);
  // Asked, then changed before the reply: the reply belongs to the old input and is never shown as current.
  await page.fill('#solve-value', '56%');
  await page.click('#solve-find');
  await page.fill('#solve-value', '57%');
  await page.waitForTimeout(1500);
  shown = await solvePanel(page);
  if (!shown.stale || !/other inputs/.test(shown.note)) fail(`${where}: a reply to an old request is shown as current: ${JSON.stringify(shown)}`);
  // The scenario changed: the answer belongs to an earlier version; undone, it is the current one's again.
  await page.fill('#solve-value', solve.value);
  await page.locator('#f-naval-group-0-distance').fill('9');
  await page.waitForFunction(() => document.querySelector('#toml').value.includes('distance = 9'));
  shown = await solvePanel(page);
  if (!shown.stale || !shown.greyed || !/earlier version/.test(shown.note)) fail(`${where}: an answer for an earlier scenario is not greyed and labelled: ${JSON.stringify(shown)}`);
  await page.click('#undo');
  await answered(page, expected);
  shown = await solvePanel(page);
  if (shown.stale || shown.answer !== solve.answer) fail(`${where}: back on the same scenario and inputs, the answer is ${JSON.stringify(shown)}`);
  // A value that is no number: the command line's message, and no answer.
  allow.status = 400;
  await page.fill('#solve-value', solve.bad.value);
  await page.press('#solve-value', 'Enter');
  await page.waitForSelector('#solve-state[data-state="refused"]');
  allow.status = null;
  const said = await page.textContent('#solve-state');
  if (!said.includes('is not a target') || !solve.bad.said.includes(said)) fail(`${where}: a bad value says ${JSON.stringify(said)}; the command line ${JSON.stringify(solve.bad.said)}`);
  shown = await solvePanel(page);
  if (shown.answer !== '' || (await page.locator('#solve-results').count())) fail(`${where}: an answer is still shown beside the error: ${JSON.stringify(shown)}`);
  await noAxeViolations(page, `${where} find value refused`);
  await page.fill('#solve-value', solve.value);
  await page.press('#solve-value', 'Enter');
  await page.waitForSelector('#solve-state[data-state="answered"]');
}

async function monteCarlo(page, where, width) {
  await page.fill('#trials', '300000');
  await page.click('#run');
  await page.locator('#progress').waitFor({ state: 'visible' });
  await page.waitForSelector('#run-state[data-state="done"]', { timeout: 90000 });
  await page.locator('#run-result tr[data-metric="mission.completed"]').waitFor();
  const parquet = await page.getAttribute('#run-result a[href$="summary.parquet"]', 'href');
  const download = await page.request.get(root + parquet);
  if (download.status() !== 200) fail(`${where}: summary.parquet answered ${download.status()}`);
  if (!(await page.locator('#run-result a[href$="report.html"]').count())) fail(`${where}: no report link`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await noOverflow(page, `${where} editor`);
  await noAxeViolations(page, `${where} editor after Monte Carlo`);
  await page.screenshot({ path: `${shots}/editor-${width > 600 ? 'desktop' : 'phone'}.png` });
  await page.fill('#trials', '50000000');
  await page.click('#run');
  await page.waitForSelector('#run-state[data-state="running"]');
  await page.click('#cancel');
  await page.waitForSelector('#run-state[data-state="cancelled"]');
}

/** Save as a new file, then again: the second says it exists and replaces it only once asked. */
async function save(page, width) {
  const path = `naval/saved-${width}.toml`;
  await page.fill('#save-path', path);
  await page.click('#save');
  await page.waitForFunction((p) => document.querySelector('#status').textContent === `saved as ${p}`, path);
  allow.status = 409;
  await page.click('#save');
  await page.locator('#save-over').waitFor({ state: 'visible' });
  allow.status = null;
  await page.click('#save-over');
  await page.waitForFunction((p) => document.querySelector('#status').textContent === `saved as ${p}`, path);
  const saved = await page.request.get(`${root}/api/scenarios/${path}`);
  if ((await saved.text()) !== (await page.inputValue('#toml'))) fail(`${width} px: the saved file differs`);
}

async function shares(browser, page, where, width) {
  await page.click('#share');
  await page.locator('#share-url').waitFor({ state: 'visible' });
  if (!/running at this address/.test(await page.textContent('#share-box'))) fail(`${where}: the share link does not say it needs a workbench`);
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
}

/** Presses Tab until the focus is on `selector` (at most `most` times): the keyboard's way there. */
async function tabTo(page, selector, where, most = 60) {
  for (let i = 0; i < most; i++) {
    if (await page.evaluate((s) => document.activeElement && document.activeElement.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  fail(`${where}: ${selector} is not reached with Tab`);
}

/** The Tab presses from the top of the page to Save, following the skip link to it (Enter on it is no Tab). */
async function tabsToSave(page, where) {
  for (let tabs = 0; tabs <= 10; tabs++) {
    const at = await page.evaluate(() => (document.activeElement.id || document.activeElement.getAttribute('href')));
    if (at === 'save') return tabs;
    if (at === '#save-form') await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
  }
  return fail(`${where}: Save is more than 10 Tabs from the top of the page`);
}

/** From the start page to a new naval scenario with one more group, with the keyboard alone: the starter is
 * under 4,000 px tall on a phone, its groups and tables folded, and Save within 10 Tabs of the top. */
async function byKeyboard(browser, width) {
  const where = `${width} px keyboard`;
  const { context, page } = await openAt(browser, width, base);
  await tabTo(page, 'a[href="/edit?rule_set=naval"]', where);
  await page.keyboard.press('Enter');
  await ready(page);
  const tall = await page.evaluate(() => document.documentElement.scrollHeight);
  if (width < 600 && tall >= 4000) fail(`${where}: the naval starter's editor is ${tall} px tall on a phone`);
  const tabs = await tabsToSave(page, where);
  console.log(`${where}: the naval starter's editor is ${tall} px tall; Save is ${tabs} Tabs from the top`);
  await tabTo(page, 'button[data-add="naval.group"]', where, 300);
  allow.status = 422; // the new group is refused until it is filled in
  await page.keyboard.press('Enter');
  const id = await page.waitForFunction(() => /^f-naval-group-\d+-name$/.test(document.activeElement.id) && document.activeElement.id).then((h) => h.jsonValue());
  const at = id.replace(/-name$/, '');
  await page.keyboard.type('taranto', { delay: 40 });
  for (const [key, value] of [['target', built.target], ['distance', '8'], ['factors', '20']]) {
    await tabTo(page, `#${at}-${key}`, where);
    await page.keyboard.type(value, { delay: 40 });
  }
  await page.waitForFunction((lines) => lines.every((l) => document.querySelector('#toml').value.includes(l)), built.toml);
  await answered(page, built.completed);
  allow.status = null;
  await noAxeViolations(page, where);
  await context.close();
}

async function editor(browser, width) {
  const { context, page, where } = await openAt(browser, width, base);
  await opens(page, where);
  await undoesOneEdit(page, where);
  await monteCarlo(page, where, width);
  await readableWhileComputingAndStale(page, where);
  await findsValue(page, where, width);
  await staleWhenInvalid(page, where);
  await typesAName(page, where);
  await addsAndRemoves(page, where);
  await changesWhatItRestsOn(page, where);
  await answersTheSide(page, where);
  await save(page, width);
  await shares(browser, page, where, width);
  await everyValueOffered(page, where);
  await context.close();
  await byKeyboard(browser, width);
}

/** An enumerated key is a select of every value the rules allow: the cavalry target's reaction offers hedgehog
 * (a value schemars lists apart from the documented ones) beside fire, face and withdraw. */
async function everyValueOffered(page, where) {
  await page.goto(`${root}/edit?path=cavalry/charge-on-pikes.toml`);
  await ready(page);
  const offered = await page.$$eval('#f-cavalry-target-reaction option', (os) => os.map((o) => o.value).filter(Boolean));
  if (offered.join() !== '"fire","hedgehog","face","withdraw"') fail(`${where}: the reaction offers ${offered}`);
  const rests = await page.textContent('#assumptions');
  if (!rests.includes('the target prefers fire') || !rests.includes('cavalry.target.reaction, the default')) fail(`${where}: cavalry rests on ${rests}`);
}

await atBothWidths('editor', editor);
