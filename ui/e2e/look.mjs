// Screenshots of each tab against a running server, for a look by hand: node e2e/look.mjs URL OUT
import { chromium } from 'playwright-core';
const [url, out] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox',
  '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
page.on('console', (m) => console.log(`console.${m.type()}: ${m.text()}`));
page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
await page.goto(url);
for (const tab of ['Sources', 'Processing', 'Search', 'Chat', 'Knowledge bases', 'Graph']) {
  await page.getByRole('tab', { name: tab }).click();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/${tab.replace(' ', '-').toLowerCase()}.png`, fullPage: true });
}
await browser.close();
