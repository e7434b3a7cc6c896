import { describe, expect, it } from 'vitest';
import { presets } from '../scenario/presets';
import { newSession, replaySession } from '../scenario/session';
import { startHost, type HostClock } from './host';
import type { WorkerToPage } from './protocol';
import { FakeClock } from './testing/fakeClock';

/** A wall clock that never fires: the tests drive the host by messages alone. */
const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} };

function host() {
  const sent: WorkerToPage[] = [];
  const h = startHost((m) => sent.push(m), stillClock, presets['three-brokers'].scenario);
  h.receive({ type: 'pause' });
  const last = <T extends WorkerToPage['type']>(type: T) =>
    sent.filter((m): m is Extract<WorkerToPage, { type: T }> => m.type === type).at(-1)!;
  return { receive: h.receive, sent, last };
}

describe('time travel in the worker', () => {
  it('seeks back, forks on a new action, and keeps both branches', () => {
    const h = host();
    h.receive({ type: 'stepEvent', direction: 'forward' });
    h.receive({ type: 'command', id: 1, command: { type: 'crashNode', nodeId: 2 } });
    for (let i = 0; i < 40; i++) h.receive({ type: 'stepEvent', direction: 'forward' });
    const end = h.last('timeline').timeline;
    expect(end.markers.some((m) => m.kind === 'crash')).toBe(true);
    h.receive({ type: 'seek', timeMs: 1000 });
    expect(h.last('snapshot').snapshot.timeMs).toBe(1000);
    h.receive({ type: 'command', id: 2, command: { type: 'crashNode', nodeId: 3 } });
    const forked = h.last('timeline').timeline;
    expect(forked.branches).toHaveLength(2);
    expect(forked.currentBranchId).toBe(2);
    h.receive({ type: 'switchBranch', branchId: 1 });
    expect(h.last('timeline').timeline.currentBranchId).toBe(1);
  });

  it('names the event a step landed on, after the snapshot of that moment', () => {
    const h = host();
    for (let i = 0; i < 5; i++) h.receive({ type: 'stepEvent', direction: 'forward' });
    const forward = h.last('steppedTo');
    expect(forward.direction).toBe('forward');
    const frame = h.sent.at(-2)!;
    expect(frame.type).toBe('timeline');
    expect(frame.type === 'timeline' && frame.timeline.nowMs).toBe(forward.timeMs);
    expect(forward.events.length).toBeGreaterThan(0);
    expect(forward.events.every((e) => e.timeMs === forward.timeMs)).toBe(true);
    expect(h.sent.at(-1)).toBe(forward);
    h.receive({ type: 'stepEvent', direction: 'back' });
    const back = h.last('steppedTo');
    expect(back.timeMs).toBeLessThan(forward.timeMs);
    expect(back.count).toBeGreaterThanOrEqual(back.events.length);
    expect(back.events[0]?.timeMs).toBe(back.timeMs);
  });

  it('hands out the session at the current position, which replays to its hash', () => {
    const h = host();
    for (let i = 0; i < 10; i++) h.receive({ type: 'stepEvent', direction: 'forward' });
    h.receive({ type: 'command', id: 1, command: { type: 'crashNode', nodeId: 4 } });
    h.receive({ type: 'getSession', id: 7 });
    const { session } = h.last('session');
    expect(session.actions).toHaveLength(1);
    expect(replaySession(session).sim.stateHash()).toBe(session.stateHash);
  });

  it('loads a session and says that the hash matches', () => {
    const source = host();
    for (let i = 0; i < 10; i++) source.receive({ type: 'stepEvent', direction: 'forward' });
    source.receive({ type: 'getSession', id: 1 });
    const { session } = source.last('session');
    const h = host();
    h.receive({ type: 'loadSession', session });
    expect(h.last('sessionLoaded').check.status).toBe('match');
    expect(h.last('snapshot').snapshot.timeMs).toBe(session.positionMs);
  });

  it('keeps the running simulation when a session fails validation', () => {
    const h = host();
    h.receive({ type: 'stepEvent', direction: 'forward' });
    const before = h.last('snapshot');
    const bad = {
      ...newSession(presets['three-brokers'].scenario),
      scenario: { version: 1, seed: 1, nodes: [] },
    };
    h.receive({ type: 'loadSession', session: bad as never });
    expect(h.last('error').issues?.[0]?.path).toBe('nodes');
    h.receive({ type: 'stepEvent', direction: 'forward' });
    expect(h.last('snapshot').run).toBe(before.run);
  });

  it('compares two branches from now, in slices, answering the page in between', () => {
    const clock = new BusyClock();
    const sent: WorkerToPage[] = [];
    const h = startHost((m) => sent.push(m), clock, presets['three-brokers'].scenario);
    clock.pass(15_000);
    h.receive({ type: 'compare', id: 3, experimentId: 'min-isr', topic: 'demo' });
    // Nothing is answered at once: the branches run a slice at a time, after this message.
    expect(sent.some((m) => m.type === 'comparison')).toBe(false);
    clock.pass(200);
    h.receive({ type: 'command', id: 4, command: { type: 'crashNode', nodeId: 99 } });
    clock.pass(60_000);
    const replyAt = sent.findIndex((m) => m.type === 'comparison');
    const commandAt = sent.findIndex((m) => m.type === 'commandResult' && m.id === 4);
    expect(commandAt).toBeGreaterThanOrEqual(0);
    expect(commandAt).toBeLessThan(replyAt);
    const reply = sent[replyAt] as Extract<WorkerToPage, { type: 'comparison' }>;
    expect(reply.error).toBeUndefined();
    expect(reply.labels).toEqual(['min.insync.replicas=2', 'min.insync.replicas=3']);
    expect(reply.comparison!.b.errors.NOT_ENOUGH_REPLICAS).toBeGreaterThan(0);
  });

  it('answers a comparison replaced by a newer one as replaced, and runs the newer one', () => {
    const clock = new BusyClock();
    const sent: WorkerToPage[] = [];
    const h = startHost((m) => sent.push(m), clock, presets['three-brokers'].scenario);
    clock.pass(15_000);
    h.receive({ type: 'compare', id: 5, experimentId: 'min-isr', topic: 'demo' });
    h.receive({ type: 'compare', id: 6, experimentId: 'acks', topic: 'demo' });
    clock.pass(60_000);
    const replies = sent.filter(
      (m): m is Extract<WorkerToPage, { type: 'comparison' }> => m.type === 'comparison',
    );
    expect(replies.map((r) => [r.id, r.error ?? 'ok'])).toEqual([
      [5, 'A newer comparison replaced this one.'],
      [6, 'ok'],
    ]);
  });
});

/** A wall clock on which each look costs a millisecond, so a slice's wall-time budget runs out. */
class BusyClock extends FakeClock {
  private spentMs = 0;
  override now(): number {
    return super.now() + this.spentMs++;
  }
}
