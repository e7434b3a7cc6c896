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
}
export interface StopProducer {
  type: 'stopProducer';
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
}
/** Stops a consumer: gracefully (commit, LeaveGroup) by default; graceful=false is a crash (no LeaveGroup). */
export interface StopConsumer {
  type: 'stopConsumer';
  consumerId: string;
  graceful?: boolean;
}
/** commitSync() of the consumer's current positions. */
export interface CommitOffsets {
  type: 'commitOffsets';
  consumerId: string;
}

/** The whole primary region goes dark (needs a scenario with a `mirror`). */
export interface LoseRegion {
  type: 'loseRegion';
}

export type Command =
  | StartProducer
  | StopProducer
  | StartConsumer
  | StopConsumer
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
  | LoseRegion;

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
  /**
   * Simulated ms at which the active controller last heard from this broker (a heartbeat, or its
   * registration); null when there is no active controller or the node is not a broker.
   */
  lastHeartbeatMs: number | null;
  /** Bytes received (produce and replication) in the last whole simulated second. */
  bytesInPerSec?: number;
  /** Bytes sent (replication to followers, fetches to consumers) in the last whole simulated second. */
  bytesOutPerSec?: number;
}

export interface VoterView {
  id: NodeId;
  state: VoterState;
  epoch: number;
  logEndOffset: number;
  highWatermark: number;
  votedFor: NodeId | null;
  leaderId: NodeId | null;
  /**
   * A follower whose fetch is overdue (none answered for over twice the leader's 500 ms long poll):
   * when it last fetched from its leader; it becomes prospective once that is
   * controller.quorum.fetch.timeout.ms ago. Null while it fetches on time, in other states, and
   * before its first fetch.
   */
  lastFetchOkMs: number | null;
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
  /**
   * An ISR follower the leader sees behind its log end: when the leader last saw it caught up
   * (Replica.lastCaughtUpTimeMs); the ISR shrinks once that is more than replica.lag.time.max.ms ago
   * (Partition.isFollowerOutOfSync). Absent for a caught-up follower (in sync whatever the time),
   * the leader and replicas outside the ISR, so an idle partition's snapshot never changes with it.
   */
  lastCaughtUpAtMs?: number;
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
  /** A reassignment in progress: replicas being added and removed (both empty otherwise). */
  adding?: NodeId[];
  removing?: NodeId[];
  /** How many more broker losses the partition takes (see failureBudget). */
  budget?: FailureBudget;
}

export interface FailureBudget {
  /** Brokers that can fail before acks=all writes get NOT_ENOUGH_REPLICAS: |ISR| − min(min.insync.replicas, RF). */
  beforeNotEnoughReplicas: number;
  /** Brokers that can fail before the partition has no leader: |ISR| − 1, plus the ELR when it can elect. */
  beforeOffline: number;
  /** The topic leaves no room at all: min.insync.replicas ≥ replication factor. */
  noTolerance: boolean;
  /** Plain words for the UI. */
  note: string;
}

export interface LeadershipView {
  brokers: {
    brokerId: NodeId;
    leaders: number;
    /** Partitions whose first replica (the preferred leader) is this broker. */
    preferredLeaders: number;
    replicas: number;
    /** Of those, the ones led by another broker now. */
    notLedByPreferred: number;
    /** notLedByPreferred / preferredLeaders (Kafka's leader imbalance ratio of the broker). */
    imbalanceRatio: number;
  }[];
  partitionsNotLedByPreferred: number;
  maxLeaders: number;
  minLeaders: number;
}

/** A dynamic config and which brokers have applied it from the metadata log. */
export interface AppliedConfigView {
  resourceType: 'topic' | 'broker' | 'cluster';
  resourceName: string;
  name: string;
  value: ConfigValue;
  /** Brokers whose own metadata image has this value. */
  appliedBy: NodeId[];
  /** Brokers (running or not) that have not applied it yet. */
  pendingOn: NodeId[];
}

export interface ReassignmentView {
  topic: string;
  partition: number;
  replicas: NodeId[];
  adding: NodeId[];
  removing: NodeId[];
  /** Per adding replica: how far its log has been copied (its LEO / the leader's LEO). */
  progress: { brokerId: NodeId; logEndOffset: number; leaderLogEndOffset: number }[];
}

export interface SecurityView {
  /** ACLs are enforced once at least one exists (see docs: a simplification of StandardAuthorizer). */
  enforced: boolean;
  acls: AclBinding[];
  listener: SecurityProtocol;
  clients: { clientId: string; principal: string; protocol: SecurityProtocol }[];
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
  /** Running a continuous load (startProducer) now. */
  running: boolean;
  topic: string | null;
  ratePerSec: number;
  /** Idempotence in effect (producer id and sequence numbers on its acks=all batches). */
  idempotent: boolean;
  /** Ack latency of the most recent acknowledged records (up to 1024), in ms; null before any. */
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  /** The broker the producer got metadata from last, or null when none answered yet. */
  metadataFrom: NodeId | null;
  /** Every producer config with its value (Kafka's defaults for the unset ones). */
  config: Record<string, ConfigValue>;
  /** The oldest request in flight: when it was sent (request.timeout.ms runs from then) and to which broker. */
  oldestRequestSentAtMs: number | null;
  oldestRequestBrokerId: NodeId | null;
  /** The oldest unsettled record's send() (delivery.timeout.ms runs from then); null when none is pending. */
  oldestRecordSentAtMs: number | null;
}

/** Classic: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead. KIP-848 adds Assigning, Reconciling. */
export type GroupState =
  'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Assigning' | 'Reconciling' | 'Stable' | 'Dead';

export interface PartitionOffsetView {
  topic: string;
  partition: number;
  /** Committed offset, -1 when none. */
  committed: number;
  /** The partition's high watermark. */
  highWatermark: number;
  /** HW − committed (HW when nothing is committed yet). */
  lag: number;
}

export interface ConsumedRecordView {
  consumerId: string;
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: string;
  /** The ledger's record id (traceable to the producer). */
  recordId: number;
  atMs: number;
}

export interface MemberView {
  memberId: string;
  consumerId: string;
  assignment: { topic: string; partition: number }[];
  /** From the consumer itself (empty when it is gone): its next offsets, its count and last records. */
  positions: { topic: string; partition: number; offset: number }[];
  recordsConsumed: number;
  lastRecords: ConsumedRecordView[];
  /** KIP-848 groups: the member epoch (-1 for classic members). */
  memberEpoch: number;
  /** KIP-848 groups: 'stable', 'unrevoked-partitions' or 'unreleased-partitions' ('' for classic members). */
  memberState: string;
  /** KIP-848 groups: partitions the member must revoke before they move to another member. */
  pendingRevocation: { topic: string; partition: number }[];
}

export interface GroupView {
  groupId: string;
  /** The coordinator broker: leader of __consumer_offsets partition abs(hash(groupId)) % N; -1 when none. */
  coordinator: NodeId;
  offsetsPartition: number;
  state: GroupState;
  /** group.protocol of the group: 'classic' (JoinGroup/SyncGroup) or 'consumer' (KIP-848). */
  groupProtocol: 'classic' | 'consumer';
  generation: number;
  /** KIP-848 groups: the group epoch and the epoch of the target assignment (-1 for classic groups). */
  groupEpoch: number;
  assignmentEpoch: number;
  /** The assignor chosen (range, cooperative-sticky; uniform or range on the broker for KIP-848), '' before the first rebalance. */
  protocol: string;
  leaderId: string | null;
  members: MemberView[];
  offsets: PartitionOffsetView[];
  /** Total lag over the group's committed partitions. */
  totalLag: number;
  recordsConsumed: number;
}

export interface ConsumerView {
  id: string;
  groupId: string;
  topics: string[];
  state: 'stopped' | 'crashed' | 'finding-coordinator' | 'joining' | 'syncing' | 'stable';
  memberId: string;
  /** The classic generation, or the KIP-848 member epoch; -1 before joining. */
  generation: number;
  /** group.protocol: 'classic' or 'consumer' (KIP-848). */
  groupProtocol: 'classic' | 'consumer';
  coordinator: NodeId;
  assignment: { topic: string; partition: number }[];
  /** The next offset to fetch, per assigned partition. */
  positions: { topic: string; partition: number; offset: number }[];
  recordsConsumed: number;
  /** The last records this consumer received (at most 10). */
  lastRecords: ConsumedRecordView[];
  config: Record<string, ConfigValue>;
}

export interface ClientsView {
  producers: ProducerView[];
  consumers: ConsumerView[];
  groups: GroupView[];
}

/** The timeouts the canvas counts down against, as in effect now (Kafka's defaults when unset). */
export interface TimeoutsView {
  /** broker.session.timeout.ms of the cluster: the active controller fences a broker silent for longer. */
  brokerSessionTimeoutMs: number;
  /** broker.heartbeat.interval.ms: how often a registered broker sends BrokerHeartbeat. */
  brokerHeartbeatIntervalMs: number;
  /** replica.lag.time.max.ms (a static broker config in Kafka, so one value here). */
  replicaLagTimeMaxMs: number;
  /** controller.quorum.fetch.timeout.ms: a voter that has not fetched from its leader for this long becomes prospective. */
  controllerQuorumFetchTimeoutMs: number;
}

export interface Snapshot {
  timeMs: number;
  nodes: NodeView[];
  quorum: QuorumView;
  topics: TopicView[];
  partitions: PartitionView[];
  network: NetworkView;
  clients: ClientsView;
  /** Leaders per broker and preferred-leader imbalance. */
  leadership?: LeadershipView;
  /** Every dynamic config set through the metadata log, with the brokers that already applied it. */
  configs?: AppliedConfigView[];
  /** Partition reassignments in progress. */
  reassignments?: ReassignmentView[];
  security?: SecurityView;
  /** The standby region and the mirror between the regions, when the scenario has a `mirror`. */
  mirror?: MirrorView;
  /** The timeouts behind the canvas's countdowns. */
  timeouts?: TimeoutsView;
}

// ---- mirroring between regions ----------------------------------------------

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
  /** Age of the oldest such record (0 when caught up), at the loss of the region once it is lost. */
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
  /** From the oldest missing acknowledgement to the loss: the window of recent writes the standby never saw. */
  windowMs: number;
  message: string;
}

export interface StandbyPartitionView {
  topic: string;
  partition: number;
  replicas: NodeId[];
  /** -1 when offline. */
  leader: NodeId;
  isr: NodeId[];
  highWatermark: number;
}

export interface MirrorView {
  primaryRegion: string;
  standbyRegion: string;
  topics: string[];
  crossRegionLatencyMs: number;
  pollIntervalMs: number;
  acks: Acks;
  standby: {
    nodes: { id: NodeId; roles: Role[]; rack: string | null; alive: boolean; fenced: boolean }[];
    /** The standby's active controller, -1 when none. */
    controllerId: NodeId;
    /** The standby's partitions of the mirrored topics (empty until MirrorMaker created them). */
    partitions: StandbyPartitionView[];
  };
  lag: MirrorLagView[];
  regionLost: boolean;
  /** Once the region is lost; `missing` holds the newest MIRROR_MISSING_VIEW_MAX of `missingCount`. */
  failover:
    (FailoverReport & { missingCount: number; byStage: Record<MissingRecord['stage'], number> }) | null;
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
