import { expect, test } from '@playwright/test';
import { seriousViolations } from './support';

// No serious or critical accessibility violation (axe-core, WCAG 2.x A and AA, best practices) on
// the whole page, with each tab of the side panels open in turn.
const TABS = ['Controls', 'Inspector', 'Dashboard', 'Event log'];

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  // The cluster has formed: a controller leads and the topic's partitions are placed.
  await expect(page.getByRole('status', { name: /^Active controller: \d+/ })).toBeVisible({
    timeout: 30_000,
  });
});

test('the main page has no serious or critical violations', async ({ page }) => {
  expect(await seriousViolations(page)).toEqual([]);
});

for (const name of TABS) {
  test(`the ${name} tab has no serious or critical violations`, async ({ page }) => {
    await page.getByRole('tab', { name }).click();
    await expect(page.getByRole('tabpanel', { name })).toBeVisible();
    if (name === 'Inspector') {
      // With something selected, so the fields, actions and tables are checked too.
      const panel = page.getByRole('tabpanel', { name });
      await panel.getByLabel('Inspect', { exact: true }).selectOption({ label: 'Partition orders-0' });
      await expect(panel.getByRole('table', { name: /Replica logs/ })).toBeVisible();
    }
    if (name === 'Event log') await page.getByText(/Filter by kind/).click();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('the Inspector of a broker has no serious or critical violations', async ({ page }) => {
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Inspector' });
  await panel.getByLabel('Inspect', { exact: true }).selectOption({ label: 'Broker 4' });
  await expect(panel.getByRole('button', { name: 'Crash node 4' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the Controls tab with Kafka errors shown has no serious or critical violations', async ({ page }) => {
  const form = page.getByRole('tabpanel', { name: 'Controls' }).getByRole('form', { name: 'Create a topic' });
  await form.getByLabel('Topic name').fill('bad name!');
  await form.getByLabel('Replication factor').fill('9');
  await form.getByRole('button', { name: 'Create topic' }).click();
  await expect(form.getByLabel('Topic name')).toHaveAttribute('aria-invalid', 'true');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the Controls tab with a generated reassignment plan has no serious or critical violations', async ({
  page,
}) => {
  const form = page
    .getByRole('tabpanel', { name: 'Controls' })
    .getByRole('form', { name: 'Generate a balanced plan' });
  // Once orders exists it is chosen by default.
  await expect(form.getByLabel('orders', { exact: true })).toBeChecked();
  await form.getByRole('button', { name: 'Generate plan' }).click();
  await expect(page.getByRole('table', { name: 'Proposed reassignment' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
