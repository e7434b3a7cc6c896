// World building: the World of a scenario at time 0 (its nodes, its script, every process
// booted), and a node's boot, the same at the start and at a restart. The order in which the
// World's fields are made is part of the state hash (kernel/hash.ts): keep it.

import { newTrailState } from './model/trail';
import { newMessageTrail } from './model/messageTrail';
import { newSecurityState } from './broker/acl';
import { newMetricsState } from './observe/metrics';
import { startBroker } from './broker/broker';
import { clusterDefaults } from './model/config';
import { newControllerMem } from './kraft/quorumController';
import { EventQueue } from './model/heap';
import { schedule } from './kernel/kernel';
import { startRaft } from './kraft/quorum';
import { seedRng } from './kernel/rng';
import type { QueueItem, SimNode, World } from './model/world';
import type { NodeId, Role, Scenario } from './model/types';

/** The world of a parsed scenario at time 0: its nodes added, its script scheduled, every node booted. */
export function buildWorld(s: Scenario): World {
  const w: World = {
    nowMs: 0,
    seq: 0,
    tokens: 0,
    reqIds: 0,
    queue: new EventQueue<QueueItem>(),
    rng: seedRng(s.seed),
    idRng: seedRng((s.seed ^ 0x7f4a7c15) | 0),
    seed: s.seed,
    config: { ...clusterDefaults(), ...(s.config ?? {}) },
    nodes: new Map(),
    voterIds: s.nodes
      .filter((n) => n.roles.includes('controller'))
      .map((n) => n.id)
      .sort((a, b) => a - b),
    network: {
      latencyMs: s.network?.latencyMs ?? 1,
      jitterMs: s.network?.jitterMs ?? 0,
      linkLatency: new Map((s.network?.links ?? []).map((l) => [`${l.from}>${l.to}`, l.latencyMs])),
      cuts: new Set(),
      groups: new Map(),
      lastDelivery: new Map(),
      inFlight: 0,
    },
    producers: new Map(),
    consumers: new Map(),
    coordinators: new Map(),
    consumedTrace: new Map(),
    consumedCount: new Map(),
    nextPid: 1000,
    ledger: [],
    ledgerIndex: new Map(),
    nextRecordId: 0,
    events: [],
    eventSeq: 0,
    controllerEvents: [],
    scenarioTopics: [...(s.topics ?? [])],
    script: [...(s.script ?? [])],
    traffic: new Map(),
    metrics: newMetricsState(),
    security: newSecurityState(s.security),
    trail: newTrailState(),
    messageTrail: newMessageTrail(),
  };
  for (const n of s.nodes) addNode(w, n.id, n.roles, n.rack ?? null);
  // Script steps run in atMs order; steps at the same time keep their order in the file.
  w.script.forEach((step, index) => schedule(w, { dueMs: step.atMs, seq: w.seq++, t: 'script', index }));
  for (const node of w.nodes.values()) bootNode(w, node);
  return w;
}

export function addNode(w: World, id: NodeId, roles: Role[], rack: string | null): SimNode {
  const node: SimNode = {
    id,
    roles: [...roles],
    rack,
    isBroker: roles.includes('broker'),
    isController: roles.includes('controller'),
    state: 'running',
    incarnation: 1,
    disk: {
      metaLog: { base: 0, logStartOffset: 0, entries: [], epochs: [] },
      quorumEpoch: 0,
      votedFor: null,
      partitions: new Map(),
      cleanShutdownBrokerEpoch: -1,
    },
    raft: null,
    controller: null,
    broker: null,
  };
  w.nodes.set(id, node);
  return node;
}

export function bootNode(w: World, node: SimNode): void {
  node.state = 'running';
  if (node.isController) node.controller = newControllerMem();
  startRaft(w, node);
  if (node.isBroker) startBroker(w, node);
}
