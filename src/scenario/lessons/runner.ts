// The headless lesson runner: plays a lesson on the real engine as a learner who follows every
// step, and reports where a step's condition or a prediction's answer did not hold. It judges with
// the same StepJudge as the page's worker. CI runs every lesson through it (lessons.test.ts), also
// as a learner who lets the clock run for a while before answering.
import { newSession, replaySession, type Simulation } from '..';
import { StepJudge, stepCommands } from './judge';
import { DEFAULT_WAIT_MS, type Lesson, type LessonStep } from './types';

export interface StepRun {
  id: string;
  startedAtMs: number;
  /** When the condition first held, or null when it never did. */
  doneAtMs: number | null;
  /** For a step with a prediction: whether its answer held after the reveal. */
  answerHeld?: boolean;
}

export interface LessonRun {
  ok: boolean;
  steps: StepRun[];
  /** One line per problem, naming the step. */
  problems: string[];
  sim: Simulation;
}

export interface RunOptions {
  /**
   * Virtual milliseconds the clock runs after the step begins and before the learner acts (answers
   * the prediction or does the task): a learner who pressed play and took their time. The page
   * holds the clock while it waits for the learner, so there this is 0 unless they resume it.
   */
  thinkMs?: (step: LessonStep, index: number) => number;
}

/** Runs a lesson to its end (or its first failing step). */
export function runLesson(lesson: Lesson, options: RunOptions = {}): LessonRun {
  const { sim } = replaySession(newSession(lesson.scenario));
  const steps: StepRun[] = [];
  const problems: string[] = [];
  for (const [index, step] of lesson.steps.entries()) {
    const run: StepRun = { id: step.id, startedAtMs: sim.nowMs, doneAtMs: null };
    steps.push(run);
    const waitsForLearner = step.predict !== undefined || step.task !== undefined;
    const thinkMs = waitsForLearner ? (options.thinkMs?.(step, index) ?? 0) : 0;
    if (thinkMs > 0) sim.advance(thinkMs);
    const judge = new StepJudge(lesson, index, sim);
    for (const command of stepCommands(step, judge.start, true)) {
      const result = sim.apply(command);
      if (!result.ok) problems.push(`${step.id}: ${command.type} refused: ${result.error}`);
    }
    if (problems.length > 0) break;
    judge.startDeadline(sim.nowMs);
    let verdict = judge.check(sim);
    while (!verdict) {
      sim.advance(judge.nextCheckAtMs - sim.nowMs);
      verdict = judge.check(sim);
    }
    if (verdict.kind === 'timedOut') {
      problems.push(`${step.id}: the condition did not hold within ${step.waitMs ?? DEFAULT_WAIT_MS} ms`);
      break;
    }
    run.doneAtMs = verdict.atMs;
    if (step.predict) {
      run.answerHeld = verdict.answerHeld === true;
      if (!run.answerHeld)
        problems.push(
          `${step.id}: the simulator did not do what the correct answer says ("${step.predict.choices[step.predict.answer]}")`,
        );
    }
  }
  return { ok: problems.length === 0, steps, problems, sim };
}
