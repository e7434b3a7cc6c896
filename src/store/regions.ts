// View model of the Regions tab: the primary and the standby region, the mirror between them, its
// lag per partition and, once the primary region is lost, the failover report.
import type { MissingRecord, Snapshot } from '../sim/types';
import { formatSimTime } from './selectors';

export interface RegionNodeRow {
  id: number;
  /** "broker", "controller" or "broker + controller". */
  roles: string;
  rack: string | null;
  alive: boolean;
}

export interface RegionView {
  name: string;
  role: 'primary' | 'standby';
  /** False once the primary region is lost. */
  up: boolean;
  nodes: RegionNodeRow[];
}

export interface MirrorLagRow {
  key: string;
  /** "orders-0". */
  label: string;
  sourceCommitted: number;
  mirrored: number;
  lagRecords: number;
  lagMs: number;
  caughtUp: boolean;
}

export interface StandbyPartitionRow {
  key: string;
  label: string;
  /** "none" when offline. */
  leader: string;
  isr: string;
  highWatermark: number;
  offline: boolean;
}

export const STAGE_LABELS: Readonly<Record<MissingRecord['stage'], string>> = {
  'not-read': 'not yet read by MirrorMaker',
  'in-transit': 'on the wire between the regions',
  'not-acknowledged-by-standby': 'sent to the standby, not acknowledged there',
};

export interface MissingRecordRow {
  key: string;
  label: string;
  offset: number;
  recordKey: string;
  value: string;
  ackedAt: string;
  stage: string;
}

export interface FailoverView {
  lostAt: string;
  missingCount: number;
  windowMs: number;
  /** The newest acknowledgement the standby does have, or null. */
  newestMirroredAck: string | null;
  message: string;
  /** How many missing records were at each stage, stages with none left out. */
  stages: { stage: string; count: number }[];
  /** The newest missing records (the snapshot carries at most 500). */
  records: MissingRecordRow[];
}

export interface RegionsModel {
  primary: RegionView;
  standby: RegionView;
  topics: string[];
  crossRegionLatencyMs: number;
  pollIntervalMs: number;
  acks: string;
  /** The standby's active controller, or null when it has none. */
  standbyControllerId: number | null;
  lag: MirrorLagRow[];
  totalLagRecords: number;
  maxLagMs: number;
  standbyPartitions: StandbyPartitionRow[];
  regionLost: boolean;
  failover: FailoverView | null;
}

const rolesText = (roles: readonly string[]) => [...roles].sort().join(' + ');
const ids = (list: number[]) => (list.length ? list.join(', ') : 'none');

/** The Regions tab's model, or null when the scenario has no `mirror`. */
export function selectRegions(snapshot: Snapshot | null): RegionsModel | null {
  const m = snapshot?.mirror;
  if (!snapshot || !m) return null;
  const lag = m.lag.map((l) => ({
    key: `${l.topic}-${l.partition}`,
    label: `${l.topic}-${l.partition}`,
    sourceCommitted: l.sourceCommitted,
    mirrored: l.mirrored,
    lagRecords: l.lagRecords,
    lagMs: l.lagMs,
    caughtUp: l.lagRecords === 0,
  }));
  const f = m.failover;
  let failover: FailoverView | null = null;
  if (f) {
    failover = {
      lostAt: formatSimTime(f.lostAtMs),
      missingCount: f.missingCount,
      windowMs: f.windowMs,
      newestMirroredAck: f.newestMirroredAckMs >= 0 ? formatSimTime(f.newestMirroredAckMs) : null,
      message: f.message,
      stages: (Object.keys(STAGE_LABELS) as MissingRecord['stage'][])
        .filter((s) => f.byStage[s] > 0)
        .map((s) => ({ stage: STAGE_LABELS[s], count: f.byStage[s] })),
      records: f.missing.map((r) => ({
        key: `${r.topic}-${r.partition}@${r.offset}`,
        label: `${r.topic}-${r.partition}`,
        offset: r.offset,
        recordKey: r.key ?? 'null',
        value: r.value,
        ackedAt: formatSimTime(r.ackedAtMs),
        stage: STAGE_LABELS[r.stage],
      })),
    };
  }
  return {
    primary: {
      name: m.primaryRegion,
      role: 'primary',
      up: !m.regionLost,
      nodes: snapshot.nodes.map((n) => ({
        id: n.id,
        roles: rolesText(n.roles),
        rack: n.rack,
        alive: n.state === 'running',
      })),
    },
    standby: {
      name: m.standbyRegion,
      role: 'standby',
      up: true,
      nodes: m.standby.nodes.map((n) => ({
        id: n.id,
        roles: rolesText(n.roles),
        rack: n.rack,
        alive: n.alive,
      })),
    },
    topics: m.topics,
    crossRegionLatencyMs: m.crossRegionLatencyMs,
    pollIntervalMs: m.pollIntervalMs,
    acks: String(m.acks),
    standbyControllerId: m.standby.controllerId >= 0 ? m.standby.controllerId : null,
    lag,
    totalLagRecords: lag.reduce((a, l) => a + l.lagRecords, 0),
    maxLagMs: lag.reduce((a, l) => Math.max(a, l.lagMs), 0),
    standbyPartitions: m.standby.partitions.map((p) => ({
      key: `${p.topic}-${p.partition}`,
      label: `${p.topic}-${p.partition}`,
      leader: p.leader >= 0 ? String(p.leader) : 'none',
      isr: ids(p.isr),
      highWatermark: p.highWatermark,
      offline: p.leader < 0,
    })),
    regionLost: m.regionLost,
    failover,
  };
}
