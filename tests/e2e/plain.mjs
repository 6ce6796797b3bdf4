// Every kind of page of the workbench over plain HTTP at an address that is not loopback, as other machines
// open an exposed workbench, in headless Chromium (Debian's /usr/bin/chromium): its resolver maps
// workbench.lan to 127.0.0.1 (--host-resolver-rules), and the server allows that name (--allow-host) and asks
// for its token (--token). Such an origin is no secure context, and a header the browser ignores there (as it
// does Cross-Origin-Opener-Policy) is logged as a console error on every page. The start page is opened with
// the printed token, then one page of each kind it links to (the editor on a file and on a starter, the
// calculators, the game), each until the network is idle; any console or page error fails it. Run by
// tests/workbench_e2e.rs:
//   node plain.mjs URL SCREENSHOT_DIR   (URL as the server printed it: http://127.0.0.1:PORT/?token=T)
import { fail, launch, problems, watch } from './browser.mjs';

const [printed] = process.argv.slice(2);
const url = new URL(printed);
const token = url.searchParams.get('token');
if (!token) fail(`no token in ${printed}`);
const base = `http://workbench.lan:${url.port}`;

/** A page's kind: its path and the names of its query's parameters. */
function kind(href) {
  const u = new URL(href, base);
  return `${u.pathname}?${[...u.searchParams.keys()].sort().join('&')}`;
}

const browser = await launch(['--host-resolver-rules=MAP workbench.lan 127.0.0.1']);
try {
  const page = await (await browser.newContext()).newPage();
  watch(page, 'plain HTTP');
  await page.goto(`${base}/?token=${token}`, { waitUntil: 'networkidle' });
  if (page.url() !== `${base}/`) fail(`the token's address was not sent on to the start page: ${page.url()}`);
  if (await page.evaluate(() => window.isSecureContext)) fail(`${base} is a secure context: this test shows nothing`);
  const links = await page.$$eval('a[href^="/"]', (as) => as.map((a) => a.getAttribute('href')));
  const pages = new Map();
  for (const href of links.filter((h) => !/^\/(api|assets)\//.test(h))) if (!pages.has(kind(href))) pages.set(kind(href), href);
  for (const wanted of ['/edit?path', '/edit?rule_set', '/calc?', '/play/board?']) {
    if (!pages.has(wanted)) fail(`the start page links no page ${wanted}: ${[...pages.keys()]}`);
  }
  for (const href of pages.values()) await page.goto(base + href, { waitUntil: 'networkidle' });
  console.log(`opened over plain HTTP at ${base}: / ${[...pages.values()].join(' ')}`);
} finally {
  await browser.close();
}
if (problems.length) fail(problems.join('\n'));
console.log('plain HTTP end to end: ok');
