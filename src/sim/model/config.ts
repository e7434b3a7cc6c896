// The registry of every Kafka configuration the simulator understands (the table is in
// configDefs.ts): lookups, defaults per scope, and the checks of a value with Kafka's own error
// messages (ConfigDef.parseType, its validators), so a learner meets the real words.

import { CONFIG_DEF_LIST, LONG_MAX, type ConfigDef, type ConfigScope } from './configDefs';
import type { ConfigValue } from './types';
import { kindOf, shortText, shown } from './userText';

export { LONG_MAX, type ConfigDef, type ConfigScope } from './configDefs';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const JAVA_LONG_MAX = BigInt('9223372036854775807');

export const CONFIG_DEFS: Readonly<Record<string, ConfigDef>> = Object.freeze(
  Object.fromEntries(CONFIG_DEF_LIST.map((d) => [d.name, Object.freeze(d)])),
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
  return CONFIG_DEF_LIST.filter((d) => d.scopes.includes(scope)).map((d) => d.name);
}

/** Every cluster-scope config at its Kafka default. */
export function clusterDefaults(): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const d of CONFIG_DEF_LIST) if (d.scopes.includes('cluster')) out[d.name] = d.default;
  return out;
}

/** Every topic config at its Kafka default (before cluster-wide overrides through `synonym`). */
export function topicDefaults(): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const d of CONFIG_DEF_LIST) if (d.scopes.includes('topic')) out[d.name] = d.default;
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
    const topicName = CONFIG_DEF_LIST.find((d) => d.synonym === name)?.name;
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
