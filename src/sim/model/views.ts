// What the Simulation shows of the cluster: the snapshot's views of nodes, the quorum, topics,
// partitions, clients and groups, and of the standby region (the public entry is src/sim/types.ts).

import type { NodeId, Role, Acks, ConfigValue, SecurityProtocol, AclBinding } from './types';
import type { TxnClientState } from './transactions';

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
  /** The topic's id, as `kafka-topics.sh --describe` prints it (`TopicId: …`). */
  topicId: string;
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

/**
 * The part of a Snapshot the invariant monitor reads (observe/invariants.ts): a Snapshot is one,
 * and observe/snapshot.ts builds it alone when the monitor can read the model.
 */
export interface InvariantView {
  timeMs: number;
  nodes: readonly Pick<NodeView, 'id' | 'state' | 'metadataOffset'>[];
  quorum: { voters: readonly Pick<VoterView, 'id' | 'state' | 'epoch'>[] };
  partitions: readonly (Pick<
    PartitionView,
    'topic' | 'partition' | 'leader' | 'leaderEpoch' | 'highWatermark'
  > & {
    replicas: readonly NodeId[];
    isr: readonly NodeId[];
    elr: readonly NodeId[];
    replicaLogs: readonly Pick<
      ReplicaLogView,
      'brokerId' | 'logStartOffset' | 'logEndOffset' | 'highWatermark'
    >[];
  })[];
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
  /** A transactional producer's TransactionManager (a transactional.id); null otherwise. */
  transaction: ProducerTransactionView | null;
}

/** What a transactional producer's TransactionManager holds, in Kafka's names. */
export interface ProducerTransactionView {
  transactionalId: string;
  /** TransactionManager.State: INITIALIZING, READY, IN_TRANSACTION, COMMITTING_TRANSACTION, ABORTING_TRANSACTION, ABORTABLE_ERROR, FATAL_ERROR. */
  state: TxnClientState;
  /** The producer id and epoch InitProducerId gave it (-1 before). */
  producerId: number;
  producerEpoch: number;
  /** The transaction coordinator (the leader of its __transaction_state partition), -1 until FindCoordinator answers. */
  coordinator: NodeId;
  /** Partitions AddPartitionsToTxn added to the open transaction. */
  partitions: string[];
  /** Records sent in the open (or ending) transaction. */
  records: number;
  committed: number;
  aborted: number;
  /** The error that left it ABORTABLE_ERROR or FATAL_ERROR, or the last retriable one. */
  lastError: string | null;
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
  /**
   * Other running brokers that still hold the group and believe, on their own stale metadata, that
   * they lead its __consumer_offsets partition (a broker cut off from the controllers): members may
   * still talk to them. Empty in a healthy cluster.
   */
  staleCoordinators: { brokerId: NodeId; state: GroupState; members: number }[];
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
  /** Per group: what its members processed, twice, or never (observe/deliveries.ts). */
  deliveries: DeliveryView[];
  /** The stream processors (startProcessor). */
  processors: ProcessorView[];
}

/**
 * A group's delivery outcome as a downstream system would see it, over the group's consumed trace
 * (the last CONSUMED_TRACE_MAX records processed): `processed` distinct input records,
 * `duplicates` processed more than once (at least once), `missed` below the group's committed
 * offset but never processed (at most once), with the ledger ids of the first few of each.
 */
export interface DeliveryView {
  groupId: string;
  processed: number;
  duplicates: number;
  missed: number;
  duplicateIds: number[];
  missedIds: number[];
  /** How many processed records the trace holds (older ones are not counted). */
  traceWindow: number;
}

/** A processor's output topic read as read_committed, matched to its inputs below the group's committed offsets. */
export interface OutputExactlyOnceView {
  inputs: number;
  /** Inputs with exactly one committed output. */
  exactlyOnce: number;
  /** Inputs with no committed output. */
  none: number;
  /** Inputs with more than one committed output. */
  duplicated: number;
  noneIds: number[];
  duplicatedIds: number[];
}

export interface ProcessorView {
  processorId: string;
  groupId: string;
  inputTopic: string;
  outputTopic: string;
  processingGuarantee: 'at_least_once' | 'exactly_once_v2';
  commitIntervalMs: number;
  state: 'running' | 'stopping' | 'stopped' | 'crashed' | 'fenced' | 'failed';
  consumerId: string;
  producerId: string;
  transactionalId: string | null;
  processed: number;
  outputs: number;
  commits: number;
  aborts: number;
  rewinds: number;
  error: string | null;
  outputExactlyOnce: OutputExactlyOnceView;
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
