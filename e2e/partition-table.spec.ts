import { expect, test, type Page } from '@playwright/test';

// The default scenario: brokers 4 to 9, topic `orders` with 6 partitions.
const BROKER_ID = /^[4-9]$/;
const STARTUP_TIMEOUT_MS = 20_000;

const simulatedSeconds = async (page: Page) =>
  parseFloat(await page.getByRole('status', { name: 'Simulated time' }).innerText());

test.beforeEach(async ({ page }) => {
  await page.goto('./');
});

test('the Partitions table shows each orders partition with a broker as leader and its HW', async ({
  page,
}) => {
  const table = page.getByRole('table', { name: 'Partitions' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Topic',
    'Partition',
    'Leader',
    'Replicas',
    'ISR',
    'HW',
  ]);

  const orders = table
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'orders', exact: true }) });
  // The topic is created and its leaders elected in the first simulated seconds: at 1× as many
  // wall seconds, after the dev server's first compile.
  await expect(orders).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  for (const [index, row] of (await orders.all()).entries()) {
    const cells = row.getByRole('cell');
    await expect(cells.nth(1)).toHaveText(String(index));
    await expect(cells.nth(2)).toHaveText(BROKER_ID, { timeout: STARTUP_TIMEOUT_MS });
    await expect(cells.nth(5)).toHaveText(/^\d+$/);
  }
});

test('the simulated clock advances while playing', async ({ page }) => {
  const clock = page.getByRole('status', { name: 'Simulated time' });
  await expect(clock).toHaveText(/^\d+\.\d s$/);
  const first = await simulatedSeconds(page);
  await expect.poll(() => simulatedSeconds(page), { timeout: 10_000 }).toBeGreaterThan(first);
});
