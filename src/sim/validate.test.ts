import fc from 'fast-check';
import { assert, describe, expect, it } from 'vitest';
import { CONFIG_DEFS, checkConfig, checkTopicName, clusterDefaults, parseConfigValue } from './model/config';
import {
  LIMITS,
  ScenarioError,
  parseScenario,
  validateCommand,
  validateScenario,
  type CommandContext,
} from './validate';
import type { Scenario } from './model/types';

/** A small valid cluster: controller 1, brokers 4, 5, 6, topic "orders". */
function base(): Scenario {
  return {
    version: 1,
    seed: 7,
    nodes: [
      { id: 1, roles: ['controller'], rack: 'zone-a' },
      { id: 4, roles: ['broker'], rack: 'zone-a' },
      { id: 5, roles: ['broker'], rack: 'zone-b' },
      { id: 6, roles: ['broker'], rack: 'zone-c' },
    ],
    config: { 'broker.session.timeout.ms': 9000 },
    network: { latencyMs: 2, jitterMs: 1 },
    topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
    script: [{ atMs: 5000, command: { type: 'crashNode', nodeId: 4 } }],
  };
}

// Tests break scenarios on purpose, in ways the Scenario type forbids.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

/** The scenario as a teacher might have mistyped it. */
function edited(edit: (s: Loose) => void): unknown {
  const s = structuredClone(base()) as Loose;
  edit(s);
  return s;
}

const lines = (input: unknown) => validateScenario(input).map((i) => `${i.path}: ${i.message}`);

describe('a valid scenario', () => {
  it('has no issues', () => {
    expect(validateScenario(base())).toEqual([]);
  });

  it('may leave out everything but version, seed and nodes', () => {
    expect(
      validateScenario({ version: 1, seed: 0, nodes: [{ id: 1, roles: ['broker', 'controller'] }] }),
    ).toEqual([]);
  });

  it('parses into typed config values without touching the input', () => {
    const input = edited((s) => {
      s.config = { 'min.insync.replicas': '2', 'unclean.leader.election.enable': 'TRUE' };
      s.topics[0].config = { 'retention.ms': '-1', 'cleanup.policy': 'compact, delete' };
    });
    const scenario = parseScenario(input);
    expect(scenario.config).toEqual({ 'min.insync.replicas': 2, 'unclean.leader.election.enable': true });
    expect(scenario.topics?.[0]?.config).toEqual({ 'retention.ms': -1, 'cleanup.policy': 'compact,delete' });
    expect((input as Scenario).config!['min.insync.replicas']).toBe('2');
  });
});

describe('when node ids repeat', () => {
  it('names the duplicate and where the id was first used', () => {
    const input = edited((s) => s.nodes.push({ id: 4, roles: ['broker'] }));
    expect(lines(input)).toEqual(['nodes[4].id: duplicate node id 4, also at nodes[1]']);
  });
});

describe('when a config name is unknown', () => {
  it('uses the config name as the path and Kafka-style wording', () => {
    const input = edited((s) => (s.config.foo = 1));
    expect(lines(input)).toEqual(['config.foo: Unknown broker config name: foo']);
  });

  it('suggests the name the author probably meant', () => {
    const input = edited((s) => (s.config['min.insync.replica'] = 2));
    expect(lines(input)).toEqual([
      'config.min.insync.replica: Unknown broker config name: min.insync.replica (did you mean min.insync.replicas?)',
    ]);
  });

  it('points a topic config used cluster-wide to its broker synonym', () => {
    const input = edited((s) => (s.config['retention.ms'] = 1000));
    expect(lines(input)).toEqual([
      'config.retention.ms: Unknown broker config name: retention.ms (it is a topic config; the cluster-wide default is log.retention.ms)',
    ]);
  });

  it("reports a topic's unknown config with Kafka's message", () => {
    const input = edited((s) => (s.topics[0].config.foo = 'x'));
    expect(lines(input)).toEqual(['topics[0].config.foo: Unknown topic config name: foo']);
  });
});

describe('when a config value is out of range', () => {
  it("gives Kafka's INVALID_CONFIG message", () => {
    const input = edited((s) => (s.topics[0].config['min.insync.replicas'] = -1));
    expect(lines(input)).toEqual([
      'topics[0].config.min.insync.replicas: Invalid value -1 for configuration min.insync.replicas: Value must be at least 1',
    ]);
  });

  it('checks replica.fetch.wait.max.ms against replica.lag.time.max.ms, as KafkaConfig does', () => {
    const input = edited((s) => (s.config['replica.lag.time.max.ms'] = 100));
    expect(lines(input)).toEqual([
      'config.replica.lag.time.max.ms: replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
    ]);
  });
});

describe('when a topic asks for more replicas than there are brokers', () => {
  it('says so with the exact message', () => {
    const input = edited((s) => (s.topics[0].replicationFactor = 4));
    expect(lines(input)).toEqual([
      'topics[0].replicationFactor: The target replication factor of 4 cannot be reached because only 3 broker(s) are registered.',
    ]);
  });

  it('counts only nodes with the broker role', () => {
    const input = edited((s) => {
      s.nodes.push({ id: 2, roles: ['controller'] });
      s.topics[0].replicationFactor = 4;
    });
    expect(lines(input)).toEqual([
      'topics[0].replicationFactor: The target replication factor of 4 cannot be reached because only 3 broker(s) are registered.',
    ]);
  });
});

describe('when a topic has a manual assignment', () => {
  it('accepts one replica list per partition of existing brokers', () => {
    const input = edited(
      (s) =>
        (s.topics[0] = {
          name: 'audit',
          partitions: 2,
          replicationFactor: 2,
          assignment: [
            [4, 5],
            [5, 6],
          ],
        }),
    );
    expect(lines(input)).toEqual([]);
  });

  it('checks its shape and brokers', () => {
    const input = edited(
      (s) =>
        (s.topics[0] = {
          name: 'audit',
          partitions: 3,
          replicationFactor: 2,
          assignment: [[4, 4], [1, 5], [6]],
        }),
    );
    expect(lines(input)).toEqual([
      'topics[0].assignment[0][1]: The manual partition assignment includes the broker 4 more than once.',
      'topics[0].assignment[1][0]: The manual partition assignment includes broker 1, but no such broker is registered.',
      'topics[0].assignment[2]: has 1 replica, but replicationFactor is 2',
    ]);
  });
});

describe('when topic names break Kafka rules', () => {
  it('lists illegal, reserved and duplicate names', () => {
    const input = edited((s) => {
      s.topics.push({ name: 'bad name', partitions: 1, replicationFactor: 1 });
      s.topics.push({ name: '__consumer_offsets', partitions: 1, replicationFactor: 1 });
      s.topics.push({ name: 'orders', partitions: 1, replicationFactor: 1 });
      s.topics.push({ name: 'my.topic', partitions: 1, replicationFactor: 1 });
      s.topics.push({ name: 'my_topic', partitions: 1, replicationFactor: 1 });
    });
    expect(lines(input)).toEqual([
      "topics[1].name: Topic name is invalid: 'bad name' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'",
      'topics[2].name: Topic name __consumer_offsets is reserved: names starting with "__" belong to Kafka\'s internal topics',
      'topics[3].name: duplicate topic name "orders", also at topics[0]',
      "topics[5].name: Topic 'my_topic' collides with existing topic: my.topic",
    ]);
  });

  it("follows Kafka's Topic.validate", () => {
    expect(checkTopicName('')).toBe('Topic name is invalid: the empty string is not allowed');
    expect(checkTopicName('.')).toBe("Topic name is invalid: '.' is not allowed");
    expect(checkTopicName('..')).toBe("Topic name is invalid: '..' is not allowed");
    expect(checkTopicName('a'.repeat(249))).toBeNull();
    expect(checkTopicName('a'.repeat(250))).toBe(
      // Kafka quotes the whole name; the simulator its first 40 characters (a name may be a megabyte).
      `Topic name is invalid: the length of '${'a'.repeat(40)}…' is longer than the max allowed length 249`,
    );
    expect(checkTopicName('Orders-2024_v1.x')).toBeNull();
  });
});

describe('when a script command names something that is not there', () => {
  it('reports the missing node and the missing topic', () => {
    const input = edited((s) =>
      s.script.push(
        { atMs: 6000, command: { type: 'restartNode', nodeId: 12 } },
        { atMs: 7000, command: { type: 'produce', topic: 'payments', value: 'v' } },
      ),
    );
    expect(lines(input)).toEqual([
      'script[1].command.nodeId: no node 12 in this cluster',
      'script[2].command.topic: no topic "payments"',
    ]);
  });

  it('knows what earlier steps created, in atMs order rather than file order', () => {
    const input = edited((s) => {
      s.script = [
        { atMs: 9000, command: { type: 'produce', topic: 'payments', value: 'v', partition: 1 } },
        { atMs: 8000, command: { type: 'crashNode', nodeId: 10 } },
        {
          atMs: 1000,
          command: { type: 'createTopic', name: 'payments', partitions: 2, replicationFactor: 4 },
        },
        { atMs: 500, command: { type: 'addNode', nodeId: 10, roles: ['broker'] } },
      ];
    });
    expect(lines(input)).toEqual([]);
  });

  it('refuses a command that comes before what it needs', () => {
    const input = edited((s) => {
      s.script = [
        { atMs: 100, command: { type: 'produce', topic: 'payments', value: 'v' } },
        {
          atMs: 1000,
          command: { type: 'createTopic', name: 'payments', partitions: 2, replicationFactor: 3 },
        },
        {
          atMs: 2000,
          command: { type: 'createTopic', name: 'payments', partitions: 2, replicationFactor: 3 },
        },
      ];
    });
    expect(lines(input)).toEqual([
      'script[0].command.topic: no topic "payments"',
      "script[2].command.name: Topic 'payments' already exists.",
    ]);
  });

  it('names an unknown command type, with a hint when it is close to a known one', () => {
    const input = edited((s) =>
      s.script.push(
        { atMs: 1, command: { type: 'crashBroker', nodeId: 4 } },
        { atMs: 2, command: { type: 'crashnode', nodeId: 4 } },
      ),
    );
    expect(lines(input)).toEqual([
      'script[1].command.type: unknown command type "crashBroker"',
      'script[2].command.type: unknown command type "crashnode" (did you mean "crashNode"?)',
    ]);
  });
});

describe('when a scenario has several problems', () => {
  it('lists every one, not just the first', () => {
    const input = {
      version: 1,
      seed: 1.5,
      nodes: [
        { id: 0, roles: ['broker'] },
        { id: 2, roles: [], rack: '' },
        { id: 3, roles: ['broker', 'broker', 'observer'] },
      ],
      config: { 'broker.session.timeout.ms': 'soon' },
      network: { latencyMs: -1, links: [{ from: 2, to: 99, latencyMs: 5 }] },
      topics: [{ name: 'orders', partitions: 0, replicationFactor: 3, extra: true }],
      script: [{ atMs: -5, command: { type: 'cutLink', from: 'producer-1', to: 'producer-1' } }],
      colour: 'blue',
    };
    expect(lines(input)).toEqual([
      'colour: unknown field',
      'seed: must be a 32-bit integer (from -2147483648 to 4294967295)',
      'nodes[0].id: a node id must be a positive 32-bit integer',
      'nodes[1].roles: must be a non-empty array of "broker" and "controller"',
      'nodes[1].rack: must be a non-empty string (omit it for no rack)',
      'nodes[2].roles[1]: duplicate role "broker"',
      'nodes[2].roles[2]: unknown role "observer" (roles are "broker" and "controller")',
      'nodes: a KRaft cluster needs at least one node with the "controller" role',
      'config.broker.session.timeout.ms: Invalid value soon for configuration broker.session.timeout.ms: Not a number of type INT',
      'network.latencyMs: must be a whole number of milliseconds from 0 to 10000',
      'network.links[0].to: no node 99 in this cluster',
      'topics[0].extra: unknown field',
      'topics[0].partitions: must be an integer of at least 1',
      'topics[0].replicationFactor: The target replication factor of 3 cannot be reached because only 1 broker(s) are registered.',
      'script[0].atMs: must be a non-negative integer (virtual milliseconds from the start)',
      'script[0].command: a link needs two different ends',
    ]);
  });

  it('throws them all as one ScenarioError, a line each', () => {
    const input = edited((s) => {
      s.nodes[1].id = 5;
      s.topics[0].replicationFactor = 4;
    });
    const error = (() => {
      try {
        parseScenario(input);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).issues).toHaveLength(3);
    expect((error as ScenarioError).message).toBe(
      [
        'nodes[2].id: duplicate node id 5, also at nodes[1]',
        'topics[0].replicationFactor: The target replication factor of 4 cannot be reached because only 2 broker(s) are registered.',
        'script[0].command.nodeId: no node 4 in this cluster',
      ].join('\n'),
    );
  });
});

describe('when the scenario comes from a newer simulator', () => {
  it('says so and nothing else', () => {
    const input = edited((s) => {
      s.version = 2;
      s.somethingNew = {};
    });
    expect(lines(input)).toEqual([
      'version: scenario version 2 is newer than this simulator understands (1)',
    ]);
  });

  it('refuses a version that is not 1', () => {
    expect(lines(edited((s) => (s.version = '1')))).toEqual(['version: must be 1']);
    expect(lines(edited((s) => delete s.version))).toEqual([
      'version: missing; this simulator reads scenario version 1',
    ]);
  });

  it('refuses what is not a scenario at all', () => {
    expect(lines(null)).toEqual(['(root): a scenario must be a JSON object']);
    expect(lines([])).toEqual(['(root): a scenario must be a JSON object']);
  });
});

describe('limits', () => {
  it('caps nodes, partitions, steps, produce counts and latency', () => {
    const input = edited((s) => {
      s.nodes = [
        { id: 1, roles: ['controller'] },
        ...Array.from({ length: LIMITS.maxNodes }, (_, i) => ({ id: i + 2, roles: ['broker'] })),
      ];
      s.topics = [
        { name: 'a', partitions: 12000, replicationFactor: 1 },
        { name: 'b', partitions: 8001, replicationFactor: 1 },
      ];
      s.network = { latencyMs: 10001 };
      s.script = Array.from({ length: LIMITS.maxScriptSteps + 1 }, () => ({
        atMs: 0,
        command: { type: 'healNetwork' },
      }));
      s.script[0].command = { type: 'produce', topic: 'a', value: 'v', count: 10001 };
    });
    expect(lines(input)).toEqual([
      'nodes: 257 nodes; the limit is 256',
      'network.latencyMs: must be a whole number of milliseconds from 0 to 10000',
      'topics: 20001 partitions in total; the limit is 20000',
      'script: 2001 steps; the limit is 2000',
      'script[0].command.count: must be an integer from 1 to 10000',
    ]);
  });
});

describe('validateCommand', () => {
  const ctx = (): CommandContext => ({
    nodeIds: new Set([1, 4, 5, 6]),
    brokerIds: new Set([4, 5, 6]),
    topics: new Map([['orders', 6]]),
  });

  it('checks shape alone without a context', () => {
    expect(validateCommand({ type: 'crashNode', nodeId: 12 }, 'command')).toEqual([]);
    expect(validateCommand({ type: 'crashNode', node: 4 }, 'command')).toEqual([
      { path: 'command.node', message: 'unknown field (did you mean "nodeId"?)' },
      { path: 'command.nodeId', message: 'missing' },
    ]);
  });

  it('checks existence with a context', () => {
    expect(validateCommand({ type: 'crashNode', nodeId: 12 }, 'command', ctx())).toEqual([
      { path: 'command.nodeId', message: 'no node 12 in this cluster' },
    ]);
    expect(
      validateCommand({ type: 'produce', topic: 'orders', value: 'v', partition: 6 }, 'c', ctx()),
    ).toEqual([
      { path: 'c.partition', message: 'Invalid partition given with record: 6 is not in the range [0...6).' },
    ]);
  });

  it("leaves to the engine what Kafka's controller decides when a topic is created", () => {
    const command = {
      type: 'createTopic',
      name: 'orders',
      partitions: 1,
      replicationFactor: 4,
      assignment: [[4, 5, 6, 9]],
    };
    expect(validateCommand(command, 'c', ctx())).toEqual([]);
    const script = edited((s) => s.script.push({ atMs: 1, command }));
    expect(lines(script)).toEqual([
      "script[1].command.name: Topic 'orders' already exists.",
      'script[1].command.replicationFactor: The target replication factor of 4 cannot be reached because only 3 broker(s) are registered.',
      'script[1].command.assignment[0][3]: The manual partition assignment includes broker 9, but no such broker is registered.',
    ]);
  });

  it('checks alterConfig like incrementalAlterConfigs', () => {
    const alter = (resourceType: string, configs: Record<string, unknown>, resourceName?: string) =>
      validateCommand({ type: 'alterConfig', resourceType, resourceName, configs }, 'c', ctx()).map(
        (i) => i.message,
      );
    expect(alter('topic', { 'min.insync.replicas': 3, 'retention.ms': null }, 'orders')).toEqual([]);
    expect(alter('cluster', { 'broker.session.timeout.ms': 18000 })).toEqual([
      'Cannot update these configs dynamically: Set(broker.session.timeout.ms)',
    ]);
    expect(alter('topic', { 'segment.bytes': 1 }, 'orders')).toEqual([
      'Unknown topic config name: segment.bytes',
    ]);
    expect(alter('topic', {}, 'payments')).toEqual(['no topic "payments"']);
    expect(alter('broker', { 'eligible.leader.replicas.version': 0 }, '4')).toEqual([
      'eligible.leader.replicas.version is cluster-wide; it cannot be set for one broker',
    ]);
    expect(alter('broker', {}, '12')).toEqual(['no node 12 in this cluster']);
  });

  it('checks every command type', () => {
    const ok = [
      { type: 'crashNode', nodeId: 4 },
      { type: 'restartNode', nodeId: 4 },
      { type: 'shutdownNode', nodeId: 4 },
      {
        type: 'partitionNetwork',
        groups: [
          [1, 4],
          [5, 6],
        ],
      },
      { type: 'cutLink', from: 'producer-1', to: 4, oneWay: true },
      { type: 'healNetwork' },
      { type: 'createTopic', name: 'payments', partitions: 2, replicationFactor: 3 },
      { type: 'alterConfig', resourceType: 'cluster', configs: { 'unclean.leader.election.enable': true } },
      { type: 'produce', topic: 'orders', key: null, value: 'v', acks: 1, producerId: 'p', count: 3 },
      { type: 'addNode', nodeId: 7, roles: ['broker'], rack: 'zone-a' },
      { type: 'electLeaders', electionType: 'unclean', partitions: [{ topic: 'orders', partition: 5 }] },
    ];
    for (const command of ok) expect(validateCommand(command, 'c', ctx())).toEqual([]);
    expect(validateCommand({ type: 'partitionNetwork', groups: [[1, 4], [4]] }, 'c', ctx())).toEqual([
      { path: 'c.groups[1][0]', message: 'node 4 is in two groups: groups[0] and groups[1]' },
    ]);
    expect(validateCommand({ type: 'produce', topic: 'orders', value: 'v', acks: -1 }, 'c', ctx())).toEqual([
      { path: 'c.acks', message: 'must be 0, 1 or "all"' },
    ]);
    expect(validateCommand({ type: 'addNode', nodeId: 4, roles: ['broker'] }, 'c', ctx())).toEqual([
      { path: 'c.nodeId', message: 'node 4 already exists' },
    ]);
    expect(validateCommand({ type: 'addNode', nodeId: 7, roles: ['controller'] }, 'c', ctx())).toEqual([
      {
        path: 'c.roles',
        message:
          'adding a controller needs a dynamic quorum (KIP-853), which this simulator does not model: add brokers only',
      },
    ]);
    expect(
      validateCommand(
        { type: 'electLeaders', electionType: 'clean', partitions: [{ topic: 'orders', partition: 6 }] },
        'c',
        ctx(),
      ),
    ).toEqual([
      { path: 'c.electionType', message: 'must be "preferred" or "unclean"' },
      { path: 'c.partitions[0].partition', message: 'no partition 6 in topic "orders" (it has 6)' },
    ]);
  });
});

describe('config registry', () => {
  it("holds Kafka's defaults", () => {
    expect(clusterDefaults()).toMatchObject({
      'broker.heartbeat.interval.ms': 2000,
      'broker.session.timeout.ms': 9000,
      'replica.lag.time.max.ms': 30000,
      'min.insync.replicas': 1,
      'unclean.leader.election.enable': false,
      'eligible.leader.replicas.version': 1,
      'message.max.bytes': 1048588,
      'leader.replication.throttled.rate': Number.MAX_SAFE_INTEGER,
    });
  });

  it('accepts its own defaults at every scope it allows', () => {
    for (const def of Object.values(CONFIG_DEFS))
      for (const scope of def.scopes) expect(checkConfig(def.name, def.default, scope)).toBeNull();
  });

  it("parses values as Kafka's ConfigDef does", () => {
    const def = (name: string) => {
      const found = CONFIG_DEFS[name];
      assert(found, `${name} is a config Kafka defines`);
      return found;
    };
    expect(parseConfigValue(def('min.insync.replicas'), ' 2 ')).toBe(2);
    expect(parseConfigValue(def('unclean.leader.election.enable'), 'True')).toBe(true);
    expect(parseConfigValue(def('leader.replication.throttled.rate'), '9223372036854775807')).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(checkConfig('min.insync.replicas', 1.5, 'topic')).toBe(
      'Invalid value 1.5 for configuration min.insync.replicas: Not a number of type INT',
    );
    expect(checkConfig('unclean.leader.election.enable', 1, 'topic')).toBe(
      'Invalid value 1 for configuration unclean.leader.election.enable: Expected value to be either true or false',
    );
    expect(checkConfig('cleanup.policy', 'delete,archive', 'topic')).toBe(
      'Invalid value archive for configuration cleanup.policy: String must be one of: compact, delete',
    );
    expect(checkConfig('leader.replication.throttled.replicas', '0:4,1:5', 'topic')).toBeNull();
    expect(checkConfig('leader.replication.throttled.replicas', '*', 'topic')).toBeNull();
    expect(checkConfig('leader.replication.throttled.replicas', '0-4', 'topic')).toMatch(
      /must be the literal '\*' or a list of replicas/,
    );
    expect(checkConfig('log.retention.ms', 0, 'cluster')).toBe(
      'log.retention.ms must be unlimited (-1) or, greater than or equal to 1',
    );
    expect(checkConfig('min.insync.replicas', null, 'cluster')).toBe(
      'Invalid value null for configuration min.insync.replicas: Value must be non-null',
    );
  });
});

describe('validation never throws', () => {
  it('on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(Array.isArray(validateScenario(value))).toBe(true);
        expect(
          Array.isArray(
            validateCommand(value, 'c', { nodeIds: new Set(), brokerIds: new Set(), topics: new Map() }),
          ),
        ).toBe(true);
      }),
      { seed: 7 },
    );
  });

  it('on anything at all', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        validateScenario(value);
        validateCommand(value, 'c');
      }),
      { seed: 7 },
    );
  });

  it('on scenarios with random values in every field', () => {
    const fieldValue = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(-1, 0, 1, 4, 1e300, 'all', '', 'orders', null),
    );
    const command = fc.record(
      {
        type: fc.constantFrom(
          'crashNode',
          'createTopic',
          'alterConfig',
          'produce',
          'partitionNetwork',
          'cutLink',
          'electLeaders',
          'addNode',
          'x',
        ),
        nodeId: fieldValue,
        groups: fieldValue,
        from: fieldValue,
        to: fieldValue,
        name: fieldValue,
        partitions: fieldValue,
        replicationFactor: fieldValue,
        assignment: fieldValue,
        resourceType: fc.constantFrom('topic', 'broker', 'cluster', 'x'),
        resourceName: fieldValue,
        configs: fc.dictionary(fc.constantFrom(...Object.keys(CONFIG_DEFS), 'x'), fieldValue),
        topic: fieldValue,
        value: fieldValue,
      },
      { requiredKeys: ['type'] },
    );
    const scenario = fc.record({
      version: fc.constantFrom(1, 2, '1'),
      seed: fieldValue,
      nodes: fc.array(
        fc.record({ id: fieldValue, roles: fieldValue, rack: fieldValue }, { requiredKeys: [] }),
      ),
      config: fc.dictionary(fc.constantFrom(...Object.keys(CONFIG_DEFS), 'x'), fieldValue),
      topics: fc.array(
        fc.record({
          name: fieldValue,
          partitions: fieldValue,
          replicationFactor: fieldValue,
          config: fieldValue,
          assignment: fieldValue,
        }),
      ),
      script: fc.array(fc.record({ atMs: fieldValue, command })),
    });
    fc.assert(
      fc.property(scenario, (value) => {
        for (const issue of validateScenario(value)) {
          expect(typeof issue.path).toBe('string');
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
