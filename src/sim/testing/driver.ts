// A small chainable driver for story tests: build a cluster, break it, look at it.

import { createSimulation } from '../index';
import type { Simulation } from '../simulation';
import type {
  Acks,
  Command,
  ConfigValue,
  LedgerEntry,
  NodeId,
  Scenario,
  ScenarioTopic,
  SimEvent,
} from '../model/types';
import type { PartitionView } from '../model/views';
import type { MetaRecord } from '../model/metadata';
import type { Message, MessageKind, MessageOf } from '../model/messages';
import type { ConsumerFetchSession, World } from '../model/world';
import { lastStableOffset, ongoingTransactions } from '../broker/transactionIndex';
import { drainStats } from '../clients/recordAccumulator';
import { setTrailBudget } from '../model/trail';

export interface ClusterSpec {
  seed?: number;
  controllers?: number;
  /** Ids of the controllers (default 1..controllers); brokers then get `brokerIds` or follow on. */
  controllerIds?: number[];
  brokerIds?: number[];
  /** Broker racks, one per broker; brokers get ids after the controllers. */
  brokerRacks?: (string | null)[];
  brokers?: number;
  config?: Record<string, ConfigValue>;
  topics?: ScenarioTopic[];
  latencyMs?: number;
  jitterMs?: number;
}

/** Controllers get ids 1..c, brokers c+1.., so the ids in a story read as in the docs. */
export function clusterScenario(spec: ClusterSpec = {}): Scenario {
  const controllerIds = spec.controllerIds ?? Array.from({ length: spec.controllers ?? 1 }, (_, i) => i + 1);
  const count = spec.brokerIds?.length ?? spec.brokerRacks?.length ?? spec.brokers ?? 3;
  const racks = spec.brokerRacks ?? Array.from({ length: count }, () => null);
  const brokerIds = spec.brokerIds ?? racks.map((_, i) => controllerIds.length + 1 + i);
  return {
    version: 1,
    seed: spec.seed ?? 1,
    nodes: [
      ...controllerIds.map((id) => ({ id, roles: ['controller' as const] })),
      ...brokerIds.map((id, i) => ({
        id,
        roles: ['broker' as const],
        ...(racks[i] ? { rack: racks[i]! } : {}),
      })),
    ],
    config: spec.config ?? {},
    network: { latencyMs: spec.latencyMs ?? 1, jitterMs: spec.jitterMs ?? 0 },
    topics: spec.topics ?? [],
  };
}

export class Driver {
  readonly sim: Simulation;
  constructor(scenario: Scenario | Simulation) {
    this.sim = 'nowMs' in scenario ? scenario : createSimulation(scenario);
  }

  /**
   * The producers' Sender work since the last reset (clients/recordAccumulator.ts drainStats, shared
   * by every simulation in this process): waiting records it read, put into a batch, or found with
   * no connection slot for them. `reset` starts the count again after reading it.
   */
  senderWork(reset = false): { read: number; batched: number; unsendable: number } {
    const work = { ...drainStats };
    if (reset) Object.assign(drainStats, { read: 0, batched: 0, unsendable: 0 });
    return work;
  }

  /** Messages and timers the engine has scheduled since the run began (a measure of its work). */
  scheduled(): number {
    return this.sim.world.seq;
  }

  /** A copy of the cluster as it is now, driven on its own (a property test forks one settled scene). */
  fork(): Driver {
    return new Driver(this.sim.clone());
  }

  /** Runs until the scenario's topics have leaders (the cluster has booted). */
  settle(maxMs = 20000): this {
    const want = this.sim.world.scenarioTopics.length;
    for (let t = 0; t < maxMs; t += 100) {
      this.sim.advance(100);
      const s = this.sim.snapshot();
      if (
        want === 0 ||
        (this.sim.world.scenarioTopics.length === 0 &&
          s.partitions.length > 0 &&
          s.partitions.every((p) => p.leader >= 0))
      )
        return this;
    }
    throw new Error(`the cluster did not settle within ${maxMs} ms`);
  }

  advance(ms: number): this {
    this.sim.advance(ms);
    return this;
  }

  /** Advances in small steps until `cond` holds; fails after `maxMs`. */
  until(cond: (d: this) => boolean, maxMs = 60000, stepMs = 10): this {
    for (let t = 0; t <= maxMs; t += stepMs) {
      if (cond(this)) return this;
      this.sim.advance(stepMs);
    }
    throw new Error(`condition not met within ${maxMs} ms (at ${this.sim.nowMs} ms)`);
  }

  do(command: Command): this {
    const r = this.sim.apply(command);
    if (!r.ok) throw new Error(`${command.type} refused: ${r.error}`);
    return this;
  }

  crash(nodeId: NodeId): this {
    return this.do({ type: 'crashNode', nodeId });
  }
  restart(nodeId: NodeId): this {
    return this.do({ type: 'restartNode', nodeId });
  }
  shutdown(nodeId: NodeId): this {
    return this.do({ type: 'shutdownNode', nodeId });
  }

  startConsumer(
    consumerId: string,
    groupId: string,
    topics: string[],
    config: Record<string, ConfigValue> = {},
  ): this {
    return this.do({ type: 'startConsumer', consumerId, groupId, topics, config });
  }

  produce(
    topic: string,
    value: string,
    acks: Acks = 'all',
    extra: Partial<Extract<Command, { type: 'produce' }>> = {},
  ): this {
    return this.do({ type: 'produce', topic, value, acks, key: null, partition: 0, ...extra });
  }

  partition(topic: string, p = 0): PartitionView {
    const v = this.sim.snapshot().partitions.find((x) => x.topic === topic && x.partition === p);
    if (!v) throw new Error(`no partition ${topic}-${p}`);
    return v;
  }

  entry(value: string): LedgerEntry {
    const e = this.sim.ledger().find((x) => x.value === value);
    if (!e) throw new Error(`no ledger entry with value ${value}`);
    return e;
  }

  events(type?: string): SimEvent[] {
    return this.sim.events().filter((e) => !type || e.type === type);
  }

  node(id: NodeId) {
    return this.sim.snapshot().nodes.find((n) => n.id === id)!;
  }

  // The network.

  /** Cuts the link between two endpoints (both ways unless `oneWay`: then only from → to). */
  cut(from: NodeId | string, to: NodeId | string, opts: { oneWay?: boolean } = {}): this {
    return this.do({ type: 'cutLink', from, to, ...(opts.oneWay ? { oneWay: true } : {}) });
  }

  /** Splits the network into groups that cannot reach each other (clients reach every node). */
  split(...groups: NodeId[][]): this {
    return this.do({ type: 'partitionNetwork', groups });
  }

  /** Heals every cut and split. */
  heal(): this {
    return this.do({ type: 'healNetwork' });
  }

  // Expectations, with messages that say what was there instead.

  /** The first event of `type` (matching `match`, when given) since the start; fails when none. */
  expectEvent(type: string, match: (e: SimEvent) => boolean = () => true): SimEvent {
    const found = this.events(type).find(match);
    if (found) return found;
    const last = this.sim
      .events()
      .slice(-8)
      .map((e) => `  ${e.timeMs} ms ${e.type}: ${e.message}`)
      .join('\n');
    throw new Error(
      `no ${type} event${match.length ? ' that matches' : ''} by ${this.sim.nowMs} ms; the last events:\n${last}`,
    );
  }

  /** Fails if an event of `type` (matching `match`, when given) happened. */
  expectNoEvent(type: string, match: (e: SimEvent) => boolean = () => true): this {
    const found = this.events(type).find(match);
    if (found) throw new Error(`unexpected ${type} at ${found.timeMs} ms: ${found.message}`);
    return this;
  }

  /** The partition's leader in the snapshot (-1: none). */
  leaderOf(topic: string, p = 0): NodeId {
    return this.partition(topic, p).leader;
  }

  expectLeader(topic: string, p: number, leader: NodeId): this {
    const got = this.leaderOf(topic, p);
    if (got !== leader)
      throw new Error(`${topic}-${p}: leader ${got}, expected ${leader} (at ${this.sim.nowMs} ms)`);
    return this;
  }

  expectIsr(topic: string, p: number, isr: NodeId[]): this {
    const got = [...this.partition(topic, p).isr].sort((a, b) => a - b);
    const want = [...isr].sort((a, b) => a - b);
    if (got.join() !== want.join())
      throw new Error(`${topic}-${p}: ISR [${got}], expected [${want}] (at ${this.sim.nowMs} ms)`);
    return this;
  }

  // White-box looks at one mechanism's memory, for the tests of that mechanism. Tests read the
  // engine's internals only through these, so a change of the World's shape is fixed here once.

  /** The messages of `kind` on the wire now (to `to`, when given), in delivery order. */
  onWire<K extends MessageKind>(kind: K, to?: NodeId | string): MessageOf<K>[] {
    return this.sim.world.queue
      .sorted()
      .filter(
        (e): e is typeof e & MessageOf<K> =>
          e.t === 'deliver' && (e as Message).body.kind === kind && (to === undefined || e.to === to),
      );
  }

  /** Advances `ms` and counts the messages of `kind` that `from` sent meanwhile. */
  countSent(kind: MessageKind, from: NodeId | string, ms: number): number {
    const queue = this.sim.world.queue;
    const push = queue.push;
    let n = 0;
    queue.push = function (this: typeof queue, item: Parameters<typeof push>[0]) {
      if (item.t === 'deliver' && (item as Message).body.kind === kind && (item as Message).from === from)
        n++;
      return push.call(this, item);
    };
    try {
      this.advance(ms);
    } finally {
      delete (queue as { push?: unknown }).push;
      if (queue.push !== push) queue.push = push;
    }
    return n;
  }

  /** Steps the engine until a new message of `kind` to `to` is sent, and returns it. */
  nextSent<K extends MessageKind>(kind: K, to: NodeId | string, maxSteps = 100000): MessageOf<K> {
    const before = new Set(this.onWire(kind, to).map((m) => m.reqId));
    for (let steps = 0; steps < maxSteps; steps++) {
      this.sim.step();
      const m = this.onWire(kind, to).find((x) => !before.has(x.reqId));
      if (m) return m;
    }
    throw new Error(`no new ${kind} to ${to} within ${maxSteps} steps`);
  }

  /** A producer's reconnect backoff towards a broker (clients/connectionBackoff.ts), or null: none. */
  connectionBackoff(producerId: string, brokerId: NodeId): { failures: number; untilMs: number } | null {
    const c = this.sim.world.producers.get(producerId)?.connections.get(brokerId);
    return c ? { failures: c.failures, untilMs: c.untilMs } : null;
  }

  /** The consumer fetch sessions (KIP-227) a broker keeps, by session id (the live map). */
  fetchSessions(brokerId: NodeId): Map<number, ConsumerFetchSession> {
    return this.sim.world.coordinators.get(brokerId)?.fetchSessions ?? new Map();
  }

  /** How many consumer fetches wait at a broker for data (delayed fetches). */
  parkedConsumerFetches(brokerId: NodeId): number {
    return this.sim.world.coordinators.get(brokerId)?.parked.size ?? 0;
  }

  /** The followers whose replica fetch waits at a broker (the leader's purgatory). */
  parkedReplicaFetches(brokerId: NodeId): NodeId[] {
    return [...(this.sim.world.nodes.get(brokerId)?.broker?.parked.keys() ?? [])];
  }

  /** The role a broker's replica of a partition has in its memory, or null without one. */
  replicaRole(brokerId: NodeId, topic: string, p = 0): 'leader' | 'follower' | 'none' | null {
    return this.sim.world.nodes.get(brokerId)?.broker?.replicas.get(`${topic}-${p}`)?.role ?? null;
  }

  /** The partitions a node has on its disk, as `topic-partition`. */
  partitionsOnDisk(nodeId: NodeId): string[] {
    return [...(this.sim.world.nodes.get(nodeId)?.disk.partitions.keys() ?? [])].sort();
  }

  /** The cluster-wide configs as one node's metadata image has them. */
  clusterConfigSeenBy(nodeId: NodeId) {
    return this.sim.world.nodes.get(nodeId)?.raft?.image.clusterConfig ?? {};
  }

  /** The records of a node's copy of the metadata log, in order (index = offset from the log start). */
  metadataLog(nodeId: NodeId): MetaRecord[] {
    return this.sim.world.nodes.get(nodeId)?.disk.metaLog.entries.map((e) => e.record) ?? [];
  }

  /** The finalized feature levels in a node's metadata image (FeatureLevelRecord). */
  featuresSeenBy(nodeId: NodeId): Map<string, number> {
    return this.sim.world.nodes.get(nodeId)?.raft?.image.features ?? new Map();
  }

  /** The record types of a node's copy of the metadata log, in order. */
  metadataLogTypes(nodeId: NodeId): string[] {
    return this.sim.world.nodes.get(nodeId)?.disk.metaLog.entries.map((e) => e.record.type) ?? [];
  }

  /**
   * A partition's log as its current leader holds it: each record's offset, value, and for a
   * transaction its producer id and control type (COMMIT / ABORT marker).
   */
  leaderLog(
    topic: string,
    p = 0,
  ): { offset: number; value: string; pid: number; control?: 'COMMIT' | 'ABORT'; transactional: boolean }[] {
    const disk = this.sim.world.nodes.get(this.leaderOf(topic, p))?.disk.partitions.get(`${topic}-${p}`);
    if (!disk) return [];
    return disk.log.entries.map((r, i) => ({
      offset: disk.log.base + i,
      value: r.value,
      pid: r.pid,
      ...(r.control ? { control: r.control } : {}),
      transactional: r.transactional === true,
    }));
  }

  /** The leader's high watermark and last stable offset of a partition, and its open transactions' first offsets. */
  stableOffsets(
    topic: string,
    p = 0,
  ): { highWatermark: number; lastStableOffset: number; ongoing: number[] } {
    const disk = this.sim.world.nodes.get(this.leaderOf(topic, p))?.disk.partitions.get(`${topic}-${p}`);
    if (!disk) throw new Error(`no leader log of ${topic}-${p}`);
    return {
      highWatermark: disk.highWatermark,
      lastStableOffset: lastStableOffset(disk),
      ongoing: [...ongoingTransactions(disk).values()],
    };
  }

  /** A transactional producer's TransactionManager state, producer id and epoch. */
  transactionOf(producerId: string): { state: string; producerId: number; epoch: number } | null {
    const p = this.sim.world.producers.get(producerId);
    if (!p?.txn) return null;
    return { state: p.txn.state, producerId: p.pid, epoch: p.txn.producerEpoch };
  }

  /** The transaction coordinator's view of a transactional.id: which broker holds it, in what state. */
  coordinatorState(transactionalId: string): { nodeId: NodeId; state: string; epoch: number } | null {
    for (const [nodeId, mem] of this.sim.world.transactions ?? new Map()) {
      const m = mem.txns.get(transactionalId);
      if (m && this.sim.world.nodes.get(nodeId)?.state === 'running')
        return { nodeId, state: m.state, epoch: m.producerEpoch };
    }
    return null;
  }

  /** Lowers the simulator's record ceiling (kernel/recordCeiling.ts), so a test reaches it in seconds. */
  recordCeiling(ceiling: number): this {
    const w = this.sim.world;
    w.recordCeiling = { ...(w.recordCeiling ?? { forgotten: 0, passes: 0 }), ceiling };
    return this;
  }

  /**
   * Lowers the memory bounds (kernel/memoryBounds.ts: events kept, failed and acks=0 ledger entries
   * kept per producer; model/trail.ts: the trail's budget of appends and HW moves), so a test reaches them in
   * seconds.
   */
  memoryLimits(limits: {
    events?: number;
    failedPerProducer?: number;
    acks0PerProducer?: number;
    trailBudget?: number;
  }): this {
    const w = this.sim.world;
    const { trailBudget, ...rest } = limits;
    w.memoryLimits = { ...w.memoryLimits, ...rest };
    if (trailBudget !== undefined) setTrailBudget(w.trail, trailBudget);
    return this;
  }

  /**
   * Corrupts the engine's state by hand, for the tests that check the invariant monitor catches
   * what a bug would do. Nothing else may write into the World.
   */
  tamper(corrupt: (world: World) => void): this {
    corrupt(this.sim.world);
    return this;
  }
}

export function cluster(spec: ClusterSpec = {}): Driver {
  return new Driver(clusterScenario(spec));
}
