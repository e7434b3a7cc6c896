// A broker's lifecycle (BrokerLifecycleManager): registration, heartbeats every
// broker.heartbeat.interval.ms, controlled shutdown, and reacting to applied metadata.

import { emit, nextReqId, send, setNodeTimer } from '../kernel/kernel';
import type { MessageOf } from '../model/messages';
import type { MetaRecord } from '../model/metadata';
import { applyPartitionState, onMetadataTopicsChanged } from './replicaManager';
import type { BrokerMem, SimNode, World } from '../model/world';
import { itemAt } from '../model/arrays';

/**
 * What the broker tells the layer above it: its controlled shutdown is over, so its process stops
 * (BrokerServer.shutdown once BrokerLifecycleManager's controlledShutdownFuture completes). The
 * process holds every subsystem, which the broker may not import: process.ts stops them all, and
 * dispatch.ts installs the one listener when the engine loads.
 */
export interface BrokerListener {
  stopped(w: World, node: SimNode): void;
}

let listener: BrokerListener | null = null;

export function setBrokerListener(l: BrokerListener): void {
  listener = l;
}

function brokerListener(): BrokerListener {
  if (!listener) throw new Error('No broker listener: the Simulation (dispatch.ts) installs it.');
  return listener;
}

const CONTROLLER_REQUEST_TIMEOUT_MS = 2000;

export function newBrokerMem(): BrokerMem {
  return {
    brokerEpoch: -1,
    registered: false,
    strayChecked: false,
    registrationInFlight: false,
    heartbeatInFlight: false,
    controllerTarget: null,
    heartbeatToken: 0,
    requestToken: 0,
    requestReqId: 0,
    fencedByController: true,
    wantShutDown: false,
    replicas: new Map(),
    fetchers: new Map(),
    parked: new Map(),
    parkTimers: new Map(),
    isrToken: 0,
    leaderQuota: { allowanceBytes: 0, updatedAtMs: -1 },
    followerQuota: { allowanceBytes: 0, updatedAtMs: -1 },
  };
}

function heartbeatIntervalMs(w: World): number {
  return Number(w.config['broker.heartbeat.interval.ms']);
}

/** The controller a broker talks to: the quorum leader it knows of, or the next voter in turn. */
function controllerTarget(w: World, node: SimNode): number {
  const b = node.broker!;
  const known = node.raft?.leaderId ?? null;
  if (known !== null) return known;
  if (b.controllerTarget === null) b.controllerTarget = itemAt(w.voterIds, 0);
  return b.controllerTarget;
}

function rotateController(w: World, node: SimNode): void {
  const b = node.broker!;
  const i = b.controllerTarget === null ? 0 : w.voterIds.indexOf(b.controllerTarget);
  b.controllerTarget = itemAt(w.voterIds, (i + 1) % w.voterIds.length);
}

export function startBroker(w: World, node: SimNode): void {
  node.broker = newBrokerMem();
  sendRegistration(w, node);
  node.broker.isrToken = setNodeTimer(
    w,
    node,
    Number(w.config['replica.lag.time.max.ms']) / 2,
    'isrShrinkCheck',
  );
  setNodeTimer(w, node, Number(w.config['log.retention.check.interval.ms'] ?? 300000), 'retention');
}

function sendRegistration(w: World, node: SimNode): void {
  const b = node.broker!;
  b.registrationInFlight = true;
  b.requestReqId = nextReqId(w);
  send(
    w,
    node.id,
    controllerTarget(w, node),
    {
      kind: 'BrokerRegistration',
      brokerId: node.id,
      rack: node.rack,
      previousBrokerEpoch: node.disk.cleanShutdownBrokerEpoch,
    },
    b.requestReqId,
  );
  b.requestToken = setNodeTimer(w, node, CONTROLLER_REQUEST_TIMEOUT_MS, 'controllerRequestTimeout');
}

function sendHeartbeat(w: World, node: SimNode): void {
  const b = node.broker!;
  b.heartbeatInFlight = true;
  const applied = node.raft!.image.offset;
  b.requestReqId = nextReqId(w);
  send(
    w,
    node.id,
    controllerTarget(w, node),
    {
      kind: 'BrokerHeartbeat',
      brokerId: node.id,
      brokerEpoch: b.brokerEpoch,
      currentMetadataOffset: applied,
      wantFence: applied < b.brokerEpoch,
      wantShutDown: b.wantShutDown,
    },
    b.requestReqId,
  );
  b.requestToken = setNodeTimer(w, node, CONTROLLER_REQUEST_TIMEOUT_MS, 'controllerRequestTimeout');
}

export function onBrokerTimer(w: World, node: SimNode, name: string, token: number): void {
  const b = node.broker;
  if (!b) return;
  if (name === 'controllerRequestTimeout' && token === b.requestToken) {
    rotateController(w, node);
    if (!b.registered) sendRegistration(w, node);
    else sendHeartbeat(w, node);
  } else if (name === 'heartbeat' && token === b.heartbeatToken) {
    sendHeartbeat(w, node);
  }
}

/** BrokerLifecycleManager: the controller's answer to the registration in flight. */
export function onBrokerRegistrationResponse(
  w: World,
  node: SimNode,
  msg: MessageOf<'BrokerRegistrationResponse'>,
): void {
  const b = node.broker!;
  const body = msg.body;
  if (msg.reqId !== b.requestReqId) return; // an answer to a request we already gave up on
  if (!b.registrationInFlight) return;
  b.registrationInFlight = false;
  b.requestToken = 0;
  if (body.error) {
    rotateController(w, node);
    b.requestToken = setNodeTimer(w, node, 100, 'controllerRequestTimeout');
    return;
  }
  b.registered = true;
  b.brokerEpoch = body.brokerEpoch;
  node.disk.cleanShutdownBrokerEpoch = -1;
  sendHeartbeat(w, node);
}

/** BrokerLifecycleManager: the controller's answer to the heartbeat in flight. */
export function onBrokerHeartbeatResponse(
  w: World,
  node: SimNode,
  msg: MessageOf<'BrokerHeartbeatResponse'>,
): void {
  const b = node.broker!;
  const body = msg.body;
  if (msg.reqId !== b.requestReqId) return; // an answer to a request we already gave up on
  if (!b.heartbeatInFlight) return;
  b.heartbeatInFlight = false;
  b.requestToken = 0;
  if (body.error === 'STALE_BROKER_EPOCH') {
    // The controller lost our registration (a replay from an older image): register again.
    b.registered = false;
    sendRegistration(w, node);
    return;
  }
  if (body.error) {
    rotateController(w, node);
    b.heartbeatToken = setNodeTimer(w, node, 100, 'heartbeat');
    return;
  }
  b.fencedByController = body.isFenced;
  if (body.shouldShutDown && b.wantShutDown) {
    finishControlledShutdown(w, node);
    return;
  }
  // While shutting down, ask again soon so the controller can tell us when leaderships have moved.
  b.heartbeatToken = setNodeTimer(w, node, b.wantShutDown ? 500 : heartbeatIntervalMs(w), 'heartbeat');
}

export function beginShutdown(w: World, node: SimNode): void {
  const b = node.broker!;
  b.wantShutDown = true;
  if (!b.registered) {
    finishControlledShutdown(w, node);
    return;
  }
  if (!b.heartbeatInFlight) sendHeartbeat(w, node);
}

function finishControlledShutdown(w: World, node: SimNode): void {
  node.disk.cleanShutdownBrokerEpoch = node.broker!.brokerEpoch;
  emit(w, 'BrokerStopped', `Broker ${node.id} completed its controlled shutdown and stopped.`, {
    nodeId: node.id,
  });
  brokerListener().stopped(w, node);
}

/** The broker's memory is gone at a crash or a stop (startBroker makes it anew). */
export function crashBroker(node: SimNode): void {
  node.broker = null;
}

/** Called after the node applied committed metadata records, in order. */
export function onMetadataApplied(w: World, node: SimNode, records: MetaRecord[]): void {
  const b = node.broker;
  if (!b) return;
  let topicsChanged = false;
  for (const rec of records) {
    if (rec.type === 'PartitionRecord' || rec.type === 'PartitionChangeRecord') {
      const state = node.raft!.image.partitions.get(`${rec.topic}-${rec.partition}`);
      if (state && (state.replicas.includes(node.id) || b.replicas.has(`${rec.topic}-${rec.partition}`)))
        applyPartitionState(w, node, state);
    } else if (rec.type === 'RemoveTopicRecord') {
      dropTopicReplicas(w, node, rec.name);
      topicsChanged = true;
    } else if (rec.type === 'TopicRecord' || rec.type === 'ConfigRecord') {
      topicsChanged = true;
    }
  }
  if (topicsChanged) onMetadataTopicsChanged(w, node);
  if (!b.strayChecked && b.registered && node.raft!.image.offset >= b.brokerEpoch) removeStrayLogs(w, node);
  // A batch of NoOpRecords alone (KIP-835, twice a second) changes nothing worth a line.
  let count = 0;
  for (const rec of records) if (rec.type !== 'NoOpRecord') count++;
  emitMetadataApplied(w, node, count);
}

/**
 * Once a (re)started broker has caught up with the metadata log to its own registration, it checks
 * the logs on its disk against the image (BrokerMetadataPublisher.initializeManagers →
 * LogManager.isStrayKraftReplica): a log whose topic is gone (deleted while the broker was down) or
 * whose partition no longer lists this broker (reassigned away meanwhile) is a stray. Kafka renames
 * its directory with a `-stray` suffix and never serves it again; the simulator deletes it. Every log
 * the image still gives this broker has a replica by now (the replay applied its PartitionRecord), so a
 * log without one is a stray.
 */
function removeStrayLogs(w: World, node: SimNode): void {
  const b = node.broker!;
  b.strayChecked = true;
  const image = node.raft!.image;
  const strays: string[] = [];
  for (const tp of node.disk.partitions.keys()) {
    if (b.replicas.has(tp)) continue;
    if (image.partitions.get(tp)?.replicas.includes(node.id)) continue;
    strays.push(tp);
  }
  if (strays.length === 0) return;
  for (const tp of strays) node.disk.partitions.delete(tp);
  emit(
    w,
    'StrayLogsRemoved',
    `Broker ${node.id} found ${strays.length} stray log(s) on its disk (${strays.slice(0, 5).join(', ')}${strays.length > 5 ? ', …' : ''}): the metadata no longer gives it these partitions (deleted or moved while it was down), so it removes them.`,
    { nodeId: node.id, count: strays.length },
  );
}

/** A deleted topic: the broker stops its replicas of it and deletes their logs (ReplicaManager.stopPartitions). */
function dropTopicReplicas(w: World, node: SimNode, topic: string): void {
  const mine = [...node.broker!.replicas.values()].filter((m) => m.topic === topic);
  for (const m of mine)
    applyPartitionState(w, node, {
      topic,
      partition: m.partition,
      replicas: [],
      isr: [],
      elr: [],
      leader: -1,
      leaderEpoch: m.leaderEpoch,
      partitionEpoch: m.partitionEpoch,
      adding: [],
      removing: [],
    });
}

function emitMetadataApplied(w: World, node: SimNode, count: number): void {
  if (count === 0) return;
  // One line per batch keeps the log readable; every record is in the node's metadataOffset.
  emit(
    w,
    'MetadataApplied',
    `Broker ${node.id} applied ${count} metadata record(s) up to offset ${node.raft!.image.offset}.`,
    { nodeId: node.id, metadataOffset: node.raft!.image.offset, count },
  );
}
