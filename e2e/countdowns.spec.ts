import { expect, test } from '@playwright/test';

// The countdowns a teacher points at: a crashed broker's card counts the seconds since its last
// heartbeat against broker.session.timeout.ms, and says when the controller has fenced it.
const STARTUP_TIMEOUT_MS = 30_000;

test.describe.configure({ timeout: 120_000 });

test('a crashed broker counts down to its fencing, on its card', async ({ page }) => {
  await page.goto('./');
  const broker = page.getByRole('group', { name: /^Broker 4,/ });
  await expect(broker).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  const heartbeat = broker.getByRole('timer', { name: /^last heartbeat/ });
  // A healthy broker shows no countdown, until it is selected: then its clock resets on each heartbeat.
  await expect(heartbeat).toHaveCount(0);
  await broker.getByText('Broker 4', { exact: true }).click();
  await expect(heartbeat).toHaveAccessibleName(
    /^last heartbeat \d\.\d s ago of broker\.session\.timeout\.ms 9 s; then the active controller fences the broker$/,
  );
  await broker.getByRole('button', { name: 'Crash node 4' }).click();
  await broker.focus();
  await page.keyboard.press('Escape');
  await expect(broker.getByRole('toolbar', { name: 'Actions for node 4' })).toHaveCount(0);
  // Still drawn once the broker is no longer selected: its heartbeat is late.
  await expect(heartbeat).toHaveAccessibleName(
    /^last heartbeat [3-8]\.\d s ago of broker\.session\.timeout\.ms 9 s/,
    {
      timeout: STARTUP_TIMEOUT_MS,
    },
  );
  await expect(heartbeat).toContainText('/ 9 s');
  // At 1× the run-out clock stays about four seconds (EXPIRED_LINGER_MS), long enough to point at.
  await expect(heartbeat).toHaveAccessibleName(/9 s; the active controller fenced the broker$/, {
    timeout: STARTUP_TIMEOUT_MS,
  });
  await expect(heartbeat).toContainText('✕');
  // A few seconds later the moment has passed: the CRASHED mark stays, the countdown goes.
  await expect(heartbeat).toHaveCount(0, { timeout: STARTUP_TIMEOUT_MS });
  await expect(broker).toHaveAttribute('aria-label', /crashed/);
});
