import { expect, test, type Page } from '@playwright/test';

// The default scenario: brokers 4 to 9, topic `orders` with 6 partitions.
const BROKER_ID = /^[4-9]$/;
const STARTUP_TIMEOUT_MS = 20_000;

const simulatedSeconds = async (page: Page) =>
  parseFloat(await page.getByRole('status', { name: 'Simulated time' }).innerText());

test.beforeEach(async ({ page }) => {
  await page.goto('./');
});

test('the Dashboard shows each orders partition with a broker as leader and its HW', async ({ page }) => {
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  const table = page.getByRole('table', { name: 'Partition health' });
  await expect(table.getByRole('columnheader')).toHaveText([
    /^Partition/,
    /^Leader/,
    'Replicas',
    /^ISR/,
    'ELR',
    'Preferred leader',
    /^Under-replicated/,
    'Under min ISR',
    'Offline',
    /^HW/,
  ]);

  const orders = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^orders-\d$/ }) });
  // The topic is created and its leaders elected in the first simulated seconds: at 1× as many
  // wall seconds, after the dev server's first compile.
  await expect(orders).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  for (const [index, row] of (await orders.all()).entries()) {
    await expect(row.getByRole('rowheader')).toHaveText(`orders-${index}`);
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText(BROKER_ID, { timeout: STARTUP_TIMEOUT_MS });
    await expect(cells.nth(8)).toHaveText(/^\d+$/);
  }
});

test('the simulated clock advances while playing', async ({ page }) => {
  const clock = page.getByRole('status', { name: 'Simulated time' });
  await expect(clock).toHaveText(/^\d+\.\d s$/);
  const first = await simulatedSeconds(page);
  await expect.poll(() => simulatedSeconds(page), { timeout: 10_000 }).toBeGreaterThan(first);
});
