// Topics without fault tolerance: losing one broker refuses their acks=all writes (replication
// factor at or below min.insync.replicas), or losing one zone takes partitions offline (every
// replica in one rack). Shown as the Dashboard's and the canvas's ⚠ badges.
import type { Snapshot } from '../../sim/types';
import { topicMinIsr } from './dashboard';

export interface FaultToleranceWarning {
  topic: string;
  /** replicationFactor <= min.insync.replicas: one replica down and acks=all gets NOT_ENOUGH_REPLICAS. */
  noSpareReplica: boolean;
  replicationFactor: number;
  minInsyncReplicas: number;
  /** Partitions whose replicas all sit in one rack, and those racks. */
  oneRackPartitions: number;
  racks: string[];
  /** One sentence, for a badge's title and a list item. */
  text: string;
}

const cache = new WeakMap<object, FaultToleranceWarning[]>();

/** The warnings of every non-internal topic, by topic name; memoised on the snapshot's partitions. */
export function selectFaultToleranceWarnings(snapshot: Snapshot | null): FaultToleranceWarning[] {
  if (!snapshot) return [];
  const cached = cache.get(snapshot.partitions);
  if (cached && cache.get(snapshot.topics) === cached) return cached;
  const rackOf = new Map(snapshot.nodes.map((n) => [n.id, n.rack]));
  // One pass over the partitions: per topic, those whose replicas all share one rack.
  const oneRack = new Map<string, { count: number; racks: Set<string> }>();
  for (const p of snapshot.partitions) {
    const first = rackOf.get(p.replicas[0] ?? -1);
    if (first == null || !p.replicas.every((b) => rackOf.get(b) === first)) continue;
    const entry = oneRack.get(p.topic) ?? { count: 0, racks: new Set<string>() };
    entry.count++;
    entry.racks.add(first);
    oneRack.set(p.topic, entry);
  }
  const warnings: FaultToleranceWarning[] = [];
  for (const t of [...snapshot.topics].sort((a, b) => a.name.localeCompare(b.name))) {
    if (t.name.startsWith('__')) continue;
    const minIsr = topicMinIsr(t.config);
    const noSpareReplica = t.replicationFactor <= minIsr;
    const oneRackPartitions = oneRack.get(t.name)?.count ?? 0;
    const racks = oneRack.get(t.name)?.racks ?? new Set<string>();
    if (!noSpareReplica && oneRackPartitions === 0) continue;
    const reasons: string[] = [];
    if (noSpareReplica)
      reasons.push(
        `replication factor ${t.replicationFactor} ≤ min.insync.replicas ${minIsr}: one replica down and acks=all writes are refused`,
      );
    if (oneRackPartitions > 0)
      reasons.push(
        `${oneRackPartitions} of ${t.partitions} partition${t.partitions === 1 ? '' : 's'} with every replica in ${[...racks].sort().join(', ')}: losing that zone takes them offline`,
      );
    warnings.push({
      topic: t.name,
      noSpareReplica,
      replicationFactor: t.replicationFactor,
      minInsyncReplicas: minIsr,
      oneRackPartitions,
      racks: [...racks].sort(),
      text: `${t.name}: no fault tolerance (${reasons.join('; ')})`,
    });
  }
  cache.set(snapshot.partitions, warnings);
  cache.set(snapshot.topics, warnings);
  return warnings;
}
