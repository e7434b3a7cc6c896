import { describe, expect, it } from 'vitest';
import { createSimulation } from '../index';
import type { Simulation } from '../simulation';
import { clusterScenario } from '../testing/driver';
import type { Scenario } from '../model/types';
import { validateScenario } from '../validate';

// Primary region: controller 1, brokers 2-4 with `orders`; standby region: controller 11, brokers 12-14.
function mirrored(overrides: Partial<NonNullable<Scenario['mirror']>> = {}): Scenario {
  const standby = clusterScenario({ controllerIds: [11], brokerIds: [12, 13, 14] });
  return {
    ...clusterScenario({
      seed: 21,
      topics: [
        { name: 'orders', partitions: 2, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
        { name: 'audit', partitions: 1, replicationFactor: 3 },
      ],
    }),
    mirror: {
      standby: { nodes: standby.nodes, network: { latencyMs: 1 }, seed: 22 },
      topics: ['orders'],
      crossRegionLatencyMs: 80,
      pollIntervalMs: 200,
      ...overrides,
    },
  };
}

/** A steady stream of acks=all writes in the primary, 20 a second, from 6 s until `stopAtMs`. */
function run(stopAtMs: number, sim: Simulation = createSimulation(mirrored())): Simulation {
  sim.advance(6000 - sim.nowMs);
  let n = 0;
  while (sim.nowMs < stopAtMs) {
    sim.apply({ type: 'produce', topic: 'orders', key: `k${n % 7}`, value: `order-${n}`, acks: 'all' });
    n++;
    sim.advance(50);
  }
  return sim;
}

const mirrorEvents = (sim: Simulation) =>
  sim
    .events()
    .filter((e) => e.type.startsWith('Mirror') || e.type === 'RegionLost')
    .map((e) => e.type);

describe('a standby cluster in another region, fed by MirrorMaker', () => {
  it('receives the mirrored topic with a visible lag', () => {
    const sim = run(12000);
    expect(mirrorEvents(sim)).toEqual(['MirrorStarted', 'MirrorTopicCreated']);
    const lag = sim.mirrorLag();
    expect(lag.map((l) => `${l.topic}-${l.partition}`)).toEqual(['orders-0', 'orders-1']);
    const total = lag.reduce((a, l) => a + l.mirrored, 0);
    expect(total).toBeGreaterThan(80);
    // Asynchronous: the standby trails by about a poll interval plus the cross-region latency.
    expect(lag.some((l) => l.lagRecords > 0 || l.lagMs > 0)).toBe(true);
    expect(Math.max(...lag.map((l) => l.lagMs))).toBeLessThan(1000);
    const standby = sim.standby!;
    expect(standby.committedRecords('orders', 0).length + standby.committedRecords('orders', 1).length).toBe(
      total,
    );
    // The standby is a cluster of its own: its own controller and metadata, only the mirrored topic.
    expect(standby.snapshot().topics.map((t) => t.name)).toEqual(['orders']);
    const view = sim.snapshot().mirror!;
    expect(view.standby.nodes.map((n) => [n.id, n.alive])).toEqual([
      [11, true],
      [12, true],
      [13, true],
      [14, true],
    ]);
    expect(view.standby.controllerId).toBe(11);
    expect(view.standby.partitions.map((p) => [p.partition, p.leader >= 12, p.isr.length])).toEqual([
      [0, true, 3],
      [1, true, 3],
    ]);
    expect(view).toMatchObject({
      primaryRegion: 'region-1',
      standbyRegion: 'region-2',
      topics: ['orders'],
      regionLost: false,
      failover: null,
    });
    expect(view.lag).toEqual(lag);
  });

  it('after losing the first region, the records acknowledged there but not yet mirrored are reported missing', () => {
    const sim = run(12000);
    const lagBefore = sim.mirrorLag();
    expect(sim.apply({ type: 'loseRegion' })).toEqual({ ok: true });
    // The primary's metadata is gone with its controllers; the lag keeps what it had committed.
    expect(sim.mirrorLag().map((l) => l.sourceCommitted)).toEqual(lagBefore.map((l) => l.sourceCommitted));
    expect(sim.snapshot().nodes.every((n) => n.state === 'crashed')).toBe(true);
    expect(mirrorEvents(sim)).toEqual(['MirrorStarted', 'MirrorTopicCreated', 'RegionLost']);
    sim.advance(5000);
    const report = sim.failoverReport()!;
    expect(report.missing.length).toBeGreaterThan(0);
    // Only the last moments before the loss are missing, and they are the newest acknowledged records.
    expect(report.windowMs).toBeLessThan(1000);
    const acked = sim.ledger().filter((e) => e.status === 'acked');
    const missingValues = new Set(report.missing.map((r) => r.value));
    const oldestMissing = Math.min(...report.missing.map((r) => r.ackedAtMs));
    for (const e of acked) expect(missingValues.has(e.value)).toBe(e.ackedAtMs! >= oldestMissing);
    expect(report.newestMirroredAckMs).toBeLessThan(report.lostAtMs);
    expect(report.message).toContain('missing');
    // Everything else is in the standby, readable there.
    const inStandby = new Set(
      [0, 1].flatMap((p) => sim.standby!.committedRecords('orders', p).map((r) => r.value)),
    );
    for (const e of acked) expect(inStandby.has(e.value)).toBe(!missingValues.has(e.value));
    // The snapshot carries the same report.
    const lagAfter = sim.mirrorLag();
    expect(lagAfter.reduce((a, l) => a + l.lagRecords, 0)).toBe(report.missing.length);
    // The lag counts from when the oldest missing record was written, the window from its acknowledgement.
    expect(Math.max(...lagAfter.map((l) => l.lagMs))).toBeGreaterThanOrEqual(report.windowMs);
    const failover = sim.snapshot().mirror!.failover!;
    expect(failover.missingCount).toBe(report.missing.length);
    expect(failover.missing).toEqual(report.missing);
    expect(sim.snapshot().mirror!.regionLost).toBe(true);
  });

  it('refuses loseRegion twice, and without a mirror', () => {
    const sim = run(7000);
    expect(sim.apply({ type: 'loseRegion' }).ok).toBe(true);
    const again = sim.apply({ type: 'loseRegion' });
    expect(again).toEqual({ ok: false, error: 'command: the primary region is already lost' });
    const plain = createSimulation(clusterScenario());
    expect(plain.apply({ type: 'loseRegion' })).toEqual({
      ok: false,
      error: 'command: this scenario has no standby region: add a "mirror" block to it (docs/scenario.md)',
    });
    expect(plain.snapshot().mirror).toBeUndefined();
    expect(plain.failoverReport()).toBeNull();
  });

  it('loses the region from a script step too', () => {
    const scenario = mirrored();
    scenario.script = [
      {
        atMs: 8000,
        command: { type: 'produce', topic: 'orders', key: 'late', value: 'late-1', acks: 'all' },
      },
      { atMs: 8010, command: { type: 'loseRegion' } },
    ];
    const sim = createSimulation(scenario);
    sim.advance(12000);
    const report = sim.failoverReport()!;
    expect(report.lostAtMs).toBe(8010);
    expect(report.missing.map((r) => r.value)).toContain('late-1');
  });

  it('replays exactly (seeds 21 and 22)', () => {
    const a = run(9000);
    a.apply({ type: 'loseRegion' });
    a.advance(2000);
    const b = run(9000);
    b.apply({ type: 'loseRegion' });
    b.advance(2000);
    expect(a.stateHash()).toBe(b.stateHash());
    expect(JSON.stringify(a.failoverReport())).toBe(JSON.stringify(b.failoverReport()));
    expect(JSON.stringify(a.snapshot())).toBe(JSON.stringify(b.snapshot()));
    expect(JSON.stringify(a.events())).toBe(JSON.stringify(b.events()));
  });

  it('a clone carries the standby and the mirror: both continue as the original would', () => {
    const original = run(9000);
    const copy = original.clone();
    expect(copy.stateHash()).toBe(original.stateHash());
    for (const sim of [original, copy]) {
      sim.apply({ type: 'produce', topic: 'orders', key: 'x', value: 'after-clone', acks: 'all' });
      sim.advance(1234);
      sim.apply({ type: 'loseRegion' });
      sim.advance(3000);
    }
    expect(copy.stateHash()).toBe(original.stateHash());
    expect(JSON.stringify(copy.snapshot())).toBe(JSON.stringify(original.snapshot()));
    // And advancing the copy further leaves the original where it was.
    const before = original.stateHash();
    copy.advance(5000);
    expect(original.stateHash()).toBe(before);
  });

  it('the state hash covers the standby and the mirror', () => {
    const a = run(8000);
    const b = a.clone();
    b.standby!.apply({ type: 'produce', topic: 'orders', value: 'only-in-standby', acks: 1 });
    expect(b.stateHash()).not.toBe(a.stateHash());
  });

  it('gives the same run however it is sliced into advance and step calls', () => {
    const whole = createSimulation(mirrored({ pollIntervalMs: 70, crossRegionLatencyMs: 33 }));
    const sliced = createSimulation(mirrored({ pollIntervalMs: 70, crossRegionLatencyMs: 33 }));
    whole.advance(6000);
    let guard = 0;
    while (sliced.nowMs < 5000 && guard++ < 100000) sliced.step();
    sliced.advance(6000 - sliced.nowMs);
    for (const sim of [whole, sliced]) {
      sim.apply({ type: 'produce', topic: 'orders', key: 'k', value: 'v', acks: 'all', count: 20 });
    }
    whole.advance(3000);
    for (let i = 0; i < 300; i++) sliced.advance(i % 3 === 0 ? 17 : 0);
    while (sliced.nowMs < 9000) {
      const next = sliced.nextEventAtMs();
      if (next !== null && next <= 9000) sliced.step();
      else sliced.advance(9000 - sliced.nowMs);
    }
    expect(sliced.nowMs).toBe(whole.nowMs);
    expect(sliced.stateHash()).toBe(whole.stateHash());
    expect(JSON.stringify(sliced.snapshot().mirror)).toBe(JSON.stringify(whole.snapshot().mirror));
  });
});

describe('the mirror block of a scenario', () => {
  const issues = (mirror: unknown) =>
    validateScenario({ ...mirrored(), mirror }).map((i) => `${i.path}: ${i.message}`);

  it('is valid as the tests build it', () => {
    expect(validateScenario(mirrored())).toEqual([]);
  });

  it('names topics of the scenario', () => {
    expect(issues({ ...mirrored().mirror, topics: ['orders', 'x', 'orders'] })).toEqual([
      'mirror.topics[1]: topic "x" is not in the scenario: mirror one of its "topics"',
      'mirror.topics[2]: duplicate topic "orders", also at mirror.topics[0]',
    ]);
    expect(issues({ ...mirrored().mirror, topics: [] })).toEqual([
      'mirror.topics: must be a non-empty array of topic names',
    ]);
  });

  it('checks the standby as a cluster of its own, with ids of its own', () => {
    const standby = {
      nodes: [
        { id: 2, roles: ['broker'] },
        { id: 12, roles: ['broker'], rack: '' },
      ],
      config: { 'min.insync.replicas': -1 },
      colour: 'blue',
    };
    expect(issues({ standby, topics: ['orders'] })).toEqual([
      'mirror.standby.colour: unknown field',
      'mirror.standby.nodes[1].rack: must be a non-empty string (omit it for no rack)',
      'mirror.standby.nodes: a KRaft cluster needs at least one node with the "controller" role',
      'mirror.standby.config.min.insync.replicas: Invalid value -1 for configuration min.insync.replicas: Value must be at least 1',
      'mirror.standby.nodes[0].id: node id 2 is already a node of the primary cluster: give the standby its own ids',
    ]);
    expect(issues({ topics: ['orders'] })).toEqual([
      'mirror.standby: missing; the standby cluster, e.g. {"nodes": [...]}',
    ]);
  });

  it('checks latency, poll interval, acks and region names', () => {
    expect(
      issues({
        ...mirrored().mirror,
        crossRegionLatencyMs: 0,
        pollIntervalMs: 1.5,
        acks: 2,
        primaryRegion: 'region-2',
        lag: 3,
      }),
    ).toEqual([
      'mirror.lag: unknown field',
      'mirror.primaryRegion: the two regions need different names (both are "region-2")',
      'mirror.crossRegionLatencyMs: must be a whole number of milliseconds from 1 to 10000',
      'mirror.pollIntervalMs: must be a whole number of milliseconds from 1 to 60000',
      'mirror.acks: must be 0, 1 or "all"',
    ]);
  });

  it('refuses a loseRegion step without a mirror, or a second one', () => {
    const { mirror: _m, ...plain } = mirrored();
    expect(
      validateScenario({ ...plain, script: [{ atMs: 1000, command: { type: 'loseRegion' } }] }).map(
        (i) => `${i.path}: ${i.message}`,
      ),
    ).toEqual([
      'script[0].command: this scenario has no standby region: add a "mirror" block to it (docs/scenario.md)',
    ]);
    expect(
      validateScenario({
        ...mirrored(),
        script: [
          { atMs: 2000, command: { type: 'loseRegion' } },
          { atMs: 1000, command: { type: 'loseRegion' } },
        ],
      }).map((i) => `${i.path}: ${i.message}`),
    ).toEqual(['script[0].command: the primary region is already lost']);
  });

  it('never builds half a simulation: a bad mirror throws a ScenarioError', () => {
    expect(() =>
      createSimulation({ ...mirrored(), mirror: { ...mirrored().mirror!, topics: ['x'] } }),
    ).toThrow(/mirror\.topics\[0\]: topic "x" is not in the scenario/);
  });
});
