import { expect, test, type Page } from '@playwright/test';
import { setSpeed } from './support';

// Shared links and time travel, as a person uses them (docs/sharing.md).
const STARTUP_TIMEOUT_MS = 30_000;

/** What the canvas says of each broker and each replica on it: leader, in-sync follower, LEO, HW. */
async function picture(page: Page): Promise<string[]> {
  const canvas = page.getByRole('application', { name: 'Cluster canvas' });
  const brokers = canvas.getByRole('group', { name: /^Broker \d+/ });
  const names: string[] = [];
  for (const broker of await brokers.all()) {
    names.push((await broker.getAttribute('aria-label')) ?? '');
    for (const replica of await broker.getByRole('img').all())
      names.push((await replica.getAttribute('aria-label')) ?? '');
  }
  return names;
}

/** Copies the link of the current moment; returns it and the state hash the page reports. */
async function copyLink(page: Page): Promise<{ link: string; hash: string }> {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
  const note = await page.getByText(/state hash [0-9a-z]+/).innerText();
  const [, hash] = /state hash ([0-9a-z]+)/.exec(note) ?? [];
  if (hash === undefined) throw new Error(`No state hash in "${note}"`);
  return { link, hash };
}

async function sceneWithACrash(page: Page): Promise<void> {
  await page.goto('./');
  const broker4 = page.getByRole('group', { name: /^Broker 4, .*leader of/ });
  await expect(broker4).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  await setSpeed(page, 10);
  await page.getByRole('button', { name: 'Send' }).click();
  await broker4.click();
  await page.getByRole('button', { name: 'Crash node 4' }).first().click();
  // The controller fences broker 4 (a marker on the timeline, or a cluster with the elections that
  // move its leaderships at the same instant).
  await expect(
    page.getByRole('button', { name: /^Fencing at|^\d+ markers .*: Fencing/ }).first(),
  ).toBeAttached({
    timeout: STARTUP_TIMEOUT_MS,
  });
  await page.getByRole('button', { name: 'Pause' }).click();
}

test('a copied link opens the same moment in a new page: same hash, same leaders and ISRs', async ({
  page,
  context,
}) => {
  await sceneWithACrash(page);
  const before = await picture(page);
  const { link, hash } = await copyLink(page);
  expect(link).toMatch(/#s=1\.[0-9a-f]{8}\./);

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('status', { name: 'Opened session' })).toContainText(
    `State hash ${hash} matches the link.`,
    { timeout: STARTUP_TIMEOUT_MS },
  );
  await expect.poll(() => picture(other)).toEqual(before);
});

test('rewinding and replaying to the same moment gives the same hash', async ({ page }) => {
  await sceneWithACrash(page);
  const { hash } = await copyLink(page);
  const clock = page.getByRole('status', { name: 'Simulated time' });
  const position = await clock.innerText();
  // Rewind to the start, step forward through a few events and back, then return to the moment.
  await page.getByRole('button', { name: 'Rewind to the start' }).click();
  await expect(clock).toHaveText('0.0 s');
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Step forward one event' }).click();
  await page.getByRole('button', { name: 'Step back one event' }).click();
  await page.getByRole('button', { name: 'Go to the end of the branch' }).click();
  await expect(clock).toHaveText(position);
  const again = await copyLink(page);
  expect(again.hash).toBe(hash);
});

test('a corrupt, truncated or oversized link shows its problems and keeps the running session', async ({
  page,
}) => {
  await sceneWithACrash(page);
  const { link } = await copyLink(page);
  const before = await page.getByRole('status', { name: 'Simulated time' }).innerText();
  for (const [bad, problem] of [
    [link.slice(0, link.length - 30), /truncated|checksum|corrupted/],
    [link.replace(/#s=1\.[0-9a-f]{8}/, '#s=1.00000000'), /checksum mismatch/],
    [`${link.split('#')[0]}#s=1.00000000.${'A'.repeat(40_000)}`, /the limit is/],
    [`${link.split('#')[0]}#s=7.00000000.AAAA`, /newer than this simulator/],
  ] as const) {
    await page.evaluate((hash) => (location.hash = hash), bad.slice(bad.indexOf('#')));
    const panel = page.getByRole('alert', { name: 'Could not open' });
    await expect(panel).toContainText(problem);
    await expect(panel).toContainText('the running session is kept');
    await panel.getByRole('button', { name: 'Dismiss' }).click();
  }
  expect(await page.getByRole('status', { name: 'Simulated time' }).innerText()).toBe(before);
});

test('a session file is imported with the same checks: a bad file lists its problems, a good one opens', async ({
  page,
}) => {
  await sceneWithACrash(page);
  const input = page.getByLabel('Import a session or scenario file');
  await input.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ version: 1, seed: 1, nodes: [], topics: [{ name: 'x' }] })),
  });
  const panel = page.getByRole('alert', { name: 'Could not open' });
  await expect(panel).toContainText('file broken.json');
  await expect(panel).toContainText('scenario.nodes');
  await expect(panel).toContainText('scenario.topics[0].partitions');
  await panel.getByRole('button', { name: 'Dismiss' }).click();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await (await download).path();
  await input.setInputFiles(file);
  await expect(page.getByRole('status', { name: 'Opened session' })).toContainText('matches the file', {
    timeout: STARTUP_TIMEOUT_MS,
  });
});
