// TransactionsCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/TransactionsCommand.java):
// kafka-transactions.sh list, describe --transactional-id X and describe-producers --topic T
// --partition P, as the transaction coordinators (txn/) and the partition leaders' producer state
// hold them now, printed with ToolsUtils.prettyPrintTable. Times are the simulator's virtual
// milliseconds, where Kafka's are wall-clock epoch milliseconds.

import { ongoingTransactions } from '../broker/transactionIndex';
import { entryAt } from '../model/log';
import { tpKey } from '../model/metadata';
import type { TxnMetadata } from '../model/transactions';
import type { SimNode, World } from '../model/world';
import { TRANSACTION_STATE_TOPIC, txnPartitionCount, txnPartitionFor } from '../txn/transactionLog';
import { leaderEpochOf } from '../txn/transactionStateManager';
import { image, reachable } from './cluster';
import { prettyPrintTable } from './metadataQuorumCommand';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { parseInt32, Printer, type Tool } from './tool';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'host:port',
    description:
      'hostname and port for the broker to connect to, in the form `host:port`  (multiple comma-separated entries can be given)',
  },
  {
    name: 'command-config',
    arg: 'FILE',
    description: 'property file containing configs to be passed to admin client',
  },
  { name: 'transactional-id', arg: 'TRANSACTIONAL_ID', description: 'transactional id' },
  { name: 'topic', arg: 'TOPIC', description: 'topic name' },
  { name: 'partition', arg: 'PARTITION', description: 'partition number' },
  { name: 'broker-id', arg: 'BROKER_ID', description: 'the id of the broker to query' },
  {
    name: 'duration-filter',
    arg: 'DURATION_FILTER',
    description:
      'Duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, only transactions running longer than this duration will be returned',
  },
  { name: 'help', description: 'show this help message and exit' },
  { name: 'version', description: 'show the version of this Kafka distribution and exit' },
];

const SUBCOMMANDS = ['list', 'describe', 'describe-producers', 'abort', 'find-hanging'];

const USAGE =
  'usage: kafka-transactions.sh [-h] [-v] [--command-config FILE] --bootstrap-server host:port COMMAND ...';

/** printErrorAndExit(message, t): `message: t.getMessage(). Enable debug logging for additional detail.` */
class CommandError extends Error {}

export const transactionsCommand: Tool = {
  name: 'kafka-transactions.sh',
  purpose:
    'This tool is used to analyze the transactional state of producers in the cluster. It can be used to detect and recover from hanging transactions.',
  options: OPTIONS,
  subcommands: SUBCOMMANDS,
  run(args, ctx) {
    const out = new Printer();
    const fail = (message: string) => {
      out.println(USAGE);
      out.println(`kafka-transactions.sh: error: ${message}`);
      return out.result(1);
    };
    let opts: ParsedOptions;
    try {
      opts = parseOptions(args, OPTIONS);
    } catch (e) {
      if (!(e instanceof OptionError)) throw e;
      const word = /^'(.*)' is not a recognized option$/.exec(e.message);
      return fail(word ? `unrecognized arguments: '--${word[1]}'` : e.message);
    }
    if (opts.has('help')) {
      out.println(USAGE);
      out.println(`\n${transactionsCommand.purpose}`);
      return out.result(0);
    }
    if (!opts.has('bootstrap-server')) return fail('argument --bootstrap-server is required');
    const [command, ...rest] = opts.positional;
    if (command === undefined) return fail('too few arguments');
    if (!SUBCOMMANDS.includes(command))
      return fail(
        `argument COMMAND: invalid choice: '${command}' (choose from ${SUBCOMMANDS.map((s) => `'${s}'`).join(', ')})`,
      );
    if (rest.length) return fail(`unrecognized arguments: '${rest.join(' ')}'`);
    const allowed: Record<string, string[]> = {
      list: ['duration-filter'],
      describe: ['transactional-id'],
      'describe-producers': ['topic', 'partition', 'broker-id'],
      abort: [],
      'find-hanging': [],
    };
    const stray = ['transactional-id', 'topic', 'partition', 'broker-id', 'duration-filter'].find(
      (o) => opts.has(o) && !allowed[command]!.includes(o),
    );
    if (stray) return fail(`unrecognized arguments: '--${stray}'`);
    try {
      if (command === 'abort' || command === 'find-hanging') {
        out.println(
          `Note (simulator): ${command} is not modelled; a hanging transaction is aborted by its coordinator after transaction.timeout.ms (docs/cli.md).`,
        );
        return out.result(1);
      }
      if (!reachable(ctx.w))
        throw new CommandError(
          `${command === 'list' ? 'Failed to list transactions' : command === 'describe' ? `Failed to describe transaction state of transactional-id \`${opts.value('transactional-id') ?? ''}\`` : 'Failed to describe producers'}: Timed out waiting for a node assignment.`,
        );
      if (command === 'list') list(ctx.w, opts, out);
      else if (command === 'describe') {
        if (!opts.has('transactional-id')) return fail('argument --transactional-id is required');
        describe(ctx.w, opts.value('transactional-id')!, out);
      } else {
        for (const o of ['topic', 'partition']) if (!opts.has(o)) return fail(`argument --${o} is required`);
        const partition = parseInt32(opts.value('partition'));
        if (partition === null)
          return fail(`argument --partition: could not convert '${opts.value('partition')}' to Integer`);
        describeProducers(ctx.w, opts.value('topic')!, partition, opts.value('broker-id'), out);
      }
      return out.result(0);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      out.println(`${e.message} Enable debug logging for additional detail.`);
      return out.result(1);
    }
  },
};

/** The transactions a running broker coordinates now: those of the __transaction_state partitions it leads and has loaded. */
function coordinated(w: World, node: SimNode): TxnMetadata[] {
  const mem = w.transactions?.get(node.id);
  if (!mem || node.state !== 'running') return [];
  return [...mem.txns.values()].filter((m) => {
    const epoch = leaderEpochOf(node, m.statePartition);
    return epoch >= 0 && mem.loaded.get(m.statePartition) === epoch;
  });
}

const brokers = (w: World) => [...w.nodes.values()].filter((n) => n.isBroker).sort((a, b) => a.id - b.id);

// ListTransactionsCommand: every broker's listing, by broker id (Kafka's HashMap of small ints), each by transactional id.
function list(w: World, opts: ParsedOptions, out: Printer): void {
  const filterText = opts.value('duration-filter');
  const filter = filterText === undefined ? -1 : Number(filterText);
  if (filterText !== undefined && !/^-?\d+$/.test(filterText))
    throw new CommandError(`argument --duration-filter: could not convert '${filterText}' to Long`);
  const rows: string[][] = [];
  for (const node of brokers(w))
    for (const m of coordinated(w, node).sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : 1))) {
      // ListTransactions' DurationFilter (KIP-994): only Ongoing transactions open longer than it.
      if (filter >= 0 && !(m.state === 'Ongoing' && w.nowMs - m.startMs > filter)) continue;
      rows.push([m.transactionalId, String(node.id), String(m.producerId), m.state]);
    }
  prettyPrintTable(out, ['TransactionalId', 'Coordinator', 'ProducerId', 'TransactionState'], rows);
}

// DescribeTransactionsCommand: the coordinator of the id's __transaction_state partition answers.
function describe(w: World, transactionalId: string, out: Printer): void {
  const fail = (why: string) =>
    new CommandError(
      `Failed to describe transaction state of transactional-id \`${transactionalId}\`: ${why}.`,
    );
  const count = image(w).topics.get(TRANSACTION_STATE_TOPIC)?.partitions ?? txnPartitionCount(w, null);
  const partition = txnPartitionFor(transactionalId, count);
  const coordinator = brokers(w).find((n) => n.state === 'running' && leaderEpochOf(n, partition) >= 0);
  if (!coordinator) throw fail('The coordinator is not available');
  const m = coordinated(w, coordinator).find((x) => x.transactionalId === transactionalId);
  if (!m) throw fail('The transactionalId could not be found');
  const started = m.startMs >= 0 && m.state !== 'Empty';
  prettyPrintTable(
    out,
    [
      'CoordinatorId',
      'TransactionalId',
      'ProducerId',
      'ProducerEpoch',
      'TransactionState',
      'TransactionTimeoutMs',
      'CurrentTransactionStartTimeMs',
      'TransactionDurationMs',
      'TopicPartitions',
    ],
    [
      [
        String(coordinator.id),
        transactionalId,
        String(m.producerId),
        String(m.producerEpoch),
        m.state,
        String(m.timeoutMs),
        started ? String(m.startMs) : 'None',
        started ? String(w.nowMs - m.startMs) : 'None',
        m.partitions.join(','),
      ],
    ],
  );
}

// DescribeProducersCommand: the leader's (or --broker-id's) ProducerStateManager.activeProducers.
function describeProducers(
  w: World,
  topic: string,
  partition: number,
  brokerIdText: string | undefined,
  out: Printer,
): void {
  const img = image(w);
  const key = tpKey(topic, partition);
  const state = img.partitions.get(key);
  const brokerId = brokerIdText === undefined ? undefined : Number(brokerIdText);
  const clause = brokerId === undefined ? 'leader' : `broker ${brokerId}`;
  const fail = (why: string) =>
    new CommandError(
      `Failed to describe producers for partition ${topic}-${partition} on ${clause}: ${why}.`,
    );
  if (!state) throw fail('This server does not host this topic-partition');
  const nodeId = brokerId ?? state.leader;
  const node = w.nodes.get(nodeId);
  const replica = node?.state === 'running' ? node.broker?.replicas.get(key) : undefined;
  if (!replica)
    throw fail(
      nodeId < 0
        ? 'There is no leader for this topic-partition as we are in the middle of a leadership election'
        : 'This server does not host this topic-partition',
    );
  if (brokerId === undefined && replica.role !== 'leader')
    throw fail(
      'For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition',
    );
  const disk = node!.disk.partitions.get(key);
  const ongoing = disk ? ongoingTransactions(disk) : new Map<number, number>();
  const rows = [...replica.producerState.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([pid, e]) => {
      const lastOffset = e.offsets[e.offsets.length - 1];
      const last = disk && lastOffset !== undefined ? entryAt(disk.log, lastOffset) : undefined;
      return [
        String(pid),
        String(e.epoch ?? 0),
        '-1',
        String(e.lastSeq),
        String(last?.timestampMs ?? -1),
        ongoing.has(pid) ? String(ongoing.get(pid)) : 'None',
      ];
    });
  prettyPrintTable(
    out,
    [
      'ProducerId',
      'ProducerEpoch',
      'LatestCoordinatorEpoch',
      'LastSequence',
      'LastTimestamp',
      'CurrentTransactionStartOffset',
    ],
    rows,
  );
}
