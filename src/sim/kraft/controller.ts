// The active controller (QuorumController): broker registration and heartbeats, fencing,
// ISR changes by AlterPartition, leader elections, topics and configs. It writes records to the
// metadata log; they take effect for everyone else once committed by the quorum.

import { emit, nextReqId, reply, send, setNodeTimer } from '../kernel/kernel';
import { clusterValue, topicValue } from '../model/image';
import { logEndOffset } from '../model/log';
import type { Body, Message } from '../model/messages';
import type { MetaImage, MetaRecord, PartitionState } from '../model/metadata';
import { applyRecord, cloneImage, isActiveBroker, tpKey } from '../model/metadata';
import type { ChangeRequest, ChangeRules, ElectionKind } from './partitionChange';
import { buildPartitionChange } from './partitionChange';
import { PlacementError, placeReplicas } from './placement';
import {
  checkTargetReplicas,
  isReassigning,
  reassignmentReplicas,
  revertReassignment,
} from './reassignmentReplicas';
import { appendAsLeader } from './quorum';
import { intSource } from '../kernel/rng';
import type { ControllerMem, SimNode, World } from '../model/world';
import type { ConfigValue, NodeId } from '../model/types';

export function newControllerMem(): ControllerMem {
  return {
    active: false,
    activationOffset: -1,
    work: null,
    lastContactMs: new Map(),
    pendingReplies: [],
    pendingEvents: [],
    fenceToken: 0,
    periodicToken: 0,
    lastUncleanCheckMs: 0,
    lastRebalanceCheckMs: 0,
  };
}

// ---- lifecycle ----------------------------------------------------------------

export function onBecomeRaftLeader(_w: World, node: SimNode, leaderChangeOffset: number): void {
  const c = node.controller!;
  c.active = false;
  c.activationOffset = leaderChangeOffset;
  c.work = null;
  c.pendingReplies = [];
  c.pendingEvents = [];
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
  c.pendingEvents = [];
}

/** Called after newly committed records were applied to the node's committed image. */
export function onControllerCommit(w: World, node: SimNode): void {
  const c = node.controller!;
  const r = node.raft!;
  if (r.role !== 'leader') return;
  if (!c.active && r.highWatermark > c.activationOffset) activate(w, node);
  if (!c.active) return;
  const hw = r.highWatermark;
  const due = c.pendingReplies.filter((p) => p.offset < hw);
  c.pendingReplies = c.pendingReplies.filter((p) => p.offset >= hw);
  for (const p of due) reply(w, p.req, p.body);
  const ready = c.pendingEvents.filter((e) => e.offset < hw);
  c.pendingEvents = c.pendingEvents.filter((e) => e.offset >= hw);
  for (const e of ready) emit(w, e.type, e.message, e.fields);
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
}

export function activeController(w: World): SimNode | undefined {
  for (const id of w.voterIds) {
    const n = w.nodes.get(id);
    if (n && n.state === 'running' && n.controller?.active) return n;
  }
  return undefined;
}

// ---- configuration ------------------------------------------------------------

function sessionTimeoutMs(w: World, img: MetaImage): number {
  return Number(clusterValue(w, img, 'broker.session.timeout.ms'));
}

function elrEnabled(w: World, img: MetaImage): boolean {
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

// ---- writing records ------------------------------------------------------------

function write(w: World, node: SimNode, records: MetaRecord[]): number {
  const c = node.controller!;
  let offset = logEndOffset(node.disk.metaLog);
  for (const rec of records) applyRecord(c.work!, offset++, rec);
  return appendAsLeader(w, node, records);
}

/** An event explained now, logged once the record at `offset` commits (at once if it already has). */
function later(
  w: World,
  node: SimNode,
  offset: number,
  type: string,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  if (offset < node.raft!.highWatermark) emit(w, type, message, fields);
  else node.controller!.pendingEvents.push({ offset, type, message, fields });
}

/** Kafka answers a controller request once its records are committed. */
function replyAfterCommit(w: World, node: SimNode, offset: number, req: Message, body: Body): void {
  if (offset < node.raft!.highWatermark) reply(w, req, body);
  else node.controller!.pendingReplies.push({ offset, req, body });
}

/** Applies partition changes: one record each, and the events that explain them. */
function changePartitions(
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

function partitionsWith(
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

// ---- requests from brokers ------------------------------------------------------------

export function onControllerMessage(w: World, node: SimNode, msg: Message): void {
  const c = node.controller!;
  const b = msg.body;
  if (!c.active) {
    if (b.kind === 'BrokerRegistration')
      reply(w, msg, { kind: 'BrokerRegistrationResponse', error: 'NOT_CONTROLLER', brokerEpoch: -1 });
    else if (b.kind === 'BrokerHeartbeat')
      reply(w, msg, {
        kind: 'BrokerHeartbeatResponse',
        error: 'NOT_CONTROLLER',
        isCaughtUp: false,
        isFenced: true,
        shouldShutDown: false,
      });
    else if (b.kind === 'AlterPartition')
      reply(w, msg, {
        kind: 'AlterPartitionResponse',
        topic: b.topic,
        partition: b.partition,
        error: 'NOT_CONTROLLER',
      });
    return;
  }
  const img = c.work!;
  switch (b.kind) {
    case 'BrokerRegistration': {
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
      return;
    }
    case 'BrokerHeartbeat': {
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
      const leads = partitionsWith(img, b.brokerId, 'leader').length;
      let shouldShutDown = false;
      if (b.wantShutDown && (reg.inControlledShutdown || reg.fenced) && leads === 0) {
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
      return;
    }
    case 'AlterPartition': {
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
      const why = joining.length
        ? 'a follower caught up'
        : `followers lagged more than replica.lag.time.max.ms`;
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
      return;
    }
    default:
      return;
  }
}

function unfence(w: World, node: SimNode, brokerId: NodeId): void {
  const img = node.controller!.work!;
  const reg = img.brokers.get(brokerId)!;
  const rec: MetaRecord = {
    type: 'BrokerRegistrationChangeRecord',
    brokerId,
    brokerEpoch: reg.brokerEpoch,
    fenced: false,
  };
  const off = write(w, node, [rec]);
  later(
    w,
    node,
    off,
    'BrokerUnfenced',
    `Broker ${brokerId} caught up with the metadata log and is unfenced (BrokerUnfenced): it may lead partitions again.`,
    {
      nodeId: brokerId,
    },
  );
  // Leaderless partitions that can now elect this broker (from the ISR or the ELR).
  const leaderless = [...img.partitions.values()].filter(
    (p) => p.leader === -1 && (p.isr.includes(brokerId) || p.elr.includes(brokerId)),
  );
  changePartitions(
    w,
    node,
    leaderless.map((p) => ({ p, req: {}, why: `broker ${brokerId} returned` })),
  );
}

/** Fencing: the broker leaves every ISR and its leaderships move (ReplicationControlManager.handleBrokerFenced). */
function fence(w: World, node: SimNode, brokerId: NodeId, why: string): void {
  const img = node.controller!.work!;
  const reg = img.brokers.get(brokerId)!;
  const rec: MetaRecord = {
    type: 'BrokerRegistrationChangeRecord',
    brokerId,
    brokerEpoch: reg.brokerEpoch,
    fenced: true,
  };
  const off0 = write(w, node, [rec]);
  later(
    w,
    node,
    off0,
    'BrokerFenced',
    `Broker ${brokerId} ${why}: fenced (BrokerFenced). It leaves every ISR and its leaderships move.`,
    {
      nodeId: brokerId,
    },
  );
  const affected = [...img.partitions.values()].filter(
    (p) => p.isr.includes(brokerId) || p.leader === brokerId,
  );
  changePartitions(
    w,
    node,
    affected.map((p) => ({
      p,
      req: { isr: p.isr.filter((x) => x !== brokerId) },
      why: `broker ${brokerId} was fenced`,
    })),
  );
}

function beginControlledShutdown(w: World, node: SimNode, brokerId: NodeId): void {
  const img = node.controller!.work!;
  const reg = img.brokers.get(brokerId)!;
  const off = write(w, node, [
    {
      type: 'BrokerRegistrationChangeRecord',
      brokerId,
      brokerEpoch: reg.brokerEpoch,
      inControlledShutdown: true,
    },
  ]);
  later(
    w,
    node,
    off,
    'ControlledShutdown',
    `Broker ${brokerId} asked for a controlled shutdown: the controller moves its leaderships away first.`,
    {
      nodeId: brokerId,
    },
  );
  const affected = [...img.partitions.values()].filter((p) => p.isr.includes(brokerId));
  changePartitions(
    w,
    node,
    affected.map((p) => ({
      p,
      req: { isr: p.isr.filter((x) => x !== brokerId) },
      why: `broker ${brokerId} is shutting down`,
    })),
  );
}

// ---- timers ----------------------------------------------------------------------

function armFenceCheck(w: World, node: SimNode, delayMs: number): void {
  node.controller!.fenceToken = setNodeTimer(w, node, delayMs, 'fenceCheck');
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

function preferredElections(w: World, node: SimNode, parts: PartitionState[], why: string): number {
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

// ---- admin operations (from the user's commands) ----------------------------------

export interface TopicSpec {
  name: string;
  partitions: number;
  replicationFactor: number;
  config?: Record<string, ConfigValue>;
  assignment?: NodeId[][];
}

/** CreateTopics on the active controller; returns an error in Kafka's words, or null. */
export function createTopic(w: World, node: SimNode, spec: TopicSpec): string | null {
  const img = node.controller!.work!;
  if (img.topics.has(spec.name)) return `TOPIC_ALREADY_EXISTS: Topic '${spec.name}' already exists.`;
  let assignment = spec.assignment;
  if (assignment) {
    for (const [i, replicas] of assignment.entries())
      for (const r of replicas)
        if (!img.brokers.has(r))
          return `INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes broker ${r}, but no such broker is registered (partition ${i}).`;
  } else {
    const usable = [...img.brokers.values()]
      .filter((b) => !b.inControlledShutdown)
      .sort((a, b) => a.brokerId - b.brokerId)
      .map((b) => ({ id: b.brokerId, rack: b.rack, fenced: b.fenced }));
    try {
      assignment = placeReplicas(usable, spec.partitions, spec.replicationFactor, intSource(w.rng));
    } catch (e) {
      if (e instanceof PlacementError) return `INVALID_REPLICATION_FACTOR: ${e.message}`;
      throw e;
    }
  }
  const records: MetaRecord[] = [{ type: 'TopicRecord', name: spec.name }];
  for (const [name, value] of Object.entries(spec.config ?? {}))
    records.push({ type: 'ConfigRecord', resourceType: 'topic', resourceName: spec.name, name, value });
  assignment.forEach((replicas, partition) => {
    const isr = replicas.filter((r) => isActiveBroker(img, r));
    const leader = isr[0] ?? -1;
    records.push({
      type: 'PartitionRecord',
      topic: spec.name,
      partition,
      replicas: [...replicas],
      isr: isr.length ? isr : [...replicas],
      elr: [],
      leader,
      leaderEpoch: 0,
      partitionEpoch: 0,
      adding: [],
      removing: [],
    });
  });
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

/** ConfigurationControlManager's own checks of an incrementalAlterConfigs; Kafka's error, or null. */
export function checkAlterConfigs(
  w: World,
  node: SimNode,
  resourceType: 'topic' | 'broker' | 'cluster',
  configs: Record<string, ConfigValue | null>,
): string | null {
  if (!('min.insync.replicas' in configs) || !elrEnabled(w, node.controller!.work!)) return null;
  // KIP-966: with ELR on, min ISR is a cluster-wide (or topic) setting only.
  if (resourceType === 'broker')
    return 'INVALID_CONFIG: Broker-level min.insync.replicas cannot be altered while ELR is enabled.';
  if (resourceType === 'cluster' && configs['min.insync.replicas'] === null)
    return 'INVALID_CONFIG: Cluster-level min.insync.replicas cannot be removed while ELR is enabled.';
  return null;
}

export function alterConfigs(
  w: World,
  node: SimNode,
  resourceType: 'topic' | 'broker' | 'cluster',
  resourceName: string,
  configs: Record<string, ConfigValue | null>,
): number {
  const records: MetaRecord[] = Object.entries(configs).map(([name, value]) => ({
    type: 'ConfigRecord',
    resourceType,
    resourceName,
    name,
    value,
  }));
  const off = write(w, node, records);
  const what = resourceType === 'cluster' ? 'the cluster default' : `${resourceType} ${resourceName}`;
  later(
    w,
    node,
    off,
    'ConfigChanged',
    `Config of ${what} changed through the metadata log: ${Object.entries(configs)
      .map(([k, v]) => `${k}=${v === null ? '(default)' : String(v)}`)
      .join(', ')} (incrementalAlterConfigs).`,
    { resourceType, resourceName, configs },
  );
  // Enabling unclean.leader.election.enable on an offline partition does not elect at once: the
  // controller's periodic check does, every unclean.leader.election.interval.ms (semantics §4).
  return off;
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

export function requestToController(w: World, from: SimNode, to: NodeId, body: Body): number {
  const id = nextReqId(w);
  send(w, from.id, to, body, id);
  return id;
}
