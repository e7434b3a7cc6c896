import { expect, test, type Page } from '@playwright/test';
import { lessons } from '../src/scenario/lessons';

// Every step of every lesson, as a teacher shows it: at 1280×720 and 1920×1080, with presenter mode
// on and off, and in embed mode at 800×640. At each step (while predicting, and after the reveal)
// no part of the lesson (dock, caption) may cover the step's subject on the canvas or the side-panel
// form its task needs, the subject must be on screen, and every button of the lesson one can press
// must be inside the viewport and not clipped by the dock. One page per lesson and mode: the
// viewport is resized and presenter mode switched (P) within it at each step, so that every step is
// played only once.
// LAYOUT_SHOTS=DIR saves a screenshot of each checked moment (docs/screenshots holds a few).

test.setTimeout(1_200_000);

// Generous: on a loaded two-core machine a step at 100× can take a minute of wall time to show.
const STEP_TIMEOUT_MS = 180_000;
const SHOTS = process.env.LAYOUT_SHOTS;

interface Layout {
  width: number;
  height: number;
  present: boolean;
}

const FULL: Layout[] = [
  { width: 1280, height: 720, present: false },
  { width: 1920, height: 1080, present: false },
  { width: 1280, height: 720, present: true },
  { width: 1920, height: 1080, present: true },
];
const EMBED: Layout[] = [
  { width: 800, height: 640, present: false },
  { width: 800, height: 640, present: true },
];

/** Problems with what the page shows now, as sentences; empty when the layout is right. */
function layoutProblems(): string[] {
  type Box = { left: number; top: number; right: number; bottom: number };
  const boxOf = (el: Element): Box => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const overlaps = (a: Box, b: Box) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const inside = (a: Box, b: Box) =>
    a.left >= b.left - 1 && a.top >= b.top - 1 && a.right <= b.right + 1 && a.bottom <= b.bottom + 1;
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = (el: Element) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
  const problems: string[] = [];
  const viewport: Box = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const dock = document.querySelector('.lesson-dock');
  if (!dock) return ['the lesson dock is not shown'];
  const dockBox = boxOf(dock);
  if (!inside(dockBox, viewport)) problems.push('the lesson dock reaches outside the viewport');
  const lessonBoxes = [dock, ...document.querySelectorAll('.presenter-caption')].map(boxOf);
  // Every button one can press: after the reveal the dock scrolls it into view, and the choices,
  // disabled by then, may scroll out of sight above it (the dock scrolls; nothing is clipped).
  for (const button of dock.querySelectorAll('button')) {
    if (!shown(button) || button.disabled) continue;
    if (!inside(boxOf(button), dockBox)) problems.push(`lesson button "${name(button)}" is cut off`);
  }
  const canvas = document.querySelector('.canvas-area');
  const canvasBox = canvas ? boxOf(canvas) : null;
  if (!canvasBox || canvasBox.right - canvasBox.left < 300 || canvasBox.bottom - canvasBox.top < 250)
    problems.push('the canvas is smaller than 300×250');
  const wanted = (dock.getAttribute('data-subject-nodes') ?? '').split(',').filter(Boolean);
  for (const id of wanted) {
    const node = document.querySelector(`.react-flow__node[data-id="n${id}"]`);
    if (!node) continue; // not in the cluster yet (a broker the step adds)
    if (!node.classList.contains('lesson-subject')) problems.push(`node ${id} is not highlighted`);
    const box = boxOf(node);
    if (canvasBox && !inside(box, canvasBox)) problems.push(`node ${id}, the subject, is not in view`);
    if (lessonBoxes.some((b) => overlaps(b, box))) problems.push(`the lesson covers node ${id}`);
  }
  const side = document.querySelector('.side');
  const sideShown = side && shown(side);
  // Embed mode has no side panels: there the task is done with "Do it for me".
  if (dock.getAttribute('data-subject-panel') && !document.body.classList.contains('embed')) {
    const form = document.querySelector('.lesson-subject-panel');
    if (!sideShown || !form)
      problems.push(`the form ${dock.getAttribute('data-subject-panel')} is not shown`);
    else {
      const box = boxOf(form);
      const sideBox = boxOf(side);
      if (box.top < sideBox.top - 1 || box.top > sideBox.bottom - 40)
        problems.push('the subject form is scrolled out of view');
      if (lessonBoxes.some((b) => overlaps(b, box))) problems.push('the lesson covers the subject form');
    }
  }
  if (sideShown && !document.body.classList.contains('embed'))
    for (const tab of document.querySelectorAll('[role="tab"]')) {
      const box = boxOf(tab);
      if (lessonBoxes.some((b) => overlaps(b, box))) problems.push(`the lesson covers the tab ${name(tab)}`);
      if (!inside(box, viewport)) problems.push(`the tab ${name(tab)} is outside the viewport`);
    }
  return problems;
}

async function setPresenting(page: Page, present: boolean) {
  const pressed = await page.evaluate(() => document.body.classList.contains('presenting'));
  if (pressed !== present) await page.keyboard.press('p');
  await expect(page.locator('body')).toHaveClass(present ? /presenting/ : /^(?!.*presenting)/);
}

/** Checks the lesson's layout in each of the layouts; returns where it went wrong. */
async function checkLayouts(page: Page, layouts: Layout[], where: string): Promise<string[]> {
  const found: string[] = [];
  // The clock holds while we look (B, the clicker's "blank screen" key), so the page is idle.
  const playing = await page
    .getByRole('group', { name: 'Playback' })
    .getByRole('button', { name: 'Pause' })
    .isVisible();
  if (playing) await page.keyboard.press('b');
  for (const layout of layouts) {
    await page.setViewportSize({ width: layout.width, height: layout.height });
    await setPresenting(page, layout.present);
    // Two frames: the resize observer's fit, then the subject's keep-in-view.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
    );
    await page.waitForTimeout(50);
    const label = `${where} at ${layout.width}×${layout.height}${layout.present ? ', presenter' : ''}`;
    if (SHOTS)
      await page.screenshot({
        path: `${SHOTS}/${label.replace(/[^a-z0-9]+/gi, '-')}.png`,
        animations: 'disabled',
      });
    for (const problem of await page.evaluate(layoutProblems)) found.push(`${label}: ${problem}`);
  }
  if (playing) await page.keyboard.press('b');
  return found;
}

/**
 * Clicks without waiting for two equal animation frames: at 100× on a loaded machine the page may
 * paint a frame a second. Whether the button is on screen and uncovered is what layoutProblems checks.
 */
const press = (button: ReturnType<Page['getByRole']>) =>
  button.dispatchEvent('click', undefined, { timeout: STEP_TIMEOUT_MS });

/** Plays the lesson with "Do it for me" and the first choice, checking the layouts at each step. */
async function playChecking(page: Page, lessonId: string, layouts: Layout[]) {
  const lesson = lessons.find((l) => l.id === lessonId)!;
  const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
  await expect(card).toBeVisible({ timeout: STEP_TIMEOUT_MS });
  // The lesson starts at 10×: + + makes it 100× (and checks the speed keys on the way).
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect(page.getByLabel('Speed')).toHaveValue('100');
  const problems: string[] = [];
  for (const [i, step] of lesson.steps.entries()) {
    const where = `${lesson.id} step ${i + 1}`;
    await expect(card.getByRole('heading', { name: step.title, exact: true })).toBeVisible({
      timeout: STEP_TIMEOUT_MS,
    });
    if (step.predict) {
      problems.push(...(await checkLayouts(page, layouts, `${where}, predicting`)));
      await press(card.getByRole('button', { name: /^1\. / }));
    }
    if (step.task) await press(card.getByRole('button', { name: 'Do it for me' }));
    const next = card.getByRole('button', {
      name: i + 1 < lesson.steps.length ? 'Next step' : 'Finish the lesson',
    });
    await expect(next).toBeVisible({ timeout: STEP_TIMEOUT_MS });
    problems.push(...(await checkLayouts(page, layouts, `${where}, revealed`)));
    await press(next);
  }
  expect(problems).toEqual([]);
}

for (const lesson of lessons) {
  test(`lesson ${lesson.number} (${lesson.id}) never covers its subject, full page and presenter`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`./?lesson=${lesson.id}`);
    await playChecking(page, lesson.id, FULL);
  });

  test(`lesson ${lesson.number} (${lesson.id}) never covers its subject, embedded at 800×640`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 800, height: 640 });
    await page.goto(`./?embed&lesson=${lesson.id}`);
    await playChecking(page, lesson.id, EMBED);
  });
}

test('with a lesson open the side-panel tabs and the event log stay clickable', async ({ page }) => {
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await page.goto('./?lesson=broker-failure');
    await expect(page.getByRole('region', { name: /^Lesson: / })).toBeVisible();
    // Playwright's click fails when another element would receive it.
    await page.getByRole('tab', { name: 'Event log' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Event log' })).toBeVisible();
    await page.getByRole('tab', { name: 'Dashboard' }).click();
    await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute('aria-selected', 'true');
  }
  // In presenter mode the panels fold away, and come back with a button.
  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await expect(page.getByRole('tab', { name: 'Event log' })).toBeHidden();
  await page.getByRole('button', { name: 'Show panels' }).click();
  await page.getByRole('tab', { name: 'Event log' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Event log' })).toBeVisible();
});
