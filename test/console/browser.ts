// Debian's chromium, headless, driven by playwright-core. Never skipped: a missing browser fails the tests.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the console tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium), or CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** A fresh tab (its own session storage) on the console, signed in with the token through the login form. */
export async function signedIn(browser: Browser, baseUrl: string, token: string, fragment = ''): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/console/${fragment}`);
  await page.getByLabel('Bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('nav').getByText('CronTab', { exact: true }).waitFor();
  return page;
}
