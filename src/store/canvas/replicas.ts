// The replicas on each broker and how each looks: its role (leader, in sync, ELR, out of sync,
// offline) and, on a full card, a chip with its LEO and HW against the leader's.
import type { NodeId, NodeView, PartitionView, Snapshot } from '../../sim/types';
import { isInternalTopic } from './keys';
import { MAX_CHIPS } from './layout';
import type { ReplicaChip, ReplicaCounts, ReplicaRole } from './types';

/** Above this many brokers a broker shows counts per replica state instead of every replica. */
export const COLLAPSE_ABOVE_BROKERS = 12;
/**
 * Above this many brokers a broker is a tile (its id, its state's glyph, its leader count): a
 * 150 px card of a 200-broker cluster is a few pixels of text once the canvas fits the screen.
 */
export const TILE_ABOVE_BROKERS = 64;

/** How a replica on `brokerId` looks: leader, in sync, eligible (ELR), out of sync or offline. */
export function replicaRole(p: PartitionView, brokerId: NodeId, brokerUp: boolean): ReplicaRole {
  if (p.leader === brokerId) return 'leader';
  if (!brokerUp) return 'offline';
  if (p.elr.includes(brokerId)) return 'elr';
  if (p.isr.includes(brokerId)) return 'insync';
  return 'outofsync';
}

const ROLE_WORDS: Record<ReplicaRole, string> = {
  leader: 'leader',
  insync: 'in-sync follower',
  outofsync: 'out-of-sync follower',
  elr: 'eligible leader replica (ELR)',
  offline: 'offline replica',
};

export interface PlacedReplica {
  p: PartitionView;
  role: ReplicaRole;
}

export interface Placement {
  /** Each broker's replicas, in the snapshot's partition order. */
  replicasOf: Map<NodeId, PlacedReplica[]>;
  /** Which broker leads each partition ("orders-0" → 4). */
  leaders: Map<string, NodeId>;
  /** The most replicas of user topics on one broker (the chip rows a full card needs). */
  maxChips: number;
}

/** Every replica by broker, with its role, and every partition's leader. */
export function placeReplicas(snapshot: Snapshot): Placement {
  const up = new Map(snapshot.nodes.map((n) => [n.id, n.state === 'running']));
  const replicasOf = new Map<NodeId, PlacedReplica[]>();
  const leaders = new Map<string, NodeId>();
  for (const p of snapshot.partitions) {
    if (p.leader >= 0) leaders.set(`${p.topic}-${p.partition}`, p.leader);
    for (const id of p.replicas) {
      let list = replicasOf.get(id);
      if (!list) replicasOf.set(id, (list = []));
      list.push({ p, role: replicaRole(p, id, up.get(id) ?? false) });
    }
  }
  const maxChips = Math.max(
    0,
    ...[...replicasOf.values()].map((list) => list.filter((r) => !isInternalTopic(r.p.topic)).length),
  );
  return { replicasOf, leaders, maxChips };
}

export function replicaCounts(list: readonly PlacedReplica[]): ReplicaCounts {
  const counts: ReplicaCounts = { leader: 0, insync: 0, outofsync: 0, elr: 0, offline: 0 };
  for (const r of list) counts[r.role]++;
  return counts;
}

/** The chips of a full card: user topics only, at most MAX_CHIPS. */
export function replicaChips(n: NodeView, list: readonly PlacedReplica[]): ReplicaChip[] {
  const visible = list.filter((r) => !isInternalTopic(r.p.topic));
  return visible.slice(0, MAX_CHIPS).map(({ p, role }) => {
    const log = p.replicaLogs.find((l) => l.brokerId === n.id);
    const leaderLog = p.replicaLogs.find((l) => l.brokerId === p.leader);
    const logEndOffset = log?.logEndOffset ?? 0;
    const highWatermark = log?.highWatermark ?? 0;
    const key = `${p.topic}-${p.partition}`;
    return {
      key,
      topic: p.topic,
      partition: p.partition,
      role,
      logEndOffset,
      highWatermark,
      scale: Math.max(1, logEndOffset, leaderLog?.logEndOffset ?? 0),
      label: `${key} ${ROLE_WORDS[role]}, LEO ${logEndOffset}, HW ${highWatermark}`,
    };
  });
}
