// The view models the canvas draws: plain data, one shape a kind of card or edge. The selectors
// in this folder build them; the components in src/canvas only read them.
import type { NodeId, VoterState } from '../../sim/types';

export type ReplicaRole = 'leader' | 'insync' | 'outofsync' | 'elr' | 'offline';
export type CutState = 'none' | 'partial' | 'isolated';

export interface ReplicaChip {
  /** "orders-0" */
  key: string;
  topic: string;
  partition: number;
  role: ReplicaRole;
  logEndOffset: number;
  highWatermark: number;
  /** The leader's log end offset, the scale of the LEO/HW bar. */
  scale: number;
  label: string;
}

export interface ReplicaCounts {
  leader: number;
  insync: number;
  outofsync: number;
  elr: number;
  offline: number;
}

/** `text` for a full card, `short` for a compact one (a large cluster). */
export interface FencedReason {
  text: string;
  short: string;
}

export interface BrokerPart {
  fenced: boolean;
  shuttingDown: boolean;
  brokerEpoch: number;
  /** Quorum HW − the broker's applied metadata offset; null while the node is down. */
  metadataLag: number | null;
  counts: ReplicaCounts;
  /** Null when collapsed (large clusters): counts only. */
  chips: ReplicaChip[] | null;
  /** Replicas not drawn as chips (internal topics, beyond MAX_CHIPS). */
  hiddenReplicas: number;
  /** Why a running broker is fenced, in Kafka's words (null when it is not): see fencedReason. */
  fencedReason: FencedReason | null;
}

export interface ControllerPart {
  voterState: VoterState;
  epoch: number;
  /** The voter's metadata log end offset. */
  logEndOffset: number;
  highWatermark: number;
  active: boolean;
}

export interface ClusterNodeData extends Record<string, unknown> {
  id: NodeId;
  rack: string;
  state: 'running' | 'crashed' | 'stopped';
  cut: CutState;
  compact: boolean;
  /** A tile (a cluster of more than TILE_ABOVE_BROKERS brokers): the id, a state glyph, counts. */
  tile: boolean;
  broker: BrokerPart | null;
  controller: ControllerPart | null;
  label: string;
  /** Set by the canvas on the selected node: the side its buttons float on. */
  actionsAt?: 'below' | 'right' | 'left' | 'above';
}

export interface ZoneData extends Record<string, unknown> {
  rack: string;
  nodeIds: NodeId[];
  label: string;
  /** Every node of the zone is cut off from the rest. */
  isolated: boolean;
  /** Every node of the zone is down (crashed or stopped): the zone is dark. */
  dark: boolean;
}

export interface ClientData extends Record<string, unknown> {
  /** 'standby': the standby region of a scenario with a mirror, a card beside the cluster. */
  clientKind: 'producer' | 'group' | 'standby';
  id: string;
  title: string;
  lines: string[];
  label: string;
}

export interface CanvasEdge {
  key: string;
  source: string;
  target: string;
  kind: 'produce' | 'consume' | 'coordinator' | 'cut';
  /** For cuts: one direction only (source → target is cut), or both. */
  oneWay?: boolean;
  label: string;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutNode extends Box {
  key: string;
  /** The zone group this node sits in (its position is relative to it), if any. */
  parent: string | null;
  /** Absolute position, for edges and animated messages. */
  absX: number;
  absY: number;
}
