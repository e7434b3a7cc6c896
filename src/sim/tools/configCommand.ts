// ConfigCommand (apache/kafka core/src/main/scala/kafka/admin/ConfigCommand.scala): kafka-configs.sh
// --describe [--all] and --alter --add-config / --delete-config, for topics, brokers and the
// brokers' cluster-wide default (--entity-default), as the committed metadata image holds them.

import { CONFIG_DEFS, type ConfigDef } from '../model/config';
import type { ConfigValue } from '../model/types';
import type { World } from '../model/world';
import { image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { exceptionOf, kafkaMessage, Printer, typedConfig, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'String: server to connect to',
    description: 'The Kafka servers to connect to.',
  },
  {
    name: 'bootstrap-controller',
    arg: 'String: controller to connect to',
    description: 'The Kafka controllers to connect to.',
  },
  {
    name: 'command-config',
    arg: 'String: command config property file',
    description: 'Property file containing configs to be passed to Admin Client.',
  },
  { name: 'alter', description: 'Alter the configuration for the entity.' },
  { name: 'describe', description: 'List configs for the given entity.' },
  {
    name: 'all',
    description: 'List all configs for the given entity, including static configs if available.',
  },
  {
    name: 'entity-type',
    arg: 'String',
    description: 'Type of entity (topics/clients/users/brokers/broker-loggers/ips/client-metrics/groups)',
  },
  {
    name: 'entity-name',
    arg: 'String',
    description:
      'Name of entity (topic name/client id/user principal name/broker id/ip/client metrics/group id)',
  },
  {
    name: 'entity-default',
    description: 'Default entity name for clients/users/brokers/ips (applies to corresponding entity type)',
  },
  {
    name: 'add-config',
    arg: 'String',
    description:
      "Key Value pairs of configs to add. Square brackets can be used to group values which contain commas: 'k1=v1,k2=[v1,v2,v2],k3=v3'.",
  },
  { name: 'delete-config', arg: 'String', description: "config keys to remove 'k1,k2'" },
  { name: 'topic', arg: 'String', description: "The topic's name." },
  { name: 'broker', arg: 'String', description: "The broker's ID." },
  { name: 'broker-defaults', description: 'The config defaults for all brokers.' },
  { name: 'help', description: 'Print usage information.' },
];

const PURPOSE =
  'This tool helps to manipulate and describe entity config for a topic, client, user, broker, ip, client-metrics or group';

/** Printed with the usage (CommandLineUtils.printUsageAndExit). */
class UsageError extends Error {}
/** IllegalArgumentException or InvalidConfigurationException: main prints the message alone. */
class ArgumentError extends Error {}
/** Any other failure: main prints "Error while executing config command with args '…'" and the exception. */
class CommandError extends Error {}

type EntityType = 'topics' | 'brokers';
interface Entity {
  type: EntityType;
  /** '' for the brokers' default (--entity-default). */
  name: string | null;
}

export const configCommand: Tool = {
  name: 'kafka-configs.sh',
  purpose: PURPOSE,
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      const opts = parseOptions(args, OPTIONS);
      if (opts.has('help')) {
        out.println(usage(configCommand));
        return out.result(0);
      }
      const entity = checkArgs(opts);
      if (!reachable(ctx.w))
        throw new CommandError(
          'org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: describeConfigs',
        );
      if (opts.has('alter')) alter(opts, entity, ctx, out);
      else describe(opts, entity, ctx.w, out);
      return out.result(0);
    } catch (e) {
      if (e instanceof OptionError || e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(configCommand));
      } else if (e instanceof ArgumentError) out.println(e.message);
      else if (e instanceof CommandError) {
        out.println(`Error while executing config command with args '${args.join(' ')}'`);
        out.println(`java.util.concurrent.ExecutionException: ${e.message}`);
      } else throw e;
      return out.result(1);
    }
  },
};

// ConfigCommandOptions.checkArgs, for the entity types the simulator has.
function checkArgs(opts: ParsedOptions): Entity {
  const actions = ['alter', 'describe'].filter((a) => opts.has(a));
  if (actions.length !== 1)
    throw new UsageError('Command must include exactly one action: --describe, --alter');
  const types = opts.values('entity-type');
  const specific = ['topic', 'broker', 'broker-defaults'].filter((o) => opts.has(o));
  if (specific.length && (types.length || opts.has('entity-name') || opts.has('entity-default')))
    throw new ArgumentError(
      '--entity-{type,name,default} should not be used in conjunction with specific entity flags',
    );
  let entity: Entity;
  if (opts.has('topic')) entity = { type: 'topics', name: opts.value('topic')! };
  else if (opts.has('broker')) entity = { type: 'brokers', name: opts.value('broker')! };
  else if (opts.has('broker-defaults')) entity = { type: 'brokers', name: '' };
  else {
    if (types.length === 0) throw new ArgumentError('At least one entity type must be specified');
    if (types.length > 1)
      throw new ArgumentError("Only 'users' and 'clients' entity types may be specified together");
    const type = types[0]!;
    if (type !== 'topics' && type !== 'brokers') {
      const known = ['clients', 'users', 'broker-loggers', 'ips', 'client-metrics', 'groups'];
      throw new ArgumentError(
        known.includes(type)
          ? `The simulator does not model ${type} configs: kafka-configs.sh here knows topics and brokers.`
          : `Invalid entity type ${type}, the entity type must be one of topics, clients, users, brokers, ips, broker-loggers, client-metrics, groups with a --bootstrap-server or --bootstrap-controller argument`,
      );
    }
    if (opts.has('entity-default') && type === 'topics')
      throw new ArgumentError('--entity-default must not be specified with topics');
    entity = { type, name: opts.has('entity-default') ? '' : (opts.value('entity-name') ?? null) };
  }
  if (!opts.has('bootstrap-server') && !opts.has('bootstrap-controller'))
    throw new ArgumentError(
      'One of the required --bootstrap-server, --boostrap-controller, or --zookeeper arguments must be specified',
    );
  if (entity.type === 'brokers' && entity.name && !/^-?\d+$/.test(entity.name))
    throw new ArgumentError(
      `The entity name for brokers must be a valid integer broker id, but it is: ${entity.name}`,
    );
  if (opts.has('alter')) {
    if (entity.name === null)
      throw new ArgumentError(`an entity name must be specified with --alter of ${entity.type}`);
    if (!opts.has('add-config') && !opts.has('delete-config'))
      throw new ArgumentError(
        'At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter',
      );
  }
  return entity;
}

/** parseConfigsToBeAdded: split on commas outside [], each `key=value`, [a,b] a list value. */
function parseAdded(text: string): [string, string][] {
  const parts = text.split(/,(?=[^\]]*(?:\[|$))/).filter((p) => p !== '');
  return parts.map((p) => {
    const eq = p.indexOf('=');
    if (eq <= 0)
      throw new ArgumentError(
        'requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".',
      );
    return [
      p.slice(0, eq).trim(),
      p
        .slice(eq + 1)
        .trim()
        .replace(/^\[(.*)\]$/, '$1'),
    ];
  });
}

function alter(opts: ParsedOptions, entity: Entity, ctx: ToolContext, out: Printer): void {
  const name = entity.name!;
  const scope = entity.type === 'topics' ? 'topic' : name === '' ? 'cluster' : 'broker';
  const current = dynamicConfigs(ctx.w, entity);
  if (current === null)
    throw new CommandError(
      'org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.',
    );
  const deleted = (opts.value('delete-config') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  // alterResourceConfig: every config to delete must be set now.
  const missing = deleted.filter((k) => !(k in current));
  if (missing.length) throw new ArgumentError(`Invalid config(s): ${missing.join(',')}`);
  const configs: Record<string, ConfigValue | null> = {};
  for (const [k, v] of parseAdded(opts.value('add-config') ?? '')) configs[k] = typedConfig(k, v, scope);
  for (const k of deleted) configs[k] = null;
  const error = ctx.apply({
    type: 'alterConfig',
    resourceType: scope,
    ...(scope === 'cluster' ? {} : { resourceName: name }),
    configs,
  });
  if (error)
    throw new CommandError(
      exceptionOf(error.startsWith('command.') ? `INVALID_CONFIG: ${kafkaMessage(error)}` : error),
    );
  out.changed = true;
  if (name !== '') out.println(`Completed updating config for ${entity.type.slice(0, -1)} ${name}.`);
  else out.println(`Completed updating default config for ${entity.type} in the cluster.`);
}

/** The dynamic configs of the entity (DYNAMIC_TOPIC_CONFIG, DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG); null for an unknown topic. */
function dynamicConfigs(w: World, entity: Entity): Record<string, ConfigValue> | null {
  const img = image(w);
  if (entity.type === 'topics') return img.topics.get(entity.name ?? '')?.config ?? null;
  if (entity.name === '') return img.clusterConfig;
  return img.brokerConfigs.get(entity.name ?? '') ?? {};
}

function describe(opts: ParsedOptions, entity: Entity, w: World, out: Printer): void {
  const img = image(w);
  const all = opts.has('all');
  const names =
    entity.name !== null
      ? [entity.name]
      : entity.type === 'topics'
        ? [...img.topics.keys()].sort()
        : [...[...img.brokers.values()].filter((b) => !b.fenced).map((b) => String(b.brokerId)), ''];
  for (const name of names) {
    const e: Entity = { type: entity.type, name };
    const dynamic = dynamicConfigs(w, e);
    if (dynamic === null)
      throw new CommandError(
        'org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.',
      );
    if (name === '') out.println(`Default configs for ${entity.type} in the cluster are:`);
    else out.println(`${all ? 'All' : 'Dynamic'} configs for ${entity.type.slice(0, -1)} ${name} are:`);
    const scope = e.type === 'topics' ? 'topic' : 'broker';
    const keys = all
      ? Object.values(CONFIG_DEFS)
          .filter((d) => d.scopes.includes(scope))
          .map((d) => d.name)
      : Object.keys(dynamic);
    for (const key of [...keys].sort()) {
      const chain = synonyms(w, e, key);
      const value = chain[0]?.value ?? '';
      out.println(
        `  ${key}=${value} sensitive=false synonyms={${chain.map((s) => `${s.source}:${s.name}=${s.value}`).join(', ')}}`,
      );
    }
  }
}

interface Synonym {
  source: string;
  name: string;
  value: string;
}

/**
 * ConfigEntry.synonyms, most specific first: the entity's own dynamic value, the brokers' dynamic
 * default, the static broker config (the scenario's `config`, where it differs from Kafka's
 * default) and Kafka's default; a topic config's broker-side synonym by its broker name.
 */
function synonyms(w: World, entity: Entity, key: string): Synonym[] {
  const img = image(w);
  const def: ConfigDef | undefined = Object.prototype.hasOwnProperty.call(CONFIG_DEFS, key)
    ? CONFIG_DEFS[key]
    : undefined;
  const out: Synonym[] = [];
  const add = (source: string, name: string, value: ConfigValue | undefined) => {
    if (value !== undefined) out.push({ source, name, value: String(value) });
  };
  const brokerName = entity.type === 'topics' ? (def?.synonym ?? key) : key;
  if (entity.type === 'topics')
    add('DYNAMIC_TOPIC_CONFIG', key, img.topics.get(entity.name ?? '')?.config[key]);
  else if (entity.name !== '')
    add('DYNAMIC_BROKER_CONFIG', key, img.brokerConfigs.get(entity.name ?? '')?.[key]);
  add('DYNAMIC_DEFAULT_BROKER_CONFIG', brokerName, img.clusterConfig[brokerName]);
  const brokerDef = Object.prototype.hasOwnProperty.call(CONFIG_DEFS, brokerName)
    ? CONFIG_DEFS[brokerName]
    : undefined;
  const staticValue = w.config[brokerName];
  if (brokerDef && staticValue !== undefined && staticValue !== brokerDef.default)
    add('STATIC_BROKER_CONFIG', brokerName, staticValue);
  add('DEFAULT_CONFIG', brokerDef ? brokerName : key, brokerDef ? brokerDef.default : def?.default);
  return out;
}
