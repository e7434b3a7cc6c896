// The Simulation: builds the world from a scenario, runs the event loop in virtual time,
// applies commands, and exposes snapshots, events, the ledger and the data-loss detector.

import { addAcl, newSecurityState, removeAcl } from './broker/acl';
import { InvariantMonitor, type Violation } from './observe/invariants';
import { newMetricsState, sampleUpTo, type MetricsSample } from './observe/metrics';
import { generateReassignmentWithSeed, type ReassignmentPlan } from './operations/reassignment';
import {
  beginShutdown,
  onBrokerLifecycleMessage,
  onBrokerTimer,
  startBroker,
  stopProcess,
} from './broker/broker';
import { checkConfig, clusterDefaults } from './model/config';
import {
  activeController,
  alterConfigs,
  alterPartitionReassignments,
  checkAlterConfigs,
  createTopic,
  newControllerMem,
  onControllerMessage,
  onControllerTimer,
} from './kraft/controller';
import { EventQueue } from './model/heap';
import { emit, reachable, schedule, send } from './kernel/kernel';
import { lostAcknowledged } from './kernel/ledger';
import { entryAt, logEndOffset } from './model/log';
import type { Message } from './model/messages';
import type { MetaImage } from './model/metadata';
import { tpKey } from './model/metadata';
import {
  checkProduce,
  checkStartProducer,
  onProducerMessage,
  onProducerTimer,
  produce,
  startProducer,
  stopProducer,
} from './clients/producer';
import {
  checkStartConsumer,
  commitOffsets,
  onConsumerMessage,
  onConsumerTimer,
  startConsumer,
  stopConsumer,
} from './clients/consumer';
import {
  onConsumerFetch,
  onConsumerFetchExpired,
  onListOffsets,
  onOffsetsForLeaderEpoch,
} from './broker/consumerFetch';
import {
  onCoordinatorAppendResponse,
  onFindCoordinator,
  onGroupRequest,
  onGroupTimer,
} from './groups/groupCoordinator';
import {
  fetchMetadata,
  onParkedRaftFetchExpired,
  onRaftMessage,
  onRaftTimer,
  startRaft,
} from './kraft/quorum';
import {
  onAlterPartitionResponse,
  onAlterPartitionRetry,
  onDelayedProduceExpired,
  onFetchDisconnected,
  onFetchRequest,
  onFetchResponse,
  onFetcherTimer,
  onIsrShrinkCheck,
  onParkedFetchExpired,
  onProduceRequest,
  onRetentionCheck,
} from './broker/replication';
import { electLeaders as controllerElectLeaders } from './kraft/controller';
import { seedRng } from './kernel/rng';
import { buildSnapshot, clusterImage } from './observe/snapshot';
import { hashValue, hashWorld } from './kernel/hash';
import {
  failoverReport,
  loseRegion,
  mirrorDueMs,
  mirrorLag,
  mirrorView,
  newMirrorState,
  noteMirrorStarted,
  runMirror,
  type MirrorState,
} from './operations/mirror';
import type { QueueItem, SimNode, World } from './model/world';
import type {
  Command,
  CommandResult,
  CommittedRecord,
  ConsumedRecordView,
  FailoverReport,
  LedgerEntry,
  MirrorLagView,
  NodeId,
  Role,
  Scenario,
  SimEvent,
  Snapshot,
} from './model/types';
import type { CommandContext } from './validate';
import { LIMITS, parseScenario, validateCommand } from './validate';

// Bumped whenever a change to the rules can replay a saved session differently (session.ts checkHash).
// 0.2.0: consumer fetch sessions (KIP-227).
export const ENGINE_VERSION = '0.2.0';

/** Requests whose sender learns at once that the peer's process is down (connection refused). */
const REFUSED_REQUESTS = new Set([
  'Fetch',
  'Produce',
  'Metadata',
  'FindCoordinator',
  'JoinGroup',
  'SyncGroup',
  'Heartbeat',
  'LeaveGroup',
  'OffsetCommit',
  'OffsetFetch',
  'ConsumerGroupHeartbeat',
  'ConsumerFetch',
  'ListOffsets',
  'OffsetsForLeaderEpoch',
]);

/** A standby cluster in another region and the MirrorMaker feeding it (mirror.ts). */
interface MirrorLink {
  standby: Simulation;
  state: MirrorState;
}

export class Simulation {
  private readonly w: World;
  private readonly link: MirrorLink | null;

  /**
   * An independent copy of this simulation at this instant (a checkpoint): advancing either one
   * never affects the other, and both continue exactly as the original would.
   */
  clone(): Simulation {
    const copy = Object.create(Simulation.prototype) as Simulation;
    (copy as unknown as { w: World }).w = cloneWorld(this.w);
    (copy as unknown as { cachedContext: null }).cachedContext = null;
    // The invariant monitor's history is not part of the world: a clone starts without one.
    (copy as unknown as { monitor: null }).monitor = null;
    (copy as unknown as { link: MirrorLink | null }).link = this.link
      ? { standby: this.link.standby.clone(), state: structuredClone(this.link.state) }
      : null;
    return copy;
  }

  constructor(scenario: Scenario) {
    const s = parseScenario(scenario);
    const w: World = {
      nowMs: 0,
      seq: 0,
      tokens: 0,
      reqIds: 0,
      queue: new EventQueue<QueueItem>(),
      rng: seedRng(s.seed),
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
      scenarioTopics: [...(s.topics ?? [])],
      script: [...(s.script ?? [])],
      traffic: new Map(),
      metrics: newMetricsState(),
      security: newSecurityState(s.security),
    };
    this.w = w;
    for (const n of s.nodes) addNode(w, n.id, n.roles, n.rack ?? null);
    // Script steps run in atMs order; steps at the same time keep their order in the file.
    w.script.forEach((step, index) => schedule(w, { dueMs: step.atMs, seq: w.seq++, t: 'script', index }));
    for (const node of w.nodes.values()) bootNode(w, node);
    this.link = null;
    if (s.mirror) {
      const { nodes, config, network, seed } = s.mirror.standby;
      const standby = new Simulation({
        version: 1,
        seed: seed ?? standbySeed(s.seed),
        nodes,
        ...(config ? { config } : {}),
        ...(network ? { network } : {}),
      });
      this.link = { standby, state: newMirrorState(s.mirror, w.nowMs) };
      noteMirrorStarted(w, this.link.state);
    }
  }

  get nowMs(): number {
    return this.w.nowMs;
  }

  /** Runs every event due up to nowMs + ms, in order of due time then sequence number. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance(${ms}): virtual time never runs backwards`);
    const link = this.link;
    if (!link) return this.advanceCluster(ms);
    // Two clusters on one clock: both run up to each time the mirror is due, then the mirror runs.
    // At equal times the primary's events come first, then the standby's, then the mirror's, however
    // the run is sliced into advance() and step() calls.
    const until = this.w.nowMs + ms;
    for (;;) {
      const due = mirrorDueMs(link.state);
      const next = Math.min(until, Math.max(this.w.nowMs, due));
      this.advanceCluster(next - this.w.nowMs);
      link.standby.advance(next - link.standby.nowMs);
      if (due > next) break;
      runMirror(this, link.standby, link.state);
    }
  }

  private advanceCluster(ms: number): void {
    const w = this.w;
    const until = w.nowMs + ms;
    for (;;) {
      const next = w.queue.peek();
      if (!next || next.dueMs > until) break;
      this.run(next);
    }
    this.sample(until);
    w.nowMs = until;
  }

  /** Runs `next`, the event at the head of the queue. */
  private run(next: QueueItem): void {
    const w = this.w;
    // A metrics sample at T sees every event due at or before T, and none after.
    if (next.dueMs > w.metrics.nextSampleMs) this.sample(next.dueMs - 1);
    w.queue.pop();
    if (next.dueMs > w.nowMs) w.nowMs = next.dueMs;
    dispatch(w, next, this);
  }

  private sample(uptoMs: number): void {
    const before = this.w.metrics.samples.length;
    sampleUpTo(this.w, uptoMs);
    if (this.monitor && this.w.metrics.samples.length !== before) this.monitor.observe(this);
  }

  /** The due time of the next event, or null when nothing is scheduled. */
  nextEventAtMs(): number | null {
    const own = this.w.queue.peek()?.dueMs ?? null;
    const link = this.link;
    if (!link) return own;
    const next = Math.min(own ?? Infinity, link.standby.nextEventAtMs() ?? Infinity, mirrorDueMs(link.state));
    return next === Infinity ? null : Math.max(next, this.w.nowMs);
  }

  /** Runs exactly the next event (for step-by-step playback). */
  step(): void {
    const link = this.link;
    if (!link) return this.stepCluster();
    const own = this.w.queue.peek()?.dueMs ?? Infinity;
    const standby = link.standby.nextEventAtMs() ?? Infinity;
    const due = mirrorDueMs(link.state);
    const t = Math.max(this.w.nowMs, Math.min(own, standby, due));
    if (t === Infinity) return;
    // The same order as advance(): at one instant the primary first, then the standby, then the mirror.
    if (own <= t) {
      this.stepCluster();
      // The standby keeps its time until its own events at this instant have run.
      if (standby > t) link.standby.advance(t - link.standby.nowMs);
    } else if (standby <= t) {
      this.advanceCluster(t - this.w.nowMs);
      link.standby.step();
    } else {
      this.advanceCluster(t - this.w.nowMs);
      link.standby.advance(t - link.standby.nowMs);
      runMirror(this, link.standby, link.state);
    }
  }

  private stepCluster(): void {
    const next = this.w.queue.peek();
    if (next) this.run(next);
  }

  apply(command: Command): CommandResult {
    const issues = validateCommand(command, 'command', this.context());
    if (issues.length) return { ok: false, error: issues.map((i) => `${i.path}: ${i.message}`).join('; ') };
    const error = command.type === 'loseRegion' ? this.loseRegion() : applyCommand(this.w, command);
    return error ? { ok: false, error } : { ok: true };
  }

  snapshot(): Snapshot {
    const snapshot = buildSnapshot(this.w);
    if (this.link) snapshot.mirror = mirrorView(this.w, this.link.standby, this.link.state);
    return snapshot;
  }

  events(): readonly SimEvent[] {
    return this.w.events;
  }

  ledger(): readonly LedgerEntry[] {
    return this.w.ledger;
  }

  committedRecords(topic: string, partition: number): CommittedRecord[] {
    const p = clusterImage(this.w).partitions.get(tpKey(topic, partition));
    if (!p || p.leader < 0) return [];
    const disk = this.w.nodes.get(p.leader)?.disk.partitions.get(tpKey(topic, partition));
    if (!disk) return [];
    const out: CommittedRecord[] = [];
    for (
      let off = disk.log.logStartOffset;
      off < Math.min(disk.highWatermark, logEndOffset(disk.log));
      off++
    ) {
      const r = entryAt(disk.log, off)!;
      out.push({ offset: off, key: r.key, value: r.value, leaderEpoch: r.epoch, recordId: r.id });
    }
    return out;
  }

  /**
   * Every record consumer group `groupId` received, in the order its members received them
   * (the most recent CONSUMED_TRACE_MAX when there are more): for tests and the record tracer.
   */
  consumedRecords(groupId: string): readonly ConsumedRecordView[] {
    return this.w.consumedTrace.get(groupId) ?? [];
  }

  lostAcknowledged(): LedgerEntry[] {
    const img = clusterImage(this.w);
    const leaders = new Map([...img.partitions.entries()].map(([k, p]) => [k, p.leader]));
    return lostAcknowledged(this.w, leaders);
  }

  stateHash(): string {
    const own = hashWorld(this.w);
    if (!this.link) return own;
    return hashValue(`${own}:${this.link.standby.stateHash()}:${hashValue(this.link.state)}`);
  }

  /** The standby cluster of a scenario with a `mirror` (null without one). Drive it through this simulation. */
  get standby(): Simulation | null {
    return this.link?.standby ?? null;
  }

  /** Per mirrored partition, how far the standby trails the primary ([] without a mirror). */
  mirrorLag(): MirrorLagView[] {
    return this.link ? mirrorLag(this.w, this.link.standby.world, this.link.state) : [];
  }

  /**
   * After loseRegion: the records the primary acknowledged that the standby never received
   * (before it, what would be missing if the region were lost now); null without a mirror.
   */
  failoverReport(): FailoverReport | null {
    return this.link ? failoverReport(this.w, this.link.standby.world, this.link.state) : null;
  }

  /**
   * The vital signs, one sample per simulated second, the last ten minutes (METRICS_CAPACITY):
   * offline, under-replicated and under-min-ISR partitions, ISR shrinks and expands, elections,
   * produce latency percentiles by acks, bytes in and out and metadata lag per broker.
   */
  metrics(): readonly MetricsSample[] {
    return this.w.metrics.samples;
  }

  /**
   * Starts checking the safety invariants (invariants.ts) once per simulated second; off by default.
   * Acknowledged records (a scan of the whole ledger) are re-checked after a leader change or a
   * truncation, and every 10 simulated seconds otherwise. A clean run never violates them: a violation needs an
   * unclean election or a setting that allows one (unclean.leader.election.enable, acks=1 with a
   * leader that dies before its followers fetched).
   */
  watchInvariants(): this {
    if (!this.monitor) {
      this.monitor = new InvariantMonitor({ ackScanIntervalMs: 10_000 });
      this.monitor.observe(this);
    }
    return this;
  }

  /** Each invariant violation seen since watchInvariants(), first occurrence each, with the time it was seen. */
  violations(): readonly Violation[] {
    return this.monitor ? this.monitor.violations : [];
  }

  /**
   * `kafka-reassign-partitions --generate`: a balanced plan moving `topics` onto `brokerIds`,
   * deterministic from the scenario's seed. Feed `proposed` to the reassignPartitions command.
   */
  generateReassignment(topics: string[], brokerIds: NodeId[]): ReassignmentPlan {
    return generateReassignmentWithSeed(this.snapshot(), topics, brokerIds, this.w.seed);
  }

  private monitor: InvariantMonitor | null = null;

  /** The primary region goes dark: the mirror's link is cut, then every primary node crashes. */
  private loseRegion(): string | null {
    const link = this.link;
    if (!link) return 'this scenario has no standby region: add a "mirror" block to it';
    if (link.state.lostAtMs !== null)
      return `the primary region was already lost at ${link.state.lostAtMs} ms`;
    // Both clusters stand at this instant (step() may have left the standby a moment behind).
    link.standby.advance(this.w.nowMs - link.standby.nowMs);
    loseRegion(this.w, link.standby.world, link.state);
    for (const node of [...this.w.nodes.values()].sort((a, b) => a.id - b.id))
      if (node.state === 'running') applyCommand(this.w, { type: 'crashNode', nodeId: node.id });
    return null;
  }

  /** What commands may refer to now: nodes, brokers and the committed topics. */
  private context(): CommandContext {
    const img: MetaImage = clusterImage(this.w);
    const key = `${img.offset}/${this.w.nodes.size}/${this.link?.state.lostAtMs ?? ''}`;
    if (this.cachedContext?.key === key) return this.cachedContext.ctx;
    const topics = new Map([...img.topics.values()].map((t) => [t.name, t.partitions]));
    const ctx: CommandContext = {
      mirror: !this.link ? 'none' : this.link.state.lostAtMs === null ? 'active' : 'lost',
      nodeIds: new Set(this.w.nodes.keys()),
      brokerIds: new Set([...this.w.nodes.values()].filter((n) => n.isBroker).map((n) => n.id)),
      topics,
      totalPartitions: img.partitions.size,
    };
    this.cachedContext = { key, ctx };
    return ctx;
  }
  private cachedContext: { key: string; ctx: CommandContext } | null = null;

  /** @internal for tests and invariants: the raw model. */
  get world(): World {
    return this.w;
  }
}

/**
 * A deep copy of the world that shares what can no longer change (checkpoints for seeking hold
 * many copies): events once emitted, records once in a log, and ledger entries once settled.
 */
function cloneWorld(w: World): World {
  const { queue, events, ledger, ledgerIndex: _index, ...rest } = w;
  const logs = diskLogs(w);
  const entries = logs.map((l) => l.entries);
  for (const l of logs) l.entries = [];
  let copy: Omit<World, 'queue' | 'events' | 'ledger' | 'ledgerIndex'>;
  try {
    copy = structuredClone(rest);
  } finally {
    logs.forEach((l, i) => (l.entries = entries[i]!));
  }
  const copyLedger = ledger.map((e) => (e.status === 'pending' ? structuredClone(e) : e));
  const shared: Pick<World, 'queue' | 'events' | 'ledger' | 'ledgerIndex'> = {
    queue: queue.clone(),
    events: events.slice(),
    ledger: copyLedger,
    ledgerIndex: new Map(copyLedger.map((e) => [e.recordId, e])),
  };
  // The original's key order, so that the state hash (which serializes the world) is the same.
  const world = {} as Record<string, unknown>;
  for (const key of Object.keys(w))
    world[key] = key in shared ? shared[key as keyof typeof shared] : copy[key as keyof typeof copy];
  // The same nodes and partitions in the same order: each copied log gets its original's entries.
  diskLogs(world as unknown as World).forEach((l, i) => (l.entries = entries[i]!.slice()));
  return world as unknown as World;
}

/** Every log on every node's disk (the metadata log, then each partition's), in a fixed order. */
function diskLogs(w: Pick<World, 'nodes'>): { entries: unknown[] }[] {
  const out: { entries: unknown[] }[] = [];
  for (const node of w.nodes.values()) {
    out.push(node.disk.metaLog);
    for (const d of node.disk.partitions.values()) out.push(d.log);
  }
  return out;
}

function addNode(w: World, id: NodeId, roles: Role[], rack: string | null): SimNode {
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

function bootNode(w: World, node: SimNode): void {
  node.state = 'running';
  if (node.isController) node.controller = newControllerMem();
  startRaft(w, node);
  if (node.isBroker) startBroker(w, node);
}

function dispatch(w: World, item: QueueItem, sim: Simulation): void {
  switch (item.t) {
    case 'deliver':
      deliver(w, item);
      return;
    case 'client':
      if (w.consumers.has(item.client)) onConsumerTimer(w, item.client, item.name, item.token);
      else onProducerTimer(w, item.client, item.name, item.token);
      return;
    case 'script': {
      const step = w.script[item.index]!;
      const result = sim.apply(step.command);
      if (!result.ok)
        emit(
          w,
          'CommandRefused',
          `Script step ${item.index} (${step.command.type}) was refused: ${result.error}`,
          {
            error: result.error,
          },
        );
      return;
    }
    case 'timer': {
      const node = w.nodes.get(item.node);
      if (!node || node.state !== 'running' || node.incarnation !== item.incarnation) return;
      switch (item.name) {
        case 'raftElection':
        case 'raftFetchTimeout':
        case 'raftCheckQuorum':
        case 'raftRequestTimeout':
          onRaftTimer(w, node, item.name, item.token);
          return;
        case 'raftParkExpire':
          onParkedRaftFetchExpired(w, node, item.key!, item.token);
          return;
        case 'heartbeat':
        case 'controllerRequestTimeout':
          onBrokerTimer(w, node, item.name, item.token);
          return;
        case 'fenceCheck':
        case 'controllerPeriodic':
          onControllerTimer(w, node, item.name, item.token);
          if (item.name === 'controllerPeriodic') maybeCreateScenarioTopics(w, node);
          return;
        case 'isrShrinkCheck':
          onIsrShrinkCheck(w, node, item.token);
          return;
        case 'fetchRequestTimeout':
          onFetcherTimer(w, node, item.token, item.key!);
          return;
        case 'parkedFetchExpire':
          onParkedFetchExpired(w, node, item.key!, item.token);
          return;
        case 'delayedProduceExpire':
          onDelayedProduceExpired(w, node, item.key!, item.token);
          return;
        case 'alterPartitionRetry':
          onAlterPartitionRetry(w, node, item.key!, item.token);
          return;
        case 'retention':
          onRetentionCheck(w, node);
          return;
        case 'groupTimer':
          onGroupTimer(w, node, item.key!, item.token);
          return;
        case 'consumerFetchExpire':
          onConsumerFetchExpired(w, node, item.token);
          return;
      }
    }
  }
}

function deliver(w: World, msg: Message): void {
  w.network.inFlight--;
  // A link cut while the packet was on the wire loses it too.
  if (!reachable(w, msg.from, msg.to)) return;
  if (typeof msg.to === 'string') {
    if (w.consumers.has(msg.to)) onConsumerMessage(w, msg);
    else onProducerMessage(w, msg);
    return;
  }
  const node = w.nodes.get(msg.to);
  if (!node || node.state !== 'running' || node.incarnation !== msg.toIncarnation) {
    if (REFUSED_REQUESTS.has(msg.body.kind) && node && node.state !== 'running')
      send(
        w,
        msg.to,
        msg.from,
        { kind: 'Disconnected', requestKind: msg.body.kind },
        msg.reqId,
        msg.fromIncarnation,
      );
    return;
  }
  const b = msg.body;
  switch (b.kind) {
    case 'Vote':
    case 'VoteResponse':
    case 'BeginQuorumEpoch':
    case 'RaftFetch':
    case 'RaftFetchResponse':
      onRaftMessage(w, node, msg);
      return;
    case 'BrokerRegistration':
    case 'BrokerHeartbeat':
    case 'AlterPartition':
      if (node.controller) onControllerMessage(w, node, msg);
      return;
    case 'BrokerRegistrationResponse':
    case 'BrokerHeartbeatResponse':
      if (node.broker) onBrokerLifecycleMessage(w, node, msg);
      return;
    case 'AlterPartitionResponse':
      if (node.broker) onAlterPartitionResponse(w, node, msg);
      return;
    case 'Fetch':
      if (node.broker) onFetchRequest(w, node, msg);
      return;
    case 'FetchResponse':
      if (node.broker) onFetchResponse(w, node, msg);
      return;
    case 'Produce':
      if (node.broker) onProduceRequest(w, node, msg);
      return;
    case 'Metadata':
      if (node.broker) answerMetadata(w, node, msg);
      return;
    case 'ProduceResponse':
      // The group coordinator's own appends to __consumer_offsets.
      if (node.broker) onCoordinatorAppendResponse(w, node, msg);
      return;
    case 'MetadataResponse':
      return;
    case 'FindCoordinator':
      if (node.broker) onFindCoordinator(w, node, msg);
      return;
    case 'JoinGroup':
    case 'SyncGroup':
    case 'Heartbeat':
    case 'LeaveGroup':
    case 'OffsetCommit':
    case 'OffsetFetch':
    case 'ConsumerGroupHeartbeat':
      if (node.broker) onGroupRequest(w, node, msg);
      return;
    case 'ConsumerFetch':
      if (node.broker) onConsumerFetch(w, node, msg);
      return;
    case 'ListOffsets':
      if (node.broker) onListOffsets(w, node, msg);
      return;
    case 'OffsetsForLeaderEpoch':
      if (node.broker) onOffsetsForLeaderEpoch(w, node, msg);
      return;
    case 'FindCoordinatorResponse':
    case 'JoinGroupResponse':
    case 'SyncGroupResponse':
    case 'HeartbeatResponse':
    case 'LeaveGroupResponse':
    case 'OffsetCommitResponse':
    case 'OffsetFetchResponse':
    case 'ConsumerGroupHeartbeatResponse':
    case 'ConsumerFetchResponse':
    case 'ListOffsetsResponse':
    case 'OffsetsForLeaderEpochResponse':
      return;
    case 'Disconnected':
      if (b.requestKind === 'Fetch' && node.broker) onFetchDisconnected(w, node, msg);
      return;
  }
}

/** A broker answers Metadata from its own image: possibly stale, which is the point. */
function answerMetadata(w: World, node: SimNode, msg: Message): void {
  const b = msg.body;
  if (b.kind !== 'Metadata') return;
  const img = node.raft!.image;
  const partitions = [];
  const unknownTopics: string[] = [];
  for (const t of b.topics) {
    const topic = img.topics.get(t);
    if (!topic) {
      unknownTopics.push(t);
      continue;
    }
    for (let p = 0; p < topic.partitions; p++) {
      const s = img.partitions.get(tpKey(t, p));
      if (s)
        partitions.push({
          topic: t,
          partition: p,
          leader: s.leader,
          leaderEpoch: s.leaderEpoch,
          replicas: s.replicas,
          isr: s.isr,
        });
    }
  }
  const brokers = [...img.brokers.values()].filter((x) => !x.fenced).map((x) => x.brokerId);
  send(w, node.id, msg.from, { kind: 'MetadataResponse', brokers, partitions, unknownTopics }, msg.reqId);
}

/** Scenario topics are created once every scenario broker is registered and unfenced (or after 10 s). */
function maybeCreateScenarioTopics(w: World, node: SimNode): void {
  if (w.scenarioTopics.length === 0 || !node.controller?.active) return;
  const img = node.controller.work!;
  const brokers = [...w.nodes.values()].filter((n) => n.isBroker);
  const ready = brokers.every((n) => img.brokers.get(n.id) && !img.brokers.get(n.id)!.fenced);
  if (!ready && w.nowMs < 10000) return;
  const topics = w.scenarioTopics;
  w.scenarioTopics = [];
  for (const t of topics) {
    const error = createTopic(w, node, t);
    if (error)
      emit(w, 'CommandRefused', `Topic ${t.name} of the scenario could not be created: ${error}`, {
        topic: t.name,
        error,
      });
  }
}

function applyCommand(w: World, c: Command): string | null {
  const node = 'nodeId' in c && c.type !== 'addNode' ? w.nodes.get(c.nodeId) : undefined;
  switch (c.type) {
    case 'crashNode':
      if (!node || node.state !== 'running') return `node ${c.nodeId} is not running`;
      stopProcess(w, node, 'crashed');
      emit(
        w,
        'NodeCrashed',
        `Node ${c.nodeId} crashed: its memory is gone, its disk (logs, metadata) stays.`,
        { nodeId: c.nodeId },
      );
      return null;
    case 'restartNode':
      if (!node || node.state === 'running') return `node ${c.nodeId} is already running`;
      node.incarnation++;
      emit(w, 'NodeRestarted', `Node ${c.nodeId} restarts: it reads its disk, re-registers and catches up.`, {
        nodeId: c.nodeId,
      });
      bootNode(w, node);
      return null;
    case 'shutdownNode':
      if (!node || node.state !== 'running') return `node ${c.nodeId} is not running`;
      emit(w, 'ShutdownRequested', `Node ${c.nodeId} begins a controlled shutdown.`, { nodeId: c.nodeId });
      if (node.broker) beginShutdown(w, node);
      else stopProcess(w, node, 'stopped');
      return null;
    case 'partitionNetwork': {
      w.network.groups = new Map();
      c.groups.forEach((g, i) => g.forEach((id) => w.network.groups.set(id, i)));
      emit(
        w,
        'NetworkPartitioned',
        `The network is partitioned into ${c.groups.map((g) => `{${g.join(', ')}}`).join(' | ')}.`,
        {
          groups: c.groups,
        },
      );
      return null;
    }
    case 'cutLink':
      w.network.cuts.add(`${c.from}>${c.to}`);
      if (!c.oneWay) w.network.cuts.add(`${c.to}>${c.from}`);
      emit(w, 'LinkCut', `The link ${c.from} ${c.oneWay ? '→' : '↔'} ${c.to} is cut.`, {
        from: c.from,
        to: c.to,
        oneWay: !!c.oneWay,
      });
      return null;
    case 'healNetwork':
      w.network.cuts.clear();
      w.network.groups.clear();
      emit(w, 'NetworkHealed', 'The network is healed: every node reaches every other.');
      kickAfterHeal(w);
      return null;
    case 'createTopic': {
      const ctl = activeController(w);
      if (!ctl)
        return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader), so the topic cannot be created now';
      const { type: _t, ...spec } = c;
      return createTopic(w, ctl, spec);
    }
    case 'alterConfig': {
      const scope = c.resourceType;
      for (const [k, v] of Object.entries(c.configs)) {
        const err = v === null ? null : checkConfig(k, v, scope, { alter: true });
        if (err) return `INVALID_CONFIG: ${err}`;
      }
      const ctl = activeController(w);
      if (!ctl) return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader)';
      if (scope === 'topic' && !ctl.controller!.work!.topics.has(c.resourceName ?? ''))
        return `UNKNOWN_TOPIC_OR_PARTITION: no topic "${c.resourceName}"`;
      const refused = checkAlterConfigs(w, ctl, scope, c.configs);
      if (refused) return refused;
      alterConfigs(w, ctl, scope, c.resourceName ?? '', c.configs);
      return null;
    }
    case 'produce': {
      const error = checkProduce(w, c);
      if (error) return error;
      produce(w, c);
      return null;
    }
    case 'startProducer': {
      const error = checkStartProducer(w, c);
      if (error) return error;
      startProducer(w, c);
      return null;
    }
    case 'stopProducer':
      return stopProducer(w, c.producerId);
    case 'startConsumer': {
      const error = checkStartConsumer(w, c);
      if (error) return error;
      startConsumer(w, c);
      return null;
    }
    case 'stopConsumer':
      return stopConsumer(w, c.consumerId, c.graceful ?? true);
    case 'commitOffsets':
      return commitOffsets(w, c.consumerId);
    case 'addNode': {
      if (w.nodes.has(c.nodeId)) return `node ${c.nodeId} already exists`;
      if (c.roles.includes('controller'))
        return 'adding a controller needs a dynamic quorum (KIP-853), which this simulator does not model yet: add brokers only';
      if (w.nodes.size >= LIMITS.maxNodes) return `at most ${LIMITS.maxNodes} nodes`;
      const n = addNode(w, c.nodeId, c.roles, c.rack ?? null);
      emit(
        w,
        'NodeAdded',
        `Broker ${c.nodeId} starts${c.rack ? ` in rack ${c.rack}` : ''}: it registers and joins empty.`,
        { nodeId: c.nodeId },
      );
      bootNode(w, n);
      return null;
    }
    case 'reassignPartitions': {
      const ctl = activeController(w);
      if (!ctl) return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader)';
      return alterPartitionReassignments(w, ctl, c.partitions);
    }
    case 'addAcl':
    case 'removeAcl': {
      const { type, ...acl } = c;
      const changed = type === 'addAcl' ? addAcl(w, acl) : removeAcl(w, acl);
      if (!changed) return type === 'addAcl' ? 'this ACL already exists' : 'no such ACL';
      const rule = `${acl.permission.toUpperCase()} ${acl.principal} ${acl.operation} on ${acl.resourceType} ${acl.resourceName}${
        acl.patternType === 'prefixed' ? '*' : ''
      }`;
      emit(
        w,
        type === 'addAcl' ? 'AclAdded' : 'AclRemoved',
        type === 'addAcl'
          ? `ACL added: ${rule}.${w.security.acls.length === 1 ? ' ACLs are now enforced: anything no ACL allows is refused.' : ''}`
          : `ACL removed: ${rule}.${w.security.acls.length === 0 ? ' No ACL is left: everything is allowed again.' : ''}`,
        { acl },
      );
      return null;
    }
    case 'loseRegion':
      // Simulation.apply performs it: it concerns both clusters.
      return 'loseRegion needs the simulation of both regions';
    case 'electLeaders': {
      const ctl = activeController(w);
      if (!ctl) return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader)';
      const img = ctl.controller!.work!;
      const parts = c.partitions
        ? c.partitions
            .map((p) => img.partitions.get(tpKey(p.topic, p.partition)))
            .filter((p) => p !== undefined)
        : [...img.partitions.values()];
      if (c.partitions && parts.length !== c.partitions.length)
        return 'UNKNOWN_TOPIC_OR_PARTITION: a named partition does not exist';
      const off = controllerElectLeaders(w, ctl, c.electionType, parts);
      if (off < 0)
        return c.electionType === 'preferred'
          ? 'ELECTION_NOT_NEEDED: every named partition is already led by its preferred replica, or that replica is not in the ISR'
          : 'ELECTION_NOT_NEEDED: no named partition is offline';
      return null;
    }
  }
}

/** After healing, nodes waiting on long timeouts try again promptly (TCP reconnects). */
function kickAfterHeal(w: World): void {
  for (const node of w.nodes.values()) {
    if (node.state !== 'running' || !node.raft) continue;
    if (node.raft.role === 'observer' || node.raft.role === 'follower') fetchMetadata(w, node);
  }
}

/** The standby's seed when its scenario gives none: the next 32-bit value after the primary's. */
function standbySeed(seed: number): number {
  return ((seed >>> 0) + 1) >>> 0;
}

/** Creates a simulation; a bad scenario throws a ScenarioError listing every problem. */
export function createSimulation(scenario: Scenario): Simulation {
  return new Simulation(scenario);
}
