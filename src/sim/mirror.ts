// More than one cluster: a standby cluster in another region, fed by a MirrorMaker-style client
// (MirrorMaker 2's MirrorSourceConnector: a consumer of the source cluster, a producer to the
// target), so that after losing the first region one can see which acknowledged records the
// standby never received. The two clusters are two independent simulations, each with its own
// controllers, brokers and metadata, advanced in lockstep on one virtual clock.
// Simplifications: MirrorMaker runs in the standby's region, reads committed records (below the
// source HW) every pollIntervalMs (records on the wire between the regions are lost with the first
// region, as on any cut link), and produces them to the same partition of a topic of the same
// name (MM2's IdentityReplicationPolicy); no offset translation, no checkpoints, no heartbeats topic.

import { entryAt, logEndOffset } from './log';
import { tpKey } from './metadata';
import type { Simulation } from './simulation';
import { createSimulation } from './simulation';
import { clusterImage } from './snapshot';
import type { Acks, Scenario } from './types';

export interface MirrorOptions {
  /** Topics to mirror; each is created in the standby (same partitions) if it does not exist. */
  topics: string[];
  /** One-way latency between the two regions, in virtual ms (default 40). */
  crossRegionLatencyMs?: number;
  /** How often MirrorMaker polls the source (default 100 ms). */
  pollIntervalMs?: number;
  /** The standby-side producer's acks (default "all"). */
  acks?: Acks;
  /** Client id of the MirrorMaker producer in the standby (default "mirror-maker"). */
  producerId?: string;
}

export interface MirrorEvent {
  timeMs: number;
  type: 'MirrorTopicCreated' | 'MirrorStarted' | 'RegionLost';
  message: string;
  topic?: string;
}

export interface MirrorLagView {
  topic: string;
  partition: number;
  /** Records committed in the source partition since mirroring began. */
  sourceCommitted: number;
  /** Of those, read by MirrorMaker. */
  read: number;
  /** Acknowledged by the standby cluster. */
  mirrored: number;
  /** Committed in the source, not yet acknowledged in the standby. */
  lagRecords: number;
  /** Age of the oldest such record (0 when caught up). */
  lagMs: number;
}

export interface MissingRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: string;
  ackedAtMs: number;
  /** Where it was when the region was lost. */
  stage: 'not-read' | 'in-transit' | 'not-acknowledged-by-standby';
}

export interface FailoverReport {
  lostAtMs: number;
  /** Records the primary acknowledged that the standby does not hold. */
  missing: MissingRecord[];
  /** The newest acknowledgement in the primary that the standby does have (-1 if none). */
  newestMirroredAckMs: number;
  /** From the oldest missing acknowledgement to the loss: the window of recent events the standby never saw. */
  windowMs: number;
  message: string;
}

interface InTransit {
  sourceRecordId: number;
  topic: string;
  partition: number;
  key: string | null;
  value: string;
  timestampMs: number;
  arriveAtMs: number;
}

interface PartitionMirror {
  /** Next source offset to read. */
  position: number;
  startOffset: number;
  read: number;
  /** Standby record ids produced, not yet acknowledged there, with their source timestamps. */
  pending: { standbyRecordId: number; timestampMs: number }[];
  mirrored: number;
}

/** Two clusters in two regions and the MirrorMaker between them; advance() moves both clocks together. */
export class MirroredClusters {
  readonly primary: Simulation;
  readonly standby: Simulation;
  private readonly topics: string[];
  private readonly latencyMs: number;
  private readonly pollMs: number;
  private readonly acks: Acks;
  private readonly producerId: string;
  private nextPollMs: number;
  private readonly inTransit: InTransit[] = [];
  private readonly parts = new Map<string, PartitionMirror>();
  /** Source record id → standby record id. */
  private readonly mapping = new Map<number, number>();
  private readonly created = new Set<string>();
  private lostAtMs: number | null = null;
  private lostInTransit: number[] = [];
  private readonly log: MirrorEvent[] = [];

  constructor(primary: Simulation, standby: Simulation, options: MirrorOptions) {
    if (primary.nowMs !== standby.nowMs)
      throw new RangeError('both clusters must be at the same virtual time');
    this.primary = primary;
    this.standby = standby;
    this.topics = [...options.topics];
    this.latencyMs = options.crossRegionLatencyMs ?? 40;
    this.pollMs = options.pollIntervalMs ?? 100;
    this.acks = options.acks ?? 'all';
    this.producerId = options.producerId ?? 'mirror-maker';
    this.nextPollMs = primary.nowMs + this.pollMs;
    this.note(
      'MirrorStarted',
      `MirrorMaker copies [${this.topics.join(', ')}] to the standby region, ${this.latencyMs} ms away, polling every ${this.pollMs} ms.`,
    );
  }

  get nowMs(): number {
    return this.primary.nowMs;
  }

  /** Advances both clusters and the MirrorMaker by `ms`. */
  advance(ms: number): this {
    const until = this.nowMs + ms;
    while (this.nowMs < until) {
      const arrival = this.inTransit.length ? this.inTransit[0]!.arriveAtMs : Infinity;
      const poll = this.lostAtMs === null ? this.nextPollMs : Infinity;
      const next = Math.min(until, Math.max(this.nowMs, Math.min(arrival, poll)));
      const step = next - this.nowMs;
      this.primary.advance(step);
      this.standby.advance(step);
      this.deliver();
      if (this.lostAtMs === null && this.nowMs >= this.nextPollMs) {
        this.poll();
        this.nextPollMs += this.pollMs;
      }
      if (step === 0 && next === until) break;
    }
    return this;
  }

  /** The whole first region goes dark: every primary node crashes and MirrorMaker can read no more. */
  loseRegion(): this {
    if (this.lostAtMs !== null) return this;
    this.lostAtMs = this.nowMs;
    // As on any cut link (kernel.ts), what is still on the wire from the lost region is lost with it.
    this.lostInTransit = this.inTransit.splice(0).map((t) => t.sourceRecordId);
    for (const n of this.primary.snapshot().nodes)
      if (n.state === 'running') this.primary.apply({ type: 'crashNode', nodeId: n.id });
    this.note(
      'RegionLost',
      'The primary region is lost: every node of the primary cluster is down. Clients fail over to the standby; records not yet mirrored are missing there.',
    );
    return this;
  }

  /** Per mirrored partition: how far behind the standby is. */
  lag(): MirrorLagView[] {
    this.settlePending();
    const out: MirrorLagView[] = [];
    const img = clusterImage(this.primary.world);
    for (const [key, m] of [...this.parts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const [topic, partition] = splitKey(key);
      const p = img.partitions.get(key);
      const disk =
        p && p.leader >= 0 ? this.primary.world.nodes.get(p.leader)?.disk.partitions.get(key) : undefined;
      const hw = disk ? Math.min(disk.highWatermark, logEndOffset(disk.log)) : m.position;
      const sourceCommitted = Math.max(m.read, hw - m.startOffset);
      let oldest = Infinity;
      for (const x of m.pending) oldest = Math.min(oldest, x.timestampMs);
      for (const t of this.inTransit)
        if (t.topic === topic && t.partition === partition) oldest = Math.min(oldest, t.timestampMs);
      if (disk && m.position < hw) {
        const rec = entryAt(disk.log, Math.max(m.position, disk.log.logStartOffset));
        if (rec) oldest = Math.min(oldest, rec.timestampMs);
      }
      out.push({
        topic,
        partition,
        sourceCommitted,
        read: m.read,
        mirrored: m.mirrored,
        lagRecords: sourceCommitted - m.mirrored,
        lagMs: oldest === Infinity ? 0 : Math.max(0, this.nowMs - oldest),
      });
    }
    return out;
  }

  /** After loseRegion(): the records the primary acknowledged that the standby never received. */
  failoverReport(): FailoverReport {
    this.settlePending();
    const lostAtMs = this.lostAtMs ?? this.nowMs;
    const transit = new Set([...this.inTransit.map((t) => t.sourceRecordId), ...this.lostInTransit]);
    const standbyLedger = this.standby.world.ledgerIndex;
    const missing: MissingRecord[] = [];
    let newestMirroredAckMs = -1;
    for (const e of this.primary.ledger()) {
      if (e.status !== 'acked' || e.offset < 0 || !this.topics.includes(e.topic)) continue;
      if (e.ackedAtMs! > lostAtMs) continue;
      const standbyId = this.mapping.get(e.recordId);
      const there = standbyId === undefined ? undefined : standbyLedger.get(standbyId);
      if (there && there.status === 'acked') {
        newestMirroredAckMs = Math.max(newestMirroredAckMs, e.ackedAtMs!);
        continue;
      }
      missing.push({
        topic: e.topic,
        partition: e.partition,
        offset: e.offset,
        key: e.key,
        value: e.value,
        ackedAtMs: e.ackedAtMs!,
        stage:
          standbyId !== undefined
            ? 'not-acknowledged-by-standby'
            : transit.has(e.recordId)
              ? 'in-transit'
              : 'not-read',
      });
    }
    const oldest = missing.reduce((a, m) => Math.min(a, m.ackedAtMs), Infinity);
    const windowMs = missing.length ? lostAtMs - oldest : 0;
    return {
      lostAtMs,
      missing,
      newestMirroredAckMs,
      windowMs,
      message: missing.length
        ? `The standby is missing ${missing.length} record(s) the primary had acknowledged, from the last ${windowMs} ms before the region was lost: mirroring is asynchronous.`
        : 'The standby holds every record the primary had acknowledged.',
    };
  }

  /** MirrorMaker's own event log (the clusters keep theirs: primary.events(), standby.events()). */
  events(): readonly MirrorEvent[] {
    return this.log;
  }

  /** A hash of both clusters and the mirror: equal runs give equal hashes. */
  stateHash(): string {
    return `${this.primary.stateHash()}:${this.standby.stateHash()}:${this.mapping.size}:${this.inTransit.length}`;
  }

  private note(type: MirrorEvent['type'], message: string, topic?: string): void {
    this.log.push({ timeMs: this.nowMs, type, message, ...(topic ? { topic } : {}) });
  }

  /** The MirrorSourceConnector's poll: committed records past each partition's position. */
  private poll(): void {
    const img = clusterImage(this.primary.world);
    const standbyImg = clusterImage(this.standby.world);
    for (const topic of this.topics) {
      const t = img.topics.get(topic);
      if (!t) continue;
      if (!standbyImg.topics.has(topic)) {
        this.createInStandby(topic, t.partitions);
        continue;
      }
      for (let partition = 0; partition < t.partitions; partition++) {
        const key = tpKey(topic, partition);
        const p = img.partitions.get(key);
        if (!p || p.leader < 0) continue;
        const node = this.primary.world.nodes.get(p.leader);
        if (!node || node.state !== 'running') continue;
        const disk = node.disk.partitions.get(key);
        if (!disk) continue;
        let m = this.parts.get(key);
        if (!m) {
          // A new mirror starts from the beginning of the log (auto.offset.reset=earliest, as MM2 does).
          m = {
            position: disk.log.logStartOffset,
            startOffset: disk.log.logStartOffset,
            read: 0,
            pending: [],
            mirrored: 0,
          };
          this.parts.set(key, m);
        }
        const hw = Math.min(disk.highWatermark, logEndOffset(disk.log));
        for (let off = Math.max(m.position, disk.log.logStartOffset); off < hw; off++) {
          const rec = entryAt(disk.log, off)!;
          this.inTransit.push({
            sourceRecordId: rec.id,
            topic,
            partition,
            key: rec.key,
            value: rec.value,
            timestampMs: rec.timestampMs,
            arriveAtMs: this.nowMs + this.latencyMs,
          });
          m.read++;
        }
        if (hw > m.position) m.position = hw;
      }
    }
  }

  private createInStandby(topic: string, partitions: number): void {
    if (this.created.has(topic)) return;
    const brokers = this.standby.snapshot().nodes.filter((n) => n.roles.includes('broker')).length;
    const rf = Math.min(3, brokers);
    const r = this.standby.apply({ type: 'createTopic', name: topic, partitions, replicationFactor: rf });
    if (!r.ok) return; // e.g. no active controller yet: try at the next poll
    this.created.add(topic);
    this.note(
      'MirrorTopicCreated',
      `MirrorMaker created ${topic} in the standby (${partitions} partitions, RF ${rf}).`,
      topic,
    );
  }

  /** Records that crossed the regions are produced to the standby, to the same partition. */
  private deliver(): void {
    while (this.inTransit.length && this.inTransit[0]!.arriveAtMs <= this.nowMs) {
      const t = this.inTransit.shift()!;
      const id = this.standby.world.nextRecordId;
      const r = this.standby.apply({
        type: 'produce',
        topic: t.topic,
        key: t.key,
        value: t.value,
        acks: this.acks,
        partition: t.partition,
        producerId: this.producerId,
      });
      if (!r.ok) continue;
      this.mapping.set(t.sourceRecordId, id);
      this.parts
        .get(tpKey(t.topic, t.partition))
        ?.pending.push({ standbyRecordId: id, timestampMs: t.timestampMs });
    }
  }

  private settlePending(): void {
    const ledger = this.standby.world.ledgerIndex;
    for (const m of this.parts.values()) {
      if (m.pending.length === 0) continue;
      m.pending = m.pending.filter((x) => {
        const e = ledger.get(x.standbyRecordId);
        if (e && e.status === 'acked') {
          m.mirrored++;
          return false;
        }
        return true;
      });
    }
  }
}

function splitKey(key: string): [string, number] {
  const i = key.lastIndexOf('-');
  return [key.slice(0, i), Number(key.slice(i + 1))];
}

/** A primary cluster, a standby cluster in another region, and MirrorMaker copying `options.topics`. */
export function createMirroredClusters(
  primary: Scenario,
  standby: Scenario,
  options: MirrorOptions,
): MirroredClusters {
  return new MirroredClusters(createSimulation(primary), createSimulation(standby), options);
}
