import { describe, expect, it } from 'vitest';
import { lessonById, lessons } from '../scenario/lessons';
import { nextInt, seedRng } from '../sim';
import { startHost, type Host } from './host';
import { FakeClock } from './testing/fakeClock';
import type { LessonAction, LessonProgress, PageToWorker, WorkerToPage } from './protocol';

/** A page that plays lessons through the worker host as a learner would, on a fake wall clock. */
class Learner {
  readonly clock = new FakeClock();
  readonly sent: WorkerToPage[] = [];
  readonly host: Host;

  constructor() {
    this.host = startHost((m) => this.sent.push(m), this.clock);
  }

  send(message: PageToWorker): this {
    this.host.receive(message);
    return this;
  }

  act(action: LessonAction): this {
    return this.send({ type: 'lesson', action });
  }

  get progress(): LessonProgress | null {
    for (const m of [...this.sent].reverse()) if (m.type === 'lessonState') return m.state;
    return null;
  }

  get playing(): boolean {
    for (const m of [...this.sent].reverse()) if (m.type === 'stats') return m.stats.playing;
    return false;
  }

  /** Wall time passes until the step has a verdict (or `limitMs` of wall time). */
  waitForVerdict(limitMs = 600_000): LessonProgress {
    for (let waited = 0; waited < limitMs; waited += 100) {
      const p = this.progress!;
      if (p.status === 'done' || p.status === 'timedOut') return p;
      this.clock.pass(100);
    }
    return this.progress!;
  }
}

interface Way {
  speed: number;
  /** Wall ms the learner reads before answering (the clock holds meanwhile unless `playWhileReading`). */
  readMs: (step: number) => number;
  wrong?: boolean;
  playWhileReading?: boolean;
}

/** Plays a whole lesson: each prediction answered, each task done for the learner. */
function play(lessonId: string, way: Way) {
  const lesson = lessonById(lessonId)!;
  const learner = new Learner();
  learner.send({ type: 'setSpeed', speed: way.speed });
  learner.act({ do: 'start', lessonId, fresh: true });
  const verdicts: LessonProgress[] = [];
  for (const [i, step] of lesson.steps.entries()) {
    expect(learner.progress!.stepIndex, `${lessonId}: step ${i}`).toBe(i);
    if (step.predict || step.task) {
      // The clock holds for the learner: reading takes no simulated time unless they press play.
      const before = learner.progress!.enteredAtMs;
      if (way.playWhileReading) learner.send({ type: 'play' });
      learner.clock.pass(way.readMs(i));
      if (!way.playWhileReading) expect(learner.playing).toBe(false);
      expect(way.playWhileReading || learner.progress!.enteredAtMs === before).toBe(true);
    }
    if (step.predict) learner.act({ do: 'answered' });
    if (step.task) learner.act({ do: 'doTask' });
    const verdict = learner.waitForVerdict();
    expect(verdict.status, `${lessonId}/${step.id}: ${verdict.refused.join('; ')}`).toBe('done');
    expect(verdict.refused, `${lessonId}/${step.id}`).toEqual([]);
    // The reveal pauses the clock on its moment.
    expect(learner.playing, `${lessonId}/${step.id}`).toBe(false);
    verdicts.push(verdict);
    learner.act({ do: 'next' });
  }
  expect(learner.progress!.status).toBe('finished');
  return { learner, verdicts };
}

describe('lessons played through the worker, as a learner would', () => {
  for (const lesson of lessons) {
    const seed = lesson.number * 7919;
    it(`${lesson.number}. ${lesson.id}: right answers hold at 10× whatever the reading time (seed ${seed})`, () => {
      const rng = seedRng(seed);
      const { verdicts } = play(lesson.id, { speed: 10, readMs: () => nextInt(rng, 10_001) });
      for (const [i, step] of lesson.steps.entries())
        if (step.predict) expect(verdicts[i]?.answerHeld, `${lesson.id}/${step.id}`).toBe(true);
    });
  }

  for (const lesson of lessons)
    it(`${lesson.number}. ${lesson.id}: judged the same at 1× and at 10× (each step checked on the engine at fixed virtual instants)`, () => {
      const fast = play(lesson.id, { speed: 10, readMs: () => 3000 }).verdicts;
      const slow = play(lesson.id, { speed: 1, readMs: () => 50 }).verdicts;
      expect(slow.map((v) => [v.doneAtMs, v.answerHeld])).toEqual(
        fast.map((v) => [v.doneAtMs, v.answerHeld]),
      );
    });

  it('unclean-election: the reveal of "wait" holds although the learner let the clock run for 10 s at 10×', () => {
    const { verdicts } = play('unclean-election', {
      speed: 10,
      readMs: () => 10_000,
      playWhileReading: true,
    });
    const steps = lessonById('unclean-election')!.steps;
    for (const [i, step] of steps.entries())
      if (step.predict) expect(verdicts[i]?.answerHeld, step.id).toBe(true);
  });
});

describe('Back in a lesson', () => {
  it('restores the step exactly and drops what was done after it, so the step can be done again', () => {
    const lesson = lessonById('unclean-election')!;
    const learner = new Learner();
    learner.send({ type: 'setSpeed', speed: 10 });
    learner.act({ do: 'start', lessonId: lesson.id, fresh: true });
    const hashes: string[] = [];
    const entered: number[] = [];
    for (const [i, step] of lesson.steps.entries()) {
      entered.push(learner.progress!.enteredAtMs);
      hashes.push(sessionHash(learner));
      if (step.predict) learner.act({ do: 'answered' });
      if (step.task) learner.act({ do: 'doTask' });
      expect(learner.waitForVerdict().status, step.id).toBe('done');
      if (i < lesson.steps.length - 1) learner.act({ do: 'next' });
    }
    // After the last reveal: Back once returns to the start of step 7, twice to the start of step 6.
    learner.act({ do: 'back' }).act({ do: 'back' });
    const p = learner.progress!;
    expect(p.stepIndex).toBe(5);
    expect(p.status).toBe('predict');
    expect(p.enteredAtMs).toBe(entered[5]);
    expect(sessionHash(learner)).toBe(hashes[5]);
    // The old electLeaders does not replay: the learner's own runs, and the step is judged again.
    learner.act({ do: 'answered' }).act({ do: 'doTask' });
    const again = learner.waitForVerdict();
    expect(again.refused).toEqual([]);
    expect(again.status).toBe('done');
    expect(again.answerHeld).toBe(true);
    // The undone future is kept as a branch of the timeline.
    const timeline = [...learner.sent].reverse().find((m) => m.type === 'timeline');
    expect(timeline && timeline.type === 'timeline' && timeline.timeline.branches.length).toBe(2);
  });
});

describe('a lesson opened at a step', () => {
  it('plays the steps before for the learner, and Back reaches them', () => {
    const learner = new Learner();
    learner.act({ do: 'start', lessonId: 'broker-failure', stepIndex: 2, fresh: true });
    const p = learner.progress!;
    expect(p.stepIndex).toBe(2);
    expect(p.status).toBe('predict');
    expect(p.firstStepIndex).toBe(0);
    learner.act({ do: 'back' });
    expect(learner.progress!.stepIndex).toBe(1);
  });

  it('a link copied mid-step opens that step from its beginning, on the same state', () => {
    const a = new Learner();
    a.send({ type: 'setSpeed', speed: 10 });
    a.act({ do: 'start', lessonId: 'broker-failure', stepIndex: 2, fresh: true });
    const hash = sessionHash(a);
    a.act({ do: 'answered' }).act({ do: 'doTask' });
    a.clock.pass(300);
    a.send({ type: 'getSession', id: 1 });
    const session = [...a.sent].reverse().find((m) => m.type === 'session');
    if (!session || session.type !== 'session') throw new Error('no session');
    expect(session.session.stateHash).toBe(hash);
    const b = new Learner();
    b.send({ type: 'loadSession', session: session.session });
    b.act({ do: 'start', lessonId: 'broker-failure', stepIndex: 2, fresh: false });
    expect(b.progress!.stepIndex).toBe(2);
    expect(b.progress!.firstStepIndex).toBe(2);
    expect(b.progress!.status).toBe('predict');
  });
});

/** The state hash where the learner stands (a session's hash is the live simulation's). */
function sessionHash(learner: Learner): string {
  learner.send({ type: 'getSession', id: 99 });
  const m = [...learner.sent].reverse().find((x) => x.type === 'session');
  if (!m || m.type !== 'session') throw new Error('no session');
  return m.session.stateHash!;
}
