// The admin-side replica assignment: AdminUtils.assignReplicasToBrokers, which
// `kafka-reassign-partitions --generate` uses to propose a new assignment (Kafka 4.0).
// Source: apache/kafka server-common/src/main/java/org/apache/kafka/admin/AdminUtils.java

import type { IntSource } from '../kernel/rng';
import { itemAt } from '../model/arrays';

/** A broker as the tool sees it: its id and rack (null when unknown or rack awareness is off). */
export interface BrokerMetadata {
  id: number;
  rack: string | null;
}

/** Why Kafka refuses to assign; `exception` is the Java exception the tool reports. */
export class AdminPlacementError extends Error {
  constructor(
    readonly exception:
      'InvalidPartitionsException' | 'InvalidReplicationFactorException' | 'AdminOperationException',
    message: string,
  ) {
    super(message);
    this.name = 'AdminPlacementError';
  }
}

/**
 * One replica list per partition, for partitions `max(0, startPartitionId)` onwards; the first
 * replica is the preferred leader. Rack-aware when any broker has a rack (then all must).
 * `fixedStartIndex` < 0 draws the start index and then the replica shift from `random`, as the
 * tool does; otherwise it is both.
 */
export function assignReplicasToBrokers(
  brokers: readonly BrokerMetadata[],
  partitionCount: number,
  replicationFactor: number,
  random: IntSource,
  fixedStartIndex = -1,
  startPartitionId = -1,
): number[][] {
  // AdminUtils#assignReplicasToBrokers
  if (partitionCount <= 0) {
    throw new AdminPlacementError(
      'InvalidPartitionsException',
      'Number of partitions must be larger than 0.',
    );
  }
  if (replicationFactor <= 0) {
    throw new AdminPlacementError(
      'InvalidReplicationFactorException',
      'Replication factor must be larger than 0.',
    );
  }
  if (replicationFactor > brokers.length) {
    throw new AdminPlacementError(
      'InvalidReplicationFactorException',
      `Replication factor: ${replicationFactor} larger than available brokers: ${brokers.length}.`,
    );
  }
  if (brokers.every((b) => b.rack === null)) {
    const ids = brokers.map((b) => b.id);
    return assignRackUnaware(
      partitionCount,
      replicationFactor,
      ids,
      random,
      fixedStartIndex,
      startPartitionId,
    );
  }
  return assignRackAware(
    partitionCount,
    replicationFactor,
    brokers,
    random,
    fixedStartIndex,
    startPartitionId,
  );
}

function assignRackUnaware(
  partitionCount: number,
  replicationFactor: number,
  brokerIds: readonly number[],
  random: IntSource,
  fixedStartIndex: number,
  startPartitionId: number,
): number[][] {
  // AdminUtils#assignReplicasToBrokersRackUnaware: leaders round-robin from startIndex, followers
  // at a shift that grows by one after every full pass over the brokers.
  const n = brokerIds.length;
  const startIndex = fixedStartIndex >= 0 ? fixedStartIndex : random.nextInt(n);
  let shift = fixedStartIndex >= 0 ? fixedStartIndex : random.nextInt(n);
  const assignment: number[][] = [];
  for (let p = Math.max(0, startPartitionId); assignment.length < partitionCount; p++) {
    if (p > 0 && p % n === 0) shift++;
    const first = (p + startIndex) % n;
    const replicas = [itemAt(brokerIds, first)];
    for (let j = 0; j < replicationFactor - 1; j++)
      replicas.push(itemAt(brokerIds, replicaIndex(first, shift, j, n)));
    assignment.push(replicas);
  }
  return assignment;
}

function assignRackAware(
  partitionCount: number,
  replicationFactor: number,
  brokers: readonly BrokerMetadata[],
  random: IntSource,
  fixedStartIndex: number,
  startPartitionId: number,
): number[][] {
  // AdminUtils#assignReplicasToBrokersRackAware: round-robin over the rack-alternated list, a
  // follower skipped while its rack (or itself) has a replica and some rack (or broker) has none.
  const rackOf = new Map<number, string>();
  for (const b of brokers) {
    if (b.rack === null) {
      throw new AdminPlacementError(
        'AdminOperationException',
        'Not all brokers have rack information for replica rack aware assignment.',
      );
    }
    rackOf.set(b.id, b.rack);
  }
  const rackCount = new Set(rackOf.values()).size;
  const arranged = rackAlternatedBrokerList(rackOf);
  const n = arranged.length;
  const startIndex = fixedStartIndex >= 0 ? fixedStartIndex : random.nextInt(n);
  let shift = fixedStartIndex >= 0 ? fixedStartIndex : random.nextInt(n);
  const assignment: number[][] = [];
  for (let p = Math.max(0, startPartitionId); assignment.length < partitionCount; p++) {
    if (p > 0 && p % n === 0) shift++;
    const first = (p + startIndex) % n;
    const leader = itemAt(arranged, first);
    const replicas = [leader];
    const racksWithReplica = new Set([rackOf.get(leader)]);
    const brokersWithReplica = new Set([leader]);
    for (let k = 0; replicas.length < replicationFactor; k++) {
      const broker = itemAt(arranged, replicaIndex(first, shift * rackCount, k, n));
      const rack = rackOf.get(broker);
      const rackFree = !racksWithReplica.has(rack) || racksWithReplica.size === rackCount;
      const brokerFree = !brokersWithReplica.has(broker) || brokersWithReplica.size === n;
      if (rackFree && brokerFree) {
        replicas.push(broker);
        racksWithReplica.add(rack);
        brokersWithReplica.add(broker);
      }
    }
    assignment.push(replicas);
  }
  return assignment;
}

/**
 * Brokers taken one per rack in turn, racks in name order and each rack's brokers by id:
 * {0:rack1, 1:rack3, 2:rack3, 3:rack2, 4:rack2, 5:rack1} gives [0, 3, 1, 5, 4, 2].
 */
export function rackAlternatedBrokerList(rackOf: ReadonlyMap<number, string>): number[] {
  // AdminUtils#getRackAlternatedBrokerList
  const byRack = new Map<string, number[]>();
  for (const [id, rack] of rackOf) {
    const ids = byRack.get(rack) ?? [];
    ids.push(id);
    byRack.set(rack, ids);
  }
  // Java's String order (UTF-16 code units), which is also JS's default comparison.
  const racks = [...byRack.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const queues = racks.map((rack) => (byRack.get(rack) ?? []).sort((a, b) => a - b));
  const result: number[] = [];
  for (let round = 0; result.length < rackOf.size; round++) {
    for (const queue of queues) {
      const id = queue[round];
      if (id !== undefined) result.push(id);
    }
  }
  return result;
}

function replicaIndex(first: number, shift: number, j: number, n: number): number {
  // AdminUtils#replicaIndex: never 0 steps from the leader, so never the leader itself.
  return (first + 1 + ((shift + j) % (n - 1))) % n;
}
