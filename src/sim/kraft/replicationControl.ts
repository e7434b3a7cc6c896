// ReplicationControlManager: topics and their partitions in the controller. Every change of a
// partition (ISR, leader, replicas, ELR) goes through PartitionChangeBuilder (partitionChange.ts)
// and is explained in an event; topic creation, reassignments (KIP-455), and leader elections
// (preferred, unclean) are here too.

import { clusterValue, topicValue } from '../model/image';
import type { MetaImage, MetaRecord, PartitionState } from '../model/metadata';
import { isActiveBroker, tpKey } from '../model/metadata';
import type { ChangeRequest, ChangeRules, ElectionKind } from './partitionChange';
import { buildPartitionChange } from './partitionChange';
import { PlacementError, placeReplicas } from './placement';
import {
  checkTargetReplicas,
  isReassigning,
  reassignmentReplicas,
  revertReassignment,
} from './reassignmentReplicas';
import { intSource } from '../kernel/rng';
import { randomUuid } from '../kernel/uuid';
import type { SimNode, World } from '../model/world';
import type { ConfigValue, NodeId } from '../model/types';
import { later, write } from './controllerLog';

export function elrEnabled(w: World, img: MetaImage): boolean {
  return Number(clusterValue(w, img, 'eligible.leader.replicas.version')) >= 1;
}

/** The election rules of a topic's partitions, as the committed metadata sets them. */
export function rulesFor(w: World, img: MetaImage, topic: string): ChangeRules {
  return {
    minIsr: Number(topicValue(w, img, topic, 'min.insync.replicas')),
    elrEnabled: elrEnabled(w, img),
    uncleanEnabled: topicValue(w, img, topic, 'unclean.leader.election.enable') === true,
  };
}

/** Applies partition changes: one record each, and the events that explain them. */
export function changePartitions(
  w: World,
  node: SimNode,
  changes: { p: PartitionState; req: ChangeRequest; why: string }[],
  extra: MetaRecord[] = [],
): number {
  const img = node.controller!.work!;
  const records: MetaRecord[] = [...extra];
  const explained: { state: PartitionState; before: PartitionState; election?: ElectionKind; why: string }[] =
    [];
  for (const { p, req, why } of changes) {
    const res = buildPartitionChange(img, p, req, rulesFor(w, img, p.topic));
    if (!res) continue;
    records.push({ type: 'PartitionChangeRecord', ...res.state });
    const completes = isReassigning(p) && !isReassigning(res.state) && why !== REASSIGNMENT_CANCELLED;
    explained.push({
      state: res.state,
      before: p,
      election: res.election,
      why: completes ? `${why}; every target replica is in the ISR, so the reassignment completes` : why,
    });
  }
  if (records.length === 0) return -1;
  const last = write(w, node, records);
  for (const e of explained) describeChange(w, node, last, e.before, e.state, e.election, e.why);
  return last;
}

function describeChange(
  w: World,
  node: SimNode,
  offset: number,
  before: PartitionState,
  after: PartitionState,
  election: ElectionKind | undefined,
  why: string,
): void {
  const tp = `${after.topic}-${after.partition}`;
  const fields = { topic: after.topic, partition: after.partition };
  describeReassignment(w, node, offset, before, after, why);
  const removed = before.isr.filter((b) => !after.isr.includes(b));
  const added = after.isr.filter((b) => !before.isr.includes(b));
  if (removed.length)
    later(
      w,
      node,
      offset,
      'IsrShrunk',
      `${tp}: ISR shrinks from [${before.isr}] to [${after.isr}] (${why}).`,
      {
        ...fields,
        isr: after.isr,
        removed,
      },
    );
  if (added.length)
    later(
      w,
      node,
      offset,
      'IsrExpanded',
      `${tp}: ISR expands from [${before.isr}] to [${after.isr}] (${why}).`,
      {
        ...fields,
        isr: after.isr,
        added,
      },
    );
  if (after.elr.join() !== before.elr.join())
    later(
      w,
      node,
      offset,
      'ElrChanged',
      `${tp}: eligible leader replicas (ELR) are now [${after.elr}] (KIP-966).`,
      {
        ...fields,
        elr: after.elr,
      },
    );
  if (after.leader !== before.leader) {
    if (after.leader === -1)
      later(
        w,
        node,
        offset,
        'PartitionOffline',
        `${tp} has no leader: no replica in the ISR is alive (offline partition). ${
          after.elr.length
            ? `It waits for an ELR member [${after.elr}].`
            : `It waits for [${after.isr}] to return.`
        }`,
        { ...fields, leaderEpoch: after.leaderEpoch },
      );
    else {
      const how =
        election === 'unclean'
          ? 'an UNCLEAN election: the new leader was not in the ISR, records it lacks are lost'
          : election === 'elr'
            ? 'an election from the eligible leader replicas (ELR, KIP-966)'
            : election === 'last-known-elr'
              ? 'electing the last known ELR member: with the ISR and the ELR empty, the last leader is taken back, though records it lacks may be lost (KIP-966)'
              : election === 'preferred'
                ? 'a preferred leader election'
                : 'a clean election from the ISR';
      later(
        w,
        node,
        offset,
        'LeaderElected',
        `${tp}: broker ${after.leader} is the new leader at leader epoch ${after.leaderEpoch}, by ${how}.`,
        {
          ...fields,
          nodeId: after.leader,
          leader: after.leader,
          leaderEpoch: after.leaderEpoch,
          election: election ?? 'clean',
        },
      );
    }
  }
}

/** ReassignmentStarted / ReassignmentCompleted / ReassignmentCancelled, in plain words. */
function describeReassignment(
  w: World,
  node: SimNode,
  offset: number,
  before: PartitionState,
  after: PartitionState,
  why: string,
): void {
  const tp = `${after.topic}-${after.partition}`;
  const fields = { topic: after.topic, partition: after.partition, replicas: after.replicas };
  const wasMoving = isReassigning(before);
  const moving = isReassigning(after);
  const replicasChanged = before.replicas.join() !== after.replicas.join();
  if (moving && (!wasMoving || replicasChanged)) {
    const target = after.replicas.filter((r) => !after.removing.includes(r));
    later(
      w,
      node,
      offset,
      'ReassignmentStarted',
      `${tp}: reassignment to [${target}] started. Replicas are now [${after.replicas}] (adding [${after.adding}], removing [${after.removing}]); ` +
        `the new replicas copy the log from leader ${after.leader} as followers, and the old ones leave once every target replica is in the ISR.`,
      { ...fields, target, adding: after.adding, removing: after.removing },
    );
  } else if (!moving && (wasMoving || replicasChanged)) {
    const cancelled = why === REASSIGNMENT_CANCELLED;
    const removed = before.replicas.filter((r) => !after.replicas.includes(r));
    later(
      w,
      node,
      offset,
      cancelled ? 'ReassignmentCancelled' : 'ReassignmentCompleted',
      cancelled
        ? `${tp}: reassignment cancelled; the replicas are back to [${after.replicas}]${removed.length ? ` and [${removed}] drop their partial copies` : ''}.`
        : `${tp}: reassignment completed: replicas [${after.replicas}], ISR [${after.isr}], leader ${after.leader}${
            removed.length ? `; [${removed}] left the partition and delete their copy` : ''
          }.`,
      { ...fields, removed },
    );
  }
}

const REASSIGNMENT_CANCELLED = 'the reassignment was cancelled';

export function partitionsWith(
  img: MetaImage,
  broker: NodeId,
  where: 'isr' | 'elr' | 'leader' | 'replicas',
): PartitionState[] {
  const out: PartitionState[] = [];
  for (const p of img.partitions.values()) {
    if (where === 'leader' ? p.leader === broker : p[where].includes(broker)) out.push(p);
  }
  return out;
}

export function preferredElections(w: World, node: SimNode, parts: PartitionState[], why: string): number {
  const img = node.controller!.work!;
  const candidates = parts
    .filter(
      (p) =>
        p.leader !== p.replicas[0] && p.isr.includes(p.replicas[0]!) && isActiveBroker(img, p.replicas[0]!),
    )
    .slice(0, 1000); // at most 1000 elections per run
  return changePartitions(
    w,
    node,
    candidates.map((p) => ({ p, req: { election: 'preferred' as const }, why })),
  );
}

export interface TopicSpec {
  name: string;
  partitions: number;
  replicationFactor: number;
  config?: Record<string, ConfigValue>;
  assignment?: NodeId[][];
}

/**
 * The replica placer over the brokers that may take new replicas (all but those in controlled
 * shutdown, fenced ones marked), as CreateTopics and CreatePartitions use it: the replica lists, or
 * Kafka's error.
 */
function placeNewPartitions(
  w: World,
  img: MetaImage,
  partitions: number,
  replicationFactor: number,
): NodeId[][] | string {
  const usable = [...img.brokers.values()]
    .filter((b) => !b.inControlledShutdown)
    .sort((a, b) => a.brokerId - b.brokerId)
    .map((b) => ({ id: b.brokerId, rack: b.rack, fenced: b.fenced }));
  try {
    return placeReplicas(usable, partitions, replicationFactor, intSource(w.rng));
  } catch (e) {
    if (e instanceof PlacementError) return `INVALID_REPLICATION_FACTOR: ${e.message}`;
    throw e;
  }
}

/** A new partition's PartitionRecord: its active replicas in the ISR (all of them when none is), the first one leading. */
function newPartitionRecord(
  img: MetaImage,
  topic: string,
  partition: number,
  replicas: NodeId[],
): MetaRecord {
  const isr = replicas.filter((r) => isActiveBroker(img, r));
  return {
    type: 'PartitionRecord',
    topic,
    partition,
    replicas: [...replicas],
    isr: isr.length ? isr : [...replicas],
    elr: [],
    leader: isr[0] ?? -1,
    leaderEpoch: 0,
    partitionEpoch: 0,
    adding: [],
    removing: [],
  };
}

/** CreateTopics on the active controller; returns an error in Kafka's words, or null. */
export function createTopic(w: World, node: SimNode, spec: TopicSpec): string | null {
  const img = node.controller!.work!;
  if (img.topics.has(spec.name)) return `TOPIC_ALREADY_EXISTS: Topic '${spec.name}' already exists.`;
  // ReplicationControlManager.validateNewTopicNames: '.' and '_' collide in metric names
  // (Topic.unifyCollisionChars), so a name equal to an existing one but for those is refused.
  const unified = spec.name.replace(/\./g, '_');
  for (const existing of img.topics.keys())
    if (existing.replace(/\./g, '_') === unified)
      return `INVALID_TOPIC_EXCEPTION: Topic '${spec.name}' collides with existing topic: ${existing}`;
  let assignment = spec.assignment;
  if (assignment) {
    for (const [i, replicas] of assignment.entries())
      for (const r of replicas)
        if (!img.brokers.has(r))
          return `INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes broker ${r}, but no such broker is registered (partition ${i}).`;
  } else {
    const placed = placeNewPartitions(w, img, spec.partitions, spec.replicationFactor);
    if (typeof placed === 'string') return placed;
    assignment = placed;
  }
  // ReplicationControlManager.createTopic: the id is drawn once every check has passed.
  const records: MetaRecord[] = [{ type: 'TopicRecord', name: spec.name, topicId: randomUuid(w.idRng) }];
  for (const [name, value] of Object.entries(spec.config ?? {}))
    records.push({ type: 'ConfigRecord', resourceType: 'topic', resourceName: spec.name, name, value });
  assignment.forEach((replicas, partition) =>
    records.push(newPartitionRecord(img, spec.name, partition, replicas)),
  );
  const off = write(w, node, records);
  later(
    w,
    node,
    off,
    'TopicCreated',
    `Topic ${spec.name} created: ${spec.partitions} partition(s), replication factor ${spec.replicationFactor}, placed as ${assignment.map((r) => `[${r}]`).join(' ')}.`,
    { topic: spec.name, assignment },
  );
  return null;
}

/**
 * AlterPartitionReassignments (ReplicationControlManager.changePartitionReassignment /
 * cancelPartitionReassignment): a target replica list per partition, or null to cancel. Every entry
 * is checked before anything is written; returns Kafka's error, or null.
 */
export function alterPartitionReassignments(
  w: World,
  node: SimNode,
  targets: { topic: string; partition: number; replicas: NodeId[] | null }[],
): string | null {
  const img = node.controller!.work!;
  const changes: { p: PartitionState; req: ChangeRequest; why: string }[] = [];
  for (const t of targets) {
    const p = img.partitions.get(tpKey(t.topic, t.partition));
    if (!p) return `UNKNOWN_TOPIC_OR_PARTITION: Unable to find partition ${t.topic}:${t.partition}.`;
    if (t.replicas === null) {
      if (!isReassigning(p))
        return `NO_REASSIGNMENT_IN_PROGRESS: No partition reassignment is in progress for ${t.topic}:${t.partition}.`;
      const revert = revertReassignment(p);
      if (!revert)
        return `INVALID_REPLICA_ASSIGNMENT: Unable to revert partition assignment for ${t.topic}:${t.partition} because it would require an unclean leader election.`;
      changes.push({
        p,
        req: { reassign: { replicas: revert.replicas, adding: [], removing: [] }, isr: revert.isr },
        why: REASSIGNMENT_CANCELLED,
      });
      continue;
    }
    const err = checkTargetReplicas(t.replicas, (id) => img.brokers.has(id));
    if (err) return err;
    changes.push({
      p,
      req: { reassign: reassignmentReplicas(p.replicas, t.replicas) },
      why: 'a partition reassignment',
    });
  }
  changePartitions(w, node, changes);
  return null;
}

export function electLeaders(
  w: World,
  node: SimNode,
  electionType: 'preferred' | 'unclean',
  partitions: PartitionState[],
): number {
  if (electionType === 'preferred')
    return preferredElections(w, node, partitions, 'kafka-leader-election --election-type preferred');
  return changePartitions(
    w,
    node,
    partitions
      .filter((p) => p.leader === -1)
      .map((p) => ({
        p,
        req: { election: 'unclean' as const },
        why: 'kafka-leader-election --election-type unclean',
      })),
  );
}

/**
 * CreatePartitions (ReplicationControlManager.createPartitions): grows a topic to `count`
 * partitions, the new ones placed by the replica placer at the topic's replication factor. A
 * producer that learns the new count sends a key to murmur2(key) % count, so keys move and
 * per-key order across the change is lost. Returns Kafka's error, or null.
 */
export function createPartitions(w: World, node: SimNode, topic: string, count: number): string | null {
  const img = node.controller!.work!;
  const t = img.topics.get(topic);
  if (!t) return 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.';
  if (count === t.partitions) return `INVALID_PARTITIONS: Topic already has ${t.partitions} partition(s).`;
  if (count < t.partitions)
    return `INVALID_PARTITIONS: The topic ${topic} currently has ${t.partitions} partition(s); ${count} would not be an increase.`;
  const first = img.partitions.get(tpKey(topic, 0));
  const replicationFactor = first ? first.replicas.length : 1;
  const assignment = placeNewPartitions(w, img, count - t.partitions, replicationFactor);
  if (typeof assignment === 'string') return assignment;
  const start = t.partitions;
  const records: MetaRecord[] = [];
  for (const [i, replicas] of assignment.entries()) {
    const isr = replicas.filter((r) => isActiveBroker(img, r));
    if (isr.length === 0)
      return `INVALID_REPLICATION_FACTOR: Unable to replicate the partition ${replicationFactor} time(s): All brokers are currently fenced or in controlled shutdown.`;
    records.push(newPartitionRecord(img, topic, start + i, replicas));
  }
  const off = write(w, node, records);
  later(
    w,
    node,
    off,
    'PartitionsCreated',
    `Topic ${topic} grows from ${start} to ${count} partitions, the new ones placed as ${assignment.map((r) => `[${r}]`).join(' ')}: producers that refresh their metadata spread keys over ${count} partitions (murmur2(key) % ${count}), so a key may move and its order across the change is lost.`,
    { topic, from: start, to: count, assignment },
  );
  return null;
}

/**
 * DeleteTopics (ReplicationControlManager.deleteTopic): one RemoveTopicRecord; each broker drops
 * its replicas of the topic and their logs when it applies it. Returns Kafka's error, or null.
 */
export function deleteTopic(w: World, node: SimNode, topic: string): string | null {
  const img = node.controller!.work!;
  const t = img.topics.get(topic);
  if (!t) return 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.';
  const off = write(w, node, [{ type: 'RemoveTopicRecord', name: topic }]);
  later(
    w,
    node,
    off,
    'TopicDeleted',
    `Topic ${topic} is deleted: its ${t.partitions} partition(s) and their logs go.`,
    {
      topic,
    },
  );
  return null;
}
