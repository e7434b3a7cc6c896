import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { setSpeed } from './support';

// The Regions tab on the two-regions preset: a primary cluster in eu-west-1, a standby in
// eu-central-1 fed by MirrorMaker every 500 ms, and producer-1 writing 20 records/s with acks=all.
// Waits are in simulated terms (the speed is raised through the UI), never fixed sleeps.
const TIMEOUT_MS = 30_000;

test.setTimeout(90_000);

test('the standby region trails by a visible lag; losing the primary shows the records it never received', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./?preset=two-regions');
  await expect(page.getByRole('status', { name: /^Active controller: \d+/ })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await page.getByRole('tab', { name: 'Regions' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Regions' });
  await expect(panel.getByRole('heading', { name: 'Regions' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: /eu-west-1 \(primary\)/ })).toBeVisible();
  await expect(panel.getByRole('heading', { name: /eu-central-1 \(standby\)/ })).toBeVisible();
  await setSpeed(page, 10);

  // The lag table, one row per mirrored partition, once MirrorMaker has copied records.
  const lag = panel.getByRole('table', { name: 'Mirror lag per partition' });
  await expect(lag.getByRole('rowheader', { name: 'orders-0' })).toBeVisible({ timeout: TIMEOUT_MS });
  await expect(lag.getByRole('columnheader', { name: 'Lag (ms)' })).toBeVisible();
  await expect
    .poll(async () => Number(await lag.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()), {
      timeout: TIMEOUT_MS,
    })
    .toBeGreaterThan(5);
  await expect(panel.getByRole('table', { name: /Standby partitions/ })).toBeVisible();
  // The canvas draws the standby region as a card beside the cluster.
  await expect(page.getByLabel(/^Standby region eu-central-1, mirrors orders from eu-west-1/)).toBeVisible();

  await panel.getByRole('button', { name: 'Lose primary region' }).click();
  await expect(panel.getByText(/is lost \(RegionLost\)/)).toBeVisible({ timeout: TIMEOUT_MS });
  await expect(panel.getByRole('button', { name: 'Lose primary region' })).toBeDisabled();
  await expect(panel.getByRole('heading', { name: /eu-west-1 \(primary\) ✕ lost/ })).toBeVisible();

  await expect(
    page.getByLabel(/^Standby region eu-central-1, .*primary lost, \d+ acked missing/),
  ).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  const report = panel.getByRole('heading', { name: 'Failover report' });
  await expect(report).toBeVisible({ timeout: TIMEOUT_MS });
  await expect(panel.getByText(/acknowledged record\(s\) the standby never received/)).toBeVisible();
  const missing = panel.getByRole('table', { name: /Missing records/ });
  await expect(missing).toBeVisible();
  expect(await missing.getByRole('row').count()).toBeGreaterThan(1);
  await expect(missing.getByRole('cell', { name: /^producer-1-\d+$/ }).first()).toBeVisible();

  const results = await new AxeBuilder({ page }).include('[role="tabpanel"]:not([hidden])').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('without a mirror, the Regions tab says how to get one', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('tab', { name: 'Regions' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Regions' });
  await expect(panel.getByText(/runs in one region only/)).toBeVisible({ timeout: TIMEOUT_MS });
  await expect(panel.getByRole('link', { name: 'Two regions preset' })).toHaveAttribute(
    'href',
    '?preset=two-regions',
  );
});

test('lesson 13 plays the regional failover: predict, lose the region, see the reveal', async ({ page }) => {
  await page.goto('./?lesson=two-regions');
  const lesson = page.getByRole('region', { name: 'Lesson: Two regions: mirroring is asynchronous' });
  await expect(lesson.getByRole('heading', { name: 'The cluster starts' })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await lesson.getByRole('button', { name: 'Next step' }).click({ timeout: TIMEOUT_MS });
  await expect(lesson.getByRole('heading', { name: 'MirrorMaker copies, a moment later' })).toBeVisible();
  await lesson.getByRole('button', { name: 'Next step' }).click({ timeout: TIMEOUT_MS });
  await expect(lesson.getByRole('heading', { name: 'Lose the primary region' })).toBeVisible();
  await lesson.getByRole('button', { name: /^2\. No: the newest acknowledged records/ }).click();
  await lesson.getByRole('button', { name: 'Do it for me' }).click();
  await expect(lesson.getByRole('status', { name: 'Reveal' })).toContainText('Right', {
    timeout: TIMEOUT_MS,
  });
  await page.getByRole('tab', { name: 'Regions' }).click();
  await expect(
    page.getByRole('tabpanel', { name: 'Regions' }).getByRole('table', { name: /Missing records/ }),
  ).toBeVisible();
});
