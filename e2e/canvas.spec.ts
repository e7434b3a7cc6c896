import { expect, test, type Locator, type Page } from '@playwright/test';
import { setSpeed } from './support';

// The live cluster canvas, as a person uses it: by role, label and visible text. Waits are in
// simulated terms (the speed is raised through the UI), never fixed sleeps.
const STARTUP_TIMEOUT_MS = 20_000;
const STORY_TIMEOUT_MS = 30_000;

const brokers = (page: Page) => page.getByRole('group', { name: /^Broker \d+, zone-/ });
const controllers = (page: Page) => page.getByRole('group', { name: /^Controller \d+, zone-/ });
const leaderChip = (scope: Page | Locator, partition: string) =>
  scope.getByRole('img', { name: new RegExp(`^${partition} leader,`) });
const brokerNode = (page: Page, id: number) =>
  page.getByRole('group', { name: new RegExp(`^Broker ${id},`) });

/** The broker that leads `partition`, read off the canvas. */
async function leaderOf(page: Page, partition: string): Promise<number> {
  const node = brokers(page).filter({ has: leaderChip(page, partition) });
  await expect(node).toHaveCount(1, { timeout: STARTUP_TIMEOUT_MS });
  const label = (await node.getAttribute('aria-label')) ?? '';
  return Number(/^Broker (\d+)/.exec(label)![1]);
}

const eventLog = (page: Page) => page.getByRole('list', { name: 'Events, newest first' });

async function openEventLog(page: Page) {
  await page.getByRole('tab', { name: 'Event log' }).click();
}

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.goto('./');
});

test('opens with six brokers in three zones, three controllers and the orders partitions', async ({
  page,
}) => {
  await expect(brokers(page)).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  await expect(controllers(page)).toHaveCount(3);
  for (const zone of ['zone-a', 'zone-b', 'zone-c'])
    await expect(page.getByRole('button', { name: `Isolate zone ${zone}` })).toBeVisible();
  // Every partition gets a leader in the first simulated seconds.
  for (let p = 0; p < 6; p++)
    await expect(leaderChip(page, `orders-${p}`)).toHaveCount(1, { timeout: STARTUP_TIMEOUT_MS });
  await expect(page.getByRole('img', { name: /^orders-\d+ in-sync follower/ })).toHaveCount(12);
});

test('crashing the leader of orders-0 fences it and elects a new leader', async ({ page }) => {
  const leader = await leaderOf(page, 'orders-0');
  await setSpeed(page, 10);
  await brokerNode(page, leader).getByText(`Broker ${leader}`, { exact: true }).click();
  await brokerNode(page, leader)
    .getByRole('button', { name: `Crash node ${leader}` })
    .click();
  await expect(brokerNode(page, leader)).toHaveAttribute('aria-label', /crashed/);

  // broker.session.timeout.ms is 9 s: at 10× about a second of wall time.
  await expect(leaderChip(brokerNode(page, leader), 'orders-0')).toHaveCount(0, {
    timeout: STORY_TIMEOUT_MS,
  });
  const newLeader = await leaderOf(page, 'orders-0');
  expect(newLeader).not.toBe(leader);

  await openEventLog(page);
  await expect(eventLog(page).getByText('BrokerFenced', { exact: true }).first()).toBeVisible({
    timeout: STORY_TIMEOUT_MS,
  });
  await expect(eventLog(page).getByText('LeaderElected', { exact: true }).first()).toBeVisible();
});

test('isolating a zone under-replicates partitions, and healing brings them back', async ({ page }) => {
  await expect(leaderChip(page, 'orders-0')).toHaveCount(1, { timeout: STARTUP_TIMEOUT_MS });
  const underReplicated = page.getByRole('status', { name: /^Under-replicated partitions: / });
  await expect(underReplicated).toHaveAccessibleName('Under-replicated partitions: 0');

  // replica.lag.time.max.ms is 30 s: at 100× well under a second of wall time.
  await setSpeed(page, 100);
  await page.getByRole('button', { name: 'Isolate zone zone-a' }).click();
  await expect(brokerNode(page, 4)).toHaveAttribute('aria-label', /cut off from the cluster/);
  await expect(underReplicated).not.toHaveAccessibleName('Under-replicated partitions: 0', {
    timeout: STORY_TIMEOUT_MS,
  });
  await expect(
    page.getByRole('img', { name: /^orders-\d+ (out-of-sync follower|offline replica|eligible)/ }).first(),
  ).toBeVisible({
    timeout: STORY_TIMEOUT_MS,
  });

  await page.getByRole('button', { name: 'Heal network' }).first().click();
  await expect(brokerNode(page, 4)).not.toHaveAttribute('aria-label', /cut off/);
  await expect(underReplicated).toHaveAccessibleName('Under-replicated partitions: 0', {
    timeout: STORY_TIMEOUT_MS,
  });
});

test('the crash story by keyboard alone', async ({ page }) => {
  const leader = await leaderOf(page, 'orders-0');
  const node = brokerNode(page, leader);
  // Tab through the page until the leader's card has the focus.
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await node.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(node).toBeFocused();

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('crash the focused node');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(node).toBeFocused();

  await page.keyboard.press('c');
  await expect(node).toHaveAttribute('aria-label', /crashed/);
  // The new leader is elected once the controller fences the crashed broker.
  await expect(leaderChip(node, 'orders-0')).toHaveCount(0, { timeout: STORY_TIMEOUT_MS * 2 });

  await page.keyboard.press('r');
  await expect(node).toHaveAttribute('aria-label', new RegExp(`^Broker ${leader}, zone-[abc], running`), {
    timeout: STORY_TIMEOUT_MS,
  });

  // Enter selects the node and shows its buttons, reachable with Tab.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(node.getByRole('button', { name: `Crash node ${leader}` })).toBeFocused();
});

test('in a narrow window the panels stack below the cluster and its timeline, neither drawn over the other', async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await expect(brokers(page)).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  const cluster = await page.getByRole('region', { name: 'Cluster', exact: true }).boundingBox();
  const timeline = await page.getByRole('button', { name: 'Copy link' }).boundingBox();
  const panels = page.getByRole('complementary', { name: 'Panels' });
  await panels.scrollIntoViewIfNeeded();
  const side = await panels.boundingBox();
  const clusterAfter = await page.getByRole('region', { name: 'Cluster', exact: true }).boundingBox();
  expect(cluster && timeline && side && clusterAfter).toBeTruthy();
  // Measured in one scroll position: the panels begin below the cluster and the time dock.
  const scrolled = cluster!.y - clusterAfter!.y;
  expect(side!.y + scrolled).toBeGreaterThanOrEqual(cluster!.y + cluster!.height);
  expect(side!.y + scrolled).toBeGreaterThanOrEqual(timeline!.y + timeline!.height);
  // And the panel's tabs are there to use.
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
});
