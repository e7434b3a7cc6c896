import { expect, test } from '@playwright/test';
import { setSpeed } from './support';

// The speed note tells the truth: when the engine cannot keep up with the speed asked (48 brokers
// and 2,000 partitions at 1000×), the banner says how fast the run goes, and the simulated clock
// on the page moves at that pace. Timings themselves belong in `npm run bench:ui`.
test('the speed the banner reports is the pace of the simulated clock', async ({ page }) => {
  await page.goto('./?preset=large');
  const clock = page.getByRole('group', { name: 'Playback' }).getByRole('status', { name: 'Simulated time' });
  await expect(clock).toBeVisible();
  await setSpeed(page, 1000);
  const note = page.getByRole('status').filter({ hasText: /Running at [\d.]+× of 1000× requested/ });
  await expect(note).toBeVisible({ timeout: 30_000 });

  const simSeconds = async () => Number((await clock.textContent())?.replace(' s', ''));
  const reported: number[] = [];
  const startSim = await simSeconds();
  const startWall = Date.now();
  while (Date.now() - startWall < 6000) {
    const text = (await note.textContent()) ?? '';
    reported.push(Number(/Running at ([\d.]+)×/.exec(text)?.[1]));
    await page.waitForTimeout(500);
  }
  const measured = (await simSeconds()) - startSim;
  const measuredSpeed = measured / ((Date.now() - startWall) / 1000);
  reported.sort((a, b) => a - b);
  const median = reported[Math.floor(reported.length / 2)]!;
  // The banner's figure is the worker's last second; the clock is what the page drew: within a
  // factor of 1.5 of each other over six seconds, on a busy machine.
  expect(median).toBeGreaterThan(0);
  expect(measuredSpeed / median).toBeGreaterThan(1 / 1.5);
  expect(measuredSpeed / median).toBeLessThan(1.5);
});
