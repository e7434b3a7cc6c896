// The tools that read files or offsets: the shell commands that write the files, kafka-reassign-
// partitions.sh, kafka-leader-election.sh --path-to-json-file and kafka-get-offsets.sh. The expected
// text is written from Kafka's sources (tools/src/main/java/org/apache/kafka/tools/: reassign/
// ReassignPartitionsCommand.java, LeaderElectionCommand.java, GetOffsetShell.java):
// its messages, its JSON (Jackson's compact form, partitions sorted, "log_dirs" all "any") and
// its one line without a line break (--cancel's "None of the specified partition moves are active.").
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../simulation';
import { cliWithKind as run, toolCluster } from '../testing/cli';
import { tokenize } from './tokenizer';

const TOOL = 'kafka-reassign-partitions.sh --bootstrap-server localhost:9092';

/**
 * Controller 1, brokers 2 to 5; orders on 2, 3, 4 by hand, so broker 5 is free to move to, with
 * 2 MB in partition 0, so that a copy throttled to 100 kB/s takes about 20 seconds.
 */
function cluster(): Simulation {
  const sim = toolCluster({
    brokers: 4,
    topics: [
      {
        name: 'orders',
        partitions: 2,
        replicationFactor: 3,
        assignment: [
          [2, 3, 4],
          [3, 4, 2],
        ],
      },
    ],
  });
  sim.apply({
    type: 'produce',
    topic: 'orders',
    partition: 0,
    key: null,
    value: 'x'.repeat(1000),
    count: 2000,
  });
  sim.advance(5000);
  return sim;
}

const SLOW = '--throttle 100000';
const PLAN = `{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[5,3,4]}]}`;

describe('the shell around the tools', () => {
  it('a redirection writes a file that cat reads and ls lists', () => {
    const sim = cluster();
    expect(run(sim, `echo '${PLAN}' > plan.json`)).toEqual({ ok: true, output: '', readOnly: false });
    expect(run(sim, 'cat plan.json').output).toBe(PLAN);
    expect(run(sim, 'ls').output).toBe('plan.json');
    expect(run(sim, 'cat missing.json')).toMatchObject({
      ok: false,
      output: 'cat: missing.json: No such file or directory',
    });
    expect(run(sim, 'rm plan.json').ok).toBe(true);
    expect(run(sim, 'ls').output).toBe('');
  });

  it("a tool's output can be saved and read back", () => {
    const sim = cluster();
    run(sim, 'kafka-topics.sh --bootstrap-server x --list > topics.txt');
    expect(run(sim, 'cat topics.txt').output).toBe('orders');
  });

  it('the tokenizer takes one unquoted > and its file; a quoted one is text', () => {
    expect(tokenize(`echo 'a > b' > out.txt`)).toEqual({ words: ['echo', 'a > b'], redirect: 'out.txt' });
    expect(tokenize('echo a >')).toEqual({ error: "syntax error near unexpected token `newline'" });
  });

  it('a file written is part of the run: a clone has it, and reading changes nothing', () => {
    const sim = cluster();
    const before = sim.stateHash();
    run(sim, 'ls');
    expect(sim.stateHash()).toBe(before);
    run(sim, `echo '${PLAN}' > plan.json`);
    expect(sim.stateHash()).not.toBe(before);
    expect(run(sim.clone(), 'cat plan.json').output).toBe(PLAN);
  });
});

describe('kafka-reassign-partitions.sh (ReassignPartitionsCommand)', () => {
  it('--generate prints the current assignment and a proposal over the listed brokers', () => {
    const sim = cluster();
    run(sim, `echo '{"topics":[{"topic":"orders"}],"version":1}' > topics.json`);
    const r = run(sim, `${TOOL} --generate --topics-to-move-json-file topics.json --broker-list 3,4,5`);
    expect(r.readOnly).toBe(true);
    const lines = r.output.split('\n');
    expect(lines[0]).toBe('Current partition replica assignment');
    expect(lines[1]).toBe(
      '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[2,3,4],"log_dirs":["any","any","any"]},{"topic":"orders","partition":1,"replicas":[3,4,2],"log_dirs":["any","any","any"]}]}',
    );
    expect(lines[2]).toBe('');
    expect(lines[3]).toBe('Proposed partition reassignment configuration');
    const proposed = JSON.parse(lines[4]!) as { partitions: { replicas: number[] }[] };
    // Every replica on the listed brokers, three each, as the replication factor was.
    for (const p of proposed.partitions) expect([...p.replicas].sort()).toEqual([3, 4, 5]);
    expect(lines).toHaveLength(5);
  });

  it('--execute starts the reassignment, --list and --verify follow it until it completes', () => {
    const sim = cluster();
    run(sim, `echo '${PLAN}' > plan.json`);
    const started = run(sim, `${TOOL} --execute --reassignment-json-file plan.json ${SLOW}`);
    expect(started.output).toBe(
      [
        'Current partition replica assignment',
        '',
        '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[2,3,4],"log_dirs":["any","any","any"]}]}',
        '',
        'Save this to use as the --reassignment-json-file option during rollback',
        'Warning: You must run --verify periodically, until the reassignment completes, to ensure the throttle is removed.',
        'The inter-broker throttle limit was set to 100000 B/s',
        'Successfully started partition reassignment for orders-0',
      ].join('\n'),
    );
    expect(started.readOnly).toBe(false);
    // The controller commits the new replicas within milliseconds; the copy takes longer.
    sim.advance(5);
    expect(run(sim, `${TOOL} --list`).output).toBe(
      'Current partition reassignments:\norders-0: replicas: 5,3,4,2. adding: 5. removing: 2.',
    );
    expect(run(sim, `${TOOL} --verify --reassignment-json-file plan.json`).output).toBe(
      'Status of partition reassignment:\nReassignment of partition orders-0 is still in progress.\n',
    );
    sim.advance(60_000);
    expect(run(sim, `${TOOL} --list`).output).toBe('No partition reassignments found.');
    expect(run(sim, `${TOOL} --verify --reassignment-json-file plan.json`).output).toBe(
      [
        'Status of partition reassignment:',
        'Reassignment of partition orders-0 is completed.',
        '',
        'Clearing broker-level throttles on brokers 2,3,4,5',
        'Clearing topic-level throttles on topic orders',
      ].join('\n'),
    );
    expect(
      sim.snapshot().partitions.find((p) => p.topic === 'orders' && p.partition === 0)?.replicas,
    ).toEqual([5, 3, 4]);
  });

  it('--throttle sets the move throttles, and --verify clears them once the move is done', () => {
    const sim = cluster();
    run(sim, `echo '${PLAN}' > plan.json`);
    run(sim, `${TOOL} --execute --reassignment-json-file plan.json ${SLOW}`);
    sim.advance(5);
    const configs = run(
      sim,
      'kafka-configs.sh --bootstrap-server x --describe --entity-type topics --entity-name orders',
    );
    // Sources lead (2, 3, 4 hold partition 0 now), the new replica 5 follows.
    expect(configs.output).toContain('follower.replication.throttled.replicas=0:5');
    expect(configs.output).toContain('leader.replication.throttled.replicas=0:2,0:3,0:4');
    const broker5 = 'kafka-configs.sh --bootstrap-server x --describe --entity-type brokers --entity-name 5';
    expect(run(sim, broker5).output).toContain('follower.replication.throttled.rate=100000');
    sim.advance(60_000);
    run(sim, `${TOOL} --verify --reassignment-json-file plan.json`);
    sim.advance(5);
    const after = run(
      sim,
      'kafka-configs.sh --bootstrap-server x --describe --entity-type topics --entity-name orders',
    );
    expect(after.output).not.toContain('throttled');
    const broker = run(
      sim,
      'kafka-configs.sh --bootstrap-server x --describe --entity-type brokers --entity-name 5',
    );
    expect(broker.output).not.toContain('throttled.rate');
  });

  it('a second --execute while one runs needs --additional, in the tool words', () => {
    const sim = cluster();
    run(sim, `echo '${PLAN}' > plan.json`);
    run(sim, `${TOOL} --execute --reassignment-json-file plan.json ${SLOW}`);
    sim.advance(5);
    expect(run(sim, `${TOOL} --execute --reassignment-json-file plan.json`)).toMatchObject({
      ok: false,
      output:
        'Cannot execute because there is an existing partition assignment.  Use --additional to override this and create a new partition assignment in addition to the existing one. The --additional flag can also be used to change the throttle by resubmitting the current reassignment.',
    });
  });

  it('--cancel reverts a reassignment in progress, then says no partition moves are active on the same line as the next message', () => {
    const sim = cluster();
    run(sim, `echo '${PLAN}' > plan.json`);
    run(sim, `${TOOL} --execute --reassignment-json-file plan.json ${SLOW}`);
    sim.advance(5);
    const r = run(sim, `${TOOL} --cancel --reassignment-json-file plan.json`);
    expect(r.output).toBe(
      [
        'Successfully cancelled partition reassignment for: orders-0',
        'None of the specified partition moves are active.Clearing broker-level throttles on brokers 2,3,4,5',
        'Clearing topic-level throttles on topic orders',
      ].join('\n'),
    );
    sim.advance(5);
    expect(
      sim.snapshot().partitions.find((p) => p.topic === 'orders' && p.partition === 0)?.replicas,
      // PartitionReassignmentRevert: the replicas [5,3,4,2] less the one being added, in that order.
    ).toEqual([3, 4, 2]);
    expect(run(sim, `${TOOL} --list`).output).toBe('No partition reassignments found.');
  });

  it.each([
    [
      'no action',
      `${TOOL}`,
      'Command must include exactly one action: --generate, --execute, --verify, --cancel, --list',
    ],
    ['two actions', `${TOOL} --list --verify`, 'Command must include exactly one action'],
    [
      'no bootstrap',
      'kafka-reassign-partitions.sh --list',
      'Please specify either --bootstrap-server or --bootstrap-controller',
    ],
    ['a missing file option', `${TOOL} --verify`, 'Missing required argument "[reassignment-json-file]"'],
    [
      'an option of another action',
      `${TOOL} --verify --reassignment-json-file plan.json --throttle 5`,
      `Option "[throttle]" can't be used with action "[verify]"`,
    ],
    [
      'a file not written',
      `${TOOL} --verify --reassignment-json-file nope.json`,
      'Error: nope.json\njava.nio.file.NoSuchFileException: nope.json',
    ],
    [
      'an unknown broker',
      `${TOOL} --execute --reassignment-json-file bad-broker.json`,
      'Error: Unknown broker id 9',
    ],
    [
      'a partition that does not exist',
      `${TOOL} --execute --reassignment-json-file bad-partition.json`,
      'Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Unable to find partition: orders-7',
    ],
    [
      'a repeated replica',
      `${TOOL} --execute --reassignment-json-file repeated.json`,
      'Error: Partition replica lists may not contain duplicate entries: orders-0 contains multiple entries for 3',
    ],
    [
      'an empty plan',
      `${TOOL} --execute --reassignment-json-file empty.json`,
      'Error: Partition reassignment list cannot be empty',
    ],
    [
      'a later version',
      `${TOOL} --execute --reassignment-json-file v2.json`,
      'Error: Not supported version field value 2',
    ],
    [
      'a broker list with a repeat',
      `${TOOL} --generate --topics-to-move-json-file plan.json --broker-list 3,3`,
      'Error: Broker list contains duplicate entries: [3]',
    ],
  ])('refuses %s with the tool words and changes nothing', (_what, line, expected) => {
    const sim = cluster();
    run(sim, `echo '${PLAN}' > plan.json`);
    run(
      sim,
      `echo '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[9,3,4]}]}' > bad-broker.json`,
    );
    run(
      sim,
      `echo '{"version":1,"partitions":[{"topic":"orders","partition":7,"replicas":[2,3,4]}]}' > bad-partition.json`,
    );
    run(
      sim,
      `echo '{"version":1,"partitions":[{"topic":"orders","partition":0,"replicas":[3,3,4]}]}' > repeated.json`,
    );
    run(sim, `echo '{"version":1,"partitions":[]}' > empty.json`);
    run(sim, `echo '{"version":2,"partitions":[]}' > v2.json`);
    const before = sim.stateHash();
    const r = run(sim, line);
    expect(r.ok).toBe(false);
    expect(r.output.startsWith(expected), r.output).toBe(true);
    expect(sim.stateHash()).toBe(before);
  });
});

describe('kafka-leader-election.sh --path-to-json-file (LeaderElectionCommand.parseReplicaElectionData)', () => {
  const ELECT = 'kafka-leader-election.sh --bootstrap-server x --election-type preferred --path-to-json-file';
  it('reads the partitions from a file the terminal wrote', () => {
    const sim = cluster();
    run(sim, `echo '{"partitions":[{"topic":"orders","partition":0}]}' > elect.json`);
    expect(run(sim, `${ELECT} elect.json`).output).toBe(
      'Valid replica already elected for partitions orders-0',
    );
  });
  it('refuses a repeated partition and a file without partitions, in the tool words', () => {
    const sim = cluster();
    run(
      sim,
      `echo '{"partitions":[{"topic":"orders","partition":0},{"topic":"orders","partition":0}]}' > twice.json`,
    );
    run(sim, `echo '{"topics":[]}' > none.json`);
    expect(run(sim, `${ELECT} twice.json`).output).toBe(
      'Replica election data contains duplicate partitions: [orders-0]',
    );
    expect(run(sim, `${ELECT} none.json`).output).toBe('Replica election data is missing "partitions" field');
  });
});

describe('kafka-get-offsets.sh (GetOffsetShell)', () => {
  const GET = 'kafka-get-offsets.sh --bootstrap-server x';
  it('prints topic:partition:offset, latest by default, sorted as text', () => {
    const sim = cluster();
    expect(run(sim, `${GET} --topic orders`).output).toBe('orders:0:2000\norders:1:0');
    expect(run(sim, `${GET} --topic orders --time earliest`).output).toBe('orders:0:0\norders:1:0');
    expect(run(sim, `${GET} --topic-partitions orders:1`).output).toBe('orders:1:0');
    expect(run(sim, `${GET} --topic-partitions 'ord.*:0-1'`).output).toBe('orders:0:2000');
  });
  it('a timestamp finds the first offset at or after it; none after the last record', () => {
    const sim = cluster();
    // The 2000 records were sent at 5 s; later ones at 10 s.
    sim.apply({ type: 'produce', topic: 'orders', partition: 0, key: null, value: 'late', count: 3 });
    sim.advance(1000);
    expect(run(sim, `${GET} --topic orders --partitions 0 --time 9000`).output).toBe('orders:0:2000');
    expect(run(sim, `${GET} --topic orders --partitions 0 --time 99999999`).output).toBe('');
    expect(run(sim, `${GET} --topic orders --partitions 0 --time max-timestamp`).output).toBe(
      'orders:0:2000',
    );
  });
  it('refuses a bad time and filters that match nothing, in the tool words', () => {
    const sim = cluster();
    expect(run(sim, `${GET} --time soon`).output).toMatch(
      /^Error occurred: Malformed time argument soon\. Please use -1 or latest/,
    );
    expect(run(sim, `${GET} --topic nothing`).output).toBe(
      'Error occurred: Could not match any topic-partitions with the specified filters',
    );
    expect(run(sim, `${GET} --topic-partitions orders:1 --topic orders`).output).toBe(
      'Error occurred: --topic-partitions cannot be used with --topic or --partitions',
    );
  });
});

describe('kafka-consumer-groups.sh --reset-offsets (ConsumerGroupCommand.resetOffsets)', () => {
  const GROUPS = 'kafka-consumer-groups.sh --bootstrap-server x';
  /** The cluster with group billing having read and committed orders, then stopped. */
  function withGroup(stop: boolean): Simulation {
    const sim = cluster();
    sim.apply({ type: 'startConsumer', consumerId: 'c1', groupId: 'billing', topics: ['orders'] });
    sim.advance(20_000);
    if (stop) {
      sim.apply({ type: 'stopConsumer', consumerId: 'c1' });
      sim.advance(2000);
    }
    return sim;
  }
  const header = `\n${'GROUP'.padEnd(30)} ${'TOPIC'.padEnd(30)} ${'PARTITION'.padEnd(10)} ${'NEW-OFFSET'.padEnd(15)}`;
  const row = (p: number, o: number) =>
    `\n${'billing'.padEnd(30)} ${'orders'.padEnd(30)} ${String(p).padEnd(10)} ${String(o).padEnd(15)}`;

  it('a dry run plans without committing, and warns that --execute is missing', () => {
    const sim = withGroup(true);
    const before = sim.stateHash();
    const r = run(sim, `${GROUPS} --reset-offsets --group billing --topic orders --to-earliest`);
    expect(r.output).toBe(
      `WARN: No action will be performed as the --execute option is missing.In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting.\n${header}${row(0, 0)}${row(1, 0)}`,
    );
    expect(r.readOnly).toBe(true);
    expect(sim.stateHash()).toBe(before);
  });

  it('--execute commits the new offsets, and the group reads again from there', () => {
    const sim = withGroup(true);
    const described = run(sim, `${GROUPS} --describe --group billing`).output;
    expect(described).toMatch(/billing\s+orders\s+0\s+2000\s+2000\s+0/);
    const r = run(
      sim,
      `${GROUPS} --reset-offsets --group billing --topic orders:0 --shift-by -500 --execute`,
    );
    expect(r.output).toBe(`${header}${row(0, 1500)}`);
    expect(r.readOnly).toBe(false);
    sim.advance(100);
    expect(run(sim, `${GROUPS} --describe --group billing`).output).toMatch(
      /billing\s+orders\s+0\s+1500\s+2000\s+500/,
    );
    // A consumer of the group starts from the committed offset: 500 records again (at least once, on purpose).
    sim.apply({ type: 'startConsumer', consumerId: 'c2', groupId: 'billing', topics: ['orders'] });
    sim.advance(20_000);
    const again = sim.consumedRecords('billing').filter((r) => r.consumerId === 'c2');
    expect(again.map((r) => r.offset)).toEqual(Array.from({ length: 500 }, (_, i) => 1500 + i));
  });

  it('an offset past the end goes to the end; a group with members is refused in Kafka words', () => {
    const sim = withGroup(true);
    expect(
      run(sim, `${GROUPS} --reset-offsets --group billing --topic orders --to-offset 99999 --dry-run`).output,
    ).toBe(`${header}${row(0, 2000)}${row(1, 0)}`);
    const live = withGroup(false);
    expect(
      run(live, `${GROUPS} --reset-offsets --group billing --all-topics --to-earliest --execute`).output,
    ).toBe(
      `\nError: Assignments can only be reset if the group 'billing' is inactive, but the current state is Stable.\n${header}`,
    );
  });
});

describe('--reset-offsets --to-datetime', () => {
  it('reads the date as the simulated clock counts (ms since 1970-01-01T00:00:00Z)', () => {
    const sim = cluster();
    sim.apply({ type: 'startConsumer', consumerId: 'c1', groupId: 'audit', topics: ['orders'] });
    sim.advance(20_000);
    sim.apply({ type: 'stopConsumer', consumerId: 'c1' });
    sim.advance(2000);
    // The 2000 records were produced at 5 s: from 00:00:06 on there is none, so the end (2000).
    const at = (when: string) =>
      run(
        sim,
        `kafka-consumer-groups.sh --bootstrap-server x --reset-offsets --group audit --topic orders:0 --to-datetime ${when} --dry-run`,
      )
        .output.trim()
        .split(/\s+/)
        .at(-1);
    expect(at('1970-01-01T00:00:04.000')).toBe('0');
    expect(at('1970-01-01T00:00:06.000')).toBe('2000');
    expect(at('1970-01-01T01:00:04.000+01:00')).toBe('0');
  });
});
