// The judge of a lesson step: checks the step's condition, and then whether the simulator did what
// the prediction's correct answer says, on the engine itself at fixed virtual instants (every
// CHECK_EVERY_MS from the moment the step's action ran). The headless runner and the worker host
// both use it, so a step is judged the same in CI and in the page, whatever the display's pace,
// the playback speed or how long the learner took to answer.
import type { SimEvent, Snapshot } from '..';
import type { CliRun } from '../../sim/types';
import { commandsFor, DEFAULT_WAIT_MS, type Lesson, type LessonStep, type LessonView } from './types';
import type { Command } from '..';

/** Virtual milliseconds between two checks of a step's condition. */
export const CHECK_EVERY_MS = 100;

/** What the judge reads of the engine. */
export interface JudgedSim {
  readonly nowMs: number;
  snapshot(): Snapshot;
  events(): readonly SimEvent[];
  /** The cli lines run so far (Simulation.cliHistory). */
  cliHistory?(): readonly CliRun[];
}

export type Verdict =
  { kind: 'done'; atMs: number; answerHeld: boolean | null } | { kind: 'timedOut'; atMs: number };

/** The commands a step's action amounts to: the task's (when the learner's task is done for them) then the step's own. */
export function stepCommands(step: LessonStep, start: Snapshot, withTask: boolean): Command[] {
  return [...(withTask ? commandsFor(step.task?.commands, start) : []), ...commandsFor(step.commands, start)];
}

export class StepJudge {
  readonly lesson: Lesson;
  readonly stepIndex: number;
  readonly step: LessonStep;
  /** The cluster as the step's action began (what predicates call `start`). */
  readonly start: Snapshot;
  readonly armedAtMs: number;
  /** When the condition is given up on; null while the step waits for the learner's task. */
  deadlineMs: number | null = null;
  private nextAtMs: number;

  constructor(lesson: Lesson, stepIndex: number, sim: JudgedSim) {
    this.lesson = lesson;
    this.stepIndex = stepIndex;
    const step = lesson.steps[stepIndex];
    if (!step) throw new RangeError(`Lesson ${lesson.id} has no step ${stepIndex}`);
    this.step = step;
    this.start = sim.snapshot();
    this.armedAtMs = sim.nowMs;
    this.nextAtMs = sim.nowMs;
  }

  /** The step's commands ran: from now the condition has `waitMs` to hold. */
  startDeadline(nowMs: number): void {
    this.deadlineMs = nowMs + (this.step.waitMs ?? DEFAULT_WAIT_MS);
  }

  /** The next virtual instant the judge must look at the engine: the engine must not run past it unchecked. */
  get nextCheckAtMs(): number {
    return this.nextAtMs;
  }

  /** Looks at the engine if a check is due (its time reached); the verdict once there is one. */
  check(sim: JudgedSim): Verdict | null {
    if (sim.nowMs < this.nextAtMs) return null;
    // Checks keep their grid (armedAtMs + k × CHECK_EVERY_MS) whatever the host's slices.
    const behind = Math.floor((sim.nowMs - this.armedAtMs) / CHECK_EVERY_MS) + 1;
    this.nextAtMs = this.armedAtMs + behind * CHECK_EVERY_MS;
    const since = this.armedAtMs;
    const view: LessonView = {
      snapshot: sim.snapshot(),
      events: sim.events(),
      start: this.start,
      cliLines: (sim.cliHistory?.() ?? []).filter((r) => r.atMs >= since),
    };
    if (this.step.until(view))
      return {
        kind: 'done',
        atMs: sim.nowMs,
        answerHeld: this.step.predict ? this.step.predict.answerHolds(view) : null,
      };
    if (this.deadlineMs !== null && sim.nowMs >= this.deadlineMs)
      return { kind: 'timedOut', atMs: sim.nowMs };
    return null;
  }
}
