// TopicCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/TopicCommand.java):
// kafka-topics.sh --list, --describe (and its five filters), --create, --alter --partitions and
// --delete, answered from the active controller's metadata image at this instant.

import { activeController } from '../kraft/quorumController';
import { createPartitions, deleteTopic } from '../kraft/replicationControl';
import { clusterImage, topicValue } from '../model/image';
import { tpKey, type MetaImage, type PartitionState } from '../model/metadata';
import type { ConfigValue, CreateTopic } from '../model/types';
import type { World } from '../model/world';
import { reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { kafkaMessage, parseInt32, Printer, typedConfig, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'String: server to connect to',
    description: 'REQUIRED: The Kafka server to connect to.',
  },
  {
    name: 'command-config',
    arg: 'String: command config property file',
    description: 'Property file containing configs to be passed to Admin Client.',
  },
  { name: 'list', description: 'List all available topics.' },
  { name: 'create', description: 'Create a new topic.' },
  { name: 'delete', description: 'Delete a topic.' },
  { name: 'alter', description: 'Alter the number of partitions and replica assignment.' },
  { name: 'describe', description: 'List details for the given topics.' },
  {
    name: 'topic',
    arg: 'String: topic',
    description:
      'The topic to create, alter, describe or delete. It also accepts a regular expression, except for --create option.',
  },
  { name: 'topic-id', arg: 'String: topic-id', description: 'The topic-id to describe.' },
  {
    name: 'config',
    arg: 'String: name=value',
    repeated: true,
    description: 'A topic configuration override for the topic being created.',
  },
  {
    name: 'partitions',
    arg: 'Integer: # of partitions',
    description: 'The number of partitions for the topic being created or altered.',
  },
  {
    name: 'replication-factor',
    arg: 'Integer: replication factor',
    description: 'The replication factor for each partition in the topic being created.',
  },
  {
    name: 'replica-assignment',
    arg: 'String: broker_id_for_part1_replica1 : broker_id_for_part1_replica2 , ...',
    description: 'A list of manual partition-to-broker assignments for the topic being created.',
  },
  {
    name: 'under-replicated-partitions',
    description: 'If set when describing topics, only show under-replicated partitions.',
  },
  {
    name: 'unavailable-partitions',
    description: 'If set when describing topics, only show partitions whose leader is not available.',
  },
  {
    name: 'under-min-isr-partitions',
    description:
      'If set when describing topics, only show partitions whose isr count is less than the configured minimum.',
  },
  {
    name: 'at-min-isr-partitions',
    description:
      'If set when describing topics, only show partitions whose isr count is equal to the configured minimum.',
  },
  {
    name: 'topics-with-overrides',
    description: 'If set when describing topics, only show topics that have overridden configs.',
  },
  {
    name: 'if-exists',
    description:
      'If set when altering or deleting or describing topics, the action will only execute if the topic exists.',
  },
  {
    name: 'if-not-exists',
    description:
      'If set when creating topics, the action will only execute if the topic does not already exist.',
  },
  { name: 'exclude-internal', description: 'Exclude internal topics when listing or describing topics.' },
  { name: 'help', description: 'Print usage information.' },
];

const PURPOSE = 'This tool helps to create, delete, describe, or change a topic.';
const ACTIONS = ['list', 'describe', 'create', 'alter', 'delete'] as const;
const REPORTS = [
  'under-replicated-partitions',
  'under-min-isr-partitions',
  'at-min-isr-partitions',
  'unavailable-partitions',
];

/** A usage problem: the tool prints the message and its usage, and exits with 1. */
class UsageError extends Error {}
/** What TopicCommand.printException prints: "Error while executing topic command : …". */
class CommandError extends Error {}

export const topicCommand: Tool = {
  name: 'kafka-topics.sh',
  purpose: PURPOSE,
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    let opts: ParsedOptions;
    try {
      opts = parseOptions(args, OPTIONS);
      checkArgs(args, opts);
    } catch (e) {
      if (e instanceof OptionError || e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(topicCommand));
        return out.result(1);
      }
      if (e instanceof CommandError) {
        out.println(e.message);
        return out.result(1);
      }
      throw e;
    }
    if (opts.has('help')) {
      out.println(usage(topicCommand));
      return out.result(0);
    }
    try {
      // An Admin client with no broker to answer waits for default.api.timeout.ms, then gives up.
      if (!reachable(ctx.w))
        throw new CommandError(`Timed out waiting for a node assignment. Call: ${adminCall(opts)}`);
      if (opts.has('create')) createTopic(opts, ctx, out);
      else if (opts.has('alter')) alterTopic(opts, ctx, out);
      else if (opts.has('list')) out.println(topics(ctx.w, opts).join('\n'));
      else if (opts.has('describe')) describeTopics(opts, ctx.w, out);
      else if (opts.has('delete')) deleteTopics(opts, ctx, out);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      out.println(`Error while executing topic command : ${e.message}`);
      return out.result(1);
    }
    return out.result(0);
  },
};

// TopicCommandOptions.checkArgs: exactly one action, the required and the incompatible options.
function checkArgs(args: readonly string[], opts: ParsedOptions): void {
  if (args.length === 0) throw new UsageError('Create, delete, describe, or change a topic.');
  if (opts.has('help')) return;
  const actions = ACTIONS.filter((a) => opts.has(a));
  if (actions.length !== 1)
    throw new UsageError(
      'Command must include exactly one action: --list, --describe, --create, --alter or --delete',
    );
  // checkRequiredArgs throws IllegalArgumentException: mainNoExit prints its message alone.
  if (!opts.has('bootstrap-server')) throw new CommandError('--bootstrap-server must be specified');
  if (opts.has('describe') && opts.has('if-exists') && !opts.has('topic') && !opts.has('topic-id'))
    throw new UsageError('--topic or --topic-id is required to describe a topic');
  if (!opts.has('list') && !opts.has('describe') && !opts.has('topic'))
    throw new UsageError('Missing required argument "[topic]"');
  if (opts.has('alter')) {
    if (opts.has('config'))
      throw new UsageError(
        'Option combination "[bootstrap-server, config]" can\'t be used with option "[alter]" (To alter topic configurations, the kafka-configs tool can be used.)',
      );
    if (!opts.has('partitions')) throw new UsageError('Missing required argument "[partitions]"');
  }
  const invalid = (used: string, allowedWith: readonly string[], also: readonly string[] = []) => {
    if (!opts.has(used)) return;
    const clash = [...ACTIONS.filter((a) => !allowedWith.includes(a)), ...also].find((o) => opts.has(o));
    if (clash !== undefined)
      throw new UsageError(`Option "[${used}]" can't be used with option "[${clash}]"`);
  };
  invalid('config', ['alter', 'create']);
  invalid('partitions', ['alter', 'create']);
  invalid('replication-factor', ['create']);
  invalid('replica-assignment', ['alter', 'create']);
  if (opts.has('create')) {
    const clash = ['partitions', 'replication-factor'].find((o) => opts.has(o));
    if (opts.has('replica-assignment') && clash)
      throw new UsageError(`Option "[replica-assignment]" can't be used with option "[${clash}]"`);
  }
  for (const report of REPORTS) invalid(report, ['describe'], ['topics-with-overrides']);
  invalid('topics-with-overrides', ['describe'], REPORTS);
  invalid('if-exists', ['alter', 'delete', 'describe']);
  invalid('if-not-exists', ['create']);
  invalid('exclude-internal', ['list', 'describe']);
}

/** The Admin call the action makes first, as a timeout names it. */
function adminCall(opts: ParsedOptions): string {
  if (opts.has('create')) return 'createTopics';
  if (opts.has('describe')) return 'describeTopics';
  return 'listTopics';
}

/** TopicService.getTopics: every topic name, sorted, matching --topic as a regular expression (IncludeList). */
function topics(w: World, opts: ParsedOptions): string[] {
  const excludeInternal = opts.has('exclude-internal');
  const all = [...clusterImage(w).topics.keys()].sort();
  const include = opts.value('topic');
  let pattern: RegExp | null = null;
  if (include !== undefined) {
    try {
      pattern = new RegExp(`^(?:${include.replace(/^"|"$/g, '')})$`);
    } catch {
      throw new CommandError(`Illegal regular expression: ${include}`);
    }
  }
  return all.filter((t) => (pattern ? pattern.test(t) : true) && !(excludeInternal && isInternal(t)));
}

function isInternal(topic: string): boolean {
  return topic === '__consumer_offsets' || topic === '__transaction_state';
}

/**
 * ensureTopicExists. Kafka formats the Optional itself into the message, so a real 4.x cluster
 * prints `Topic 'Optional[orders]' does not exist as expected`; so does the simulator.
 */
function ensureTopicExists(found: string[], opts: ParsedOptions): void {
  const requested = opts.value('topic');
  if (requested && !opts.has('if-exists') && found.length === 0)
    throw new CommandError(`Topic 'Optional[${requested}]' does not exist as expected`);
}

/** Topic.hasCollisionChars. */
const hasCollisionChars = (name: string) => name.includes('_') || name.includes('.');

function createTopic(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const name = opts.value('topic')!;
  if (hasCollisionChars(name))
    out.println(
      "WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. To avoid issues it is best to use either, but not both.",
    );
  const rf = intOption(opts, 'replication-factor');
  const partitions = intOption(opts, 'partitions');
  if (rf !== null && (rf > 32767 || rf < 1))
    throw new CommandError('The replication factor must be between 1 and 32767 inclusive');
  if (partitions !== null && partitions < 1) throw new CommandError('The partitions must be greater than 0');
  const config: Record<string, ConfigValue> = {};
  for (const kv of opts.values('config')) {
    const eq = kv.indexOf('=');
    // TopicCommand.parseTopicConfigsToBeAdded
    if (eq <= 0)
      throw new CommandError(
        'requirement failed: Invalid topic config: all configs to be added must be in the format "key=val".',
      );
    config[kv.slice(0, eq)] = typedConfig(kv.slice(0, eq), kv.slice(eq + 1), 'topic');
  }
  const command: CreateTopic = {
    type: 'createTopic',
    name,
    partitions: partitions ?? Number(ctx.w.config['num.partitions'] ?? 1),
    replicationFactor: rf ?? Number(ctx.w.config['default.replication.factor'] ?? 1),
    ...(Object.keys(config).length ? { config } : {}),
  };
  const assignment = opts.value('replica-assignment');
  if (assignment !== undefined && assignment !== '') {
    const lists = parseReplicaAssignment(assignment);
    command.assignment = lists;
    command.partitions = lists.length;
    command.replicationFactor = lists[0]?.length ?? 1;
  }
  if (opts.has('if-not-exists') && clusterImage(ctx.w).topics.has(name)) return;
  const error = ctx.apply(command);
  if (error) throw new CommandError(kafkaMessage(error));
  out.changed = true;
  out.println(`Created topic ${name}.`);
}

/** TopicCommand.parseReplicaAssignment: "1:2,2:3" is partition 0 on [1,2], partition 1 on [2,3]. */
function parseReplicaAssignment(text: string): number[][] {
  const lists = text.split(',').map((part) =>
    part.split(':').map((id) => {
      const n = parseInt32(id.trim());
      if (n === null) throw new CommandError(`For input string: "${id.trim()}"`);
      return n;
    }),
  );
  for (const [i, list] of lists.entries()) {
    const dup = list.find((b, j) => list.indexOf(b) !== j);
    if (dup !== undefined)
      throw new CommandError(`Partition replica lists may not contain duplicate entries: ${dup}`);
    if (list.length !== lists[0]!.length)
      throw new CommandError(`Partition ${i} has different replication factor: [${list.join(', ')}]`);
  }
  return lists;
}

function intOption(opts: ParsedOptions, name: string): number | null {
  const text = opts.value(name);
  if (text === undefined) return null;
  const n = parseInt32(text);
  // joptsimple's ValueConversionException for an ofType(Integer.class) option.
  if (n === null) throw new CommandError(`Cannot parse argument '${text}' of option ${name}`);
  return n;
}

function alterTopic(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const names = topics(ctx.w, opts);
  ensureTopicExists(names, opts);
  const count = intOption(opts, 'partitions')!;
  if (opts.value('replica-assignment'))
    throw new CommandError(
      '--replica-assignment with --alter is not supported by the simulator; use kafka-reassign-partitions.sh',
    );
  const img = clusterImage(ctx.w);
  const added = names.reduce((sum, t) => sum + Math.max(0, count - (img.topics.get(t)?.partitions ?? 0)), 0);
  if (img.partitions.size + added > ctx.maxPartitions)
    throw new CommandError(
      `the cluster would have ${img.partitions.size + added} partitions; the simulator's limit is ${ctx.maxPartitions}`,
    );
  for (const t of names) {
    const ctl = activeController(ctx.w);
    if (!ctl) throw new CommandError('Timed out waiting for a node assignment. Call: createPartitions');
    const error = createPartitions(ctx.w, ctl, t, count);
    if (error) throw new CommandError(kafkaMessage(error));
    out.changed = true;
  }
}

function deleteTopics(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const names = topics(ctx.w, opts);
  ensureTopicExists(names, opts);
  for (const t of names) {
    if (isInternal(t))
      throw new CommandError(
        `Topic ${t} is a kafka internal topic and is not allowed to be marked for deletion.`,
      );
    const ctl = activeController(ctx.w);
    if (!ctl) throw new CommandError('Timed out waiting for a node assignment. Call: deleteTopics');
    const error = deleteTopic(ctx.w, ctl, t);
    if (error) throw new CommandError(kafkaMessage(error));
    out.changed = true;
  }
}

/** The partition as DescribeTopicPartitions and ListPartitionReassignments report it. */
interface PartitionInfo {
  p: PartitionState;
  reassigning: boolean;
}

/** getReplicationFactor: during a reassignment, the replicas less those being added. */
function replicationFactor({ p, reassigning }: PartitionInfo): number {
  return reassigning ? p.replicas.length - p.adding.length : p.replicas.length;
}

function describeTopics(opts: ParsedOptions, w: World, out: Printer): void {
  const img = clusterImage(w);
  let names: string[];
  const topicId = opts.value('topic-id');
  if (topicId !== undefined && topicId !== 'AAAAAAAAAAAAAAAAAAAAAA') {
    names = [...img.topics.values()].filter((t) => t.topicId === topicId).map((t) => t.name);
    if (names.length === 0 && !opts.has('if-exists'))
      throw new CommandError(`TopicId '${topicId}' does not exist as expected`);
  } else {
    names = topics(w, opts);
    ensureTopicExists(names, opts);
  }
  // DescribeOptions: a report option hides the topic lines; --topics-with-overrides hides the partitions.
  const reports = REPORTS.filter((r) => opts.has(r));
  const describeConfigs = reports.length === 0;
  const describePartitions = !opts.has('topics-with-overrides');
  // describeCluster().nodes(): the brokers that are registered and unfenced.
  const liveBrokers = new Set([...img.brokers.keys()].filter((id) => !img.brokers.get(id)!.fenced));
  for (const name of names) {
    const t = img.topics.get(name)!;
    const parts: PartitionInfo[] = [];
    for (let i = 0; i < t.partitions; i++) {
      const p = img.partitions.get(tpKey(name, i));
      if (p) parts.push({ p, reassigning: p.adding.length > 0 || p.removing.length > 0 });
    }
    const configs = overrides(img, name);
    if (describeConfigs && (!opts.has('topics-with-overrides') || configs.length > 0) && parts[0]) {
      out.println(
        `Topic: ${name}\tTopicId: ${t.topicId}\tPartitionCount: ${parts.length}\tReplicationFactor: ${replicationFactor(parts[0])}\tConfigs: ${configs.join(',')}`,
      );
    }
    if (!describePartitions) continue;
    const minIsr = Number(topicValue(w, img, name, 'min.insync.replicas'));
    for (const info of parts) {
      const { p } = info;
      const hasLeader = p.leader >= 0;
      const show =
        describeConfigs ||
        (opts.has('under-replicated-partitions') && replicationFactor(info) - p.isr.length > 0) ||
        (opts.has('unavailable-partitions') && (!hasLeader || !liveBrokers.has(p.leader))) ||
        (opts.has('under-min-isr-partitions') && (!hasLeader || p.isr.length < minIsr)) ||
        (opts.has('at-min-isr-partitions') && p.isr.length === minIsr);
      if (show) out.println(partitionLine(info));
    }
  }
  if (opts.has('under-min-isr-partitions') || opts.has('at-min-isr-partitions'))
    for (const note of faultToleranceNotes(w, img, names)) out.println(note);
}

/**
 * The simulator's warning beside the min-ISR views: a topic with no fault tolerance (replication factor
 * ≤ min.insync.replicas, or a partition with every replica in one rack). Kafka prints no such line,
 * so it is said as the simulator's note, after the tool's own output.
 */
function faultToleranceNotes(w: World, img: MetaImage, names: readonly string[]): string[] {
  const notes: string[] = [];
  for (const name of names) {
    if (name.startsWith('__')) continue;
    const t = img.topics.get(name)!;
    const minIsr = Number(topicValue(w, img, name, 'min.insync.replicas'));
    const rf = img.partitions.get(tpKey(name, 0))?.replicas.length ?? 0;
    const racks = new Set<string>();
    let oneRack = 0;
    for (let i = 0; i < t.partitions; i++) {
      const replicas = img.partitions.get(tpKey(name, i))?.replicas ?? [];
      const first = w.nodes.get(replicas[0] ?? -1)?.rack;
      if (first == null || !replicas.every((b) => w.nodes.get(b)?.rack === first)) continue;
      oneRack++;
      racks.add(first);
    }
    const reasons: string[] = [];
    if (rf <= minIsr)
      reasons.push(
        `replication factor ${rf} <= min.insync.replicas ${minIsr}, so one replica down refuses acks=all writes (NOT_ENOUGH_REPLICAS)`,
      );
    if (oneRack)
      reasons.push(
        `${oneRack} of ${t.partitions} partition${t.partitions === 1 ? ' has' : 's have'} every replica in rack ${[...racks].sort().join(', ')}, so losing that zone takes ${oneRack === 1 ? 'it' : 'them'} offline`,
      );
    if (reasons.length)
      notes.push(`Note (simulator): topic ${name} has no fault tolerance: ${reasons.join('; ')}.`);
  }
  return notes;
}

/** PartitionDescription.printDescription. */
export function partitionLine({ p, reassigning }: PartitionInfo): string {
  let line = `\tTopic: ${p.topic}\tPartition: ${p.partition}\tLeader: ${p.leader >= 0 ? p.leader : 'none'}`;
  line += `\tReplicas: ${p.replicas.join(',')}\tIsr: ${p.isr.join(',')}`;
  if (reassigning)
    line += `\tAdding Replicas: ${p.adding.join(',')}\tRemoving Replicas: ${p.removing.join(',')}`;
  // KIP-966: the ELR, and the last known ELR kept while the ISR and the ELR are empty.
  line += `\tElr: ${p.elr.join(',')}\tLastKnownElr: ${(p.lastKnownElr ?? []).join(',')}`;
  return line;
}

/** The topic's configs that are not at their default (ConfigEntry.isDefault), as name=value. */
function overrides(img: MetaImage, topic: string): string[] {
  const config = img.topics.get(topic)?.config ?? {};
  return Object.keys(config)
    .sort()
    .map((k) => `${k}=${String(config[k])}`);
}
