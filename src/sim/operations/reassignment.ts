// Partition reassignment, the operator's side: the `kafka-reassign-partitions --generate` plan
// (ReassignPartitionsCommand.calculateAssignment over AdminUtils.assignReplicasToBrokers), and the leadership skew the preferred-leader election fixes.

import type { BrokerMetadata } from './adminPlacement';
import { assignReplicasToBrokers, AdminPlacementError } from './adminPlacement';
import type { IntSource } from '../kernel/rng';
import { intSource, seedRng } from '../kernel/rng';
import type { NodeId } from '../model/types';
import type { LeadershipView, Snapshot } from '../model/views';

const ascending = (a: number, b: number) => a - b;

export interface ReassignmentPlan {
  /** The assignment now, as `--generate` prints it ("Current partition replica assignment"). */
  current: { topic: string; partition: number; replicas: NodeId[] }[];
  /** The proposal ("Proposed partition reassignment configuration"), ready for reassignPartitions. */
  proposed: { topic: string; partition: number; replicas: NodeId[] }[];
}

/**
 * `kafka-reassign-partitions --generate`: a balanced assignment of `topics` over `brokerIds`, from
 * AdminUtils.assignReplicasToBrokers (rack-aware when every chosen broker has a rack), keeping each
 * partition's replication factor. Pure: the same snapshot and random source give the same plan.
 * Throws an Error with Kafka's message when the plan is impossible.
 */
export function generateReassignment(
  snapshot: Pick<Snapshot, 'nodes' | 'partitions'>,
  topics: readonly string[],
  brokerIds: readonly NodeId[],
  random: IntSource,
): ReassignmentPlan {
  const brokers: BrokerMetadata[] = [...new Set(brokerIds)].sort(ascending).map((id) => {
    const node = snapshot.nodes.find((n) => n.id === id);
    if (!node || !node.roles.includes('broker'))
      throw new Error(`Broker ${id} is not a broker of this cluster.`);
    return { id, rack: node.rack };
  });
  const anyRack = brokers.some((b) => b.rack !== null);
  const plan: ReassignmentPlan = { current: [], proposed: [] };
  for (const topic of [...topics].sort()) {
    const parts = snapshot.partitions
      .filter((p) => p.topic === topic)
      .sort((a, b) => a.partition - b.partition);
    const [first] = parts;
    if (!first) throw new Error(`Topic ${topic} not found.`);
    const rf = first.replicas.length - (first.removing?.length ?? 0);
    let assignment: number[][];
    try {
      // Kafka refuses a mix of brokers with and without racks unless rack awareness is disabled.
      assignment = assignReplicasToBrokers(
        anyRack && brokers.some((b) => b.rack === null)
          ? brokers.map((b) => ({ ...b, rack: null }))
          : brokers,
        parts.length,
        rf,
        random,
      );
    } catch (e) {
      if (e instanceof AdminPlacementError) throw new Error(`${e.exception}: ${e.message}`, { cause: e });
      throw e;
    }
    for (const p of parts) {
      const currentReplicas = p.replicas.filter((r) => !(p.removing ?? []).includes(r));
      plan.current.push({ topic, partition: p.partition, replicas: currentReplicas });
      plan.proposed.push({ topic, partition: p.partition, replicas: assignment[p.partition]! });
    }
  }
  return plan;
}

/** generateReassignment with its own seeded random source, for the UI: the same seed gives the same plan. */
export function generateReassignmentWithSeed(
  snapshot: Pick<Snapshot, 'nodes' | 'partitions'>,
  topics: readonly string[],
  brokerIds: readonly NodeId[],
  seed: number,
): ReassignmentPlan {
  return generateReassignment(snapshot, topics, brokerIds, intSource(seedRng(seed)));
}

/**
 * Leaders per broker and how many partitions are not led by their preferred replica (the first
 * replica): what `auto.leader.rebalance.enable` and kafka-leader-election --election-type preferred fix.
 */
export function leadershipSkew(
  partitions: readonly { replicas: NodeId[]; leader: NodeId }[],
  brokerIds: readonly NodeId[],
): LeadershipView {
  const brokers = [...brokerIds].sort(ascending).map((id) => ({
    brokerId: id,
    leaders: 0,
    preferredLeaders: 0,
    replicas: 0,
    notLedByPreferred: 0,
    imbalanceRatio: 0,
  }));
  const byId = new Map(brokers.map((b) => [b.brokerId, b]));
  let notPreferred = 0;
  for (const p of partitions) {
    const preferred = p.replicas[0];
    const lead = byId.get(p.leader);
    if (lead) lead.leaders++;
    for (const r of p.replicas) {
      const b = byId.get(r);
      if (b) b.replicas++;
    }
    const pref = preferred === undefined ? undefined : byId.get(preferred);
    if (pref) pref.preferredLeaders++;
    if (p.leader !== preferred) {
      notPreferred++;
      if (pref) pref.notLedByPreferred++;
    }
  }
  // Kafka's leader imbalance ratio of a broker: its preferred partitions it does not lead / its preferred partitions.
  for (const b of brokers)
    b.imbalanceRatio = b.preferredLeaders ? b.notLedByPreferred / b.preferredLeaders : 0;
  const counts = brokers.map((b) => b.leaders);
  return {
    brokers,
    partitionsNotLedByPreferred: notPreferred,
    maxLeaders: counts.length ? Math.max(...counts) : 0,
    minLeaders: counts.length ? Math.min(...counts) : 0,
  };
}
