import { expect, test, type Page } from '@playwright/test';
import { setSpeed } from './support';

// A first visit, as a new learner meets it: the orientation, what the brokers are doing while
// they boot, what the page says about an address it cannot follow, and a readable event log.
const STARTUP_TIMEOUT_MS = 30_000;
test.describe.configure({ timeout: 120_000 });

const orientation = (page: Page) =>
  page.getByRole('dialog', { name: /New here\? This is a live Kafka cluster/ });
const brokers = (page: Page) => page.getByRole('group', { name: /^Broker \d+, zone-/ });

test('the first visit shows the orientation once; Escape dismisses it; the help opens it again', async ({
  page,
}) => {
  await page.goto('./');
  await expect(orientation(page)).toBeVisible();
  await expect(orientation(page)).toContainText('BrokerRegistration');
  await page.keyboard.press('Escape');
  await expect(orientation(page)).toHaveCount(0);

  await page.reload();
  await expect(brokers(page)).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  await expect(orientation(page)).toHaveCount(0);

  const helpButton = page.getByRole('button', { name: 'Keyboard help' });
  await helpButton.click();
  await page.getByRole('button', { name: 'Show the orientation' }).click();
  await expect(orientation(page)).toBeFocused();
  await orientation(page).getByRole('button', { name: 'Got it' }).click();
  await expect(orientation(page)).toHaveCount(0);
  await expect(helpButton).toBeFocused();
});

test('the orientation stays away from a lesson, an embed and a shared link', async ({ page }) => {
  for (const url of ['./?lesson=broker-failure', './?embed', './#s=garbage']) {
    await page.goto(url);
    await expect(page.getByRole('banner').or(page.getByRole('main')).first()).toBeVisible();
    await expect(orientation(page)).toHaveCount(0);
  }
});

test('each booting broker says what it waits for, and the words go once it is unfenced', async ({ page }) => {
  await page.goto('./');
  await expect(brokers(page).first()).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  // Before BrokerUnfenced, a fenced broker says why (KIP-631: registration, then metadata).
  await expect(
    page
      .getByText(
        /registering with the controller|catching up on metadata|waiting for the controller to unfence/,
      )
      .first(),
  ).toBeVisible();
  await setSpeed(page, 10);
  await expect(
    page.getByText(/waiting for the controller to unfence|registering with the controller/),
  ).toHaveCount(0, {
    timeout: STARTUP_TIMEOUT_MS,
  });
  await expect(brokers(page).filter({ hasText: 'FENCED' })).toHaveCount(0);
});

test('an unknown preset or lesson is named, with the valid ones, and the default cluster runs', async ({
  page,
}) => {
  await page.goto('./?preset=huge&lesson=nope');
  const notices = page.getByRole('status', { name: 'About this address' });
  await expect(notices).toContainText('There is no preset “huge”: the default cluster runs instead.');
  await expect(notices).toContainText('large');
  await expect(notices).toContainText('There is no lesson “nope”');
  await expect(notices).toContainText('broker-failure');
  await expect(brokers(page)).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  await notices.getByRole('button', { name: 'Dismiss' }).first().click();
  await expect(notices).not.toContainText('huge');
});

test('a broken link opened in a fresh tab says it started the default cluster', async ({ page }) => {
  await page.goto('./#s=garbage');
  const alert = page.getByRole('alert', { name: 'Could not open' });
  await expect(alert).toContainText('Could not open the link: started the default cluster instead.');
  await expect(alert).not.toContainText('running session is kept');
  await expect(brokers(page)).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });

  // With a session running, a broken link keeps it, and says so.
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await page.evaluate(() => (location.hash = '#s=garbage-again'));
  await expect(alert).toContainText('the running session is kept');
});

test('the event log folds the MetadataApplied of each change into one line that opens', async ({ page }) => {
  await page.goto('./');
  await setSpeed(page, 10);
  await expect(brokers(page)).toHaveCount(6, { timeout: STARTUP_TIMEOUT_MS });
  await page.getByRole('tab', { name: 'Event log' }).click();
  const log = page.getByRole('list', { name: 'Events, newest first' });
  const folded = log.getByText(/^MetadataApplied at offsets? [\d–]+ by brokers [\d, ]+and \d+$/).first();
  await expect(folded).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  // Hold the clock, so the newest group stays the one we open.
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause' }).click();
  const group = log.locator('li.event-group').first();
  await expect(group).toContainText(/MetadataApplied at offsets? /);
  const inner = group.getByRole('list', { name: /\d+ MetadataApplied events/ });
  await expect(inner).toBeHidden();
  await group.getByText(/^MetadataApplied at offsets? /).click();
  await expect(inner).toBeVisible();
  await expect(inner.getByText(/^Broker \d+ applied \d+ metadata record/).first()).toBeVisible();
});
