import { expect, test, type Locator, type Page } from '@playwright/test';
import { setSpeed } from './support';

// The timeline under the canvas, as a teacher uses it: markers told apart by glyph and label,
// markers at one moment gathered in a cluster that lists them, and steps that name their event.
const STARTUP_TIMEOUT_MS = 30_000;

/** Three brokers; broker 4 is crashed from the canvas, and the clock paused a little later. */
async function crashBroker4(page: Page): Promise<void> {
  await page.goto('./?preset=three-brokers');
  const broker4 = page.getByRole('group', { name: /^Broker 4, .*running/ });
  await expect(broker4).toBeVisible({ timeout: STARTUP_TIMEOUT_MS });
  await setSpeed(page, 10);
  // After the boot's elections, so that the crash stands apart from them on the scrubber.
  await expect(page.getByRole('status', { name: 'Simulated time' })).toHaveText(/^([1-9]\d+)\.\d s$/, {
    timeout: STARTUP_TIMEOUT_MS,
  });
  await broker4.click();
  await page.getByRole('button', { name: 'Crash node 4' }).first().click();
  await expect(page.getByRole('group', { name: /^Broker 4, .*crashed/ })).toBeVisible();
  await page.getByRole('button', { name: 'Pause' }).click();
}

const markerLane = (page: Page) =>
  page.getByRole('region', { name: 'Timeline' }).getByRole('list', { name: 'Markers' });

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not drawn');
  return b;
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('markers have a glyph and a label; the crash and the action that caused it form one cluster that lists both', async ({
  page,
}) => {
  await crashBroker4(page);
  const lane = markerLane(page);

  // The boot's elections: a star, named by kind, time and what happened.
  const election = lane.getByRole('button', { name: /^Election at \d+\.\d s: / }).first();
  await expect(election).toBeVisible();
  await expect(election).toContainText('★');

  // Your action and the crash it caused share one instant: one cluster, with their count.
  const cluster = lane.getByRole('button', { name: /^2 markers at \d+\.\d s: Crash, Your action$/ });
  await expect(cluster).toBeVisible();
  await expect(cluster).toContainText('✕');
  await expect(cluster).toContainText('2');
  await expect(cluster).toHaveAttribute('aria-expanded', 'false');

  // Keyboard: Enter opens the list and focuses its first member; ↓ moves; Escape closes.
  await cluster.focus();
  await page.keyboard.press('Enter');
  const members = page.getByRole('group', { name: /^2 markers at/ });
  const crash = members.getByRole('button', { name: /^Crash at \d+\.\d s: Node 4 crashed/ });
  const action = members.getByRole('button', { name: /^Your action at \d+\.\d s: Crash node 4$/ });
  await expect(crash).toBeFocused();
  await expect(action).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(action).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(members).toBeHidden();
  await expect(cluster).toBeFocused();

  // A member seeks to its time.
  const crashTime = /at (\d+\.\d s)/.exec((await cluster.getAttribute('aria-label'))!)![1];
  await page.keyboard.press('Enter');
  await crash.press('Enter');
  await expect(members).toBeHidden();
  await expect(page.getByRole('status', { name: 'Position' })).toHaveText(new RegExp(`^${crashTime} /`));
});

test('‹ Event and Event › name the event they land on, and the screen-reader status says it too', async ({
  page,
}) => {
  await crashBroker4(page);
  const status = page.getByRole('status', { name: 'Event stepped to' });
  const position = page.getByRole('status', { name: 'Position' });

  await page.getByRole('button', { name: 'Step back one event' }).click();
  await expect(status).toContainText(/^Stepped back to \d+\.\d{3} s: [A-Z][A-Za-z]+: \S/);
  // The step's time, to the millisecond, is the clock's (which shows tenths).
  const at = Number(/to (\d+\.\d{3}) s/.exec(await status.innerText())![1]);
  await expect(position).toHaveText(new RegExp(`^${(Math.floor(at * 10) / 10).toFixed(1)} s /`));

  await page.getByRole('button', { name: 'Rewind to the start' }).click();
  await expect(status).toHaveText('');
  await page.getByRole('button', { name: 'Step forward one event' }).click();
  await expect(status).toContainText(/^Stepped forward to \d+\.\d{3} s: [A-Z][A-Za-z]+: \S/);
});

test('a branch shows its own markers, and no marker covers the slider, the branches or the session row', async ({
  page,
}) => {
  await crashBroker4(page);
  const lane = markerLane(page);
  await expect(lane.getByRole('button', { name: /Crash/ })).toHaveCount(1);

  // Back to before the crash, crash broker 3 instead: a second branch.
  const cluster = lane.getByRole('button', { name: /^2 markers at (\d+\.\d) s: Crash, Your action$/ });
  const crashAt = Number(/at (\d+\.\d) s/.exec((await cluster.getAttribute('aria-label'))!)![1]);
  // From the branch's very end, where the slider stands (its value once fell off its 100 ms grid,
  // and the browser's snapping made React drop this input).
  await page.getByRole('slider', { name: 'Seek simulated time' }).fill(String((crashAt - 2) * 1000));
  await expect(page.getByRole('status', { name: 'Simulated time' })).toHaveText(
    `${(crashAt - 2).toFixed(1)} s`,
  );
  await page.getByRole('group', { name: /^Broker 3, .*running/ }).click();
  await page.getByRole('button', { name: 'Crash node 3' }).first().click();
  const branches = page.getByRole('list', { name: 'Branches' });
  await expect(branches.getByRole('button', { pressed: true })).toContainText('Branch 2');

  // This branch's crash is broker 3's, earlier; broker 4 never crashed here.
  const crash = lane.getByRole('button', { name: /^2 markers at (\d+\.\d) s: Crash, Your action$/ });
  await expect(crash).toHaveCount(1);
  await crash.click();
  const members = page.getByRole('group', { name: /^2 markers at/ });
  await expect(members.getByRole('button', { name: /Node 3 crashed/ })).toBeVisible();
  await expect(members.getByRole('button', { name: /Node 4/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  const covered = [
    page.getByRole('slider', { name: 'Seek simulated time' }),
    ...(await branches.getByRole('button').all()),
    page.getByRole('button', { name: 'Copy link' }),
    page.getByRole('button', { name: 'Export' }),
  ];
  for (const marker of await lane.getByRole('button').all()) {
    const m = await box(marker);
    for (const other of covered) expect(overlaps(m, await box(other))).toBe(false);
  }
});
