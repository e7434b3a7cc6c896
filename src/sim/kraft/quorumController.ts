// The active controller (QuorumController): broker registration and heartbeats, fencing,
// ISR changes by AlterPartition, leader elections, topics and configs. It writes records to the
// metadata log; they take effect for everyone else once committed by the quorum.

import { emit, nextReqId, reply, send, setNodeTimer } from '../kernel/kernel';
import { clusterValue, topicValue } from '../model/image';
import { logEndOffset } from '../model/log';
import type { Body, MessageOf } from '../model/messages';
import type { MetaRecord } from '../model/metadata';
import { bootstrapFeatures } from '../model/features';
import { cloneImage, isActiveBroker, tpKey } from '../model/metadata';
import type { ControllerMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { armFenceCheck, beginControlledShutdown, fence, sessionTimeoutMs, unfence } from './clusterControl';
import { emitCommittedEvents, later, replyAfterCommit, write } from './controllerLog';
import { changePartitions, partitionsWith, preferredElections } from './replicationControl';

export function newControllerMem(): ControllerMem {
  return {
    active: false,
    activationOffset: -1,
    work: null,
    lastContactMs: new Map(),
    pendingReplies: [],
    fenceToken: 0,
    periodicToken: 0,
    noOpToken: 0,
    lastUncleanCheckMs: 0,
    lastRebalanceCheckMs: 0,
  };
}

/** The controller's memory is gone at a crash or a stop (newControllerMem makes it anew at boot). */
export function crashController(node: SimNode): void {
  node.controller = null;
}

export function onBecomeRaftLeader(_w: World, node: SimNode, leaderChangeOffset: number): void {
  const c = node.controller!;
  c.active = false;
  c.activationOffset = leaderChangeOffset;
  c.work = null;
  c.pendingReplies = [];
}

export function onLoseRaftLeadership(w: World, node: SimNode): void {
  const c = node.controller!;
  if (c.active)
    emit(w, 'ControllerDeactivated', `Controller ${node.id} is no longer the active controller.`, {
      nodeId: node.id,
    });
  c.active = false;
  c.work = null;
  c.pendingReplies = [];
}

/** Called after newly committed records were applied to the node's committed image. */
export function onControllerCommit(w: World, node: SimNode): void {
  const c = node.controller!;
  const r = node.raft!;
  if (r.role === 'leader') {
    if (!c.active && r.highWatermark > c.activationOffset) activate(w, node);
    if (c.active) {
      const hw = r.highWatermark;
      const due = c.pendingReplies.filter((p) => p.offset < hw);
      c.pendingReplies = c.pendingReplies.filter((p) => p.offset >= hw);
      for (const p of due) reply(w, p.req, p.body);
    }
  }
  emitCommittedEvents(w, node);
}

/** ClusterControlManager.activate: every registered broker gets a fresh session, so none is fenced by the failover. */
function activate(w: World, node: SimNode): void {
  const c = node.controller!;
  c.active = true;
  c.work = cloneImage(node.raft!.image);
  c.lastContactMs = new Map([...c.work.brokers.keys()].map((b) => [b, w.nowMs]));
  c.lastUncleanCheckMs = w.nowMs;
  c.lastRebalanceCheckMs = w.nowMs;
  emit(
    w,
    'ControllerActivated',
    `Controller ${node.id} is the active controller for epoch ${node.disk.quorumEpoch}; every broker gets a fresh heartbeat session.`,
    { nodeId: node.id, epoch: node.disk.quorumEpoch },
  );
  armFenceCheck(w, node, sessionTimeoutMs(w, c.work));
  c.periodicToken = setNodeTimer(w, node, 1000, 'controllerPeriodic');
  if (!hasBootstrapRecords(node)) write(w, node, bootstrapRecords(w));
  c.noOpToken = setNodeTimer(w, node, METADATA_MAX_IDLE_INTERVAL_MS, 'noOpRecord');
}

/**
 * metadata.max.idle.interval.ms (KIP-835, default 500): the active controller appends a NoOpRecord
 * this often, so the metadata log's end, and with it the brokers' metadata offsets and the broker
 * epochs of later registrations, move on with time as in a real cluster (QuorumController
 * maybeScheduleNextWriteNoOpRecord). Kafka's default; not a scenario config here.
 */
export const METADATA_MAX_IDLE_INTERVAL_MS = 500;

/** Whether the log already holds the bootstrap records (a failover, or a restart of the whole quorum). */
function hasBootstrapRecords(node: SimNode): boolean {
  return node.raft!.image.features.has('metadata.version');
}

/**
 * The records a controller writes when it activates on an empty log
 * (ActivationRecordsGenerator.recordsForEmptyLog): the bootstrap metadata of `kafka-storage format`,
 * its finalized feature levels, in a metadata transaction (KIP-868). Not modeled: SCRAM credentials
 * and the ZK migration state record.
 */
function bootstrapRecords(w: World): MetaRecord[] {
  return [
    { type: 'BeginTransactionRecord', name: 'Bootstrap records' },
    ...bootstrapFeatures(w).map(([name, featureLevel]): MetaRecord => ({
      type: 'FeatureLevelRecord',
      name,
      featureLevel,
    })),
    { type: 'EndTransactionRecord' },
  ];
}

export function activeController(w: World): SimNode | undefined {
  for (const id of w.voterIds) {
    const n = w.nodes.get(id);
    if (n && n.state === 'running' && n.controller?.active) return n;
  }
  return undefined;
}

// Controller RPCs reach only the active controller; the others answer NOT_CONTROLLER (ControllerApis),
// and the broker asks the next controller.

/** ClusterControlManager.registerBroker: a broker (re)registers; its epoch is the record's offset. */
export function onBrokerRegistration(w: World, node: SimNode, msg: MessageOf<'BrokerRegistration'>): void {
  const c = node.controller!;
  if (!c.active) {
    reply(w, msg, { kind: 'BrokerRegistrationResponse', error: 'NOT_CONTROLLER', brokerEpoch: -1 });
    return;
  }
  const img = c.work!;
  const b = msg.body;
  const prev = img.brokers.get(b.brokerId);
  const brokerEpoch = logEndOffset(node.disk.metaLog);
  const records: MetaRecord[] = [
    { type: 'RegisterBrokerRecord', brokerId: b.brokerId, brokerEpoch, rack: b.rack },
  ];
  c.lastContactMs.set(b.brokerId, w.nowMs);
  // KAFKA-18106: a registration without the matching previous epoch follows an unclean shutdown.
  const uncleanShutdown = !!prev && b.previousBrokerEpoch !== prev.brokerEpoch;
  let last = write(w, node, records);
  later(
    w,
    node,
    last,
    'BrokerRegistered',
    `Broker ${b.brokerId} registered with broker epoch ${brokerEpoch}; it stays fenced until it catches up with the metadata log.`,
    {
      nodeId: b.brokerId,
      brokerEpoch,
    },
  );
  if (uncleanShutdown) {
    const affected = [...img.partitions.values()].filter(
      (p) => p.isr.includes(b.brokerId) || p.elr.includes(b.brokerId),
    );
    const l = changePartitions(
      w,
      node,
      affected.map((p) => ({
        p,
        req: { isr: p.isr.filter((x) => x !== b.brokerId), uncleanShutdown: [b.brokerId] },
        why: `broker ${b.brokerId} restarted after an unclean shutdown`,
      })),
    );
    if (l >= 0) last = l;
  }
  replyAfterCommit(w, node, last, msg, { kind: 'BrokerRegistrationResponse', brokerEpoch });
}

/** ClusterControlManager.processBrokerHeartbeat: liveness, unfencing once caught up, controlled shutdown. */
export function onBrokerHeartbeat(w: World, node: SimNode, msg: MessageOf<'BrokerHeartbeat'>): void {
  const c = node.controller!;
  if (!c.active) {
    reply(w, msg, {
      kind: 'BrokerHeartbeatResponse',
      error: 'NOT_CONTROLLER',
      isCaughtUp: false,
      isFenced: true,
      shouldShutDown: false,
    });
    return;
  }
  const img = c.work!;
  const b = msg.body;
  const reg = img.brokers.get(b.brokerId);
  if (!reg || reg.brokerEpoch !== b.brokerEpoch) {
    reply(w, msg, {
      kind: 'BrokerHeartbeatResponse',
      error: 'STALE_BROKER_EPOCH',
      isCaughtUp: false,
      isFenced: true,
      shouldShutDown: false,
    });
    return;
  }
  c.lastContactMs.set(b.brokerId, w.nowMs);
  const caughtUp = b.currentMetadataOffset >= reg.brokerEpoch;
  if (reg.fenced && !b.wantFence && !b.wantShutDown && caughtUp) unfence(w, node, b.brokerId);
  if (b.wantShutDown && !reg.inControlledShutdown && !reg.fenced)
    beginControlledShutdown(w, node, b.brokerId);
  let shouldShutDown = false;
  // (The walk over every partition only for a broker shutting down: every broker heartbeats.)
  if (
    b.wantShutDown &&
    (reg.inControlledShutdown || reg.fenced) &&
    partitionsWith(img, b.brokerId, 'leader').length === 0
  ) {
    shouldShutDown = true;
    if (!reg.fenced) {
      const off = write(w, node, [
        {
          type: 'BrokerRegistrationChangeRecord',
          brokerId: b.brokerId,
          brokerEpoch: reg.brokerEpoch,
          fenced: true,
          inControlledShutdown: false,
        },
      ]);
      later(
        w,
        node,
        off,
        'BrokerFenced',
        `Broker ${b.brokerId} finished its controlled shutdown and is fenced (BrokerFenced).`,
        { nodeId: b.brokerId },
      );
    }
  }
  reply(w, msg, {
    kind: 'BrokerHeartbeatResponse',
    isCaughtUp: caughtUp,
    isFenced: img.brokers.get(b.brokerId)!.fenced,
    shouldShutDown,
  });
}

/** ReplicationControlManager.alterPartition: a leader's ISR change, checked against the partition's epochs. */
export function onAlterPartition(w: World, node: SimNode, msg: MessageOf<'AlterPartition'>): void {
  const c = node.controller!;
  if (!c.active) {
    reply(w, msg, {
      kind: 'AlterPartitionResponse',
      topic: msg.body.topic,
      partition: msg.body.partition,
      error: 'NOT_CONTROLLER',
    });
    return;
  }
  const img = c.work!;
  const b = msg.body;
  const fail = (error: string) =>
    reply(w, msg, { kind: 'AlterPartitionResponse', topic: b.topic, partition: b.partition, error });
  const reg = img.brokers.get(b.brokerId);
  if (!reg || reg.brokerEpoch !== b.brokerEpoch) return fail('STALE_BROKER_EPOCH');
  const p = img.partitions.get(tpKey(b.topic, b.partition));
  if (!p) return fail('UNKNOWN_TOPIC_OR_PARTITION');
  if (p.leader !== b.brokerId || p.leaderEpoch !== b.leaderEpoch) return fail('FENCED_LEADER_EPOCH');
  if (p.partitionEpoch !== b.partitionEpoch) return fail('INVALID_UPDATE_VERSION');
  // KIP-841: only an unfenced broker that is not shutting down may join the ISR.
  const joining = b.newIsr.filter((x) => !p.isr.includes(x));
  if (joining.some((x) => !isActiveBroker(img, x))) return fail('INELIGIBLE_REPLICA');
  const why = joining.length ? 'a follower caught up' : `followers lagged more than replica.lag.time.max.ms`;
  const off = changePartitions(w, node, [{ p, req: { isr: b.newIsr }, why }]);
  const state = img.partitions.get(tpKey(b.topic, b.partition))!;
  const body: Body = {
    kind: 'AlterPartitionResponse',
    topic: b.topic,
    partition: b.partition,
    state: { ...state },
  };
  if (off < 0) reply(w, msg, body);
  else replyAfterCommit(w, node, off, msg, body);
}

export function onControllerTimer(w: World, node: SimNode, name: string, token: number): void {
  const c = node.controller;
  if (!c || !c.active) return;
  const img = c.work!;
  if (name === 'fenceCheck') {
    if (token !== c.fenceToken) return;
    const timeout = sessionTimeoutMs(w, img);
    // maybeFenceOneStaleBroker: one broker per event, the next check right after.
    let next = timeout;
    for (const reg of [...img.brokers.values()].sort((a, b) => a.brokerId - b.brokerId)) {
      if (reg.fenced) continue;
      const last = c.lastContactMs.get(reg.brokerId) ?? w.nowMs;
      if (w.nowMs - last > timeout) {
        fence(
          w,
          node,
          reg.brokerId,
          `missed heartbeats for ${((w.nowMs - last) / 1000).toFixed(1)} s (broker.session.timeout.ms = ${timeout})`,
        );
        next = 0;
        break;
      }
      next = Math.min(next, last + timeout + 1 - w.nowMs);
    }
    armFenceCheck(w, node, Math.max(next, 0));
    return;
  }
  if (name === 'noOpRecord') {
    if (token !== c.noOpToken) return;
    write(w, node, [{ type: 'NoOpRecord' }]);
    c.noOpToken = setNodeTimer(w, node, METADATA_MAX_IDLE_INTERVAL_MS, 'noOpRecord');
    return;
  }
  if (name === 'controllerPeriodic') {
    if (token !== c.periodicToken) return;
    c.periodicToken = setNodeTimer(w, node, 1000, 'controllerPeriodic');
    const uncleanInterval = Number(clusterValue(w, img, 'unclean.leader.election.interval.ms'));
    if (w.nowMs - c.lastUncleanCheckMs >= uncleanInterval) {
      c.lastUncleanCheckMs = w.nowMs;
      const offline = [...img.partitions.values()].filter(
        (p) => p.leader === -1 && topicValue(w, img, p.topic, 'unclean.leader.election.enable') === true,
      );
      changePartitions(
        w,
        node,
        offline.map((p) => ({ p, req: { election: 'unclean' }, why: 'the periodic unclean election check' })),
      );
    }
    const rebalanceMs = Number(clusterValue(w, img, 'leader.imbalance.check.interval.seconds')) * 1000;
    if (
      clusterValue(w, img, 'auto.leader.rebalance.enable') === true &&
      w.nowMs - c.lastRebalanceCheckMs >= rebalanceMs
    ) {
      c.lastRebalanceCheckMs = w.nowMs;
      preferredElections(w, node, [...img.partitions.values()], 'auto.leader.rebalance.enable');
    }
  }
}

export function requestToController(w: World, from: SimNode, to: NodeId, body: Body): number {
  const id = nextReqId(w);
  send(w, from.id, to, body, id);
  return id;
}
