import { expect, test } from '@playwright/test';
import { seriousViolations } from './support';

// The Vital signs tab on the default scenario: brokers 4 to 9, topic `orders` with
// replication factor 3 and min.insync.replicas=2. A clean run violates no invariant.
const TIMEOUT_MS = 30_000;

const CHART_TITLES = [
  'Offline partitions',
  'Under-replicated partitions',
  'Under min ISR partitions',
  'ISR shrinks and expands',
  'Produce throughput by acks',
  'Produce latency by acks',
  'Consumer lag',
  'Controller elections',
  'Metadata lag',
  'Bytes in and out',
];

test.setTimeout(90_000);

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await expect(page.getByRole('status', { name: /^Active controller: \d+/ })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await page.getByRole('tab', { name: 'Vital signs' }).click();
});

test('the Vital signs tab charts the cluster over simulated time', async ({ page }) => {
  const panel = page.getByRole('tabpanel', { name: 'Vital signs' });
  await expect(panel.getByRole('heading', { name: 'Vital signs' })).toBeVisible();
  for (const title of CHART_TITLES) await expect(panel.getByRole('figure', { name: title })).toBeVisible();
  // Each chart has a sentence for screen readers, with the value now and the maximum.
  await expect(
    panel.getByText(/^Under-replicated partitions: now \d+, max \d+ over the last \d+ s\.$/),
  ).toBeAttached({
    timeout: TIMEOUT_MS,
  });
  // The default scenario's consumer group gets a consumer lag line.
  await expect(panel.getByText(/^Consumer lag: now \d+, max \d+ over the last \d+ s\.$/)).toBeAttached({
    timeout: TIMEOUT_MS,
  });
});

test('a clean run shows no invariant violated, and each partition’s failure budget', async ({ page }) => {
  const panel = page.getByRole('tabpanel', { name: 'Vital signs' });
  await expect(panel.getByText('No invariant violated')).toBeVisible({ timeout: TIMEOUT_MS });
  const budget = panel.getByRole('table', { name: 'Failure budget per partition' });
  const row = budget.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'orders-0' }) });
  // RF 3, min.insync.replicas 2, full ISR: one loss before NOT_ENOUGH_REPLICAS, two before offline.
  await expect(row.getByRole('cell')).toHaveText(['3 / 3', '1', '2'], { timeout: TIMEOUT_MS });
});

test('a topic with min.insync.replicas = replication factor is flagged as having no tolerance', async ({
  page,
}) => {
  // Wait until the brokers have registered and lead orders-0 (a topic needs unfenced brokers).
  const budget = page.getByRole('table', { name: 'Failure budget per partition' });
  await expect(
    budget
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'orders-0' }) })
      .getByRole('cell')
      .first(),
  ).toHaveText('3 / 3', { timeout: TIMEOUT_MS });
  await page.getByRole('tab', { name: 'Controls' }).click();
  const form = page.getByRole('form', { name: 'Create a topic' });
  await form.getByLabel('Topic name').fill('payments');
  await form.getByLabel('Replication factor').fill('3');
  await form.getByLabel('min.insync.replicas').fill('3');
  await form.getByRole('button', { name: 'Create topic' }).click();
  await page.getByRole('tab', { name: 'Vital signs' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Vital signs' });
  await expect(panel.getByRole('note')).toContainText(
    'No tolerance: topic payments has min.insync.replicas = 3 and replication factor 3',
    { timeout: TIMEOUT_MS },
  );
  const row = panel.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^payments-0/ }) });
  await expect(row.getByRole('rowheader')).toContainText('⚠ no tolerance');
  await expect(row.getByRole('cell').nth(1)).toHaveText('0');
});

test('the capacity view reproduces the seed example', async ({ page }) => {
  const panel = page.getByRole('tabpanel', { name: 'Vital signs' });
  const form = panel.getByRole('form', { name: 'Capacity plan' });
  await expect(form.getByLabel('Write rate (MB/s)')).toHaveValue('100');
  await expect(form.getByLabel('Retention (days)')).toHaveValue('3');
  await expect(form.getByLabel('Replication factor')).toHaveValue('3');
  await expect(form.getByLabel('Consumer groups')).toHaveValue('10');
  await expect(form.getByLabel('Brokers')).toHaveValue('6');
  const results = panel.getByRole('definition');
  await expect(results).toHaveText(['77.76 TB', '12.96 TB', '50 MB/s', '200 MB/s']);
  await expect(panel.getByText(/100 MB\/s × 259200 s × 3 copies = 77\.76 TB/)).toBeVisible();

  // Twice the brokers: the same total, half per broker.
  await form.getByLabel('Brokers').fill('12');
  await expect(results).toHaveText(['77.76 TB', '6.48 TB', '25 MB/s', '100 MB/s']);
  // More copies than brokers cannot be placed.
  await form.getByLabel('Brokers').fill('2');
  await expect(panel.getByRole('alert')).toHaveText(/replication factor 3 cannot exceed the 2 brokers/);
});

test('the Vital signs tab has no serious or critical accessibility violations', async ({ page }) => {
  await expect(page.getByText('No invariant violated')).toBeVisible({ timeout: TIMEOUT_MS });
  expect(await seriousViolations(page)).toEqual([]);
});
