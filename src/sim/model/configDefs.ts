// The table of every Kafka configuration the simulator understands (model/config.ts reads and
// checks values against it), with Kafka's own names, defaults, bounds and docs.
// Sources are apache/kafka 4.x: KRaftConfigs, QuorumConfig, ReplicationConfigs, ServerLogConfigs,
// ServerConfigs, GroupCoordinatorConfig, QuotaConfig, TransactionLogConfig, LogConfig (ConfigDef
// ranges) and DynamicBrokerConfig (which broker configs can change at runtime).

import type { ConfigValue } from './types';

/**
 * Where a config may be set.
 * - `cluster`: the cluster-wide default (the scenario's `config`, alterConfig resourceType "cluster").
 * - `broker`: an override for one broker (alterConfig resourceType "broker").
 * - `topic`: a topic config (a topic's `config`, alterConfig resourceType "topic").
 */
export type ConfigScope = 'topic' | 'broker' | 'cluster';

export interface ConfigDef {
  name: string;
  type: 'int' | 'long' | 'boolean' | 'string' | 'double';
  default: ConfigValue;
  scopes: ConfigScope[];
  /** Can be changed while the cluster runs (Kafka's "Update Mode" is not read-only). */
  dynamic: boolean;
  min?: number;
  max?: number;
  /** Allowed values of a string config (of each element, for a list config). */
  values?: string[];
  /** The value is a comma-separated list (Kafka's LIST type). */
  list?: boolean;
  /** For a topic config: the cluster config that supplies its default (Kafka's "server default property"). */
  synonym?: string;
  doc: string;
}

/** Stands in for Java's Long.MAX_VALUE (9223372036854775807), which a JS number cannot hold: "unlimited". */
export const LONG_MAX = Number.MAX_SAFE_INTEGER;

export const CONFIG_DEF_LIST: ConfigDef[] = [
  // ---- KRaft: broker registration and heartbeats (KRaftConfigs) --------------------------------
  {
    name: 'broker.heartbeat.interval.ms',
    type: 'int',
    default: 2000, // KRaftConfigs.BROKER_HEARTBEAT_INTERVAL_MS_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1, // simulator bound; Kafka does not check
    doc: 'Time between broker heartbeats to the active controller.',
  },
  {
    name: 'broker.session.timeout.ms',
    type: 'int',
    default: 9000, // KRaftConfigs.BROKER_SESSION_TIMEOUT_MS_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: false, // a controller config, not in DynamicBrokerConfig
    min: 1, // simulator bound; Kafka does not check
    doc: 'How long the controller waits without a heartbeat before it fences a broker (read by the controllers).',
  },
  // ---- KRaft: the metadata quorum (QuorumConfig) -----------------------------------------------
  {
    name: 'controller.quorum.election.timeout.ms',
    type: 'int',
    default: 1000, // QuorumConfig.DEFAULT_QUORUM_ELECTION_TIMEOUT_MS
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1, // simulator bound; Kafka does not check
    doc: 'Maximum time a candidate waits for votes before it starts a new election; randomized in [timeout, 2 × timeout).',
  },
  {
    name: 'controller.quorum.fetch.timeout.ms',
    type: 'int',
    default: 2000, // QuorumConfig.DEFAULT_QUORUM_FETCH_TIMEOUT_MS
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1, // simulator bound; Kafka does not check
    doc: 'Maximum time without a successful fetch from the quorum leader before a voter starts an election.',
  },
  {
    name: 'controller.quorum.election.backoff.max.ms',
    type: 'int',
    default: 1000, // QuorumConfig.DEFAULT_QUORUM_ELECTION_BACKOFF_MAX_MS
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1, // simulator bound; Kafka does not check
    doc: 'Maximum (exponential) backoff before a voter retries a failed election.',
  },
  // ---- Replication (ReplicationConfigs) ---------------------------------------------------------
  {
    name: 'replica.lag.time.max.ms',
    type: 'long',
    default: 30000, // ReplicationConfigs.REPLICA_LAG_TIME_MAX_MS_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1, // simulator bound; Kafka does not check
    doc: 'A follower that has not caught up to the leader for this long is removed from the ISR (checked every half of it).',
  },
  {
    name: 'replica.fetch.wait.max.ms',
    type: 'int',
    default: 500, // ReplicationConfigs.REPLICA_FETCH_WAIT_MAX_MS_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 0, // simulator bound; Kafka does not check
    doc: 'How long a follower fetch waits at the leader for new data (long poll). Must not exceed replica.lag.time.max.ms.',
  },
  {
    name: 'replica.fetch.max.bytes',
    type: 'int',
    default: 1048576, // ReplicationConfigs.REPLICA_FETCH_MAX_BYTES_DEFAULT (1 MiB), atLeast(0)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 0,
    doc: 'Bytes a follower asks for per partition in one fetch.',
  },
  {
    name: 'replica.fetch.backoff.ms',
    type: 'int',
    default: 1000, // ReplicationConfigs.REPLICA_FETCH_BACKOFF_MS_DEFAULT, atLeast(0)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 0,
    doc: 'How long a follower waits before it retries after a fetch error.',
  },
  {
    name: 'num.replica.fetchers',
    type: 'int',
    default: 1, // ReplicationConfigs.NUM_REPLICA_FETCHERS_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: true, // DynamicThreadPool.ReconfigurableConfigs: cluster-wide dynamic in Kafka
    min: 1, // simulator bound; Kafka does not check
    doc: 'Fetcher threads per source broker.',
  },
  {
    name: 'default.replication.factor',
    type: 'int',
    default: 1, // ReplicationConfigs.REPLICATION_FACTOR_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1, // simulator bound; Kafka does not check
    doc: 'Replication factor of automatically created topics.',
  },
  {
    name: 'auto.leader.rebalance.enable',
    type: 'boolean',
    default: true, // ReplicationConfigs.AUTO_LEADER_REBALANCE_ENABLE_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: false,
    doc: 'The controller periodically moves leadership back to the preferred replica (the first in the replica list).',
  },
  {
    name: 'leader.imbalance.check.interval.seconds',
    type: 'long',
    default: 300, // ReplicationConfigs.LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc: 'How often the controller checks for preferred-leader imbalance (in seconds).',
  },
  {
    name: 'unclean.leader.election.interval.ms',
    type: 'long',
    default: 300000, // ReplicationConfigs.UNCLEAN_LEADER_ELECTION_INTERVAL_MS_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc:
      'How often the controller checks whether leaderless partitions need an unclean election. ' +
      'An internal Kafka controller config (defineInternal): it exists but is not in the documentation.',
  },
  // ---- Shared by brokers and topics: durability (ServerLogConfigs, LogConfig) -------------------
  {
    name: 'min.insync.replicas',
    type: 'int',
    default: 1, // ServerLogConfigs.MIN_IN_SYNC_REPLICAS_DEFAULT, atLeast(1)
    scopes: ['topic', 'cluster', 'broker'],
    dynamic: true,
    min: 1,
    doc: 'With acks=all, the least ISR size for a write to succeed (NOT_ENOUGH_REPLICAS otherwise); also freezes the high watermark below it.',
  },
  {
    name: 'unclean.leader.election.enable',
    type: 'boolean',
    default: false, // LogConfig.DEFAULT_UNCLEAN_LEADER_ELECTION_ENABLE
    scopes: ['topic', 'cluster', 'broker'],
    dynamic: true,
    doc: 'Allow a replica outside the ISR (and ELR) to become leader when no in-sync replica is left: availability at the cost of losing acknowledged records.',
  },
  {
    name: 'eligible.leader.replicas.version',
    type: 'int',
    default: 1, // ELRV_1 is the default feature level of new clusters from Kafka 4.1 (IBP_4_1_IV0)
    scopes: ['cluster'],
    dynamic: true, // a feature level, changed with kafka-features.sh upgrade/downgrade
    min: 0,
    max: 1,
    doc:
      'KIP-966 Eligible Leader Replicas, a feature level rather than a config: 0 = off (the Kafka 4.0 default), ' +
      '1 = on (the default for new clusters from Kafka 4.1).',
  },
  // ---- Logs and messages (ServerLogConfigs, ServerConfigs, LogConfig) ---------------------------
  {
    name: 'num.partitions',
    type: 'int',
    default: 1, // ServerLogConfigs.NUM_PARTITIONS_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc: 'Partition count of automatically created topics.',
  },
  {
    name: 'log.retention.ms',
    type: 'long',
    // Kafka's default is null, falling back to log.retention.hours = 168 (LogConfig.DEFAULT_RETENTION_MS).
    default: 604800000,
    scopes: ['cluster', 'broker'],
    dynamic: true,
    min: -1,
    doc: 'How long a log segment is kept before deletion; -1 keeps it forever. Default of the topic config retention.ms.',
  },
  {
    name: 'log.retention.check.interval.ms',
    type: 'long',
    default: 300000, // ServerLogConfigs.LOG_CLEANUP_INTERVAL_MS_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc: 'How often a broker checks whether any log segment is old enough to delete.',
  },
  {
    name: 'log.cleanup.policy',
    type: 'string',
    default: 'delete', // ServerLogConfigs.LOG_CLEANUP_POLICY_DEFAULT
    scopes: ['cluster', 'broker'],
    dynamic: true,
    list: true,
    values: ['compact', 'delete'],
    doc: 'Default of the topic config cleanup.policy.',
  },
  {
    name: 'message.max.bytes',
    type: 'int',
    default: 1048588, // LogConfig.DEFAULT_MAX_MESSAGE_BYTES = 1 MiB + Records.LOG_OVERHEAD (12), atLeast(0)
    scopes: ['cluster', 'broker'],
    dynamic: true,
    min: 0,
    doc: 'Largest record batch the broker accepts. Default of the topic config max.message.bytes.',
  },
  {
    name: 'leader.replication.throttled.rate',
    type: 'long',
    default: LONG_MAX, // QuotaConfig.QUOTA_BYTES_PER_SECOND_DEFAULT = Long.MAX_VALUE, atLeast(0)
    scopes: ['cluster', 'broker'],
    dynamic: true,
    min: 0,
    doc:
      'Bytes per second a leader may send to the replicas listed in leader.replication.throttled.replicas. ' +
      'The default, Long.MAX_VALUE, means unlimited; the simulator holds it as 9007199254740991 (Number.MAX_SAFE_INTEGER).',
  },
  {
    name: 'follower.replication.throttled.rate',
    type: 'long',
    default: LONG_MAX, // QuotaConfig.QUOTA_BYTES_PER_SECOND_DEFAULT = Long.MAX_VALUE, atLeast(0)
    scopes: ['cluster', 'broker'],
    dynamic: true,
    min: 0,
    doc:
      'Bytes per second a follower may fetch for the replicas listed in follower.replication.throttled.replicas. ' +
      'The default, Long.MAX_VALUE, means unlimited; the simulator holds it as 9007199254740991 (Number.MAX_SAFE_INTEGER).',
  },
  // ---- Group coordinator (GroupCoordinatorConfig) -----------------------------------------------
  {
    name: 'offsets.topic.num.partitions',
    type: 'int',
    default: 50, // GroupCoordinatorConfig.OFFSETS_TOPIC_PARTITIONS_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    // Simulator bound (Kafka has none): the offsets topic is created with the cluster, and 2^31
    // partitions never finish being created. 1000 is 20 times Kafka's default.
    max: 1000,
    doc: 'Partitions of __consumer_offsets; a group lives on partition abs(groupId.hashCode()) % this.',
  },
  {
    name: 'offsets.topic.replication.factor',
    type: 'int',
    default: 3, // GroupCoordinatorConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_DEFAULT (a Java short), atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    max: 32767,
    doc: 'Replication factor of __consumer_offsets.',
  },
  // ---- Transaction coordinator (TransactionLogConfig, TransactionStateManagerConfig) -------------
  {
    name: 'transaction.state.log.num.partitions',
    type: 'int',
    default: 50, // TransactionLogConfig.TRANSACTIONS_TOPIC_PARTITIONS_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    // Simulator bound, as for offsets.topic.num.partitions.
    max: 1000,
    doc: 'Partitions of __transaction_state; a transactional.id lives on partition abs(transactionalId.hashCode()) % this.',
  },
  {
    name: 'transaction.state.log.replication.factor',
    type: 'int',
    default: 3, // TransactionLogConfig.TRANSACTIONS_TOPIC_REPLICATION_FACTOR_DEFAULT (a short), atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    max: 32767,
    doc: 'Replication factor of __transaction_state; it is not created before this many brokers are up.',
  },
  {
    name: 'transaction.state.log.min.isr',
    type: 'int',
    default: 2, // TransactionLogConfig.TRANSACTIONS_TOPIC_MIN_ISR_DEFAULT, atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc: 'min.insync.replicas of __transaction_state.',
  },
  {
    name: 'transaction.max.timeout.ms',
    type: 'int',
    default: 900000, // TransactionStateManagerConfig.TRANSACTIONS_MAX_TIMEOUT_MS_DEFAULT (15 min), atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc: 'The largest transaction.timeout.ms a producer may ask for (INVALID_TRANSACTION_TIMEOUT above it).',
  },
  {
    name: 'transaction.partition.verification.enable',
    type: 'boolean',
    default: true, // TransactionLogConfig.TRANSACTION_PARTITION_VERIFICATION_ENABLE_DEFAULT (KIP-890, Kafka 3.6)
    scopes: ['cluster', 'broker'],
    dynamic: true,
    doc: "KIP-890 part 1: a partition leader asks the transaction coordinator (AddPartitionsToTxn, verifyOnly) before it appends a producer's first transactional batch, and refuses one of a partition not in an ongoing transaction (INVALID_TXN_STATE), so that a late write cannot leave a transaction hanging.",
  },
  {
    name: 'transaction.abort.timed.out.transaction.cleanup.interval.ms',
    type: 'int',
    default: 10000, // TransactionStateManagerConfig...CLEANUP_INTERVAL_MS_DEFAULT (10 s), atLeast(1)
    scopes: ['cluster', 'broker'],
    dynamic: false,
    min: 1,
    doc: 'How often the transaction coordinator aborts transactions open longer than their transaction.timeout.ms.',
  },
  // ---- Topic configs (LogConfig, TopicConfig, QuotaConfig) --------------------------------------
  {
    name: 'retention.ms',
    type: 'long',
    default: 604800000, // LogConfig.DEFAULT_RETENTION_MS (7 days), atLeast(-1)
    scopes: ['topic'],
    dynamic: true,
    min: -1,
    synonym: 'log.retention.ms',
    doc: 'How long this topic keeps records; -1 keeps them forever.',
  },
  {
    name: 'max.message.bytes',
    type: 'int',
    default: 1048588, // LogConfig.DEFAULT_MAX_MESSAGE_BYTES, atLeast(0)
    scopes: ['topic'],
    dynamic: true,
    min: 0,
    synonym: 'message.max.bytes',
    doc: 'Largest record batch this topic accepts.',
  },
  {
    name: 'cleanup.policy',
    type: 'string',
    default: 'delete', // ServerLogConfigs.LOG_CLEANUP_POLICY_DEFAULT
    scopes: ['topic'],
    dynamic: true,
    list: true,
    values: ['compact', 'delete'],
    synonym: 'log.cleanup.policy',
    doc: 'What happens to old segments: "delete", "compact", or "compact,delete".',
  },
  {
    name: 'leader.replication.throttled.replicas',
    type: 'string',
    default: '', // QuotaConfig.LEADER_REPLICATION_THROTTLED_REPLICAS_DEFAULT (empty list)
    scopes: ['topic'],
    dynamic: true,
    list: true,
    doc: 'Replicas throttled on the leader side, as "partitionId:brokerId,..." or "*" for all.',
  },
  {
    name: 'follower.replication.throttled.replicas',
    type: 'string',
    default: '', // QuotaConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS_DEFAULT (empty list)
    scopes: ['topic'],
    dynamic: true,
    list: true,
    doc: 'Replicas throttled on the follower side, as "partitionId:brokerId,..." or "*" for all.',
  },
];
