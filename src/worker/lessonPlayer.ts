// The lesson being played, on the worker's side: each step begins at an exact point of the
// timeline, holds the clock while the learner predicts or does the task, runs the step's commands as
// recorded actions, and is judged on the engine at fixed virtual instants (StepJudge), never on the
// snapshots the page happens to see. When the condition holds the clock pauses on that moment, so a
// learner sees the election or the loss the step is about; Next resumes.
import { lessonById, StepJudge, stepCommands, type Lesson } from '../scenario/lessons';
import type { Session } from '../scenario/session';
import type { Command } from '../sim/types';
import type { LessonAction, LessonProgress } from './protocol';
import type { Timeline, TimelinePosition } from './timeline';

/** What the player needs of the host. */
export interface LessonHost {
  timeline(): Timeline;
  /** Replaces the running simulation with a fresh one of this scenario. */
  init(lesson: Lesson): boolean;
  play(): void;
  pause(): void;
  /** The live simulation changed under the player (a rewind): the page must be told. */
  traveled(): void;
  post(state: LessonProgress | null): void;
}

export class LessonPlayer {
  private readonly host: LessonHost;
  private lesson: Lesson | null = null;
  private progress: LessonProgress | null = null;
  private judge: StepJudge | null = null;
  /** Where each step began, for Back and for a link to the step. */
  private entries: (TimelinePosition & { stateHash: string })[] = [];
  /** The step was begun again by Back, and the learner did nothing since: another Back goes further. */
  private backedInto = false;

  constructor(host: LessonHost) {
    this.host = host;
  }

  get active(): boolean {
    return this.progress !== null;
  }

  /** The engine must not run past this virtual time before `afterAdvance` looks (null: no limit). */
  get nextCheckAtMs(): number | null {
    return this.judge ? this.judge.nextCheckAtMs : null;
  }

  receive(action: LessonAction): void {
    if (action.do !== 'back') this.backedInto = false;
    switch (action.do) {
      case 'start':
        this.start(action.lessonId, action.stepIndex ?? 0, action.fresh);
        return;
      case 'answered':
        if (this.progress?.status !== 'predict') return this.report();
        if (this.step()?.task) {
          this.update({ status: 'task' });
          this.armForTask();
        } else this.act(false);
        return;
      case 'doTask':
        if (this.progress?.status !== 'task' || !this.step()?.task) return this.report();
        this.act(true);
        return;
      case 'next':
        if (this.progress?.status !== 'done' && this.progress?.status !== 'timedOut') return this.report();
        this.enter(this.progress.stepIndex + 1);
        return;
      case 'back':
        this.back();
        return;
      case 'stop':
        this.stop();
        return;
      default: {
        const unknown: never = action;
        throw new Error(`Unknown lesson action ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Called by the host after every advance of the engine: the judge looks when a check is due. */
  afterAdvance(): void {
    const judge = this.judge;
    if (!judge || !this.progress) return;
    const verdict = judge.check(this.host.timeline().sim);
    if (!verdict) return;
    this.judge = null;
    this.host.pause();
    if (verdict.kind === 'done')
      this.update({ status: 'done', doneAtMs: verdict.atMs, answerHeld: verdict.answerHeld });
    else this.update({ status: 'timedOut' });
  }

  /** A user command the engine accepted: a task done by hand sets the clock going again. */
  afterUserCommand(): void {
    if (this.progress?.status === 'task') {
      this.update({ status: 'running' });
      this.host.play();
    }
  }

  /**
   * The timeline moved under the lesson (a seek, a branch switch). Moved back before the step began:
   * the lesson returns to the step that was under way then, from its exact beginning.
   */
  afterTravel(): void {
    const p = this.progress;
    if (!p || !this.lesson || p.status === 'finished') return;
    const now = this.host.timeline().position.timeMs;
    if (now >= (this.entries[p.stepIndex]?.timeMs ?? 0)) return;
    let index = p.stepIndex;
    while (index > p.firstStepIndex && (this.entries[index]?.timeMs ?? 0) > now) index--;
    this.host.timeline().rewindTo(this.entries[index] ?? { timeMs: now, applied: 0 });
    this.host.traveled();
    this.enter(index);
  }

  /** A new simulation replaced the lesson's (another scenario or a session). */
  detach(): void {
    if (!this.progress) return;
    this.stop();
  }

  // ---- inside ------------------------------------------------------------------------------------

  private step() {
    return this.lesson && this.progress ? this.lesson.steps[this.progress.stepIndex] : undefined;
  }

  /** The session at the beginning of the current step: what a link copied during the lesson opens. */
  session(): Session | null {
    const p = this.progress;
    const entry = p && this.entries[Math.min(p.stepIndex, this.entries.length - 1)];
    return entry ? this.host.timeline().sessionAt(entry, entry.stateHash) : null;
  }

  /**
   * Starts a lesson at `stepIndex`. `fresh`: on a new simulation of its scenario, playing the steps
   * before as the headless runner does; otherwise on the running simulation (a link opened at the
   * step's beginning), provided it runs the lesson's scenario.
   */
  private start(lessonId: string, stepIndex: number, fresh: boolean): void {
    const lesson = lessonById(lessonId);
    if (!lesson || !Number.isInteger(stepIndex) || stepIndex < 0 || stepIndex >= lesson.steps.length) {
      this.report();
      return;
    }
    const ownScenario = JSON.stringify(this.host.timeline().scenario) === JSON.stringify(lesson.scenario);
    const rebuild = fresh || !ownScenario;
    if (rebuild && !this.host.init(lesson)) return;
    this.lesson = lesson;
    this.entries = [];
    this.progress = null;
    if (!rebuild) {
      this.enter(stepIndex, stepIndex);
      return;
    }
    for (const [i, step] of lesson.steps.slice(0, stepIndex).entries())
      if (!this.playThrough(i, step.id)) return;
    this.enter(stepIndex, 0);
  }

  /**
   * Plays step `index` to its verdict at once, as a learner who does what it asks (the way to a
   * step a link names). False, with the lesson stopped at that step, when it cannot be done.
   */
  private playThrough(index: number, stepId: string): boolean {
    this.enter(index, 0);
    if (this.progress?.status === 'predict') this.receive({ do: 'answered' });
    if (this.progress?.status === 'task') this.act(true);
    const sim = this.host.timeline();
    while (this.judge) {
      sim.advance(Math.max(0, this.judge.nextCheckAtMs - sim.nowMs));
      this.afterAdvance();
    }
    if (this.progress?.status === 'done') return true;
    this.update({
      refused: [...(this.progress?.refused ?? []), `${stepId}: could not be played to its end`],
    });
    return false;
  }

  private enter(index: number, firstStepIndex = this.progress?.firstStepIndex ?? 0): void {
    const lesson = this.lesson;
    if (!lesson) return;
    this.judge = null;
    const position = this.host.timeline().position;
    const step = lesson.steps[index];
    if (!step) {
      this.host.pause();
      this.progress = { ...this.blank(lesson, lesson.steps.length - 1, firstStepIndex), status: 'finished' };
      this.report();
      return;
    }
    this.entries = this.entries.slice(0, index);
    this.entries[index] = { ...position, stateHash: this.host.timeline().sim.stateHash() };
    this.progress = {
      ...this.blank(lesson, index, firstStepIndex),
      status: step.predict ? 'predict' : step.task ? 'task' : 'running',
    };
    if (step.predict) {
      // The clock holds while the learner predicts: nothing moves before the answer.
      this.host.pause();
      this.report();
    } else if (step.task) {
      this.armForTask();
      this.report();
    } else this.act(false);
  }

  private blank(lesson: Lesson, stepIndex: number, firstStepIndex: number): LessonProgress {
    return {
      lessonId: lesson.id,
      stepIndex,
      status: 'running',
      enteredAtMs: this.host.timeline().position.timeMs,
      doneAtMs: null,
      answerHeld: null,
      refused: [],
      firstStepIndex,
    };
  }

  /** Waits for the learner's task: the clock holds, and the judge watches once they act. */
  private armForTask(): void {
    this.host.pause();
    this.judge = new StepJudge(this.lesson!, this.progress!.stepIndex, this.host.timeline().sim);
  }

  /** Runs the step's action (the task's commands too, for "Do it for me") and plays. */
  private act(withTask: boolean): void {
    const timeline = this.host.timeline();
    const index = this.progress!.stepIndex;
    // A task done for the learner keeps the judge armed when the task phase began (same start).
    const judge = withTask && this.judge ? this.judge : new StepJudge(this.lesson!, index, timeline.sim);
    const refused: string[] = [];
    for (const command of stepCommands(judge.step, judge.start, withTask)) {
      const result = apply(timeline, command);
      if (!result.ok) refused.push(`${command.type}: ${result.error}`);
    }
    judge.startDeadline(timeline.nowMs);
    this.judge = judge;
    this.update({ status: 'running', refused });
    this.host.play();
    this.afterAdvance();
  }

  private back(): void {
    const p = this.progress;
    if (!p || !this.lesson) return this.report();
    const done = p.status === 'done' || p.status === 'timedOut' || p.status === 'finished';
    // After a reveal, Back first returns to the beginning of this step; pressed again, to the one before.
    const again = done && !this.backedInto;
    const index = again || p.stepIndex <= p.firstStepIndex ? p.stepIndex : p.stepIndex - 1;
    const at = this.entries[index];
    if (!at) return this.report();
    this.host.pause();
    this.host.timeline().rewindTo(at);
    this.host.traveled();
    this.enter(index);
    this.backedInto = true;
  }

  private stop(): void {
    this.lesson = null;
    this.progress = null;
    this.judge = null;
    this.entries = [];
    this.host.post(null);
  }

  private update(change: Partial<LessonProgress>): void {
    if (!this.progress) return;
    this.progress = { ...this.progress, ...change };
    this.report();
  }

  private report(): void {
    this.host.post(this.progress);
  }
}

function apply(timeline: Timeline, command: Command) {
  try {
    return timeline.apply(command);
  } catch (error) {
    return { ok: false as const, error: error instanceof Error ? error.message : String(error) };
  }
}
