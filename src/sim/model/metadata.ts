// Records of the metadata log __cluster_metadata and the image every node builds by applying
// them in order (MetadataImage in Kafka). Names follow Kafka's record types.

import type { ConfigValue, NodeId } from './types';

export type MetaRecord =
  | { type: 'LeaderChangeMessage'; leaderId: NodeId; voters: NodeId[] }
  | { type: 'RegisterBrokerRecord'; brokerId: NodeId; brokerEpoch: number; rack: string | null }
  | {
      type: 'BrokerRegistrationChangeRecord';
      brokerId: NodeId;
      brokerEpoch: number;
      fenced?: boolean;
      inControlledShutdown?: boolean;
    }
  | { type: 'TopicRecord'; name: string; topicId: string }
  | ({ type: 'PartitionRecord' } & PartitionState)
  | ({ type: 'PartitionChangeRecord' } & PartitionState)
  | {
      type: 'ConfigRecord';
      resourceType: 'topic' | 'broker' | 'cluster';
      resourceName: string;
      name: string;
      value: ConfigValue | null;
    }
  | { type: 'RemoveTopicRecord'; name: string }
  // The bootstrap records the first active controller writes to an empty log, in a metadata
  // transaction (ActivationRecordsGenerator.recordsForEmptyLog, KIP-868), and the NoOpRecord it
  // writes every metadata.max.idle.interval.ms (KIP-835).
  | { type: 'BeginTransactionRecord'; name: string }
  | { type: 'FeatureLevelRecord'; name: string; featureLevel: number }
  | { type: 'EndTransactionRecord' }
  | { type: 'NoOpRecord' };

export interface MetaEntry {
  epoch: number;
  record: MetaRecord;
}

export interface PartitionState {
  topic: string;
  partition: number;
  replicas: NodeId[];
  isr: NodeId[];
  elr: NodeId[];
  /** KIP-966's last known ELR member, kept while the ISR and the ELR are empty (absent: none). */
  lastKnownElr?: NodeId[];
  leader: NodeId;
  leaderEpoch: number;
  partitionEpoch: number;
  adding: NodeId[];
  removing: NodeId[];
}

export interface BrokerRegistration {
  brokerId: NodeId;
  brokerEpoch: number;
  rack: string | null;
  fenced: boolean;
  inControlledShutdown: boolean;
}

export interface TopicImage {
  name: string;
  /** The topic's Uuid as Kafka prints it (kernel/uuid.ts). */
  topicId: string;
  partitions: number;
  config: Record<string, ConfigValue>;
  /** Whether either throttled-replicas list is set (checked on every fetch: most topics have none). */
  throttled: boolean;
}

/** The topic configs naming the replicas a broker throttles, as leader and as follower (KIP-73). */
export const THROTTLED_REPLICAS = {
  leader: 'leader.replication.throttled.replicas',
  follower: 'follower.replication.throttled.replicas',
} as const;

export interface MetaImage {
  /** Offset of the last applied record, -1 when none. */
  offset: number;
  brokers: Map<NodeId, BrokerRegistration>;
  topics: Map<string, TopicImage>;
  partitions: Map<string, PartitionState>;
  clusterConfig: Record<string, ConfigValue>;
  brokerConfigs: Map<string, Record<string, ConfigValue>>;
  /** Finalized feature levels by feature name (FeatureLevelRecord): metadata.version and the others. */
  features: Map<string, number>;
}

/** Orders partitions by topic name, then partition number. */
export function compareTopicPartition(
  a: { topic: string; partition: number },
  b: { topic: string; partition: number },
): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/** The strings tpKey made, per topic and partition: the hot paths look partitions up by key all the time. */
const tpKeys = new Map<string, string[]>();

export function tpKey(topic: string, partition: number): string {
  let keys = tpKeys.get(topic);
  if (!keys) tpKeys.set(topic, (keys = []));
  return (keys[partition] ??= `${topic}-${partition}`);
}

export function emptyImage(): MetaImage {
  return {
    offset: -1,
    brokers: new Map(),
    topics: new Map(),
    partitions: new Map(),
    clusterConfig: {},
    brokerConfigs: new Map(),
    features: new Map(),
  };
}

export function cloneImage(img: MetaImage): MetaImage {
  return structuredClone(img);
}

/** Applies one committed (or, on the active controller, just written) record. */
export function applyRecord(img: MetaImage, offset: number, rec: MetaRecord): void {
  img.offset = offset;
  switch (rec.type) {
    case 'LeaderChangeMessage':
    case 'BeginTransactionRecord':
    case 'EndTransactionRecord':
    case 'NoOpRecord':
      return;
    case 'FeatureLevelRecord':
      img.features.set(rec.name, rec.featureLevel);
      return;
    case 'RegisterBrokerRecord':
      img.brokers.set(rec.brokerId, {
        brokerId: rec.brokerId,
        brokerEpoch: rec.brokerEpoch,
        rack: rec.rack,
        fenced: true,
        inControlledShutdown: false,
      });
      return;
    case 'BrokerRegistrationChangeRecord': {
      const b = img.brokers.get(rec.brokerId);
      if (!b || b.brokerEpoch !== rec.brokerEpoch) return;
      if (rec.fenced !== undefined) b.fenced = rec.fenced;
      if (rec.inControlledShutdown !== undefined) b.inControlledShutdown = rec.inControlledShutdown;
      return;
    }
    case 'TopicRecord':
      img.topics.set(rec.name, {
        name: rec.name,
        topicId: rec.topicId,
        partitions: 0,
        config: {},
        throttled: false,
      });
      return;
    case 'PartitionRecord': {
      const t = img.topics.get(rec.topic);
      if (t) t.partitions = Math.max(t.partitions, rec.partition + 1);
      img.partitions.set(tpKey(rec.topic, rec.partition), partitionStateOf(rec));
      return;
    }
    case 'PartitionChangeRecord':
      img.partitions.set(tpKey(rec.topic, rec.partition), partitionStateOf(rec));
      return;
    case 'ConfigRecord': {
      const target =
        rec.resourceType === 'topic'
          ? img.topics.get(rec.resourceName)?.config
          : rec.resourceType === 'broker'
            ? mapGetOrInit(img.brokerConfigs, rec.resourceName)
            : img.clusterConfig;
      if (!target) return;
      if (rec.value === null) delete target[rec.name];
      else target[rec.name] = rec.value;
      if (rec.resourceType === 'topic')
        img.topics.get(rec.resourceName)!.throttled = Object.values(THROTTLED_REPLICAS).some(
          (n) => target[n] !== undefined && target[n] !== '',
        );
      return;
    }
    case 'RemoveTopicRecord': {
      const t = img.topics.get(rec.name);
      if (!t) return;
      for (let p = 0; p < t.partitions; p++) img.partitions.delete(tpKey(rec.name, p));
      img.topics.delete(rec.name);
      return;
    }
  }
}

/**
 * The state each record stands for, made once: every node's image applies the same record objects
 * (a Raft fetch answers with the leader's log entries), so 200 brokers applying the 20,000
 * PartitionRecords that create a cluster's topics share 20,000 states instead of making 4,000,000.
 * A memo, not state: a record is never changed once written, and a state is frozen.
 */
const stateOfRecord = new WeakMap<PartitionState, PartitionState>();

/**
 * A partition's state as an image holds it: frozen, arrays included, because checkpoints share it
 * between copies of the world (checkpoint.ts cloneWorld) and images share it between nodes; a
 * change is a new state in its place.
 */
function partitionStateOf(s: PartitionState): PartitionState {
  const known = stateOfRecord.get(s);
  if (known) return known;
  const state = freezeState(s);
  stateOfRecord.set(s, state);
  return state;
}

function freezeState(s: PartitionState): PartitionState {
  return Object.freeze({
    topic: s.topic,
    partition: s.partition,
    replicas: Object.freeze([...s.replicas]) as NodeId[],
    isr: Object.freeze([...s.isr]) as NodeId[],
    elr: Object.freeze([...s.elr]) as NodeId[],
    ...(s.lastKnownElr?.length ? { lastKnownElr: Object.freeze([...s.lastKnownElr]) as NodeId[] } : {}),
    leader: s.leader,
    leaderEpoch: s.leaderEpoch,
    partitionEpoch: s.partitionEpoch,
    adding: Object.freeze([...s.adding]) as NodeId[],
    removing: Object.freeze([...s.removing]) as NodeId[],
  });
}

function mapGetOrInit(m: Map<string, Record<string, ConfigValue>>, k: string): Record<string, ConfigValue> {
  let v = m.get(k);
  if (!v) m.set(k, (v = {}));
  return v;
}

/** A broker that may lead: registered, unfenced and not in controlled shutdown. */
export function isActiveBroker(img: MetaImage, id: NodeId): boolean {
  const b = img.brokers.get(id);
  return !!b && !b.fenced && !b.inControlledShutdown;
}
