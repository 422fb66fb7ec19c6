// End to end in a real browser (Debian's Chromium driven by playwright-core) against a real polyrag server:
//   node e2e/e2e.mjs full  URL OUT KEY FILE...   upload FILEs (one is expected to be skipped), watch them process,
//                                                search, ask, open a citation, switch tabs and come back, draw and
//                                                expand the graph; with KEY, first see the 401 state and enter it
//   node e2e/e2e.mjs local URL OUT               a server in local (no-key) mode: load, search, a figure
// Saves a screenshot of every tab under OUT and fails on any console error or warning, or page error. In full mode
// it then saves every tab again at 1280 and 390 px wide, in the light and the dark theme (TAB-WIDTH-THEME.png, e.g.
// search-390-dark.png), each checked by axe-core too, and notes any that is wider than the window.
// Prints one JSON line of what it saw last.
import { chromium } from 'playwright-core';
import path from 'node:path';
import { createRequire } from 'node:module';

import fs from 'node:fs';

// Evaluated through the DevTools protocol, which the page's CSP (rightly) does not let a script tag do.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const [mode, url, out, key, ...files] = process.argv.slice(2);
const executablePath = process.env.POLYRAG_TEST_CHROMIUM ?? '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
const page = await context.newPage();
const problems = [];
page.on('console', (m) => {
  if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
});
page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
const seen = {};
const step = (name) => console.error(`e2e: ${name}`);
const tab = async (name) => {
  await page.getByRole('tab', { name, exact: true }).click();
  await page.getByRole('tabpanel').waitFor();
};
// axe-core (WCAG 2.1 A and AA rules) on the page as shown: a serious or critical violation is a failure like a
// console error.
const axeCheck = async (name) => {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a',
    'wcag21aa'] }));
  for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
    problems.push(`axe (${name}): ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }
};
// Each screenshot of the flow also runs axe (counted in axeChecked).
const shot = async (name) => {
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
  await axeCheck(name);
  seen.axeChecked = (seen.axeChecked ?? 0) + 1;
};
// Every tab at each width and theme, chosen with the header's Theme picker: a screenshot, axe (counted in
// themedShots, not axeChecked), and whether the page is wider than the window (listed in overflowX).
const TABS = [['Sources', 'sources'], ['Processing', 'processing'], ['Search', 'search'], ['Chat', 'chat'],
  ['Knowledge bases', 'knowledge-bases'], ['Graph', 'graph']];
const themedShots = async () => {
  seen.themedShots = 0;
  seen.overflowX = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    for (const theme of ['light', 'dark']) {
      await page.getByLabel('Theme', { exact: true }).selectOption(theme);
      await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
      for (const [label, file] of TABS) {
        // Not exact: the Processing tab's name carries its badge ("Processing 1 running") while a job runs.
        await page.getByRole('tab', { name: new RegExp(`^${label}`) }).click();
        await page.getByRole('tabpanel').waitFor();
        await page.waitForTimeout(300);
        const name = `${file}-${width}-${theme}`;
        await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
        await axeCheck(name);
        const wider = await page.evaluate(() => document.documentElement.scrollWidth
          - document.documentElement.clientWidth);
        if (wider > 0) seen.overflowX.push(`${name}: ${wider}px`);
        seen.themedShots += 1;
      }
    }
  }
  await page.getByLabel('Theme', { exact: true }).selectOption('system');
  await page.setViewportSize({ width: 1280, height: 860 });
};
const T = { timeout: 60_000 };

try {
  await page.goto(url);
  if (mode === 'local') {
    await tab('Search');
    await page.getByLabel('Query').fill('polyrag');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.results .muted').first().waitFor(T);
    seen.localHits = await page.locator('.hit').count();
    await shot('local-search');
    // A report with a chart: the hit about it shows the figure's image, fetched and decoded by the browser.
    await page.getByLabel('Query').fill('quarterly sales by region');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The previous query's hits stay on screen until the new ones arrive, and one of them has a figure too.
    await page.waitForFunction(() => document.querySelector('.hit')?.textContent.includes('Regional sales report'),
      null, T);
    const img = page.locator('.hit .figure img').first();
    await img.waitFor(T);
    await page.waitForFunction(() => { const i = document.querySelector('.hit .figure img');
      return i && i.complete && i.naturalWidth > 0; }, null, T);
    seen.figureWidth = await img.evaluate((i) => i.naturalWidth);
    seen.figureCaption = await page.locator('.hit .figure figcaption').first().innerText();
    await shot('figures');
  } else {
    if (key) {
      step('the 401 state, then the key');
      await page.getByRole('alert').filter({ hasText: 'needs a valid API key' }).waitFor(T);
      seen.unauthorizedShown = true;
      await shot('unauthorized');
      await page.getByLabel('API key').fill(key);
      await page.getByRole('button', { name: 'Use key' }).click();
      await page.getByText('API key set').waitFor();
    }
    step('empty state');
    await tab('Processing');
    seen.emptyState = await page.getByText('Add your first source').first().isVisible();
    await shot('processing-empty');

    step('upload: the staging verdict');
    await tab('Sources');
    await page.getByLabel('Files', { exact: true }).setInputFiles(files);
    await page.getByRole('heading', { name: 'Staging verdict' }).waitFor(T);
    seen.accepted = await page.locator('.verdict li.accepted').count();
    seen.skipped = await page.locator('.verdict li.skipped').count();
    seen.skippedReason = (await page.locator('.verdict li.skipped').first().textContent()) ?? '';
    await shot('sources');

    step('configure, then edit the live form: the snapshot must not change');
    await page.getByRole('button', { name: 'Configure processing' }).click();
    await page.getByRole('heading', { name: /^Configured:/ }).waitFor();
    const configured = await page.getByRole('heading', { name: /^Configured:/ }).textContent();
    await tab('Sources');
    await page.getByLabel('Knowledge base').fill('changed-later');
    await tab('Processing');
    seen.snapshotKept = (await page.getByRole('heading', { name: /^Configured:/ }).textContent()) === configured;
    seen.syncToggleForUpload = await page.getByLabel(/Keep in sync/).count();
    seen.skipGraphToggle = await page.getByLabel(/Skip the graph/).count();

    step('start and watch it process');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('tr[data-status="succeeded"], tr[data-status="partial"]').first().waitFor(T);
    seen.finalStatus = await page.locator('table.runs tbody tr').first().getAttribute('data-status');
    seen.progress = await page.locator('table.runs progress').first().getAttribute('value');
    await shot('processing');

    const site = process.env.POLYRAG_TEST_E2E_SITE;
    if (site) {
      step('a web site: the form, then its crawl');
      await tab('Sources');
      await page.getByLabel(/A web site/).check();
      await page.getByLabel('Source id').fill('site');
      await page.getByLabel('Start URL').fill(site);
      await page.getByLabel('Link depth').fill('2');
      await shot('sources-web');
      await page.getByRole('button', { name: 'Configure processing' }).click();
      seen.webSyncToggle = await page.getByLabel(/Keep in sync/).count();
      await page.getByRole('button', { name: 'Start' }).click();
      await page.locator('table.runs tbody tr').filter({ hasText: 'site' }).first()
        .locator('td .pill', { hasText: 'succeeded' }).waitFor(T);
      seen.webRuns = await page.locator('table.runs tbody tr[data-status="succeeded"]').count();
      await shot('processing');

      step('sync sources: the site listed, paused and resumed');
      await tab('Sources');
      await page.locator('table.source-list tr[data-source="site"]').waitFor(T);
      seen.sourcesListed = await page.locator('table.source-list tbody tr[data-source]').count();
      await page.getByRole('button', { name: 'Pause site', exact: true }).click();
      await page.locator('table.source-list tr[data-source="site"][data-enabled="false"]').waitFor(T);
      seen.sourcePaused = true;
      await page.getByRole('button', { name: 'Resume site', exact: true }).click();
      await page.locator('table.source-list tr[data-source="site"][data-enabled="true"]').waitFor(T);
      seen.sourceResumed = true;
    }

    step('search');
    await tab('Search');
    await page.getByLabel('Query').fill('Radium Institute Paris');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.hit').first().waitFor(T);
    seen.hits = await page.locator('.hit').count();
    seen.marked = await page.locator('.hit mark').count();
    seen.modalityChips = await page.locator('.hit .chip').count();
    await page.locator('.hit details.explain summary').first().click();
    await shot('search');

    step('chat: a streamed answer, a citation opened');
    await tab('Chat');
    await page.getByLabel('Your question').fill('Where did Marie Curie work?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.citeref').first().waitFor(T);
    seen.answer = (await page.locator('.reply .answer-text').first().textContent()) ?? '';
    await page.locator('.citeref').first().click();
    await page.locator('aside.citation .passage.hit').first().waitFor();
    seen.citationPassages = await page.locator('aside.citation .passage').count();
    await page.getByLabel('Your question').fill('an unsent draft');
    await shot('chat');

    step('switch tabs and come back: input and results survive');
    await tab('Knowledge bases');
    await tab('Search');
    seen.queryKept = await page.getByLabel('Query').inputValue();
    seen.hitsKept = await page.locator('.hit').count();
    await tab('Chat');
    seen.draftKept = await page.getByLabel('Your question').inputValue();
    seen.turnsKept = await page.locator('.turn').count();

    step('knowledge bases: documents with per-store status');
    await tab('Knowledge bases');
    await page.getByRole('button', { name: 'default', exact: true }).click();
    await page.locator('.documents tbody tr').first().waitFor(T);
    seen.documents = await page.locator('.documents tbody tr').count();
    await page.locator('.documents tbody tr button[aria-expanded]').first().click();
    await page.locator('dl.stores dt').first().waitFor(T);
    seen.stores = await page.locator('dl.stores dt').allTextContents();
    await shot('knowledge-bases');

    step('graph: find, draw, expand');
    await tab('Graph');
    await page.getByLabel('Entity name').fill('Curie');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.locator('ul.entities button').first().waitFor(T);
    await page.locator('ul.entities button', { hasText: 'Marie Curie' }).first().click();
    await page.locator('.cy[data-nodes]:not([data-nodes="0"]):not([data-nodes="1"])').waitFor(T);
    const before = Number(await page.locator('.cy').getAttribute('data-nodes'));
    seen.graphNodes = before;
    const next = page.locator('.relations li button').first();
    seen.expandedTo = await next.textContent();
    await next.click();
    await page.getByRole('heading', { name: new RegExp(`^${seen.expandedTo}`) }).waitFor(T);
    await page.waitForTimeout(300);
    seen.graphNodesAfterExpand = Number(await page.locator('.cy').getAttribute('data-nodes'));
    seen.graphExpanded = Number(await page.locator('.cy').getAttribute('data-expanded'));
    seen.graphEdges = Number(await page.locator('.cy').getAttribute('data-edges'));
    await shot('graph');

    step('every tab at 1280 and 390 px wide, light and dark');
    await themedShots();
  }
} catch (e) {
  await shot('failure').catch(() => {});
  problems.push(`step failed: ${e.message.split('\n')[0]}`);
}
await browser.close();
console.log(JSON.stringify({ ...seen, problems }));
process.exit(problems.length ? 1 : 0);
