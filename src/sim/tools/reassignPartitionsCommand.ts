// ReassignPartitionsCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/reassign/
// ReassignPartitionsCommand.java and ReassignPartitionsCommandOptions.java): kafka-reassign-partitions.sh
// --generate, --execute (with --throttle and --additional), --verify, --cancel and --list. The JSON
// files are the admin host's files a terminal line wrote (`echo '{…}' > plan.json`, tools/shell.ts).
// A reassignment starts through the reassignPartitions command the page's forms send, one partition
// at a time as the controller answers each partition of AlterPartitionReassignments on its own;
// throttles through alterConfig, as the tool's incrementalAlterConfigs calls.

import { AdminPlacementError, assignReplicasToBrokers } from '../operations/adminPlacement';
import { javaHashMapOrder, javaStringHashCode } from '../kernel/javaHash';
import { intSource, seedRng } from '../kernel/rng';
import type { MetaImage, PartitionState } from '../model/metadata';
import { tpKey } from '../model/metadata';
import type { NodeId } from '../model/types';
import { image, reachable } from './cluster';
import { OptionError, parseOptions, type ParsedOptions } from './options';
import { OPTIONS, UsageError, validateArgs } from './reassignPartitionsOptions';
import { readFile } from './shell';
import { kafkaMessage, Printer, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const ANY_LOG_DIR = 'any';

const CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE =
  'Cannot execute because there is an existing partition assignment.  Use --additional to override this and create a new partition assignment in addition to the existing one. The --additional flag can also be used to change the throttle by resubmitting the current reassignment.';
const YOU_MUST_RUN_VERIFY_PERIODICALLY_MESSAGE =
  'Warning: You must run --verify periodically, until the reassignment completes, to ensure the throttle is removed.';

/** TerseException: main prints the message alone. */
class TerseError extends Error {}
/** Any other Throwable: main prints `Error: ` and the message (and a stack trace, left out here). */
class ToolError extends Error {}

export const reassignPartitionsCommand: Tool = {
  name: 'kafka-reassign-partitions.sh',
  purpose: 'This tool helps to move topic partitions between replicas.',
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      const opts = parseOptions(args, OPTIONS);
      if (args.length === 0 || opts.has('help')) {
        out.println(usage(reassignPartitionsCommand));
        return out.result(args.length === 0 ? 1 : 0);
      }
      const action = validateArgs(args, opts);
      if (!reachable(ctx.w))
        throw new ToolError(
          `org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: ${
            action === 'generate' ? 'describeTopics' : 'listPartitionReassignments'
          }`,
        );
      if (action === 'verify') verify(opts, ctx, out);
      else if (action === 'generate') generate(opts, ctx, out);
      else if (action === 'execute') execute(opts, ctx, out);
      else if (action === 'cancel') cancel(opts, ctx, out);
      else out.println(currentReassignmentsToString(image(ctx.w)));
      return out.result(0);
    } catch (e) {
      if (e instanceof OptionError || e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(reassignPartitionsCommand));
      } else if (e instanceof TerseError) out.println(e.message);
      else if (e instanceof ToolError) out.println(`Error: ${e.message}`);
      else throw e;
      return out.result(1);
    }
  },
};

interface Target {
  topic: string;
  partition: number;
  replicas: NodeId[];
}

const tpName = (t: { topic: string; partition: number }) => `${t.topic}-${t.partition}`;
/** compareTopicPartitions: by topic, then partition. */
const byPartition = (a: { topic: string; partition: number }, b: { topic: string; partition: number }) =>
  a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;

function fileText(ctx: ToolContext, path: string): string {
  const text = readFile(ctx.w, path);
  // Utils.readFileAsString: java.nio.file.NoSuchFileException, whose message is the path.
  if (text === undefined) throw new ToolError(`${path}\njava.nio.file.NoSuchFileException: ${path}`);
  return text;
}

/** Json.parseFull / tryParseFull: the parsed value, or Jackson's complaint. */
function parseJson(text: string, quietFailure: string | null): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (quietFailure !== null) throw new ToolError(quietFailure);
    throw new ToolError(`com.fasterxml.jackson.core.JsonParseException: ${(e as Error).message}`);
  }
}

/** JsonValue.asJsonObject / JsonObject.apply / DecodeJson: the field, or Kafka's JsonMappingException text. */
function jsonObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ToolError(`Expected JSON object, received ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}
function field(obj: Record<string, unknown>, name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(obj, name))
    throw new ToolError(`No such field exists: \`${name}\``);
  return obj[name];
}
function asInt(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 2147483647)
    throw new ToolError(`Expected \`Int\` value, received ${JSON.stringify(value)}`);
  return value;
}
function asString(value: unknown): string {
  if (typeof value !== 'string')
    throw new ToolError(`Expected \`String\` value, received ${JSON.stringify(value)}`);
  return value;
}
function asArray(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new ToolError(`Expected JSON array, received ${JSON.stringify(value)}`);
  return value;
}
function version(obj: Record<string, unknown>): void {
  const v = obj.version === undefined ? 1 : asInt(obj.version);
  if (v !== 1) throw new ToolError(`Not supported version field value ${v}`);
}

/** parsePartitionReassignmentData (version 1): the partitions in file order, duplicates kept for the checks. */
function parseReassignment(text: string): { targets: Target[]; logDirMoves: number } {
  const js = jsonObject(parseJson(text, null));
  version(js);
  const targets: Target[] = [];
  let logDirMoves = 0;
  if (js.partitions === undefined) return { targets, logDirMoves };
  for (const entry of asArray(js.partitions)) {
    const fields = jsonObject(entry);
    const topic = asString(field(fields, 'topic'));
    const partition = asInt(field(fields, 'partition'));
    const replicas = asArray(field(fields, 'replicas')).map(asInt);
    const logDirs =
      fields.log_dirs === undefined
        ? replicas.map(() => ANY_LOG_DIR)
        : asArray(fields.log_dirs).map(asString);
    if (logDirs.length !== replicas.length)
      throw new ToolError(
        `Size of replicas list [${replicas.join(', ')}] is different from size of log dirs list [${logDirs.join(', ')}] for partition ${topic}-${partition}`,
      );
    logDirMoves += logDirs.filter((d) => d !== ANY_LOG_DIR).length;
    targets.push({ topic, partition, replicas });
  }
  return { targets, logDirMoves };
}

/** The current reassignments (listPartitionReassignments), sorted. */
function reassigning(img: MetaImage): PartitionState[] {
  return [...img.partitions.values()]
    .filter((p) => p.adding.length > 0 || p.removing.length > 0)
    .sort(byPartition);
}

/** describeCluster: the brokers the Admin client is told of (registered and unfenced). */
function clusterBrokers(img: MetaImage): NodeId[] {
  return [...img.brokers.values()].filter((b) => !b.fenced).map((b) => b.brokerId);
}

function currentReassignmentsToString(img: MetaImage): string {
  const text = reassigning(img).map(
    (p) =>
      `${tpName(p)}: replicas: ${p.replicas.join(',')}.${p.adding.length ? ` adding: ${p.adding.join(',')}.` : ''}${
        p.removing.length ? ` removing: ${p.removing.join(',')}.` : ''
      }`,
  );
  return text.length === 0
    ? 'No partition reassignments found.'
    : `Current partition reassignments:\n${text.join('\n')}`;
}

/** formatAsReassignmentJson: Jackson's compact form, partitions sorted, every log dir "any". */
function reassignmentJson(parts: readonly Target[]): string {
  return JSON.stringify({
    version: 1,
    partitions: [...parts].sort(byPartition).map((p) => ({
      topic: p.topic,
      partition: p.partition,
      replicas: p.replicas,
      log_dirs: p.replicas.map(() => ANY_LOG_DIR),
    })),
  });
}

// --generate -------------------------------------------------------------------------------------

function generate(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const brokerList = (opts.value('broker-list') ?? '').split(',').map((word) => {
    // Integer.parseInt
    if (!/^[+-]?\d+$/.test(word) || Math.abs(Number(word)) > 2147483647)
      throw new ToolError(`For input string: "${word}"`);
    return Number(word);
  });
  const duplicateBrokers = duplicates(brokerList);
  if (duplicateBrokers.length)
    throw new ToolError(`Broker list contains duplicate entries: [${duplicateBrokers.join(', ')}]`);
  const js = jsonObject(
    parseJson(fileText(ctx, opts.value('topics-to-move-json-file')!), 'The input string is not a valid JSON'),
  );
  version(js);
  const topics =
    js.topics === undefined ? [] : asArray(js.topics).map((t) => asString(field(jsonObject(t), 'topic')));
  const duplicateTopics = duplicates(topics);
  if (duplicateTopics.length)
    throw new ToolError(
      `List of topics to reassign contains duplicate entries: [${duplicateTopics.join(', ')}]`,
    );

  const img = image(ctx.w);
  const current: Target[] = [];
  for (const topic of [...new Set(topics)]) {
    const t = img.topics.get(topic);
    if (!t)
      throw new ToolError(
        `org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Topic ${topic} not found.`,
      );
    for (let partition = 0; partition < t.partitions; partition++) {
      const p = img.partitions.get(tpKey(topic, partition));
      if (p) current.push({ topic, partition, replicas: [...p.replicas] });
    }
  }
  // getBrokerMetadata: the listed brokers the cluster knows of; racks all or none unless disabled.
  const known = new Set(clusterBrokers(img));
  const rackAware = !opts.has('disable-rack-aware');
  const brokers = brokerList
    .filter((id) => known.has(id))
    .map((id) => ({ id, rack: rackAware ? (img.brokers.get(id)?.rack ?? null) : null }));
  const rackless = brokers.filter((b) => b.rack === null).length;
  if (rackAware && rackless !== 0 && rackless !== brokers.length)
    throw new ToolError(
      'Not all brokers have rack information. Add --disable-rack-aware in command line to make replica assignment without rack information.',
    );
  // calculateAssignment: per topic, AdminUtils.assignReplicasToBrokers with the replication factor of
  // its first partition. Kafka draws the start from java.util.Random; here from the scenario's seed, so
  // the same line proposes the same plan.
  const random = intSource(seedRng(ctx.w.seed));
  const proposed: Target[] = [];
  for (const topic of javaHashMapOrder([...new Set(current.map((c) => c.topic))], javaStringHashCode)) {
    const parts = current.filter((c) => c.topic === topic);
    let assigned: number[][];
    try {
      assigned = assignReplicasToBrokers(brokers, parts.length, parts[0]?.replicas.length ?? 0, random);
    } catch (e) {
      if (e instanceof AdminPlacementError)
        throw new ToolError(
          e.exception === 'AdminOperationException'
            ? e.message
            : `org.apache.kafka.common.errors.${e.exception}: ${e.message}`,
        );
      throw e;
    }
    assigned.forEach((replicas, partition) => proposed.push({ topic, partition, replicas }));
  }
  out.println(`Current partition replica assignment\n${reassignmentJson(current)}\n`);
  out.println(`Proposed partition reassignment configuration\n${reassignmentJson(proposed)}`);
}

function duplicates<T>(values: readonly T[]): T[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

// --execute --------------------------------------------------------------------------------------

function execute(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const throttle = longOption(opts, 'throttle');
  const logDirThrottle = longOption(opts, 'replica-alter-log-dirs-throttle');
  const { targets, logDirMoves } = parseReassignment(fileText(ctx, opts.value('reassignment-json-file')!));
  // parseExecuteAssignmentArgs
  if (targets.length === 0) throw new ToolError('Partition reassignment list cannot be empty');
  if (targets.some((t) => t.replicas.length === 0))
    throw new ToolError('Partition replica list cannot be empty');
  const duplicateParts = duplicates(targets.map(tpName));
  if (duplicateParts.length)
    throw new ToolError(
      `Partition reassignment contains duplicate topic partitions: ${duplicateParts.join(',')}`,
    );
  const repeated = targets
    .map((t) => ({ t, dups: duplicates(t.replicas) }))
    .filter((x) => x.dups.length > 0)
    .map((x) => `${tpName(x.t)} contains multiple entries for ${x.dups.join(',')}`);
  if (repeated.length)
    throw new ToolError(`Partition replica lists may not contain duplicate entries: ${repeated.join('. ')}`);
  if (logDirMoves > 0)
    throw new ToolError(
      'log_dirs other than "any": the simulated brokers have one log directory each (AlterReplicaLogDirs is not simulated)',
    );

  const img = image(ctx.w);
  const ongoing = reassigning(img);
  if (!opts.has('additional') && ongoing.length > 0)
    throw new TerseError(CANNOT_EXECUTE_BECAUSE_OF_EXISTING_MESSAGE);
  // verifyBrokerIds
  const known = new Set(clusterBrokers(img));
  const unknown = targets.flatMap((t) => t.replicas).find((id) => !known.has(id));
  if (unknown !== undefined) throw new ToolError(`Unknown broker id ${unknown}`);
  // getReplicaAssignmentForPartitions
  const missingTopic = targets.find((t) => !img.topics.has(t.topic));
  if (missingTopic)
    throw new ToolError(
      `org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Topic ${missingTopic.topic} not found.`,
    );
  const missing = targets.filter((t) => !img.partitions.has(tpKey(t.topic, t.partition)));
  if (missing.length)
    throw new ToolError(
      `org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Unable to find partition: ${missing.map(tpName).join(', ')}`,
    );
  const current = targets.map((t) => ({
    ...t,
    replicas: [...img.partitions.get(tpKey(t.topic, t.partition))!.replicas],
  }));
  out.println(
    `Current partition replica assignment\n\n${reassignmentJson(current)}\n\nSave this to use as the --reassignment-json-file option during rollback`,
  );

  if (throttle >= 0 || logDirThrottle >= 0) {
    out.println(YOU_MUST_RUN_VERIFY_PERIODICALLY_MESSAGE);
    if (throttle >= 0) setThrottles(ctx, out, ongoing, targets, current, throttle);
    // modifyLogDirThrottle sets it on the brokers with a log directory move: none here (they are
    // refused above), and Kafka prints the line all the same.
    if (logDirThrottle >= 0)
      out.println(`The replica-alter-dir throttle limit was set to ${logDirThrottle} B/s`);
  }

  // alterPartitionReassignments: each partition succeeds or fails on its own.
  const errors: string[] = [];
  for (const t of [...targets].sort(byPartition)) {
    const error = ctx.apply({
      type: 'reassignPartitions',
      partitions: [{ topic: t.topic, partition: t.partition, replicas: t.replicas }],
    });
    if (error === null) out.changed = true;
    else errors.push(`${tpName(t)}: ${kafkaMessage(error)}`);
  }
  if (errors.length) throw new TerseError(`Error reassigning partition(s):\n${errors.join('\n')}`);
  out.println(
    `Successfully started partition reassignment${targets.length === 1 ? '' : 's'} for ${[...targets]
      .sort(byPartition)
      .map(tpName)
      .join(',')}`,
  );
}

function longOption(opts: ParsedOptions, name: string): number {
  const text = opts.value(name);
  if (text === undefined) return -1;
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`Cannot parse argument '${text}' of option ${name}`);
  return Number(text);
}

/**
 * modifyReassignmentThrottle: the topic configs leader/follower.replication.throttled.replicas from
 * the move map (sources lead, destinations follow), and the rates on every broker that moves data.
 */
function setThrottles(
  ctx: ToolContext,
  out: Printer,
  ongoing: readonly PartitionState[],
  targets: readonly Target[],
  current: readonly Target[],
  rate: number,
): void {
  // calculateCurrentMoveMap, then calculateProposedMoveMap
  const moves = new Map<string, Map<number, { sources: Set<NodeId>; destinations: Set<NodeId> }>>();
  const movesOf = (topic: string) => moves.get(topic) ?? moves.set(topic, new Map()).get(topic)!;
  for (const p of ongoing)
    movesOf(p.topic).set(p.partition, {
      sources: new Set(p.replicas.filter((r) => !p.adding.includes(r))),
      destinations: new Set(p.adding),
    });
  for (const t of targets) {
    const partMoves = movesOf(t.topic);
    const sources = new Set(
      partMoves.get(t.partition)?.sources ??
        current.find((c) => c.topic === t.topic && c.partition === t.partition)!.replicas,
    );
    partMoves.set(t.partition, { sources, destinations: new Set(t.replicas.filter((r) => !sources.has(r))) });
  }
  const brokers = new Set<NodeId>();
  for (const [topic, partMoves] of moves) {
    const leader = new Set<string>();
    const follower = new Set<string>();
    for (const [partition, move] of partMoves) {
      for (const s of move.sources) {
        leader.add(`${partition}:${s}`);
        brokers.add(s);
      }
      for (const d of move.destinations) {
        if (!move.sources.has(d)) follower.add(`${partition}:${d}`);
        brokers.add(d);
      }
    }
    // A TreeSet of "partition:broker" strings: sorted as strings.
    const applied = ctx.apply({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: topic,
      configs: {
        'leader.replication.throttled.replicas': [...leader].sort().join(','),
        'follower.replication.throttled.replicas': [...follower].sort().join(','),
      },
    });
    if (applied !== null) throw new ToolError(kafkaMessage(applied));
    out.changed = true;
  }
  for (const id of [...brokers].sort((a, b) => a - b)) {
    const applied = ctx.apply({
      type: 'alterConfig',
      resourceType: 'broker',
      resourceName: String(id),
      configs: { 'leader.replication.throttled.rate': rate, 'follower.replication.throttled.rate': rate },
    });
    if (applied !== null) throw new ToolError(kafkaMessage(applied));
  }
  out.println(`The inter-broker throttle limit was set to ${rate} B/s`);
}

// --verify and --cancel --------------------------------------------------------------------------

function verify(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const { targets } = parseReassignment(fileText(ctx, opts.value('reassignment-json-file')!));
  const img = image(ctx.w);
  const ongoing = new Map(reassigning(img).map((p) => [tpName(p), p]));
  // partitionReassignmentStatesToString: one line a partition, sorted.
  const lines = ['Status of partition reassignment:'];
  const seen = new Map<string, Target>();
  for (const t of targets) seen.set(tpName(t), t);
  for (const t of [...seen.values()].sort(byPartition)) {
    if (ongoing.has(tpName(t))) {
      lines.push(`Reassignment of partition ${tpName(t)} is still in progress.`);
      continue;
    }
    const now = img.partitions.get(tpKey(t.topic, t.partition))?.replicas ?? [];
    if (now.join(',') === t.replicas.join(','))
      lines.push(`Reassignment of partition ${tpName(t)} is completed.`);
    else
      lines.push(
        `There is no active reassignment of partition ${tpName(t)}, but replica set is ${now.join(',')} rather than ${t.replicas.join(',')}.`,
      );
  }
  out.println(lines.join('\n'));
  // verifyReplicaMoves: no log directory moves here, so an empty list of states.
  out.println('');
  if (ongoing.size === 0 && !opts.has('preserve-throttles')) clearAllThrottles(ctx, out, targets);
}

function cancel(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const { targets } = parseReassignment(fileText(ctx, opts.value('reassignment-json-file')!));
  const wanted = new Set(targets.map(tpName));
  // Only reassignments that are not pure additions of replicas being cancelled (the tool's rule).
  const active = reassigning(image(ctx.w)).filter(
    (p) => wanted.has(tpName(p)) && (p.adding.length === 0 || p.removing.length > 0),
  );
  if (active.length) {
    const errors: string[] = [];
    for (const p of active) {
      const error = ctx.apply({
        type: 'reassignPartitions',
        partitions: [{ topic: p.topic, partition: p.partition, replicas: null }],
      });
      if (error === null) out.changed = true;
      else errors.push(`${tpName(p)}: ${kafkaMessage(error)}`);
    }
    if (errors.length)
      throw new TerseError(
        `Error cancelling partition reassignment${errors.length === 1 ? '' : 's'} for:\n${errors.join('\n')}`,
      );
    out.println(
      `Successfully cancelled partition reassignment${active.length === 1 ? '' : 's'} for: ${active.map(tpName).join(',')}`,
    );
  } else out.println('None of the specified partition reassignments are active.');
  // Kafka prints this one without a line break, so the next message follows on the same line.
  out.print('None of the specified partition moves are active.');
  if (!opts.has('preserve-throttles')) clearAllThrottles(ctx, out, targets);
}

/**
 * clearAllThrottles: the three broker-level throttles on every broker of the cluster and of the
 * targets, and the two topic-level ones on every target topic, listed in Java's HashSet order.
 */
function clearAllThrottles(ctx: ToolContext, out: Printer, targets: readonly Target[]): void {
  const img = image(ctx.w);
  const brokerIds = [...new Set([...clusterBrokers(img), ...targets.flatMap((t) => t.replicas)])];
  const brokers = javaHashMapOrder(brokerIds, (id) => id);
  out.println(
    `Clearing broker-level throttles on broker${brokers.length === 1 ? '' : 's'} ${brokers.join(',')}`,
  );
  for (const id of brokers) {
    if (!img.brokers.has(id)) continue;
    const configs = img.brokerConfigs.get(String(id)) ?? {};
    const set = ['leader.replication.throttled.rate', 'follower.replication.throttled.rate'].filter(
      (k) => k in configs,
    );
    if (set.length === 0) continue;
    const applied = ctx.apply({
      type: 'alterConfig',
      resourceType: 'broker',
      resourceName: String(id),
      configs: Object.fromEntries(set.map((k) => [k, null])),
    });
    if (applied === null) out.changed = true;
  }
  const topics = javaHashMapOrder([...new Set(targets.map((t) => t.topic))], javaStringHashCode);
  out.println(`Clearing topic-level throttles on topic${topics.length === 1 ? '' : 's'} ${topics.join(',')}`);
  for (const topic of topics) {
    const configs = img.topics.get(topic)?.config ?? {};
    const set = ['leader.replication.throttled.replicas', 'follower.replication.throttled.replicas'].filter(
      (k) => k in configs,
    );
    if (set.length === 0) continue;
    const applied = ctx.apply({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: topic,
      configs: Object.fromEntries(set.map((k) => [k, null])),
    });
    if (applied === null) out.changed = true;
  }
}
