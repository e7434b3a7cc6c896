// The delivery-guarantee and message-lifecycle lessons in Chromium at 1280×720, as a learner plays them: "Delivery guarantees"
// (at most once, at least once, exactly once) and "A record from send() to commit", whose steps open
// the Partition log on the record's partition; and the two fork-and-compare experiments of
// transactions and idempotence. lessons-played.spec.ts leaves these lessons to this spec.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { lessonById, type Lesson } from '../src/scenario/lessons';

/** Plays step `i` answering right (or choice `choose`), and waits for its reveal; returns the reveal. */
async function playStep(page: Page, lesson: Lesson, i: number, choose?: number): Promise<Locator> {
  const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
  const step = lesson.steps[i]!;
  await expect(card.getByRole('heading', { name: step.title, exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText(`step ${i + 1} of ${lesson.steps.length}`)).toBeVisible();
  await expect(card.getByText(`Kafka term: ${step.term}`, { exact: true })).toBeVisible();
  if (step.predict) {
    const p = step.predict;
    const choice = choose ?? p.answer;
    await card.getByRole('button', { name: `${choice + 1}. ${p.choices[choice]}`, exact: true }).click();
  }
  if (step.task) await card.getByRole('button', { name: 'Do it for me' }).click();
  const reveal = card.getByRole('status', { name: 'Reveal' });
  await expect(reveal).toBeVisible({ timeout: ((step.waitMs ?? 60_000) / 10) * 2 + 30_000 });
  await expect(card.getByRole('alert')).toHaveCount(0);
  if (step.predict) {
    if ((choose ?? step.predict.answer) === step.predict.answer) await expect(reveal).toContainText('Right.');
    else await expect(reveal).toContainText(`Not quite: the answer is ${step.predict.answer + 1}.`);
    await expect(reveal).not.toContainText('The simulator did something else');
  }
  return reveal;
}

async function next(page: Page, lesson: Lesson, i: number) {
  const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
  const last = i === lesson.steps.length - 1;
  await card.getByRole('button', { name: last ? 'Finish the lesson' : 'Next step' }).click();
}

const stepIndex = (lesson: Lesson, id: string) => lesson.steps.findIndex((s) => s.id === id);

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
});

test('Delivery guarantees: at most once, at least once and exactly once, each predicted and shown', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const lesson = lessonById('delivery-guarantees')!;
  await page.goto(`./?lesson=${lesson.id}`);
  const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
  await expect(card).toBeVisible({ timeout: 20_000 });
  let predictions = 0;
  let right = 0;
  for (let i = 0; i < lesson.steps.length; i++) {
    const step = lesson.steps[i]!;
    // The first prediction is answered wrong: the card must say so, and give the right one.
    const wrong =
      step.predict && predictions === 0 ? (step.predict.answer + 1) % step.predict.choices.length : undefined;
    const reveal = await playStep(page, lesson, i, wrong);
    if (step.predict) {
      predictions++;
      if (wrong === undefined) right++;
      await expect(reveal).toContainText(step.predict.explanation.slice(0, 40));
    }
    if (step.id === 'fire-and-forget') await expect(reveal).toContainText('"fire" saw no error');
    if (step.id === 'redelivered') await expect(reveal).toContainText('late-0 … late-4 again');
    // The end: a crash in the middle of a consume-transform-produce transaction, each result once.
    if (step.id === 'crash-mid-transaction') {
      await expect(reveal).toContainText('The auditor (read_committed) read one receipt per order');
      await expect(page.getByRole('region', { name: 'Cluster', exact: true })).toContainText('auditor');
    }
    await next(page, lesson, i);
  }
  const summary = page.getByRole('region', { name: `Lesson summary: ${lesson.title}` });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText(`${right} of ${predictions} right`);
});

test("A record from send() to commit: the step opens orders-0's log, and the record's journey shows each stage", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const lesson = lessonById('message-lifecycle')!;
  await page.goto(`./?lesson=${lesson.id}`);
  const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
  await expect(card).toBeVisible({ timeout: 20_000 });
  const journeyStep = stepIndex(lesson, 'journey');
  for (let i = 0; i < journeyStep; i++) {
    await playStep(page, lesson, i);
    await next(page, lesson, i);
  }
  // The step opens the Partition log tab on orders-0, the partition customer-42 hashes to.
  await expect(card.getByRole('heading', { name: lesson.steps[journeyStep]!.title })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Partition log' })).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel', { name: 'Partition log' });
  await expect(panel.getByRole('combobox', { name: 'Partition' })).toHaveValue('orders-0');
  const order1 = panel.getByRole('button', {
    name: /^offset 0 on broker 2: key customer-42, value order-1, leader epoch 0/,
  });
  await expect(order1).toBeVisible({ timeout: 10_000 });
  await expect(order1).toBeInViewport();
  await order1.click();
  const stages = panel.getByRole('list', { name: /^Stages of record/ });
  await expect(stages).toBeVisible();
  for (const text of [
    'send() by shop: key "customer-42"',
    'murmur2(key) mod 3',
    'closed by linger.ms',
    'Produce request to leader broker 2',
    'appended by leader broker 2 at offset 0, leader epoch 0',
    "copied by follower broker 3's Fetch",
    "copied by follower broker 4's Fetch",
    'the high watermark passed it',
    'acknowledged to shop (acks=all) at offset 0',
  ])
    await expect(stages).toContainText(text);
  await playStep(page, lesson, journeyStep);
  await next(page, lesson, journeyStep);

  // Appended but not committed: the clock pauses on the moment order-3 is above the HW on broker 2.
  const followers = stepIndex(lesson, 'followers');
  await playStep(page, lesson, followers);
  await expect(
    panel.getByRole('button', {
      name: /^offset 2 on broker 2: key customer-42, value order-3, .*above the HW$/,
    }),
  ).toBeVisible();
  await next(page, lesson, followers);
  for (let i = followers + 1; i < lesson.steps.length; i++) {
    await playStep(page, lesson, i);
    await next(page, lesson, i);
  }
  const summary = page.getByRole('region', { name: `Lesson summary: ${lesson.title}` });
  await expect(summary).toContainText('4 of 4 right');
});

test('Fork and compare: enable.idempotence false vs true, duplicates in the log without it and none with it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await page.getByRole('tab', { name: 'Compare' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Compare' });
  await panel.getByLabel('Experiment').selectOption({
    label: 'enable.idempotence false vs true, when produce responses are lost and the producer retries',
  });
  await expect(panel.getByText('is the record written twice?')).toBeVisible();
  await expect(panel.getByLabel('Topic')).toHaveValue('orders', { timeout: 30_000 });
  await panel.getByRole('button', { name: 'Run both from now' }).click();
  const table = panel.getByRole('table', { name: /orders-0, 30 simulated seconds/ });
  await expect(table).toBeVisible({ timeout: 150_000 });
  await expect(table.getByRole('columnheader', { name: 'enable.idempotence=false' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'enable.idempotence=true' })).toBeVisible();
  await expect(
    table.getByRole('row', { name: /^Duplicates a consumer would read/ }).getByRole('cell'),
  ).toHaveText(['5', '0']);
  await expect(
    table.getByRole('row', { name: /^Copies of the experiment's records in orders-0/ }).getByRole('cell'),
  ).toHaveText(['10 (of 5 records)', '5 (of 5 records)']);
  await expect(
    table.getByRole('rowheader', { name: 'Duplicates a consumer would read' }),
  ).toHaveAccessibleDescription(/exactly one copy per record/);
  await expect(panel.getByRole('list', { name: 'What compare saw' })).toContainText(/REQUEST_TIMED_OUT ×\d+/);
});
