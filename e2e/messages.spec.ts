import { expect, test, type Page } from '@playwright/test';
import { raiseSpeed, seriousViolations } from './support';

// The default scenario: controllers 1 to 3, brokers 4 to 9, `orders` (6 partitions, RF 3; broker 4
// leads orders-1), producer-1 at 5 records/s with acks=all, and a consumer group of two.
const STARTUP_TIMEOUT_MS = 20_000;

const simulatedSeconds = async (page: Page) =>
  parseFloat(await page.getByRole('status', { name: 'Simulated time' }).innerText());

async function openMessages(page: Page) {
  await page.getByRole('tab', { name: 'Messages' }).click();
  return page.getByRole('tabpanel', { name: 'Messages' });
}

test.setTimeout(180_000);

test('the message diagram shows the messages between lanes, filters by kind, shows a body and seeks', async ({
  page,
}) => {
  await page.goto('./');
  const panel = await openMessages(page);
  const diagram = panel.getByRole('group', { name: /^Message diagram/ });
  await expect(
    diagram.getByRole('button', { name: /^Produce from producer producer-1 to broker \d/ }).first(),
  ).toBeAttached({
    timeout: STARTUP_TIMEOUT_MS,
  });
  await expect(
    diagram.getByRole('button', { name: /^Fetch from broker \d to broker \d/ }).first(),
  ).toBeAttached();

  // Paused first: at speed the clock runs on and the window with it.
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause' }).click();
  const kinds = panel.getByRole('group', { name: 'Kinds of message' });
  for (const box of await kinds.getByRole('checkbox').all()) await box.uncheck();
  await kinds.getByRole('checkbox', { name: 'Produce' }).check();
  await expect(diagram.getByRole('button', { name: /^Fetch from/ })).toHaveCount(0);
  await expect(diagram.getByRole('button', { name: /^Produce/ }).first()).toBeAttached();
  const names = await diagram
    .getByRole('button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(names.every((n) => /^Produce(Response)? from/.test(n ?? ''))).toBe(true);

  // Hovering shows the body: its kind, ends and fields.
  const produce = diagram.getByRole('button', { name: /^Produce from producer producer-1/ }).first();
  await produce.scrollIntoViewIfNeeded();
  await produce.hover({ force: true });
  const body = panel.getByRole('region', { name: 'Message body' });
  await expect(body.getByRole('heading')).toHaveText(/^Produce/);
  // The request or its answer, two milliseconds later on the same lanes: both name the partition.
  await expect(body).toContainText(/topic\s*orders/);
  await expect(body).toContainText(/partition\s*\d/);

  // Enter on a focused message seeks the timeline to its send time.
  await panel.getByRole('combobox', { name: 'Window' }).selectOption('5');
  const target = diagram.getByRole('button', { name: /^Produce from producer producer-1/ }).first();
  const label = (await target.getAttribute('aria-label')) ?? '';
  const sentS = parseFloat(/sent at ([\d.]+) s/.exec(label)?.[1] ?? 'NaN');
  expect(sentS).toBeLessThan(await simulatedSeconds(page));
  // The window's arrows are redrawn as the wider view arrives: focus that very message by its name.
  await diagram.getByRole('button', { name: label, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => Math.abs((await simulatedSeconds(page)) - sentS), { timeout: 10_000 })
    .toBeLessThan(0.15);

  expect(await seriousViolations(page)).toEqual([]);
});

test('a cut link loses messages (✕), and the client history shows an indefinite send that landed', async ({
  page,
}) => {
  await page.goto('./');
  await raiseSpeed(page);
  await page.getByRole('tab', { name: 'Controls' }).click();
  const controls = page.getByRole('tabpanel', { name: 'Controls' });
  await expect(page.getByRole('status', { name: 'Simulated time' })).not.toHaveText('0.0 s');
  // Broker 4's answers to producer-1 are lost: its writes commit, but the producer never hears so.
  const cut = controls.getByRole('group', { name: 'Cut a link' });
  await cut.getByLabel('From', { exact: true }).selectOption('4');
  await cut.getByLabel('To', { exact: true }).selectOption('producer-1');
  await cut.getByRole('checkbox', { name: /One way/ }).check();
  await cut.getByRole('button', { name: 'Cut link' }).click();
  const panel = await openMessages(page);
  await expect(panel.getByText(/Cut links now: broker 4 → producer producer-1/)).toBeVisible();
  const diagram = panel.getByRole('group', { name: /^Message diagram/ });
  await expect(
    diagram
      .getByRole('button', {
        name: /^ProduceResponse from broker 4 to producer producer-1, .*lost \(link cut\)/,
      })
      .first(),
  ).toBeAttached({ timeout: STARTUP_TIMEOUT_MS });

  // delivery.timeout.ms (120 s) later the records broker 4 wrote fail with TimeoutException.
  await panel.getByRole('combobox', { name: 'Window' }).selectOption('300');
  const counts = panel.getByRole('status', { name: 'Client history counts' });
  await expect(counts).toContainText(/✔ [1-9]\d* acknowledged/, { timeout: STARTUP_TIMEOUT_MS });
  await expect(counts).toContainText(/◌ [1-9]\d* indefinite/, { timeout: 120_000 });
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause' }).click();
  const history = panel.getByRole('region', { name: 'Client history' });
  await expect(history.getByText(/indefinite .*it did land, at offset \d+/).first()).toBeVisible();
  await expect(
    history
      .getByRole('list', { name: 'Sends of producer-1' })
      .getByText(/acknowledged at offset \d+/)
      .first(),
  ).toBeAttached();
  expect(await seriousViolations(page)).toEqual([]);
});
