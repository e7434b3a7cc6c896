// Brokers of two zones that hold replicas of one partition of the default preset's orders topic.
import { defaultScenario } from '../../scenario/presets';
import type { Snapshot } from '../../sim/types';

/** The replicas in zone-a and zone-b of orders-0 (the placement follows the seed): together they hold a partition's majority. */
export function twoZonesOfOnePartition(s: Snapshot): number[] {
  const rackOf = (id: number) => defaultScenario.nodes.find((n) => n.id === id)?.rack;
  const replicas = s.partitions.find((p) => p.topic === 'orders' && p.partition === 0)!.replicas;
  return ['zone-a', 'zone-b'].map((z) => replicas.find((r) => rackOf(r) === z)!).sort((a, b) => a - b);
}
