import { expect, test, type Page } from '@playwright/test';
import { presets } from '../src/scenario/presets';
import { encodeSession, newSession, type Session } from '../src/scenario/session';
import { setSpeed } from './support';

// What a link may ask for, and a worker that fails: the page stays usable and says what happened.
const STARTUP_TIMEOUT_MS = 30_000;

const linkOf = (session: Session) => `./#s=${encodeSession(session)}`;

async function simulatedSeconds(page: Page): Promise<number> {
  const text = await page.getByRole('status', { name: 'Simulated time' }).innerText();
  return Number.parseFloat(text);
}

test('a link that replays hours of simulated time says so, shows progress, and Cancel keeps the running cluster', async ({
  page,
}) => {
  const session: Session = { ...newSession(presets.default.scenario), positionMs: 3 * 60 * 60 * 1000 };
  await page.goto('./');
  await expect(page.getByRole('group', { name: /^Broker 4/ })).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  await page.goto(linkOf(session));
  const banner = page.getByRole('status', { name: 'Replay' });
  await expect(banner).toContainText('Opening the link: replaying 3 h 00 min 00 s of simulated time.', {
    timeout: STARTUP_TIMEOUT_MS,
  });
  // The replay moves on while the page answers: the cluster that runs meanwhile is still drawn.
  await expect(page.getByRole('group', { name: /^Broker 4/ })).toBeVisible();
  const progress = banner.getByRole('progressbar', { name: 'Replayed' });
  await expect
    .poll(async () => Number(await progress.getAttribute('value')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await page.waitForTimeout(500);
  await banner.getByRole('button', { name: 'Cancel' }).click();
  await expect(banner).toContainText(
    /Opening the link was cancelled at .+ of 3 h 00 min 00 s: the running session is kept\./,
  );
  // The running cluster plays on from where it was, minutes of simulated time, not hours.
  const before = await simulatedSeconds(page);
  await expect.poll(() => simulatedSeconds(page), { timeout: 10_000 }).toBeGreaterThan(before);
  expect(await simulatedSeconds(page)).toBeLessThan(600);
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
});

test('a link that asks for a position years ahead is refused before anything replays', async ({ page }) => {
  const session: Session = { ...newSession(presets.default.scenario), positionMs: 1e12 };
  await page.goto(linkOf(session));
  const problems = page.getByRole('alert', { name: 'Could not open' });
  await expect(problems).toContainText('more than a day of virtual time; the limit is 86400000 ms (24 h)', {
    timeout: STARTUP_TIMEOUT_MS,
  });
  await expect(page.getByRole('group', { name: /^Broker 4/ })).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
});

test('a worker that fails is restarted from the last save point, and the page says what was lost', async ({
  page,
}) => {
  await page.goto('./?debug');
  await expect(page.getByRole('group', { name: /^Broker 4/ })).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  await setSpeed(page, 10);
  // The page saves the session every 5 s of wall time.
  await page.waitForTimeout(6_000);
  const beforeCrash = await simulatedSeconds(page);
  await page.evaluate(() =>
    (window as unknown as { __kclDebug: { crashWorker(): void } }).__kclDebug.crashWorker(),
  );
  const alert = page.getByRole('alert').filter({ hasText: 'The simulation stopped' });
  await expect(alert).toContainText(
    /The simulation stopped \(the simulation worker failed: the worker was ended from the page \(\?debug\)\)\. It was restarted from the moment saved last, \d+ s of simulated time; what happened after that moment was lost\./,
  );
  const saved = Number(/saved last, (\d+) s/.exec(await alert.innerText())![1]);
  expect(saved).toBeGreaterThan(0);
  expect(saved).toBeLessThanOrEqual(beforeCrash);
  // The restarted worker stands at the save point, paused, and plays on when asked.
  await expect
    .poll(() => simulatedSeconds(page), { timeout: STARTUP_TIMEOUT_MS })
    .toBeGreaterThanOrEqual(saved);
  await expect(page.getByRole('group', { name: /^Broker 4/ })).toBeVisible();
  await page.getByRole('button', { name: 'Play' }).click();
  const resumed = await simulatedSeconds(page);
  await expect.poll(() => simulatedSeconds(page), { timeout: 10_000 }).toBeGreaterThan(resumed);
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);
});
