import { expect, test } from '@playwright/test';
import { raiseSpeed } from './support';

// The consumer form of the Controls tab with group.protocol=consumer (KIP-848), on the default
// scenario (topic `orders` with 6 partitions).
const TIMEOUT_MS = 60_000;

test.setTimeout(120_000);

test('consumers started with group protocol "consumer" form a KIP-848 group with epochs', async ({
  page,
}) => {
  await page.goto('./');
  await expect(page.getByRole('status', { name: /^Active controller: \d+/ })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await raiseSpeed(page);
  await page.getByRole('tab', { name: 'Controls' }).click();
  const form = page.getByRole('form', { name: 'Consumers' });
  await expect(form.getByLabel('Group protocol')).toHaveValue('classic');
  for (const id of ['fast-1', 'fast-2']) {
    await form.getByLabel('Consumer id').fill(id);
    await form.getByLabel('Group id (group.id)').fill('kip848');
    await form.getByLabel('Group protocol').selectOption('consumer');
    await form.getByRole('button', { name: 'Start consumer' }).click();
    await expect(
      page.getByText(new RegExp(`${id} in kip848 \\(consumer protocol, member epoch`)),
    ).toBeVisible({
      timeout: TIMEOUT_MS,
    });
  }

  // The group's card on the canvas: its protocol, group epoch and each member's epoch.
  await expect(page.getByText('Stable, consumer protocol, group epoch 2', { exact: false })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await expect(page.getByText(/^fast-1 \(epoch 2\): orders-\d/)).toBeVisible();
  await expect(page.getByText(/^fast-2 \(epoch 2\): orders-\d/)).toBeVisible();

  // The inspector says the same in words.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const inspector = page.getByRole('tabpanel', { name: 'Inspector' });
  await inspector.getByLabel('Inspect', { exact: true }).selectOption({ label: 'Consumer group kip848' });
  const fields = inspector.locator('dl');
  /** The value of the inspector's field whose name starts the row. */
  const field = (name: RegExp) => fields.locator('div').filter({ hasText: name }).locator('dd');
  await expect(fields.getByText('Group protocol', { exact: true })).toBeVisible();
  await expect(field(/^Group protocol/)).toHaveText('consumer');
  await expect(field(/^Group epoch/)).toHaveText('2');
  await expect(field(/^Member fast-1/)).toHaveText(/^member epoch 2 \(stable\), assigned orders-\d/);
});
