import { expect, test, type Page } from '@playwright/test';
import { linkFor, sampleCase } from '../scripts/fuzzCases';
import { decodeSession, LINK_KEY } from '../src/scenario/session';
import { openControls } from './support';

// The browser pass of the fuzz suite: mutated session links (the `links` cases of npm run fuzz,
// seeded) opened in the real page while a session runs. Each gives a clear error or opens; no
// exception escapes into the page; after a refused link the running session goes on.
const SEED = 20261201;
const CASES = 30;
const STARTUP_TIMEOUT_MS = 30_000;

/** producer-1's sent count in the Controls tab ("producer-1: 5/s to orders, 12 acked of 14 sent"). */
async function sent(page: Page): Promise<number> {
  const row = page
    .getByRole('tabpanel', { name: 'Controls' })
    .getByText(/^producer-1: .* acked of \d+ sent$/);
  const text = await row.innerText({ timeout: STARTUP_TIMEOUT_MS });
  return Number(/acked of (\d+) sent/.exec(text)![1]);
}

async function running(page: Page): Promise<void> {
  await openControls(page);
  await expect.poll(() => sent(page), { timeout: STARTUP_TIMEOUT_MS }).toBeGreaterThan(0);
}

test(`${CASES} mutated links (seed ${SEED}): a clear error or a session, never an exception, and the running session kept`, async ({
  page,
}) => {
  test.setTimeout(300_000);
  const exceptions: string[] = [];
  page.on('pageerror', (error) => exceptions.push(`${error.name}: ${error.message}`));
  await running(page);
  let refused = 0;
  for (let i = 0; i < CASES; i++) {
    const payload = linkFor(JSON.stringify(sampleCase('links', SEED + i)) ?? 'null');
    // The page's own codec decides; the spec only knows which of the two answers to wait for.
    const expected = decodeSession(payload);
    const before = await sent(page);
    await page.evaluate((hash) => (location.hash = hash), `#${LINK_KEY}=${payload}`);
    if (expected.ok) {
      await expect(page.getByRole('status', { name: 'Opened session' }), `case ${i}`).toBeVisible({
        timeout: STARTUP_TIMEOUT_MS,
      });
      // The link replaced the session, as a good link does: start over with a running producer.
      await running(page);
      continue;
    }
    refused++;
    const panel = page.getByRole('alert', { name: 'Could not open' });
    await expect(panel, `case ${i}`).toContainText(expected.issues[0]!.message.slice(0, 60));
    await expect(panel).toContainText('the running session is kept');
    expect((await panel.innerText()).length, `case ${i}: a short message`).toBeLessThan(3000);
    await panel.getByRole('button', { name: 'Dismiss' }).click();
    await expect
      .poll(() => sent(page), { message: `case ${i}: producer-1 goes on`, timeout: STARTUP_TIMEOUT_MS })
      .toBeGreaterThan(before);
  }
  expect(exceptions).toEqual([]);
  // The generator mostly makes bad links; a pass that refused none would test little.
  expect(refused).toBeGreaterThan(CASES / 2);
});
