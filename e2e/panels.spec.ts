import { expect, test, type Locator, type Page } from '@playwright/test';
import { raiseSpeed } from './support';

// The default scenario: brokers 4 to 9; topic `orders` with 6 partitions, replication factor 3 and
// min.insync.replicas=2. With two replicas of orders-0 crashed and fenced (broker.session.timeout.ms
// = 9 s of simulated time), a write with acks=all to orders-0 is refused with NOT_ENOUGH_REPLICAS.
const TIMEOUT_MS = 60_000;

test.setTimeout(120_000);

/** The leader and the other replicas of orders-0, read from the Dashboard. */
async function ordersZero(page: Page) {
  const row = page
    .getByRole('tabpanel', { name: 'Dashboard' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'orders-0', exact: true }) });
  const cells = row.getByRole('cell');
  await expect(cells.nth(0)).toHaveText(/^\d+$/, { timeout: TIMEOUT_MS });
  const leader = Number(await cells.nth(0).innerText());
  const replicas = (await cells.nth(1).innerText()).split(',').map((id) => Number(id.trim()));
  return { leader, followers: replicas.filter((id) => id !== leader) };
}

const underMinIsr = (page: Page) =>
  page.getByRole('status', { name: /^Under min ISR partitions: [1-9]\d*$/ });

test('with two replicas of orders-0 down, a produce with acks=all shows NOT_ENOUGH_REPLICAS', async ({
  page,
}) => {
  await page.goto('./');
  await raiseSpeed(page);
  await expect(page.getByRole('status', { name: 'Under min ISR partitions: 0' })).toBeVisible();

  await page.getByRole('tab', { name: 'Dashboard' }).click();
  const { followers } = await ordersZero(page);
  expect(followers).toHaveLength(2);

  await page.getByRole('tab', { name: 'Inspector' }).click();
  const inspector = page.getByRole('tabpanel', { name: 'Inspector' });
  for (const broker of followers) {
    await inspector.getByLabel('Inspect', { exact: true }).selectOption({ label: `Broker ${broker}` });
    await expect(inspector.getByRole('heading', { name: `Inspector: Broker ${broker}` })).toBeVisible();
    await inspector.getByRole('button', { name: `Crash node ${broker}` }).click();
    await expect(inspector.getByRole('status').filter({ hasText: `Node ${broker} crashed` })).toBeVisible();
    await expect(inspector.getByRole('button', { name: `Restart node ${broker}` })).toBeEnabled();
  }
  // The controller fences both after broker.session.timeout.ms; the ISR of orders-0 shrinks to 1.
  await expect(underMinIsr(page)).toBeVisible({ timeout: TIMEOUT_MS });

  await page.getByRole('tab', { name: 'Controls' }).click();
  const form = page
    .getByRole('tabpanel', { name: 'Controls' })
    .getByRole('form', { name: 'Produce records' });
  await form.getByLabel('Topic').selectOption('orders');
  await form.getByLabel('Partition').selectOption('0');
  await form.getByLabel('acks').selectOption('all');
  await form.getByRole('button', { name: 'Send' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'NOT_ENOUGH_REPLICAS' })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  const records = page.getByRole('table', { name: 'Records of the latest send' });
  await expect(records.getByRole('row').nth(1)).toContainText('orders-0');
  await expect(records.getByRole('row').nth(1)).toContainText('NOT_ENOUGH_REPLICAS');
});

// ---- keyboard only ----------------------------------------------------------------------------

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 400 } = {}) {
  for (let i = 0; i < max; i++) {
    if ((await target.count()) === 1 && (await isFocused(target))) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Presses ArrowDown (or ArrowUp, when `value` is above the current one) in a focused select until it holds `value`. */
async function arrowToValue(page: Page, select: Locator, value: string) {
  const values = await select
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  const key = values.indexOf(value) < values.indexOf(await select.inputValue()) ? 'ArrowUp' : 'ArrowDown';
  for (let i = 0; i <= values.length; i++) {
    if ((await select.inputValue()) === value) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${value}`);
}

test('the same story by keyboard alone', async ({ page }) => {
  await page.goto('./');
  await raiseSpeed(page);
  const tab = (name: string) => page.getByRole('tab', { name });

  // One tab stop for the tab list; arrow keys move between the tabs.
  await tabTo(page, tab('Controls'));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(tab('Dashboard')).toBeFocused();
  await expect(tab('Dashboard')).toHaveAttribute('aria-selected', 'true');
  const { followers } = await ordersZero(page);

  await page.keyboard.press('ArrowLeft');
  await expect(tab('Inspector')).toHaveAttribute('aria-selected', 'true');
  const inspector = page.getByRole('tabpanel', { name: 'Inspector' });
  const inspect = inspector.getByLabel('Inspect', { exact: true });
  for (const broker of followers) {
    await tabTo(page, inspect);
    await arrowToValue(page, inspect, `broker:${broker}`);
    const crash = inspector.getByRole('button', { name: `Crash node ${broker}` });
    await tabTo(page, crash);
    await page.keyboard.press('Enter');
    await expect(inspector.getByRole('status').filter({ hasText: `Node ${broker} crashed` })).toBeVisible();
    // The focus stays on the button, which can no longer act.
    await expect(crash).toBeFocused();
    await tabTo(page, inspect, { backwards: true });
  }
  await expect(underMinIsr(page)).toBeVisible({ timeout: TIMEOUT_MS });

  await tabTo(page, tab('Inspector'), { backwards: true });
  await page.keyboard.press('ArrowLeft');
  await expect(tab('Controls')).toHaveAttribute('aria-selected', 'true');
  const form = page.getByRole('form', { name: 'Produce records' });
  const partition = form.getByLabel('Partition');
  await tabTo(page, partition);
  await arrowToValue(page, partition, '0');
  await expect(form.getByLabel('acks')).toHaveValue('all');
  const send = form.getByRole('button', { name: 'Send' });
  await tabTo(page, send);
  await page.keyboard.press('Space');

  await expect(page.getByRole('status').filter({ hasText: 'NOT_ENOUGH_REPLICAS' })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
});

test('a refused create topic shows Kafka’s error next to the field and creates nothing', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('status', { name: /^Active controller: \d+/ })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  const form = page.getByRole('form', { name: 'Create a topic' });
  await form.getByLabel('Topic name').fill('too-many-replicas');
  await form.getByLabel('Replication factor').fill('9');
  await form.getByRole('button', { name: 'Create topic' }).click();

  const rf = form.getByLabel('Replication factor');
  await expect(rf).toHaveAttribute('aria-invalid', 'true');
  await expect(rf).toHaveAccessibleDescription(/INVALID_REPLICATION_FACTOR/);
  await form.getByLabel('Replication factor').fill('3');
  await form.getByLabel('min.insync.replicas').fill('0');
  await form.getByRole('button', { name: 'Create topic' }).click();
  await expect(form.getByLabel('min.insync.replicas')).toHaveAccessibleDescription(/INVALID_CONFIG/);

  await page.getByRole('tab', { name: 'Dashboard' }).click();
  const dashboard = page.getByRole('tabpanel', { name: 'Dashboard' });
  await expect(dashboard.getByRole('rowheader', { name: 'orders-0', exact: true })).toBeVisible();
  await expect(dashboard.getByRole('rowheader', { name: /too-many-replicas/ })).toHaveCount(0);
});

test('choosing an event log line inspects what it is about', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('tab', { name: 'Event log' }).click();
  const line = page.getByRole('button', { name: /ControllerElected$/ }).first();
  await expect(line).toBeVisible({ timeout: TIMEOUT_MS });
  await line.click();
  await expect(page.getByRole('tab', { name: 'Inspector' })).toHaveAttribute('aria-selected', 'true');
  await expect(
    page
      .getByRole('tabpanel', { name: 'Inspector' })
      .getByRole('heading', { name: /^Inspector: Controller \d+$/ }),
  ).toBeFocused();
});
