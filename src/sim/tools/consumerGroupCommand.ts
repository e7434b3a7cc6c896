// ConsumerGroupCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/consumer/group/
// ConsumerGroupCommand.java and ConsumerGroupCommandOptions.java, at 1eb7644): kafka-consumer-groups.sh
// --list, and --describe --group G with --offsets (the default), --members [--verbose] or --state,
// as the group coordinators hold the groups now.

import { clientsView } from '../observe/clientsView';
import type { GroupView } from '../model/views';
import type { World } from '../model/world';
import { highWatermark, image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { brokerHost, left, Printer, type Tool } from './tool';
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
  const actions = ['list', 'describe'].filter((a) => opts.has(a));
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
  // joptsimple's availableIf(describeOpt).
  for (const o of ['members', 'verbose', 'offsets'])
    if (opts.has(o) && !opts.has('describe')) throw new UsageError(`Option ${o} is unavailable.`);
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
