// The Simulation: builds the world from a scenario, runs the event loop in virtual time,
// applies commands, and exposes snapshots, events, the ledger and the data-loss detector.

import { recordMemory, type RecordMemoryView } from './kernel/recordCeiling';
import { acks0Dropped, eventCount, eventsFromSeq, failedDropped } from './kernel/memoryBounds';
import { InvariantMonitor, type Violation } from './observe/invariants';
import { sampleUpTo, type MetricsSample } from './observe/metrics';
import { generateReassignmentWithSeed, type ReassignmentPlan } from './operations/reassignment';
import { lostAcknowledged } from './kernel/ledger';
import { entryAt, firstHeldOffset, logEndOffset } from './model/log';
import { lastStableOffset, ongoingTransactions } from './broker/transactionIndex';
import type { MetaImage } from './model/metadata';
import { tpKey } from './model/metadata';
import { buildSnapshot } from './observe/snapshot';
import { partitionLog, type PartitionLogView } from './observe/partitionLog';
import { recordJourney, type RecordJourneyView } from './observe/recordJourney';
import { clientHistory, type ClientHistoryView } from './observe/clientHistory';
import { messageDiagram, type MessageDiagramView, type MessageQuery } from './observe/messageDiagram';
import { clusterImage } from './model/image';
import { hashValue, hashWorld } from './kernel/hash';
import {
  type MirrorState,
  failoverReport,
  loseRegion,
  mirrorDueMs,
  mirrorLag,
  mirrorView,
  newMirrorState,
  noteMirrorStarted,
  runMirror,
} from './operations/mirror';
import type { QueueItem, World } from './model/world';
import type {
  Command,
  CommandResult,
  CommittedRecord,
  LedgerEntry,
  NodeId,
  Scenario,
  SimEvent,
} from './model/types';
import type { ConsumedRecordView, FailoverReport, MirrorLagView, Snapshot } from './model/views';
import type { CommandContext } from './validate';
import { cloneWorld } from './checkpoint';
import { applyCommand } from './commands';
import { dispatch } from './dispatch';
import { buildWorld } from './world';
import { LIMITS, parseScenario, validateCommand } from './validate';
import { emit } from './kernel/kernel';
import { runCli } from './tools';

// Bumped whenever a change to the rules can replay a saved session differently (session.ts checkHash).
// 0.2.0: consumer fetch sessions (KIP-227).
// 0.2.1: topic ids (TopicRecord.topicId), drawn from a seeded stream of their own.
// 0.2.2: the group coordinator's memory is cleared when its broker stops, not on its next use.
// 0.2.3: a controller's decision committed by the next leader after its crash is still logged.
// 0.4.0: Kafka's own algorithms: cooperative-sticky and uniform assignors in Kafka's HashMap order,
//        PartitionChangeBuilder's ELR and last known ELR, handleBrokerUnfenced on every leaderless
//        partition, the sticky partitioner counting bytes as they are appended.
// 0.5.0: a refused command leaves the seeded generators as they were (a refused createTopic drew
//        from one); a client timer of 0 ms (request.timeout.ms, auto.commit.interval.ms) waits 1 ms.
// 0.5.1: CreateTopics refuses a name that collides with an existing one in metric names (a.b, a_b).
// 0.6.0: transactions (KIP-98): __transaction_state and its coordinator, control records, the LSO
//        and read_committed; the transaction configs join the cluster config.
// 0.6.1: (main) the bootstrap records and NoOpRecords, eager group loading, FindCoordinator's turn.
// 0.7.0: (branch eos) consume-transform-produce (startProcessor: sendOffsetsToTransaction with AddOffsetsToTxn and
//        TxnOffsetCommit, offsets completed by the marker on __consumer_offsets, KIP-447's
//        require_stable OffsetFetch for read_committed consumers), and startConsumer's
//        commitBeforeProcess and processMs.
// 0.7.1: both: the metadata log as Kafka writes it (bootstrap FeatureLevelRecords, a NoOpRecord every
//        500 ms, so broker epochs read as on a real cluster); groups loaded when their coordinator is
//        elected; FindCoordinator to the next broker after a lost coordinator.
// 0.7.2: the producer's waiting records are kept per partition (ProducerClient.queues, in place of one
//        ready list), so the Sender's pass reads each partition's head, not every waiting record. The
//        same sends, retries and errors in the same order: only the World's JSON (state hashes) changed.
// 0.8.0: KIP-890 part 1, transaction.partition.verification.enable (default true): a partition
//        leader verifies a producer's first transactional batch with the transaction coordinator
//        (AddPartitionsToTxn verifyOnly) before it appends it, and refuses one of a partition not in
//        the ongoing transaction (INVALID_TXN_STATE); Produce carries the transactional.id.
// 0.8.1: both (the per-partition queues and the verification), and the record ceiling (below 80% of
//        it nothing changes).
// 0.8.2: stray logs: a restarted broker that has caught up with the metadata removes the logs of
//        topics deleted, and of replicas moved away, while it was down (LogManager.isStrayKraftReplica);
//        BrokerMem.strayChecked, so state hashes changed, no golden event line.
// 0.8.3: memory bounds (kernel/memoryBounds.ts): a producer's failed ledger entries past its newest
//        1,000 leave the ledger, so a run past that bound hashes differently; the event log keeps its
//        newest 10,000 events (the hash counts every event logged, so that bound changes no hash).
// 0.8.4: producers back off from a broker whose connection failed (reconnect.backoff.ms, doubling up
//        to reconnect.backoff.max.ms, ±20%: clients/connectionBackoff.ts), as NetworkClient does, so
//        a broker that is down gets a few requests a second instead of every retried batch; the
//        retry backoff is truncated and capped at retry.backoff.max.ms as ExponentialBackoff does;
//        a producer's acks=0 ledger entries past its newest 1,000 leave the ledger (memory bounds),
//        so a run past that bound hashes differently.
// 0.8.5: a retried batch backs off as one (RecordAccumulator.shouldBackoff reads the batch's
//        attempts): one jittered retry backoff for its records, not one each, so its records are
//        retried together and the Sender wakes once for the batch.
// 0.8.6: producers and consumers pace their Metadata requests as Metadata.timeToAllowUpdate does
//        (retry.backoff.ms after an answer, doubling to retry.backoff.max.ms while the answers
//        change nothing), where a producer with a partition offline asked once a round trip.
// 0.8.7: no behaviour change (events, ledger and snapshots the same): the producer's
//        metadataRefreshedAtMs, always equal to metadataFetchedAtMs, is gone, so the state hash differs.
// 0.8.8: an idempotent producer retries one batch per partition at a time, as Kafka does
//        (RecordAccumulator.shouldStopDrainBatchesForPartition): a retried batch waits while a batch
//        of a lower sequence number is in flight, and so does every newer record of its partition.
//        Where every send is refused (min.insync.replicas out of reach) it sent up to
//        max.in.flight.requests.per.connection retried batches a partition. The Sender also no
//        longer wakes for the linger.ms of records that wait behind a retry or a metadata request,
//        and it runs right after delivery.timeout.ms expires records (Sender.sendProducerData).
export const ENGINE_VERSION = '0.8.8';

/** A partition leader's view of transactions (Simulation.stableOffsets). */
export interface StableOffsets {
  highWatermark: number;
  lastStableOffset: number;
  openTransactions: { producerId: number; firstOffset: number }[];
}

/** One line run through the cli command (Simulation.cliHistory). */
export interface CliRun {
  atMs: number;
  line: string;
  /** The tool exited with status 0. */
  ok: boolean;
}
const CLI_RUNS_MAX = 1000;

/** The problems of a refused command that its error names (validateCommand lists them all). */
const MAX_REFUSAL_ISSUES = 2;

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
    (copy as unknown as { cliRuns: CliRun[] }).cliRuns = [...this.cliRuns];
    (copy as unknown as { link: MirrorLink | null }).link = this.link
      ? { standby: this.link.standby.clone(), state: structuredClone(this.link.state) }
      : null;
    return copy;
  }

  constructor(scenario: Scenario) {
    const s = parseScenario(scenario);
    const w = buildWorld(s);
    this.w = w;
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
    if (issues.length) {
      // The first few problems: a command with a hundred bad fields is answered in a sentence or two.
      const shown = issues.slice(0, MAX_REFUSAL_ISSUES).map((i) => `${i.path}: ${i.message}`);
      if (issues.length > MAX_REFUSAL_ISSUES) shown.push(`and ${issues.length - MAX_REFUSAL_ISSUES} more`);
      return { ok: false, error: shown.join('; ') };
    }
    if (command.type === 'cli') return this.cli(command.line);
    // A refused command changes nothing, the seeded generators included: Kafka's controller may
    // draw a random start for the replica placer before it finds every broker fenced.
    // (Kept as numbers: a load applies a thousand produce commands a simulated second.)
    const { a, b, c, d } = this.w.rng;
    const idRng = this.w.idRng;
    const ia = idRng.a;
    const ib = idRng.b;
    const ic = idRng.c;
    const id = idRng.d;
    const error = command.type === 'loseRegion' ? this.loseRegion() : applyCommand(this.w, command);
    if (!error) return { ok: true };
    Object.assign(this.w.rng, { a, b, c, d });
    Object.assign(idRng, { a: ia, b: ib, c: ic, d: id });
    return { ok: false, error };
  }

  /**
   * A line of Kafka's tools (tools/index.ts). The tool reads the cluster as it is now; a line that
   * changes it goes through apply() as the page's command would, and leaves a CliCommand event.
   */
  private cli(line: string): CommandResult {
    const ran = runCli(line, {
      w: this.w,
      apply: (c) => {
        const result = this.apply(c);
        return result.ok ? null : result.error;
      },
      maxPartitions: LIMITS.maxPartitions,
    });
    const output = ran.output;
    this.cliRuns.push({ atMs: this.w.nowMs, line, ok: ran.exitCode === 0 });
    if (this.cliRuns.length > CLI_RUNS_MAX) this.cliRuns.splice(0, this.cliRuns.length - CLI_RUNS_MAX);
    if (ran.changed) {
      emit(this.w, 'CliCommand', `$ ${line}${output ? `\n${output}` : ''}`, { line, output });
      return { ok: true, output };
    }
    if (ran.exitCode !== 0) return { ok: false, error: output || `exit code ${ran.exitCode}`, output };
    return { ok: true, output, readOnly: true };
  }

  /**
   * The cli lines run, oldest first (the newest CLI_RUNS_MAX), with their virtual time and whether
   * the tool succeeded: for lessons that ask for a line. Beside the World, not in it: a line that only
   * reads changes nothing a replay must reproduce.
   */
  cliHistory(): readonly CliRun[] {
    return this.cliRuns;
  }
  private cliRuns: CliRun[] = [];

  snapshot(): Snapshot {
    const snapshot = buildSnapshot(this.w);
    if (this.link) snapshot.mirror = mirrorView(this.w, this.link.standby, this.link.state);
    return snapshot;
  }

  /** The newest events kept (kernel/memoryBounds.ts, EVENTS_KEPT); each event's `seq` numbers it in the run. */
  events(): readonly SimEvent[] {
    return this.w.events;
  }

  /** Events logged so far, kept or not: the `seq` of the next one (a cursor for eventsSince). */
  eventCount(): number {
    return eventCount(this.w);
  }

  /** The kept events whose `seq` is `seq` or more. */
  eventsSince(seq: number): readonly SimEvent[] {
    return eventsFromSeq(this.w.events, seq);
  }

  /** The oldest events no longer kept (past EVENTS_KEPT): a view says so. */
  eventsDropped(): number {
    return this.w.eventsDropped ?? 0;
  }

  /** Per producer, its oldest failed ledger entries no longer kept (past LEDGER_FAILED_KEPT). */
  failedDropped(): Map<string, number> {
    return failedDropped(this.w);
  }

  /** Per producer, its oldest acks=0 ledger entries no longer kept (past LEDGER_ACKS0_KEPT). */
  acks0Dropped(): Map<string, number> {
    return acks0Dropped(this.w);
  }

  ledger(): readonly LedgerEntry[] {
    return this.w.ledger;
  }

  /** Records held in full against the simulator's record ceiling, and what it forgot (kernel/recordCeiling.ts). */
  recordMemory(): RecordMemoryView {
    return recordMemory(this.w);
  }

  committedRecords(topic: string, partition: number): CommittedRecord[] {
    const p = clusterImage(this.w).partitions.get(tpKey(topic, partition));
    if (!p || p.leader < 0) return [];
    const disk = this.w.nodes.get(p.leader)?.disk.partitions.get(tpKey(topic, partition));
    if (!disk) return [];
    const out: CommittedRecord[] = [];
    for (
      let off = firstHeldOffset(disk.log);
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

  /**
   * A partition's log on each replica, offsets [fromOffset, fromOffset + count) (at most
   * PARTITION_LOG_MAX_WINDOW): records, log start offset, HW, LEO, the leader-epoch checkpoint and
   * what truncations removed; null for an unknown partition. Reads only.
   */
  partitionLog(topic: string, partition: number, fromOffset: number, count: number): PartitionLogView | null {
    return partitionLog(this.w, topic, partition, fromOffset, count);
  }

  /**
   * What the leader of `topic`-`partition` holds of transactions: its high watermark, its last
   * stable offset (below which read_committed consumers may read: the first offset of the oldest
   * open or undecided transaction, else the HW) and the first offset of each open transaction by
   * producer id; null without a leader. Reads only.
   */
  stableOffsets(topic: string, partition: number): StableOffsets | null {
    const p = clusterImage(this.w).partitions.get(tpKey(topic, partition));
    if (!p || p.leader < 0) return null;
    const disk = this.w.nodes.get(p.leader)?.disk.partitions.get(tpKey(topic, partition));
    if (!disk) return null;
    return {
      highWatermark: disk.highWatermark,
      lastStableOffset: lastStableOffset(disk),
      openTransactions: [...ongoingTransactions(disk)].map(([producerId, firstOffset]) => ({
        producerId,
        firstOffset,
      })),
    };
  }

  /** A produced record's journey from send() to its commit (or loss), in Kafka's words; null when the ledger no longer has it. */
  recordJourney(recordId: number): RecordJourneyView | null {
    return recordJourney(this.w, recordId);
  }

  /**
   * The messages of a time window for the message diagram (observe/messageDiagram.ts): filtered by
   * kind and partition, sampled where dense, each with a compact body. Reads only.
   */
  messageDiagram(query: MessageQuery): MessageDiagramView {
    return messageDiagram(this.w, query);
  }

  /** Each producer's sends of [fromMs, toMs] by outcome, and where an indefinite one landed (observe/clientHistory.ts). */
  clientHistory(fromMs: number, toMs: number): ClientHistoryView {
    return clientHistory(this.w, fromMs, toMs);
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
   * truncation, and every 10 simulated seconds otherwise. On more than 500 partitions a look between
   * those full passes checks only the partitions whose committed metadata just changed (the monitor's
   * sampleAbovePartitions). A clean run never violates them: a violation needs an
   * unclean election or a setting that allows one (unclean.leader.election.enable, acks=1 with a
   * leader that dies before its followers fetched).
   */
  watchInvariants(): this {
    if (!this.monitor) {
      this.monitor = new InvariantMonitor({ recheckIntervalMs: 10_000, sampleAbovePartitions: 500 });
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
    const lostAtMs = this.link?.state.lostAtMs ?? null;
    const cached = this.cachedContext;
    if (
      cached &&
      cached.offset === img.offset &&
      cached.nodes === this.w.nodes.size &&
      cached.lostAtMs === lostAtMs
    )
      return cached.ctx;
    const topics = new Map([...img.topics.values()].map((t) => [t.name, t.partitions]));
    const ctx: CommandContext = {
      mirror: !this.link ? 'none' : this.link.state.lostAtMs === null ? 'active' : 'lost',
      nodeIds: new Set(this.w.nodes.keys()),
      brokerIds: new Set([...this.w.nodes.values()].filter((n) => n.isBroker).map((n) => n.id)),
      topics,
      totalPartitions: img.partitions.size,
    };
    this.cachedContext = { offset: img.offset, nodes: this.w.nodes.size, lostAtMs, ctx };
    return ctx;
  }
  private cachedContext: {
    offset: number;
    nodes: number;
    lostAtMs: number | null;
    ctx: CommandContext;
  } | null = null;

  /** @internal for tests and invariants: the raw model. */
  get world(): World {
    return this.w;
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
