// What every browser script of tests/workbench_e2e.rs shares: Debian's Chromium launched headless through
// playwright-core (never a downloaded browser), console and page errors collected as failures, the check that
// a page does not scroll sideways, axe-core's accessibility rules, and the run at a desktop's and a phone's width.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

// axe-core's script, read once from npm's package.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Every console or page error seen, each failing the script at its end. */
export const problems = [];
/** The 4xx status the step under way provokes on purpose: the browser logs it, and only it is allowed. */
export const allow = { status: null };

export function fail(message) {
  throw new Error(message);
}

export function watch(page, where) {
  page.on('pageerror', (e) => problems.push(`${where}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (allow.status && m.text().includes(`status of ${allow.status}`)) return;
    problems.push(`${where}: console error: ${m.text()} (${m.location().url})`);
  });
}

/** A page of its own context at `width` (a phone's height below 600 px), watched for errors, open at `url`. */
export async function openAt(browser, width, url) {
  const where = `${width} px`;
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 1000 : 844 } });
  const page = await context.newPage();
  watch(page, where);
  await page.goto(url);
  return { context, page, where };
}

export async function noOverflow(page, where) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > inner) fail(`${where}: the page scrolls sideways (${scroll} px wide in a ${inner} px window)`);
}

/**
 * Runs axe-core on the page as it stands and fails listing every violation: its rule id, impact and the
 * elements it found it on. The workbench's CSP (script-src 'self') refuses page.addScriptTag's inline script
 * (tried: Chromium blocks it and logs a console error), so axe's source is evaluated through page.evaluate,
 * which DevTools runs outside the page's CSP; the page's own policy stays in force for everything else.
 */
export async function noAxeViolations(page, where) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  if (found.length) fail(`${where}: axe-core finds ${found.length} violation(s):\n  ${found.join('\n  ')}`);
}

/**
 * One h1 on the page, and a name of its own for every button shown (buttons, and the summaries of details,
 * which act as buttons): its aria-label, else its text.
 */
export async function namedOnce(page, where) {
  const h1 = await page.$$eval('h1', (hs) => hs.length);
  if (h1 !== 1) fail(`${where}: ${h1} h1 headings, not one`);
  const names = await page.$$eval('button, summary, [role="button"]', (bs) => bs
    .filter((b) => b.getClientRects().length)
    .map((b) => (b.getAttribute('aria-label') || b.textContent).trim()));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) fail(`${where}: buttons share a name: ${[...new Set(twice)].join(', ')}`);
}

/** Debian's Chromium, headless, as root may start it, with `extra` flags. */
export function launch(extra = []) {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extra],
  });
}

/** `run(browser, width)` at 1280 px and at 390 px in one browser; fails on any problem seen, else says ok. */
export async function atBothWidths(what, run) {
  const browser = await launch();
  try {
    await run(browser, 1280);
    await run(browser, 390);
  } finally {
    await browser.close();
  }
  if (problems.length) fail(problems.join('\n'));
  console.log(`${what} end to end: ok`);
}
