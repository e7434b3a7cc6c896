// The JSON Schema (draft 2020-12) of scenario format v1, built from the config registry and the
// limits, so that docs/scenario.schema.json cannot drift from the code: schema.test.ts checks that
// the file equals what this builds. Regenerate the file with
//   npx tsx -e "import('./src/scenario/schema.ts').then((m) => console.log(JSON.stringify(m.scenarioSchema(), null, 2)))" > docs/scenario.schema.json && npx prettier --write docs/scenario.schema.json
// The schema checks shape and ranges; validateScenario also checks what a schema cannot (that named
// nodes and topics exist, unique ids, replication factor against the broker count).

import { CONFIG_DEFS, MAX_TOPIC_NAME_LENGTH, type ConfigDef, type ConfigScope } from '../sim';
import { CONSUMER_CONFIGS, PRODUCER_CONFIGS } from '../sim';
import { LIMITS } from '../sim';

type Schema = Record<string, unknown>;

const INT32_MAX = 2147483647;

export function scenarioSchema(): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Kafka Cluster Lab scenario, version 1',
    description:
      'A simulated Apache Kafka 4.x (KRaft) cluster, its topics, and a script of faults and actions. ' +
      'See docs/scenario.md.',
    type: 'object',
    required: ['version', 'seed', 'nodes'],
    additionalProperties: false,
    properties: {
      version: { description: 'The format version; this simulator reads 1.', const: 1 },
      seed: {
        description: 'Seed of the one random number generator: the same seed replays the same run.',
        type: 'integer',
        minimum: -2147483648,
        maximum: 4294967295,
      },
      nodes: {
        description: 'The Kafka processes. At least one needs the controller role and one the broker role.',
        type: 'array',
        minItems: 1,
        maxItems: LIMITS.maxNodes,
        items: { $ref: '#/$defs/node' },
      },
      config: { $ref: '#/$defs/clusterConfig' },
      network: { $ref: '#/$defs/network' },
      topics: {
        description: 'Topics created at startup, in this order.',
        type: 'array',
        items: { $ref: '#/$defs/topic' },
      },
      script: {
        description: 'Commands to run at given virtual times; steps run in atMs order, ties in file order.',
        type: 'array',
        maxItems: LIMITS.maxScriptSteps,
        items: { $ref: '#/$defs/step' },
      },
      security: { $ref: '#/$defs/security' },
      mirror: { $ref: '#/$defs/mirror' },
    },
    $defs: {
      region: {
        description: 'A region name, e.g. "eu-west-1".',
        type: 'string',
        minLength: 1,
        maxLength: 64,
      },
      mirror: {
        description:
          'A standby cluster in another region, fed by MirrorMaker (asynchronous replication of chosen topics). See docs/scenario.md, "mirror".',
        type: 'object',
        required: ['standby', 'topics'],
        additionalProperties: false,
        properties: {
          standby: {
            description: 'The standby cluster: its own controllers and brokers, with node ids of its own.',
            type: 'object',
            required: ['nodes'],
            additionalProperties: false,
            properties: {
              nodes: {
                type: 'array',
                minItems: 1,
                maxItems: LIMITS.maxNodes,
                items: { $ref: '#/$defs/node' },
              },
              config: { $ref: '#/$defs/clusterConfig' },
              network: {
                description: 'Latency inside the standby region.',
                type: 'object',
                additionalProperties: false,
                properties: {
                  latencyMs: {
                    $ref: '#/$defs/latencyMs',
                    description: 'One-way latency of every link; default 1.',
                  },
                  jitterMs: { $ref: '#/$defs/latencyMs', description: 'Seeded uniform jitter; default 0.' },
                },
              },
              seed: {
                description:
                  "Seed of the standby's random number generator; default the scenario's seed + 1.",
                type: 'integer',
                minimum: -2147483648,
                maximum: 4294967295,
              },
              region: {
                $ref: '#/$defs/region',
                description: 'Name of the standby region; default "region-2".',
              },
            },
          },
          topics: {
            description: 'Topics of the scenario to mirror, to the same name and partition in the standby.',
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { $ref: '#/$defs/topicName' },
          },
          primaryRegion: {
            $ref: '#/$defs/region',
            description: 'Name of the primary region; default "region-1".',
          },
          crossRegionLatencyMs: {
            description: 'One-way latency between the regions, whole virtual milliseconds; default 40.',
            type: 'integer',
            minimum: 1,
            maximum: LIMITS.maxLatencyMs,
          },
          pollIntervalMs: {
            description: 'How often MirrorMaker reads the primary, in virtual milliseconds; default 100.',
            type: 'integer',
            minimum: 1,
            maximum: 60000,
          },
          acks: {
            description: 'The acks of MirrorMaker\'s producer into the standby; default "all".',
            enum: [0, 1, 'all'],
          },
        },
      },
      principal: {
        description:
          'A KafkaPrincipal "type:name", e.g. "User:alice"; "User:*" in an ACL matches every user.',
        type: 'string',
        pattern: '^[^:]+:.+$',
      },
      securityProtocol: { enum: ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] },
      acl: {
        description:
          'A kafka-acls rule: principal may (allow) or may not (deny) do operation on the resource.',
        type: 'object',
        required: ['principal', 'operation', 'resourceType', 'resourceName', 'permission'],
        additionalProperties: false,
        properties: aclProperties(),
      },
      security: {
        description:
          'Authentication and ACLs. ACLs are enforced once at least one exists (a simplification of StandardAuthorizer); see docs/scenario.md.',
        type: 'object',
        additionalProperties: false,
        properties: {
          principals: {
            description:
              'Client id → the principal its connection authenticates as; others are User:ANONYMOUS.',
            type: 'object',
            additionalProperties: { $ref: '#/$defs/principal' },
          },
          acls: { type: 'array', items: { $ref: '#/$defs/acl' } },
          listener: {
            $ref: '#/$defs/securityProtocol',
            description: "The brokers' listener security protocol; default PLAINTEXT.",
          },
          clientProtocols: {
            description: 'Client id → the security protocol of its connection; default the listener.',
            type: 'object',
            additionalProperties: { $ref: '#/$defs/securityProtocol' },
          },
        },
      },
      nodeId: {
        description: "A node's id (Kafka's node.id); positive.",
        type: 'integer',
        minimum: 1,
        maximum: INT32_MAX,
      },
      role: { enum: ['broker', 'controller'] },
      roles: {
        description: "Kafka's process.roles.",
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { $ref: '#/$defs/role' },
      },
      rack: { description: "Kafka's broker.rack; omit it for no rack.", type: 'string', minLength: 1 },
      node: {
        type: 'object',
        required: ['id', 'roles'],
        additionalProperties: false,
        properties: {
          id: { $ref: '#/$defs/nodeId' },
          roles: { $ref: '#/$defs/roles' },
          rack: { $ref: '#/$defs/rack' },
        },
      },
      endpoint: {
        description: 'A node id, or a client id such as "producer-1".',
        anyOf: [{ $ref: '#/$defs/nodeId' }, { type: 'string', minLength: 1 }],
      },
      latencyMs: {
        description: 'Whole virtual milliseconds.',
        type: 'integer',
        minimum: 0,
        maximum: LIMITS.maxLatencyMs,
      },
      network: {
        type: 'object',
        additionalProperties: false,
        properties: {
          latencyMs: { $ref: '#/$defs/latencyMs', description: 'One-way latency of every link; default 1.' },
          jitterMs: {
            $ref: '#/$defs/latencyMs',
            description:
              'Seeded uniform jitter, whole milliseconds from 0 to jitterMs, added to each message; default 0.',
          },
          links: {
            description: 'Per-link latency overrides, one direction each.',
            type: 'array',
            items: {
              type: 'object',
              required: ['from', 'to', 'latencyMs'],
              additionalProperties: false,
              properties: {
                from: { $ref: '#/$defs/endpoint' },
                to: { $ref: '#/$defs/endpoint' },
                latencyMs: { $ref: '#/$defs/latencyMs' },
              },
            },
          },
        },
      },
      clusterConfig: configObject(
        'cluster',
        'Cluster-wide Kafka configs (as in every server.properties). Unset ones keep Kafka defaults.',
      ),
      topicConfig: configObject('topic', "A topic's configs; unset ones inherit the cluster-wide default."),
      topicName: {
        description: 'Kafka\'s Topic.validate, and no leading "__" (Kafka\'s internal topics).',
        type: 'string',
        minLength: 1,
        maxLength: MAX_TOPIC_NAME_LENGTH,
        pattern: '^(?!__)[a-zA-Z0-9._-]+$',
        not: { enum: ['.', '..'] },
      },
      topic: {
        type: 'object',
        required: ['name', 'partitions', 'replicationFactor'],
        additionalProperties: false,
        properties: topicProperties(),
      },
      step: {
        type: 'object',
        required: ['atMs', 'command'],
        additionalProperties: false,
        properties: {
          atMs: { description: 'Virtual milliseconds from the start.', type: 'integer', minimum: 0 },
          command: { $ref: '#/$defs/command' },
        },
      },
      command: { oneOf: commandSchemas() },
    },
  };
}

function aclProperties(): Schema {
  return {
    principal: { $ref: '#/$defs/principal' },
    operation: { enum: ['Read', 'Write', 'Describe', 'All'] },
    resourceType: { enum: ['topic', 'group'] },
    resourceName: {
      description: 'A name, or "*" for every resource of the type.',
      type: 'string',
      minLength: 1,
    },
    patternType: { enum: ['literal', 'prefixed'], default: 'literal' },
    permission: { enum: ['allow', 'deny'] },
  };
}

function topicProperties(): Schema {
  return {
    name: { $ref: '#/$defs/topicName' },
    partitions: { type: 'integer', minimum: 1 },
    replicationFactor: {
      description: 'At most the number of brokers.',
      type: 'integer',
      minimum: 1,
    },
    config: { $ref: '#/$defs/topicConfig' },
    assignment: {
      description:
        'One replica list per partition (of replicationFactor distinct brokers); the first is the preferred leader.',
      type: 'array',
      items: { type: 'array', minItems: 1, uniqueItems: true, items: { $ref: '#/$defs/nodeId' } },
    },
  };
}

function command(type: string, properties: Schema, required: string[] = []): Schema {
  return {
    type: 'object',
    required: ['type', ...required],
    additionalProperties: false,
    properties: { type: { const: type }, ...properties },
  };
}

function commandSchemas(): Schema[] {
  const nodeId = { nodeId: { $ref: '#/$defs/nodeId' } };
  // Names only: the values of a runtime change are checked by validateCommand (null deletes an override).
  const alterableConfigs = (scope: ConfigScope): Schema => ({
    type: 'object',
    propertyNames: {
      enum: Object.values(CONFIG_DEFS)
        .filter((d) => d.scopes.includes(scope) && d.dynamic)
        .map((d) => d.name),
    },
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
  });
  const acl = ['principal', 'operation', 'resourceType', 'resourceName', 'permission'];
  return [
    command(
      'reassignPartitions',
      {
        partitions: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['topic', 'partition', 'replicas'],
            additionalProperties: false,
            properties: {
              topic: { type: 'string' },
              partition: { type: 'integer', minimum: 0 },
              replicas: {
                description: 'The target replicas (first = preferred leader), or null to cancel.',
                anyOf: [
                  { type: 'array', minItems: 1, uniqueItems: true, items: { $ref: '#/$defs/nodeId' } },
                  { type: 'null' },
                ],
              },
            },
          },
        },
      },
      ['partitions'],
    ),
    command('addAcl', aclProperties(), acl),
    command('removeAcl', aclProperties(), acl),
    command('crashNode', nodeId, ['nodeId']),
    command('restartNode', nodeId, ['nodeId']),
    command('shutdownNode', nodeId, ['nodeId']),
    command(
      'partitionNetwork',
      {
        groups: {
          type: 'array',
          minItems: 1,
          items: { type: 'array', minItems: 1, items: { $ref: '#/$defs/nodeId' } },
        },
      },
      ['groups'],
    ),
    command(
      'cutLink',
      { from: { $ref: '#/$defs/endpoint' }, to: { $ref: '#/$defs/endpoint' }, oneWay: { type: 'boolean' } },
      ['from', 'to'],
    ),
    command('healNetwork', {}),
    command('createTopic', topicProperties(), ['name', 'partitions', 'replicationFactor']),
    {
      ...command(
        'alterConfig',
        {
          resourceType: { enum: ['topic', 'broker', 'cluster'] },
          resourceName: { type: 'string' },
          configs: { type: 'object' },
        },
        ['resourceType', 'configs'],
      ),
      allOf: (['topic', 'broker', 'cluster'] as const).map((scope) => ({
        if: { properties: { resourceType: { const: scope } } },
        then: {
          properties: {
            configs: alterableConfigs(scope),
            resourceName: {
              topic: { type: 'string', minLength: 1 },
              broker: { type: 'string', pattern: '^[0-9]+$' },
              cluster: { const: '' },
            }[scope],
          },
          ...(scope === 'cluster' ? {} : { required: ['resourceName'] }),
        },
      })),
    },
    command(
      'produce',
      {
        topic: { type: 'string' },
        key: { type: ['string', 'null'], maxLength: LIMITS.maxRecordChars },
        value: { type: 'string', maxLength: LIMITS.maxRecordChars },
        acks: { enum: [0, 1, 'all'] },
        partition: { type: 'integer', minimum: 0 },
        producerId: { type: 'string', minLength: 1 },
        count: { type: 'integer', minimum: 1, maximum: LIMITS.maxProduceCount },
      },
      ['topic', 'value'],
    ),
    command(
      'addNode',
      {
        nodeId: { $ref: '#/$defs/nodeId' },
        roles: { $ref: '#/$defs/roles' },
        rack: { $ref: '#/$defs/rack' },
      },
      ['nodeId', 'roles'],
    ),
    command(
      'electLeaders',
      {
        electionType: { enum: ['preferred', 'unclean'] },
        partitions: {
          type: 'array',
          items: {
            type: 'object',
            required: ['topic', 'partition'],
            additionalProperties: false,
            properties: { topic: { type: 'string' }, partition: { type: 'integer', minimum: 0 } },
          },
        },
      },
      ['electionType'],
    ),
    command(
      'startProducer',
      {
        producerId: { type: 'string', minLength: 1 },
        topic: { type: 'string', minLength: 1, maxLength: MAX_TOPIC_NAME_LENGTH },
        ratePerSec: { type: 'number', minimum: 0, maximum: LIMITS.maxRatePerSec },
        keyPattern: { type: ['string', 'null'], maxLength: LIMITS.maxRecordChars },
        keyCount: { type: 'integer', minimum: 1, maximum: 1000000 },
        acks: { enum: [0, 1, 'all'] },
        config: clientConfigObject(PRODUCER_CONFIGS, 'Kafka producer configs (ProducerConfig).'),
        transactionMs: { type: 'integer', minimum: 1, maximum: 3600000 },
      },
      ['producerId', 'topic', 'ratePerSec'],
    ),
    command('stopProducer', { producerId: { type: 'string', minLength: 1 }, graceful: { type: 'boolean' } }, [
      'producerId',
    ]),
    command('beginTransaction', { producerId: { type: 'string', minLength: 1 } }, ['producerId']),
    command('commitTransaction', { producerId: { type: 'string', minLength: 1 } }, ['producerId']),
    command('abortTransaction', { producerId: { type: 'string', minLength: 1 } }, ['producerId']),
    command(
      'startConsumer',
      {
        consumerId: { type: 'string', minLength: 1 },
        groupId: { type: 'string', minLength: 1 },
        topics: {
          type: 'array',
          minItems: 1,
          items: { type: 'string', minLength: 1, maxLength: MAX_TOPIC_NAME_LENGTH },
        },
        config: clientConfigObject(CONSUMER_CONFIGS, 'Kafka consumer configs (ConsumerConfig).'),
        commitBeforeProcess: {
          type: 'boolean',
          description:
            'Simulator option (Kafka has no config for it): commit the fetched position, then process the batch (at most once).',
        },
        processMs: {
          type: 'integer',
          minimum: 0,
          maximum: 3600000,
          description: 'Simulator option: processing time per polled batch, in ms (default 0).',
        },
      },
      ['consumerId', 'groupId', 'topics'],
    ),
    command(
      'startProcessor',
      {
        processorId: { type: 'string', minLength: 1 },
        groupId: { type: 'string', minLength: 1 },
        inputTopic: { type: 'string', minLength: 1, maxLength: MAX_TOPIC_NAME_LENGTH },
        outputTopic: { type: 'string', minLength: 1, maxLength: MAX_TOPIC_NAME_LENGTH },
        processingGuarantee: {
          enum: ['at_least_once', 'exactly_once_v2'],
          description: "Kafka Streams' processing.guarantee (default at_least_once).",
        },
        commitIntervalMs: {
          type: 'integer',
          minimum: 1,
          maximum: 3600000,
          description: "Kafka Streams' commit.interval.ms: 30000 by default, 100 with exactly_once_v2.",
        },
        config: clientConfigObject(CONSUMER_CONFIGS, 'Consumer configs of its consumer (ConsumerConfig).'),
      },
      ['processorId', 'groupId', 'inputTopic', 'outputTopic'],
    ),
    command(
      'stopProcessor',
      { processorId: { type: 'string', minLength: 1 }, graceful: { type: 'boolean' } },
      ['processorId'],
    ),
    command('stopConsumer', { consumerId: { type: 'string', minLength: 1 }, graceful: { type: 'boolean' } }, [
      'consumerId',
    ]),
    command('commitOffsets', { consumerId: { type: 'string', minLength: 1 } }, ['consumerId']),
    command('loseRegion', {}),
    command('loseZone', { rack: { type: 'string', minLength: 1 } }, ['rack']),
    // One line of Kafka's tools (docs/cli.md); the tool parses it when the step runs.
    command('cli', { line: { type: 'string', minLength: 1, maxLength: 4096 } }, ['line']),
  ];
}

/** A client's configs by Kafka's names; unknown names are refused, values checked by the validator. */
function clientConfigObject(defs: typeof PRODUCER_CONFIGS, description: string): Schema {
  const properties: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(defs)) {
    const types =
      def.type === 'int'
        ? [{ type: 'integer', ...(def.min !== undefined ? { minimum: def.min } : {}) }, { type: 'string' }]
        : def.type === 'boolean'
          ? [{ type: 'boolean' }, { type: 'string' }]
          : [{ type: 'string' }, { type: 'integer' }];
    properties[name] = { default: def.default, anyOf: types };
  }
  return { description, type: 'object', additionalProperties: false, properties };
}

/** An object whose properties are the configs of a scope; unknown names are refused. */
function configObject(scope: ConfigScope, description: string): Schema {
  const properties: Record<string, Schema> = {};
  for (const def of Object.values(CONFIG_DEFS))
    if (def.scopes.includes(scope)) properties[def.name] = configSchema(def);
  return { description, type: 'object', additionalProperties: false, properties };
}

/** One config: its JSON type, or the string Kafka's admin client would send. */
function configSchema(def: ConfigDef): Schema {
  const description = `${def.doc} ${def.dynamic ? 'Dynamic.' : 'Static (read at startup).'}`;
  const common = { description, default: def.default };
  switch (def.type) {
    case 'int':
    case 'long': {
      const max = def.max ?? (def.type === 'int' ? INT32_MAX : undefined);
      const number: Schema = { type: 'integer' };
      if (def.min !== undefined) number.minimum = def.min;
      if (max !== undefined) number.maximum = max;
      return { ...common, anyOf: [number, { type: 'string', pattern: '^\\s*[+-]?[0-9]+\\s*$' }] };
    }
    case 'double':
      return { ...common, anyOf: [{ type: 'number' }, { type: 'string' }] };
    case 'boolean':
      return {
        ...common,
        anyOf: [
          { type: 'boolean' },
          { type: 'string', pattern: '^\\s*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*$' },
        ],
      };
    case 'string': {
      if (def.values) {
        const one = `(${def.values.join('|')})`;
        const pattern = def.list ? `^\\s*(${one}(\\s*,\\s*${one})*)?\\s*$` : `^\\s*${one}\\s*$`;
        return { ...common, type: 'string', pattern };
      }
      if (def.name.endsWith('.replication.throttled.replicas'))
        return {
          ...common,
          type: 'string',
          pattern: '^\\s*(\\*|([0-9]+:[0-9]+)?(\\s*,\\s*([0-9]+:[0-9]+)?)*)\\s*$',
        };
      return { ...common, type: 'string' };
    }
  }
}
