import { expect, test, type Page } from '@playwright/test';
import { seriousViolations, setSpeed } from './support';

// The Terminal tab: Kafka's own tools typed against the running cluster.
const STARTUP_TIMEOUT_MS = 30_000;
const BS = '--bootstrap-server localhost:9092';

async function openTerminal(page: Page) {
  await page.goto('./');
  await expect(page.getByRole('status', { name: /^Active controller: \d+/ })).toBeVisible({
    timeout: STARTUP_TIMEOUT_MS,
  });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const terminal = page.getByRole('tabpanel', { name: 'Terminal' });
  // The brokers register and orders is created a few simulated seconds in.
  await expect
    .poll(
      async () => {
        await type(page, `kafka-topics.sh ${BS} --list`);
        const output = terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last();
        await expect(output).not.toHaveText('Running…');
        return output.innerText();
      },
      { timeout: STARTUP_TIMEOUT_MS, intervals: [1000] },
    )
    .toContain('orders');
  return terminal;
}

async function type(page: Page, line: string) {
  const input = page.getByRole('textbox', { name: 'Command line' });
  await input.fill(line);
  await input.press('Enter');
}

test('after a broker crash, --under-replicated-partitions lists the partitions it held', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const terminal = await openTerminal(page);
  await setSpeed(page, 10);
  const broker = page.getByRole('group', { name: /^Broker 4,/ });
  await broker.getByText('Broker 4', { exact: true }).click();
  await broker.getByRole('button', { name: 'Crash node 4' }).click();
  // Selecting the broker opened the Inspector: back to the terminal.
  await page.getByRole('tab', { name: 'Terminal' }).click();
  // replica.lag.time.max.ms (30 s simulated) later the leaders drop broker 4 from their ISRs.
  await expect
    .poll(
      async () => {
        await type(page, `kafka-topics.sh ${BS} --describe --under-replicated-partitions`);
        const output = terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last();
        await expect(output).not.toHaveText('Running…');
        return output.innerText();
      },
      { timeout: 60_000, intervals: [2000] },
    )
    .toMatch(/Topic: orders\tPartition: \d\tLeader: \d\tReplicas: [\d,]*4[\d,]*\tIsr: /);
  const last = terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last();
  const lines = (await last.innerText()).split('\n').filter((l) => l.trim() !== '');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    // Each line names a partition with broker 4 in its replicas and not in its ISR.
    const [, replicas, isr] = /Replicas: ([\d,]+)\tIsr: ([\d,]*)/.exec(line)!;
    expect(replicas!.split(',')).toContain('4');
    expect(isr!.split(',')).not.toContain('4');
  }
  await page.screenshot({ path: 'test-results/terminal-1280.png' });
});

test('the keyboard alone: Tab completes, Up recalls, a refusal is in the tool’s words', async ({ page }) => {
  // axe-core over the whole page takes a while on a busy machine.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  const terminal = await openTerminal(page);
  const input = terminal.getByRole('textbox', { name: 'Command line' });
  await input.focus();
  await page.keyboard.type('kafka-top');
  await page.keyboard.press('Tab');
  await expect(input).toHaveValue('kafka-topics.sh ');
  await page.keyboard.type(`${BS} --creat`);
  await page.keyboard.press('Tab');
  await page.keyboard.type('--topic orders --partitions 1');
  await page.keyboard.press('Enter');
  const output = terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last();
  await expect(output).toHaveText("Error while executing topic command : Topic 'orders' already exists.");
  await expect(terminal.getByText('✗ the tool refused (exit status 1)').last()).toBeVisible();
  await page.keyboard.press('ArrowUp');
  await expect(input).toHaveValue(`kafka-topics.sh ${BS} --create --topic orders --partitions 1`);
  await input.fill(`kafka-topics.sh ${BS} --list`);
  await page.keyboard.press('Enter');
  await expect(output).toHaveText(/^__consumer_offsets\norders$/);
  // Tab with nothing to complete moves on to the Run button.
  await input.fill('');
  await page.keyboard.press('Tab');
  await expect(terminal.getByRole('button', { name: 'Run' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/terminal-1920.png' });
});

test('a line that changes the cluster shows in the cluster and is recorded', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const terminal = await openTerminal(page);
  await type(page, `kafka-topics.sh ${BS} --create --topic payments --partitions 2 --replication-factor 3`);
  await expect(terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last()).toHaveText(
    'Created topic payments.',
  );
  await expect(terminal.getByText('✓ done: it changed the cluster, so the session records it')).toBeVisible();
  await type(page, `kafka-topics.sh ${BS} --describe --topic payments`);
  await expect(terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last()).toContainText(
    'Topic: payments\tTopicId: ',
  );
  await page.getByRole('tab', { name: 'Event log' }).click();
  await expect(
    page.getByRole('tabpanel', { name: 'Event log' }).getByText(/Topic payments created/),
  ).toBeVisible();
});

test('a reassignment from the terminal: write the plan, execute it, verify it until it completes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const terminal = await openTerminal(page);
  const last = () => terminal.getByRole('log', { name: 'Terminal output' }).locator('pre').last();
  const ran = async (line: string) => {
    await type(page, line);
    await expect(last()).not.toHaveText('Running…');
    return last().innerText();
  };
  // Where orders-0 lives now, and a broker that does not hold it.
  const describe = await ran(`kafka-topics.sh ${BS} --describe --topic orders`);
  const [, replicaList] = /Partition: 0\tLeader: \d+\tReplicas: ([\d,]+)/.exec(describe)!;
  const replicas = replicaList!.split(',').map(Number);
  const spare = [4, 5, 6, 7, 8, 9].find((b) => !replicas.includes(b))!;
  const target = [spare, ...replicas.slice(1)];
  await ran(
    `echo '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[${target.join(',')}]}]}' > plan.json`,
  );
  expect(await ran('cat plan.json')).toContain(`"replicas":[${target.join(',')}]`);
  const executed = await ran(
    `kafka-reassign-partitions.sh ${BS} --execute --reassignment-json-file plan.json`,
  );
  expect(executed).toContain('Save this to use as the --reassignment-json-file option during rollback');
  expect(executed).toContain('Successfully started partition reassignment for orders-0');
  await expect
    .poll(() => ran(`kafka-reassign-partitions.sh ${BS} --verify --reassignment-json-file plan.json`), {
      timeout: 60_000,
      intervals: [2000],
    })
    .toContain('Reassignment of partition orders-0 is completed.');
  expect(await ran(`kafka-topics.sh ${BS} --describe --topic orders`)).toContain(`Partition: 0\tLeader: `);
  expect(await ran(`kafka-topics.sh ${BS} --describe --topic orders`)).toMatch(
    new RegExp(`Partition: 0\\tLeader: \\d+\\tReplicas: ${target.join(',')}\\t`),
  );
  await page.screenshot({ path: 'test-results/terminal-reassign-1280.png' });
});

test('records piped into the console producer come back from the console consumer', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const terminal = await openTerminal(page);
  const log = terminal.getByRole('log', { name: 'Terminal output' });
  await type(
    page,
    `echo -e 'alice:1\\nbob:2' | kafka-console-producer.sh ${BS} --topic orders --property parse.key=true --property key.separator=:`,
  );
  // The records are delivered as the simulated clock runs; the one-shot consumer reads what is there.
  await expect
    .poll(
      async () => {
        await type(
          page,
          `kafka-console-consumer.sh ${BS} --topic orders --from-beginning --property print.key=true`,
        );
        const output = log.locator('pre').last();
        await expect(output).not.toHaveText('Running…');
        return output.innerText();
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toMatch(/alice\t1[\s\S]*Processed a total of \d+ messages/);
  await type(page, `kafka-acls.sh ${BS} --add --allow-principal User:alice --operation Read --topic orders`);
  await expect(log.locator('pre').last()).toContainText(
    'Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`:',
  );
  await type(page, `kafka-features.sh ${BS} describe`);
  await expect(log.locator('pre').last()).toContainText(
    'Feature: metadata.version\tSupportedMinVersion: 3.3-IV3',
  );
  await page.screenshot({ path: 'test-results/terminal-console-1280.png' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/terminal-console-1920.png' });
});
