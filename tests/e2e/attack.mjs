// The workbench against a hostile website, in headless Chromium (Debian's /usr/bin/chromium) whose resolver
// maps evil.example to 127.0.0.1 (--host-resolver-rules), as a DNS-rebinding attacker's record would:
//   1. Rebinding: a page of http://evil.example:PORT/ (the attacker's document, served before the switch)
//      fetches the configs folder and overwrites a config on the workbench's own port. Both are refused
//      (421) and the file is unchanged.
//   2. Cross-site: a page of another origin sends what it can without the server's consent: a no-cors fetch
//      with text/plain, an HTML form POST, a CORS fetch with application/toml (its preflight is refused).
//      No job starts.
// Then the workbench's own page does the same things and they work, so the refusals are the server's and
// not the browser's. Run by tests/workbench_e2e.rs:
//   node attack.mjs URL SCREENSHOT_DIR
import { fail, launch } from './browser.mjs';

const [base] = process.argv.slice(2);
const port = new URL(base).port;
const victim = `http://127.0.0.1:${port}`;
const config = '/api/scenarios/naval/three-level-chain.toml';

const browser = await launch([
  '--host-resolver-rules=MAP evil.example 127.0.0.1',
  // Chromium's own Local Network Access checks would stop these pages' requests before they reach the
  // server; they are off so that what is tested is the server's defence, the only one other browsers have.
  '--disable-features=LocalNetworkAccessChecks',
]);

/** A page whose document at `url` is the attacker's own (every other request goes to the network). */
async function attackerPage(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: '<!DOCTYPE html><title>a game review</title><p>hello</p>' }));
  await page.goto(url);
  return page;
}

/** The workbench's own view of the config and its jobs, asked from outside the browser. */
async function truth(page) {
  const text = await (await page.request.get(victim + config)).text();
  const status = await (await page.request.get(victim + '/api/status')).json();
  return { text, jobs: status.jobs.running + status.jobs.queued };
}

try {
  const probe = await browser.newContext();
  const before = await truth(await probe.newPage());
  if (!before.text.includes('malta-convoy') || before.jobs !== 0) fail(`the workbench is not as expected: ${JSON.stringify(before)}`);

  // 1. DNS rebinding: same origin as far as the browser knows, another Host as far as the server does.
  const rebound = await attackerPage(`http://evil.example:${port}/`);
  const seen = await rebound.evaluate(async (path) => {
    const read = await fetch(path);
    const write = await fetch(path + '?overwrite=1', { method: 'PUT', headers: { 'content-type': 'application/toml' }, body: '[run]\nname = "pwned"\n' });
    const run = await fetch('/api/run?trials=3000000', { method: 'POST', headers: { 'content-type': 'application/toml' }, body: '[run]\n' });
    return { read: read.status, body: await read.text(), write: write.status, run: run.status };
  }, config);
  if (seen.read !== 421 || seen.write !== 421 || seen.run !== 421) fail(`rebinding: the server answered ${JSON.stringify(seen)}`);
  if (seen.body.includes('malta-convoy')) fail('rebinding: the page read the config');

  // 2. Another site posting to 127.0.0.1 directly.
  const other = await attackerPage('http://evil.example:9/');
  const tried = await other.evaluate(async ({ victim, toml }) => {
    const out = {};
    try {
      await fetch(victim + '/api/run?trials=3000000', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: toml });
      out.noCors = 'sent';
    } catch (e) { out.noCors = 'failed: ' + e.message; } // the request is sent; the answer's CORP header fails it
    try {
      const r = await fetch(victim + '/api/run?trials=3000000', { method: 'POST', headers: { 'content-type': 'application/toml' }, body: toml });
      out.cors = 'answered ' + r.status;
    } catch (e) { out.cors = 'refused'; }
    return out;
  }, { victim, toml: before.text });
  if (!tried.cors.startsWith('refused')) fail(`cross-site: a CORS POST got through: ${JSON.stringify(tried)}`);
  await other.setContent(`<form method="post" action="${victim}/api/run?trials=3000000" enctype="text/plain">
    <input name="[run]" value=""><button id="go">go</button></form>`);
  await Promise.all([other.waitForNavigation(), other.click('#go')]);
  const formAnswer = await other.textContent('body');
  if (!/Content-Type|another site/.test(formAnswer)) fail(`cross-site: the form POST was answered ${formAnswer}`);

  const after = await truth(await probe.newPage());
  if (after.text !== before.text) fail('the config changed');
  if (after.jobs !== 0) fail(`${after.jobs} job(s) started by another site (${JSON.stringify(tried)})`);

  // The workbench's own page can do all of it.
  const own = await (await browser.newContext()).newPage();
  await own.goto(victim + '/');
  const mine = await own.evaluate(async (path) => {
    const read = await fetch(path);
    const run = await fetch('/api/run?trials=1000', { method: 'POST', headers: { 'content-type': 'application/toml' }, body: await read.clone().text() });
    return { read: read.status, run: run.status };
  }, config);
  if (mine.read !== 200 || mine.run !== 202) fail(`the workbench's own page was refused: ${JSON.stringify(mine)}`);
  console.log(`attacks refused: rebinding ${JSON.stringify({ read: seen.read, write: seen.write, run: seen.run })}, ` +
    `cross-site ${JSON.stringify(tried)}, form answered ${JSON.stringify(formAnswer.slice(0, 60))}`);
  console.log('attack end to end: ok');
} finally {
  await browser.close();
}
