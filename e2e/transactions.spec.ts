import { expect, test, type Locator, type Page } from '@playwright/test';
import { openControls, seriousViolations, setSpeed } from './support';

// The default scenario (brokers 4 to 9, `orders`) and a topic `payments` the learner creates: a
// transactional producer started, driven and watched from the Controls tab, its records and
// markers read in the Partition log, and a read_committed consumer that sees only what was committed.
const TIMEOUT_MS = 30_000;

test.setTimeout(180_000);

async function createPayments(controls: Locator) {
  const form = controls.getByRole('form', { name: 'Create a topic' });
  await form.getByLabel('Topic name').fill('payments');
  await form.getByLabel('Partitions').fill('1');
  await form.getByRole('button', { name: 'Create topic' }).click();
  await expect(
    controls.getByRole('region', { name: 'Transactional producer', exact: true }).getByLabel('Topic'),
  ).toContainText('payments', { timeout: TIMEOUT_MS });
}

/** Starts txn-producer-1 on payments and waits until initTransactions() returned (READY). */
async function startTransactionalProducer(controls: Locator) {
  const section = controls.getByRole('region', { name: 'Transactional producer', exact: true });
  await section.getByLabel('Topic').selectOption('payments');
  await expect(section.getByLabel('transactional.id')).toHaveValue('txn-producer-1-app');
  await section.getByLabel('transaction.timeout.ms').fill('60000');
  await section.getByRole('button', { name: 'Start transactional producer' }).click();
  const producer = section.getByRole('region', {
    name: /^txn-producer-1 \(transactional\.id txn-producer-1-app\)$/,
  });
  const state = producer.getByRole('status', { name: 'Transaction state of txn-producer-1' });
  await expect(state).toContainText('READY', { timeout: TIMEOUT_MS });
  return { producer, state };
}

async function sendInTransaction(producer: Locator, value: string, count: number) {
  const form = producer.getByRole('form', { name: "Send records in txn-producer-1's transaction" });
  await form.getByLabel('Partition').selectOption('payments-0');
  await form.getByLabel('Value').fill(value);
  await form.getByLabel('Count').fill(String(count));
  await form.getByRole('button', { name: 'Send in transaction' }).click();
  // Each record acknowledged (written to payments-0) before the transaction ends.
  await expect(producer).toContainText(
    `In the transaction: ${count} record(s) on payments-0; 0 not yet acknowledged`,
    {
      timeout: TIMEOUT_MS,
    },
  );
}

async function openLog(page: Page) {
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await page
    .getByRole('table', { name: 'Partition health' })
    .getByRole('button', { name: 'payments-0' })
    .click({ timeout: TIMEOUT_MS });
  await page.getByRole('button', { name: 'Open the log of payments-0' }).click();
  return page
    .getByRole('tabpanel', { name: 'Partition log' })
    .getByRole('grid', { name: /Log of payments-0/ });
}

test('a transactional producer aborts one transaction and commits another; read_committed sees only the committed', async ({
  page,
}) => {
  const controls = await openControls(page);
  await setSpeed(page, 10);
  await createPayments(controls);
  const { producer, state } = await startTransactionalProducer(controls);
  const calls = producer.getByRole('group', { name: 'Transaction calls of txn-producer-1' });

  // A call the state does not allow is refused with Kafka's words, and nothing changes.
  await calls.getByRole('button', { name: 'Commit transaction' }).click();
  await expect(producer.getByRole('alert')).toContainText(
    'IllegalStateException: TransactionalId txn-producer-1-app: Invalid transition attempted from state READY to state COMMITTING_TRANSACTION',
  );
  await expect(state).toContainText('READY');
  await expect(producer).toContainText('0 committed, 0 aborted so far');
  // The forms, the state and the refusal: no serious or critical accessibility violation.
  expect(await seriousViolations(page)).toEqual([]);

  // Begin, send two records, abort.
  await calls.getByRole('button', { name: 'Begin transaction' }).click();
  await expect(state).toContainText('IN_TRANSACTION');
  await sendInTransaction(producer, 'refund', 2);
  await calls.getByRole('button', { name: 'Abort transaction' }).click();
  await expect(producer).toContainText('0 committed, 1 aborted so far', { timeout: TIMEOUT_MS });
  await expect(state).toContainText('READY');

  // Begin, send two more, commit.
  await calls.getByRole('button', { name: 'Begin transaction' }).click();
  await expect(state).toContainText('IN_TRANSACTION');
  await sendInTransaction(producer, 'payment', 2);
  await calls.getByRole('button', { name: 'Commit transaction' }).click();
  await expect(producer).toContainText('1 committed, 1 aborted so far', { timeout: TIMEOUT_MS });
  await expect(state).toContainText('READY');

  // The log: the aborted records at offsets 0 and 1, the ABORT marker at 2; the committed records
  // at 3 and 4, the COMMIT marker at 5; on each of the three replicas.
  const grid = await openLog(page);
  await grid.focus();
  await page.keyboard.press('Home');
  await expect(
    grid.getByRole('button', {
      name: /^offset 0 on broker \d: .*refund-0.*, aborted: read_committed consumers skip it/,
    }),
  ).toHaveCount(3, {
    timeout: TIMEOUT_MS,
  });
  await expect(
    grid.getByRole('img', { name: /^offset 2 on broker \d: ABORT marker of producer \d+, epoch 0/ }),
  ).toHaveCount(3, {
    timeout: TIMEOUT_MS,
  });
  await expect(grid.getByRole('button', { name: /^offset 3 on broker \d: .*payment-0/ })).toHaveCount(3);
  await expect(grid.getByRole('button', { name: /^offset 3 on broker \d: .*aborted/ })).toHaveCount(0);
  await expect(
    grid.getByRole('img', { name: /^offset 5 on broker \d: COMMIT marker of producer \d+, epoch 0/ }),
  ).toHaveCount(3, {
    timeout: TIMEOUT_MS,
  });

  // A committed record's journey: before appending the transaction's first batch to payments-0,
  // its leader asked the transaction coordinator whether the partition is in the transaction (KIP-890).
  await grid
    .getByRole('button', { name: /^offset 3 on broker \d: .*payment-0/ })
    .first()
    .click();
  const stages = page
    .getByRole('tabpanel', { name: 'Partition log' })
    .getByRole('region', { name: /Journey of record \d+/ })
    .getByRole('list', { name: /Stages of record/ });
  await expect(stages).toContainText(
    /asks transaction coordinator broker \d+ whether payments-0 is in txn-producer-1-app's ongoing transaction/,
  );
  await expect(stages).toContainText('verified with the transaction coordinator');
  await expect(stages).toContainText('appended by leader broker');

  // A read_committed consumer from the earliest offset reads the committed records only.
  await page.getByRole('tab', { name: 'Controls' }).click();
  const consumers = controls.getByRole('region', { name: 'Consumers', exact: true });
  await consumers.getByLabel('Consumer id').fill('auditor');
  await consumers.getByLabel('Group id (group.id)').fill('audit');
  await consumers.getByLabel('Topic').selectOption('payments');
  await consumers.getByLabel('isolation.level').selectOption('read_committed');
  await consumers.getByLabel('auto.offset.reset').selectOption('earliest');
  await consumers.getByRole('button', { name: 'Start consumer' }).click();
  const auditor = consumers.getByRole('listitem').filter({ hasText: 'auditor in audit, read_committed' });
  await expect(auditor).toContainText('2 record(s) read', { timeout: TIMEOUT_MS });
  await auditor.getByText('Last records read by auditor').click();
  const read = auditor.getByRole('list', { name: 'Last records read by auditor' });
  await expect(read.getByRole('listitem')).toHaveText([
    'payments-0 offset 3: payment-0',
    'payments-0 offset 4: payment-1',
  ]);
});

test('a stream processor starts with exactly_once_v2 and closes', async ({ page }) => {
  const controls = await openControls(page);
  await setSpeed(page, 10);
  await createPayments(controls);
  const section = controls.getByRole('region', { name: 'Stream processor', exact: true });
  await section.getByLabel('Input topic').selectOption('orders');
  await section.getByLabel('Output topic').selectOption('payments');
  await section.getByLabel('processing.guarantee').selectOption('exactly_once_v2');
  await section.getByRole('button', { name: 'Start processor' }).click();
  const item = section.getByRole('listitem').filter({ hasText: 'processor-1 (exactly_once_v2)' });
  await expect(item).toContainText('running');
  // It reads orders (the default producer writes 5 records/s) and commits every 100 ms.
  await expect
    .poll(async () => Number(/(\d+) commit\(s\)/.exec(await item.innerText())?.[1] ?? 0), {
      timeout: TIMEOUT_MS,
    })
    .toBeGreaterThan(0);
  // Its output read as read_committed: each committed input once.
  const exactlyOnce = async () => {
    const m = /(\d+) of (\d+) committed input\(s\) have exactly one output/.exec(await item.innerText());
    return m && Number(m[2]) > 0 && m[1] === m[2];
  };
  await expect.poll(exactlyOnce, { timeout: TIMEOUT_MS }).toBe(true);
  // Starting it again is refused in the engine's words.
  await section.getByLabel('Processor id').fill('processor-1');
  await section.getByRole('button', { name: 'Start processor' }).click();
  await expect(section.getByRole('alert')).toContainText('processor processor-1 is already running');
  await item.getByRole('button', { name: 'Stop processor-1' }).click();
  await expect(item).toContainText('stopped', { timeout: TIMEOUT_MS });
});
