// Golden outputs of Kafka's tools on fixed scenarios. The expected text is written from Kafka's
// source (the file named in each describe): its separators, paddings, ordering and messages.
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../index';
import type { Simulation } from '../simulation';
import { clusterScenario } from '../testing/driver';
import { BS, cliWithKind as run, toolCluster } from '../testing/cli';
import { parseOptions, OptionError } from './options';
import { tokenize } from './tokenizer';

/** Controller 1, brokers 2, 3, 4; orders placed by hand so the lines do not depend on placement. */
function ordersCluster(config: Record<string, string | number> = {}): Simulation {
  return toolCluster({
    brokers: 3,
    topics: [
      {
        name: 'orders',
        partitions: 3,
        replicationFactor: 3,
        assignment: [
          [2, 3, 4],
          [3, 4, 2],
          [4, 2, 3],
        ],
        config,
      },
    ],
  });
}

const topicId = (sim: Simulation, name: string) =>
  sim.snapshot().topics.find((t) => t.name === name)!.topicId;

describe('the shell tokenizer', () => {
  it('splits on blanks and keeps quoted text whole', () => {
    expect(tokenize(`kafka-topics.sh --topic "my topic" --config 'a=b c' x\\ y`)).toEqual({
      words: ['kafka-topics.sh', '--topic', 'my topic', '--config', 'a=b c', 'x y'],
    });
  });
  it('refuses an open quote with the shell words', () => {
    expect(tokenize(`kafka-topics.sh --topic "orders`)).toEqual({
      error: 'unexpected EOF while looking for matching `"\'',
    });
  });
});

describe('the option parser (joptsimple)', () => {
  const specs = [
    { name: 'bootstrap-server', arg: 'server', description: '' },
    { name: 'describe', description: '' },
    { name: 'delete', description: '' },
  ];
  it('takes --name=value and a unique prefix of a long option', () => {
    const o = parseOptions(['--bootstrap=host:1', '--desc'], specs);
    expect(o.value('bootstrap-server')).toBe('host:1');
    expect(o.has('describe')).toBe(true);
  });
  it("refuses an unknown option in joptsimple's words", () => {
    expect(() => parseOptions(['--nope'], specs)).toThrow(
      new OptionError("'nope' is not a recognized option"),
    );
    expect(() => parseOptions(['--de'], specs)).toThrow(/ambiguous/);
  });
});

// tools/src/main/java/org/apache/kafka/tools/TopicCommand.java: TopicDescription.printDescription and
// PartitionDescription.printDescription (TAB-separated; partition lines start with a TAB).
describe('kafka-topics.sh --describe', () => {
  it('prints the topic line, then one line per partition', () => {
    const sim = ordersCluster({ 'min.insync.replicas': 2 });
    const id = topicId(sim, 'orders');
    expect(run(sim, `kafka-topics.sh ${BS} --describe --topic orders`)).toEqual({
      ok: true,
      readOnly: true,
      output: [
        `Topic: orders\tTopicId: ${id}\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: min.insync.replicas=2`,
        '\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,3,4\tIsr: 2,3,4\tElr: \tLastKnownElr: ',
        '\tTopic: orders\tPartition: 1\tLeader: 3\tReplicas: 3,4,2\tIsr: 3,4,2\tElr: \tLastKnownElr: ',
        '\tTopic: orders\tPartition: 2\tLeader: 4\tReplicas: 4,2,3\tIsr: 4,2,3\tElr: \tLastKnownElr: ',
      ].join('\n'),
    });
  });

  it('after a broker crash, --under-replicated-partitions prints only the partition lines that lost it', () => {
    const sim = ordersCluster({ 'min.insync.replicas': 2 });
    sim.apply({ type: 'crashNode', nodeId: 4 });
    sim.advance(30_000);
    expect(run(sim, `kafka-topics.sh ${BS} --describe --under-replicated-partitions`).output).toBe(
      [
        '\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,3,4\tIsr: 2,3\tElr: \tLastKnownElr: ',
        '\tTopic: orders\tPartition: 1\tLeader: 3\tReplicas: 3,4,2\tIsr: 3,2\tElr: \tLastKnownElr: ',
        '\tTopic: orders\tPartition: 2\tLeader: 2\tReplicas: 4,2,3\tIsr: 2,3\tElr: \tLastKnownElr: ',
      ].join('\n'),
    );
    // Two in-sync replicas left and min.insync.replicas=2: each is at its minimum, none under it.
    expect(
      run(sim, `kafka-topics.sh ${BS} --describe --at-min-isr-partitions`).output.split('\n'),
    ).toHaveLength(3);
    expect(run(sim, `kafka-topics.sh ${BS} --describe --under-min-isr-partitions`).output).toBe('');
    // Broker 4 leads nothing now, so no partition is unavailable.
    expect(run(sim, `kafka-topics.sh ${BS} --describe --unavailable-partitions`).output).toBe('');
  });

  it('prints Leader: none, and --unavailable-partitions finds it, when every replica is down', () => {
    const sim = createSimulation(
      clusterScenario({
        controllers: 1,
        brokers: 4,
        topics: [
          {
            name: 'orders',
            partitions: 3,
            replicationFactor: 3,
            assignment: [
              [2, 3, 4],
              [3, 4, 2],
              [4, 2, 3],
            ],
          },
        ],
      }),
    );
    sim.advance(5000);
    for (const id of [2, 3, 4]) sim.apply({ type: 'crashNode', nodeId: id });
    sim.advance(30_000);
    const lines = run(sim, `kafka-topics.sh ${BS} --describe --unavailable-partitions`).output.split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(line).toMatch(/^\tTopic: orders\tPartition: \d\tLeader: none\tReplicas: /);
  });

  it('--topics-with-overrides prints the topic lines of topics with a non-default config only', () => {
    const sim = ordersCluster({ 'retention.ms': 1000 });
    run(sim, `kafka-topics.sh ${BS} --create --topic plain --partitions 1 --replication-factor 1`);
    sim.advance(1000);
    expect(run(sim, `kafka-topics.sh ${BS} --describe --topics-with-overrides`).output).toBe(
      `Topic: orders\tTopicId: ${topicId(sim, 'orders')}\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: retention.ms=1000`,
    );
  });

  it('shows Adding Replicas and Removing Replicas during a reassignment', () => {
    const sim = createSimulation(
      clusterScenario({
        controllers: 1,
        brokers: 4,
        topics: [{ name: 'orders', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
      }),
    );
    sim.advance(5000);
    // Broker 5 is down, so the copy to it never completes.
    sim.apply({ type: 'crashNode', nodeId: 5 });
    sim.advance(15_000);
    sim.apply({
      type: 'reassignPartitions',
      partitions: [{ topic: 'orders', partition: 0, replicas: [5, 3, 4] }],
    });
    sim.advance(2000);
    expect(run(sim, `kafka-topics.sh ${BS} --describe --topic orders`).output).toBe(
      [
        // getReplicationFactor: the replicas less those being added.
        `Topic: orders\tTopicId: ${topicId(sim, 'orders')}\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: `,
        '\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 5,3,4,2\tIsr: 2,3,4\tAdding Replicas: 5\tRemoving Replicas: 2\tElr: \tLastKnownElr: ',
      ].join('\n'),
    );
  });

  it('reports a missing topic as Kafka 4 does, Optional and all', () => {
    const sim = ordersCluster();
    expect(run(sim, `kafka-topics.sh ${BS} --describe --topic nope`)).toEqual({
      ok: false,
      readOnly: false,
      output: "Error while executing topic command : Topic 'Optional[nope]' does not exist as expected",
    });
    expect(run(sim, `kafka-topics.sh ${BS} --describe --topic nope --if-exists`).output).toBe('');
  });
});

describe('kafka-topics.sh usage', () => {
  it('prints the usage after an unknown option', () => {
    const out = run(ordersCluster(), `kafka-topics.sh ${BS} --describe --bogus`);
    expect(out.ok).toBe(false);
    expect(out.output.split('\n').slice(0, 4)).toEqual([
      "'bogus' is not a recognized option",
      'Usage: kafka-topics.sh [options]',
      'This tool helps to create, delete, describe, or change a topic.',
      'Option                                 Description',
    ]);
    expect(out.output).toContain('--under-replicated-partitions');
  });
  it('needs exactly one action and a bootstrap server', () => {
    const sim = ordersCluster();
    expect(run(sim, `kafka-topics.sh ${BS} --list --describe`).output.split('\n')[0]).toBe(
      'Command must include exactly one action: --list, --describe, --create, --alter or --delete',
    );
    expect(run(sim, 'kafka-topics.sh --list').output).toBe('--bootstrap-server must be specified');
    expect(run(sim, `kafka-topics ${BS} --list`).output).toBe('orders');
  });
});

describe('kafka-topics.sh --create, --alter, --delete', () => {
  it("creates a topic with Kafka's message and the collision warning", () => {
    const sim = ordersCluster();
    const created = run(
      sim,
      `kafka-topics.sh ${BS} --create --topic pay.ments --partitions 2 --replication-factor 2 --config min.insync.replicas=2`,
    );
    expect(created).toEqual({
      ok: true,
      readOnly: false,
      output:
        "WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. To avoid issues it is best to use either, but not both.\nCreated topic pay.ments.",
    });
    sim.advance(1000);
    const t = sim.snapshot().topics.find((x) => x.name === 'pay.ments')!;
    expect([t.partitions, t.replicationFactor, t.config['min.insync.replicas']]).toEqual([2, 2, 2]);
    expect(run(sim, `kafka-topics.sh ${BS} --list`).output).toBe('orders\npay.ments');
  });

  it("refuses what the controller refuses, in the tool's words", () => {
    const sim = ordersCluster();
    expect(run(sim, `kafka-topics.sh ${BS} --create --topic orders --partitions 1`).output).toBe(
      "Error while executing topic command : Topic 'orders' already exists.",
    );
    expect(
      run(sim, `kafka-topics.sh ${BS} --create --topic orders --partitions 1 --if-not-exists`),
    ).toMatchObject({ ok: true, output: '' });
    expect(
      run(sim, `kafka-topics.sh ${BS} --create --topic big --partitions 1 --replication-factor 0`).output,
    ).toBe(
      'Error while executing topic command : The replication factor must be between 1 and 32767 inclusive',
    );
  });

  it('adds partitions: new ones get leaders, and the key-remapping is explained', () => {
    const sim = ordersCluster();
    expect(run(sim, `kafka-topics.sh ${BS} --alter --topic orders --partitions 6`)).toEqual({
      ok: true,
      readOnly: false,
      output: '',
    });
    sim.advance(2000);
    const parts = sim.snapshot().partitions.filter((p) => p.topic === 'orders');
    expect(parts.map((p) => p.partition)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const p of parts) expect(p.leader).toBeGreaterThan(0);
    const grown = sim.events().find((e) => e.type === 'PartitionsCreated')!;
    expect(grown.message).toContain('murmur2(key) % 6');
    expect(
      sim
        .events()
        .some(
          (e) =>
            e.type === 'CliCommand' &&
            e.line === `kafka-topics.sh ${BS} --alter --topic orders --partitions 6`,
        ),
    ).toBe(true);
  });

  it('refuses a decrease with the controller message', () => {
    const sim = ordersCluster();
    expect(run(sim, `kafka-topics.sh ${BS} --alter --topic orders --partitions 2`).output).toBe(
      'Error while executing topic command : The topic orders currently has 3 partition(s); 2 would not be an increase.',
    );
    expect(run(sim, `kafka-topics.sh ${BS} --alter --topic orders --partitions 3`).output).toBe(
      'Error while executing topic command : Topic already has 3 partition(s).',
    );
    expect(run(sim, `kafka-topics.sh ${BS} --alter --topic orders`).output.split('\n')[0]).toBe(
      'Missing required argument "[partitions]"',
    );
  });

  it('deletes a topic: it leaves the metadata and the brokers drop its logs', () => {
    const sim = ordersCluster();
    expect(run(sim, `kafka-topics.sh ${BS} --delete --topic orders`)).toEqual({
      ok: true,
      readOnly: false,
      output: '',
    });
    sim.advance(3000);
    expect(sim.snapshot().topics.map((t) => t.name)).not.toContain('orders');
    for (const id of [2, 3, 4])
      expect(
        [...sim.world.nodes.get(id)!.disk.partitions.keys()].filter((k) => k.startsWith('orders-')),
      ).toEqual([]);
    sim.advance(30_000);
    expect(run(sim, `kafka-topics.sh ${BS} --delete --topic orders`).output).toBe(
      "Error while executing topic command : Topic 'Optional[orders]' does not exist as expected",
    );
  });
});

// tools/src/main/java/org/apache/kafka/tools/consumer/group/ConsumerGroupCommand.java (1eb7644):
// printOffsets, printMembers and printStates, with their printf paddings.
describe('kafka-consumer-groups.sh', () => {
  function withGroup(): Simulation {
    const sim = ordersCluster();
    sim.apply({
      type: 'produce',
      topic: 'orders',
      key: null,
      value: 'v',
      partition: 0,
      count: 5,
      acks: 'all',
    });
    sim.apply({
      type: 'startConsumer',
      consumerId: 'c1',
      groupId: 'g',
      topics: ['orders'],
      config: { 'auto.offset.reset': 'earliest' },
    });
    sim.advance(20_000);
    return sim;
  }
  const memberId = (sim: Simulation) =>
    sim.snapshot().clients.groups.find((g) => g.groupId === 'g')!.members[0]!.memberId;

  it('--list prints the group ids', () => {
    expect(run(withGroup(), `kafka-consumer-groups.sh ${BS} --list`).output).toBe('g');
  });

  it('--describe prints the offsets table after a blank line', () => {
    const sim = withGroup();
    const m = memberId(sim).padEnd(15);
    const row = (p: number, cur: number, end: number) =>
      `g               orders          ${String(p).padEnd(10)} ${String(cur).padEnd(15)} ${String(end).padEnd(15)} ${String(end - cur).padEnd(15)} ${m} /127.0.0.1      c1`;
    expect(run(sim, `kafka-consumer-groups.sh ${BS} --describe --group g`).output).toBe(
      [
        '',
        'GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID',
        row(0, 5, 5),
        row(1, 0, 0),
        row(2, 0, 0),
      ].join('\n'),
    );
  });

  it('--members --verbose and --state', () => {
    const sim = withGroup();
    const m = memberId(sim);
    expect(run(sim, `kafka-consumer-groups.sh ${BS} --describe --group g --members --verbose`).output).toBe(
      [
        '',
        'GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     ASSIGNMENT',
        `g               ${m.padEnd(15)} /127.0.0.1      c1              3               orders(0,1,2)`,
      ].join('\n'),
    );
    const coordinator = sim.snapshot().clients.groups[0]!.coordinator;
    expect(run(sim, `kafka-consumer-groups.sh ${BS} --describe --group g --state`).output).toBe(
      [
        '',
        'GROUP                     COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS',
        `g                         ${`kafka-${coordinator}:9092  (${coordinator})`.padEnd(25)} range                Stable          1`,
      ].join('\n'),
    );
  });

  it('says a group without members has none, and an unknown group does not exist', () => {
    const sim = withGroup();
    sim.apply({ type: 'stopConsumer', consumerId: 'c1' });
    sim.advance(5000);
    const out = run(sim, `kafka-consumer-groups.sh ${BS} --describe --group g`).output.split('\n');
    expect(out.slice(0, 3)).toEqual(['', "Consumer group 'g' has no active members.", '']);
    expect(out[4]).toMatch(/^g {15}orders {10}0 {10}5 {15}5 {15}0 {15}- {15}- {15}-$/);
    expect(run(sim, `kafka-consumer-groups.sh ${BS} --describe --group nope`).output).toBe(
      "\nError: Consumer group 'nope' does not exist.",
    );
  });
});

// tools/src/main/java/org/apache/kafka/tools/MetadataQuorumCommand.java and ToolsUtils.prettyPrintTable.
describe('kafka-metadata-quorum.sh describe', () => {
  it('--status names the leader, its epoch and the voters', () => {
    const sim = createSimulation(clusterScenario({ controllers: 3, brokers: 2 }));
    sim.advance(10_000);
    const q = sim.snapshot().quorum;
    const lines = run(sim, `kafka-metadata-quorum.sh ${BS} describe --status`).output.split('\n');
    expect(lines.map((l) => l.slice(0, 24))).toEqual([
      'ClusterId:              ',
      'LeaderId:               ',
      'LeaderEpoch:            ',
      'HighWatermark:          ',
      'MaxFollowerLag:         ',
      'MaxFollowerLagTimeMs:   ',
      'CurrentVoters:          ',
      'CurrentObservers:       ',
    ]);
    expect(lines[1]).toBe(`LeaderId:               ${q.leaderId}`);
    expect(lines[2]).toBe(`LeaderEpoch:            ${q.epoch}`);
    expect(lines[6]).toBe(
      'CurrentVoters:          [{"id": 1, "directoryId": null, "endpoints": ["CONTROLLER://kafka-1:9093"]}, {"id": 2, "directoryId": null, "endpoints": ["CONTROLLER://kafka-2:9093"]}, {"id": 3, "directoryId": null, "endpoints": ["CONTROLLER://kafka-3:9093"]}]',
    );
    expect(lines[7]).toBe(
      'CurrentObservers:       [{"id": 4, "directoryId": null}, {"id": 5, "directoryId": null}]',
    );
  });

  it('--replication prints a padded, tab-separated table: the leader, the followers, the observers', () => {
    const sim = createSimulation(clusterScenario({ controllers: 3, brokers: 2 }));
    sim.advance(10_000);
    const lines = run(sim, `kafka-metadata-quorum.sh ${BS} describe --replication`).output.split('\n');
    expect(lines[0]).toBe(
      'NodeId\tDirectoryId           \tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t',
    );
    expect(lines.slice(1).map((l) => l.split('\t')[6]!.trim())).toEqual([
      'Leader',
      'Follower',
      'Follower',
      'Observer',
      'Observer',
    ]);
    expect(run(sim, `kafka-metadata-quorum.sh ${BS} describe`).output).toBe(
      'One of --status or --replication must be specified with describe sub-command',
    );
  });
});

// core/src/main/scala/kafka/admin/ConfigCommand.scala: describeResourceConfig and alterConfig.
describe('kafka-configs.sh', () => {
  it('alters and describes a topic config, with its synonyms', () => {
    const sim = ordersCluster();
    expect(
      run(
        sim,
        `kafka-configs.sh ${BS} --alter --entity-type topics --entity-name orders --add-config min.insync.replicas=2`,
      ),
    ).toEqual({
      ok: true,
      readOnly: false,
      output: 'Completed updating config for topic orders.',
    });
    sim.advance(1000);
    expect(run(sim, `kafka-configs.sh ${BS} --describe --topic orders`).output).toBe(
      'Dynamic configs for topic orders are:\n  min.insync.replicas=2 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:min.insync.replicas=2, DEFAULT_CONFIG:min.insync.replicas=1}',
    );
    expect(
      run(sim, `kafka-configs.sh ${BS} --alter --topic orders --delete-config min.insync.replicas`).output,
    ).toBe('Completed updating config for topic orders.');
    expect(
      run(sim, `kafka-configs.sh ${BS} --alter --topic orders --delete-config min.insync.replicas`).output,
    ).toBe('Invalid config(s): min.insync.replicas');
  });

  it('alters the brokers default; an unknown config name gets the broker error', () => {
    const sim = ordersCluster();
    expect(
      run(
        sim,
        `kafka-configs.sh ${BS} --alter --entity-type brokers --entity-default --add-config log.retention.ms=5000`,
      ).output,
    ).toBe('Completed updating default config for brokers in the cluster.');
    expect(run(sim, `kafka-configs.sh ${BS} --alter --topic orders --add-config foo=1`).output).toBe(
      "Error while executing config command with args '--bootstrap-server localhost:9092 --alter --topic orders --add-config foo=1'\n" +
        'java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException: Unknown topic config name: foo',
    );
  });
});

// tools/src/main/java/org/apache/kafka/tools/LeaderElectionCommand.java: electLeaders.
describe('kafka-leader-election.sh', () => {
  it('moves leadership back to the preferred replica after a restart', () => {
    const sim = ordersCluster();
    sim.apply({ type: 'crashNode', nodeId: 2 });
    sim.advance(15_000);
    sim.apply({ type: 'restartNode', nodeId: 2 });
    sim.advance(15_000);
    expect(
      run(sim, `kafka-leader-election.sh ${BS} --election-type preferred --all-topic-partitions`).output,
    ).toBe('Successfully completed leader election (PREFERRED) for partitions orders-0');
    sim.advance(1000);
    expect(
      run(sim, `kafka-leader-election.sh ${BS} --election-type preferred --topic orders --partition 0`),
    ).toEqual({
      ok: true,
      readOnly: true,
      output: 'Valid replica already elected for partitions orders-0',
    });
    expect(run(sim, `kafka-leader-election.sh ${BS} --election-type preferred --topic orders`).output).toBe(
      'Missing required option(s): partition',
    );
  });
});

describe('the cli command', () => {
  it('a read-only line changes nothing; a changing line leaves a CliCommand event', () => {
    const sim = ordersCluster();
    const hash = sim.stateHash();
    run(sim, `kafka-topics.sh ${BS} --describe`);
    expect(sim.stateHash()).toBe(hash);
    run(sim, `kafka-topics.sh ${BS} --create --topic t2 --partitions 1 --replication-factor 1`);
    expect(sim.events().at(-1)).toMatchObject({ type: 'CliCommand', output: 'Created topic t2.' });
  });
  it("with no broker up, the Admin client times out as Kafka's does", () => {
    const sim = ordersCluster();
    for (const id of [2, 3, 4]) sim.apply({ type: 'crashNode', nodeId: id });
    sim.advance(30_000);
    expect(run(sim, `kafka-topics.sh ${BS} --list`).output).toBe(
      'Error while executing topic command : Timed out waiting for a node assignment. Call: listTopics',
    );
  });
  it('an unknown program is not found', () => {
    expect(run(ordersCluster(), 'grep -r orders').output).toMatch(/^sh: grep: command not found/);
  });
  it('a script step runs a line and logs its output', () => {
    const sim = createSimulation({
      ...clusterScenario({ controllers: 1, brokers: 1 }),
      script: [
        {
          atMs: 4000,
          command: {
            type: 'cli',
            line: `kafka-topics.sh ${BS} --create --topic s --partitions 1 --replication-factor 1`,
          },
        },
        { atMs: 6000, command: { type: 'cli', line: `kafka-topics.sh ${BS} --list` } },
      ],
    });
    sim.advance(7000);
    expect(sim.events().find((e) => e.type === 'CliOutput')).toMatchObject({ output: 's' });
  });
});

// Kafka's TopicCommand prints no fault-tolerance warning; the simulator adds its own
// note after the tool's output in the min-ISR views, never a line dressed as Kafka's.
describe('kafka-topics.sh --describe --under-min-isr-partitions, with the simulator note', () => {
  it('notes a topic whose replication factor is at min.insync.replicas, or whose replicas share a rack', () => {
    const sim = createSimulation(
      clusterScenario({
        controllers: 1,
        brokers: 3,
        brokerRacks: ['a', 'a', 'b'],
        topics: [
          {
            name: 'orders',
            partitions: 2,
            replicationFactor: 2,
            assignment: [
              [2, 3],
              [3, 2],
            ],
            config: { 'min.insync.replicas': 2 },
          },
          { name: 'audit', partitions: 1, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
        ],
      }),
    );
    sim.advance(5000);
    expect(run(sim, `kafka-topics.sh ${BS} --describe --under-min-isr-partitions`).output).toBe(
      'Note (simulator): topic orders has no fault tolerance: replication factor 2 <= min.insync.replicas 2, so one replica down refuses acks=all writes (NOT_ENOUGH_REPLICAS); 2 of 2 partitions have every replica in rack a, so losing that zone takes them offline.',
    );
    // The plain describe stays Kafka's output only.
    expect(run(sim, `kafka-topics.sh ${BS} --describe --topic orders`).output).not.toMatch(/Note/);
  });
});
