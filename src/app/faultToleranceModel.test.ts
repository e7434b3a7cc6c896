// The engine's real snapshots through the fault-tolerance selector (src/store/panels/faultTolerance.ts),
// here because src/app is the one layer that may drive both the engine and the store.
import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { createSimulation } from '../sim';
import { selectFaultToleranceWarnings } from '../store/panels';

function snapshotOf(topics: NonNullable<typeof defaultScenario.topics>) {
  const sim = createSimulation({ ...defaultScenario, topics, script: [] });
  sim.advance(8_000);
  return sim.snapshot();
}

describe('topics without fault tolerance', () => {
  it('none in the default cluster: orders has RF 3 over three zones and min.insync.replicas=2', () => {
    expect(selectFaultToleranceWarnings(snapshotOf(defaultScenario.topics!))).toEqual([]);
  });

  it('flags replicationFactor <= min.insync.replicas and replicas all in one rack, with the reason in words', () => {
    const warnings = selectFaultToleranceWarnings(
      snapshotOf([
        { name: 'tight', partitions: 1, replicationFactor: 2, config: { 'min.insync.replicas': 2 } },
        {
          name: 'local',
          partitions: 2,
          replicationFactor: 2,
          assignment: [
            [4, 5],
            [6, 8],
          ],
        },
        { name: 'single', partitions: 1, replicationFactor: 1 },
      ]),
    );
    expect(warnings.map((w) => w.text)).toEqual([
      'local: no fault tolerance (1 of 2 partitions with every replica in zone-a: losing that zone takes them offline)',
      'single: no fault tolerance (replication factor 1 ≤ min.insync.replicas 1: one replica down and acks=all writes are refused; 1 of 1 partition with every replica in ' +
        `${warnings.find((w) => w.topic === 'single')?.racks[0]}: losing that zone takes them offline)`,
      'tight: no fault tolerance (replication factor 2 ≤ min.insync.replicas 2: one replica down and acks=all writes are refused)',
    ]);
  });
});
