// Strict validation of scenarios and commands. Every problem is listed with the path of the value
// at fault (`topics[0].replicationFactor`), never just the first, so a teacher fixes a file in one go.
// Messages reuse Kafka's own wording where Kafka has a check for the same thing.

import {
  CONFIG_DEFS,
  configDef,
  checkConfig,
  checkTopicName,
  closestName,
  parseConfigValue,
  type ConfigScope,
} from './model/config';
import type { Acks, Command, ConfigValue, Scenario, ScenarioIssue } from './model/types';
import {
  brokerList,
  resolveConsumerConfig,
  resolveProducerConfig,
  type ClientKind,
} from './model/clientConfig';
import { checkShape, keyPath, quote, shortText } from './model/userText';

/** The scenario format version this simulator reads. */
export const SCENARIO_VERSION = 1;

/** Documented limits, so that scenario URLs and the UI stay sane. */
export const LIMITS = Object.freeze({
  /** Nodes in the cluster, counting those added by addNode (a real mid-sized cluster, 200 brokers, fits). */
  maxNodes: 256,
  /** Partitions over all topics, counting those created by createTopic (a real mid-sized cluster: 20,000). */
  maxPartitions: 20000,
  maxScriptSteps: 2000,
  /** Records sent by one produce command. */
  maxProduceCount: 10000,
  /** Network latencyMs and jitterMs, and each link's latencyMs. */
  maxLatencyMs: 10000,
  /** Characters in a record key or value. */
  maxRecordChars: 10000,
  /** Records per second of one startProducer. */
  maxRatePerSec: 10000,
  /** User actions recorded in a shared session (link or file). */
  maxActions: 5000,
  /** Characters of a shared link's fragment (#s=...), so links survive chat tools and browsers. */
  maxUrlLength: 32000,
  /** Levels of nested objects and arrays in a scenario or a command (the deepest real field is 6 down). */
  maxNesting: 32,
  /** Values (objects, arrays, strings, numbers, ...) in one scenario or command, all levels counted. */
  maxValues: 1_000_000,
});

/** What a command may refer to; with it, validateCommand also checks that nodes and topics exist. */
export interface CommandContext {
  nodeIds: Set<number>;
  brokerIds: Set<number>;
  /** Topic name → partition count. */
  topics: Map<string, number>;
  /** Partitions over all topics now; when given, createTopic is held to LIMITS.maxPartitions. */
  totalPartitions?: number;
  /** Whether there is a standby region (a `mirror`), and whether the primary region is already lost. */
  mirror?: 'none' | 'active' | 'lost';
}

/** A scenario that failed validation; `issues` lists every problem. */
export class ScenarioError extends Error {
  readonly issues: ScenarioIssue[];
  constructor(issues: ScenarioIssue[]) {
    super(formatIssues(issues));
    this.name = 'ScenarioError';
    this.issues = issues;
  }
}

/** The path of an issue with the scenario as a whole. */
export const ROOT_PATH = '(root)';

/** One issue a line, `path: message`. */
export function formatIssues(issues: readonly ScenarioIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}

/** Every structural and semantic problem of a scenario; [] when it is valid. Never throws. */
export function validateScenario(input: unknown): ScenarioIssue[] {
  const out: ScenarioIssue[] = [];
  const add = (path: string, message: string) => out.push({ path, message });

  if (!isObject(input)) {
    add(ROOT_PATH, 'a scenario must be a JSON object');
    return out;
  }
  // Checked first and without recursion: the checks below walk the value recursively.
  const shape = checkShape(input, {
    maxDepth: LIMITS.maxNesting,
    maxValues: LIMITS.maxValues,
    what: 'a scenario',
  });
  if (shape) {
    add(shape.path, shape.message);
    return out;
  }

  // A newer format may mean anything; its other fields would only produce noise.
  const version = input.version;
  if (version === undefined)
    add('version', `missing; this simulator reads scenario version ${SCENARIO_VERSION}`);
  else if (isInt(version) && version > SCENARIO_VERSION) {
    add(
      'version',
      `scenario version ${version} is newer than this simulator understands (${SCENARIO_VERSION})`,
    );
    return out;
  } else if (version !== SCENARIO_VERSION) add('version', `must be ${SCENARIO_VERSION}`);

  unknownFields(
    input,
    '',
    ['version', 'seed', 'nodes', 'config', 'network', 'topics', 'script', 'security', 'mirror'],
    add,
  );

  const seed = input.seed;
  if (seed === undefined) add('seed', 'missing; a scenario needs a seed so that every run replays exactly');
  else if (!isInt(seed) || seed < -2147483648 || seed > 4294967295)
    add('seed', 'must be a 32-bit integer (from -2147483648 to 4294967295)');

  const ctx: CommandContext = {
    nodeIds: new Set(),
    brokerIds: new Set(),
    topics: new Map(),
    totalPartitions: 0,
  };
  validateNodes(input.nodes, ctx, add);
  if (input.config !== undefined) validateClusterConfig(input.config, add);
  if (input.network !== undefined) validateNetwork(input.network, ctx, add);
  if (input.topics !== undefined) validateTopics(input.topics, ctx, add);
  ctx.mirror = input.mirror === undefined ? 'none' : 'active';
  if (input.mirror !== undefined) validateMirror(input.mirror, input.seed, ctx, add);
  if (input.script !== undefined) validateScript(input.script, ctx, add);
  if (input.security !== undefined) validateSecurity(input.security, add);
  return out;
}

/**
 * The problems of one command, with paths under `path` (e.g. `command`). Structural checks always;
 * with `ctx`, also that the nodes and topics it names exist ("no node 12 in this cluster") and the
 * simulator's limits. What Kafka's controller itself decides when the command runs (a topic name
 * already taken, a replication factor above the registered brokers) is left to the engine, which
 * answers with Kafka's error; validateScenario checks those too, for the steps of a script.
 */
export function validateCommand(input: unknown, path: string, ctx?: CommandContext): ScenarioIssue[] {
  const out: ScenarioIssue[] = [];
  const shape = checkShape(
    input,
    { maxDepth: LIMITS.maxNesting, maxValues: LIMITS.maxValues, what: 'a command' },
    path,
  );
  if (shape) return [shape];
  checkCommand(input, path, ctx, (p, message) => out.push({ path: p, message }));
  return out;
}

/**
 * The scenario, checked and normalized (config values typed: "2" → 2), or a ScenarioError listing
 * every problem. The input is not modified.
 */
export function parseScenario(input: unknown): Scenario {
  const issues = validateScenario(input);
  if (issues.length > 0) throw new ScenarioError(issues);
  // A copy as JSON reads it (a scenario is JSON): what JSON cannot carry is dropped, such as a
  // field on an array (structuredClone copied those, and overflowed the stack on some).
  const scenario = JSON.parse(JSON.stringify(input)) as Scenario;
  if (scenario.config) scenario.config = typedConfigs(scenario.config);
  for (const topic of scenario.topics ?? []) if (topic.config) topic.config = typedConfigs(topic.config);
  for (const step of scenario.script ?? []) {
    const c = step.command;
    if (c.type === 'createTopic' && c.config) c.config = typedConfigs(c.config);
    if (c.type === 'alterConfig') c.configs = typedConfigs(c.configs);
  }
  const standby = scenario.mirror?.standby;
  if (standby?.config) standby.config = typedConfigs(standby.config);
  return scenario;
}

/** The command types validateCommand knows. */
export const COMMAND_TYPES: readonly Command['type'][] = Object.freeze([
  'crashNode',
  'restartNode',
  'shutdownNode',
  'partitionNetwork',
  'cutLink',
  'healNetwork',
  'createTopic',
  'alterConfig',
  'produce',
  'addNode',
  'electLeaders',
  'startProducer',
  'stopProducer',
  'beginTransaction',
  'commitTransaction',
  'abortTransaction',
  'startConsumer',
  'stopConsumer',
  'startProcessor',
  'stopProcessor',
  'commitOffsets',
  'reassignPartitions',
  'addAcl',
  'removeAcl',
  'loseRegion',
  'cli',
  'loseZone',
]);

// ---- scenario sections -------------------------------------------------------------------------

type Add = (path: string, message: string) => void;

const MIRROR_FIELDS = [
  'standby',
  'topics',
  'primaryRegion',
  'crossRegionLatencyMs',
  'pollIntervalMs',
  'acks',
];
const STANDBY_FIELDS = ['nodes', 'config', 'network', 'seed', 'region'];

/** The `mirror` block: a standby cluster (a scenario of its own, checked as one) and what to mirror. */
function validateMirror(mirror: unknown, seed: unknown, ctx: CommandContext, add: Add): void {
  if (!isObject(mirror))
    return add('mirror', 'must be an object like {"standby": {"nodes": [...]}, "topics": ["orders"]}');
  unknownFields(mirror, 'mirror', MIRROR_FIELDS, add);
  const standby = mirror.standby;
  if (standby === undefined) add('mirror.standby', 'missing; the standby cluster, e.g. {"nodes": [...]}');
  else if (!isObject(standby))
    add('mirror.standby', 'must be an object like {"nodes": [{"id": 11, "roles": ["controller"]}, ...]}');
  else {
    unknownFields(standby, 'mirror.standby', STANDBY_FIELDS, add);
    // The standby is a cluster of its own: its nodes, config and network are checked as a scenario's.
    const sub: Record<string, unknown> = {
      version: SCENARIO_VERSION,
      seed: standby.seed ?? (isInt(seed) ? seed : 0),
      nodes: standby.nodes,
    };
    if (standby.config !== undefined) sub.config = standby.config;
    if (standby.network !== undefined) sub.network = standby.network;
    for (const issue of validateScenario(sub)) {
      const path = issue.path === ROOT_PATH ? 'mirror.standby' : `mirror.standby.${issue.path}`;
      add(path, issue.message.replace('a scenario needs', 'the standby cluster needs'));
    }
    if (isObject(standby.network) && standby.network.links !== undefined)
      add('mirror.standby.network.links', 'per-link latencies are not available in the standby region');
    if (Array.isArray(standby.nodes))
      each(standby.nodes, (node, i) => {
        if (isObject(node) && isNodeId(node.id) && ctx.nodeIds.has(node.id))
          add(
            `mirror.standby.nodes[${i}].id`,
            `node id ${node.id} is already a node of the primary cluster: give the standby its own ids`,
          );
      });
    if (standby.region !== undefined) checkRegion(standby.region, 'mirror.standby.region', add);
  }
  if (mirror.primaryRegion !== undefined) checkRegion(mirror.primaryRegion, 'mirror.primaryRegion', add);
  if (
    typeof mirror.primaryRegion === 'string' &&
    isObject(standby) &&
    (standby.region ?? 'region-2') === mirror.primaryRegion
  )
    add(
      'mirror.primaryRegion',
      `the two regions need different names (both are ${quote(mirror.primaryRegion)})`,
    );

  const topics = mirror.topics;
  if (topics === undefined) add('mirror.topics', 'missing; the topics to mirror, e.g. ["orders"]');
  else if (!Array.isArray(topics) || topics.length === 0)
    add('mirror.topics', 'must be a non-empty array of topic names');
  else {
    const firstAt = new Map<string, number>();
    each(topics, (topic, i) => {
      const path = `mirror.topics[${i}]`;
      if (typeof topic !== 'string') return add(path, 'must be a topic name');
      if (firstAt.has(topic))
        return add(path, `duplicate topic ${quote(topic)}, also at mirror.topics[${firstAt.get(topic)}]`);
      firstAt.set(topic, i);
      if (!ctx.topics.has(topic))
        add(path, `topic ${quote(topic)} is not in the scenario: mirror one of its "topics"`);
    });
  }
  if (mirror.crossRegionLatencyMs !== undefined) {
    const v = mirror.crossRegionLatencyMs;
    if (!isInt(v) || v < 1 || v > LIMITS.maxLatencyMs)
      add(
        'mirror.crossRegionLatencyMs',
        `must be a whole number of milliseconds from 1 to ${LIMITS.maxLatencyMs}`,
      );
  }
  if (mirror.pollIntervalMs !== undefined) {
    const v = mirror.pollIntervalMs;
    if (!isInt(v) || v < 1 || v > 60000)
      add('mirror.pollIntervalMs', 'must be a whole number of milliseconds from 1 to 60000');
  }
  checkAcks(mirror.acks, 'mirror.acks', add);
}

function checkRegion(region: unknown, path: string, add: Add): void {
  if (typeof region !== 'string' || region === '' || region.length > 64)
    add(path, 'must be a region name of 1 to 64 characters, e.g. "eu-west-1"');
}

export const SECURITY_PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
const ACL_FIELDS = ['principal', 'operation', 'resourceType', 'resourceName', 'patternType', 'permission'];

function validateSecurity(security: unknown, add: Add): void {
  if (!isObject(security))
    return add(
      'security',
      'must be an object like {"principals": {"producer-1": "User:alice"}, "acls": [...]}',
    );
  unknownFields(security, 'security', ['principals', 'acls', 'listener', 'clientProtocols'], add);
  if (security.principals !== undefined) {
    if (!isObject(security.principals))
      add(
        'security.principals',
        'must be an object of client ids to principals, e.g. {"producer-1": "User:alice"}',
      );
    else
      for (const [id, p] of Object.entries(security.principals))
        checkPrincipal(p, keyPath('security.principals', id), add);
  }
  if (security.acls !== undefined) {
    if (!Array.isArray(security.acls)) add('security.acls', 'must be an array of ACL bindings');
    else
      each(security.acls, (acl, i) => {
        const path = `security.acls[${i}]`;
        if (!isObject(acl))
          return add(path, 'an ACL must be an object like {"principal": "User:alice", ...}');
        unknownFields(acl, path, ACL_FIELDS, add);
        checkAcl(acl, path, add);
      });
  }
  if (security.listener !== undefined && !SECURITY_PROTOCOLS.includes(security.listener as never))
    add('security.listener', `must be one of ${SECURITY_PROTOCOLS.join(', ')}`);
  if (security.clientProtocols !== undefined) {
    if (!isObject(security.clientProtocols))
      add('security.clientProtocols', 'must be an object of client ids to security protocols');
    else
      for (const [id, p] of Object.entries(security.clientProtocols))
        if (!SECURITY_PROTOCOLS.includes(p as never))
          add(keyPath('security.clientProtocols', id), `must be one of ${SECURITY_PROTOCOLS.join(', ')}`);
  }
}

function checkPrincipal(p: unknown, path: string, add: Add): void {
  // KafkaPrincipal.fromString: "type:name".
  if (typeof p !== 'string' || !/^[^:]+:.+$/.test(p))
    add(path, 'a principal is "User:name" (KafkaPrincipal type:name), e.g. "User:alice" or "User:*"');
}

function checkAcl(acl: Record<string, unknown>, path: string, add: Add): void {
  if (acl.principal === undefined) add(`${path}.principal`, 'missing');
  else checkPrincipal(acl.principal, `${path}.principal`, add);
  const oneOf = (key: string, values: readonly string[], required = true) => {
    const v = acl[key];
    if (v === undefined) {
      if (required) add(`${path}.${key}`, `missing; one of ${values.join(', ')}`);
    } else if (typeof v !== 'string' || !values.includes(v))
      add(`${path}.${key}`, `must be one of ${values.join(', ')}`);
  };
  oneOf('operation', ['Read', 'Write', 'Describe', 'All']);
  oneOf('resourceType', ['topic', 'group']);
  oneOf('patternType', ['literal', 'prefixed'], false);
  oneOf('permission', ['allow', 'deny']);
  if (acl.resourceName === undefined) add(`${path}.resourceName`, 'missing; a name, or "*" for all');
  else if (typeof acl.resourceName !== 'string' || acl.resourceName === '')
    add(`${path}.resourceName`, 'must be a non-empty string ("*" for all)');
}

function validateNodes(nodes: unknown, ctx: CommandContext, add: Add): void {
  if (nodes === undefined)
    return add('nodes', 'missing; a scenario needs at least one controller and one broker');
  if (!Array.isArray(nodes)) return add('nodes', 'must be an array of nodes');
  if (nodes.length === 0) return add('nodes', 'must list at least one controller and one broker');
  if (nodes.length > LIMITS.maxNodes) add('nodes', `${nodes.length} nodes; the limit is ${LIMITS.maxNodes}`);

  const firstAt = new Map<number, number>();
  let controllers = 0;
  let brokers = 0;
  each(nodes, (node, i) => {
    const path = `nodes[${i}]`;
    if (!isObject(node)) return add(path, 'a node must be an object like {"id": 1, "roles": ["broker"]}');
    unknownFields(node, path, ['id', 'roles', 'rack'], add);
    const id = node.id;
    let idOk = false;
    if (id === undefined) add(`${path}.id`, 'missing');
    else if (!isNodeId(id)) add(`${path}.id`, 'a node id must be a positive 32-bit integer');
    else if (firstAt.has(id)) add(`${path}.id`, `duplicate node id ${id}, also at nodes[${firstAt.get(id)}]`);
    else {
      firstAt.set(id, i);
      idOk = true;
    }
    const roles = checkRoles(node.roles, `${path}.roles`, add);
    if (node.rack !== undefined) checkRack(node.rack, `${path}.rack`, add);
    if (roles.includes('controller')) controllers++;
    if (roles.includes('broker')) brokers++;
    if (idOk) {
      ctx.nodeIds.add(id as number);
      if (roles.includes('broker')) ctx.brokerIds.add(id as number);
    }
  });
  if (controllers === 0) add('nodes', 'a KRaft cluster needs at least one node with the "controller" role');
  if (brokers === 0) add('nodes', 'a cluster needs at least one node with the "broker" role');
}

function validateClusterConfig(config: unknown, add: Add): void {
  if (!isObject(config)) return add('config', 'must be an object of Kafka config names to values');
  for (const [name, value] of Object.entries(config)) {
    const problem = checkConfig(name, value, 'cluster');
    if (problem) add(keyPath('config', name), problem);
  }
  // KafkaConfig.validateValues
  const effective = (name: string): number | undefined => {
    const raw = hasOwn(config, name) ? config[name] : configDef(name).default;
    if (checkConfig(name, raw, 'cluster') !== null) return undefined;
    return parseConfigValue(configDef(name), raw as ConfigValue) as number;
  };
  const fetchWait = effective('replica.fetch.wait.max.ms');
  const lagMax = effective('replica.lag.time.max.ms');
  if (fetchWait !== undefined && lagMax !== undefined && fetchWait > lagMax)
    add(
      hasOwn(config, 'replica.fetch.wait.max.ms')
        ? 'config.replica.fetch.wait.max.ms'
        : 'config.replica.lag.time.max.ms',
      'replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
    );
}

function validateNetwork(network: unknown, ctx: CommandContext, add: Add): void {
  if (!isObject(network)) return add('network', 'must be an object like {"latencyMs": 2}');
  unknownFields(network, 'network', ['latencyMs', 'jitterMs', 'links'], add);
  if (network.latencyMs !== undefined) checkLatency(network.latencyMs, 'network.latencyMs', add);
  if (network.jitterMs !== undefined) checkLatency(network.jitterMs, 'network.jitterMs', add);
  if (network.links === undefined) return;
  if (!Array.isArray(network.links))
    return add('network.links', 'must be an array of {"from", "to", "latencyMs"}');
  const firstAt = new Map<string, number>();
  each(network.links, (link, i) => {
    const path = `network.links[${i}]`;
    if (!isObject(link))
      return add(path, 'a link must be an object like {"from": 4, "to": 5, "latencyMs": 20}');
    unknownFields(link, path, ['from', 'to', 'latencyMs'], add);
    const ends = checkLinkEnds(link, path, ctx, add);
    if (link.latencyMs === undefined) add(`${path}.latencyMs`, 'missing');
    else checkLatency(link.latencyMs, `${path}.latencyMs`, add);
    if (ends) {
      const key = `${quote(ends[0])} → ${quote(ends[1])}`;
      if (firstAt.has(key)) add(path, `duplicate link ${key}, also at network.links[${firstAt.get(key)}]`);
      else firstAt.set(key, i);
    }
  });
}

function validateTopics(topics: unknown, ctx: CommandContext, add: Add): void {
  if (!Array.isArray(topics)) return add('topics', 'must be an array of topics');
  const firstAt = new Map<string, number>();
  each(topics, (topic, i) => {
    const path = `topics[${i}]`;
    if (!isObject(topic))
      return add(
        path,
        'a topic must be an object like {"name": "orders", "partitions": 6, "replicationFactor": 3}',
      );
    unknownFields(topic, path, TOPIC_FIELDS, add);
    if (checkTopic(topic, path, ctx, add, { scenarioTopics: firstAt, clusterChecks: true }))
      addTopic(topic, ctx);
    if (typeof topic.name === 'string' && !firstAt.has(topic.name)) firstAt.set(topic.name, i);
  });
  if (ctx.totalPartitions! > LIMITS.maxPartitions)
    add('topics', `${ctx.totalPartitions} partitions in total; the limit is ${LIMITS.maxPartitions}`);
}

function validateScript(script: unknown, ctx: CommandContext, add: Add): void {
  if (!Array.isArray(script)) return add('script', 'must be an array of {"atMs", "command"} steps');
  if (script.length > LIMITS.maxScriptSteps)
    add('script', `${script.length} steps; the limit is ${LIMITS.maxScriptSteps}`);

  const order: { index: number; atMs: number }[] = [];
  each(script, (step, i) => {
    const path = `script[${i}]`;
    if (!isObject(step))
      return add(
        path,
        'a step must be an object like {"atMs": 5000, "command": {"type": "crashNode", "nodeId": 4}}',
      );
    unknownFields(step, path, ['atMs', 'command'], add);
    let atMs = 0;
    if (step.atMs === undefined) add(`${path}.atMs`, 'missing');
    else if (!isInt(step.atMs) || step.atMs < 0)
      add(`${path}.atMs`, 'must be a non-negative integer (virtual milliseconds from the start)');
    else atMs = step.atMs;
    if (step.command === undefined) add(`${path}.command`, 'missing');
    order.push({ index: i, atMs });
  });

  // Steps run in atMs order, ties in file order: a command may use what an earlier step created.
  order.sort((a, b) => a.atMs - b.atMs || a.index - b.index);
  for (const { index } of order) {
    const step = script[index] as Record<string, unknown>;
    if (step.command === undefined) continue;
    const path = `script[${index}].command`;
    let ok = true;
    const collect = (p: string, m: string) => {
      ok = false;
      add(p, m);
    };
    checkCommand(step.command, path, ctx, collect, true);
    if (ok) applyToContext(step.command as Command, ctx);
  }
}

/** What a valid command changes in what later commands may refer to. */
function applyToContext(command: Command, ctx: CommandContext): void {
  if (command.type === 'loseRegion') ctx.mirror = 'lost';
  if (command.type === 'createTopic') addTopic(command as unknown as Record<string, unknown>, ctx);
  if (command.type === 'addNode') {
    ctx.nodeIds.add(command.nodeId);
    if (command.roles.includes('broker')) ctx.brokerIds.add(command.nodeId);
  }
}

function addTopic(topic: Record<string, unknown>, ctx: CommandContext): void {
  ctx.topics.set(topic.name as string, topic.partitions as number);
  if (ctx.totalPartitions !== undefined) ctx.totalPartitions += topic.partitions as number;
}

// ---- topics ------------------------------------------------------------------------------------

const TOPIC_FIELDS = ['name', 'partitions', 'replicationFactor', 'config', 'assignment'];

interface TopicCheck {
  /** For a scenario topic: the names seen so far, with their index in `topics`. */
  scenarioTopics?: Map<string, number>;
  /**
   * Also check against the cluster what Kafka's controller checks when it creates the topic (name
   * taken, replication factor against the brokers, assigned brokers registered). Scenario files get
   * these up front; a command at run time gets the controller's own answer from the engine.
   */
  clusterChecks: boolean;
}

/** Checks a topic of the scenario or of a createTopic command; true when it can be created. */
function checkTopic(
  topic: Record<string, unknown>,
  path: string,
  ctx: CommandContext | undefined,
  add: Add,
  { scenarioTopics, clusterChecks }: TopicCheck,
): boolean {
  const cluster = clusterChecks ? ctx : undefined;
  let ok = true;
  const fail = (p: string, m: string) => {
    ok = false;
    add(p, m);
  };

  const name = topic.name;
  if (name === undefined) fail(`${path}.name`, 'missing');
  else if (typeof name !== 'string') fail(`${path}.name`, 'a topic name must be a string');
  else {
    const problem = checkTopicName(name);
    if (problem) fail(`${path}.name`, problem);
    else if (name.startsWith('__'))
      // Kafka's own internal topics (__consumer_offsets, __cluster_metadata, ...) are the simulator's.
      fail(
        `${path}.name`,
        `Topic name ${shortText(name)} is reserved: names starting with "__" belong to Kafka's internal topics`,
      );
    else if (scenarioTopics?.has(name))
      fail(
        `${path}.name`,
        `duplicate topic name ${quote(name)}, also at topics[${scenarioTopics.get(name)}]`,
      );
    else if (cluster) {
      if (cluster.topics.has(name)) fail(`${path}.name`, `Topic '${shortText(name)}' already exists.`);
      else {
        // ReplicationControlManager.validateNewTopicNames: '.' and '_' collide in metric names.
        const normalized = name.replace(/\./g, '_');
        const other = [...cluster.topics.keys()].find((t) => t.replace(/\./g, '_') === normalized);
        if (other !== undefined)
          fail(
            `${path}.name`,
            `Topic '${shortText(name)}' collides with existing topic: ${shortText(other)}`,
          );
      }
    }
  }

  const partitions = topic.partitions;
  let partitionsOk = false;
  if (partitions === undefined) fail(`${path}.partitions`, 'missing');
  else if (!isInt(partitions) || partitions < 1)
    fail(`${path}.partitions`, 'must be an integer of at least 1');
  else if (
    !scenarioTopics &&
    ctx?.totalPartitions !== undefined &&
    ctx.totalPartitions + partitions > LIMITS.maxPartitions
  )
    fail(
      `${path}.partitions`,
      `this topic would bring the cluster to ${ctx.totalPartitions + partitions} partitions; the limit is ${LIMITS.maxPartitions}`,
    );
  else partitionsOk = true;

  const rf = topic.replicationFactor;
  let rfOk = false;
  if (rf === undefined) fail(`${path}.replicationFactor`, 'missing');
  else if (!isInt(rf) || rf < 1) fail(`${path}.replicationFactor`, 'must be an integer of at least 1');
  else if (cluster && rf > cluster.brokerIds.size)
    fail(
      `${path}.replicationFactor`,
      `The target replication factor of ${rf} cannot be reached because only ${cluster.brokerIds.size} broker(s) are registered.`,
    );
  else rfOk = true;

  if (topic.config !== undefined) {
    if (!isObject(topic.config)) fail(`${path}.config`, 'must be an object of topic config names to values');
    else
      for (const [key, value] of Object.entries(topic.config)) {
        const problem = checkConfig(key, value, 'topic');
        if (problem) fail(keyPath(`${path}.config`, key), problem);
      }
  }

  if (topic.assignment !== undefined) {
    const assignment = topic.assignment;
    if (!Array.isArray(assignment))
      fail(`${path}.assignment`, 'must be an array of replica lists, one per partition');
    else {
      if (partitionsOk && assignment.length !== partitions)
        fail(
          `${path}.assignment`,
          `has ${assignment.length} replica list${assignment.length === 1 ? '' : 's'}, but the topic has ${partitions} partition${partitions === 1 ? '' : 's'}`,
        );
      each(assignment, (replicas, p) => {
        const rpath = `${path}.assignment[${p}]`;
        if (!Array.isArray(replicas)) return fail(rpath, 'must be an array of broker ids');
        if (replicas.length === 0)
          return fail(rpath, 'The manual partition assignment includes an empty replica list.');
        if (rfOk && replicas.length !== rf)
          fail(
            rpath,
            `has ${replicas.length} replica${replicas.length === 1 ? '' : 's'}, but replicationFactor is ${rf}`,
          );
        const seen = new Set<number>();
        each(replicas, (id, r) => {
          if (!isNodeId(id)) return fail(`${rpath}[${r}]`, 'a broker id must be a positive 32-bit integer');
          if (seen.has(id))
            return fail(
              `${rpath}[${r}]`,
              `The manual partition assignment includes the broker ${id} more than once.`,
            );
          seen.add(id);
          if (cluster && !cluster.brokerIds.has(id))
            fail(
              `${rpath}[${r}]`,
              `The manual partition assignment includes broker ${id}, but no such broker is registered.`,
            );
        });
      });
    }
  }
  return ok;
}

// ---- commands ----------------------------------------------------------------------------------

type CommandCheck = (
  c: Record<string, unknown>,
  path: string,
  ctx: CommandContext | undefined,
  add: Add,
  inScenario: boolean,
) => void;

const nodeCommand: CommandCheck = (c, path, ctx, add) => {
  fields(c, path, ['nodeId'], add);
  checkNodeRef(c.nodeId, `${path}.nodeId`, ctx, add);
};

/** beginTransaction, commitTransaction, abortTransaction: the transactional producer's id. */
const transactionCall: CommandCheck = (c, path, _ctx, add) => {
  fields(c, path, ['producerId'], add);
  checkClientId(c.producerId, `${path}.producerId`, add, 'producer-1');
};

const aclCommand: CommandCheck = (c, path, _ctx, add) => {
  fields(c, path, ACL_FIELDS, add);
  checkAcl(c, path, add);
};

/** One check per command type; a new Command type fails to compile until it has one here. */
const COMMAND_CHECKS: { [K in Command['type']]: CommandCheck } = {
  startProducer(c, path, ctx, add, inScenario) {
    fields(
      c,
      path,
      ['producerId', 'topic', 'ratePerSec', 'keyPattern', 'keyCount', 'acks', 'config', 'transactionMs'],
      add,
    );
    checkClientId(c.producerId, `${path}.producerId`, add, 'producer-1');
    checkClientTopic(c.topic, `${path}.topic`, ctx, add, inScenario);
    if (c.ratePerSec === undefined) add(`${path}.ratePerSec`, 'missing');
    else if (typeof c.ratePerSec !== 'number' || !(c.ratePerSec >= 0) || c.ratePerSec > LIMITS.maxRatePerSec)
      add(`${path}.ratePerSec`, `must be a number of records per second from 0 to ${LIMITS.maxRatePerSec}`);
    if (c.keyPattern !== undefined && c.keyPattern !== null)
      checkRecordText(c.keyPattern, `${path}.keyPattern`, add, 'a string such as "customer-{n}", or null');
    if (c.keyCount !== undefined && (!isInt(c.keyCount) || c.keyCount < 1 || c.keyCount > 1000000))
      add(`${path}.keyCount`, 'must be an integer from 1 to 1000000');
    checkAcks(c.acks, `${path}.acks`, add);
    checkClientConfigs(
      c.config,
      `${path}.config`,
      'producer',
      ctx,
      add,
      (given) => resolveProducerConfig(given, isAcks(c.acks) ? c.acks : undefined).error,
    );
    if (c.transactionMs !== undefined) {
      if (!isInt(c.transactionMs) || c.transactionMs < 1 || c.transactionMs > 3600000)
        add(`${path}.transactionMs`, 'must be an integer number of milliseconds from 1 to 3600000');
      else if (!isObject(c.config) || c.config['transactional.id'] === undefined)
        add(`${path}.transactionMs`, 'needs a transactional producer: set config["transactional.id"]');
    }
  },

  stopProducer(c, path, _ctx, add) {
    fields(c, path, ['producerId', 'graceful'], add);
    checkClientId(c.producerId, `${path}.producerId`, add, 'producer-1');
    if (c.graceful !== undefined && typeof c.graceful !== 'boolean')
      add(`${path}.graceful`, 'must be true or false');
  },

  beginTransaction: transactionCall,
  commitTransaction: transactionCall,
  abortTransaction: transactionCall,

  startConsumer(c, path, ctx, add, inScenario) {
    fields(c, path, ['consumerId', 'groupId', 'topics', 'config', 'commitBeforeProcess', 'processMs'], add);
    if (c.commitBeforeProcess !== undefined && typeof c.commitBeforeProcess !== 'boolean')
      add(`${path}.commitBeforeProcess`, 'must be true or false');
    if (c.processMs !== undefined && (!isInt(c.processMs) || c.processMs < 0 || c.processMs > 3600000))
      add(`${path}.processMs`, 'must be an integer number of milliseconds from 0 to 3600000');
    checkClientId(c.consumerId, `${path}.consumerId`, add, 'consumer-1');
    if (c.groupId === undefined) add(`${path}.groupId`, 'missing');
    else if (typeof c.groupId !== 'string' || c.groupId === '')
      add(`${path}.groupId`, 'must be a non-empty string, e.g. "my-group"');
    if (c.topics === undefined) add(`${path}.topics`, 'missing');
    else if (!Array.isArray(c.topics) || c.topics.length === 0)
      add(`${path}.topics`, 'must be a non-empty array of topic names');
    else each(c.topics, (t, i) => checkClientTopic(t, `${path}.topics[${i}]`, ctx, add, inScenario));
    checkClientConfigs(
      c.config,
      `${path}.config`,
      'consumer',
      ctx,
      add,
      (given) => resolveConsumerConfig(given).error,
    );
  },

  stopConsumer(c, path, _ctx, add) {
    fields(c, path, ['consumerId', 'graceful'], add);
    checkClientId(c.consumerId, `${path}.consumerId`, add, 'consumer-1');
    if (c.graceful !== undefined && typeof c.graceful !== 'boolean')
      add(`${path}.graceful`, 'must be true or false');
  },

  startProcessor(c, path, ctx, add, inScenario) {
    fields(
      c,
      path,
      [
        'processorId',
        'groupId',
        'inputTopic',
        'outputTopic',
        'processingGuarantee',
        'commitIntervalMs',
        'config',
      ],
      add,
    );
    checkClientId(c.processorId, `${path}.processorId`, add, 'processor-1');
    if (c.groupId === undefined) add(`${path}.groupId`, 'missing');
    else if (typeof c.groupId !== 'string' || c.groupId === '')
      add(`${path}.groupId`, 'must be a non-empty string, e.g. "orders-app"');
    checkClientTopic(c.inputTopic, `${path}.inputTopic`, ctx, add, inScenario);
    checkClientTopic(c.outputTopic, `${path}.outputTopic`, ctx, add, inScenario);
    if (typeof c.inputTopic === 'string' && c.inputTopic === c.outputTopic)
      add(`${path}.outputTopic`, 'must differ from inputTopic (the processor would read its own output)');
    if (
      c.processingGuarantee !== undefined &&
      c.processingGuarantee !== 'at_least_once' &&
      c.processingGuarantee !== 'exactly_once_v2'
    )
      add(
        `${path}.processingGuarantee`,
        'must be "at_least_once" or "exactly_once_v2" (Kafka Streams\' processing.guarantee)',
      );
    if (
      c.commitIntervalMs !== undefined &&
      (!isInt(c.commitIntervalMs) || c.commitIntervalMs < 1 || c.commitIntervalMs > 3600000)
    )
      add(`${path}.commitIntervalMs`, 'must be an integer number of milliseconds from 1 to 3600000');
    checkClientConfigs(
      c.config,
      `${path}.config`,
      'consumer',
      ctx,
      add,
      (given) => resolveConsumerConfig(given).error,
    );
  },

  stopProcessor(c, path, _ctx, add) {
    fields(c, path, ['processorId', 'graceful'], add);
    checkClientId(c.processorId, `${path}.processorId`, add, 'processor-1');
    if (c.graceful !== undefined && typeof c.graceful !== 'boolean')
      add(`${path}.graceful`, 'must be true or false');
  },

  commitOffsets(c, path, _ctx, add) {
    fields(c, path, ['consumerId'], add);
    checkClientId(c.consumerId, `${path}.consumerId`, add, 'consumer-1');
  },

  addAcl: aclCommand,
  removeAcl: aclCommand,

  reassignPartitions(c, path, ctx, add) {
    fields(c, path, ['partitions'], add);
    if (c.partitions === undefined) return add(`${path}.partitions`, 'missing');
    if (!Array.isArray(c.partitions) || c.partitions.length === 0)
      return add(
        `${path}.partitions`,
        'must be a non-empty array of {"topic", "partition", "replicas"} (replicas null cancels)',
      );
    const seen = new Set<string>();
    each(c.partitions, (tp, i) => {
      const ppath = `${path}.partitions[${i}]`;
      if (!isObject(tp))
        return add(
          ppath,
          'must be an object like {"topic": "orders", "partition": 0, "replicas": [4, 5, 6]}',
        );
      unknownFields(tp, ppath, ['topic', 'partition', 'replicas'], add);
      checkTopicPartition(tp, ppath, ctx, add);
      const key = `${quote(tp.topic)}-${quote(tp.partition)}`;
      if (seen.has(key)) add(ppath, `partition ${key} is named twice`);
      seen.add(key);
      if (tp.replicas === undefined)
        return add(`${ppath}.replicas`, 'missing; a list of broker ids, or null to cancel');
      if (tp.replicas === null) return;
      if (!Array.isArray(tp.replicas) || tp.replicas.length === 0)
        return add(`${ppath}.replicas`, 'The manual partition assignment includes an empty replica list.');
      const ids = new Set<number>();
      each(tp.replicas, (id, r) => {
        if (!isNodeId(id))
          return add(`${ppath}.replicas[${r}]`, 'a broker id must be a positive 32-bit integer');
        if (ids.has(id))
          add(
            `${ppath}.replicas[${r}]`,
            `The manual partition assignment includes the broker ${id} more than once.`,
          );
        ids.add(id);
        if (ctx && !ctx.brokerIds.has(id)) add(`${ppath}.replicas[${r}]`, `no broker ${id} in this cluster`);
      });
    });
  },

  crashNode: nodeCommand,
  restartNode: nodeCommand,
  shutdownNode: nodeCommand,

  partitionNetwork(c, path, ctx, add) {
    fields(c, path, ['groups'], add);
    const groups = c.groups;
    if (groups === undefined) return add(`${path}.groups`, 'missing');
    if (!Array.isArray(groups) || groups.length === 0)
      return add(`${path}.groups`, 'must be a non-empty array of node id lists, e.g. [[1, 4, 5], [2, 3, 6]]');
    const groupOf = new Map<number, number>();
    each(groups, (group, g) => {
      const gpath = `${path}.groups[${g}]`;
      if (!Array.isArray(group) || group.length === 0)
        return add(gpath, 'must be a non-empty array of node ids');
      each(group, (id, k) => {
        if (!checkNodeRef(id, `${gpath}[${k}]`, ctx, add)) return;
        const n = id as number;
        if (groupOf.has(n) && groupOf.get(n) !== g)
          add(`${gpath}[${k}]`, `node ${n} is in two groups: groups[${groupOf.get(n)}] and groups[${g}]`);
        else groupOf.set(n, g);
      });
    });
  },

  cutLink(c, path, ctx, add) {
    fields(c, path, ['from', 'to', 'oneWay'], add);
    checkLinkEnds(c, path, ctx, add);
    if (c.oneWay !== undefined && typeof c.oneWay !== 'boolean')
      add(`${path}.oneWay`, 'must be true or false');
  },

  healNetwork(c, path, _ctx, add) {
    fields(c, path, [], add);
  },

  createTopic(c, path, ctx, add, inScenario) {
    fields(c, path, TOPIC_FIELDS, add);
    checkTopic(c, path, ctx, add, { clusterChecks: inScenario });
  },

  alterConfig(c, path, ctx, add) {
    fields(c, path, ['resourceType', 'resourceName', 'configs'], add);
    const type = c.resourceType;
    const name = c.resourceName;
    const scope: ConfigScope | undefined =
      type === 'topic' || type === 'broker' || type === 'cluster' ? type : undefined;
    if (type === undefined) add(`${path}.resourceType`, 'missing');
    else if (!scope) add(`${path}.resourceType`, 'must be "topic", "broker" or "cluster"');

    if (scope === 'topic') {
      if (name === undefined) add(`${path}.resourceName`, 'missing; name the topic');
      else if (typeof name !== 'string') add(`${path}.resourceName`, 'must be the topic name, a string');
      else if (ctx && !ctx.topics.has(name)) add(`${path}.resourceName`, `no topic ${quote(name)}`);
    } else if (scope === 'broker') {
      if (name === undefined) add(`${path}.resourceName`, 'missing; name the broker, e.g. "4"');
      else if (typeof name !== 'string' || !/^[0-9]+$/.test(name))
        add(`${path}.resourceName`, 'must be a broker id written as a string, e.g. "4"');
      else if (ctx && !ctx.nodeIds.has(Number(name)))
        add(`${path}.resourceName`, `no node ${name} in this cluster`);
    } else if (scope === 'cluster' && name !== undefined && name !== '') {
      add(`${path}.resourceName`, 'must be omitted for the cluster-wide default');
    }

    const configs = c.configs;
    if (configs === undefined) return add(`${path}.configs`, 'missing');
    if (!isObject(configs))
      return add(`${path}.configs`, 'must be an object of config names to values (null deletes)');
    if (!scope) return;
    for (const [key, value] of Object.entries(configs)) {
      // null is incrementalAlterConfigs' DELETE: only the name needs to be right.
      const problem =
        value === null
          ? checkConfig(key, CONFIG_DEFS[key]?.default, scope, { alter: true })
          : checkConfig(key, value, scope, { alter: true });
      if (problem) add(keyPath(`${path}.configs`, key), problem);
    }
  },

  produce(c, path, ctx, add) {
    fields(c, path, ['topic', 'key', 'value', 'acks', 'partition', 'producerId', 'count'], add);
    const topic = c.topic;
    let partitions: number | undefined;
    if (topic === undefined) add(`${path}.topic`, 'missing');
    else if (typeof topic !== 'string') add(`${path}.topic`, 'must be a topic name');
    else if (ctx) {
      partitions = ctx.topics.get(topic);
      if (partitions === undefined) add(`${path}.topic`, `no topic ${quote(topic)}`);
    }
    if (c.key !== undefined && c.key !== null) checkRecordText(c.key, `${path}.key`, add, 'a string or null');
    if (c.value === undefined) add(`${path}.value`, 'missing');
    else checkRecordText(c.value, `${path}.value`, add, 'a string');
    checkAcks(c.acks, `${path}.acks`, add);
    if (c.partition !== undefined) {
      if (!isInt(c.partition) || c.partition < 0) add(`${path}.partition`, 'must be a non-negative integer');
      else if (partitions !== undefined && c.partition >= partitions)
        // KafkaProducer.partition
        add(
          `${path}.partition`,
          `Invalid partition given with record: ${c.partition} is not in the range [0...${partitions}).`,
        );
    }
    if (c.producerId !== undefined && (typeof c.producerId !== 'string' || c.producerId === ''))
      add(`${path}.producerId`, 'must be a non-empty string, e.g. "producer-1"');
    if (c.count !== undefined && (!isInt(c.count) || c.count < 1 || c.count > LIMITS.maxProduceCount))
      add(`${path}.count`, `must be an integer from 1 to ${LIMITS.maxProduceCount}`);
  },

  addNode(c, path, ctx, add) {
    fields(c, path, ['nodeId', 'roles', 'rack'], add);
    const id = c.nodeId;
    if (id === undefined) add(`${path}.nodeId`, 'missing');
    else if (!isNodeId(id)) add(`${path}.nodeId`, 'a node id must be a positive 32-bit integer');
    else if (ctx?.nodeIds.has(id)) add(`${path}.nodeId`, `node ${id} already exists`);
    else if (ctx && ctx.nodeIds.size >= LIMITS.maxNodes)
      add(
        `${path}.nodeId`,
        `the cluster already has ${ctx.nodeIds.size} nodes; the limit is ${LIMITS.maxNodes}`,
      );
    if (checkRoles(c.roles, `${path}.roles`, add).includes('controller'))
      add(
        `${path}.roles`,
        'adding a controller needs a dynamic quorum (KIP-853), which this simulator does not model: add brokers only',
      );
    if (c.rack !== undefined) checkRack(c.rack, `${path}.rack`, add);
  },

  cli(c, path, _ctx, add) {
    fields(c, path, ['line'], add);
    if (typeof c.line !== 'string' || c.line.trim() === '' || c.line.length > 4096)
      add(`${path}.line`, 'must be one command line of up to 4096 characters, e.g. "kafka-topics.sh --list"');
  },

  loseZone(c, path, _ctx, add) {
    fields(c, path, ['rack'], add);
    if (c.rack === undefined) add(`${path}.rack`, 'missing');
    else checkRack(c.rack, `${path}.rack`, add);
  },

  loseRegion(c, path, ctx, add) {
    fields(c, path, [], add);
    if (ctx?.mirror === 'none')
      add(path, 'this scenario has no standby region: add a "mirror" block to it (docs/scenario.md)');
    else if (ctx?.mirror === 'lost') add(path, 'the primary region is already lost');
  },

  electLeaders(c, path, ctx, add) {
    fields(c, path, ['electionType', 'partitions'], add);
    if (c.electionType === undefined) add(`${path}.electionType`, 'missing');
    else if (c.electionType !== 'preferred' && c.electionType !== 'unclean')
      add(`${path}.electionType`, 'must be "preferred" or "unclean"');
    if (c.partitions === undefined) return;
    if (!Array.isArray(c.partitions))
      return add(
        `${path}.partitions`,
        'must be an array of {"topic", "partition"} (omit it for all partitions)',
      );
    each(c.partitions, (tp, i) => {
      const ppath = `${path}.partitions[${i}]`;
      if (!isObject(tp)) return add(ppath, 'must be an object like {"topic": "orders", "partition": 0}');
      unknownFields(tp, ppath, ['topic', 'partition'], add);
      checkTopicPartition(tp, ppath, ctx, add);
    });
  },
};

function checkCommand(
  input: unknown,
  path: string,
  ctx: CommandContext | undefined,
  add: Add,
  inScenario = false,
): void {
  if (!isObject(input))
    return add(path, 'a command must be an object with a "type", e.g. {"type": "crashNode", "nodeId": 4}');
  const type = input.type;
  if (type === undefined) return add(`${path}.type`, `missing; one of ${COMMAND_TYPES.join(', ')}`);
  if (typeof type !== 'string' || !hasOwn(COMMAND_CHECKS, type)) {
    const close = typeof type === 'string' ? closestName(type, COMMAND_TYPES) : undefined;
    return add(
      `${path}.type`,
      `unknown command type ${quote(type)}${close ? ` (did you mean "${close}"?)` : ''}`,
    );
  }
  COMMAND_CHECKS[type as Command['type']](input, path, ctx, add, inScenario);
}

// ---- shared checks -----------------------------------------------------------------------------

function checkClientId(id: unknown, path: string, add: Add, example: string): void {
  if (id === undefined) add(path, 'missing');
  else if (typeof id !== 'string' || id === '') add(path, `must be a non-empty string, e.g. "${example}"`);
}

/**
 * A client's topic: in a scenario it must be one the scenario creates (a typo would wait forever);
 * at run time any legal name, since the client waits for it in the metadata as Kafka's does.
 */
function checkClientTopic(
  topic: unknown,
  path: string,
  ctx: CommandContext | undefined,
  add: Add,
  inScenario: boolean,
): void {
  if (topic === undefined) return add(path, 'missing');
  if (typeof topic !== 'string') return add(path, 'must be a topic name');
  const problem = checkTopicName(topic);
  if (problem) return add(path, problem);
  if (inScenario && ctx && !ctx.topics.has(topic))
    add(path, `no topic ${quote(topic)}: create it in "topics" or with a createTopic step first`);
}

function checkClientConfigs(
  config: unknown,
  path: string,
  kind: ClientKind,
  ctx: CommandContext | undefined,
  add: Add,
  resolve: (given: Record<string, ConfigValue>) => string | undefined,
): void {
  if (config === undefined) return;
  if (!isObject(config)) return add(path, `must be an object of Kafka ${kind} config names to values`);
  const error = resolve(config as Record<string, ConfigValue>);
  if (error) return add(path, error);
  const servers = config['bootstrap.servers'];
  if (servers !== undefined && ctx)
    for (const id of brokerList(String(servers)))
      if (!ctx.brokerIds.has(id)) add(`${path}.bootstrap.servers`, `no broker ${id} in this cluster`);
}

/** A reference to an existing node; true when it is a well-formed id (and exists, with ctx). */
function checkNodeRef(id: unknown, path: string, ctx: CommandContext | undefined, add: Add): boolean {
  if (id === undefined) {
    add(path, 'missing');
    return false;
  }
  if (!isNodeId(id)) {
    add(path, 'a node id must be a positive 32-bit integer');
    return false;
  }
  if (ctx && !ctx.nodeIds.has(id)) {
    add(path, `no node ${id} in this cluster`);
    return false;
  }
  return true;
}

/** `from` and `to` of a link: node ids or client ids ("producer-1"). */
function checkLinkEnds(
  link: Record<string, unknown>,
  path: string,
  ctx: CommandContext | undefined,
  add: Add,
): [number | string, number | string] | null {
  const end = (key: 'from' | 'to'): boolean => {
    const v = link[key];
    if (typeof v === 'string') {
      if (v === '') add(`${path}.${key}`, 'a client id must be a non-empty string, e.g. "producer-1"');
      return v !== '';
    }
    if (v === undefined) {
      add(`${path}.${key}`, 'missing');
      return false;
    }
    if (typeof v !== 'number') {
      add(`${path}.${key}`, 'must be a node id or a client id such as "producer-1"');
      return false;
    }
    return checkNodeRef(v, `${path}.${key}`, ctx, add);
  };
  const fromOk = end('from');
  const toOk = end('to');
  if (!fromOk || !toOk) return null;
  if (link.from === link.to) {
    add(path, 'a link needs two different ends');
    return null;
  }
  return [link.from as number | string, link.to as number | string];
}

function checkRoles(roles: unknown, path: string, add: Add): string[] {
  if (roles === undefined) {
    add(path, 'missing; ["broker"], ["controller"] or ["broker", "controller"]');
    return [];
  }
  if (!Array.isArray(roles) || roles.length === 0) {
    add(path, 'must be a non-empty array of "broker" and "controller"');
    return [];
  }
  const seen: string[] = [];
  each(roles, (role, i) => {
    if (role !== 'broker' && role !== 'controller')
      add(`${path}[${i}]`, `unknown role ${quote(role)} (roles are "broker" and "controller")`);
    else if (seen.includes(role)) add(`${path}[${i}]`, `duplicate role "${role}"`);
    else seen.push(role);
  });
  return seen;
}

function checkRack(rack: unknown, path: string, add: Add): void {
  if (typeof rack !== 'string' || rack === '') add(path, 'must be a non-empty string (omit it for no rack)');
}

function checkLatency(value: unknown, path: string, add: Add): void {
  // Whole milliseconds, like every virtual time, keep the event log readable.
  if (!isInt(value) || value < 0 || value > LIMITS.maxLatencyMs)
    add(path, `must be a whole number of milliseconds from 0 to ${LIMITS.maxLatencyMs}`);
}

function checkRecordText(value: unknown, path: string, add: Add, what: string): void {
  if (typeof value !== 'string') add(path, `must be ${what}`);
  else if (value.length > LIMITS.maxRecordChars)
    add(path, `${value.length} characters; the limit is ${LIMITS.maxRecordChars}`);
}

/** Reports the fields of a command other than `type` and `allowed`. */
function fields(c: Record<string, unknown>, path: string, allowed: string[], add: Add): void {
  unknownFields(c, path, ['type', ...allowed], add);
}

/** A `{topic, partition}` that names an existing partition (with `ctx`, it must exist). */
function checkTopicPartition(
  tp: Record<string, unknown>,
  ppath: string,
  ctx: CommandContext | undefined,
  add: Add,
): void {
  let count: number | undefined;
  if (tp.topic === undefined) add(`${ppath}.topic`, 'missing');
  else if (typeof tp.topic !== 'string') add(`${ppath}.topic`, 'must be a topic name');
  else if (ctx) {
    count = ctx.topics.get(tp.topic);
    if (count === undefined) add(`${ppath}.topic`, `no topic ${quote(tp.topic)}`);
  }
  if (tp.partition === undefined) add(`${ppath}.partition`, 'missing');
  else if (!isInt(tp.partition) || tp.partition < 0)
    add(`${ppath}.partition`, 'must be a non-negative integer');
  else if (count !== undefined && tp.partition >= count)
    add(`${ppath}.partition`, `no partition ${tp.partition} in topic ${quote(tp.topic)} (it has ${count})`);
}

function unknownFields(
  obj: Record<string, unknown>,
  path: string,
  allowed: readonly string[],
  add: Add,
): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const close = closestName(key, allowed);
    add(keyPath(path, key), `unknown field${close ? ` (did you mean "${close}"?)` : ''}`);
  }
}

function typedConfigs<T extends ConfigValue | null>(configs: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(configs))
    out[key] = (value === null ? null : parseConfigValue(configDef(key), value)) as T;
  return out;
}

/**
 * Array.forEach that also visits holes (`[1, , 3]`, or an element deleted): a hole is a value
 * like any other to the checks (undefined), never a step skipped that the engine then reads.
 */
function each<T>(items: readonly T[], visit: (item: T, index: number) => void): void {
  for (let i = 0; i < items.length; i++) visit(items[i] as T, i);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

function isAcks(v: unknown): v is Acks {
  return v === 0 || v === 1 || v === 'all';
}

/** An optional `acks`: 0, 1 or "all". */
function checkAcks(v: unknown, path: string, add: Add): void {
  if (v !== undefined && !isAcks(v)) add(path, 'must be 0, 1 or "all"');
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

function isNodeId(v: unknown): v is number {
  return isInt(v) && v >= 1 && v <= 2147483647;
}
