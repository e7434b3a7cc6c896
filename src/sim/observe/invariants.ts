// Safety invariants of a Kafka cluster, checked after every step of a run: fed the simulation
// step by step, the monitor remembers what it has seen (leaders per epoch, committed metadata,
// committed records) so that it can tell when a later state contradicts an earlier one.
// Pure: it reads the simulation and keeps its own history; it never changes the simulation.
// After a rewind (a restored checkpoint) start a new monitor: its history is of the other timeline.
//
// What exactly must hold, and why (the committed view is the snapshot's metadata image):
// (a) leader-in-isr: leader ∈ ISR, or leader = -1. PartitionChangeBuilder elects only from the ISR,
//     or sets ISR = [leader] (ELR and unclean elections).
// (b) hw-le-leo: every replica's HW <= its own LEO (UnifiedLog.updateHighWatermark clamps it), and
//     likewise every metadata log's. Across replicas: the committed leader's HW <= the LEO of every
//     member of the committed ISR, and a broker acting as leader has HW <= the LEO of every member
//     of its maximal ISR. A replica joins the ISR only with LEO >= the leader's HW and >= the start
//     of the leader epoch (KIP-841), the HW never passes a maximal-ISR member's LEO, and truncation
//     (KIP-101/279) only removes a suffix above every clean leader's HW. It holds for crashed members
//     too: disks are durable here (a real power loss is why KAFKA-18106 drops such brokers from the
//     ISR). It need not hold for a follower's HW against other replicas (it lags one fetch behind),
//     nor for a new leader's HW against the old one's.
// (c) one-leader-per-epoch: per partition and leader epoch, one leader over the whole run, from
//     LeaderElected events, the committed metadata and the brokers' own replica states.
// (d) isr-within-replicas: ISR ⊆ replicas, ELR ⊆ replicas, ISR ∩ ELR = ∅ (KIP-966).
// (e) distinct-replicas.
// (f) one-quorum-leader-per-epoch: Raft election safety (KIP-595).
// (g) committed-metadata-kept: an entry below any node's metadata HW never changes on any node that
//     holds it below its own HW, and every quorum leader of a later epoch than the one that committed
//     it has it (Raft leader completeness).
// (h) metadata-applied-in-order: a node's applied metadata offset never decreases while it runs.
// Data: acked-records-kept (lostAcknowledged() has no acks=all record unless its partition had an
// unclean election) and committed-records-kept (a record once below a leader's HW stays at its
// offset on every later leader, same exception).
// Transactions (KIP-98): lso-le-hw (a replica's last stable offset is at most its HW, and no open
// transaction starts below it: UnifiedLog.lastStableOffset), read-committed-no-aborted (a
// read_committed consumer never returns a record of an aborted transaction, nor a control record:
// CompletedFetch), txn-markers-written (a completed transaction has its COMMIT or ABORT marker, of
// its producer, at the offset its coordinator was told, in every partition it touched).

import { entryAt, firstHeldOffset, logEndOffset } from '../model/log';
import { tpKey } from '../model/metadata';
import { clusterImage } from '../model/image';
import type { World } from '../model/world';
import type { CommittedRecord, LedgerEntry, NodeId, SimEvent } from '../model/types';
import type { InvariantView, Snapshot } from '../model/views';
import { buildInvariantView } from './snapshot';
import { hasTxnIndex, isAborted, lastStableOffset, ongoingTransactions } from '../broker/transactionIndex';

export interface Violation {
  invariant: string;
  message: string;
  topic?: string;
  partition?: number;
  nodeId?: number;
  timeMs: number;
}

/** What the monitor reads: the public surface, plus the raw model when there is one (tests, the worker). */
export interface ObservedSimulation {
  snapshot(): Snapshot;
  events(): readonly SimEvent[];
  lostAcknowledged(): LedgerEntry[];
  committedRecords(topic: string, partition: number): CommittedRecord[];
  readonly world?: World;
}

/** Stable ids: the UI names them, tests match on them. */
export const INVARIANTS = {
  leaderInIsr: 'leader-in-isr',
  hwBelowLeo: 'hw-le-leo',
  oneLeaderPerEpoch: 'one-leader-per-epoch',
  isrWithinReplicas: 'isr-within-replicas',
  distinctReplicas: 'distinct-replicas',
  oneQuorumLeaderPerEpoch: 'one-quorum-leader-per-epoch',
  committedMetadataKept: 'committed-metadata-kept',
  metadataAppliedInOrder: 'metadata-applied-in-order',
  ackedRecordsKept: 'acked-records-kept',
  committedRecordsKept: 'committed-records-kept',
  lsoBelowHw: 'lso-le-hw',
  readCommittedNoAborted: 'read-committed-no-aborted',
  txnMarkersWritten: 'txn-markers-written',
} as const;

interface CommittedMeta {
  epoch: number;
  type: string;
  /** Every quorum leader of a later epoch must hold it (a bound on the epoch that committed it). */
  committedBy: number;
}

export class InvariantMonitor {
  /**
   * `recheckIntervalMs` > 0: the checks that read everything held so far (the scan of the whole
   * ledger for acknowledged records, each committed record and metadata entry already checked) run
   * again only after a leader change, a truncation or a restart, or once that much simulated time
   * has passed; in between, only what is new since the last look is read. For a live run, where a
   * check of every record at every sample would slow playback more and more as the logs grow.
   * Tests keep 0: every observation checks everything.
   *
   * `sampleAbovePartitions` (with a recheck interval): on a cluster of more partitions than that,
   * a look between full passes checks only the partitions whose committed state (leader, leader
   * epoch, ISR, ELR, replicas) changed at this look or the one before; every partition is checked
   * at each full pass. A look at the large preset's 2,000 partitions took about 2 ms, which at 100×
   * was a fifth of the worker's time; a violation on a partition whose metadata did not move is
   * then seen within recheckIntervalMs instead of at the next look.
   */
  constructor(
    private readonly options: { recheckIntervalMs?: number; sampleAbovePartitions?: number } = {},
  ) {}

  /** `${tp}@${leaderEpoch}` -> leader. */
  private readonly partitionLeaders = new Map<string, NodeId>();
  /** tp -> the (leader epoch, leader) pair noted last, in partitionLeaders too: the quick way past a pair seen before. */
  private readonly lastLeaders = new Map<string, { epoch: number; leader: NodeId }>();
  /** tp -> the newest leader epoch seen anywhere (a snapshot can show an older committed image during a failover). */
  private readonly newestEpoch = new Map<string, number>();
  /** Raft epoch -> quorum leader. */
  private readonly quorumLeaders = new Map<number, NodeId>();
  /** Offset -> committed metadata entry. */
  private readonly committedMeta: CommittedMeta[] = [];
  /** Node -> last metadataOffset seen while it kept running. */
  private readonly metadataOffsets = new Map<NodeId, number>();
  /**
   * tp -> record id at each offset that was once below a leader's HW, from `base` on: offsets below
   * the leader's first held record (deleted by retention, forgotten by the record ceiling) are pruned.
   */
  private readonly committedRecordIds = new Map<string, OffsetIds>();
  /** Partitions that had an unclean election: acknowledged data may be lost there, by design. */
  private readonly uncleanPartitions = new Set<string>();
  /** The newest committed metadata offset any view has shown. */
  private newestViewOffset = -1;
  /** This step's snapshot shows an older committed image than one seen before (no voter runs, or one lags). */
  private staleView = false;
  /** The seq of the next event to read (events are read once, by seq: the oldest may be dropped). */
  private eventsSeen = 0;
  /** Events dropped before the monitor read them (kernel/memoryBounds.ts), so it can say so. */
  private eventsMissed = 0;
  private readonly history: Violation[] = [];
  private readonly reported = new Set<string>();
  /** tp -> the committed state object the last look saw (the image replaces it on every change). */
  private readonly seenStates = new Map<string, object>();
  /** tp -> the look at which its committed state last changed, while that is this look or the one before. */
  private readonly changedAt = new Map<string, number>();

  /** Record ids held for committed-records-kept, across partitions (a count, for a test). */
  get committedIdsHeld(): number {
    let n = 0;
    for (const o of this.committedRecordIds.values()) n += o.ids.length;
    return n;
  }

  /** Events logged and dropped before the monitor could read them (its checks of them are incomplete). */
  get missedEvents(): number {
    return this.eventsMissed;
  }

  /** Every distinct violation seen so far, first occurrence each. */
  get violations(): readonly Violation[] {
    return this.history;
  }

  /** Checks the simulation as it is now against everything seen before; returns what is violated now. */
  observe(sim: ObservedSimulation): Violation[] {
    const w = sim.world;
    const whole = w ? null : sim.snapshot();
    const timeMs = w ? w.nowMs : whole!.timeMs;
    const out: Violation[] = [];
    const report = (v: Omit<Violation, 'timeMs'>) => {
      const violation = { ...v, timeMs };
      out.push(violation);
      const key = `${v.invariant}|${v.topic ?? ''}|${v.partition ?? ''}|${v.nodeId ?? ''}|${v.message}`;
      if (!this.reported.has(key)) {
        this.reported.add(key);
        this.history.push(violation);
      }
    };
    const restarted = this.readEvents(sim.events(), report);
    const interval = this.options.recheckIntervalMs ?? 0;
    this.fullPass =
      interval <= 0 || timeMs - this.fullPassAtMs >= interval || this.truncationSeen || restarted.size > 0;
    if (this.fullPass) this.fullPassAtMs = timeMs;
    this.truncationSeen = false;
    // The model, when there is one, gives the part of a snapshot the checks read without the rest;
    // between full passes on a large cluster, only for the partitions whose metadata just moved.
    const changed = w ? this.changedPartitions(w) : null;
    const only = this.fullPass ? null : changed;
    const snap: InvariantView = w ? buildInvariantView(w, only) : whole!;
    this.noteGap(snap);
    // The snapshot shows the active controller's image, else the most advanced running node's: with
    // the quorum down that can be an image older than one already seen. Checks that compare the
    // committed view with the replicas' logs now would then compare with the past; they wait.
    const viewOffset = sim.world
      ? clusterImage(sim.world).offset
      : Math.max(-1, ...snap.nodes.filter((n) => n.state === 'running').map((n) => n.metadataOffset));
    this.staleView = viewOffset < this.newestViewOffset;
    this.newestViewOffset = Math.max(this.newestViewOffset, viewOffset);
    this.checkPartitions(snap, report);
    this.checkQuorumLeaders(snap, report);
    this.checkMetadataOffsets(snap, restarted, report);
    if (w) {
      this.checkReplicaLogs(w, report, only);
      this.checkLeaderViews(w, report, only);
      this.checkCommittedMetadata(w, report);
      this.checkStableOffsets(w, report, only);
      this.checkReadCommitted(w, report);
      this.checkMarkers(w, report);
    }
    this.checkCommittedRecords(sim, snap, report);
    this.checkAcknowledged(sim, snap, report);
    return out;
  }

  /**
   * With sampleAbovePartitions and more partitions than that: the partitions whose committed state
   * changed at this look or the one before (a broker applies a change a moment after the controller
   * commits it, so its own view is checked at the next look too). Null: every look checks them all.
   */
  private changedPartitions(w: World): ReadonlySet<string> | null {
    const above = this.options.sampleAbovePartitions;
    const img = clusterImage(w);
    if (above === undefined || !(this.options.recheckIntervalMs! > 0) || img.partitions.size <= above) {
      this.seenStates.clear();
      this.changedAt.clear();
      return null;
    }
    if (this.seenStates.size > img.partitions.size) this.seenStates.clear(); // partitions were deleted
    for (const [tp, state] of img.partitions) {
      if (this.seenStates.get(tp) === state) continue;
      this.seenStates.set(tp, state);
      this.changedAt.set(tp, this.looks);
    }
    const keys = new Set<string>();
    for (const [tp, look] of this.changedAt) {
      if (look < this.looks - 1) this.changedAt.delete(tp);
      else keys.add(tp);
    }
    return keys;
  }

  /** Per node, the end of the metadata entries below its HW checked at its last look. */
  private readonly metaCheckedEnd = new Map<NodeId, number>();
  /** The quorum leader last checked for leader completeness, and how many committed entries it had. */
  private leaderChecked: { id: NodeId; epoch: number; upTo: number } | null = null;
  /** This look checks everything held again (see recheckIntervalMs). */
  private fullPass = true;
  private fullPassAtMs = -Infinity;
  /** A LogTruncated event (or events dropped unread) since the last look. */
  private truncationSeen = false;

  /** During a quorum failover the snapshot may show an older committed image, whose leader may not have caught up yet. */
  private isStaleView(tp: string, leaderEpoch: number): boolean {
    return this.staleView || leaderEpoch < (this.newestEpoch.get(tp) ?? -1);
  }

  /** New events since the last call: leader elections, unclean elections, restarts. */
  private readEvents(events: readonly SimEvent[], report: Report): Set<NodeId> {
    const restarted = new Set<NodeId>();
    // Another timeline (fewer events than already read): start over.
    if ((events.at(-1)?.seq ?? -1) + 1 < this.eventsSeen) this.eventsSeen = 0;
    const first = events[0]?.seq ?? this.eventsSeen;
    if (first > this.eventsSeen) {
      // Events were dropped before the monitor read them: an unclean election among them would go
      // unseen. A monitor started late (its first look) checks from now on: the records lost
      // before it began are left out. Otherwise every partition whose leader epoch moved meanwhile
      // is treated as one that had an unclean election.
      this.eventsMissed += first - this.eventsSeen;
      this.truncationSeen = true;
      if (this.looks === 0) this.startedLate = true;
      else this.epochsBeforeGap = new Map(this.newestEpoch);
    }
    this.looks++;
    let i = 0;
    if (first < this.eventsSeen) {
      let hi = events.length;
      while (i < hi) {
        const mid = (i + hi) >>> 1;
        if (events[mid]!.seq < this.eventsSeen) i = mid + 1;
        else hi = mid;
      }
    }
    for (; i < events.length; i++) {
      const e = events[i]!;
      if (e.type === 'LeaderElected' && typeof e.topic === 'string' && typeof e.partition === 'number') {
        const tp = tpKey(e.topic, e.partition);
        if (e.election === 'unclean' || e.election === 'last-known-elr') {
          this.uncleanPartitions.add(tp);
          this.committedRecordIds.delete(tp);
        }
        this.notePartitionLeader(
          e.topic,
          e.partition,
          Number(e.leaderEpoch),
          Number(e.leader),
          'a LeaderElected event',
          report,
        );
      } else if (e.type === 'ControllerElected' && typeof e.nodeId === 'number') {
        this.noteQuorumLeader(Number(e.epoch), e.nodeId, 'a ControllerElected event', report);
      } else if (e.type === 'TopicCreated' && typeof e.topic === 'string') {
        // A topic created again under the same name starts its epochs and offsets afresh.
        const prefix = `${e.topic}-`;
        for (const k of [...this.partitionLeaders.keys()])
          if (k.startsWith(prefix) && /^\d+@/.test(k.slice(prefix.length))) this.partitionLeaders.delete(k);
        for (const m of [this.committedRecordIds, this.newestEpoch, this.lastLeaders])
          for (const k of [...m.keys()])
            if (k.startsWith(prefix) && /^\d+$/.test(k.slice(prefix.length))) m.delete(k);
      } else if (e.type === 'LogTruncated') {
        this.truncationSeen = true;
      } else if ((e.type === 'NodeRestarted' || e.type === 'NodeAdded') && typeof e.nodeId === 'number') {
        restarted.add(e.nodeId);
      }
    }
    this.eventsSeen = (events.at(-1)?.seq ?? this.eventsSeen - 1) + 1;
    return restarted;
  }

  /** The leader epochs known when events went unread; the partitions past them since, as unclean ones. */
  private epochsBeforeGap: Map<string, number> | null = null;
  private looks = 0;
  /** Started on a run whose first events were dropped: what was lost before is not its to tell. */
  private startedLate = false;
  private lostAtStart: Set<number> | null = null;

  private noteGap(snap: InvariantView): void {
    const before = this.epochsBeforeGap;
    if (!before) return;
    this.epochsBeforeGap = null;
    for (const p of snap.partitions) {
      const tp = tpKey(p.topic, p.partition);
      if (p.leaderEpoch > (before.get(tp) ?? -1)) {
        this.uncleanPartitions.add(tp);
        this.committedRecordIds.delete(tp);
      }
    }
  }

  private notePartitionLeader(
    topic: string,
    partition: number,
    epoch: number,
    leader: NodeId,
    source: string | (() => string),
    report: Report,
    tp = tpKey(topic, partition),
  ): void {
    if (!Number.isFinite(epoch)) return;
    // The pair noted last for the partition, seen again (nearly every look): nothing new to note.
    const last = this.lastLeaders.get(tp);
    if (last !== undefined && last.epoch === epoch && last.leader === leader) return;
    if (epoch > (this.newestEpoch.get(tp) ?? -1)) this.newestEpoch.set(tp, epoch);
    if (leader < 0) return;
    if (last) {
      last.epoch = epoch;
      last.leader = leader;
    } else this.lastLeaders.set(tp, { epoch, leader });
    const key = `${tp}@${epoch}`;
    const seen = this.partitionLeaders.get(key);
    if (seen === undefined) this.partitionLeaders.set(key, leader);
    else if (seen !== leader)
      report({
        invariant: INVARIANTS.oneLeaderPerEpoch,
        message: `${tpKey(topic, partition)} has two leaders in leader epoch ${epoch}: broker ${seen}, and broker ${leader} (from ${typeof source === 'string' ? source : source()}).`,
        topic,
        partition,
        nodeId: leader,
      });
  }

  private noteQuorumLeader(epoch: number, leader: NodeId, source: string, report: Report): void {
    const seen = this.quorumLeaders.get(epoch);
    if (seen === undefined) this.quorumLeaders.set(epoch, leader);
    else if (seen !== leader)
      report({
        invariant: INVARIANTS.oneQuorumLeaderPerEpoch,
        message: `The KRaft quorum has two leaders in epoch ${epoch}: controller ${seen}, and controller ${leader} (from ${source}).`,
        nodeId: leader,
      });
  }

  /** (a), (b) in the committed view, (c), (d), (e): the committed metadata of every partition. */
  private checkPartitions(snap: InvariantView, report: Report): void {
    for (const p of snap.partitions) {
      const where = { topic: p.topic, partition: p.partition };
      const tp = tpKey(p.topic, p.partition);
      // Allocation-free checks first (2,000 partitions a simulated second in the large preset); the
      // lists a message names are built only for a violation.
      if (hasDuplicate(p.replicas))
        report({
          invariant: INVARIANTS.distinctReplicas,
          message: `${tp} has replicas [${p.replicas}]: a broker appears twice.`,
          ...where,
        });
      const outside =
        notAllIn(p.isr, p.replicas) || notAllIn(p.elr, p.replicas)
          ? [...p.isr, ...p.elr].filter((r) => !p.replicas.includes(r))
          : NONE;
      if (outside.length)
        report({
          invariant: INVARIANTS.isrWithinReplicas,
          message: `${tp}: ISR [${p.isr}] / ELR [${p.elr}] name broker(s) [${outside}] that are not replicas [${p.replicas}].`,
          ...where,
        });
      // KIP-966: ELR = ELR ∪ old ISR − new ISR, so a broker is never in both.
      const both = p.elr.length === 0 ? NONE : p.elr.filter((r) => p.isr.includes(r));
      if (both.length)
        report({
          invariant: INVARIANTS.isrWithinReplicas,
          message: `${tp}: broker(s) [${both}] are in both the ISR [${p.isr}] and the ELR [${p.elr}].`,
          ...where,
        });
      if (p.leader !== -1 && !p.isr.includes(p.leader))
        report({
          invariant: INVARIANTS.leaderInIsr,
          message: `${tp}: leader ${p.leader} (leader epoch ${p.leaderEpoch}) is not in the ISR [${p.isr}].`,
          ...where,
          nodeId: p.leader,
        });
      this.notePartitionLeader(
        p.topic,
        p.partition,
        p.leaderEpoch,
        p.leader,
        'the committed metadata',
        report,
        tp,
      );
      if (p.leader === -1) continue;
      // (b), committed view. A replica joins the ISR only with LEO >= the leader's HW and >= the
      // start offset of the current leader epoch (KIP-841, Partition.isFollowerInSync); while it is
      // in the ISR the leader's HW cannot pass its LEO (Partition.maybeIncrementLeaderHW), and KIP-101/279
      // truncation removes only a suffix no clean leader's HW ever covered. So the committed leader's
      // HW <= the LEO of every committed ISR member, alive or not: disks here are durable, so a crash
      // loses no log (a real power loss can, which is why KAFKA-18106 drops such a broker from the ISR).
      const leaderLog = p.replicaLogs.find((r) => r.brokerId === p.leader);
      if (!leaderLog || this.staleView) continue;
      for (const r of p.replicaLogs) {
        if (!p.isr.includes(r.brokerId) || r.logEndOffset >= leaderLog.highWatermark) continue;
        report({
          invariant: INVARIANTS.hwBelowLeo,
          message: `${tp}: leader ${p.leader} has HW ${leaderLog.highWatermark}, above the LEO ${r.logEndOffset} of ISR member ${r.brokerId} (ISR [${p.isr}]).`,
          ...where,
          nodeId: r.brokerId,
        });
      }
    }
  }

  /** (f): one quorum leader per epoch. */
  private checkQuorumLeaders(snap: InvariantView, report: Report): void {
    for (const v of snap.quorum.voters)
      if (v.state === 'leader') this.noteQuorumLeader(v.epoch, v.id, "the voters' states", report);
  }

  /** (h): metadataOffset never decreases while a node keeps running; a restart starts it again. */
  private checkMetadataOffsets(snap: InvariantView, restarted: Set<NodeId>, report: Report): void {
    for (const n of snap.nodes) {
      if (n.state !== 'running' || restarted.has(n.id)) {
        if (n.state === 'running') this.metadataOffsets.set(n.id, n.metadataOffset);
        else this.metadataOffsets.delete(n.id);
        continue;
      }
      const before = this.metadataOffsets.get(n.id);
      if (before !== undefined && n.metadataOffset < before)
        report({
          invariant: INVARIANTS.metadataAppliedInOrder,
          message: `Node ${n.id} had applied metadata up to offset ${before} and now only up to ${n.metadataOffset}, without a restart.`,
          nodeId: n.id,
        });
      this.metadataOffsets.set(n.id, Math.max(n.metadataOffset, before ?? -1));
    }
  }

  /** (b), each replica: its own HW <= its own LEO (UnifiedLog.updateHighWatermark clamps to the LEO), running or not. */
  private checkReplicaLogs(w: World, report: Report, only: ReadonlySet<string> | null): void {
    for (const node of w.nodes.values()) {
      for (const [tp, disk] of only ? held(node.disk.partitions, only) : node.disk.partitions) {
        const leo = logEndOffset(disk.log);
        if (disk.highWatermark > leo)
          report({
            invariant: INVARIANTS.hwBelowLeo,
            message: `Broker ${node.id}'s replica of ${tp} has HW ${disk.highWatermark} above its own LEO ${leo}.`,
            nodeId: node.id,
          });
      }
      const raft = node.state === 'running' ? node.raft : null;
      if (raft && raft.highWatermark > logEndOffset(node.disk.metaLog))
        report({
          invariant: INVARIANTS.hwBelowLeo,
          message: `Node ${node.id}'s metadata log has HW ${raft.highWatermark} above its own LEO ${logEndOffset(node.disk.metaLog)}.`,
          nodeId: node.id,
        });
    }
  }

  /**
   * (b) and (c) as each leader sees it. A broker acting as leader: its HW <= the LEO of every member
   * of its maximal ISR (committed ISR ∪ the ISR of an AlterPartition in flight), the set
   * Partition.maybeIncrementLeaderHW takes the minimum over. And at most one broker acts as leader
   * in a leader epoch: brokers learn leaderships only from the committed metadata.
   */
  private checkLeaderViews(w: World, report: Report, only: ReadonlySet<string> | null): void {
    for (const node of w.nodes.values()) {
      if (node.state !== 'running' || !node.broker) continue;
      const source = () => `broker ${node.id}'s own replica state`;
      for (const [tp, mem] of only ? held(node.broker.replicas, only) : node.broker.replicas) {
        if (mem.role !== 'leader') continue;
        this.notePartitionLeader(mem.topic, mem.partition, mem.leaderEpoch, node.id, source, report, tp);
        // After an unclean election a deposed leader may hold a HW no replica backs any more.
        if (this.uncleanPartitions.has(tp)) continue;
        const hw = node.disk.partitions.get(tp)?.highWatermark ?? 0;
        if (hw === 0) continue; // no LEO is below 0
        // The maximal ISR in order (the committed ISR, then the pending one's other members), with
        // nothing allocated unless a member is behind: this runs for every leader at every look.
        const pending = mem.pendingIsr ?? NONE;
        const isr = mem.isr;
        for (let i = 0; i < isr.length + pending.length; i++) {
          const r = i < isr.length ? isr[i]! : pending[i - isr.length]!;
          const first = isr.indexOf(r);
          if ((first >= 0 ? first : isr.length + pending.indexOf(r)) !== i) continue; // seen before
          const log = w.nodes.get(r)?.disk.partitions.get(tp)?.log;
          const leo = log ? logEndOffset(log) : 0;
          if (leo < hw)
            report({
              invariant: INVARIANTS.hwBelowLeo,
              message: `${tp}: broker ${node.id} leads at leader epoch ${mem.leaderEpoch} with HW ${hw}, above the LEO ${leo} of broker ${r} in its maximal ISR [${[...new Set([...isr, ...pending])]}].`,
              topic: mem.topic,
              partition: mem.partition,
              nodeId: r,
            });
        }
      }
    }
  }

  /**
   * (g): the metadata log below any node's HW is committed and never changes; Raft's leader
   * completeness: every quorum leader of a later epoch than the one that committed an entry has it.
   */
  private checkCommittedMetadata(w: World, report: Report): void {
    const nodes = [...w.nodes.values()].filter((n) => n.state === 'running' && n.raft);
    for (const n of nodes) {
      const log = n.disk.metaLog;
      const end = Math.min(n.raft!.highWatermark, logEndOffset(log));
      // Between full passes, only the entries newly below this node's HW (see recheckIntervalMs).
      const checked = this.fullPass ? -1 : (this.metaCheckedEnd.get(n.id) ?? -1);
      const from =
        checked >= 0 && checked <= end ? Math.max(log.logStartOffset, checked) : log.logStartOffset;
      this.metaCheckedEnd.set(n.id, end);
      for (let off = from; off < end; off++) {
        const e = entryAt(log, off);
        if (!e) continue;
        const known = this.committedMeta[off];
        if (!known) {
          // A node's HW comes from a leader of its epoch or earlier, so this bounds the committing epoch.
          this.committedMeta[off] = { epoch: e.epoch, type: e.record.type, committedBy: n.disk.quorumEpoch };
        } else if (known.epoch !== e.epoch || known.type !== e.record.type) {
          report({
            invariant: INVARIANTS.committedMetadataKept,
            message: `Node ${n.id} holds ${e.record.type} of epoch ${e.epoch} at metadata offset ${off}, below its HW ${n.raft!.highWatermark}, but ${known.type} of epoch ${known.epoch} was committed there.`,
            nodeId: n.id,
          });
        } else if (n.disk.quorumEpoch < known.committedBy) {
          known.committedBy = n.disk.quorumEpoch;
        }
      }
    }
    for (const n of nodes) {
      if (n.raft!.role !== 'leader') continue;
      const epoch = n.disk.quorumEpoch;
      const log = n.disk.metaLog;
      // The same leader in the same epoch had the entries up to its last look (see recheckIntervalMs).
      const seen = this.leaderChecked;
      const from = !this.fullPass && seen && seen.id === n.id && seen.epoch === epoch ? seen.upTo : 0;
      this.leaderChecked = { id: n.id, epoch, upTo: this.committedMeta.length };
      for (let off = from; off < this.committedMeta.length; off++) {
        const known = this.committedMeta[off];
        if (!known || known.committedBy >= epoch || off < log.logStartOffset) continue;
        const e = entryAt(log, off);
        if (!e || e.epoch !== known.epoch || e.record.type !== known.type) {
          report({
            invariant: INVARIANTS.committedMetadataKept,
            message: `Controller ${n.id} leads the quorum in epoch ${epoch} without the committed metadata record at offset ${off} (${known.type}, epoch ${known.epoch}); it has ${e ? `${e.record.type} of epoch ${e.epoch}` : 'nothing'} there.`,
            nodeId: n.id,
          });
          break;
        }
      }
    }
  }

  /**
   * Records below a leader's HW are committed: every later clean leader has them at the same offset
   * (HW only covers what every maximal-ISR member has; clean leaders come from the ISR or the ELR).
   */
  private checkCommittedRecords(sim: ObservedSimulation, snap: InvariantView, report: Report): void {
    const w = sim.world;
    const full = this.fullPass;
    for (const p of snap.partitions) {
      if (p.leader === -1) continue;
      const tp = tpKey(p.topic, p.partition);
      if (this.uncleanPartitions.has(tp) || this.isStaleView(tp, p.leaderEpoch)) continue;
      let held = this.committedRecordIds.get(tp);
      if (!held) this.committedRecordIds.set(tp, (held = { base: 0, ids: [], leader: -1, leaderEpoch: -1 }));
      const where = { topic: p.topic, partition: p.partition, nodeId: p.leader };
      const disk = w?.nodes.get(p.leader)?.disk.partitions.get(tp);
      if (!disk) {
        const first = p.replicaLogs.find((r) => r.brokerId === p.leader)?.logStartOffset;
        if (first !== undefined) pruneBelow(held, first);
        for (const r of sim.committedRecords(p.topic, p.partition)) {
          if (r.offset < held.base) continue;
          const want = held.ids[r.offset - held.base];
          if (want === undefined) held.ids[r.offset - held.base] = r.recordId;
          else if (want !== r.recordId)
            report({
              invariant: INVARIANTS.committedRecordsKept,
              message: `${tp}: offset ${r.offset} now holds record ${r.recordId}, where committed record ${want} was.`,
              ...where,
            });
        }
        continue;
      }
      const log = disk.log;
      const firstHeld = firstHeldOffset(log);
      pruneBelow(held, firstHeld);
      const leo = logEndOffset(log);
      const end = Math.min(disk.highWatermark, leo);
      // What was checked stays as it was unless the leader changed or its log lost a suffix (a
      // truncation): then, on every look in tests and at least every recheckIntervalMs in a live run,
      // each record held is checked again; otherwise only the newly committed ones are read.
      const heldEnd = held.base + held.ids.length;
      const recheck = full || held.leader !== p.leader || held.leaderEpoch !== p.leaderEpoch || leo < heldEnd;
      held.leader = p.leader;
      held.leaderEpoch = p.leaderEpoch;
      const { base, ids } = held;
      if (recheck)
        for (let off = Math.max(base, firstHeld); off < heldEnd; off++) {
          const want = ids[off - base];
          if (want === undefined) {
            if (off < end) ids[off - base] = entryAt(log, off)!.id;
            continue;
          }
          const got = off < leo ? entryAt(log, off)?.id : undefined;
          if (got !== want) {
            report({
              invariant: INVARIANTS.committedRecordsKept,
              message: `${tp}: leader ${p.leader} (leader epoch ${p.leaderEpoch}) has ${got === undefined ? 'no record' : `record ${got}`} at offset ${off}, where committed record ${want} was.`,
              ...where,
            });
            break;
          }
        }
      for (let off = Math.max(heldEnd, firstHeld); off < end; off++) ids[off - base] = entryAt(log, off)!.id;
    }
  }

  /** lso-le-hw, on every replica whose transactions are indexed (a transaction or a read_committed fetch touched it). */
  private checkStableOffsets(w: World, report: Report, only: ReadonlySet<string> | null): void {
    for (const node of w.nodes.values())
      for (const [tp, disk] of only ? held(node.disk.partitions, only) : node.disk.partitions) {
        if (!hasTxnIndex(disk)) continue;
        const lso = lastStableOffset(disk);
        const open = Math.min(Infinity, ...ongoingTransactions(disk).values());
        if (lso > disk.highWatermark || open < lso)
          report({
            invariant: INVARIANTS.lsoBelowHw,
            message: `Broker ${node.id}'s replica of ${tp} has last stable offset ${lso}, ${lso > disk.highWatermark ? `above its HW ${disk.highWatermark}` : `past the open transaction that starts at ${open}`}.`,
            nodeId: node.id,
          });
      }
  }

  /** How many of each group's consumed records were checked (consumedCount, which the trace trims). */
  private readonly consumedChecked = new Map<string, number>();

  /** read-committed-no-aborted: each record a read_committed consumer returned, checked once against the log it came from. */
  private checkReadCommitted(w: World, report: Report): void {
    for (const [groupId, trace] of w.consumedTrace) {
      const total = w.consumedCount.get(groupId) ?? trace.length;
      const checked = this.consumedChecked.get(groupId) ?? 0;
      this.consumedChecked.set(groupId, total);
      if (total <= checked) continue;
      const img = clusterImage(w);
      for (const v of trace.slice(Math.max(0, trace.length - (total - checked)))) {
        if (w.consumers.get(v.consumerId)?.config['isolation.level'] !== 'read_committed') continue;
        const tp = tpKey(v.topic, v.partition);
        const leader = img.partitions.get(tp)?.leader ?? -1;
        const disk = w.nodes.get(leader)?.disk.partitions.get(tp);
        const r = disk ? entryAt(disk.log, v.offset) : undefined;
        if (!disk || !r || r.id !== v.recordId) continue;
        if (r.control || (r.transactional && isAborted(disk, r.pid, v.offset)))
          report({
            invariant: INVARIANTS.readCommittedNoAborted,
            message: `${v.consumerId} (isolation.level=read_committed, group ${groupId}) returned ${r.control ? `the ${r.control} marker` : `record ${r.id} (${r.value}) of an aborted transaction of producer id ${r.pid}`} at ${tp} offset ${v.offset}.`,
            topic: v.topic,
            partition: v.partition,
          });
      }
    }
  }

  private completedChecked = 0;

  /** txn-markers-written: each transaction completed since the last look, once. */
  private checkMarkers(w: World, report: Report): void {
    const done = w.completedTxns ?? [];
    if (this.completedChecked > done.length) this.completedChecked = 0;
    const img = clusterImage(w);
    for (const t of done.slice(this.completedChecked)) {
      for (const [tp, offset] of Object.entries(t.markers)) {
        const leader = img.partitions.get(tp)?.leader ?? -1;
        const disk = w.nodes.get(leader)?.disk.partitions.get(tp);
        if (!disk || offset < firstHeldOffset(disk.log)) continue;
        const r = entryAt(disk.log, offset);
        const want = t.committed ? 'COMMIT' : 'ABORT';
        if (!r || r.control !== want || r.pid !== t.producerId)
          report({
            invariant: INVARIANTS.txnMarkersWritten,
            message: `The ${t.committed ? 'committed' : 'aborted'} transaction of ${t.transactionalId} (producer id ${t.producerId}) has no ${want} marker at ${tp} offset ${offset} on leader ${leader}.`,
            nodeId: leader,
          });
      }
    }
    this.completedChecked = done.length;
  }

  private ackScanSignature = '';

  /**
   * With clean elections no acks=all record is lost: it was acknowledged once the HW passed it, so
   * every maximal-ISR member had it, and clean leaders come from the ISR or the ELR (KIP-966). With
   * durable disks this holds for any min.insync.replicas; min.insync.replicas >= 2 is what keeps such
   * writes available through one failure. Unclean elections lose them by design (semantics §4).
   */
  private checkAcknowledged(sim: ObservedSimulation, snap: InvariantView, report: Report): void {
    // The ledger scan is the costly part: do it when a leader changed or a log was truncated (the
    // only ways a record can leave its offset), and on every full pass (at least every
    // recheckIntervalMs; a truncation, a restart or events dropped unread make one).
    // Every partition, also when this look's view holds only some (see sampleAbovePartitions).
    const all = sim.world ? [...clusterImage(sim.world).partitions.values()] : snap.partitions;
    let epochSum = 0;
    for (const p of all) epochSum += p.leaderEpoch + 1;
    const signature = `${all.length}/${epochSum}`;
    if (!this.fullPass && signature === this.ackScanSignature) return;
    this.ackScanSignature = signature;
    const epochs = new Map(all.map((p) => [tpKey(p.topic, p.partition), p.leaderEpoch]));
    const lost = sim.lostAcknowledged();
    if (this.startedLate && !this.lostAtStart) this.lostAtStart = new Set(lost.map((e) => e.recordId));
    for (const e of lost) {
      if (this.lostAtStart?.has(e.recordId)) continue;
      const tp = tpKey(e.topic, e.partition);
      if (e.acks !== 'all' || this.uncleanPartitions.has(tp) || this.isStaleView(tp, epochs.get(tp) ?? -1))
        continue;
      report({
        invariant: INVARIANTS.ackedRecordsKept,
        message: `${tpKey(e.topic, e.partition)}: record ${e.recordId} (${e.value}) acknowledged with acks=all at offset ${e.offset} is lost without an unclean election.`,
        topic: e.topic,
        partition: e.partition,
      });
    }
  }
}

type Report = (v: Omit<Violation, 'timeMs'>) => void;

/** The entries of `map` under the keys of `only`, in the order of `only`. */
function held<V>(map: ReadonlyMap<string, V>, only: ReadonlySet<string>): [string, V][] {
  const out: [string, V][] = [];
  for (const k of only) {
    const v = map.get(k);
    if (v !== undefined) out.push([k, v]);
  }
  return out;
}

/** Record ids by offset from `base` on (ids[i] is offset base + i). */
interface OffsetIds {
  base: number;
  ids: number[];
  /** The leader and leader epoch whose log the ids were last checked against. */
  leader: NodeId;
  leaderEpoch: number;
}

/** Drops the ids below `offset` once they are more than half the array (amortised: each id moves once or twice). */
function pruneBelow(held: OffsetIds, offset: number): void {
  if (held.ids.length === 0) {
    held.base = Math.max(held.base, offset);
    return;
  }
  if (offset >= held.base + held.ids.length) {
    // Every id held is below it: start again at it (no holes in the array).
    held.ids.length = 0;
    held.base = offset;
    return;
  }
  const dead = offset - held.base;
  if (dead <= 0 || dead * 2 < held.ids.length) return;
  held.ids.splice(0, dead);
  held.base += dead;
}

const NONE: readonly NodeId[] = [];

/** Whether a broker appears twice (new Set(list).size !== list.length, without the Set). */
function hasDuplicate(list: readonly NodeId[]): boolean {
  for (let i = 1; i < list.length; i++) if (list.indexOf(list[i]!) !== i) return true;
  return false;
}

/** Whether some member of `list` is not in `of`. */
function notAllIn(list: readonly NodeId[], of: readonly NodeId[]): boolean {
  for (const r of list) if (!of.includes(r)) return true;
  return false;
}
