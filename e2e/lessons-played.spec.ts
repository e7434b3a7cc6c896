import { expect, test, type Page } from '@playwright/test';
import { lessons, type Lesson } from '../src/scenario/lessons';
import { nextInt, seedRng, type RngState } from '../src/sim';
import { setSpeed } from './support';

// Every lesson played in the page as a learner would (docs/lessons.md): reading for a seeded
// random 0–10 s before each answer or task, answering right and wrong, using "Do it for me", going
// Back and redoing a step, at 10× and at 1×. Right answers must be called right, wrong ones wrong,
// and no step may hang.

const MAX_READ_MS = 10_000;

/** Lessons played by a spec of their own (this one is the slowest of the suite already). */
const PLAYED_ELSEWHERE: Record<string, string> = {
  'message-lifecycle': 'lessons-delivery.spec.ts',
  'delivery-guarantees': 'lessons-delivery.spec.ts',
};

/** Plays step `i`; returns whether the learner chose right (null without a prediction). */
async function playStep(
  page: Page,
  lesson: Lesson,
  i: number,
  rng: RngState,
  speed: number,
  wantRight: boolean,
): Promise<boolean | null> {
  const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
  const step = lesson.steps[i];
  if (!step) throw new Error(`${lesson.id} has no step ${i + 1}`);
  await expect(card.getByRole('heading', { name: step.title, exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(card.getByText(`step ${i + 1} of ${lesson.steps.length}`)).toBeVisible();
  let right: boolean | null = null;
  if (step.predict || step.task) await page.waitForTimeout(nextInt(rng, MAX_READ_MS + 1));
  if (step.predict) {
    const p = step.predict;
    const choice = wantRight ? p.answer : (p.answer + 1) % p.choices.length;
    right = choice === p.answer;
    await card.getByRole('button', { name: `${choice + 1}. ${p.choices[choice]}`, exact: true }).click();
  }
  if (step.task) await card.getByRole('button', { name: 'Do it for me' }).click();
  const reveal = card.getByRole('status', { name: 'Reveal' });
  // The condition's whole wait at this speed, with room for a busy machine (the judge runs on
  // simulated time, so a slow page only takes longer, never changes the verdict).
  const waitMs = ((step.waitMs ?? 60_000) / speed) * 2 + 30_000;
  await expect(reveal).toBeVisible({ timeout: waitMs });
  await expect(card.getByRole('alert')).toHaveCount(0);
  if (step.predict) {
    if (right) await expect(reveal).toContainText('Right.');
    else await expect(reveal).toContainText(`Not quite: the answer is ${step.predict.answer + 1}.`);
    await expect(reveal).not.toContainText('The simulator did something else');
  }
  return right;
}

// Every lesson at both speeds: at 10× (quick) and at 1×, the pace a learner reads at (the worker
// judges on simulated time, so the verdicts must not depend on it: src/worker/host.lessons.test.ts).
for (const speed of [10, 1]) {
  for (const lesson of lessons.filter((l) => !PLAYED_ELSEWHERE[l.id])) {
    const seed = lesson.number * 101 + speed;
    test(`lesson ${lesson.number} (${lesson.id}) at ${speed}×, as a learner reads and answers (seed ${seed})`, async ({
      page,
    }) => {
      // The lesson's simulated time at this speed, and the learner's reading.
      test.setTimeout(180_000 + (lesson.steps.length * 120_000) / speed + lesson.steps.length * MAX_READ_MS);
      const rng = seedRng(seed);
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(`./?lesson=${lesson.id}`);
      const card = page.getByRole('region', { name: `Lesson: ${lesson.title}` });
      await expect(card).toBeVisible({ timeout: 20_000 });
      if (speed !== 10) await setSpeed(page, speed);
      // Back (twice, to the step before) after a step in the second half; that step is played again.
      const backAfter = Math.max(
        1,
        lesson.steps.length - 1 - nextInt(rng, Math.ceil(lesson.steps.length / 2)),
      );
      let wentBack = false;
      const results = new Map<number, boolean>();
      let predictions = 0;
      for (let i = 0; i < lesson.steps.length; i++) {
        // Right and wrong both appear: the first prediction is answered wrong, then at random.
        const wantRight = predictions === 0 ? false : nextInt(rng, 2) === 1;
        const right = await playStep(page, lesson, i, rng, speed, wantRight);
        if (right !== null) {
          predictions++;
          results.set(i, right);
        }
        if (i === backAfter && !wentBack) {
          wentBack = true;
          await card.getByRole('button', { name: 'Back', exact: true }).click();
          await expect(card.getByText(`step ${i + 1} of`)).toBeVisible();
          await card.getByRole('button', { name: 'Back', exact: true }).click();
          await expect(card.getByText(`step ${i} of`)).toBeVisible();
          for (const j of results.keys()) if (j >= i - 1) results.delete(j);
          i -= 2;
          continue;
        }
        const last = i === lesson.steps.length - 1;
        await card.getByRole('button', { name: last ? 'Finish the lesson' : 'Next step' }).click();
      }
      const summary = page.getByRole('region', { name: `Lesson summary: ${lesson.title}` });
      await expect(summary).toBeVisible();
      const rightCount = [...results.values()].filter(Boolean).length;
      await expect(summary).toContainText(`${rightCount} of ${results.size} right`);
    });
  }
}
