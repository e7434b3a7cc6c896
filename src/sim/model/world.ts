// The model: one plain object holding the whole simulated world. Rules in the other files
// mutate it; nothing here reads a clock or a random source of its own.

import type { Timed } from './heap';
import { EventQueue } from './heap';
import type { EpochLog } from './log';
import type { Addr, Body, CommittedOffset, LogRecord, Message, MessageOf } from './messages';
import type { MetaEntry, MetaImage, PartitionState } from './metadata';
import type { RngState } from './rngState';
import type { SecurityState } from './security';
import type { MetricsState } from './metricsSeries';
import type { DeadlineTimer } from './timers';
import type { CoordinatorMem } from './groupState';
import type { TrailState } from './trail';
import type { MessageTrailState } from './messageTrail';
import type { TransactionState, TxnCoordinatorMem, CompletedTxn, TxnVerification } from './transactions';
import type {
  Acks,
  ConfigValue,
  LedgerEntry,
  NodeId,
  Role,
  ScenarioTopic,
  ScriptStep,
  SimEvent,
} from './types';
import type { ConsumedRecordView, NodeState } from './views';

/** An event: when it is due (then the order it was scheduled in) and what happens. */
export type QueueItem =
  | Message
  | (Timed & { t: 'timer'; node: NodeId; incarnation: number; name: TimerName; token: number; key?: string })
  | (Timed & { t: 'client'; client: string; name: ClientTimerName; token: number; key?: string })
  | (Timed & { t: 'script'; index: number });

export type TimerName =
  | 'raftElection'
  | 'raftFetchTimeout'
  | 'raftCheckQuorum'
  | 'raftRequestTimeout'
  | 'raftParkExpire'
  | 'heartbeat'
  | 'fenceCheck'
  | 'controllerRequestTimeout'
  | 'isrShrinkCheck'
  | 'fetchRequestTimeout'
  | 'parkedFetchExpire'
  | 'delayedProduceExpire'
  | 'alterPartitionRetry'
  | 'retention'
  | 'controllerPeriodic'
  | 'noOpRecord'
  | 'groupTimer'
  | 'consumerFetchExpire'
  | 'txnAbortTimedOut'
  | 'txnMarkers';

export type ClientTimerName =
  | 'requestTimeout'
  | 'retry'
  | 'metadataRefresh'
  | 'deliveryTimeout'
  | 'produceTick'
  | 'consumerPoll'
  | 'heartbeat'
  | 'autoCommit'
  | 'transaction'
  | 'processorCommit'
  | 'consumerProcess';

/** The bounds of kernel/memoryBounds.ts lowered (testing/driver.ts memoryLimits), so a test reaches them in seconds. */
export interface MemoryLimits {
  events?: number;
  failedPerProducer?: number;
  acks0PerProducer?: number;
}

/** A producer's ledger entries of one bounded kind (kernel/memoryBounds.ts). */
export interface SettledBucket {
  /** Their record ids, in the order they settled. */
  ids: number[];
  /** How many left the ledger. */
  dropped: number;
  /** The length past which the next pass runs. */
  limit: number;
}

/** The record ceiling's state (kernel/recordCeiling.ts). */
export interface RecordCeilingState {
  /** A lower ceiling for a test that wants to reach the limit (default RECORDS_HELD_CEILING). */
  ceiling?: number;
  warned?: true;
  /** Records forgotten so far, counted once per replica log. */
  forgotten: number;
  /** Forgetting passes so far. */
  passes: number;
}

export interface PartitionDisk {
  log: EpochLog<LogRecord>;
  /** The replication-offset-checkpoint: the HW this replica last knew. */
  highWatermark: number;
}

export interface NodeDisk {
  metaLog: EpochLog<MetaEntry>;
  /** quorum-state file: the Raft epoch and the vote cast in it. */
  quorumEpoch: number;
  votedFor: NodeId | null;
  partitions: Map<string, PartitionDisk>;
  /** Written at a clean shutdown, read at the next registration (KIP-966 unclean shutdown detection). */
  cleanShutdownBrokerEpoch: number;
}

export type RaftRole =
  'unattached' | 'prospective' | 'candidate' | 'leader' | 'follower' | 'resigned' | 'observer';

export interface VoterProgress {
  endOffset: number;
  lastFetchMs: number;
}

export interface RaftMem {
  role: RaftRole;
  leaderId: NodeId | null;
  /** Committed offset (exclusive end) known to this node. */
  highWatermark: number;
  votes: NodeId[];
  rejections: NodeId[];
  electionToken: number;
  fetchToken: number;
  fetchInFlight: boolean;
  fetchReqId: number;
  /** The leader this voter last timed out on (a prospective does not follow it back). */
  lostLeaderId: NodeId | null;
  lastFetchOkMs: number;
  /** Leader only: each voter's fetch progress. */
  progress: Map<NodeId, VoterProgress>;
  /** Leader only: fetches parked until new entries arrive. */
  parked: Map<Addr, { msg: MessageOf<'RaftFetch'>; token: number }>;
  /** Leader only: the HW last sent to each fetcher, so a newer HW is answered at once. */
  sentHighWatermark: Map<Addr, number>;
  /** Observers with no known leader try voters in turn. */
  nextVoterIdx: number;
  /** The committed image: every record below highWatermark applied in order. */
  image: MetaImage;
}

export interface PendingReply {
  offset: number;
  /** The request it answers, and the answer to send once `offset` commits. */
  req: Message;
  body: Body;
}

export interface ControllerMem {
  active: boolean;
  /** Offset of this leader's LeaderChangeMessage: active once it is committed. */
  activationOffset: number;
  /** Committed image plus this controller's own uncommitted records. */
  work: MetaImage | null;
  lastContactMs: Map<NodeId, number>;
  pendingReplies: PendingReply[];
  fenceToken: number;
  periodicToken: number;
  /** The timer of the next NoOpRecord (KIP-835). */
  noOpToken: number;
  lastUncleanCheckMs: number;
  lastRebalanceCheckMs: number;
}

export interface ProducerStateEntry {
  /** A transactional producer's epoch (absent for an idempotent one): an older one is fenced. */
  epoch?: number;
  lastSeq: number;
  /** Offsets of the producer's recent records: offsets[i] holds sequence number baseSeq + i. */
  baseSeq: number;
  offsets: number[];
}

export interface FollowerProgress {
  replicaId: NodeId;
  logEndOffset: number;
  lastCaughtUpTimeMs: number;
  lastFetchTimeMs: number;
  lastFetchLeaderLogEndOffset: number;
  /** KIP-227 fetch session: the HW and log start offset last sent to this follower. */
  sentHighWatermark: number;
  sentLogStartOffset: number;
}

export interface DelayedProduce {
  requiredOffset: number;
  baseOffset: number;
  msg: Message;
  deadlineMs: number;
}

export interface ReplicaMem {
  /** tpKey(topic, partition), computed once. */
  key: string;
  topic: string;
  partition: number;
  role: 'leader' | 'follower' | 'none';
  leaderId: NodeId;
  leaderEpoch: number;
  partitionEpoch: number;
  replicas: NodeId[];
  /** The ISR as last committed (what the metadata log says). */
  isr: NodeId[];
  /** AlterPartition in flight: the ISR it proposes (its union with `isr` is the maximal ISR). */
  pendingIsr: NodeId[] | null;
  alterToken: number;
  followers: Map<NodeId, FollowerProgress>;
  delayed: DelayedProduce[];
  delayedTimer: DeadlineTimer;
  /** Sequence numbers of each idempotent producer's recent records (ProducerStateEntry). */
  producerState: Map<number, ProducerStateEntry>;
  /** Follower: waiting for newer metadata after a FENCED_LEADER_EPOCH or NOT_LEADER_OR_FOLLOWER. */
  fetchError: string | null;
  /** Follower: do not fetch this partition before (after a retriable fetch error). */
  fetchDelayUntilMs: number;
  /** KIP-890 VerificationGuards: producer id → the verification that set it; a marker clears it (created on first use). */
  verificationGuards?: Map<number, number>;
}

export interface Fetcher {
  leaderId: NodeId;
  parts: Set<string>;
  inFlight: boolean;
  reqId: number;
  sentAtMs: number;
  timer: DeadlineTimer;
  backoffUntilMs: number;
}

export interface BrokerMem {
  brokerEpoch: number;
  registered: boolean;
  /** Whether the logs on disk were checked against the metadata once caught up (stray logs, broker.ts). */
  strayChecked: boolean;
  registrationInFlight: boolean;
  heartbeatInFlight: boolean;
  controllerTarget: NodeId | null;
  heartbeatToken: number;
  requestToken: number;
  requestReqId: number;
  fencedByController: boolean;
  wantShutDown: boolean;
  replicas: Map<string, ReplicaMem>;
  fetchers: Map<NodeId, Fetcher>;
  /** Leader side: one parked fetch session per follower broker. */
  parked: Map<NodeId, { msg: MessageOf<'Fetch'>; expiresAtMs: number }>;
  parkTimers: Map<NodeId, DeadlineTimer>;
  isrToken: number;
  /** Replication throttles (ReplicationQuotaManager): bytes this broker may still send as leader / fetch as follower. */
  leaderQuota: QuotaBucket;
  followerQuota: QuotaBucket;
  /** KIP-890: transaction verifications in flight, by the AddPartitionsToTxn request id (created on first use). */
  txnVerifications?: Map<number, TxnVerification>;
}

/** A token bucket that may go into debt: a whole response is sent, then the next waits (the rate holds on average). */
export interface QuotaBucket {
  allowanceBytes: number;
  updatedAtMs: number;
}

export interface SimNode {
  id: NodeId;
  roles: Role[];
  rack: string | null;
  isBroker: boolean;
  isController: boolean;
  state: NodeState;
  incarnation: number;
  disk: NodeDisk;
  raft: RaftMem | null;
  controller: ControllerMem | null;
  broker: BrokerMem | null;
}

export interface InFlightRequest {
  reqId: number;
  recordIds: number[];
  brokerId: NodeId;
  topic: string;
  partition: number;
  sentAtMs: number;
}

export interface ProducerRecordState {
  recordId: number;
  /** The batch this record was first sent in (-1 before): retries resend that same batch. */
  batchId: number;
  partition: number;
  pid: number;
  seq: number;
  attempts: number;
  /** Not before this time (retry backoff). */
  readyAtMs: number;
  inFlight: boolean;
  deadlineMs: number;
}

/** One partition's waiting records (RecordAccumulator's per-partition deque), oldest first. */
export interface AccumulatorQueue {
  topic: string;
  /** -1: records sent before their topic's metadata arrived (they get a partition in the Sender). */
  partition: number;
  ids: number[];
  /** How many of `ids` are retries or sends at other acks than the producer's (isIrregular). */
  irregular: number;
}

export interface ProducerClient {
  id: string;
  acks: Acks;
  idempotent: boolean;
  pid: number;
  config: Record<string, ConfigValue>;
  /** topic -> partition -> leader, as the last Metadata response said. */
  leaders: Map<string, { leader: NodeId; leaderEpoch: number }[]>;
  metadataInFlight: boolean;
  metadataReqId: number;
  metadataToken: number;
  metadataFetchedAtMs: number;
  /**
   * Metadata.timeToAllowUpdate (from the last response, metadataFetchedAtMs): how many responses in
   * a row changed no leader epoch (equivalentResponseCount), and the instant the next request may go
   * once its jittered backoff was drawn (-Infinity: not drawn since that response).
   */
  metadataEquivalent: number;
  metadataAllowedAtMs: number;
  needMetadata: boolean;
  bootstrapIdx: number;
  /** Per partition: the next sequence number. */
  nextSeq: Map<string, number>;
  /** Unsettled records in send order (so their delivery deadlines are in order too). */
  records: Map<number, ProducerRecordState>;
  /**
   * Records waiting to be sent (not in flight), per partition in send order (tpKey; partition -1:
   * records whose topic had no metadata yet). An empty queue is removed. See clients/accumulatorQueues.ts.
   */
  queues: Map<string, AccumulatorQueue>;
  inFlight: Map<number, InFlightRequest>;
  inFlightPerBroker: Map<NodeId, number>;
  /** Brokers whose last connection failed, backing off before the next try (clients/connectionBackoff.ts). */
  connections: Map<NodeId, ConnectionBackoff>;
  requestTimer: DeadlineTimer;
  deliveryToken: number;
  deliveryDueMs: number;
  retryTimer: DeadlineTimer;
  /**
   * KIP-794 sticky partitioner: the current partition per topic, the bytes appended to it, and the
   * bytes in its open (unsent) batch.
   */
  sticky: Map<string, { partition: number; bytes: number; open?: number }>;
  counters: { sent: number; acknowledged: number; failed: Record<string, number>; retries: number };
  /** enable.idempotence was set explicitly (a conflicting acks is then a ConfigException). */
  idempotenceExplicit: boolean;
  /** bootstrap.servers as broker ids; metadata then comes from the brokers the cluster names. */
  bootstrap: NodeId[];
  knownBrokers: NodeId[];
  /** Consecutive metadata requests that got no answer; a whole round of them is reported once. */
  metadataFailures: number;
  noMetadataReported: boolean;
  metadataFrom: NodeId | null;
  /** Ack latencies of the last records (a ring of up to LATENCY_RING). */
  latencies: number[];
  latencyNext: number;
  /** startProducer: the continuous load. */
  loop: ProducerLoop | null;
  /** A transactional producer (transactional.id set): its TransactionManager (clients/transactionManager.ts). */
  txn?: TransactionState;
  /** The stream processor this producer belongs to (clients/streamProcessor.ts). */
  processorId?: string;
}

/** A client's failed connection to a broker (ClusterConnectionStates.NodeConnectionState). */
export interface ConnectionBackoff {
  /** Failed attempts in a row (the exponent of the next backoff). */
  failures: number;
  /** Until when the broker is not tried again. */
  untilMs: number;
  /** A request went after the backoff: the new attempt, which nothing else joins until it is answered. */
  connecting: boolean;
}

export interface ProducerLoop {
  topic: string;
  ratePerSec: number;
  keyPattern: string | null;
  keyCount: number;
  acks: Acks;
  startedAtMs: number;
  emitted: number;
  token: number;
  /** A transactional loop commits every transactionMs (like Kafka Streams' commit.interval.ms). */
  transactionMs?: number;
}

// ---- consumers and the group coordinator (consumer.ts, groupCoordinator.ts, consumerFetch.ts) ----

export interface ConsumerPartition {
  topic: string;
  partition: number;
  /** Next offset to fetch; -1 until known (OffsetFetch, then auto.offset.reset). */
  position: number;
  /** Epoch of the last record consumed (KIP-320), -1 when none. */
  positionEpoch: number;
  /**
   * 'offset': waiting for the committed offset; 'reset': ListOffsets; 'validate': OffsetsForLeaderEpoch;
   * 'revoke': KIP-848, the coordinator asked for it back (no more fetches; committed, then released).
   */
  pending: 'offset' | 'reset' | 'validate' | 'revoke' | null;
  /** The leader epoch the position was last validated against. */
  validatedEpoch: number;
}

/**
 * A consumer's fetches from one leader broker (FetchSessionHandler, KIP-227): after a full fetch the
 * leader keeps the session's partitions and their fetch offsets, so each later (incremental) fetch
 * names only the partitions whose offset or leader epoch changed, and those to forget.
 */
export interface ConsumerFetchState {
  reqId: number;
  sentAtMs: number;
  backoffUntilMs: number;
  /** A partition of this leader waited for the fetch in flight: the next one looks at every partition. */
  rescan: boolean;
  /** The id the leader gave the session; 0 before the first full fetch is answered. */
  sessionId: number;
  /** The epoch of the next request: 0 for a full fetch (which opens a session), then 1, 2, ... */
  sessionEpoch: number;
  /** The session's partitions as the leader knows them: "topic-partition" → fetch offset and leader epoch sent. */
  session: Map<string, { topic: string; partition: number; position: number; leaderEpoch: number }>;
}

export interface ConsumerClient {
  id: string;
  groupId: string;
  topics: string[];
  config: Record<string, ConfigValue>;
  state: 'stopped' | 'crashed' | 'finding-coordinator' | 'joining' | 'syncing' | 'stable';
  /** A new consumer with the same id gets a new incarnation; old replies are ignored. */
  incarnation: number;
  coordinator: NodeId;
  memberId: string;
  generation: number;
  protocol: string;
  /** The generation of the last assignment (CooperativeStickyAssignor.onAssignment), for its user data. */
  assignedGeneration?: number;
  /** Requests in flight by purpose ('find', 'join', 'sync', 'heartbeat', 'commit', 'offsets', 'metadata', 'reset:4', ...). */
  pendingReq: Map<string, { reqId: number; sentAtMs: number; timeoutMs: number; to: NodeId }>;
  /** No coordinator request before this time (retry.backoff.ms after an error). */
  backoffUntilMs: number;
  rejoinNeeded: boolean;
  isLeader: boolean;
  /** The leader's view: every topic some member subscribes to. */
  groupTopics: string[];
  needMetadata: boolean;
  /** Partition counts the leader assigned with (it rejoins when the metadata changes). */
  assignedWith: Record<string, number> | null;
  parts: Map<string, ConsumerPartition>;
  leaders: Map<string, { leader: NodeId; leaderEpoch: number }[]>;
  metadataFetchedAtMs: number;
  /** No metadata request before this time (retry.backoff.ms between them). */
  metadataRetryAtMs: number;
  /**
   * Metadata responses in a row that changed no leader epoch (Metadata.equivalentResponseCount),
   * and whether the longer backoff they call for was drawn since the last one (see consumer.ts tick).
   */
  metadataEquivalent: number;
  metadataBackoffDrawn: boolean;
  bootstrapIdx: number;
  /** Per leader broker: its fetch session, the fetch in flight (reqId 0: none) and its backoff. */
  fetches: Map<NodeId, ConsumerFetchState>;
  pollTimer: DeadlineTimer;
  heartbeatToken: number;
  commitToken: number;
  consumed: number;
  lastRecords: ConsumedRecordView[];
  /** group.protocol=consumer only (KIP-848, consumerMembership.ts); absent with the classic protocol. */
  membership?: ConsumerMembership;
  /** The stream processor this consumer belongs to (clients/streamProcessor.ts). */
  processorId?: string;
  /** Records a poll returned that the application has not processed yet (a processor, or processMs). */
  polled?: ConsumedRecordView[];
  /** startConsumer's processing options (simulator options: Kafka has no config for them). */
  processing?: ConsumerProcessing;
  /** KIP-447 require_stable: no OffsetFetch before this time after UNSTABLE_OFFSET_COMMIT. */
  offsetFetchRetryAtMs?: number;
}

/**
 * How the simulated application processes what poll() returns: `processMs` per polled batch, and
 * with `commitBeforeProcess` the "commit, then process" loop of at-most-once delivery.
 */
export interface ConsumerProcessing {
  commitBeforeProcess: boolean;
  processMs: number;
  /** The batch being processed and when it is done (-1: none). */
  busyUntilMs: number;
  batch: ConsumedRecordView[];
  token: number;
}

/**
 * A consume-transform-produce processor (Kafka Streams' StreamThread with one task, simplified): a
 * consumer of `groupId` and a producer; each input record becomes one output record.
 */
export interface ProcessorState {
  id: string;
  groupId: string;
  inputTopic: string;
  outputTopic: string;
  /** Kafka Streams' processing.guarantee. */
  guarantee: 'at_least_once' | 'exactly_once_v2';
  /** Kafka Streams' commit.interval.ms. */
  commitIntervalMs: number;
  consumerId: string;
  producerId: string;
  /** 'stopping': close() waits for its last commit. */
  state: 'running' | 'stopping' | 'stopped' | 'crashed' | 'fenced' | 'failed';
  /** Polled records waiting for the processor (a transaction to begin, or a commit to finish). */
  buffer: ConsumedRecordView[];
  /** Per input partition: the offset after the last record processed, not yet committed. */
  processedUpTo: Map<string, CommittedOffset>;
  /** The consumer's generation the buffer was polled in (a rebalance empties it). */
  generation: number;
  /** The producer's failed records when the last commit began (a new failure stops the processor). */
  failedBefore: number;
  /** The consumer's member id and generation when the open transaction's first record was processed. */
  txnGroup: { memberId: string; generation: number } | null;
  /** A commit is under way: at_least_once waits for its outputs' acks, exactly_once_v2 for EndTxn. */
  committing: CommittedOffset[] | null;
  commitToken: number;
  lastCommitMs: number;
  counters: { processed: number; outputs: number; commits: number; aborts: number; rewinds: number };
  /** Why the processor stopped on its own (fenced, a failed send), or null. */
  error: string | null;
}

/** The client side of KIP-848 (ConsumerMembershipManager); the member epoch is the consumer's `generation`. */
export interface ConsumerMembership {
  /** group.consumer.heartbeat.interval.ms, as the coordinator says in each response. */
  heartbeatIntervalMs: number;
  /** The next ConsumerGroupHeartbeat is due then (now: a join, an acknowledgement, a rejoin). */
  heartbeatDueMs: number;
  /** Partitions being revoked: their positions are committed before the member acknowledges. */
  revoking: boolean;
}

export interface NetworkState {
  latencyMs: number;
  jitterMs: number;
  linkLatency: Map<string, number>;
  /** Explicit cuts "from>to". */
  cuts: Set<string>;
  /** partitionNetwork: node -> group index. */
  groups: Map<Addr, number>;
  /** FIFO per link (from -> to): the last delivery time scheduled on it. */
  lastDelivery: Map<Addr, Map<Addr, number>>;
  inFlight: number;
}

export interface PendingControllerEvent {
  epoch: number;
  offset: number;
  type: string;
  message: string;
  fields: Record<string, unknown>;
}

export interface World {
  nowMs: number;
  seq: number;
  tokens: number;
  reqIds: number;
  queue: EventQueue<QueueItem>;
  rng: RngState;
  /** A second seeded stream, for topic ids alone (kernel/uuid.ts), so an id never shifts `rng`'s draws. */
  idRng: RngState;
  seed: number;
  config: Record<string, ConfigValue>;
  nodes: Map<NodeId, SimNode>;
  voterIds: NodeId[];
  network: NetworkState;
  producers: Map<string, ProducerClient>;
  consumers: Map<string, ConsumerClient>;
  /** Per broker: the group coordinator's memory and parked consumer fetches. */
  coordinators: Map<NodeId, CoordinatorMem>;
  /** Per group: every record its members consumed, in order (the last CONSUMED_TRACE_MAX). */
  consumedTrace: Map<string, ConsumedRecordView[]>;
  consumedCount: Map<string, number>;
  nextPid: number;
  ledger: LedgerEntry[];
  ledgerIndex: Map<number, LedgerEntry>;
  nextRecordId: number;
  /** The newest events (at most EVENTS_KEPT and its slack, kernel/memoryBounds.ts); `seq` numbers every event ever logged. */
  events: SimEvent[];
  eventSeq: number;
  /** Events logged and no longer kept (the oldest), made at the first drop; left out of the state hash. */
  eventsDropped?: number;
  /**
   * Per producer: its failed entries in the ledger (record ids, in the order they failed), and those dropped (the oldest past
   * LEDGER_FAILED_KEPT, kernel/memoryBounds.ts); made at the first failure, left out of the state hash.
   */
  ledgerFailed?: Map<string, SettledBucket>;
  /** The same for `acks=0` entries (LEDGER_ACKS0_KEPT); made at the first one, left out of the state hash. */
  ledgerAcks0?: Map<string, SettledBucket>;
  /** Lower bounds for a test that wants to reach them (kernel/memoryBounds.ts); absent in a run. */
  memoryLimits?: MemoryLimits;
  /**
   * Events a controller explained when it wrote their metadata records, logged once the record
   * (this epoch at this offset) commits, on whichever controller learns it first: a decision written
   * just before its controller crashed, then committed by the next leader, is still told. A record
   * that never commits (truncated away) takes its event with it.
   */
  controllerEvents: PendingControllerEvent[];
  /** The scenario's topics, created once the first active controller sees the scenario's brokers. */
  scenarioTopics: ScenarioTopic[];
  script: ScriptStep[];
  /** Bytes in and out per node since the start (traffic the metrics turn into rates). */
  traffic: Map<NodeId, { bytesIn: number; bytesOut: number }>;
  metrics: MetricsState;
  security: SecurityState;
  /**
   * The admin host's files, written by a terminal line's `> file` and read by the tools' JSON file
   * options (tools/shell.ts). Absent until the first is written, so a run without one hashes as before.
   */
  files?: Map<string, string>;
  /** Observe-only history for the partition log and record journeys (model/trail.ts); not hashed. */
  trail: TrailState;
  /** Observe-only: the messages the network carried, for the message diagram (model/messageTrail.ts); not hashed. */
  messageTrail: MessageTrailState;
  /** Per broker: the transaction coordinator's memory (txn/), made on first use. */
  transactions?: Map<NodeId, TxnCoordinatorMem>;
  /** The last completed transactions (txn/transactionCoordinator.ts), made on first use. */
  completedTxns?: CompletedTxn[];
  /** Stream processors (startProcessor), made on first use. */
  processors?: Map<string, ProcessorState>;
  /** The simulator's record ceiling (kernel/recordCeiling.ts), made when a run first nears it, so a run below it hashes as before. */
  recordCeiling?: RecordCeilingState;
}

export type { PartitionState, Timed };
export type { DeadlineTimer } from './timers';
export type {
  GroupMember,
  MemberState,
  GroupMem,
  ConsumerFetchSession,
  SessionPartition,
  CoordinatorMem,
} from './groupState';
export type {
  TxnRange,
  TxnIndex,
  TxnClientState,
  TransactionState,
  TxnState,
  TxnMetadata,
  TxnCoordinatorMem,
  TxnAppend,
  TxnOffsets,
  CompletedTxn,
} from './transactions';
