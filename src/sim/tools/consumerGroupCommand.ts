// ConsumerGroupCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/consumer/group/
// ConsumerGroupCommand.java and ConsumerGroupCommandOptions.java, at 1eb7644): kafka-consumer-groups.sh
// --list, --describe --group G with --offsets (the default), --members [--verbose] or --state, as
// the group coordinators hold the groups now, and --reset-offsets (dry run, or --execute for a group
// without members).

import { adminCommitOffsets } from '../groups/groupCoordinator';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../groups/offsetsTopic';
import { javaHashMapOrder, javaStringHashCode } from '../kernel/javaHash';
import { entryAt, logEndOffset } from '../model/log';
import { tpKey, type MetaImage } from '../model/metadata';
import { clientsView } from '../observe/clientsView';
import type { GroupView } from '../model/views';
import type { World } from '../model/world';
import { highWatermark, image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { brokerHost, left, Printer, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'String: server to connect to',
    description: 'REQUIRED: The server(s) to connect to.',
  },
  {
    name: 'command-config',
    arg: 'String: command config property file',
    description: 'Property file containing configs to be passed to Admin Client and Consumer.',
  },
  { name: 'list', description: 'List all consumer groups.' },
  {
    name: 'describe',
    description:
      'Describe consumer group and list offset lag (number of messages not yet processed) related to given group.',
  },
  {
    name: 'group',
    arg: 'String: consumer group',
    repeated: true,
    description: 'The consumer group we wish to act on.',
  },
  { name: 'all-groups', description: 'Apply to all consumer groups.' },
  {
    name: 'members',
    description:
      "Describe members of the group. This option may be used with '--describe' and '--bootstrap-server' options only.",
  },
  { name: 'verbose', description: 'Provide additional information, if any, when describing the group.' },
  {
    name: 'offsets',
    description:
      'Describe the group and list all topic partitions in the group along with their offset lag. This is the default sub-action.',
  },
  { name: 'state', description: "When specified with '--describe', includes the state of the group." },
  {
    name: 'reset-offsets',
    description:
      "Reset offsets of consumer group. Supports one consumer group at the time, and instances should be inactive Has 2 execution options: --dry-run (the default) to plan which offsets to reset, and --execute to update the offsets. Additionally, the --export option is used to export the results to a CSV format. You must choose one of the following reset specifications: --to-datetime, --by-duration, --to-earliest, --to-latest, --shift-by, --from-file, --to-current, --to-offset. To define the scope use --all-topics or --topic. One scope must be specified unless you use '--from-file'.",
  },
  {
    name: 'dry-run',
    description:
      'Only show results without executing changes on Consumer Groups. Supported operations: reset-offsets.',
  },
  { name: 'execute', description: 'Execute operation. Supported operations: reset-offsets.' },
  {
    name: 'topic',
    arg: 'String: topic',
    repeated: true,
    description:
      'The topic whose consumer group information should be deleted or topic whose should be included in the reset offset process. In `reset-offsets` case, partitions can be specified using this format: `topic1:0,1,2`, where 0,1,2 are the partition to be included in the process. Reset-offsets also supports multiple topic inputs.',
  },
  {
    name: 'all-topics',
    description: 'Consider all topics assigned to a group in the `reset-offsets` process.',
  },
  { name: 'to-offset', arg: 'Long: offset', description: 'Reset offsets to a specific offset.' },
  {
    name: 'to-datetime',
    arg: 'String: datetime',
    description: "Reset offsets to offset from datetime. Format: 'YYYY-MM-DDTHH:mm:SS.sss'",
  },
  {
    name: 'by-duration',
    arg: 'String: duration',
    description: "Reset offsets to offset by duration from current timestamp. Format: 'PnDTnHnMnS'",
  },
  { name: 'to-earliest', description: 'Reset offsets to earliest offset.' },
  { name: 'to-latest', description: 'Reset offsets to latest offset.' },
  { name: 'to-current', description: 'Reset offsets to current offset.' },
  {
    name: 'shift-by',
    arg: 'Long: number-of-offsets',
    description: "Reset offsets shifting current offset by 'n', where 'n' can be positive or negative.",
  },
  {
    name: 'timeout',
    arg: 'Long: timeout (ms)',
    description: 'The timeout that can be set for some use cases.',
  },
  { name: 'help', description: 'Print usage information.' },
];

const PURPOSE =
  'This tool helps to list all consumer groups, describe a consumer group, delete consumer group info, or reset consumer group offsets.';

class UsageError extends Error {}

/** ConsumerGroupCommand.MISSING_COLUMN_VALUE */
const MISSING = '-';
/** The simulator's clients have no addresses: every member reports this host. */
const CLIENT_HOST = '/127.0.0.1';

export const consumerGroupCommand: Tool = {
  name: 'kafka-consumer-groups.sh',
  purpose: PURPOSE,
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    let opts: ParsedOptions;
    try {
      opts = parseOptions(args, OPTIONS);
      if (opts.has('help')) {
        out.println(usage(consumerGroupCommand));
        return out.result(0);
      }
      checkArgs(opts);
    } catch (e) {
      if (!(e instanceof OptionError || e instanceof UsageError)) throw e;
      out.println(e.message);
      out.println(usage(consumerGroupCommand));
      return out.result(1);
    }
    if (!reachable(ctx.w)) {
      out.println(
        `\nError: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: ${opts.has('list') ? 'listConsumerGroups' : 'describeConsumerGroups'}`,
      );
      return out.result(1);
    }
    const groups = clientsView(ctx.w, image(ctx.w), () => 0).groups.filter((g) => g.state !== 'Dead');
    if (opts.has('reset-offsets')) {
      try {
        resetOffsets(opts, ctx, groups, out);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        out.println(e.message);
        out.println(usage(consumerGroupCommand));
        return out.result(1);
      }
      return out.result(0);
    }
    if (opts.has('list')) {
      for (const g of groups) out.println(g.groupId);
      return out.result(0);
    }
    const ids = opts.has('all-groups')
      ? groups.map((g) => g.groupId)
      : [...new Set(opts.values('group'))].sort();
    for (const id of ids) {
      const g = groups.find((x) => x.groupId === id);
      if (opts.has('members')) printMembers(out, id, g, opts.has('verbose'));
      else if (opts.has('state')) printState(out, id, g);
      else printOffsets(out, ctx.w, id, g);
    }
    return out.result(0);
  },
};

// ConsumerGroupCommandOptions.checkArgs, the parts for --list and --describe.
function checkArgs(opts: ParsedOptions): void {
  if (!opts.has('bootstrap-server')) throw new UsageError('Missing required argument "[bootstrap-server]"');
  const actions = ['list', 'describe', 'reset-offsets'].filter((a) => opts.has(a));
  if (actions.length !== 1)
    throw new UsageError(
      'Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets',
    );
  if (opts.has('describe')) {
    if (!opts.has('group') && !opts.has('all-groups'))
      throw new UsageError('Option [describe] takes one of these options: [group], [all-groups]');
    if (['members', 'offsets', 'state'].filter((o) => opts.has(o)).length > 1)
      throw new UsageError(
        'Option [describe] takes at most one of these options: [members], [offsets], [state]',
      );
  }
  if (opts.has('reset-offsets')) {
    if (opts.has('dry-run') && opts.has('execute'))
      throw new UsageError('Option [reset-offsets] only accepts one of [execute] and [dry-run]');
    if (!opts.has('group') && !opts.has('all-groups'))
      throw new UsageError('Option [reset-offsets] takes one of these options: [group], [all-groups]');
    const scenarios = RESET_SCENARIOS.filter((o) => opts.has(o));
    if (scenarios.length > 1)
      throw new UsageError(`Option "[${scenarios[0]}]" can't be used with option "[${scenarios[1]}]"`);
  }
  // joptsimple's availableIf(describeOpt) and availableIf(resetOffsetsOpt).
  for (const o of ['members', 'verbose', 'offsets'])
    if (opts.has(o) && !opts.has('describe')) throw new UsageError(`Option ${o} is unavailable.`);
  for (const o of ['dry-run', 'execute', 'all-topics', ...RESET_SCENARIOS])
    if (opts.has(o) && !opts.has('reset-offsets')) throw new UsageError(`Option ${o} is unavailable.`);
}

const RESET_SCENARIOS = [
  'to-offset',
  'shift-by',
  'to-datetime',
  'by-duration',
  'to-earliest',
  'to-latest',
  'to-current',
] as const;

/**
 * resetOffsets and prepareOffsetsToReset: the new offset of each partition in scope, clamped to the
 * log (checkOffsetsRange), printed (dry run, the default) or committed for a group without members
 * (--execute, AlterConsumerGroupOffsets to the coordinator).
 */
function resetOffsets(
  opts: ParsedOptions,
  ctx: ToolContext,
  groups: readonly GroupView[],
  out: Printer,
): void {
  if (!opts.has('dry-run') && !opts.has('execute'))
    out.println(
      'WARN: No action will be performed as the --execute option is missing.In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting.',
    );
  const w = ctx.w;
  const img = image(w);
  const ids = opts.has('all-groups') ? groups.map((g) => g.groupId) : [...new Set(opts.values('group'))];
  const results: { groupId: string; offsets: { topic: string; partition: number; offset: number }[] }[] = [];
  for (const groupId of javaHashMapOrder(ids, javaStringHashCode)) {
    const g = groups.find((x) => x.groupId === groupId);
    // describeConsumerGroups answers Dead for a group the coordinator does not know.
    const state = g?.state ?? 'Dead';
    if (state !== 'Empty' && state !== 'Dead') {
      out.println(
        `\nError: Assignments can only be reset if the group '${groupId}' is inactive, but the current state is ${state}.`,
      );
      results.push({ groupId, offsets: [] });
      continue;
    }
    const committed = new Map(
      (g?.offsets ?? [])
        .filter((o) => o.committed >= 0)
        .map((o) => [tpKey(o.topic, o.partition), o.committed]),
    );
    // getPartitionsToReset
    let scope: { topic: string; partition: number }[];
    if (opts.has('all-topics'))
      scope = (g?.offsets ?? [])
        .filter((o) => o.committed >= 0)
        .map((o) => ({ topic: o.topic, partition: o.partition }));
    else if (opts.has('topic')) scope = topicsToReset(opts.values('topic'), img);
    else throw new UsageError('One of the reset scopes should be defined: --all-topics, --topic.');
    const hw = (tp: { topic: string; partition: number }) => highWatermark(w, img, tp.topic, tp.partition);
    const start = (tp: { topic: string; partition: number }) => logStart(w, img, tp.topic, tp.partition);
    const needed = (value: number | null, what: string, tp: { topic: string; partition: number }) => {
      if (value === null)
        throw new UsageError(`Error getting ${what} of topic partition: ${tp.topic}-${tp.partition}`);
      return value;
    };
    // checkOffsetsRange: above the end goes to the end, below the start to the start.
    const clamp = (tp: { topic: string; partition: number }, offset: number) => {
      const end = needed(hw(tp), 'ending offset', tp);
      if (offset > end) return end;
      const first = needed(start(tp), 'starting offset', tp);
      return offset < first ? first : offset;
    };
    const offsets = scope.map((tp) => {
      let offset: number;
      if (opts.has('to-offset')) offset = clamp(tp, longValue(opts, 'to-offset'));
      else if (opts.has('to-earliest')) offset = needed(start(tp), 'starting offset', tp);
      else if (opts.has('to-latest')) offset = needed(hw(tp), 'ending offset', tp);
      else if (opts.has('shift-by')) {
        const current = committed.get(tpKey(tp.topic, tp.partition));
        if (current === undefined)
          throw new UsageError(
            `Cannot shift offset for partition ${tp.topic}-${tp.partition} since there is no current committed offset`,
          );
        offset = clamp(tp, current + longValue(opts, 'shift-by'));
      } else if (opts.has('to-current'))
        offset = committed.get(tpKey(tp.topic, tp.partition)) ?? needed(hw(tp), 'ending offset', tp);
      else if (opts.has('to-datetime') || opts.has('by-duration')) {
        const ts = opts.has('to-datetime')
          ? dateTime(opts.value('to-datetime')!)
          : w.nowMs - duration(opts.value('by-duration')!);
        offset =
          offsetForTimestamp(w, img, tp.topic, tp.partition, ts) ?? needed(hw(tp), 'ending offset', tp);
      } else
        throw new UsageError(
          `Option '[reset-offsets]' requires one of the following scenarios: [${RESET_SCENARIOS.join(', ')}, from-file]`,
        );
      return { ...tp, offset };
    });
    if (opts.has('execute') && offsets.length > 0) {
      const coordinator = g && g.coordinator >= 0 ? g.coordinator : coordinatorOf(w, img, groupId);
      const failure =
        coordinator < 0 ? 'COORDINATOR_NOT_AVAILABLE' : adminCommitOffsets(w, coordinator, groupId, offsets);
      if (failure) {
        out.println(
          `\nError: Executing consumer group command failed due to ${failure === 'COORDINATOR_NOT_AVAILABLE' ? 'org.apache.kafka.common.errors.CoordinatorNotAvailableException: The coordinator is not available.' : `org.apache.kafka.common.errors.${failure}`}`,
        );
        return;
      }
      out.changed = true;
    }
    results.push({ groupId, offsets });
  }
  // printOffsetsToReset: every row after a line break, the map's own order (TopicPartition.hashCode).
  const row = (c: string[]) =>
    `\n${left(c[0]!, 30)} ${left(c[1]!, 30)} ${left(c[2]!, 10)} ${left(c[3]!, 15)}`;
  if (results.length) out.print(row(['GROUP', 'TOPIC', 'PARTITION', 'NEW-OFFSET']));
  for (const r of results)
    for (const o of javaHashMapOrder(
      r.offsets,
      (x) => (Math.imul(31, 31 + x.partition) + javaStringHashCode(x.topic)) | 0,
    ))
      out.print(row([r.groupId, o.topic, String(o.partition), String(o.offset)]));
  out.println();
}

/**
 * shouldPrintMemberState: what the tool says of a group that is not Stable (on stderr, after a
 * blank line), and whether it prints the table.
 */
function shouldPrint(out: Printer, id: string, g: GroupView | undefined, rows: number): boolean {
  if (!g) {
    out.println(`\nError: Consumer group '${id}' does not exist.`);
    return false;
  }
  if (g.state === 'Empty') out.println(`\nConsumer group '${id}' has no active members.`);
  else if (g.state !== 'Stable') out.println(`\nWarning: Consumer group '${id}' is rebalancing.`);
  return rows > 0;
}

interface OffsetRow {
  topic: string;
  partition: string;
  offset: string;
  logEnd: string;
  lag: string;
  consumerId: string;
  host: string;
  clientId: string;
}

/** collectGroupsOffsets then printOffsets. */
function printOffsets(out: Printer, w: World, id: string, g: GroupView | undefined): void {
  const rows: OffsetRow[] = [];
  if (g) {
    const img = image(w);
    const committed = new Map(
      g.offsets.filter((o) => o.committed >= 0).map((o) => [`${o.topic}-${o.partition}`, o.committed]),
    );
    const row = (
      topic: string,
      partition: number,
      consumerId: string,
      clientId: string,
      host: string,
    ): OffsetRow => {
      const offset = committed.get(`${topic}-${partition}`);
      const end = highWatermark(w, img, topic, partition);
      return {
        topic,
        partition: String(partition),
        offset: offset === undefined ? MISSING : String(offset),
        logEnd: end === null ? MISSING : String(end),
        lag: offset === undefined || end === null ? MISSING : String(end - offset),
        consumerId,
        host,
        clientId,
      };
    };
    const assigned = new Set<string>();
    // Members with partitions, the most partitions first; each member's partitions by number.
    const members = g.members
      .filter((m) => m.assignment.length > 0)
      .sort((a, b) => b.assignment.length - a.assignment.length);
    for (const m of members) {
      const tps = [...m.assignment].sort((a, b) => a.partition - b.partition || (a.topic < b.topic ? -1 : 1));
      for (const tp of tps) {
        assigned.add(`${tp.topic}-${tp.partition}`);
        rows.push(row(tp.topic, tp.partition, m.memberId, m.consumerId, CLIENT_HOST));
      }
    }
    const unassigned = g.offsets.filter(
      (o) => o.committed >= 0 && !assigned.has(`${o.topic}-${o.partition}`),
    );
    for (const o of unassigned.sort((a, b) => a.partition - b.partition || (a.topic < b.topic ? -1 : 1)))
      rows.push(row(o.topic, o.partition, MISSING, MISSING, MISSING));
  }
  if (!shouldPrint(out, id, g, rows.length)) return;
  // printOffsetFormat: the group, topic, consumer id and host columns fit their longest value (at least 15).
  const wGroup = Math.max(15, id.length);
  const wTopic = Math.max(15, ...rows.map((r) => r.topic.length));
  const wConsumer = Math.max(15, ...rows.map((r) => r.consumerId.length));
  const wHost = Math.max(15, ...rows.map((r) => r.host.length));
  const line = (c: string[]) =>
    `\n${left(c[0]!, wGroup)} ${left(c[1]!, wTopic)} ${left(c[2]!, 10)} ${left(c[3]!, 15)} ${left(c[4]!, 15)} ${left(c[5]!, 15)} ${left(c[6]!, wConsumer)} ${left(c[7]!, wHost)} ${c[8]!}`;
  out.print(
    line([
      'GROUP',
      'TOPIC',
      'PARTITION',
      'CURRENT-OFFSET',
      'LOG-END-OFFSET',
      'LAG',
      'CONSUMER-ID',
      'HOST',
      'CLIENT-ID',
    ]),
  );
  for (const r of rows)
    out.print(line([id, r.topic, r.partition, r.offset, r.logEnd, r.lag, r.consumerId, r.host, r.clientId]));
  out.println();
}

/** collectGroupsMembers then printMembers (no member is static here: no GROUP-INSTANCE-ID column). */
function printMembers(out: Printer, id: string, g: GroupView | undefined, verbose: boolean): void {
  const members = g?.members ?? [];
  const ok = shouldPrint(out, id, g, members.length);
  const wGroup = Math.max(15, ok ? id.length : 0);
  const wConsumer = Math.max(15, ...(ok ? members.map((m) => m.memberId.length) : []));
  const wHost = Math.max(15, ok ? CLIENT_HOST.length : 0);
  const wClient = Math.max(15, ...(ok ? members.map((m) => m.consumerId.length) : []));
  const cells = (c: (string | number)[]) =>
    `${left(c[0]!, wGroup)} ${left(c[1]!, wConsumer)} ${left(c[2]!, wHost)} ${left(c[3]!, wClient)} ${left(c[4]!, 15)} `;
  // printMembers prints the header whatever shouldPrintMemberState said.
  out.print(`\n${cells(['GROUP', 'CONSUMER-ID', 'HOST', 'CLIENT-ID', '#PARTITIONS'])}`);
  if (verbose) out.print('ASSIGNMENT');
  out.println();
  for (const m of members) {
    out.print(cells([id, m.memberId, CLIENT_HOST, m.consumerId, m.assignment.length]));
    if (verbose) out.print(assignmentText(m.assignment));
    out.println();
  }
}

/** The --verbose ASSIGNMENT column: per topic "topic(0,1)", the groups sorted, "-" when none. */
function assignmentText(assignment: readonly { topic: string; partition: number }[]): string {
  if (assignment.length === 0) return MISSING;
  const byTopic = new Map<string, number[]>();
  for (const tp of assignment) byTopic.set(tp.topic, [...(byTopic.get(tp.topic) ?? []), tp.partition]);
  // Kafka sorts the partition numbers as strings, then the topics' groups as strings.
  return [...byTopic.entries()]
    .map(([topic, ps]) => `${topic}(${ps.map(String).sort().join(',')})`)
    .sort()
    .join(', ');
}

/** collectGroupsState then printStates. */
function printState(out: Printer, id: string, g: GroupView | undefined): void {
  if (!shouldPrint(out, id, g, 1) || !g) return;
  const coordinator =
    g.coordinator >= 0 ? `${brokerHost(g.coordinator)}:9092  (${g.coordinator})` : ':-1  (-1)';
  const w = Math.max(25, coordinator.length);
  const line = (c: (string | number)[]) =>
    `\n${left(c[0]!, w)} ${left(c[1]!, 25)} ${left(c[2]!, 20)} ${left(c[3]!, 15)} ${c[4]!}`;
  out.print(line(['GROUP', 'COORDINATOR (ID)', 'ASSIGNMENT-STRATEGY', 'STATE', '#MEMBERS']));
  out.print(line([id, coordinator, g.protocol, g.state, g.members.length]));
  out.println();
}

/** parseTopicPartitionsToReset: `topic` (all its partitions) or `topic:0,1,2`; partitions named first. */
function topicsToReset(args: readonly string[], img: MetaImage): { topic: string; partition: number }[] {
  const named: { topic: string; partition: number }[] = [];
  const whole: { topic: string; partition: number }[] = [];
  for (const arg of args) {
    const colon = arg.indexOf(':');
    if (colon >= 0) {
      const topic = arg.slice(0, colon);
      for (const p of arg.slice(colon + 1).split(',')) {
        if (!/^[+-]?\d+$/.test(p)) throw new UsageError(`For input string: "${p}"`);
        named.push({ topic, partition: Number(p) });
      }
    } else {
      const t = img.topics.get(arg);
      if (!t)
        throw new UsageError(
          `Executing consumer group command failed due to org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.`,
        );
      for (let partition = 0; partition < t.partitions; partition++) whole.push({ topic: arg, partition });
    }
  }
  return [...named, ...whole];
}

function longValue(opts: ParsedOptions, name: string): number {
  const text = opts.value(name) ?? '';
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`Cannot parse argument '${text}' of option ${name}`);
  return Number(text);
}

/** Utils.getDateTime: 'YYYY-MM-DDTHH:mm:SS.sss' with an optional zone (Z, ±HH:mm); without one, UTC here. */
function dateTime(text: string): number {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|([+-])(\d{2}):?(\d{2}))?$/.exec(text);
  if (!m) throw new UsageError(`Error parsing date/time: ${text}`);
  const [, y, mo, d, h, mi, sec, frac, zone, sign, zh, zm] = m;
  // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); no Date here.
  const year = Number(y) - (Number(mo) <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const mp = (Number(mo) + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + Number(d) - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  const offset = zone && zone !== 'Z' ? (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm)) * 60_000 : 0;
  const ms = Number((frac ?? '0').padEnd(3, '0'));
  return ((days * 24 + Number(h)) * 60 + Number(mi)) * 60_000 + Number(sec) * 1000 + ms - offset;
}

/** java.time.Duration.parse: PnDTnHnMn.nS, in ms. */
function duration(text: string): number {
  const m =
    /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+(?:\.\d+)?)S)?)?$/i.exec(text);
  if (!m || text.endsWith('T') || !/\d/.test(text))
    throw new UsageError(`Text cannot be parsed to a Duration: ${text}`);
  const [, sign, d, h, min, sec] = m;
  const ms =
    ((Number(d ?? 0) * 24 + Number(h ?? 0)) * 60 + Number(min ?? 0)) * 60_000 + Number(sec ?? 0) * 1000;
  return sign === '-' ? -ms : ms;
}

/** The leader's log start offset; null without a running leader. */
function logStart(w: World, img: MetaImage, topic: string, partition: number): number | null {
  const p = img.partitions.get(tpKey(topic, partition));
  const log =
    p && p.leader >= 0 ? w.nodes.get(p.leader)?.disk.partitions.get(tpKey(topic, partition))?.log : undefined;
  return log && w.nodes.get(p!.leader)?.state === 'running' ? log.logStartOffset : null;
}

/** ListOffsets for a timestamp: the first offset below the high watermark whose record is at or after it. */
function offsetForTimestamp(
  w: World,
  img: MetaImage,
  topic: string,
  partition: number,
  ts: number,
): number | null {
  const hw = highWatermark(w, img, topic, partition);
  const p = img.partitions.get(tpKey(topic, partition));
  const log = p ? w.nodes.get(p.leader)?.disk.partitions.get(tpKey(topic, partition))?.log : undefined;
  if (hw === null || !log) return null;
  for (let o = log.logStartOffset; o < Math.min(hw, logEndOffset(log)); o++)
    if ((entryAt(log, o)?.timestampMs ?? -Infinity) >= ts) return o;
  return null;
}

/** The leader of the group's __consumer_offsets partition, -1 when none (or no offsets topic yet). */
function coordinatorOf(w: World, img: MetaImage, groupId: string): number {
  const t = img.topics.get(OFFSETS_TOPIC);
  if (!t) return -1;
  return img.partitions.get(tpKey(OFFSETS_TOPIC, offsetsPartitionFor(groupId, t.partitions)))?.leader ?? -1;
}
