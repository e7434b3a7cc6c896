// The page keeps a save point of the session and restarts a worker that failed or hung from it.
import { describe, expect, it } from 'vitest';
import type { PageToWorker, WorkerToPage } from '../worker/protocol';
import { newSession } from '../scenario/session';
import { presets } from '../scenario/presets';
import {
  HANG_AFTER_MS,
  SAVE_EVERY_MS,
  superviseWorker,
  type Restart,
  type SupervisorClock,
  type WorkerLike,
} from './workerSupervisor';

class FakeWorker implements WorkerLike {
  posted: PageToWorker[] = [];
  terminated = false;
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  onmessageerror: WorkerLike['onmessageerror'] = null;
  postMessage(message: PageToWorker): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  answer(message: WorkerToPage): void {
    this.onmessage?.({ data: message } as MessageEvent<WorkerToPage>);
  }
  /** Answers the latest save request with a session at `positionMs`. */
  answerSave(positionMs: number): void {
    const request = this.posted.filter((m) => m.type === 'getSession').at(-1);
    if (request?.type !== 'getSession') throw new Error('no save request');
    expect(request.withHash).toBe(false);
    this.answer({
      type: 'session',
      id: request.id,
      session: { ...newSession(presets['three-brokers'].scenario), positionMs },
    });
  }
}

function setUp() {
  const workers: FakeWorker[] = [];
  const received: WorkerToPage[] = [];
  const restarts: Restart[] = [];
  let nowMs = 0;
  let tick = () => {};
  const clock: SupervisorClock = {
    now: () => nowMs,
    setInterval: (run) => {
      tick = run;
      return 1;
    },
  };
  const supervisor = superviseWorker({
    create: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    receive: (m) => received.push(m),
    restarted: (r) => restarts.push(r),
    clock,
  });
  const pass = (ms: number) => {
    for (let t = 0; t < ms; t += SAVE_EVERY_MS) {
      nowMs += SAVE_EVERY_MS;
      tick();
    }
  };
  return { supervisor, workers, received, restarts, pass, current: () => workers.at(-1)! };
}

describe('the worker supervisor', () => {
  it('saves the session every few seconds without a state hash, and keeps the answers to itself', () => {
    const s = setUp();
    s.pass(SAVE_EVERY_MS);
    s.current().answerSave(42_000);
    expect(s.supervisor.saved?.positionMs).toBe(42_000);
    expect(s.received).toEqual([]);
    // The page's own requests and their answers pass through untouched.
    s.supervisor.post({ type: 'getSession', id: 1 });
    s.current().answer({ type: 'session', id: 1, session: newSession(presets.default.scenario) });
    expect(s.received).toHaveLength(1);
  });

  it('restarts a worker that crashed from the last save point', () => {
    const s = setUp();
    s.pass(SAVE_EVERY_MS);
    s.current().answerSave(42_000);
    const old = s.current();
    old.onerror?.({ message: 'out of memory' } as ErrorEvent);
    expect(old.terminated).toBe(true);
    expect(s.workers).toHaveLength(2);
    expect(s.restarts).toEqual([
      { reason: 'the simulation worker failed: out of memory', from: s.supervisor.saved },
    ]);
    expect(s.restarts[0]?.from?.positionMs).toBe(42_000);
    // Messages go to the new worker, and the old one's late messages are ignored.
    s.supervisor.post({ type: 'play' });
    expect(s.current().posted.at(-1)).toEqual({ type: 'play' });
    old.answer({
      type: 'stats',
      stats: { achievedSpeed: 0, speed: 1, playing: false, snapshotBytesPerSecond: null },
    });
    expect(s.received).toEqual([]);
  });

  it('restarts when the engine throws while running, after showing the error', () => {
    const s = setUp();
    s.current().answer({ type: 'error', message: 'boom', fatal: true });
    expect(s.received).toEqual([{ type: 'error', message: 'boom', fatal: true }]);
    expect(s.restarts.map((r) => r.reason)).toEqual(['the engine failed: boom']);
    expect(s.restarts[0]?.from).toBeNull();
    // A refusal is not a failure.
    s.current().answer({ type: 'error', message: 'speed must be from 0.1 to 1000, got 5000' });
    expect(s.restarts).toHaveLength(1);
  });

  it('restarts a worker that stopped answering, and not one that is merely busy for a while', () => {
    const s = setUp();
    s.pass(SAVE_EVERY_MS);
    s.pass(HANG_AFTER_MS - 2 * SAVE_EVERY_MS);
    expect(s.restarts).toHaveLength(0);
    s.current().answerSave(10_000);
    s.pass(SAVE_EVERY_MS);
    s.pass(HANG_AFTER_MS);
    expect(s.restarts.map((r) => r.reason)).toEqual([
      `the simulation worker stopped answering for ${HANG_AFTER_MS / 1000} s`,
    ]);
    expect(s.restarts[0]?.from?.positionMs).toBe(10_000);
  });

  it('waits for a comparison however long it runs (it runs two branches in one call)', () => {
    const s = setUp();
    s.supervisor.post({ type: 'compare', id: 3, experimentId: 'acks', topic: 'orders' });
    s.pass(SAVE_EVERY_MS);
    s.pass(3 * HANG_AFTER_MS);
    expect(s.restarts).toHaveLength(0);
    s.current().answer({ type: 'comparison', id: 3, comparison: null, labels: ['', ''], error: 'x' });
    s.current().answerSave(1_000);
    s.pass(SAVE_EVERY_MS);
    s.pass(HANG_AFTER_MS);
    expect(s.restarts).toHaveLength(1);
  });
});
