import { expect, test, type Page } from '@playwright/test';
import { setSpeed } from './support';

// The default scenario: brokers 4 to 9, `orders` (6 partitions, RF 3), a producer at 5 records/s
// and a consumer group that commits every 5 s.
const STARTUP_TIMEOUT_MS = 20_000;

const simulatedSeconds = async (page: Page) =>
  parseFloat(await page.getByRole('status', { name: 'Simulated time' }).innerText());

async function openLog(page: Page) {
  await page.goto('./');
  await setSpeed(page, 10);
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await page
    .getByRole('table', { name: 'Partition health' })
    .getByRole('button', { name: 'orders-0' })
    .click({ timeout: STARTUP_TIMEOUT_MS });
  await page.getByRole('button', { name: 'Open the log of orders-0' }).click();
  await expect(page.getByRole('tab', { name: 'Partition log' })).toHaveAttribute('aria-selected', 'true');
  return page.getByRole('tabpanel', { name: 'Partition log' });
}

test.setTimeout(120_000);

test("a partition's log shows each replica's records by offset, with the HW and the leader", async ({
  page,
}) => {
  const panel = await openLog(page);
  const grid = panel.getByRole('grid', { name: /Log of orders-0/ });
  await expect(grid.getByRole('columnheader')).toHaveCount(4);
  await expect(grid.getByRole('columnheader', { name: /★ Broker \d/ })).toHaveCount(1);
  // Records arrive; the first offset, on every replica, committed below the HW.
  await expect(grid.getByRole('button', { name: /, committed$/ }).first()).toBeVisible({
    timeout: STARTUP_TIMEOUT_MS,
  });
  await grid.focus();
  await page.keyboard.press('Home');
  await expect(grid.getByRole('button', { name: /^offset 0 on broker \d: .*, committed$/ })).toHaveCount(3, {
    timeout: STARTUP_TIMEOUT_MS,
  });
  const replicas = panel.getByRole('table', { name: /Replicas of orders-0/ });
  const leader = replicas.getByRole('row').filter({ hasText: '★ leader' });
  await expect(leader).toHaveCount(1);
  const hw = Number(await leader.getByRole('cell').nth(2).innerText());
  const leo = Number(await leader.getByRole('cell').nth(3).innerText());
  expect(hw).toBeGreaterThanOrEqual(1);
  expect(leo).toBeGreaterThanOrEqual(hw);
  // Windowed: a long log keeps only the rows in view in the page.
  await expect
    .poll(
      async () =>
        Number(
          await replicas
            .getByRole('row')
            .filter({ hasText: '★ leader' })
            .getByRole('cell')
            .nth(3)
            .innerText(),
        ),
      {
        timeout: 30_000,
      },
    )
    .toBeGreaterThan(60);
  expect(await grid.getByRole('row').count()).toBeLessThan(50);
});

test("a record's journey goes from send() to the group's commit, and a stage seeks the timeline", async ({
  page,
}) => {
  const panel = await openLog(page);
  const grid = panel.getByRole('grid', { name: /Log of orders-0/ });
  // Offset 5 committed: the log has grown past what was written before the group joined (it reads
  // from the latest offset it found), so three offsets up from the end is a record it fetches.
  await expect(
    grid.getByRole('button', { name: /^offset 5 on broker \d+: .*, committed$/ }).first(),
  ).toBeVisible({
    timeout: STARTUP_TIMEOUT_MS,
  });
  // By keyboard: a recent offset, Enter for its journey.
  await grid.focus();
  await page.keyboard.press('End');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const journey = panel.getByRole('region', { name: /Journey of record \d+/ });
  const stages = journey.getByRole('list', { name: /Stages of record/ });
  await expect(stages.getByRole('listitem').first()).toContainText('send() by');
  await expect(stages).toContainText('appended by leader broker', { timeout: 10_000 });
  await expect(stages).toContainText('copied by follower broker');
  await expect(stages).toContainText('the high watermark passed it');
  await expect(stages).toContainText('acknowledged to');
  await expect(stages).toContainText(/consumer .* fetched it/, { timeout: 20_000 });
  await expect(stages).toContainText(/committed offset \d+/, { timeout: 30_000 });

  const append = stages.getByRole('button', { name: /^Seek to [\d.]+ s: appended by leader/ });
  const label = (await append.getAttribute('aria-label')) ?? '';
  const atSeconds = parseFloat(/Seek to ([\d.]+) s/.exec(label)?.[1] ?? 'NaN');
  // Paused first, as a reader would to study a moment: at 10× the clock would otherwise pass the
  // commit again within a fraction of a second, and nothing would be later than now.
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause' }).click();
  await append.click();
  await expect.poll(() => simulatedSeconds(page), { timeout: 10_000 }).toBeLessThan(atSeconds + 1);
  // After the seek the journey stays whole; what comes after this moment is marked as later.
  await expect(stages).toContainText('(later than now)');
  await expect(stages).toContainText(/committed offset \d+/);
});

test("the Inspector's ledger opens a record's journey in the Partition log", async ({ page }) => {
  await page.goto('./');
  await setSpeed(page, 10);
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await page
    .getByRole('table', { name: 'Partition health' })
    .getByRole('button', { name: 'orders-1' })
    .click({ timeout: STARTUP_TIMEOUT_MS });
  const ledger = page.getByRole('table', { name: /record\(s\) sent to orders-1/ });
  const record = ledger.getByRole('button', { name: /^Journey of record \d+$/ }).first();
  await record.click({ timeout: STARTUP_TIMEOUT_MS });
  await expect(page.getByRole('tab', { name: 'Partition log' })).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel', { name: 'Partition log' });
  await expect(panel.getByRole('combobox', { name: 'Partition' })).toHaveValue('orders-1');
  await expect(
    panel
      .getByRole('list', { name: /Stages of record/ })
      .getByRole('listitem')
      .first(),
  ).toContainText('send() by');
});

/** A transaction left open for a while, then committed: the LSO below the HW, then a COMMIT marker. */
const TRANSACTION_SCENARIO = {
  version: 1,
  seed: 5,
  nodes: [
    { id: 1, roles: ['controller'] },
    { id: 2, roles: ['broker'] },
    { id: 3, roles: ['broker'] },
    { id: 4, roles: ['broker'] },
  ],
  config: { 'offsets.topic.num.partitions': 1, 'transaction.state.log.num.partitions': 1 },
  topics: [{ name: 'payments', partitions: 1, replicationFactor: 3 }],
  script: [
    {
      atMs: 0,
      command: {
        type: 'startProducer',
        producerId: 'tx',
        topic: 'payments',
        ratePerSec: 0,
        config: { 'transactional.id': 'payments-app' },
      },
    },
    { atMs: 6000, command: { type: 'produce', topic: 'payments', value: 'plain', key: null, partition: 0 } },
    { atMs: 7000, command: { type: 'beginTransaction', producerId: 'tx' } },
    {
      atMs: 7000,
      command: {
        type: 'produce',
        producerId: 'tx',
        topic: 'payments',
        value: 'debit',
        key: 'a',
        partition: 0,
      },
    },
    { atMs: 9000, command: { type: 'produce', topic: 'payments', value: 'after', key: null, partition: 0 } },
    { atMs: 30000, command: { type: 'commitTransaction', producerId: 'tx' } },
  ],
};

test('a transaction holds the LSO below the HW, then its COMMIT marker takes an offset', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Import a session or scenario file').setInputFiles({
    name: 'transaction.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(TRANSACTION_SCENARIO)),
  });
  await expect(page.getByRole('status', { name: 'Opened session' })).toContainText('transaction.json');
  await setSpeed(page, 10);
  // An opened file waits paused at its start.
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play' }).click();
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await page
    .getByRole('table', { name: 'Partition health' })
    .getByRole('button', { name: 'payments-0' })
    .click({ timeout: STARTUP_TIMEOUT_MS });
  await page.getByRole('button', { name: 'Open the log of payments-0' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Partition log' });
  const grid = panel.getByRole('grid', { name: /Log of payments-0/ });
  // The open transaction starts at offset 1: read_committed consumers read below the LSO there.
  await expect(grid.getByText('▁ LSO').first()).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  const leader = panel
    .getByRole('table', { name: /Replicas of payments-0/ })
    .getByRole('row')
    .filter({ hasText: '★ leader' });
  await expect(leader.getByRole('cell').nth(4)).toHaveText('1');
  // After commitTransaction the marker takes offset 3 on every replica, and the LSO reaches the HW.
  await expect(
    grid.getByRole('img', { name: /^offset 3 on broker \d: COMMIT marker of producer \d+, epoch 0/ }),
  ).toHaveCount(3, { timeout: 30_000 });
  await expect(grid.getByText(/COMMIT \(producer \d+, epoch 0\)/).first()).toBeVisible();
  await expect(leader.getByRole('cell').nth(4)).toHaveText('4');
});
