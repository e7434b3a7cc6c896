// GetOffsetShell (apache/kafka tools/src/main/java/org/apache/kafka/tools/GetOffsetShell.java):
// kafka-get-offsets.sh prints `topic:partition:offset` for the partitions its filters match, as an
// Admin client's ListOffsets answers from each partition's leader (isolation read_uncommitted):
// latest is the high watermark, earliest the log start offset, a timestamp the first offset at or
// after it. Lines are sorted by the text `topic-partition`, as Kafka's TreeMap sorts them.

import { entryAt, logEndOffset } from '../model/log';
import { tpKey } from '../model/metadata';
import type { World } from '../model/world';
import { highWatermark, image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec } from './options';
import { Printer, type Tool } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'String: HOST1:PORT1,...,HOST3:PORT3',
    description: 'REQUIRED. The server(s) to connect to in the form HOST1:PORT1,HOST2:PORT2.',
  },
  {
    name: 'topic-partitions',
    arg: 'String: topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3',
    description:
      "Comma separated list of topic-partition patterns to get the offsets for, with the format of '([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?'. The first group is an optional regex for the topic name, if omitted, it matches any topic name. The section after ':' describes a 'partition' pattern, which can be: a number, a range in the format of 'NUMBER-NUMBER' (lower inclusive, upper exclusive), an inclusive lower bound in the format of 'NUMBER-', an exclusive upper bound in the format of '-NUMBER' or may be omitted to accept all partitions.",
  },
  {
    name: 'topic',
    arg: 'String: topic',
    description:
      'The topic to get the offsets for. It also accepts a regular expression. If not present, all authorized topics are queried. Cannot be used if --topic-partitions is present.',
  },
  {
    name: 'partitions',
    arg: 'String: partition ids',
    description:
      'Comma separated list of partition ids to get the offsets for. If not present, all partitions of the authorized topics are queried. Cannot be used if --topic-partitions is present.',
  },
  {
    name: 'time',
    arg: 'String: <timestamp> / -1 or latest / -2 or earliest / -3 or max-timestamp / -4 or earliest-local / -5 or latest-tiered',
    description:
      'timestamp of the offsets before that. [Note: No offset is returned, if the timestamp greater than recently committed record timestamp is given.] (default: latest)',
  },
  {
    name: 'command-config',
    arg: 'String: config file',
    description: 'Property file containing configs to be passed to Admin Client.',
  },
  {
    name: 'exclude-internal-topics',
    description: 'By default, internal topics are included. If specified, internal topics are excluded.',
  },
  { name: 'help', description: 'Print usage information.' },
  { name: 'version', description: 'Display Kafka version.' },
];

/** TerseException: `Error occurred: ` and the message. */
class TerseError extends Error {}
class UsageError extends Error {}

type Spec = 'earliest' | 'latest' | 'max-timestamp' | 'earliest-local' | 'latest-tiered' | number;

/** A partition filter: which partitions of a matching topic. */
type PartitionFilter = (partition: number) => boolean;

export const getOffsetShell: Tool = {
  name: 'kafka-get-offsets.sh',
  purpose: 'An interactive shell for getting topic-partition offsets.',
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      if (args.length === 0)
        throw new UsageError('An interactive shell for getting topic-partition offsets.');
      let opts;
      try {
        opts = parseOptions(args, OPTIONS);
      } catch (e) {
        if (e instanceof OptionError) throw new TerseError(e.message);
        throw e;
      }
      if (opts.has('help')) {
        out.println(usage(getOffsetShell));
        return out.result(0);
      }
      if (!opts.has('bootstrap-server'))
        throw new UsageError('Missing required argument "[bootstrap-server]"');
      if (opts.has('topic-partitions') && (opts.has('topic') || opts.has('partitions')))
        throw new TerseError('--topic-partitions cannot be used with --topic or --partitions');
      const spec = offsetSpec(opts.value('time') ?? 'latest');
      const rules = opts.has('topic-partitions')
        ? (opts.value('topic-partitions') ?? '').split(',').map(ruleSpec)
        : [
            {
              topic: topicRegex(opts.value('topic') ?? '.*'),
              partitions: partitionSet(opts.value('partitions')),
            },
          ];
      if (!reachable(ctx.w))
        throw new TerseError('Timed out waiting for a node assignment. Call: listTopics');
      const img = image(ctx.w);
      const internal = (t: string) => t.startsWith('__');
      const matched: { topic: string; partition: number }[] = [];
      for (const t of img.topics.values()) {
        if (opts.has('exclude-internal-topics') && internal(t.name)) continue;
        for (let partition = 0; partition < t.partitions; partition++)
          if (rules.some((r) => r.topic.test(t.name) && r.partitions(partition)))
            matched.push({ topic: t.name, partition });
      }
      if (matched.length === 0)
        throw new TerseError('Could not match any topic-partitions with the specified filters');
      const lines: { name: string; text: string }[] = [];
      for (const tp of matched) {
        const name = `${tp.topic}-${tp.partition}`;
        const offset = listOffset(ctx.w, tp.topic, tp.partition, spec);
        if (offset === null)
          out.println(
            `Skip getting offsets for topic-partition ${name} due to error: org.apache.kafka.common.errors.LeaderNotAvailableException: There is no leader for this topic-partition as we are in the middle of a leadership election.`,
          );
        else if (offset !== -1) lines.push({ name, text: `${tp.topic}:${tp.partition}:${offset}` });
      }
      // new TreeMap<>(Comparator.comparing(TopicPartition::toString)): orders-10 before orders-2.
      lines.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const l of lines) out.println(l.text);
      return out.result(0);
    } catch (e) {
      if (e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(getOffsetShell));
      } else if (e instanceof TerseError) out.println(`Error occurred: ${e.message}`);
      else throw e;
      return out.result(1);
    }
  },
};

/** parseOffsetSpec. */
function offsetSpec(text: string): Spec {
  const named: Record<string, Spec> = {
    earliest: 'earliest',
    latest: 'latest',
    'max-timestamp': 'max-timestamp',
    'earliest-local': 'earliest-local',
    'latest-tiered': 'latest-tiered',
    '-1': 'latest',
    '-2': 'earliest',
    '-3': 'max-timestamp',
    '-4': 'earliest-local',
    '-5': 'latest-tiered',
  };
  const spec = Object.prototype.hasOwnProperty.call(named, text) ? named[text] : undefined;
  if (spec !== undefined) return spec;
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new TerseError(
      `Malformed time argument ${text}. Please use -1 or latest / -2 or earliest / -3 or max-timestamp / -4 or earliest-local / -5 or latest-tiered, or a specified long format timestamp`,
    );
  return Number(text);
}

/** IncludeList: a Java regex the whole topic name must match. */
function topicRegex(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    throw new TerseError(
      `java.util.regex.PatternSyntaxException: Unclosed or invalid pattern near index 0\n${pattern}`,
    );
  }
}

function partitionSet(text: string | undefined): PartitionFilter {
  if (text === undefined || text === '') return () => true;
  const ids = text.split(',').map((p) => (/^[+-]?\d+$/.test(p) ? Number(p) : NaN));
  if (ids.some((n) => Number.isNaN(n)))
    throw new TerseError(
      `--partitions expects a comma separated list of numeric partition ids, but received: ${text}`,
    );
  return (partition) => ids.includes(partition);
}

/** parseRuleSpec: `topicRegex(:N | :N-M | :N- | :-M)?`. */
function ruleSpec(spec: string): { topic: RegExp; partitions: PartitionFilter } {
  const m = /^([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?$/.exec(spec);
  if (!m) throw new TerseError(`Invalid rule specification: ${spec}`);
  const group = (g: number) => (m[g] ? m[g] : null);
  const topic = topicRegex(group(1) ?? '.*');
  const unique = group(2);
  if (unique !== null) return { topic, partitions: (p) => p === Number(unique) };
  const lower = group(3) !== null ? Number(group(3)) : 0;
  const upper = group(4) !== null ? Number(group(4)) : 2147483647;
  return { topic, partitions: (p) => p >= lower && p < upper };
}

/** ListOffsets on the partition's leader; -1 for no offset (UNKNOWN_OFFSET, not printed), null without a leader. */
function listOffset(w: World, topic: string, partition: number, spec: Spec): number | null {
  const img = image(w);
  const hw = highWatermark(w, img, topic, partition);
  if (hw === null) return null;
  const leader = img.partitions.get(tpKey(topic, partition))!.leader;
  const log = w.nodes.get(leader)!.disk.partitions.get(tpKey(topic, partition))?.log;
  if (!log) return null;
  if (spec === 'latest') return hw;
  if (spec === 'earliest' || spec === 'earliest-local') return log.logStartOffset;
  // No tiered storage: the tiered log has nothing.
  if (spec === 'latest-tiered') return -1;
  // Only records below the high watermark are visible to ListOffsets.
  const end = Math.min(hw, logEndOffset(log));
  if (spec === 'max-timestamp') {
    let best = -1;
    let bestTs = -Infinity;
    for (let o = log.logStartOffset; o < end; o++) {
      const ts = entryAt(log, o)?.timestampMs;
      if (ts !== undefined && ts > bestTs) {
        bestTs = ts;
        best = o;
      }
    }
    return best;
  }
  for (let o = log.logStartOffset; o < end; o++) {
    const ts = entryAt(log, o)?.timestampMs;
    if (ts !== undefined && ts >= spec) return o;
  }
  return -1;
}
