// LeaderElectionCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/LeaderElectionCommand.java):
// kafka-leader-election.sh --election-type preferred|unclean with --topic/--partition or
// --all-topic-partitions or --path-to-json-file (the admin host's files), through the electLeaders command.

import { activeController } from '../kraft/quorumController';
import { isActiveBroker, tpKey } from '../model/metadata';
import { image } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { readFile } from './shell';
import { kafkaMessage, parseInt32, Printer, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'host:port',
    description:
      'A hostname and port for the broker to connect to, in the form host:port. Multiple comma separated URLs can be given. REQUIRED.',
  },
  {
    name: 'admin.config',
    arg: 'config file',
    description: 'Configuration properties files to pass to the admin client',
  },
  {
    name: 'path-to-json-file',
    arg: 'Path to JSON file',
    description: 'The JSON file with the list of partition for which leader elections should be performed.',
  },
  {
    name: 'topic',
    arg: 'topic name',
    description:
      'Name of topic for which to perform an election. Not allowed if --path-to-json-file or --all-topic-partitions is specified.',
  },
  {
    name: 'partition',
    arg: 'partition id',
    description: 'Partition id for which to perform an election. REQUIRED if --topic is specified.',
  },
  {
    name: 'all-topic-partitions',
    description:
      'Perform election on all of the eligible topic partitions based on the type of election (see the --election-type flag). Not allowed if --topic or --path-to-json-file is specified.',
  },
  {
    name: 'election-type',
    arg: 'election type',
    description:
      'Type of election to attempt. Possible values are "preferred" for preferred leader election or "unclean" for unclean leader election. REQUIRED.',
  },
  { name: 'help', description: 'Print usage information.' },
];

/** AdminCommandFailedException: mainNoExit prints its message (and a stack trace, left out here). */
class CommandFailed extends Error {}

export const leaderElectionCommand: Tool = {
  name: 'kafka-leader-election.sh',
  purpose:
    'This tool attempts to elect a new leader for a set of topic partitions. The type of elections supported are preferred replicas and unclean replicas.',
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      const opts = parseOptions(args, OPTIONS);
      if (opts.has('help') || args.length === 0) {
        out.println(usage(leaderElectionCommand));
        return out.result(opts.has('help') ? 0 : 1);
      }
      validate(opts);
      elect(opts, ctx, out);
      return out.result(0);
    } catch (e) {
      if (e instanceof OptionError) {
        out.println(e.message);
        out.println(usage(leaderElectionCommand));
      } else if (e instanceof CommandFailed) out.println(e.message);
      else throw e;
      return out.result(1);
    }
  },
};

// LeaderElectionCommandOptions.validate
function validate(opts: ParsedOptions): void {
  const missing = ['bootstrap-server', 'election-type'].filter((o) => !opts.has(o));
  if (missing.length) throw new CommandFailed(`Missing required option(s): ${missing.join(', ')}`);
  const type = opts.value('election-type')!;
  if (type !== 'preferred' && type !== 'unclean')
    throw new CommandFailed(`Cannot parse argument '${type}' of option election-type`);
  const exclusive = ['topic', 'all-topic-partitions', 'path-to-json-file'];
  if (exclusive.filter((o) => opts.has(o)).length !== 1)
    throw new CommandFailed(`One and only one of the following options is required: ${exclusive.join(', ')}`);
  if (opts.has('topic') && !opts.has('partition'))
    throw new CommandFailed('Missing required option(s): partition');
  if (!opts.has('topic') && opts.has('partition'))
    throw new CommandFailed('Option partition is only allowed if topic is used');
}

function elect(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const type = opts.value('election-type') as 'preferred' | 'unclean';
  const label = type.toUpperCase();
  const img = image(ctx.w);
  let named: { topic: string; partition: number }[] | null = null;
  if (opts.has('path-to-json-file')) named = electionData(ctx, opts.value('path-to-json-file')!);
  if (opts.has('topic')) {
    const partition = parseInt32(opts.value('partition'));
    if (partition === null)
      throw new CommandFailed(`Cannot parse argument '${opts.value('partition')}' of option partition`);
    named = [{ topic: opts.value('topic')!, partition }];
  }
  const candidates =
    named ?? [...img.partitions.values()].map((p) => ({ topic: p.topic, partition: p.partition }));
  const succeeded: string[] = [];
  const noop: string[] = [];
  const failed: string[] = [];
  const toElect: { topic: string; partition: number }[] = [];
  for (const tp of candidates) {
    const p = img.partitions.get(tpKey(tp.topic, tp.partition));
    const name = `${tp.topic}-${tp.partition}`;
    if (!p) {
      failed.push(
        `${name}: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.`,
      );
      continue;
    }
    const preferred = p.replicas[0];
    if (type === 'preferred' ? p.leader === preferred : p.leader >= 0) {
      // With every partition, the controller leaves out those that need no election.
      if (named) noop.push(name);
      continue;
    }
    if (
      type === 'preferred' &&
      (preferred === undefined || !p.isr.includes(preferred) || !isActiveBroker(img, preferred))
    ) {
      failed.push(
        `${name}: org.apache.kafka.common.errors.PreferredLeaderNotAvailableException: Failed to elect leader for partition ${name} under strategy PreferredReplicaPartitionLeaderElectionStrategy`,
      );
      continue;
    }
    toElect.push(tp);
  }
  if (toElect.length) {
    if (!activeController(ctx.w)) throw new CommandFailed('Timeout waiting for election results');
    const before = new Map(
      toElect.map((tp) => [
        tpKey(tp.topic, tp.partition),
        img.partitions.get(tpKey(tp.topic, tp.partition))!.leader,
      ]),
    );
    const error = ctx.apply({ type: 'electLeaders', electionType: type, partitions: toElect });
    const after = activeController(ctx.w)?.controller?.work;
    for (const tp of toElect) {
      const name = `${tp.topic}-${tp.partition}`;
      const leader = after?.partitions.get(tpKey(tp.topic, tp.partition))?.leader ?? -1;
      if (!error && leader !== before.get(tpKey(tp.topic, tp.partition)) && leader >= 0) {
        succeeded.push(name);
        out.changed = true;
      } else
        failed.push(
          `${name}: org.apache.kafka.common.errors.EligibleLeadersNotAvailableException: ${error ? kafkaMessage(error) : 'Eligible topic partition leaders are not available.'}`,
        );
    }
  }
  if (succeeded.length)
    out.println(`Successfully completed leader election (${label}) for partitions ${succeeded.join(', ')}`);
  if (noop.length) out.println(`Valid replica already elected for partitions ${noop.join(', ')}`);
  if (failed.length) {
    for (const f of failed) out.println(`Error completing leader election (${label}) for partition: ${f}`);
    throw new CommandFailed(`${failed.length} replica(s) could not be elected`);
  }
}

/**
 * parseReplicaElectionData: `{"partitions": [{"topic": "foo", "partition": 1}, …]}` from the admin
 * host's files (tools/shell.ts); a repeated partition is refused.
 */
function electionData(ctx: ToolContext, path: string): { topic: string; partition: number }[] {
  const text = readFile(ctx.w, path);
  if (text === undefined) throw new CommandFailed(`java.nio.file.NoSuchFileException: ${path}`);
  let js: unknown;
  try {
    js = JSON.parse(text);
  } catch {
    throw new CommandFailed('Replica election data is empty');
  }
  const list = (js as { partitions?: unknown } | null)?.partitions;
  if (!Array.isArray(list)) throw new CommandFailed('Replica election data is missing "partitions" field');
  const partitions = list.map((p: unknown) => {
    const entry = p as { topic?: unknown; partition?: unknown } | null;
    if (typeof entry?.topic !== 'string' || !Number.isInteger(entry.partition))
      throw new CommandFailed(
        'Replica election data: each entry needs a "topic" string and a "partition" number',
      );
    return { topic: entry.topic, partition: entry.partition as number };
  });
  const names = partitions.map((p) => `${p.topic}-${p.partition}`);
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length)
    throw new CommandFailed(`Replica election data contains duplicate partitions: [${repeated.join(', ')}]`);
  return partitions.filter((p, i) => names.indexOf(`${p.topic}-${p.partition}`) === i);
}
