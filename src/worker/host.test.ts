import { beforeEach, describe, expect, it } from 'vitest';
import { defaultScenario, presets } from '../scenario/presets';
import { createSimulation } from '../sim';
import { startHost, type Host } from './host';
import { FakeClock } from './testing/fakeClock';
import { latestSnapshot } from './testing/latestSnapshot';
import type { PageToWorker, WorkerToPage } from './protocol';

describe('the worker host', () => {
  let clock: FakeClock;
  let sent: WorkerToPage[];
  let host: Host;
  const snapshots = () =>
    sent
      .filter((m) => m.type === 'snapshot' || m.type === 'snapshotDelta')
      .map((m) =>
        m.type === 'snapshot'
          ? { run: m.run, timeMs: m.snapshot.timeMs, events: m.events }
          : { run: m.run, timeMs: m.delta.snapshot.timeMs, events: m.events },
      );
  const latestTimeMs = () => snapshots().at(-1)!.timeMs;
  const send = (message: PageToWorker) => host.receive(message);

  beforeEach(() => {
    clock = new FakeClock();
    sent = [];
    host = startHost((message) => sent.push(message), clock);
  });

  it('plays the default scenario at 1× from the start', () => {
    clock.pass(2000);
    expect(latestTimeMs()).toBeGreaterThan(1900);
    expect(latestTimeMs()).toBeLessThanOrEqual(2000);
  });

  it('sends each event once, in order', () => {
    clock.pass(10_000);
    const seqs = snapshots().flatMap((m) => m.events.map((e) => e.seq));
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('waits for a page that says it drew a snapshot before it sends the next (or a second)', () => {
    send({ type: 'snapshotShown' });
    const before = snapshots().length;
    clock.pass(500);
    // The page drew nothing in that half second: one snapshot went out, no queue built up.
    expect(snapshots().length - before).toBe(1);
    clock.pass(600);
    expect(snapshots().length - before).toBe(2);
    send({ type: 'snapshotShown' });
    clock.pass(100);
    expect(snapshots().length - before).toBe(3);
  });

  it('sends a snapshot at most every 50 ms', () => {
    clock.pass(1000);
    expect(snapshots().length).toBeLessThanOrEqual(1 + 1000 / 50);
  });

  it('holds time while paused, and a step runs exactly the next event', () => {
    clock.pass(1000);
    send({ type: 'pause' });
    const pausedAtMs = latestTimeMs();
    clock.pass(5000);
    expect(latestTimeMs()).toBe(pausedAtMs);
    const reference = createSimulation(defaultScenario);
    reference.advance(pausedAtMs);
    const nextAtMs = reference.nextEventAtMs()!;
    send({ type: 'step' });
    expect(latestTimeMs()).toBe(Math.max(pausedAtMs, nextAtMs));
  });

  it('sends a snapshot at most every 100 ms from 100×, when each jumps ten simulated seconds', () => {
    send({ type: 'setSpeed', speed: 100 });
    const before = snapshots().length;
    clock.pass(1000);
    expect(snapshots().length - before).toBeLessThanOrEqual(1000 / 100);
    expect(latestTimeMs()).toBeGreaterThan(80_000);
  });

  it('runs faster at a higher speed', () => {
    send({ type: 'setSpeed', speed: 10 });
    clock.pass(1000);
    expect(latestTimeMs()).toBeGreaterThan(9000);
  });

  it('refuses a speed out of range', () => {
    send({ type: 'setSpeed', speed: 0 });
    expect(sent.at(-1)).toMatchObject({ type: 'error' });
    send({ type: 'setSpeed', speed: 5000 });
    expect(sent.at(-1)).toMatchObject({ type: 'error' });
  });

  it('plays as slowly as 0.1×', () => {
    send({ type: 'setSpeed', speed: 0.1 });
    clock.pass(10_000);
    expect(latestTimeMs()).toBeGreaterThan(900);
    expect(latestTimeMs()).toBeLessThanOrEqual(1000);
  });

  it('reports the speed it achieves, and the bytes it posts when measuring', () => {
    send({ type: 'measure', enabled: true });
    send({ type: 'setSpeed', speed: 10 });
    clock.pass(3000);
    const stats = sent.filter((m) => m.type === 'stats').at(-1);
    expect(stats?.type === 'stats' && stats.stats.achievedSpeed).toBeGreaterThan(8);
    expect(stats?.type === 'stats' && stats.stats.snapshotBytesPerSecond).toBeGreaterThan(0);
  });

  it('answers a command with its id and result', () => {
    send({ type: 'command', id: 7, command: { type: 'crashNode', nodeId: 99 } });
    const reply = sent.find((m) => m.type === 'commandResult');
    expect(reply).toMatchObject({ id: 7, result: { ok: false } });
  });

  it('reports a message of an unknown type instead of dropping it', () => {
    send({ type: 'rewind' } as never);
    expect(sent.at(-1)).toEqual({ type: 'error', message: 'Unknown message type "rewind"' });
  });

  it('reports the issues of a bad scenario and keeps the running one', () => {
    clock.pass(1000);
    const runningMs = latestTimeMs();
    send({ type: 'init', scenario: { ...defaultScenario, nodes: [] } });
    const error = sent.at(-1);
    expect(error?.type === 'error' && error.issues?.length).toBeGreaterThan(0);
    clock.pass(1000);
    expect(latestTimeMs()).toBeGreaterThan(runningMs);
  });

  it('sends only what changed, which rebuilds the full snapshot', () => {
    const large = presets.large.scenario;
    const fromLarge: WorkerToPage[] = [];
    startHost((message) => fromLarge.push(message), clock, large);
    clock.pass(8000);
    const deltas = fromLarge.filter((m) => m.type === 'snapshotDelta');
    expect(deltas.length).toBeGreaterThan(0);
    const last = deltas.at(-1)!;
    const reference = createSimulation(large);
    reference.advance(last.type === 'snapshotDelta' ? last.delta.snapshot.timeMs : 0);
    expect(latestSnapshot(fromLarge)).toEqual(reference.snapshot());
  });

  it('answers getMetrics with the latest samples and no invariant violated', () => {
    clock.pass(5000);
    send({ type: 'getMetrics', id: 7, limit: 3 });
    const reply = sent.at(-1)!;
    expect(reply.type).toBe('metrics');
    if (reply.type !== 'metrics') return;
    expect(reply.id).toBe(7);
    expect(reply.samples.map((s) => s.timeMs)).toEqual([2000, 3000, 4000]);
    expect(reply.violations).toEqual([]);
  });

  it("answers generateReassignment with the plan the engine proposes, or with Kafka's refusal", () => {
    clock.pass(15000);
    send({ type: 'generateReassignment', id: 3, topics: ['orders'], brokerIds: [4, 5, 6] });
    const reply = sent.at(-1)!;
    expect(reply.type).toBe('reassignmentPlan');
    if (reply.type !== 'reassignmentPlan') return;
    expect(reply.id).toBe(3);
    expect(reply.plan!.proposed).toHaveLength(6);
    expect(reply.plan!.proposed.every((p) => p.replicas.every((r) => [4, 5, 6].includes(r)))).toBe(true);
    send({ type: 'generateReassignment', id: 4, topics: ['orders'], brokerIds: [4, 5] });
    expect(sent.at(-1)).toMatchObject({ type: 'reassignmentPlan', id: 4, plan: null });
    expect((sent.at(-1) as { error?: string }).error).toMatch(/InvalidReplicationFactorException/);
  });

  it('starts a new run from a new scenario', () => {
    clock.pass(3000);
    send({ type: 'init', scenario: defaultScenario });
    const latest = snapshots().at(-1)!;
    expect(latest.run).toBe(1);
    expect(latest.timeMs).toBe(0);
  });
});
