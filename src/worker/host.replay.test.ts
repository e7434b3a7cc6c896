// A long link replays in slices: the worker keeps answering, the page sees progress, Cancel keeps
// the running session, and the replayed state is the one a replay in one go gives.
import { describe, expect, it } from 'vitest';
import { presets } from '../scenario/presets';
import { newSession, replaySession, type Session } from '../scenario/session';
import { startHost, type HostClock } from './host';
import type { WorkerToPage } from './protocol';

/** A wall clock on which every reading costs a millisecond, so the host's budgets run out. */
class BusyClock implements HostClock {
  private nowMs = 0;
  private timers: (() => void)[] = [];
  now(): number {
    return this.nowMs++;
  }
  setTimeout(run: () => void): unknown {
    this.timers.push(run);
    return run;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((run) => run !== handle);
  }
  /** Runs the timers due next (those set while running wait for the next call). */
  runTimers(): void {
    const due = this.timers;
    this.timers = [];
    for (const run of due) run();
  }
}

const scenario = presets['three-brokers'].scenario;
/** Ten simulated minutes with a broker crash and restart on the way. */
const longSession: Session = {
  ...newSession(scenario),
  actions: [
    { atMs: 30_000, command: { type: 'crashNode', nodeId: 2 } },
    { atMs: 90_000, command: { type: 'restartNode', nodeId: 2 } },
  ],
  positionMs: 600_000,
};

function host() {
  const clock = new BusyClock();
  const sent: WorkerToPage[] = [];
  const h = startHost((m) => sent.push(m), clock, scenario);
  h.receive({ type: 'pause' });
  const of = <T extends WorkerToPage['type']>(type: T) =>
    sent.filter((m): m is Extract<WorkerToPage, { type: T }> => m.type === type);
  return { clock, sent, receive: h.receive, of };
}

describe('opening a long link', () => {
  it('replays in slices with progress, answering messages meanwhile, to the state of a replay in one go', () => {
    const h = host();
    const runBefore = h.of('snapshot').at(-1)!.run;
    h.receive({ type: 'loadSession', session: longSession });
    expect(h.of('sessionLoaded')).toHaveLength(0);
    // The worker still answers: the session it hands out is the running one, at time 0.
    h.receive({ type: 'getSession', id: 1 });
    expect(h.of('session').at(-1)!.session.positionMs).toBe(0);
    let rounds = 0;
    while (h.of('sessionLoaded').length === 0 && rounds < 10_000) {
      h.clock.runTimers();
      rounds++;
    }
    expect(rounds).toBeGreaterThan(1);
    const progress = h.of('replay');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.state === 'running' && p.positionMs === 600_000)).toBe(true);
    const times = progress.map((p) => p.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeLessThan(600_000);
    const loaded = h.of('sessionLoaded').at(-1)!;
    expect(loaded.refused).toEqual([]);
    const last = h.of('snapshot').at(-1)!;
    expect(last.run).toBeGreaterThan(runBefore);
    expect(last.snapshot.timeMs).toBe(600_000);
    expect(loaded.check.stateHash).toBe(replaySession(longSession).sim.stateHash());
  });

  it('Cancel stops the replay and keeps the running session as it was', () => {
    const h = host();
    h.receive({ type: 'stepEvent', direction: 'forward' });
    const before = h.of('snapshot').at(-1)!;
    h.receive({ type: 'loadSession', session: longSession });
    h.clock.runTimers();
    h.receive({ type: 'cancelReplay' });
    const cancelled = h.of('replay').at(-1)!;
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.atMs).toBeGreaterThan(0);
    expect(cancelled.atMs).toBeLessThan(600_000);
    for (let i = 0; i < 100; i++) h.clock.runTimers();
    expect(h.of('sessionLoaded')).toHaveLength(0);
    h.receive({ type: 'stepEvent', direction: 'forward' });
    const after = h.of('snapshot').at(-1)!;
    expect(after.run).toBe(before.run);
    expect(after.snapshot.timeMs).toBeGreaterThanOrEqual(before.snapshot.timeMs);
    expect(after.snapshot.timeMs).toBeLessThan(60_000);
  });

  it('a new scenario wins over a link still being replayed', () => {
    const h = host();
    h.receive({ type: 'loadSession', session: longSession });
    h.receive({ type: 'init', scenario: presets.default.scenario });
    const run = h.of('snapshot').at(-1)!.run;
    for (let i = 0; i < 100; i++) h.clock.runTimers();
    expect(h.of('sessionLoaded')).toHaveLength(0);
    expect(h.of('snapshot').at(-1)!.run).toBe(run);
  });
});
