import { expect, test } from '@playwright/test';

// Lessons on the real simulator in the page (src/lessons, docs/lessons.md).
const TIMEOUT_MS = 40_000;
test.setTimeout(120_000);

test('a lesson is picked from the library and played step by step to its end', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Lessons' }).click();
  await page.getByRole('button', { name: 'The in-sync replicas (ISR)' }).click();
  const lesson = page.getByRole('region', { name: 'Lesson: The in-sync replicas (ISR)' });
  await expect(lesson.getByRole('heading', { name: 'The cluster starts' })).toBeVisible();
  await lesson.getByRole('button', { name: 'Next step' }).click({ timeout: TIMEOUT_MS });

  // Predict, then act ("Do it for me"), then the reveal.
  await expect(lesson.getByRole('heading', { name: 'A follower falls behind' })).toBeVisible();
  await expect(lesson.getByText('Kafka term: replica.lag.time.max.ms')).toBeVisible();
  await lesson.getByRole('button', { name: /^2\. After replica\.lag\.time\.max\.ms/ }).click();
  await lesson.getByRole('button', { name: 'Do it for me' }).click();
  const reveal = lesson.getByRole('status', { name: 'Reveal' });
  await expect(reveal).toContainText('Right', { timeout: TIMEOUT_MS });
  await lesson.getByRole('button', { name: 'Next step' }).click();

  await expect(lesson.getByRole('heading', { name: 'It returns' })).toBeVisible();
  await lesson.getByRole('button', { name: 'Do it for me' }).click();
  await lesson.getByRole('button', { name: 'Finish the lesson' }).click({ timeout: TIMEOUT_MS });
  // The summary: what the lesson taught, and the prediction made.
  const summary = page.getByRole('region', { name: 'Lesson summary: The in-sync replicas (ISR)' });
  await expect(summary).toContainText('1 of 1 right');
  await summary.getByRole('button', { name: 'Back to the lessons' }).click();

  // Back at the library, the lesson is marked done, and stays so after a reload (localStorage).
  await expect(page.getByRole('region', { name: 'Lessons' }).getByLabel('completed')).toHaveCount(1);
  await page.reload();
  await page.getByRole('button', { name: 'Lessons' }).click();
  await expect(page.getByRole('region', { name: 'Lessons' }).getByLabel('completed')).toHaveCount(1);
});

test('presenter mode: the narration is a caption and the keyboard drives the lesson', async ({ page }) => {
  await page.goto('./?present&lesson=broker-failure');
  const caption = page.getByRole('region', { name: 'Narration' });
  await expect(caption).toContainText('KRaft cluster');
  const reveal = page.getByRole('status', { name: 'Reveal' });
  await expect(reveal).toBeVisible({ timeout: TIMEOUT_MS });
  await page.keyboard.press('Space');
  await expect(caption).toContainText('metadata', { timeout: TIMEOUT_MS });
  await expect(reveal).toBeVisible({ timeout: TIMEOUT_MS });
  await page.keyboard.press('PageDown');
  await expect(caption).toContainText('heartbeat', { timeout: TIMEOUT_MS });
  await page.keyboard.press('2');
  await page.keyboard.press('Space');
  await expect(reveal).toContainText('Right', { timeout: TIMEOUT_MS });
});

test('embed mode shows the canvas and the lesson, not the side panels', async ({ page }) => {
  await page.goto('./?embed&lesson=replication');
  await expect(page.getByRole('application', { name: 'Cluster canvas' })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await expect(page.getByRole('region', { name: /^Lesson: Replication/ })).toBeVisible();
  await expect(page.getByRole('tablist', { name: 'Side panels' })).toBeHidden();
});

test('on a projector-sized screen the header keeps the theme and lesson toggles reachable', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present');
  // Playwright's click fails if another element (the lesson overlay, a fixed button) covers the target.
  await page.getByRole('button', { name: /^Theme: system/ }).click();
  await expect(page.getByRole('button', { name: /^Theme: light/ })).toBeVisible();
  await page.getByRole('button', { name: 'Hide lessons' }).click();
  await page.getByRole('button', { name: 'Lessons' }).click();
  await expect(page.getByRole('button', { name: 'Hide lessons' })).toBeVisible();
});

test('a link to a lesson step opens that step, and a link copied there opens the same step again', async ({
  page,
  context,
}) => {
  await page.goto('./?lesson=broker-failure&step=3');
  const lesson = page.getByRole('region', { name: 'Lesson: A broker dies' });
  // The steps before are played for the learner; the clock holds for the prediction.
  await expect(lesson.getByRole('heading', { name: 'Broker 4 crashes' })).toBeVisible({
    timeout: TIMEOUT_MS,
  });
  await expect(lesson.getByText('step 3 of 6')).toBeVisible();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
  expect(link).toContain('lesson=broker-failure');
  expect(link).toContain('step=3');
  expect(link).toContain('#s=');
  const other = await context.newPage();
  await other.goto(link);
  const again = other.getByRole('region', { name: 'Lesson: A broker dies' });
  await expect(again.getByRole('heading', { name: 'Broker 4 crashes' })).toBeVisible({ timeout: TIMEOUT_MS });
  await expect(again.getByText('step 3 of 6')).toBeVisible();
  // Back, in the first page, reaches the step before.
  await lesson.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(lesson.getByText('step 2 of 6')).toBeVisible();
});
