// Partition reassignment in the controller: the replica lists of a reassignment and of its revert
// (PartitionReassignmentReplicas, PartitionReassignmentRevert in apache/kafka metadata/.../controller),
// and Kafka's checks of a target replica list.

import type { PartitionState } from '../model/metadata';
import type { NodeId } from '../model/types';

export interface ReassignmentReplicas {
  /** Target replicas, then the replicas being removed (the "merged" list). */
  replicas: NodeId[];
  /** Target replicas not yet in the replica list, ascending. */
  adding: NodeId[];
  /** Current replicas not in the target, ascending. */
  removing: NodeId[];
}

const ascending = (a: number, b: number) => a - b;

/** PartitionReassignmentReplicas(current, target): replicas = target + removing; adding and removing are sorted sets. */
export function reassignmentReplicas(
  current: readonly NodeId[],
  target: readonly NodeId[],
): ReassignmentReplicas {
  const removing = current.filter((r) => !target.includes(r)).sort(ascending);
  const adding = target.filter((r) => !current.includes(r)).sort(ascending);
  return { replicas: [...target, ...removing], adding, removing };
}

/** PartitionReassignmentRevert: back to the original replicas (without `adding`); null when no ISR member would remain (unclean). */
export function revertReassignment(p: PartitionState): { replicas: NodeId[]; isr: NodeId[] } | null {
  const replicas = p.replicas.filter((r) => !p.adding.includes(r));
  const isr = p.isr.filter((r) => replicas.includes(r));
  return isr.length ? { replicas, isr } : null;
}

export function isReassigning(p: { adding?: readonly NodeId[]; removing?: readonly NodeId[] }): boolean {
  return (p.adding?.length ?? 0) > 0 || (p.removing?.length ?? 0) > 0;
}

/** Kafka's checks of a target replica list (validateManualPartitionAssignment); null when valid. */
export function checkTargetReplicas(
  target: readonly NodeId[],
  registered: (id: NodeId) => boolean,
): string | null {
  if (target.length === 0)
    return 'INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes an empty replica list.';
  const seen = new Set<NodeId>();
  for (const r of target) {
    if (seen.has(r))
      return `INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes the broker ${r} more than once.`;
    seen.add(r);
    if (!registered(r))
      return `INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes broker ${r}, but no such broker is registered.`;
  }
  return null;
}
