// The headless lesson runner: plays a lesson on the real engine as a learner who always follows
// the steps and always predicts correctly, and reports where a step's condition or a prediction's
// answer did not hold. CI runs every lesson through it (lessons.test.ts).
import { newSession, replaySession, type Simulation } from '../scenario';
import { commandsFor, DEFAULT_WAIT_MS, type Lesson, type LessonView } from './types';

/** Virtual milliseconds between two checks of a step's condition. */
const CHECK_EVERY_MS = 100;

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

/** Runs a lesson to its end (or its first failing step). */
export function runLesson(lesson: Lesson): LessonRun {
  const { sim } = replaySession(newSession(lesson.scenario));
  const steps: StepRun[] = [];
  const problems: string[] = [];
  for (const step of lesson.steps) {
    const start = sim.snapshot();
    const run: StepRun = { id: step.id, startedAtMs: sim.nowMs, doneAtMs: null };
    steps.push(run);
    for (const command of [
      ...commandsFor(step.task?.commands, start),
      ...commandsFor(step.commands, start),
    ]) {
      const result = sim.apply(command);
      if (!result.ok) problems.push(`${step.id}: ${command.type} refused: ${result.error}`);
    }
    if (problems.length > 0) break;
    const view = (): LessonView => ({ snapshot: sim.snapshot(), events: sim.events(), start });
    const deadline = sim.nowMs + (step.waitMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      if (step.until(view())) {
        run.doneAtMs = sim.nowMs;
        break;
      }
      if (sim.nowMs >= deadline) break;
      sim.advance(CHECK_EVERY_MS);
    }
    if (run.doneAtMs === null) {
      problems.push(`${step.id}: the condition did not hold within ${step.waitMs ?? DEFAULT_WAIT_MS} ms`);
      break;
    }
    if (step.predict) {
      run.answerHeld = step.predict.answerHolds(view());
      if (!run.answerHeld)
        problems.push(
          `${step.id}: the simulator did not do what the correct answer says ("${step.predict.choices[step.predict.answer]}")`,
        );
    }
  }
  return { ok: problems.length === 0, steps, problems, sim };
}
