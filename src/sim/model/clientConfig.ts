// Producer and consumer client configs (ProducerConfig, ConsumerConfig in Kafka 4.0): names,
// defaults, bounds, and the checks KafkaProducer / KafkaConsumer make when they are constructed.

import type { World } from './world';
import type { Acks, ConfigValue, NodeId } from './types';
import { kindOf, shortText, shown } from './userText';
import { closestName } from './config';

interface ClientConfigDef {
  type: 'int' | 'boolean' | 'string' | 'acks' | 'brokers';
  default: ConfigValue;
  min?: number;
  values?: string[];
}

/** ProducerConfig defaults (Kafka 4.0; linger.ms 5 since KIP-1030). bootstrap.servers "" = every broker. */
export const PRODUCER_CONFIGS: Readonly<Record<string, ClientConfigDef>> = Object.freeze({
  'bootstrap.servers': { type: 'brokers', default: '' },
  acks: { type: 'acks', default: 'all' },
  'enable.idempotence': { type: 'boolean', default: true },
  retries: { type: 'int', default: 2147483647, min: 0 },
  'max.in.flight.requests.per.connection': { type: 'int', default: 5, min: 1 },
  'request.timeout.ms': { type: 'int', default: 30000, min: 0 },
  'delivery.timeout.ms': { type: 'int', default: 120000, min: 0 },
  'batch.size': { type: 'int', default: 16384, min: 0 },
  'linger.ms': { type: 'int', default: 5, min: 0 },
  'retry.backoff.ms': { type: 'int', default: 100, min: 0 },
  'retry.backoff.max.ms': { type: 'int', default: 1000, min: 0 },
  // CommonClientConfigs: a broker whose connection failed is tried again after this backoff.
  'reconnect.backoff.ms': { type: 'int', default: 50, min: 0 },
  'reconnect.backoff.max.ms': { type: 'int', default: 1000, min: 0 },
  'metadata.max.age.ms': { type: 'int', default: 300000, min: 0 },
  'max.block.ms': { type: 'int', default: 60000, min: 0 },
  // KIP-98: '' stands for null (not transactional); left out of the config unless given.
  'transactional.id': { type: 'string', default: '' },
  // No bound in ProducerConfig: the coordinator refuses one <= 0 or > transaction.max.timeout.ms.
  'transaction.timeout.ms': { type: 'int', default: 60000 },
});

/** ConsumerConfig defaults (Kafka 4.0). */
export const CONSUMER_CONFIGS: Readonly<Record<string, ClientConfigDef>> = Object.freeze({
  'bootstrap.servers': { type: 'brokers', default: '' },
  // KIP-848: 'consumer' speaks ConsumerGroupHeartbeat (consumerMembership.ts); classic stays the default in 4.0.
  'group.protocol': { type: 'string', default: 'classic', values: ['classic', 'consumer'] },
  /** group.protocol=consumer: the broker's assignor to use ('' = null, the group's default, uniform). */
  'group.remote.assignor': { type: 'string', default: '', values: ['uniform', 'range'] },
  'session.timeout.ms': { type: 'int', default: 45000, min: 1 },
  'heartbeat.interval.ms': { type: 'int', default: 3000, min: 1 },
  'max.poll.interval.ms': { type: 'int', default: 300000, min: 1 },
  'partition.assignment.strategy': {
    type: 'string',
    default: 'range,cooperative-sticky',
    values: ['range', 'cooperative-sticky'],
  },
  'enable.auto.commit': { type: 'boolean', default: true },
  'auto.commit.interval.ms': { type: 'int', default: 5000, min: 0 },
  'auto.offset.reset': { type: 'string', default: 'latest', values: ['latest', 'earliest', 'none'] },
  'fetch.max.wait.ms': { type: 'int', default: 500, min: 0 },
  'max.poll.records': { type: 'int', default: 500, min: 1 },
  'request.timeout.ms': { type: 'int', default: 30000, min: 0 },
  'retry.backoff.ms': { type: 'int', default: 100, min: 0 },
  'retry.backoff.max.ms': { type: 'int', default: 1000, min: 0 },
  'metadata.max.age.ms': { type: 'int', default: 300000, min: 0 },
  // Left out of the config unless given (read_uncommitted): a consumer's state is as before.
  'isolation.level': {
    type: 'string',
    default: 'read_uncommitted',
    values: ['read_uncommitted', 'read_committed'],
  },
});

/** Kafka's class names of the assignors, accepted as well as the short names. */
const ASSIGNOR_ALIASES: Record<string, string> = {
  'org.apache.kafka.clients.consumer.RangeAssignor': 'range',
  RangeAssignor: 'range',
  'org.apache.kafka.clients.consumer.CooperativeStickyAssignor': 'cooperative-sticky',
  CooperativeStickyAssignor: 'cooperative-sticky',
};

export type ClientKind = 'producer' | 'consumer';

function defsOf(kind: ClientKind): Readonly<Record<string, ClientConfigDef>> {
  return kind === 'producer' ? PRODUCER_CONFIGS : CONSUMER_CONFIGS;
}

/** The typed value of a client config, or Kafka's ConfigException message. */
export function parseClientConfig(
  kind: ClientKind,
  name: string,
  value: unknown,
): { value: ConfigValue } | { error: string } {
  const defs = defsOf(kind);
  const def = Object.prototype.hasOwnProperty.call(defs, name) ? defs[name] : undefined;
  const bad = (why: string) => ({
    error: `Invalid value ${shown(value)} for configuration ${name}: ${why}`,
  });
  if (!def) {
    // A long name and the whole list would make a refusal of a paragraph: a suggestion, or the list alone.
    const close = closestName(name, Object.keys(defs));
    return {
      error: close
        ? `Unknown ${kind} config ${shortText(name)}; did you mean ${close}?`
        : `Unknown ${kind} config ${shortText(name)}; the simulator knows the ${Object.keys(defs).length} ${kind} configs listed in docs/scenario.md (Client defaults)`,
    };
  }
  // ConfigDef.parseType: a value of another kind (an object, an array, null) is never coerced.
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return bad(`Expected a ${def.type === 'int' ? 'number' : 'string'}, but it was ${kindOf(value)}`);
  switch (def.type) {
    case 'int': {
      const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) return bad('Not a number of type INT');
      if (def.min !== undefined && n < def.min) return bad(`Value must be at least ${def.min}`);
      return { value: n };
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { value };
      const t = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (t === 'true' || t === 'false') return { value: t === 'true' };
      return bad('Expected value to be either true or false');
    }
    case 'acks': {
      const t = String(value).trim();
      if (t === 'all' || t === '-1') return { value: 'all' };
      if (t === '0' || t === '1') return { value: Number(t) };
      return bad('String must be one of: all, -1, 0, 1');
    }
    case 'brokers': {
      // The simulator's brokers have ids, not host:port: "4,5" (a "broker-4:9092" form is accepted too).
      const t = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
      if (t === null) return bad('Expected a comma-separated list of broker ids, e.g. "4,5"');
      if (t === '') return { value: '' };
      const ids = t.split(/\s*,\s*/).map((s) => /^(?:broker-)?(\d+)(?::\d+)?$/.exec(s)?.[1]);
      if (ids.some((x) => x === undefined))
        return bad('Expected a comma-separated list of broker ids, e.g. "4,5"');
      return { value: ids.join(',') };
    }
    case 'string': {
      const t = String(value).trim();
      // ConsumerConfig: group.protocol is a CaseInsensitiveValidString of GroupProtocol.
      if (name === 'group.protocol')
        return def.values!.includes(t.toLowerCase())
          ? { value: t.toLowerCase() }
          : bad('String must be one of (case insensitive): CLASSIC, CONSUMER');
      if (name === 'transactional.id') return { value: t };
      if (name === 'isolation.level')
        return def.values!.includes(t.toLowerCase())
          ? { value: t.toLowerCase() }
          : bad('String must be one of (case insensitive): read_uncommitted, read_committed');
      if (name === 'group.remote.assignor') {
        if (t === '' || def.values!.includes(t)) return { value: t };
        return bad(`the brokers' group.consumer.assignors are ${def.values!.join(', ')}`);
      }
      const items = t.split(/\s*,\s*/).map((s) => ASSIGNOR_ALIASES[s] ?? s);
      const badItem = def.values ? items.find((s) => !def.values!.includes(s)) : undefined;
      if (badItem !== undefined) return bad(`String must be one of: ${def.values!.join(', ')}`);
      return { value: items.join(',') };
    }
  }
}

/**
 * The shortest wait of a client's timer. Kafka accepts 0 for request.timeout.ms and
 * auto.commit.interval.ms (ProducerConfig, ConsumerConfig: atLeast(0)); a real client still lets
 * time pass between two polls, so a 0 here waits one virtual millisecond instead of firing again
 * and again at the same instant (which stopped simulated time).
 */
export const MIN_CLIENT_TIMER_MS = 1;

/** A client's timeout or interval as the engine waits it: at least MIN_CLIENT_TIMER_MS. */
export function clientTimerMs(ms: number): number {
  return Math.max(MIN_CLIENT_TIMER_MS, ms);
}

/** Broker ids of a bootstrap.servers value ("" = none given). */
export function brokerList(value: ConfigValue | undefined): number[] {
  if (value === undefined || value === '') return [];
  return String(value)
    .split(',')
    .map((s) => Number(/^\s*(?:broker-)?(\d+)/.exec(s)?.[1] ?? NaN));
}

/** The brokers a client bootstraps from: those of bootstrap.servers, or every broker when it is unset. */
export function bootstrapBrokers(w: World, list: NodeId[]): NodeId[] {
  return list.length ? list : [...w.nodes.values()].filter((n) => n.isBroker).map((n) => n.id);
}

/** Why a client's bootstrap.servers cannot be used here (it names a node that is no broker), or null. */
export function bootstrapError(w: World, config: Record<string, ConfigValue>): string | null {
  for (const id of brokerList(config['bootstrap.servers']))
    if (!w.nodes.get(id)?.isBroker) return `bootstrap.servers: no broker ${id} in this cluster`;
  return null;
}

export interface ResolvedProducerConfig {
  config: Record<string, ConfigValue>;
  idempotent: boolean;
  idempotenceExplicit: boolean;
  error?: string;
}

/**
 * ProducerConfig.postProcessAndValidateIdempotenceConfigs and KafkaProducer.configureDeliveryTimeout:
 * idempotence is on unless a conflicting setting turns it off silently; set explicitly with a
 * conflict it is a ConfigException.
 */
export function resolveProducerConfig(
  given: Record<string, ConfigValue>,
  acksOverride?: Acks,
): ResolvedProducerConfig {
  const config: Record<string, ConfigValue> = {};
  for (const [k, d] of Object.entries(PRODUCER_CONFIGS)) config[k] = d.default;
  for (const [k, v] of Object.entries(given)) {
    const r = parseClientConfig('producer', k, v);
    if ('error' in r) return { config, idempotent: false, idempotenceExplicit: false, error: r.error };
    config[k] = r.value;
  }
  if (acksOverride !== undefined) config.acks = acksOverride;
  const explicit = Object.prototype.hasOwnProperty.call(given, 'enable.idempotence');
  const acksGiven = Object.prototype.hasOwnProperty.call(given, 'acks') || acksOverride !== undefined;
  const wanted = config['enable.idempotence'] === true;
  const conflict =
    (config['max.in.flight.requests.per.connection'] as number) > 5
      ? 'Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer.'
      : config.retries === 0
        ? 'Must set retries to non-zero when using the idempotent producer.'
        : acksGiven && config.acks !== 'all'
          ? 'Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.'
          : null;
  let error: string | undefined;
  if (explicit && wanted && conflict) error = `ConfigException: ${conflict}`;
  // ProducerConfig.postProcessAndValidateIdempotenceConfigs: transactions need idempotence.
  const transactional = config['transactional.id'] !== '';
  if (transactional && (!wanted || conflict))
    error ??= 'ConfigException: Cannot set a transactional.id without also enabling idempotence.';
  const linger = config['linger.ms'] as number;
  const requestTimeout = config['request.timeout.ms'] as number;
  if ((config['delivery.timeout.ms'] as number) < linger + requestTimeout) {
    if (Object.prototype.hasOwnProperty.call(given, 'delivery.timeout.ms'))
      error ??=
        'ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms';
    else config['delivery.timeout.ms'] = linger + requestTimeout;
  }
  // Not transactional: the two transaction configs stay out (a producer's state is as before).
  if (!transactional) {
    delete config['transactional.id'];
    if (!Object.prototype.hasOwnProperty.call(given, 'transaction.timeout.ms'))
      delete config['transaction.timeout.ms'];
  }
  return { config, idempotent: wanted && !conflict, idempotenceExplicit: explicit && wanted, error };
}

/** The consumer's configs with defaults filled in, or the first ConfigException. */
export function resolveConsumerConfig(given: Record<string, ConfigValue>): {
  config: Record<string, ConfigValue>;
  error?: string;
} {
  const config: Record<string, ConfigValue> = {};
  for (const [k, d] of Object.entries(CONSUMER_CONFIGS)) config[k] = d.default;
  for (const [k, v] of Object.entries(given)) {
    const r = parseClientConfig('consumer', k, v);
    if ('error' in r) return { config, error: r.error };
    config[k] = r.value;
  }
  // group.remote.assignor defaults to null: left out unless given (a classic consumer's state is as before).
  if (config['group.remote.assignor'] === '') delete config['group.remote.assignor'];
  if (!Object.prototype.hasOwnProperty.call(given, 'isolation.level')) delete config['isolation.level'];
  // ConsumerConfig.checkUnsupportedConfigs: each protocol refuses the other's settings.
  const set = (k: string) => Object.prototype.hasOwnProperty.call(given, k) && String(given[k]).trim() !== '';
  const protocol = config['group.protocol'] as string;
  const unsupported = (
    protocol === 'consumer'
      ? ['partition.assignment.strategy', 'heartbeat.interval.ms', 'session.timeout.ms']
      : ['group.remote.assignor']
  ).filter(set);
  if (unsupported.length)
    return {
      config,
      error: `ConfigException: ${unsupported.join(', ')} cannot be set when group.protocol=${protocol.toUpperCase()}`,
    };
  // AbstractCoordinator: heartbeat.interval.ms must be lower than session.timeout.ms.
  if ((config['heartbeat.interval.ms'] as number) >= (config['session.timeout.ms'] as number))
    return { config, error: 'ConfigException: heartbeat.interval.ms must be lower than session.timeout.ms' };
  return { config };
}
