// Public types of the engine: the scenario format, commands, snapshot, events and ledger.
// These names are a contract (ARCHITECTURE.md): tests, lessons and shared links depend on them.

export type NodeId = number;
export type Role = 'broker' | 'controller';
export type Acks = 0 | 1 | 'all';
export type ConfigValue = string | number | boolean;

export interface ScenarioNode {
  id: NodeId;
  roles: Role[];
  rack?: string;
}

export interface ScenarioTopic {
  name: string;
  partitions: number;
  replicationFactor: number;
  config?: Record<string, ConfigValue>;
  /** One replica list per partition; the first replica is the preferred leader. */
  assignment?: NodeId[][];
}

export interface LinkLatency {
  from: NodeId | string;
  to: NodeId | string;
  latencyMs: number;
}

export interface ScenarioNetwork {
  /** One-way latency of every link, in virtual milliseconds. */
  latencyMs?: number;
  /** Seeded uniform jitter added to each message, in [0, jitterMs). */
  jitterMs?: number;
  /** Per-link overrides of latencyMs (one direction each). */
  links?: LinkLatency[];
}

export interface ScriptStep {
  atMs: number;
  command: Command;
}

export interface Scenario {
  version: 1;
  seed: number;
  nodes: ScenarioNode[];
  config?: Record<string, ConfigValue>;
  network?: ScenarioNetwork;
  topics?: ScenarioTopic[];
  script?: ScriptStep[];
}

// ---- commands -------------------------------------------------------------

export interface CrashNode {
  type: 'crashNode';
  nodeId: NodeId;
}
export interface RestartNode {
  type: 'restartNode';
  nodeId: NodeId;
}
export interface ShutdownNode {
  type: 'shutdownNode';
  nodeId: NodeId;
}
export interface PartitionNetwork {
  type: 'partitionNetwork';
  groups: NodeId[][];
}
export interface CutLink {
  type: 'cutLink';
  from: NodeId | string;
  to: NodeId | string;
  oneWay?: boolean;
}
export interface HealNetwork {
  type: 'healNetwork';
}
export interface CreateTopic extends ScenarioTopic {
  type: 'createTopic';
}
export interface AlterConfig {
  type: 'alterConfig';
  resourceType: 'topic' | 'broker' | 'cluster';
  /** Topic name or broker id; omitted for the cluster-wide default. */
  resourceName?: string;
  /** Values to set; null deletes an override (incrementalAlterConfigs SET / DELETE). */
  configs: Record<string, ConfigValue | null>;
}
export interface Produce {
  type: 'produce';
  topic: string;
  key?: string | null;
  value: string;
  acks?: Acks;
  partition?: number;
  producerId?: string;
  /** How many records to send (each with the same key and value, numbered values if > 1). */
  count?: number;
}
export interface AddNode {
  type: 'addNode';
  nodeId: NodeId;
  roles: Role[];
  rack?: string;
}
export interface ElectLeaders {
  type: 'electLeaders';
  electionType: 'preferred' | 'unclean';
  /** Partitions to elect; all partitions when omitted. */
  partitions?: { topic: string; partition: number }[];
}

export type Command =
  | CrashNode
  | RestartNode
  | ShutdownNode
  | PartitionNetwork
  | CutLink
  | HealNetwork
  | CreateTopic
  | AlterConfig
  | Produce
  | AddNode
  | ElectLeaders;

export type CommandResult = { ok: true } | { ok: false; error: string };

// ---- snapshot -------------------------------------------------------------

export type NodeState = 'running' | 'crashed' | 'stopped';
export type VoterState =
  'leader' | 'follower' | 'candidate' | 'prospective' | 'unattached' | 'resigned' | 'offline';

export interface NodeView {
  id: NodeId;
  roles: Role[];
  rack: string | null;
  state: NodeState;
  /** As the active controller sees it (true for a broker that has not registered yet). */
  fenced: boolean;
  brokerEpoch: number;
  /** How far this node has applied the committed metadata log (-1 before anything). */
  metadataOffset: number;
  /** The node is in controlled shutdown. */
  shuttingDown: boolean;
}

export interface VoterView {
  id: NodeId;
  state: VoterState;
  epoch: number;
  logEndOffset: number;
  highWatermark: number;
  votedFor: NodeId | null;
  leaderId: NodeId | null;
}

export interface QuorumView {
  leaderId: NodeId | null;
  epoch: number;
  highWatermark: number;
  voters: VoterView[];
}

export interface TopicView {
  name: string;
  partitions: number;
  replicationFactor: number;
  config: Record<string, ConfigValue>;
}

export interface ReplicaLogView {
  brokerId: NodeId;
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
}

export interface PartitionView {
  topic: string;
  partition: number;
  replicas: NodeId[];
  leader: NodeId;
  leaderEpoch: number;
  isr: NodeId[];
  elr: NodeId[];
  /** The high watermark of the current leader's replica (what consumers can read). */
  highWatermark: number;
  replicaLogs: ReplicaLogView[];
}

export interface LinkCut {
  from: NodeId | string;
  to: NodeId | string;
}

export interface NetworkView {
  latencyMs: number;
  cuts: LinkCut[];
  /** Messages currently on the wire. */
  inFlight: number;
}

export interface ProducerView {
  id: string;
  sent: number;
  acknowledged: number;
  failed: Record<string, number>;
  retries: number;
  pending: number;
}

export interface ClientsView {
  producers: ProducerView[];
}

export interface Snapshot {
  timeMs: number;
  nodes: NodeView[];
  quorum: QuorumView;
  topics: TopicView[];
  partitions: PartitionView[];
  network: NetworkView;
  clients: ClientsView;
}

// ---- events ---------------------------------------------------------------

/** One line of the event log, in the words a Kafka operator would use. */
export interface SimEvent {
  seq: number;
  timeMs: number;
  type: string;
  /** The node the event happened on or is about, if any. */
  nodeId?: NodeId;
  topic?: string;
  partition?: number;
  /** A plain-words explanation, with Kafka's term in it. */
  message: string;
  [field: string]: unknown;
}

// ---- ledger ---------------------------------------------------------------

export interface ProduceAttempt {
  atMs: number;
  brokerId: NodeId;
  error?: string;
}

export interface LedgerEntry {
  /** Unique id of the record in this run. */
  recordId: number;
  producerId: string;
  topic: string;
  partition: number;
  /** -1 until acknowledged, and for acks=0 (as Kafka's client reports). */
  offset: number;
  key: string | null;
  value: string;
  acks: Acks;
  status: 'pending' | 'acked' | 'failed';
  error?: string;
  sentAtMs: number;
  ackedAtMs?: number;
  attempts: ProduceAttempt[];
}

export interface CommittedRecord {
  offset: number;
  key: string | null;
  value: string;
  leaderEpoch: number;
  recordId: number;
}

export interface ScenarioIssue {
  path: string;
  message: string;
}
