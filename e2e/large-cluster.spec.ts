// A real mid-sized cluster: 200 brokers in 4 racks and 20,000 partitions, pasted as
// `kafka-topics.sh --describe` output. The canvas draws each node as a tile (its id, its state's
// glyph, its leader count) so that all of them fit the screen without a minimap over them, and a
// tile works as a card does: named, selectable, crashable.
import { expect, test } from '@playwright/test';
import { describeOutput, READY_TEXT } from './hugeLayout';
import { paste, seriousViolations } from './support';

const inside = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;

test.setTimeout(360_000);

test('200 brokers and 20,000 partitions: every broker a tile on screen, crashable by keyboard, every partition a cell', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Import layout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import a layout' });
  await paste(page, 'Pasted tool output', describeOutput());
  await expect(dialog.getByRole('status', { name: 'What the import understood' })).toHaveText(READY_TEXT, {
    timeout: 60_000,
  });
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('status', { name: 'Opened session' })).toContainText(
    'Opened from the imported layout',
    { timeout: 120_000 },
  );

  const tiles = page.getByRole('group', { name: /^Broker \d+, zone-[abcd]/ });
  await expect(tiles).toHaveCount(200, { timeout: 60_000 });
  // Every tile lies inside the canvas, clear of its zoom buttons; no minimap is drawn over them.
  const canvas = (await page.getByRole('application', { name: 'Cluster canvas' }).boundingBox())!;
  const zoom = (await page.getByRole('button', { name: 'Zoom In' }).boundingBox())!;
  await expect(page.getByRole('img', { name: 'Minimap of the cluster' })).toHaveCount(0);
  const boxes = await tiles.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  for (const box of boxes) {
    expect(inside(box, canvas)).toBe(true);
    expect(box.x + box.width <= zoom.x || box.y >= zoom.y + zoom.height * 3).toBe(true);
    // Large enough to read its id at a projector's 1280x720.
    expect(box.width).toBeGreaterThanOrEqual(30);
  }

  // A tile is a node like a card: focus it, crash it with C, and its name and glyph say so.
  const tile = page.getByRole('group', { name: /^Broker 150, zone-c/ });
  await expect(tile).toContainText('150');
  await tile.focus();
  await page.keyboard.press('c');
  await expect(tile).toHaveAttribute('aria-label', /^Broker 150, zone-c, crashed/);
  await expect(tile).toContainText('✕');
  await page.locator('summary', { hasText: 'Legend' }).click();
  await expect(page.getByText(/each node a tile: its id/)).toBeVisible();

  // The Dashboard draws every partition as a cell, a row a topic; a topic's name lists it below.
  // The session opened paused at 0 s: the partitions exist once the controllers have a leader.
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play' }).click();
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  const dashboard = page.getByRole('tabpanel', { name: 'Dashboard' });
  await expect(dashboard.getByRole('status', { name: 'Partition matrix counts' })).toContainText(
    '20,000 partitions',
    { timeout: 120_000 },
  );
  await dashboard
    .getByRole('region', { name: 'Partitions by topic' })
    .getByRole('button', { name: /^topic-042: / })
    .click();
  await expect(dashboard.getByLabel('Filter partitions')).toHaveValue('topic-042');
  await expect(dashboard.getByText('Showing 200 of 20000 partitions.')).toBeVisible();
  // The Dashboard alone, paused: axe over 200 tiles of a running cluster takes minutes.
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause' }).click();
  expect(await seriousViolations(page, '.dashboard-panel')).toEqual([]);
});
