// Fork and compare, in the side panel's Compare tab: an experiment runs both branches from now and
// every row says what it counts and why the two sides differ.
import { expect, test } from '@playwright/test';
import { seriousViolations } from './support';

test('acks=1 vs acks=all: acks=1 loses the acknowledged records, and each row says why', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await page.getByRole('tab', { name: 'Compare' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Compare' });
  await panel
    .getByLabel('Experiment')
    .selectOption({ label: 'acks=1 vs acks=all, and the leader crashes before its followers fetched' });
  await expect(panel.getByLabel('Topic')).toHaveValue('orders', { timeout: 30_000 });
  await panel.getByRole('button', { name: 'Run both from now' }).click();

  const table = panel.getByRole('table', { name: /orders-0, 60 simulated seconds/ });
  await expect(table).toBeVisible({ timeout: 150_000 });
  await expect(table.getByRole('columnheader', { name: 'acks=1' })).toBeVisible();
  const lost = table.getByRole('row', { name: /^Acknowledged records lost/ });
  await expect(lost.getByRole('cell')).toHaveText(['10', '0']);
  await expect(
    table.getByRole('rowheader', { name: 'Acknowledged records lost' }),
  ).toHaveAccessibleDescription(
    /acks=1: broker \d acknowledged 10 records .* truncated .* acks=all: the leader acknowledges a record only once every in-sync replica has it/,
  );
  await expect(
    table.getByRole('rowheader', { name: "Experiment's records acknowledged (of 10)" }),
  ).toHaveAccessibleDescription(/NETWORK_EXCEPTION/);

  // Which producer saw which error: the experiment's acks=all side, from the crashed leader.
  const compare = panel.getByRole('list', { name: 'What compare saw' });
  await expect(compare.getByRole('listitem').first()).toContainText('acks=1: sent 10 with acks=1');
  await expect(compare.getByRole('listitem').first()).toContainText('No errors.');
  await expect(compare.getByRole('listitem').nth(1)).toContainText(
    /NETWORK_EXCEPTION ×\d+ \(from broker \d\)/,
  );
  await expect(panel.getByRole('list', { name: 'What producer-1 saw' })).toBeVisible();
  await expect(panel.getByRole('definition').first()).toContainText(
    "The producer's connection to a broker broke",
  );

  expect(await seriousViolations(page)).toEqual([]);

  // The canvas keeps its size while the results show.
  const canvas = await page.getByRole('region', { name: 'Cluster', exact: true }).boundingBox();
  expect(canvas!.height).toBeGreaterThan(400);
  await panel.getByRole('button', { name: 'Clear the results' }).click();
  await expect(table).toBeHidden();
});
