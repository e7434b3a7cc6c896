// The registry of every Kafka configuration the simulator understands, with Kafka's own names,
// defaults, bounds and error messages, so a learner meets the real words.
// Sources are apache/kafka 4.x: KRaftConfigs, QuorumConfig, ReplicationConfigs, ServerLogConfigs,
// ServerConfigs, GroupCoordinatorConfig, QuotaConfig, LogConfig (ConfigDef ranges) and
// DynamicBrokerConfig (which broker configs can change at runtime).

import type { ConfigValue } from './types';
import { kindOf, shortText, shown } from './userText';

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

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const JAVA_LONG_MAX = BigInt('9223372036854775807');

const defs: ConfigDef[] = [
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

export const CONFIG_DEFS: Readonly<Record<string, ConfigDef>> = Object.freeze(
  Object.fromEntries(defs.map((d) => [d.name, Object.freeze(d)])),
);

/** The definition of a config the caller knows to be defined (validated first); throws otherwise. */
export function configDef(name: string): ConfigDef {
  const def = CONFIG_DEFS[name];
  if (!def) throw new RangeError(`no config named ${name}`);
  return def;
}

/** Producer client defaults (ProducerConfig, Kafka 4.0; linger.ms 5 since KIP-1030). Not scenario config; the clients use clientConfig.ts. */
export const PRODUCER_DEFAULTS = Object.freeze({
  acks: 'all',
  'enable.idempotence': true,
  retries: 2147483647,
  'max.in.flight.requests.per.connection': 5,
  'request.timeout.ms': 30000,
  'delivery.timeout.ms': 120000,
  'batch.size': 16384,
  'linger.ms': 5,
  'retry.backoff.ms': 100,
  'retry.backoff.max.ms': 1000,
  'metadata.max.age.ms': 300000,
  'max.block.ms': 60000,
} as const);

/** Consumer client defaults (ConsumerConfig, Kafka 4.0). Not scenario config. */
export const CONSUMER_DEFAULTS = Object.freeze({
  'group.protocol': 'classic',
  'session.timeout.ms': 45000,
  'heartbeat.interval.ms': 3000,
  'max.poll.interval.ms': 300000,
  'max.poll.records': 500,
  'partition.assignment.strategy': 'RangeAssignor,CooperativeStickyAssignor',
  'enable.auto.commit': true,
  'auto.commit.interval.ms': 5000,
  'auto.offset.reset': 'latest',
  'isolation.level': 'read_uncommitted',
  'fetch.min.bytes': 1,
  'fetch.max.wait.ms': 500,
  'request.timeout.ms': 30000,
  'default.api.timeout.ms': 60000,
  'retry.backoff.ms': 100,
  'metadata.max.age.ms': 300000,
} as const);

/** The config names that may be set at a scope. */
export function configNames(scope: ConfigScope): string[] {
  return defs.filter((d) => d.scopes.includes(scope)).map((d) => d.name);
}

/** Every cluster-scope config at its Kafka default. */
export function clusterDefaults(): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const d of defs) if (d.scopes.includes('cluster')) out[d.name] = d.default;
  return out;
}

/** Every topic config at its Kafka default (before cluster-wide overrides through `synonym`). */
export function topicDefaults(): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const d of defs) if (d.scopes.includes('topic')) out[d.name] = d.default;
  return out;
}

export interface CheckConfigOptions {
  /** The value is being changed at runtime (alterConfig): static configs are refused, as Kafka does. */
  alter?: boolean;
}

/**
 * null when `value` is a valid value of config `name` at `scope`; else Kafka's message, e.g.
 * "Invalid value -1 for configuration min.insync.replicas: Value must be at least 1" (INVALID_CONFIG)
 * or "Unknown topic config name: foo".
 */
export function checkConfig(
  name: string,
  value: unknown,
  scope: ConfigScope,
  options: CheckConfigOptions = {},
): string | null {
  const def = Object.prototype.hasOwnProperty.call(CONFIG_DEFS, name) ? CONFIG_DEFS[name] : undefined;
  if (!def || !def.scopes.includes(scope)) return unknownName(name, scope, def);
  if (options.alter && !def.dynamic) return `Cannot update these configs dynamically: Set(${name})`;
  const parsed = parse(def, value);
  if (typeof parsed === 'object') return parsed.error;
  return checkParsed(def, parsed);
}

/** The typed value of a valid config value: "2" → 2, "true" → true, " delete " → "delete". Throws on an invalid one. */
export function parseConfigValue(def: ConfigDef, value: ConfigValue): ConfigValue {
  const parsed = parse(def, value);
  if (typeof parsed === 'object') throw new Error(parsed.error);
  const problem = checkParsed(def, parsed);
  if (problem) throw new Error(problem);
  return parsed;
}

/**
 * Kafka's Topic.validate (clients/.../common/internals/Topic.java), with its messages (Kafka ≥ 3.4).
 * null when the name is legal.
 */
export function checkTopicName(name: string): string | null {
  if (name.length === 0) return 'Topic name is invalid: the empty string is not allowed';
  if (name === '.') return "Topic name is invalid: '.' is not allowed";
  if (name === '..') return "Topic name is invalid: '..' is not allowed";
  if (name.length > MAX_TOPIC_NAME_LENGTH)
    return `Topic name is invalid: the length of '${shortText(name)}' is longer than the max allowed length ${MAX_TOPIC_NAME_LENGTH}`;
  if (!/^[a-zA-Z0-9._-]+$/.test(name))
    return `Topic name is invalid: '${shortText(name)}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'`;
  return null;
}

export const MAX_TOPIC_NAME_LENGTH = 249;

/** The closest known name within edit distance 2, for "did you mean" hints. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(name, c, bestDistance);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

// ---- internals ---------------------------------------------------------------------------------

function unknownName(name: string, scope: ConfigScope, def: ConfigDef | undefined): string {
  if (scope === 'topic') {
    const topicName = defs.find((d) => d.synonym === name)?.name;
    const hint = topicName ? ` (the topic config is ${topicName})` : didYouMean(name, configNames('topic'));
    return `Unknown topic config name: ${shortText(name)}${hint}`;
  }
  if (def?.scopes.includes('topic') && !def.scopes.includes('cluster')) {
    const hint = def.synonym ? `; the cluster-wide default is ${def.synonym}` : '';
    return `Unknown broker config name: ${name} (it is a topic config${hint})`;
  }
  if (def && scope === 'broker') return `${name} is cluster-wide; it cannot be set for one broker`;
  return `Unknown broker config name: ${shortText(name)}${didYouMean(name, configNames(scope))}`;
}

function didYouMean(name: string, candidates: readonly string[]): string {
  const close = closestName(name, candidates);
  return close ? ` (did you mean ${close}?)` : '';
}

type Parsed = ConfigValue | { error: string };

/** Kafka's ConfigDef.parseType on the string the admin client would send. */
function parse(def: ConfigDef, value: unknown): Parsed {
  const invalid = (message: string, text: string = shown(value)): { error: string } => ({
    error: `Invalid value ${text} for configuration ${def.name}: ${message}`,
  });
  if (value === null || value === undefined) return invalid('Value must be non-null');
  if (typeof value === 'object')
    return invalid(`Expected value to be ${expected(def)}, but it was ${kindOf(value)}`);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return invalid(`Expected value to be ${expected(def)}, but it was ${kindOf(value)}`);

  switch (def.type) {
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      const t = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (t === 'true') return true;
      if (t === 'false') return false;
      return invalid('Expected value to be either true or false');
    }
    case 'int': {
      const n = parseInteger(value);
      if (n === null || n < INT_MIN || n > INT_MAX) return invalid('Not a number of type INT');
      return n;
    }
    case 'long': {
      // JSON cannot carry Long.MAX_VALUE exactly (it reads as 2^63), so accept up to 2^63 and clamp.
      const n = parseInteger(value, true);
      if (n === null) return invalid('Not a number of type LONG');
      return Math.max(-LONG_MAX, Math.min(LONG_MAX, n));
    }
    case 'double': {
      if (typeof value === 'number')
        return Number.isFinite(value) ? value : invalid('Not a number of type DOUBLE');
      const t = typeof value === 'string' ? value.trim() : '';
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return invalid('Not a number of type DOUBLE');
      return Number(t);
    }
    case 'string': {
      // A list keeps its empty elements, as Kafka's split(-1) does, so "delete," is refused.
      const t = String(value).trim();
      return def.list && t !== '' ? t.split(/\s*,\s*/).join(',') : t;
    }
  }
}

/** Java's Integer/Long.parseLong on a trimmed string, or an integral JSON number. */
function parseInteger(value: string | number | boolean, isLong = false): number | null {
  if (typeof value === 'boolean') return null;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return null;
    if (isLong && Math.abs(value) > 2 ** 63) return null;
    return value;
  }
  const t = value.trim();
  if (!/^[+-]?\d+$/.test(t)) return null;
  if (isLong) {
    const big = BigInt(t);
    if (big > JAVA_LONG_MAX || big < -JAVA_LONG_MAX - BigInt(1)) return null;
  }
  return Number(t);
}

function checkParsed(def: ConfigDef, parsed: ConfigValue): string | null {
  const invalid = (message: string, text: string = shown(parsed)): string =>
    `Invalid value ${text} for configuration ${def.name}: ${message}`;
  if (typeof parsed === 'number') {
    if (def.name === 'log.retention.ms' && parsed < 1 && parsed !== -1)
      return 'log.retention.ms must be unlimited (-1) or, greater than or equal to 1'; // KafkaConfig.validateValues
    if (def.min !== undefined && parsed < def.min) return invalid(`Value must be at least ${def.min}`);
    if (def.max !== undefined && parsed > def.max) return invalid(`Value must be no more than ${def.max}`);
  }
  if (typeof parsed === 'string' && def.list) {
    const items = parsed === '' ? [] : parsed.split(',');
    if (def.name.endsWith('.replication.throttled.replicas')) {
      // ThrottledReplicaListValidator
      if (!(items.every((s) => /^(\d+:\d+)?$/.test(s)) || items.join('') === '*'))
        return invalid(
          `${def.name} must be the literal '*' or a list of replicas in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],...`,
          `[${shortText(items.join(', '))}]`,
        );
    }
    if (def.values) {
      const bad = items.find((s) => !def.values!.includes(s));
      if (bad !== undefined) return invalid(`String must be one of: ${def.values.join(', ')}`, shown(bad));
    }
  } else if (typeof parsed === 'string' && def.values && !def.values.includes(parsed)) {
    return invalid(`String must be one of: ${def.values.join(', ')}`);
  }
  return null;
}

function expected(def: ConfigDef): string {
  switch (def.type) {
    case 'int':
      return 'a 32-bit integer';
    case 'long':
      return 'a 64-bit integer (long)';
    case 'double':
      return 'a double';
    case 'boolean':
      return 'either true or false';
    case 'string':
      return def.list ? 'a comma separated list' : 'a string';
  }
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      // Rows hold b.length + 1 numbers: every index read here is in range.
      const best = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur[j] = best;
      rowMin = Math.min(rowMin, best);
    }
    if (rowMin >= cap) return cap;
    prev = cur;
  }
  return prev[b.length]!;
}

/** group.consumer.session.timeout.ms (GroupCoordinatorConfig default; the consumer's error names it). */
export const CONSUMER_GROUP_SESSION_TIMEOUT_MS = 45000;
