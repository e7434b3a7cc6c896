// MetadataQuorumCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/MetadataQuorumCommand.java,
// and ToolsUtils.prettyPrintTable): kafka-metadata-quorum.sh describe --status and --replication,
// from the quorum leader's view of its voters (KafkaRaftClient's LeaderState) at this instant.

import { uuidToString } from '../kernel/uuid';
import { logEndOffset } from '../model/log';
import type { SimNode, World } from '../model/world';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { brokerHost, Printer, type Tool } from './tool';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'BOOTSTRAP_SERVER',
    description:
      'A comma-separated list of host:port pairs to use for establishing the connection to the Kafka cluster.',
  },
  {
    name: 'bootstrap-controller',
    arg: 'BOOTSTRAP_CONTROLLER',
    description:
      'A comma-separated list of host:port pairs to use for establishing the connection to the Kafka controllers.',
  },
  {
    name: 'command-config',
    arg: 'COMMAND_CONFIG',
    description: 'Property file containing configs to be passed to Admin Client.',
  },
  {
    name: 'status',
    description:
      'A short summary of the quorum status and the other provides detailed information about the status of replication.',
  },
  { name: 'replication', description: 'Detailed information about the status of replication' },
  { name: 'human-readable', description: 'Human-readable output' },
  { name: 'help', description: 'show this help message and exit' },
];

/** argparse4j's usage line of the tool. */
const USAGE =
  'usage: kafka-metadata-quorum [-h] (--bootstrap-server BOOTSTRAP_SERVER | --bootstrap-controller BOOTSTRAP_CONTROLLER)\n' +
  '                             [--command-config COMMAND_CONFIG] {describe,add-controller,remove-controller} ...';

/** The directory id of a node that has none (Uuid.ZERO_UUID): the simulator's quorum is static (controller.quorum.voters). */
const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

export const metadataQuorumCommand: Tool = {
  name: 'kafka-metadata-quorum.sh',
  purpose: 'This tool describes kraft metadata quorum status.',
  options: OPTIONS,
  subcommands: ['describe', 'add-controller', 'remove-controller'],
  run(args, ctx) {
    const out = new Printer();
    const fail = (message: string) => {
      out.println(USAGE);
      out.println(`kafka-metadata-quorum: error: ${message}`);
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
      return out.result(0);
    }
    if (!opts.has('bootstrap-server') && !opts.has('bootstrap-controller'))
      return fail('one of the arguments --bootstrap-server --bootstrap-controller is required');
    const [command, ...rest] = opts.positional;
    if (command === undefined) return fail('too few arguments');
    if (rest.length) return fail(`unrecognized arguments: '${rest.join(' ')}'`);
    if (command === 'add-controller' || command === 'remove-controller') {
      out.println(`${command} needs a dynamic quorum (KIP-853), which the simulator does not model.`);
      return out.result(1);
    }
    if (command !== 'describe')
      return fail(
        `argument {describe,add-controller,remove-controller}: invalid choice: '${command}' (choose from 'describe', 'add-controller', 'remove-controller')`,
      );
    // TerseException: the message alone, on stderr.
    if (opts.has('status') && opts.has('replication')) {
      out.println('Only one of --status or --replication should be specified with describe sub-command');
      return out.result(1);
    }
    if (!opts.has('status') && !opts.has('replication')) {
      out.println('One of --status or --replication must be specified with describe sub-command');
      return out.result(1);
    }
    if (opts.has('status') && opts.has('human-readable')) {
      out.println('The option --human-readable is only supported along with --replication');
      return out.result(1);
    }
    const quorum = describeQuorum(ctx.w);
    if (!quorum) {
      out.println(
        'org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: describeMetadataQuorum',
      );
      return out.result(1);
    }
    if (opts.has('status')) printStatus(out, ctx.w, quorum);
    else printReplication(out, ctx.w, quorum, opts.has('human-readable'));
    return out.result(0);
  },
};

interface ReplicaState {
  id: number;
  logEndOffset: number;
  /** -1 when unknown (QuorumInfo.ReplicaState's empty OptionalLong). */
  lastFetchMs: number;
  lastCaughtUpMs: number;
}

interface QuorumInfo {
  leaderId: number;
  leaderEpoch: number;
  highWatermark: number;
  voters: ReplicaState[];
  observers: ReplicaState[];
}

/**
 * DescribeQuorum as the leader answers it: itself caught up now, each voter as far as its last
 * fetch showed, each observer (broker) as far as its own log goes. The simulator keeps no
 * last-caught-up time: a replica with no lag reports its last fetch, one behind reports -1.
 */
function describeQuorum(w: World): QuorumInfo | null {
  const leader = w.voterIds
    .map((id) => w.nodes.get(id))
    .find((n) => n?.state === 'running' && n.raft?.role === 'leader');
  if (!leader?.raft) return null;
  const r = leader.raft;
  const leo = logEndOffset(leader.disk.metaLog);
  const voters: ReplicaState[] = [];
  for (const id of [...w.voterIds].sort((a, b) => a - b)) {
    if (id === leader.id) {
      voters.push({ id, logEndOffset: leo, lastFetchMs: w.nowMs, lastCaughtUpMs: w.nowMs });
      continue;
    }
    const p = r.progress.get(id);
    const end = p ? p.endOffset : -1;
    const fetched = p && end >= 0 ? p.lastFetchMs : -1;
    voters.push({ id, logEndOffset: end, lastFetchMs: fetched, lastCaughtUpMs: end >= leo ? fetched : -1 });
  }
  const observers: ReplicaState[] = [...w.nodes.values()]
    .filter((n: SimNode) => !w.voterIds.includes(n.id) && n.state === 'running' && n.raft)
    .sort((a, b) => a.id - b.id)
    .map((n) => {
      const end = logEndOffset(n.disk.metaLog);
      const fetched = Number.isFinite(n.raft!.lastFetchOkMs) ? n.raft!.lastFetchOkMs : -1;
      return { id: n.id, logEndOffset: end, lastFetchMs: fetched, lastCaughtUpMs: end >= leo ? fetched : -1 };
    });
  return {
    leaderId: leader.id,
    leaderEpoch: leader.disk.quorumEpoch,
    highWatermark: r.highWatermark,
    voters,
    observers,
  };
}

/** The cluster's id, fixed by the scenario's seed (the simulator formats no storage, so it draws none). */
export function clusterId(w: World): string {
  let h = (w.seed >>> 0) ^ 0x9e3779b9;
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    words.push((h ^ (h >>> 16)) >>> 0);
  }
  return uuidToString(words as [number, number, number, number]);
}

function printStatus(out: Printer, w: World, q: QuorumInfo): void {
  const leader = q.voters.find((v) => v.id === q.leaderId)!;
  const maxLag = q.voters.reduce((min, v) => (v.logEndOffset < min.logEndOffset ? v : min), q.voters[0]!);
  const maxFollowerLag = leader.logEndOffset - maxLag.logEndOffset;
  const maxFollowerLagTimeMs =
    maxFollowerLag === 0 || maxLag === leader
      ? 0
      : leader.lastCaughtUpMs >= 0 && maxLag.lastCaughtUpMs >= 0
        ? leader.lastCaughtUpMs - maxLag.lastCaughtUpMs
        : -1;
  // Node.toString: {"id": 1, "directoryId": null, "endpoints": ["CONTROLLER://kafka-1:9093"]}
  const voter = (id: number) =>
    `{"id": ${id}, "directoryId": null, "endpoints": ["CONTROLLER://${brokerHost(id)}:9093"]}`;
  const observer = (id: number) => `{"id": ${id}, "directoryId": null}`;
  out.println(
    `ClusterId:              ${clusterId(w)}` +
      `\nLeaderId:               ${q.leaderId}` +
      `\nLeaderEpoch:            ${q.leaderEpoch}` +
      `\nHighWatermark:          ${q.highWatermark}` +
      `\nMaxFollowerLag:         ${maxFollowerLag}` +
      `\nMaxFollowerLagTimeMs:   ${maxFollowerLagTimeMs}` +
      `\nCurrentVoters:          [${q.voters.map((v) => voter(v.id)).join(', ')}]` +
      `\nCurrentObservers:       [${q.observers.map((o) => observer(o.id)).join(', ')}]`,
  );
}

function printReplication(out: Printer, w: World, q: QuorumInfo, humanReadable: boolean): void {
  const leader = q.voters.find((v) => v.id === q.leaderId)!;
  const time = (ms: number) => (ms < 0 ? '-1' : humanReadable ? `${w.nowMs - ms} ms ago` : String(ms));
  const row = (s: ReplicaState, status: string) => [
    String(s.id),
    ZERO_UUID,
    String(s.logEndOffset),
    String(leader.logEndOffset - s.logEndOffset),
    time(s.lastFetchMs),
    time(s.lastCaughtUpMs),
    status,
  ];
  const rows = [
    row(leader, 'Leader'),
    ...q.voters.filter((v) => v.id !== q.leaderId).map((v) => row(v, 'Follower')),
    ...q.observers.map((o) => row(o, 'Observer')),
  ];
  prettyPrintTable(
    out,
    ['NodeId', 'DirectoryId', 'LogEndOffset', 'Lag', 'LastFetchTimestamp', 'LastCaughtUpTimestamp', 'Status'],
    rows,
  );
}

/** ToolsUtils.prettyPrintTable: each column padded to its widest cell, then a tab (the last one too). */
export function prettyPrintTable(out: Printer, headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [headers, ...rows]) out.println(r.map((c, i) => `${c.padEnd(widths[i]!)}\t`).join(''));
}
