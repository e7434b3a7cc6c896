// ConsoleConsumer (apache/kafka tools/src/main/java/org/apache/kafka/tools/consumer/ConsoleConsumer.java,
// ConsoleConsumerOptions.java, DefaultMessageFormatter.java): kafka-console-consumer.sh prints the
// records a consumer would read now. The terminal is one-shot: the tool reads what each partition's
// leader would return (up to the high watermark, or the last stable offset under read_committed,
// leaving out aborted transactions and control markers), stops at --max-messages or at the end, and
// prints `Processed a total of N messages` as the tool does when it exits. It reads only: with
// --group it starts from the group's committed offsets but joins no group and commits nothing.

import { isAborted, lastStableOffset } from '../broker/transactionIndex';
import { entryAt, logEndOffset } from '../model/log';
import { tpKey } from '../model/metadata';
import { clientsView } from '../observe/clientsView';
import { image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { parseInt32, Printer, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  { name: 'topic', arg: 'String: topic', description: 'The topic to consume on.' },
  {
    name: 'include',
    arg: 'String: Java regex (String)',
    description: 'Regular expression specifying list of topics to include for consumption.',
  },
  {
    name: 'partition',
    arg: 'Integer: partition',
    description:
      "The partition to consume from. Consumption starts from the end of the partition unless '--offset' is specified.",
  },
  {
    name: 'offset',
    arg: 'String: consume offset',
    description:
      "The offset to consume from (a non-negative number), or 'earliest' which means from beginning, or 'latest' which means from end (default: latest)",
  },
  {
    name: 'consumer-property',
    arg: 'String: consumer_prop',
    repeated: true,
    description: 'A mechanism to pass user-defined properties in the form key=value to the consumer.',
  },
  {
    name: 'property',
    arg: 'String: prop',
    repeated: true,
    description:
      'The properties to initialize the message formatter. Default properties include: print.timestamp=true|false, print.key=true|false, print.offset=true|false, print.epoch=true|false, print.partition=true|false, print.headers=true|false, print.value=true|false, key.separator=<key.separator>, line.separator=<line.separator>, headers.separator=<line.separator>, null.literal=<null.literal>',
  },
  {
    name: 'from-beginning',
    description:
      'If the consumer does not already have an established offset to consume from, start with the earliest message present in the log rather than the latest message.',
  },
  {
    name: 'max-messages',
    arg: 'Integer: num_messages',
    description:
      'The maximum number of messages to consume before exiting. If not set, consumption is continual.',
  },
  {
    name: 'timeout-ms',
    arg: 'Long: timeout_ms',
    description: 'If specified, exit if no message is available for consumption for the specified interval.',
  },
  {
    name: 'bootstrap-server',
    arg: 'String: server to connect to',
    description: 'REQUIRED: The server(s) to connect to.',
  },
  {
    name: 'isolation-level',
    arg: 'String',
    description:
      'Set to read_committed in order to filter out transactional messages which are not committed. Set to read_uncommitted to read all messages. (default: read_uncommitted)',
  },
  { name: 'group', arg: 'String: consumer group id', description: 'The consumer group id of the consumer.' },
  { name: 'help', description: 'Print usage information.' },
  { name: 'version', description: 'Display Kafka version.' },
];

class UsageError extends Error {}
class SimulatorNote extends Error {}

export const consoleConsumer: Tool = {
  name: 'kafka-console-consumer.sh',
  purpose: 'This tool helps to read data from Kafka topics and outputs it to standard output.',
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      const opts = parseOptions(args, OPTIONS);
      if (opts.has('help') || args.length === 0) {
        out.println(usage(consoleConsumer));
        return out.result(opts.has('help') ? 0 : 1);
      }
      consume(opts, ctx, out);
      return out.result(0);
    } catch (e) {
      if (e instanceof OptionError || e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(consoleConsumer));
      } else if (e instanceof SimulatorNote) out.println(`Note (simulator): ${e.message}`);
      else throw e;
      return out.result(1);
    }
  },
};

/** ConsoleConsumerOptions' checks, in its order. */
function checkArgs(opts: ParsedOptions): void {
  if (!opts.has('bootstrap-server')) throw new UsageError('Missing required argument "[bootstrap-server]"');
  if (opts.has('topic') === opts.has('include'))
    throw new UsageError('Exactly one of --include/--topic is required. ');
  if (opts.has('partition') && !opts.has('topic'))
    throw new UsageError('The topic is required when partition is specified.');
  if (opts.has('partition') && opts.has('from-beginning') && opts.has('offset'))
    throw new UsageError('Options from-beginning and offset cannot be specified together.');
  if (opts.has('offset') && !opts.has('partition'))
    throw new UsageError('The partition is required when offset is specified.');
  if (opts.has('group') && opts.has('partition'))
    throw new UsageError('Options group and partition cannot be specified together.');
  const level = opts.value('isolation-level');
  if (level !== undefined && level !== 'read_committed' && level !== 'read_uncommitted')
    throw new SimulatorNote(
      `org.apache.kafka.common.config.ConfigException: Invalid value ${level} for configuration isolation.level: String must be one of: read_committed, read_uncommitted`,
    );
  if (opts.has('include'))
    throw new SimulatorNote('--include (a topic regex) is not supported here; name one --topic.');
}

function formatterProps(opts: ParsedOptions): Map<string, string> {
  const map = new Map<string, string>();
  for (const kv of opts.values('property')) {
    const eq = kv.indexOf('=');
    if (eq < 0) throw new UsageError(`Invalid command line properties: ${opts.values('property').join(' ')}`);
    map.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return map;
}

function consume(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  checkArgs(opts);
  const props = formatterProps(opts);
  const flag = (name: string, dflt = false) =>
    (props.get(name)?.trim().toLowerCase() ?? String(dflt)) === 'true';
  const print = {
    timestamp: flag('print.timestamp'),
    partition: flag('print.partition'),
    offset: flag('print.offset'),
    epoch: flag('print.epoch'),
    headers: flag('print.headers'),
    key: flag('print.key'),
    value: flag('print.value', true),
  };
  const keySeparator = props.get('key.separator') ?? '\t';
  const lineSeparator = props.get('line.separator') ?? '\n';
  const nullLiteral = props.get('null.literal') ?? 'null';
  let maxMessages = -1;
  if (opts.has('max-messages')) {
    const n = parseInt32(opts.value('max-messages'));
    if (n === null)
      throw new UsageError(`Cannot parse argument '${opts.value('max-messages')}' of option max-messages`);
    maxMessages = n;
  }
  const readCommitted =
    opts.value('isolation-level') === 'read_committed' ||
    opts.values('consumer-property').includes('isolation.level=read_committed');
  const w = ctx.w;
  const img = image(w);
  const topic = opts.value('topic')!;
  const meta = img.topics.get(topic);
  const lines: string[] = [];
  if (meta && reachable(w)) {
    const partitionCount = [...img.partitions.values()].filter((p) => p.topic === topic).length;
    let partitions = [...Array(partitionCount).keys()];
    if (opts.has('partition')) {
      const p = parseInt32(opts.value('partition'));
      if (p === null)
        throw new UsageError(`Cannot parse argument '${opts.value('partition')}' of option partition`);
      partitions = partitions.filter((x) => x === p);
    }
    const groupId =
      opts.value('group') ??
      opts
        .values('consumer-property')
        .find((kv) => kv.startsWith('group.id='))
        ?.slice(9);
    const committed = new Map<string, number>();
    if (groupId !== undefined) {
      const g = clientsView(w, img, () => 0).groups.find((x) => x.groupId === groupId);
      for (const o of g?.offsets ?? [])
        if (o.committed >= 0) committed.set(tpKey(o.topic, o.partition), o.committed);
    }
    const reset =
      opts.has('from-beginning') || opts.values('consumer-property').includes('auto.offset.reset=earliest');
    for (const partition of partitions) {
      if (maxMessages >= 0 && lines.length >= maxMessages) break;
      const key = tpKey(topic, partition);
      const state = img.partitions.get(key);
      const leader = state && state.leader >= 0 ? w.nodes.get(state.leader) : undefined;
      const disk = leader?.state === 'running' ? leader.disk.partitions.get(key) : undefined;
      if (!disk) continue; // no leader to fetch from: the consumer would wait
      const limit = readCommitted ? lastStableOffset(disk) : disk.highWatermark;
      const start = disk.log.logStartOffset;
      let from: number;
      const offsetText = opts.value('offset');
      if (offsetText !== undefined) {
        if (offsetText === 'earliest') from = start;
        else if (offsetText === 'latest') from = limit;
        else if (/^\d+$/.test(offsetText)) from = Number(offsetText);
        else
          throw new UsageError(
            `The provided offset value '${offsetText}' is incorrect. Valid values are 'earliest', 'latest', or a non-negative long.`,
          );
      } else if (committed.has(key)) from = committed.get(key)!;
      else from = reset ? start : limit;
      // An offset out of range resets as auto.offset.reset says (latest unless --from-beginning).
      if (from < start || from > logEndOffset(disk.log)) from = reset ? start : limit;
      for (let off = from; off < Math.min(limit, logEndOffset(disk.log)); off++) {
        if (maxMessages >= 0 && lines.length >= maxMessages) break;
        const r = entryAt(disk.log, off);
        if (!r || r.control) continue;
        if (readCommitted && r.transactional && isAborted(disk, r.pid, off)) continue;
        const fields: string[] = [];
        if (print.timestamp) fields.push(`CreateTime:${r.timestampMs}`);
        if (print.partition) fields.push(`Partition:${partition}`);
        if (print.offset) fields.push(`Offset:${off}`);
        if (print.epoch) fields.push(`Epoch:${r.epoch}`);
        if (print.headers) fields.push('NO_HEADERS');
        if (print.key) fields.push(r.key ?? nullLiteral);
        let text = fields.join(keySeparator);
        if (print.value) text = `${fields.length ? text + keySeparator : ''}${r.value}${lineSeparator}`;
        lines.push(text);
      }
    }
  }
  if (!meta)
    out.println(
      `WARN [Consumer clientId=console-consumer] Error while fetching metadata with correlation id 2 : {${topic}=UNKNOWN_TOPIC_OR_PARTITION} (org.apache.kafka.clients.NetworkClient)`,
    );
  for (const l of lines) out.print(l);
  // reportRecordCount, on System.err.
  out.println(`Processed a total of ${lines.length} messages`);
}
