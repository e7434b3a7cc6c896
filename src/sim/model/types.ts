// Public types of the engine: the scenario format, commands, snapshot, events and ledger.
// These names are a contract (docs/architecture.md, the public surface): tests, lessons and shared links depend on them.

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
  security?: ScenarioSecurity;
  /** A standby cluster in another region, fed by MirrorMaker (see docs/scenario.md, "mirror"). */
  mirror?: ScenarioMirror;
}

/** The standby cluster: a KRaft cluster of its own (its own controllers, brokers and metadata). */
export interface ScenarioStandby {
  /** Node ids distinct from the primary cluster's. */
  nodes: ScenarioNode[];
  config?: Record<string, ConfigValue>;
  /** Latency inside the standby region. */
  network?: Omit<ScenarioNetwork, 'links'>;
  /** Seed of the standby's random number generator; default the scenario's seed + 1. */
  seed?: number;
  /** Name of the standby region (default "region-2"). */
  region?: string;
}

/** MirrorMaker-style asynchronous replication of chosen topics to a standby cluster. */
export interface ScenarioMirror {
  standby: ScenarioStandby;
  /** Topics of the scenario to mirror (same name, same partition in the standby). */
  topics: string[];
  /** Name of the primary region (default "region-1"). */
  primaryRegion?: string;
  /** One-way latency between the two regions, in virtual ms (default 40). */
  crossRegionLatencyMs?: number;
  /** How often MirrorMaker polls the primary (default 100 ms). */
  pollIntervalMs?: number;
  /** The acks of MirrorMaker's producer into the standby (default "all"). */
  acks?: Acks;
}

export type AclOperation = 'Read' | 'Write' | 'Describe' | 'All';
export type SecurityProtocol = 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';

/** One kafka-acls rule: `principal` may (allow) or may not (deny) do `operation` on the resource. */
export interface AclBinding {
  /** "User:alice", or "User:*" for every principal. */
  principal: string;
  operation: AclOperation;
  resourceType: 'topic' | 'group';
  /** A name, or "*" for every resource of the type (literal pattern). */
  resourceName: string;
  patternType?: 'literal' | 'prefixed';
  permission: 'allow' | 'deny';
}

/** Authentication and authorization (see docs/scenario.md, "security"). */
export interface ScenarioSecurity {
  /** Client id → the principal its connection authenticates as (SASL); others are "User:ANONYMOUS". */
  principals?: Record<string, string>;
  acls?: AclBinding[];
  /** The security protocol of the brokers' listener (what every link uses unless a client says otherwise). */
  listener?: SecurityProtocol;
  /** Per client id: the protocol its connection uses. */
  clientProtocols?: Record<string, SecurityProtocol>;
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

export interface ReassignPartitions {
  type: 'reassignPartitions';
  /** Per partition the target replicas (first = preferred leader), or null to cancel (AlterPartitionReassignments). */
  partitions: { topic: string; partition: number; replicas: NodeId[] | null }[];
}
export interface AddAcl extends AclBinding {
  type: 'addAcl';
}
export interface RemoveAcl extends AclBinding {
  type: 'removeAcl';
}

/** A continuous producer (KafkaProducer in a loop) at `ratePerSec` records per second. */
export interface StartProducer {
  type: 'startProducer';
  producerId: string;
  topic: string;
  /** Records per second, 0 to 10000 (0: idle, the produce command can still use it). */
  ratePerSec: number;
  /** Record key: a pattern where {n} counts 0..keyCount-1 in turn ("customer-{n}"); null for null keys. */
  keyPattern?: string | null;
  /** How many keys the pattern cycles through (default 10). */
  keyCount?: number;
  /** Default acks of its records; overrides config.acks. */
  acks?: Acks;
  /** Kafka producer configs by their names (ProducerConfig), e.g. {"linger.ms": 20, "bootstrap.servers": "4,5"}. */
  config?: Record<string, ConfigValue>;
  /**
   * With a transactional.id and ratePerSec > 0: the loop commits a transaction every transactionMs
   * (a simulator option, like Kafka Streams' commit.interval.ms; default 100 ms as under exactly-once).
   */
  transactionMs?: number;
}
/** Stops a producer: close() by default (an open transaction is aborted); graceful=false is a crash. */
export interface StopProducer {
  type: 'stopProducer';
  producerId: string;
  graceful?: boolean;
}
/** KafkaProducer.beginTransaction() of a transactional producer (startProducer with a transactional.id). */
export interface BeginTransaction {
  type: 'beginTransaction';
  producerId: string;
}
/** KafkaProducer.commitTransaction(): flush, then EndTxn(commit). */
export interface CommitTransaction {
  type: 'commitTransaction';
  producerId: string;
}
/** KafkaProducer.abortTransaction(): unsent records fail, then EndTxn(abort). */
export interface AbortTransaction {
  type: 'abortTransaction';
  producerId: string;
}
/** A KafkaConsumer in a group (subscribe + poll loop); the group is created when its first member joins. */
export interface StartConsumer {
  type: 'startConsumer';
  consumerId: string;
  groupId: string;
  topics: string[];
  /** Kafka consumer configs by their names (ConsumerConfig), e.g. {"auto.offset.reset": "earliest"}. */
  config?: Record<string, ConfigValue>;
  /**
   * A simulator option (Kafka has no config for it): the application commits the fetched position
   * before it processes the batch ("commit, then process": at most once). Default false.
   */
  commitBeforeProcess?: boolean;
  /** Processing time per polled batch, in ms (a simulator option; default 0). */
  processMs?: number;
}
/** Stops a consumer: gracefully (commit, LeaveGroup) by default; graceful=false is a crash (no LeaveGroup). */
export interface StopConsumer {
  type: 'stopConsumer';
  consumerId: string;
  graceful?: boolean;
}
/**
 * A consume-transform-produce processor (Kafka Streams, simplified): reads inputTopic in group
 * groupId, writes one record per input to outputTopic, commits every commitIntervalMs.
 */
export interface StartProcessor {
  type: 'startProcessor';
  processorId: string;
  groupId: string;
  inputTopic: string;
  outputTopic: string;
  /** Kafka Streams' processing.guarantee (default at_least_once). */
  processingGuarantee?: 'at_least_once' | 'exactly_once_v2';
  /** Kafka Streams' commit.interval.ms: default 30000, or 100 with exactly_once_v2. */
  commitIntervalMs?: number;
  /** Consumer configs of its consumer (ConsumerConfig names). */
  config?: Record<string, ConfigValue>;
}
/** Stops a processor: close() by default (commit, LeaveGroup); graceful=false is a crash. */
export interface StopProcessor {
  type: 'stopProcessor';
  processorId: string;
  graceful?: boolean;
}
/** commitSync() of the consumer's current positions. */
export interface CommitOffsets {
  type: 'commitOffsets';
  consumerId: string;
}

/**
 * One line of Kafka's command-line tools (`kafka-topics.sh --describe …`), run against the cluster
 * now (src/sim/tools, docs/cli.md). A line that changes the cluster does what the page's form would.
 */
export interface Cli {
  type: 'cli';
  line: string;
}

/** The whole primary region goes dark (needs a scenario with a `mirror`). */
export interface LoseRegion {
  type: 'loseRegion';
}

/** Every node of a rack (zone) loses power at once: each crashes, as crashNode does. */
export interface LoseZone {
  type: 'loseZone';
  rack: string;
}

export type Command =
  | StartProducer
  | StopProducer
  | BeginTransaction
  | CommitTransaction
  | AbortTransaction
  | StartConsumer
  | StopConsumer
  | StartProcessor
  | StopProcessor
  | CommitOffsets
  | ReassignPartitions
  | AddAcl
  | RemoveAcl
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
  | ElectLeaders
  | LoseRegion
  | LoseZone
  | Cli;

/**
 * A command's outcome. A `cli` command also carries the tool's output; `readOnly` says the line
 * changed nothing (a describe or a list), so a session need not record it.
 */
export type CommandResult =
  { ok: true; output?: string; readOnly?: boolean } | { ok: false; error: string; output?: string };

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
  /** A transactional producer's record: how its transaction ended (absent until EndTxn is answered). */
  transaction?: 'committed' | 'aborted';
  /** A stream processor's output: the ledger id of the input record it was made from. */
  sourceRecordId?: number;
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
