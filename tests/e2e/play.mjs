// The game page end to end, in headless Chromium (Debian's /usr/bin/chromium), at a desktop's and a phone's
// width: from the opening, a legal turn played by clicking (a square of the board, then one of its turns); the
// tree-search player's answer (with the page busy and its buttons disabled while it thinks, and its turn then
// among the turns played); its best turn and playout score (never called a chance); the evaluation shown after
// each (the bar's two percentages summing to 100 and equal to the API's win chance for the position, the
// expected line, why in a sentence, the same answer the API gives for the same position and seed), greyed as
// stale once the position changes; the difficulty chosen sent as the search's budget; taking back; a set-up
// refused in one line, then a position set up by hand and played from; game N of a self-play run replayed
// and stepped through, its result line the command line's; no sideways scrolling; screenshots. Accessibility:
// the same turn found and played by keyboard alone, the board and its squares named from the position, a
// legend, board text at least 11 px on screen, one h1 and every button named once, and axe-core finding no
// violation in the opening, after a turn, setting up and with a replay shown. Any console error or page
// error fails it. Run by tests/workbench_e2e.rs:
//   node play.mjs URL RULE_SET EXPECTED_JSON SCREENSHOT_DIR
// EXPECTED_JSON: {"config": PATH_IN_CONFIGS, "game": N, "result": TEXT, "turns": COUNT,
//                 "square": SQUARE, "turn": TURN_ID, "names": {SQUARE: ACCESSIBLE_NAME},
//                 "place": {"piece": ID, "square": SQUARE}, "refused": TEXT}
import { allow, atBothWidths, fail, namedOnce, noAxeViolations, noOverflow, openAt } from './browser.mjs';

const [base, table, expectedJson, shots] = process.argv.slice(2);
const expected = JSON.parse(expectedJson);




const idle = (page) => page.waitForFunction(() => !document.body.classList.contains('busy'));
const status = (page) => page.textContent('#status');
const history = (page) => page.$$eval('#history li', (lis) => lis.map((li) => li.textContent));
const board = (page) => page.innerHTML('#board');

/**
 * Every advice the page asks for, in order, as `{body, answer}` (the request's JSON body and the answer's):
 * a promise per request, settled once its answer has been read.
 */
function recordAdvice(page) {
  const asked = [];
  page.on('request', (r) => {
    if (r.method() !== 'POST' || !r.url().endsWith('/advice')) return;
    asked.push(r.response().then(async (reply) => ({ body: JSON.parse(r.postData()), answer: await reply.json() })));
  });
  return asked;
}

/** The advice asked for since `from` (an index into what `recordAdvice` records). */
const adviceSince = (asked, from) => Promise.all(asked.slice(from));

/** The API's advice for `body`, asked again outside the page (so not recorded as the page's own). */
async function askApi(page, body) {
  const reply = await page.request.post(`${base.replace(/\/$/, '')}/api/play/${table}/advice`, { data: body });
  if (!reply.ok()) fail(`the API refuses ${JSON.stringify(body).slice(0, 80)}: ${await reply.text()}`);
  return reply.json();
}

/**
 * The evaluation shown is `evaluation` (the API's, for the position the board shows) and the expected line
 * `line`: the panel current (not greyed), its bar and text splitting 100% between the sides as the side to
 * move's chance says, labelled as that chance, calibrated; the line's turns; the why sentence.
 */
async function evaluationShown(page, where, evaluation, line) {
  await page.locator('#evaluation').waitFor();
  const seen = await page.evaluate(() => {
    const panel = document.querySelector('#evaluation');
    const bar = document.querySelector('#eval-bar');
    const visible = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const width = (e) => e.getBoundingClientRect().width;
    return {
      stale: panel.classList.contains('stale'), toMove: shown.status.to_move, panelToMove: panel.dataset.toMove,
      text: document.querySelector('#eval-text').textContent, barShown: visible(bar) && width(bar) > 20,
      parts: [...bar.children].map((c) => width(c) / width(bar)), label: bar.getAttribute('aria-label'), title: bar.title,
      line: document.querySelector('#line').textContent, lineShown: visible(document.querySelector('#line')),
      turns: document.querySelector('#line').dataset.turns,
      why: document.querySelector('#why').textContent, whyShown: visible(document.querySelector('#why')),
    };
  });
  if (seen.stale) fail(`${where}: the evaluation is marked stale for the position it was asked for`);
  if (!seen.barShown) fail(`${where}: the evaluation bar is not shown`);
  const m = /^White (\d+)% · Black (\d+)%$/.exec(seen.text);
  if (!m) fail(`${where}: the evaluation reads ${JSON.stringify(seen.text)}`);
  const [white, black] = [Number(m[1]), Number(m[2])];
  const whiteChance = seen.toMove === 'white' ? evaluation.win_chance : 1 - evaluation.win_chance;
  if (white + black !== 100 || white !== Math.round(100 * whiteChance) || seen.panelToMove !== seen.toMove) {
    fail(`${where}: the bar reads ${seen.text} with ${seen.toMove} to move; the API's win chance for the side to move is ${evaluation.win_chance}`);
  }
  if (Math.abs(seen.parts[0] - white / 100) > 0.02 || Math.abs(seen.parts[1] - black / 100) > 0.02) {
    fail(`${where}: the bar's parts are ${seen.parts.map((p) => p.toFixed(3))} of it for ${seen.text}`);
  }
  for (const said of [seen.label, seen.title]) {
    if (!/side to move/.test(said) || !/calibrated in self-play/.test(said)) fail(`${where}: the bar is labelled ${JSON.stringify(said)}`);
  }
  if (!seen.label.startsWith(seen.text)) fail(`${where}: the bar's name ${JSON.stringify(seen.label)} does not give ${seen.text}`);
  const texts = line.map((t) => t.text).join(', ');
  if (!seen.lineShown || seen.turns !== line.map((t) => t.id).join(' ') || (line.length && seen.line !== `Expected line: ${texts}`)) {
    fail(`${where}: the line reads ${JSON.stringify(seen.line)} (${seen.turns}), not the search's ${texts}`);
  }
  if (!seen.whyShown || !seen.why.trim() || seen.why !== evaluation.why) {
    fail(`${where}: why reads ${JSON.stringify(seen.why)}, not ${JSON.stringify(evaluation.why)}`);
  }
}

/** The difficulty chosen is the budget the page sends. */
function budgetSent(where, body, want) {
  if (body.budget !== want) fail(`${where}: the page asked with budget ${body.budget}, not the difficulty's ${want}`);
}

async function statusIs(page, pattern, where) {
  const ok = await page.waitForFunction((p) => new RegExp(p).test(document.querySelector('#status').textContent),
    pattern.source, { timeout: 30000 }).catch(() => null);
  if (!ok) fail(`${where}: the status reads ${JSON.stringify(await status(page))}, not ${pattern}`);
}

/** Clicks the middle of a square of the board picture. */
async function clickSquare(page, square) {
  await page.locator(`#board rect[data-square="${square}"]`).click({ force: true });
}

/** Records whether the busy line showed and every button was disabled while the engine was asked. */
async function watchBusy(page) {
  await page.evaluate(() => {
    window.sawBusy = false;
    const look = () => {
      const shown = !document.querySelector('#busy').hidden;
      const locked = [...document.querySelectorAll('button')].every((b) => b.disabled);
      if (shown && locked) window.sawBusy = true;
    };
    new MutationObserver(look).observe(document.body, { subtree: true, attributes: true, childList: true });
  });
}

async function playATurn(page, where) {
  await clickSquare(page, expected.square);
  const ids = await page.$$eval('#turns button', (bs) => bs.map((b) => b.dataset.turn));
  if (!ids.length || !ids.every((id) => id.startsWith(expected.square))) fail(`${where}: ${expected.square}'s turns are ${ids}`);
  if (!ids.includes(expected.turn)) fail(`${where}: ${expected.turn} is not among ${ids}`);
  const before = await board(page);
  await page.click(`#turns button[data-turn="${expected.turn}"]`);
  await statusIs(page, /to move · 1 turns played/, where);
  if ((await board(page)) === before) fail(`${where}: the board did not change after ${expected.turn}`);
  if ((await history(page)).length !== 1) fail(`${where}: the turns played are ${await history(page)}`);
}

/** What the focused element is: a square of the board, a turn's button, or neither. */
const focused = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return { square: e?.dataset?.square ?? null, turn: e?.dataset?.turn ?? null };
});

/** Presses `key` until `done(focused)`, at most `most` times; false if it never is. */
async function pressUntil(page, key, done, most) {
  for (let i = 0; i < most; i++) {
    if (done(await focused(page))) return true;
    await page.keyboard.press(key);
  }
  return done(await focused(page));
}

/**
 * Keyboard only, from the opening: Tab reaches the board, the arrow keys walk to the square, Enter lists its
 * turns; Tab reaches its turn, Enter plays it, and the focus comes back to the board. Then taken back.
 */
async function byKeyboard(page, where) {
  await page.evaluate(() => document.activeElement?.blur());
  if (!(await pressUntil(page, 'Tab', (f) => f.square, 12))) fail(`${where}: Tab never reaches a square of the board`);
  const from = (await focused(page)).square;
  const [dx, dy] = [expected.square.charCodeAt(0) - from.charCodeAt(0), Number(expected.square.slice(1)) - Number(from.slice(1))];
  for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowUp' : 'ArrowDown');
  const at = (await focused(page)).square;
  if (at !== expected.square) fail(`${where}: the arrow keys from ${from} led to ${at}, not ${expected.square}`);
  await page.keyboard.press('Enter');
  const ids = await page.$$eval('#turns button', (bs) => bs.map((b) => b.dataset.turn));
  if (!ids.length || !ids.every((id) => id.startsWith(expected.square))) fail(`${where}: Enter on ${at} lists the turns ${ids}`);
  if (!(await pressUntil(page, 'Tab', (f) => f.turn === expected.turn, 40))) fail(`${where}: Tab never reaches ${expected.turn}`);
  await page.keyboard.press('Enter');
  await statusIs(page, /to move · 1 turns played/, where);
  await idle(page);
  const back = await focused(page);
  if (!back.square) fail(`${where}: after a turn played by keyboard the focus is not on the board`);
  await page.click('#undo');
  await statusIs(page, /^white to move · 0 turns played/, where);
  await idle(page);
}

/** The board's name and its squares' names, from the position: what a screen reader says of them. */
async function boardNames(page, where) {
  const name = await page.getAttribute('#board svg', 'aria-label');
  if (name !== 'Board, white to move, after 0 turns') fail(`${where}: the board is named ${JSON.stringify(name)}`);
  for (const [square, text] of Object.entries(expected.names)) {
    const label = await page.getAttribute(`#board rect[data-square="${square}"]`, 'aria-label');
    if (label !== text) fail(`${where}: ${square} is named ${JSON.stringify(label)}, not ${JSON.stringify(text)}`);
  }
  const legend = await page.$$eval('.legend dt', (dts) => dts.length);
  if (!legend) fail(`${where}: no legend beside the board`);
}

/** Every text of every board at least 11 CSS pixels on screen, at the scale the picture is shown at. */
async function readable(page, where) {
  const small = await page.$$eval('.board svg text', (ts) => ts.map((t) => {
    const svg = t.ownerSVGElement;
    const px = parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [t.textContent.trim(), px];
  }).filter(([, px]) => px < 11));
  if (small.length) fail(`${where}: board text smaller than 11 px: ${small.slice(0, 5).map(([t, px]) => `${t} ${px.toFixed(1)} px`).join(', ')}`);
}

async function engineAnswers(page, where, asked) {
  const before = await board(page);
  const legal = await page.$$eval('#turns button', (bs) => bs.map((b) => b.textContent));
  const from = asked.length;
  await watchBusy(page);
  await page.click('#engine-move');
  await statusIs(page, /to move · 2 turns played/, where);
  await idle(page);
  if (!(await page.evaluate(() => window.sawBusy))) fail(`${where}: no busy state with the buttons disabled while the engine thought`);
  const played = await history(page);
  const reply = played[1] && played[1].split(': ').pop();
  if (played.length !== 2 || !legal.includes(reply)) fail(`${where}: the engine's reply ${JSON.stringify(played)} is not one of ${legal}`);
  if ((await board(page)) === before) fail(`${where}: the board did not change after the engine's turn`);
  // Its turn at the difficulty chosen (Medium unless changed), then the evaluation of the position it left,
  // which the API gives the same whatever the seed and budget, and the rest of its line, which starts there.
  const [search, after] = await adviceSince(asked, from);
  budgetSent(`${where} engine's turn`, search.body, Number(await page.inputValue('#difficulty')));
  if (search.answer.turn.text !== reply || search.answer.line[0].id !== search.answer.turn.id) {
    fail(`${where}: the engine played ${reply}; its search answered ${JSON.stringify(search.answer.turn)}, line ${JSON.stringify(search.answer.line)}`);
  }
  const position = await page.evaluate(() => shown.position);
  const again = await askApi(page, { position, seed: 99, budget: 5 });
  if (JSON.stringify(again.evaluation) !== JSON.stringify(after.answer.evaluation)) {
    fail(`${where}: the page shows ${JSON.stringify(after.answer.evaluation)} after the engine's turn; the API says ${JSON.stringify(again.evaluation)}`);
  }
  await evaluationShown(page, `${where} after the engine's turn`, again.evaluation, search.answer.line.slice(1));
}

/** Asks the engine at the difficulty worth `budget` playouts: what the page asked for and was answered. */
async function askAt(page, asked, budget) {
  const from = asked.length;
  await page.selectOption('#difficulty', String(budget));
  await page.click('#ask');
  await page.waitForSelector('#advice[data-turn]');
  await idle(page);
  const [sent] = await adviceSince(asked, from);
  return sent;
}

async function advice(page, where, asked) {
  // Easy, then Hard (left chosen for the screenshot): each its own budget sent.
  const easy = await askAt(page, asked, 100);
  budgetSent(`${where} advice at Easy`, easy.body, 100);
  await evaluationShown(page, `${where} advice at Easy`, easy.answer.evaluation, easy.answer.line);
  const { body, answer } = await askAt(page, asked, 10000);
  budgetSent(`${where} advice at Hard`, body, 10000);
  const [turn, score, text] = await page.$eval('#advice', (a) => [a.dataset.turn, Number(a.dataset.playoutScore), a.textContent]);
  if (!(score >= 0 && score <= 1)) fail(`${where}: the playout score is ${score}`);
  if (/win chance|%/.test(text) || !/not a chance of winning|wins at once/.test(text)) fail(`${where}: the advice reads ${JSON.stringify(text)}`);
  const best = await page.$$eval('#turns button.best', (bs) => bs.map((b) => b.dataset.turn));
  if (best.length !== 1 || best[0] !== turn) fail(`${where}: the best turn ${turn} is marked on ${best}`);
  if (!(await page.textContent('#advice')).includes(turn)) fail(`${where}: the advice does not show ${turn}`);
  // The line starts with the turn advised, and the page shows the API's answer for the same position and seed.
  if (answer.turn.id !== turn || answer.line[0].id !== turn) fail(`${where}: the advice ${turn} but the line ${JSON.stringify(answer.line)}`);
  const again = await askApi(page, body);
  if (JSON.stringify(again) !== JSON.stringify(answer)) fail(`${where}: the API answers the same request with ${JSON.stringify(again)}, not ${JSON.stringify(answer)}`);
  await evaluationShown(page, `${where} advice at Hard`, answer.evaluation, answer.line);
}

async function takeBack(page, where, asked) {
  await page.click('#undo');
  await statusIs(page, /to move · 1 turns played/, where);
  if ((await history(page)).length !== 1) fail(`${where}: taking back left ${await history(page)}`);
  // The evaluation shown was the later position's: greyed under a note until the engine is asked again.
  const [stale, note] = await page.$eval('#evaluation', (p) => {
    const said = p.querySelector('.stale-note');
    return [p.classList.contains('stale'), said.hidden ? '' : said.textContent];
  });
  if (!stale || !/earlier position/.test(note)) fail(`${where}: after taking back the evaluation is ${stale ? '' : 'not '}stale, its note ${JSON.stringify(note)}`);
  // Asked again with the second side to move: the bar gives the first side the rest of the chance.
  const { answer } = await askAt(page, asked, 100);
  if ((await page.evaluate(() => shown.status.to_move)) === 'white') fail(`${where}: white to move after taking back one turn of two`);
  await evaluationShown(page, `${where} advice after taking back`, answer.evaluation, answer.line);
}

async function setUp(page, where) {
  await page.click('#setup');
  await page.locator('#setup-panel').waitFor();
  await idle(page);
  await page.click('#setup-clear');
  await idle(page);
  allow.status = 422;
  await page.click('#setup-play');
  await page.locator('#error').waitFor({ state: 'visible' });
  await idle(page);
  allow.status = null;
  const refused = await page.textContent('#error');
  if (refused !== expected.refused) fail(`${where}: the empty board is refused with ${JSON.stringify(refused)}, not ${JSON.stringify(expected.refused)}`);
  await page.click('#setup-cancel');
  await idle(page);
  await page.click('#setup');
  await idle(page);
  await noAxeViolations(page, `${where} setting up`);
  await namedOnce(page, `${where} setting up`);
  await page.check(`#palette input[value="${expected.place.piece}"]`);
  const before = await board(page);
  await clickSquare(page, expected.place.square);
  await idle(page);
  if ((await board(page)) === before) fail(`${where}: placing ${expected.place.piece} on ${expected.place.square} changed nothing`);
  await page.selectOption('#setup-side', 'white');
  await idle(page);
  await page.click('#setup-play');
  await statusIs(page, /^white to move · 0 turns played/, where);
  if ((await history(page)).length) fail(`${where}: a set-up position starts with turns played`);
  await clickSquare(page, expected.place.square);
  const ids = await page.$$eval('#turns button', (bs) => bs.map((b) => b.dataset.turn));
  if (!ids.length) fail(`${where}: the placed piece on ${expected.place.square} has no turns`);
  await page.click(`#turns button[data-turn="${ids[0]}"]`);
  await statusIs(page, /to move · 1 turns played/, where);
  await page.click('#engine-move');
  await statusIs(page, /to move · 2 turns played/, where);
  await idle(page);
}

async function replay(page, where) {
  await page.selectOption('#replay-config', expected.config);
  await page.fill('#replay-game', String(expected.game));
  await page.click('#replay-form button[type="submit"]');
  await page.locator('#replay-view').waitFor();
  await idle(page);
  const line = await page.textContent('#replay-result');
  const want = `Game ${expected.game}: ${expected.result}`;
  if (line !== want) fail(`${where}: the replay's result reads ${JSON.stringify(line)}, not ${JSON.stringify(want)}`);
  const at = async (text) => {
    await idle(page);
    const shown = await page.textContent('#replay-at');
    if (shown !== text) fail(`${where}: the replay is at ${JSON.stringify(shown)}, not ${JSON.stringify(text)}`);
  };
  await at(`position 0 of ${expected.turns}`);
  await noAxeViolations(page, `${where} replay shown`);
  await namedOnce(page, `${where} replay shown`);
  await readable(page, `${where} replay shown`);
  await page.click('#replay-next');
  await at(`position 1 of ${expected.turns}`);
  await page.click('#replay-next');
  await at(`position 2 of ${expected.turns}`);
  await page.click('#replay-prev');
  await at(`position 1 of ${expected.turns}`);
  await page.click('#replay-last');
  await at(`position ${expected.turns} of ${expected.turns}`);
  await page.click('#replay-take');
  await idle(page);
  await statusIs(page, /^Game over after/, where);
}

async function game(browser, width) {
  const { context, page, where } = await openAt(browser, width, `${base.replace(/\/$/, '')}/play/${table}`);
  const asked = recordAdvice(page);
  await statusIs(page, /^white to move · 0 turns played/, where);
  await idle(page);
  await boardNames(page, where);
  await readable(page, where);
  await namedOnce(page, `${where} opening`);
  await noAxeViolations(page, `${where} opening`);
  await byKeyboard(page, where);
  await playATurn(page, where);
  await noAxeViolations(page, `${where} after a turn`);
  await engineAnswers(page, where, asked);
  await advice(page, where, asked);
  await namedOnce(page, `${where} after the advice`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await noOverflow(page, `${where} game page`);
  await page.screenshot({ path: `${shots}/board-${width > 600 ? 'desktop' : 'phone'}.png` });
  await takeBack(page, where, asked);
  await setUp(page, where);
  await replay(page, where);
  await noOverflow(page, `${where} game page after the replay`);
  await context.close();
}

await atBothWidths('game', game);
