// What if a zone goes dark: each branch runs forward on a copy of the live simulation.
import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { createSimulation } from '../sim';
import { twoZonesOfOnePartition } from './testing/twoZones';
import { WhatIfJob } from './whatIf';

function settled() {
  const sim = createSimulation(defaultScenario);
  sim.advance(20_000);
  return sim;
}

const run = (job: WhatIfJob) => {
  while (!job.run(() => false));
  return job.result();
};

describe('what if a zone of the default cluster goes dark', () => {
  it('loses no partition to any one zone, and every partition is led again after fencing', () => {
    const sim = settled();
    const before = sim.stateHash();
    const result = run(
      new WhatIfJob(sim, [
        { kind: 'rack', rack: 'zone-a' },
        { kind: 'rack', rack: 'zone-b' },
        { kind: 'rack', rack: 'zone-c' },
      ]),
    );
    // The live simulation is untouched.
    expect(sim.stateHash()).toBe(before);
    expect(result.outcomes.map((o) => o.label).sort()).toEqual(['Zone zone-a', 'Zone zone-b', 'Zone zone-c']);
    for (const o of result.outcomes) {
      expect(o.offlineCount).toBe(0);
      expect(o.underMinIsrCount).toBe(0);
      expect(o.leaderLostCount).toBeGreaterThan(0);
      // Fencing broker.session.timeout.ms (9 s) after the last heartbeat (up to 2 s before), then the elections.
      expect(o.allLedAfterMs).toBeGreaterThanOrEqual(7_000);
      expect(o.allLedAfterMs).toBeLessThan(15_000);
      expect(o.commands).toEqual([{ type: 'loseZone', rack: o.label.replace('Zone ', '') }]);
    }
  });

  it('puts two brokers of two zones first: their partitions fall under min.insync.replicas', () => {
    const sim = settled();
    const pair = twoZonesOfOnePartition(sim.snapshot());
    const result = run(
      new WhatIfJob(sim, [
        { kind: 'rack', rack: 'zone-a' },
        { kind: 'nodes', nodeIds: pair },
      ]),
    );
    const [worst, other] = result.outcomes;
    expect(worst?.label).toBe(`Nodes ${pair.join(', ')}`);
    expect(worst?.underMinIsrCount).toBeGreaterThan(0);
    expect(
      worst?.underMinIsr.every((p) => p.startsWith('orders-') || p.startsWith('__consumer_offsets-')),
    ).toBe(true);
    expect(other?.underMinIsrCount).toBe(0);
  });

  it('loses acks=1 records not yet copied when the leader zone goes dark (the branch, not a formula)', () => {
    const sim = createSimulation({ ...defaultScenario, script: [] });
    sim.advance(18_000);
    // acks=1 needs enable.idempotence=false (an idempotent producer requires acks=all).
    const producer = {
      type: 'startProducer',
      producerId: 'fast',
      topic: 'orders',
      ratePerSec: 200,
      acks: 1,
    } as const;
    expect(sim.apply({ ...producer, config: { 'enable.idempotence': false } }).ok).toBe(true);
    sim.advance(2_000);
    // The followers in the other zones stop fetching from zone-a (but stay in the ISR for
    // replica.lag.time.max.ms): the records zone-a's leaders acknowledge with acks=1 stay there.
    for (const from of [4, 5]) for (const to of [6, 7, 8, 9]) sim.apply({ type: 'cutLink', from, to });
    sim.advance(3_000);
    const result = run(new WhatIfJob(sim, [{ kind: 'rack', rack: 'zone-a' }]));
    expect(result.outcomes[0]?.lostAcknowledged).toBeGreaterThan(0);
  });

  it('runs in slices: a budget that is always over does one slice at a time', () => {
    const sim = settled();
    const job = new WhatIfJob(sim, [{ kind: 'rack', rack: 'zone-a' }]);
    let slices = 1;
    while (!job.run(() => true)) slices++;
    expect(slices).toBe(30);
    expect(job.done).toBe(1);
  });

  it('offlines every partition of a topic whose replicas are all in the lost zone', () => {
    const sim = createSimulation({
      ...defaultScenario,
      topics: [
        {
          name: 'local',
          partitions: 2,
          replicationFactor: 2,
          assignment: [
            [4, 5],
            [5, 4],
          ],
        },
      ],
      script: [],
    });
    sim.advance(20_000);
    const [zoneA] = run(new WhatIfJob(sim, [{ kind: 'rack', rack: 'zone-a' }])).outcomes;
    expect(zoneA?.offline).toEqual(['local-0', 'local-1']);
    expect(zoneA?.allLedAfterMs).toBeNull();
  });
});
