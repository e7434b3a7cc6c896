// GroupMetadataManager's storage: a group's committed offsets and its metadata as records in its
// __consumer_offsets partition, appended through the partition's leader, and loaded from the
// local replica of the log when this broker becomes the coordinator (after a failover too).

import { trailCommit } from '../model/trail';
import type { GroupStore } from './consumerGroup';
import { armNodeDeadline, emit, nextReqId, reply, send } from '../kernel/kernel';
import { entryAt, logEndOffset } from '../model/log';
import type { CommittedOffset, GroupRequest, TopicPartition, MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import { coordinatorMem } from '../model/coordinatorMem';
import type { CoordinatorMem, GroupMem, GroupMember, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import {
  OFFSETS_COMMIT_TIMEOUT_MS,
  OFFSETS_TOPIC,
  groupTp,
  offsetsPartitionCount,
  offsetsPartitionFor,
} from './offsetsTopic';

/** The group, if this broker leads its __consumer_offsets partition; loaded from the log when it just became leader. */
export function groupAt(w: World, node: SimNode, groupId: string): GroupMem | null {
  const tp = groupTp(w, node, groupId);
  const mem = node.broker?.replicas.get(tp);
  const cm = coordinatorMem(w, node);
  if (!mem || mem.role !== 'leader') {
    cm.groups.delete(groupId); // unloaded: another broker coordinates it now
    return null;
  }
  const g = cm.groups.get(groupId);
  if (g && g.loadedEpoch === mem.leaderEpoch) return g;
  return loadGroup(w, node, cm, groupId, tp, mem.leaderEpoch, !!g);
}

export const offsetKey = (groupId: string, topic: string, partition: number) =>
  JSON.stringify(['offset', groupId, topic, partition]);

const groupKey = (groupId: string) => JSON.stringify(['group', groupId]);

interface GroupRecord {
  generation: number;
  protocol: string;
  leaderId: string | null;
  members: ({
    memberId: string;
    clientId: string;
    sessionTimeoutMs: number;
    rebalanceTimeoutMs: number;
    protocols: string[];
    topics: string[];
    assignment: TopicPartition[];
  } & KipMemberRecord)[];
  /** KIP-848 groups only (Kafka writes ConsumerGroupMetadata, TargetAssignment, CurrentMemberAssignment records). */
  type?: 'consumer';
  groupEpoch?: number;
  assignmentEpoch?: number;
  subscriptionMetadata?: string;
}

type KipMemberRecord = Pick<
  GroupMember,
  'memberEpoch' | 'previousMemberEpoch' | 'memberState' | 'pendingRevocation' | 'target' | 'serverAssignor'
>;

/** GroupMetadataManager.loadGroupsAndOffsets: replays the group's records from this replica's log. */
function loadGroup(
  w: World,
  node: SimNode,
  cm: CoordinatorMem,
  groupId: string,
  tp: string,
  epoch: number,
  reloaded: boolean,
): GroupMem {
  const g: GroupMem = {
    groupId,
    loadedEpoch: epoch,
    state: 'Empty',
    generation: 0,
    protocol: '',
    leaderId: null,
    members: new Map(),
    offsets: new Map(),
    joinDeadlineMs: 0,
    initialDelay: false,
    timer: { dueMs: -1, token: 0 },
    nextMemberSeq: 0,
  };
  const log = node.disk.partitions.get(tp)?.log;
  const gk = groupKey(groupId);
  const prefix = JSON.stringify(['offset', groupId]).slice(0, -1) + ',';
  let meta: GroupRecord | null = null;
  if (log) {
    for (let off = log.logStartOffset; off < logEndOffset(log); off++) {
      const r = entryAt(log, off)!;
      if (r.control) {
        // A transaction's marker: its offsets take effect here, or are dropped (an ABORT).
        if (g.txnOffsets?.has(r.pid)) completePending(w, g, r.pid, r.control === 'COMMIT', null);
        continue;
      }
      if (r.key === gk) meta = JSON.parse(r.value) as GroupRecord;
      else if (r.key !== null && r.key.startsWith(prefix)) {
        const [, , topic, partition] = JSON.parse(r.key) as [string, string, string, number];
        const v = JSON.parse(r.value) as { offset: number; leaderEpoch: number };
        if (r.transactional) {
          // A TxnOffsetCommit: pending until its producer's marker (loadGroupsAndOffsets' pendingOffsets).
          const txn = (g.txnOffsets ??= new Map());
          let held = txn.get(r.pid);
          if (!held) txn.set(r.pid, (held = new Map()));
          held.set(tpKey(topic, partition), { topic, partition, ...v });
        } else g.offsets.set(tpKey(topic, partition), { topic, partition, ...v });
      }
    }
  }
  if (meta) {
    g.generation = meta.generation;
    g.protocol = meta.protocol;
    g.leaderId = meta.leaderId;
    if (meta.type === 'consumer') {
      g.type = 'consumer';
      g.groupEpoch = meta.groupEpoch;
      g.assignmentEpoch = meta.assignmentEpoch;
      g.subscriptionMetadata = meta.subscriptionMetadata;
    }
    for (const m of meta.members)
      g.members.set(m.memberId, {
        ...(meta.type === 'consumer' ? kipMemberFields(m) : {}),
        memberId: m.memberId,
        clientId: m.clientId,
        protocols: m.protocols,
        subscription: { topics: m.topics, ownedPartitions: [] },
        assignment: m.assignment,
        sessionTimeoutMs: m.sessionTimeoutMs,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        // Loaded members get a fresh session (GroupCoordinator.onElection schedules their expiry).
        expiresAtMs: w.nowMs + m.sessionTimeoutMs,
        pendingJoin: null,
        pendingSync: null,
      });
    g.state = g.members.size ? 'Stable' : 'Empty';
    if (g.type === 'consumer' && g.members.size) {
      const reconciling = [...g.members.values()].some(
        (m) => m.memberState !== 'stable' || m.memberEpoch !== g.assignmentEpoch,
      );
      g.state = g.groupEpoch! > g.assignmentEpoch! ? 'Assigning' : reconciling ? 'Reconciling' : 'Stable';
    }
  }
  cm.groups.set(groupId, g);
  if (reloaded || meta || g.offsets.size)
    emit(
      w,
      'GroupLoaded',
      `Broker ${node.id} now coordinates group ${groupId} (leader of ${tp} at epoch ${epoch}): it loaded ${g.offsets.size} committed offset(s) and ${g.members.size} member(s) from its log.`,
      { nodeId: node.id, groupId, offsets: g.offsets.size, members: g.members.size },
    );
  armGroupTimer(w, node, g);
  return g;
}

function kipMemberFields(m: KipMemberRecord): KipMemberRecord {
  return {
    memberEpoch: m.memberEpoch,
    previousMemberEpoch: m.previousMemberEpoch,
    memberState: m.memberState,
    pendingRevocation: m.pendingRevocation,
    target: m.target,
    serverAssignor: m.serverAssignor,
  };
}

/** Writes the group's membership and assignment (GroupMetadataManager.storeGroup); not awaited. */
export function storeGroup(w: World, node: SimNode, g: GroupMem): void {
  const kip = g.type === 'consumer';
  const rec: GroupRecord = {
    generation: g.generation,
    protocol: g.protocol,
    leaderId: g.leaderId,
    members: [...g.members.values()].map((m) => ({
      memberId: m.memberId,
      clientId: m.clientId,
      sessionTimeoutMs: m.sessionTimeoutMs,
      rebalanceTimeoutMs: m.rebalanceTimeoutMs,
      protocols: m.protocols,
      topics: m.subscription.topics,
      assignment: m.assignment,
      ...(kip ? kipMemberFields(m) : {}),
    })),
    ...(kip
      ? {
          type: 'consumer' as const,
          groupEpoch: g.groupEpoch,
          assignmentEpoch: g.assignmentEpoch,
          subscriptionMetadata: g.subscriptionMetadata,
        }
      : {}),
  };
  append(w, node, g, [{ key: groupKey(g.groupId), value: JSON.stringify(rec) }]);
}

/** Appends records to the group's __consumer_offsets partition through the produce path, acks=all. */
export function append(
  w: World,
  node: SimNode,
  g: GroupMem,
  records: { key: string; value: string }[],
  txn?: { producerId: number; producerEpoch: number; transactionalId: string },
): number {
  const p = offsetsPartitionFor(g.groupId, offsetsPartitionCount(w, node));
  const reqId = nextReqId(w);
  send(
    w,
    node.id,
    node.id,
    {
      kind: 'Produce',
      topic: OFFSETS_TOPIC,
      partition: p,
      acks: 'all',
      timeoutMs: OFFSETS_COMMIT_TIMEOUT_MS,
      records: records.map((r) =>
        txn
          ? {
              id: w.nextRecordId++,
              epoch: -1,
              key: r.key,
              value: r.value,
              producerId: txn.transactionalId,
              // A TxnOffsetCommit is a transactional batch of the producer (GroupMetadataManager.storeOffsets).
              pid: txn.producerId,
              seq: 0,
              producerEpoch: txn.producerEpoch,
              transactional: true as const,
              timestampMs: w.nowMs,
            }
          : {
              id: w.nextRecordId++,
              epoch: -1,
              key: r.key,
              value: r.value,
              producerId: `group-coordinator-${node.id}`,
              pid: -1,
              seq: -1,
              timestampMs: w.nowMs,
            },
      ),
      ...(txn ? { origin: 'coordinator' as const } : {}),
    },
    reqId,
  );
  return reqId;
}

/** The append of an OffsetCommit completed (or failed): the commit is answered now. */
export function onCoordinatorAppendResponse(
  w: World,
  node: SimNode,
  msg: MessageOf<'ProduceResponse'>,
): void {
  const b = msg.body;
  const cm = coordinatorMem(w, node);
  const pending = cm.appends.get(msg.reqId);
  if (!pending) return;
  cm.appends.delete(msg.reqId);
  // GroupMetadataManager.storeOffsets maps the append's error to a coordinator error.
  const error = !b.error
    ? undefined
    : b.error === 'NOT_LEADER_OR_FOLLOWER'
      ? 'NOT_COORDINATOR'
      : b.error === 'INVALID_PRODUCER_EPOCH'
        ? 'PRODUCER_FENCED'
        : 'COORDINATOR_NOT_AVAILABLE';
  const g = cm.groups.get(pending.groupId);
  if (pending.txnProducerId !== undefined) {
    if (!error && g) {
      const txn = (g.txnOffsets ??= new Map());
      let held = txn.get(pending.txnProducerId);
      if (!held) txn.set(pending.txnProducerId, (held = new Map()));
      for (const o of pending.offsets) held.set(tpKey(o.topic, o.partition), { ...o });
    }
    const body = pending.request!.body as Extract<GroupRequest, { kind: 'TxnOffsetCommit' }>;
    reply(w, pending.request!, {
      kind: 'TxnOffsetCommitResponse',
      groupId: body.groupId,
      error,
      offsets: body.offsets,
    });
    return;
  }
  if (!error && g)
    for (const o of pending.offsets) {
      const tp = tpKey(o.topic, o.partition);
      g.offsets.set(tp, { ...o });
      trailCommit(w.trail, tp, { groupId: g.groupId, offset: o.offset, atMs: w.nowMs, coordinator: node.id });
    }
  if (!pending.request) return;
  const body = pending.request.body as Extract<GroupRequest, { kind: 'OffsetCommit' }>;
  reply(w, pending.request, {
    kind: 'OffsetCommitResponse',
    groupId: body.groupId,
    error,
    offsets: pending.offsets as CommittedOffset[],
  });
}

/** A producer's pending transactional offsets become the group's committed offsets, or are dropped. */
function completePending(
  w: World,
  g: GroupMem,
  producerId: number,
  committed: boolean,
  coordinator: NodeId | null,
): number {
  const held = g.txnOffsets?.get(producerId);
  if (!held) return 0;
  g.txnOffsets!.delete(producerId);
  if (g.txnOffsets!.size === 0) delete g.txnOffsets;
  if (!committed) return 0;
  for (const [tp, o] of held) {
    g.offsets.set(tp, o);
    if (coordinator !== null)
      trailCommit(w.trail, tp, { groupId: g.groupId, offset: o.offset, atMs: w.nowMs, coordinator });
  }
  return held.size;
}

/**
 * A transaction's marker was written to a __consumer_offsets partition this broker leads
 * (KafkaApis.handleWriteTxnMarkersRequest → GroupCoordinator.onTransactionCompleted →
 * GroupMetadataManager.handleTxnCompletion): the producer's pending offsets in every group of that
 * partition are committed (COMMIT) or dropped (ABORT).
 */
export function onOffsetsTxnMarker(
  w: World,
  node: SimNode,
  partition: number,
  producerId: number,
  committed: boolean,
): void {
  const cm = w.coordinators.get(node.id);
  if (!cm) return;
  for (const g of cm.groups.values()) {
    if (!g.txnOffsets?.has(producerId)) continue;
    if (offsetsPartitionFor(g.groupId, offsetsPartitionCount(w, node)) !== partition) continue;
    const n = completePending(w, g, producerId, committed, node.id);
    emit(
      w,
      committed ? 'TxnOffsetsCommitted' : 'TxnOffsetsAborted',
      committed
        ? `The COMMIT marker of producer id ${producerId} reached ${OFFSETS_TOPIC}-${partition}: group ${g.groupId}'s ${n} offset(s) from the transaction are now committed (GroupMetadataManager.handleTxnCompletion).`
        : `The ABORT marker of producer id ${producerId} reached ${OFFSETS_TOPIC}-${partition}: group ${g.groupId} drops the offsets the transaction held; its committed offsets stay where they were.`,
      { nodeId: node.id, groupId: g.groupId, producerId, committed },
    );
  }
}

export const GROUP_STORE: GroupStore = { store: storeGroup, armTimer: armGroupTimer };

export function armGroupTimer(w: World, node: SimNode, g: GroupMem): void {
  let due = Infinity;
  for (const m of g.members.values())
    if (!(g.state === 'PreparingRebalance' && m.pendingJoin)) due = Math.min(due, m.expiresAtMs);
  if (g.state === 'PreparingRebalance') due = Math.min(due, g.joinDeadlineMs);
  if (due < Infinity) armNodeDeadline(w, node, g.timer, Math.max(due, w.nowMs), 'groupTimer', g.groupId);
}

/** The group as its coordinator sees it now, or null when no running broker has it loaded. */
export function loadedGroup(w: World, coordinator: NodeId, groupId: string): GroupMem | null {
  const node = w.nodes.get(coordinator);
  const cm = w.coordinators.get(coordinator);
  if (!node || node.state !== 'running' || !cm) return null;
  return cm.groups.get(groupId) ?? null;
}
