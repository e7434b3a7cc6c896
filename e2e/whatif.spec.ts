// Your cluster in, and "what if this zone goes dark?": paste a real cluster's describe output (30
// brokers in 3 racks, 3,000 partitions, written in TopicCommand's exact format), open it, and lose
// a zone from the What if tab; then lose one on the canvas.
import { expect, test, type Page } from '@playwright/test';
import { paste, seriousViolations } from './support';

const BROKERS_PER_RACK = 10;
const RACKS = ['zone-a', 'zone-b', 'zone-c'];

/** `kafka-topics.sh --describe` of 29 topics striped over the racks and one kept in zone-a, and the racks. */
function describeOutput(): string {
  const lines: string[] = [];
  const topic = (name: string, partitions: number, configs: string, replicas: (p: number) => number[]) => {
    lines.push(
      `Topic: ${name}\tTopicId: ${name.padEnd(22, 'A').slice(0, 22)}\tPartitionCount: ${partitions}\tReplicationFactor: ${replicas(0).length}\tConfigs: ${configs}`,
    );
    for (let p = 0; p < partitions; p++) {
      const list = replicas(p).join(',');
      lines.push(
        `\tTopic: ${name}\tPartition: ${p}\tLeader: ${replicas(p)[0]}\tReplicas: ${list}\tIsr: ${list}\tElr: \tLastKnownElr: `,
      );
    }
  };
  // One replica a rack: broker b of zone-a is b, of zone-b 10 + b, of zone-c 20 + b.
  for (let t = 0; t < 29; t++)
    topic(
      `topic-${String(t).padStart(2, '0')}`,
      100,
      'min.insync.replicas=2,segment.bytes=1073741824',
      (p) => {
        const b = (t * 7 + p) % BROKERS_PER_RACK;
        return [1 + b, 11 + ((b + 1) % 10), 21 + ((b + 2) % 10)];
      },
    );
  // A topic whose replicas all live in zone-a: no fault tolerance against that zone.
  topic('zone-a-only', 100, '', (p) => [1 + (p % 10), 1 + ((p + 1) % 10)]);
  lines.push('');
  RACKS.forEach((rack, r) => {
    for (let b = 1; b <= BROKERS_PER_RACK; b++) lines.push(`${r * BROKERS_PER_RACK + b} ${rack}`);
  });
  return lines.join('\n');
}

async function importIt(page: Page) {
  await page.goto('./');
  await page.getByRole('button', { name: 'Import layout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a layout' });
  await paste(page, 'Pasted tool output', describeOutput());
  await expect(dialog.getByRole('status', { name: 'What the import understood' })).toHaveText(
    'Ready: 30 brokers, 3 controllers, racks zone-a, zone-b, zone-c, 30 topics, 3,000 partitions.',
    { timeout: 30_000 },
  );
  await expect(dialog.getByRole('list', { name: 'Import report' })).toContainText(
    'line 1, ignored: configs of topic-00 the simulator does not model (or with a value it refuses): segment.bytes',
  );
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status', { name: 'Opened session' })).toContainText(
    'Opened from the imported layout',
    { timeout: 60_000 },
  );
}

test('a pasted describe of 30 brokers and 3,000 partitions opens, and the What if tab loses each zone', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await importIt(page);
  // The imported racks are the canvas's zones, each with its Lose zone beside Isolate.
  for (const rack of RACKS) {
    await expect(page.getByRole('button', { name: `Isolate zone ${rack}` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Lose zone ${rack}` })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Play' }).click();
  await page.getByLabel('Speed').selectOption('10');

  // The topic kept in one zone gets the no-fault-tolerance badge on the canvas and the Dashboard.
  await expect(page.getByText('No fault tolerance: zone-a-only')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await expect(
    page
      .getByRole('tabpanel', { name: 'Dashboard' })
      .getByRole('region', { name: /No fault tolerance/ })
      .getByRole('listitem')
      .filter({ hasText: 'zone-a-only' }),
  ).toContainText('100 of 100 partitions with every replica in zone-a: losing that zone takes them offline');

  await page.getByRole('tab', { name: 'What if' }).click();
  const panel = page.getByRole('tabpanel', { name: 'What if' });
  await panel.getByRole('checkbox', { name: '11' }).check();
  await panel.getByRole('checkbox', { name: '22' }).check();
  await panel.getByRole('button', { name: 'Lose these brokers (and each zone)' }).click();
  const outcomes = panel.getByRole('list', { name: 'What losing it would do' });
  await expect(outcomes.getByRole('listitem')).toHaveCount(4, { timeout: 240_000 });

  // Worst first: zone-a takes zone-a-only offline.
  const worst = outcomes.getByRole('listitem').first();
  await expect(worst.getByRole('heading')).toContainText('Zone zone-a');
  await expect(worst.getByRole('definition')).toHaveText(['100', '0', 'not within 30.0 s', '0']);
  await worst.getByText('Offline partitions (100)').click();
  await expect(worst).toContainText('zone-a-only-0');
  // Zone b loses one replica of three and leads nothing (every preferred leader is in zone-a):
  // no partition offline, none under min.insync.replicas=2, no election.
  const zoneB = outcomes
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Zone zone-b/ }) });
  await expect(zoneB.getByRole('definition')).toHaveText(['0', '0', 'no leader lost', '0']);
  // Brokers 11 and 22 together: the 290 partitions (10 a topic) that have both drop below
  // min.insync.replicas=2, and acks=all is refused there.
  const pair = outcomes
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Nodes 11, 22/ }) });
  await expect(pair.getByRole('definition').nth(1)).toHaveText('290');

  // WHATIF_SHOTS=DIR keeps a screenshot of the 33-node cluster with the answer, to look at.
  if (process.env.WHATIF_SHOTS)
    await page.screenshot({ path: `${process.env.WHATIF_SHOTS}/whatif-imported.png` });

  // Show me: the branch plays on the live cluster; zone-a goes dark on the canvas.
  await worst.getByRole('button', { name: 'Show me: Zone zone-a' }).click();
  await expect(worst.getByRole('status')).toContainText('Playing Zone zone-a', { timeout: 60_000 });
  await expect(page.getByText('✕ NO POWER')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Power on zone zone-a' })).toBeVisible();
});

test('bad input gets a line-by-line report and the running cluster stays', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Import layout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a layout' });
  await dialog
    .getByLabel('Pasted tool output')
    .fill(
      'Topic: orders\tTopicId: x\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: \n\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,oops\tIsr: 1',
    );
  await expect(dialog.getByRole('status', { name: 'What the import understood' })).toHaveText(
    'Cannot open: 2 problems (below). The running cluster is kept.',
  );
  await expect(dialog.getByRole('list', { name: 'Import report' }).getByRole('listitem')).toHaveText([
    /line 1, problem: topic orders: no line for partitions 0, 1/,
    /line 2, problem: Replicas: expected broker ids/,
  ]);
  await expect(dialog.getByRole('button', { name: 'Open' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The default cluster is still there, and Lose zone on the canvas crashes a whole zone at once.
  await page.getByRole('button', { name: 'Lose zone zone-b' }).click();
  await expect(page.getByText('✕ NO POWER')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Isolate zone zone-a' })).toBeVisible();
});

test('the Import layout dialog and the What if tab have no serious or critical accessibility violations', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('./');
  await page.getByRole('button', { name: 'Import layout' }).click();
  await page
    .getByLabel('Pasted tool output')
    .fill('Topic: a\tTopicId: x\tPartitionCount: 2\tReplicationFactor: 1\tConfigs: ');
  await expect(page.getByRole('status', { name: 'What the import understood' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Import layout' })).toBeFocused();
  await page.getByRole('tab', { name: 'What if' }).click();
  await page.getByRole('button', { name: 'Lose each zone' }).click();
  await expect(page.getByRole('list', { name: 'What losing it would do' }).getByRole('listitem')).toHaveCount(
    3,
    {
      timeout: 60_000,
    },
  );
  expect(await seriousViolations(page)).toEqual([]);
});
