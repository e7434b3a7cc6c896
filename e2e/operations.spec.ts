import { expect, test, type Page } from '@playwright/test';
import { openControls, raiseSpeed } from './support';

// The Operations sections of the Controls tab, on the default scenario: brokers 4 to 9; topic
// `orders` with 6 partitions and replication factor 3; producer-1 writes to it with acks=all.
const TIMEOUT_MS = 60_000;

test.setTimeout(120_000);

/** The replicas of orders-0, read from the Dashboard. */
async function ordersZeroReplicas(page: Page): Promise<number[]> {
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  const row = page
    .getByRole('tabpanel', { name: 'Dashboard' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'orders-0', exact: true }) });
  const cells = row.getByRole('cell');
  await expect(cells.nth(1)).toHaveText(/^\d+(,\s*\d+)*$/, { timeout: TIMEOUT_MS });
  return (await cells.nth(1).innerText()).split(',').map((id) => Number(id.trim()));
}

test('reassigning orders-0 to three other brokers is listed in progress, then completes', async ({
  page,
}) => {
  await page.goto('./');
  await raiseSpeed(page);
  const before = await ordersZeroReplicas(page);
  expect(before).toHaveLength(3);
  const target = [4, 5, 6, 7, 8, 9].filter((id) => !before.includes(id));
  expect(target).toHaveLength(3);

  await page.getByRole('tab', { name: 'Controls' }).click();
  const controls = page.getByRole('tabpanel', { name: 'Controls' });
  const form = controls.getByRole('form', { name: 'Reassign partitions' });
  await form.getByLabel('Topic').selectOption('orders');
  await form.getByLabel('Partition').selectOption('0');

  // A refusal is shown next to the field.
  await form.getByLabel('Target replicas').fill('4,4');
  await form.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'Broker 4 is listed twice.' })).toBeVisible();
  // So is Kafka's: broker 42 does not exist.
  await form.getByLabel('Target replicas').fill('4,5,42');
  await form.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'no broker 42 in this cluster' })).toBeVisible();
  await expect(form.getByLabel('Target replicas')).toHaveAttribute('aria-invalid', 'true');

  // Paused and stepped, the reassignment is seen in progress once the controller commits it;
  // played, it completes.
  const playback = page.getByRole('group', { name: 'Playback' });
  await playback.getByRole('button', { name: 'Pause' }).click();
  await form.getByLabel('Target replicas').fill(target.join(','));
  await form.getByRole('button', { name: 'Reassign', exact: true }).click();
  const inProgress = controls.getByRole('list', { name: 'Reassignments in progress' });
  const step = playback.getByRole('button', { name: 'Step' });
  for (let i = 0; i < 500 && (await inProgress.count()) === 0; i++) await step.click();
  await expect(inProgress.getByRole('listitem').filter({ hasText: 'orders-0' })).toContainText(
    `adding ${target.join(', ')}`,
  );
  await expect(inProgress.getByRole('listitem').filter({ hasText: 'orders-0' })).toContainText(
    `removing ${[...before].sort((a, b) => a - b).join(', ')}`,
  );
  await playback.getByRole('button', { name: 'Play' }).click();
  await expect(inProgress).toBeHidden({ timeout: TIMEOUT_MS });

  const after = await ordersZeroReplicas(page);
  expect([...after].sort()).toEqual([...target].sort());
});

test('a new broker joins empty; a generated balanced plan moves replicas onto it', async ({ page }) => {
  const controls = await openControls(page);

  // Brokers 4 to 9 exist: the form offers node id 10.
  const add = controls.getByRole('form', { name: 'Add a broker' });
  await expect(add.getByLabel('Node id')).toHaveValue('10', { timeout: TIMEOUT_MS });
  await add.getByRole('button', { name: 'Add broker' }).click();
  await expect(controls.getByRole('status').filter({ hasText: 'Broker 10 added' })).toBeVisible();
  // Kafka's refusal for an id in use is shown next to the field.
  await add.getByLabel('Node id').fill('4');
  await add.getByRole('button', { name: 'Add broker' }).click();
  await expect(add.getByRole('alert').filter({ hasText: 'node 4 already exists' })).toBeVisible();

  const generate = controls.getByRole('form', { name: 'Generate a balanced plan' });
  await expect(generate.getByRole('group', { name: 'Topics to move' }).getByLabel('orders')).toBeChecked();
  const brokerTen = generate.getByRole('group', { name: 'Target brokers' }).getByLabel(/^broker 10\b/);
  await expect(brokerTen).toBeChecked();
  await generate.getByRole('button', { name: 'Generate plan' }).click();

  // The plan lists current and proposed replicas of each partition of orders; broker 10 is in it.
  const plan = controls.getByRole('table', { name: 'Proposed reassignment' });
  await expect(plan.getByRole('row')).toHaveCount(7, { timeout: TIMEOUT_MS });
  const proposed = await plan.locator('tbody tr td:nth-of-type(2)').allInnerTexts();
  expect(proposed.some((replicas) => replicas.split(', ').includes('10'))).toBe(true);
  await expect(
    controls.getByText(/^Topic orders over brokers 4, 5, 6, 7, 8, 9, 10: \d+ of 18 replicas? moves?/),
  ).toBeVisible();

  await controls.getByRole('button', { name: 'Execute plan' }).click();
  await expect(
    controls.getByRole('status').filter({ hasText: /Reassignment of \d+ partitions? started/ }),
  ).toBeVisible();
  await expect(plan).toBeHidden();
  await expect(controls.getByRole('list', { name: 'Reassignments in progress' })).toBeHidden({
    timeout: TIMEOUT_MS,
  });

  // Broker 10 now hosts replicas of orders, as the Dashboard shows.
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  const dashboard = page.getByRole('tabpanel', { name: 'Dashboard' });
  await expect
    .poll(
      async () => {
        const rows = dashboard
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: /^orders-\d+$/ }) });
        const replicas = await rows.locator('td:nth-of-type(2)').allInnerTexts();
        return replicas.filter((r) =>
          r
            .split(',')
            .map((id) => id.trim())
            .includes('10'),
        ).length;
      },
      { timeout: TIMEOUT_MS },
    )
    .toBeGreaterThan(0);
});

test('a deny ACL for Write on orders makes producer-1 fail with TOPIC_AUTHORIZATION_FAILED', async ({
  page,
}) => {
  const controls = await openControls(page);
  const form = controls.getByRole('form', { name: 'ACLs' });
  await form.getByLabel('Principal').fill('User:*');
  await form.getByLabel('Operation').selectOption('Write');
  await form.getByLabel('Resource type').selectOption('topic');
  await form.getByLabel('Resource name').fill('orders');
  await form.getByLabel('Pattern').selectOption('literal');
  await form.getByLabel('Permission').selectOption('deny');
  await form.getByRole('button', { name: 'Add ACL' }).click();
  const acl = 'deny User:* Write on topic orders (literal)';
  const remove = controls.getByRole('button', { name: `Remove ACL: ${acl}` });
  await expect(remove).toBeVisible({ timeout: TIMEOUT_MS });

  // The Inspector of producer-1 counts its failures by Kafka's error name.
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const inspector = page.getByRole('tabpanel', { name: 'Inspector' });
  await inspector.getByLabel('Inspect', { exact: true }).selectOption({ label: 'Producer producer-1' });
  await expect(inspector.getByText('TOPIC_AUTHORIZATION_FAILED').first()).toBeVisible({
    timeout: TIMEOUT_MS,
  });

  await page.getByRole('tab', { name: 'Controls' }).click();
  await remove.click();
  await expect(remove).toBeHidden({ timeout: TIMEOUT_MS });
  await expect(controls.getByText('No ACLs: every request is allowed.')).toBeVisible();
});

test('a config change lists the brokers that applied it, and preferred leaders can be elected', async ({
  page,
}) => {
  const controls = await openControls(page);
  const alter = controls.getByRole('form', { name: 'Alter configs' });
  await alter.getByLabel('Resource type').selectOption('topic');
  await alter.getByLabel('Topic').selectOption('orders');
  await alter.getByLabel('Configs (key=value)').fill('retention.ms=600000');
  await alter.getByRole('button', { name: 'Alter configs' }).click();

  const propagation = controls.getByRole('list', { name: 'Config propagation' });
  await expect(
    propagation.getByRole('listitem').filter({ hasText: 'topic orders: retention.ms=600000' }),
  ).toContainText(/applied by \d+(, \d+)*; applied everywhere/, { timeout: TIMEOUT_MS });

  await expect(controls.getByRole('table', { name: 'Leaders per broker' }).getByRole('row')).toHaveCount(7);
  await expect(
    controls.getByText(/led by (its|their) preferred leader; leaders per broker range/),
  ).toBeVisible();
  // In a balanced cluster Kafka refuses the election (ELECTION_NOT_NEEDED); otherwise it runs.
  await controls.getByRole('button', { name: 'Elect preferred leaders' }).click();
  await expect(
    controls
      .getByRole('status')
      .filter({ hasText: 'Preferred leader election requested' })
      .or(controls.getByRole('alert').filter({ hasText: 'ELECTION_NOT_NEEDED' })),
  ).toBeVisible();
});
