// What every browser script of tests/workbench_e2e.rs shares: Debian's Chromium launched headless through
// playwright-core (never a downloaded browser), console and page errors collected as failures, the check that
// a page does not scroll sideways, and the run at a desktop's and a phone's width.
import { chromium } from 'playwright-core';

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

/** `run(browser, width)` at 1280 px and at 390 px in one browser; fails on any problem seen, else says ok. */
export async function atBothWidths(what, run) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    await run(browser, 1280);
    await run(browser, 390);
  } finally {
    await browser.close();
  }
  if (problems.length) fail(problems.join('\n'));
  console.log(`${what} end to end: ok`);
}
