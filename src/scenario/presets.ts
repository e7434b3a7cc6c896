// Built-in scenarios. Each is a complete, valid scenario (schema.test.ts checks them against the
// JSON Schema and the validator), with Kafka's defaults wherever a field is left out.

import type { Scenario } from '../sim/types';

export interface Preset {
  /** A short title for menus. */
  title: string;
  /** One or two sentences on what the preset shows. */
  description: string;
  scenario: Scenario;
}

/**
 * The cluster a learner sees first: three controllers and six brokers over three zones, and a topic
 * whose min.insync.replicas=2 lets it survive one lost broker without losing acknowledged writes.
 */
export const defaultScenario: Scenario = {
  version: 1,
  seed: 7,
  nodes: [
    { id: 1, roles: ['controller'], rack: 'zone-a' },
    { id: 2, roles: ['controller'], rack: 'zone-b' },
    { id: 3, roles: ['controller'], rack: 'zone-c' },
    { id: 4, roles: ['broker'], rack: 'zone-a' },
    { id: 5, roles: ['broker'], rack: 'zone-a' },
    { id: 6, roles: ['broker'], rack: 'zone-b' },
    { id: 7, roles: ['broker'], rack: 'zone-b' },
    { id: 8, roles: ['broker'], rack: 'zone-c' },
    { id: 9, roles: ['broker'], rack: 'zone-c' },
  ],
  // Three partitions of __consumer_offsets (Kafka's default is 50) keep the canvas readable.
  config: { 'offsets.topic.num.partitions': 3 },
  network: { latencyMs: 2, jitterMs: 1 },
  topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  // Clients start at once and wait for "orders" to appear in the metadata, as Kafka's clients do.
  script: [
    {
      atMs: 0,
      command: {
        type: 'startProducer',
        producerId: 'producer-1',
        topic: 'orders',
        ratePerSec: 5,
        keyPattern: 'order-{n}',
        keyCount: 20,
        acks: 'all',
      },
    },
    {
      atMs: 0,
      command: {
        type: 'startConsumer',
        consumerId: 'consumer-1',
        groupId: 'order-service',
        topics: ['orders'],
      },
    },
    {
      atMs: 0,
      command: {
        type: 'startConsumer',
        consumerId: 'consumer-2',
        groupId: 'order-service',
        topics: ['orders'],
      },
    },
  ],
};

const LARGE_ZONES = ['zone-a', 'zone-b', 'zone-c', 'zone-d'];

/**
 * A large cluster for the canvas's collapsed view and the UI benchmark: three controllers and
 * 48 brokers in four zones of twelve, one topic of 2,000 partitions with replication factor 3.
 */
export const largeScenario: Scenario = {
  version: 1,
  seed: 7,
  nodes: [
    ...[1, 2, 3].map((id) => ({ id, roles: ['controller' as const], rack: LARGE_ZONES[id - 1] })),
    ...Array.from({ length: 48 }, (_, i) => ({
      id: 4 + i,
      roles: ['broker' as const],
      rack: LARGE_ZONES[Math.floor(i / 12)],
    })),
  ],
  config: {},
  network: { latencyMs: 2, jitterMs: 1 },
  topics: [{ name: 'events', partitions: 2000, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
};

/**
 * Two regions: a primary cluster (three zones) whose `orders` topic MirrorMaker copies to a standby
 * cluster in another region. Losing the primary region shows the records the standby never got.
 */
export const twoRegionsScenario: Scenario = {
  version: 1,
  seed: 7,
  nodes: [
    { id: 1, roles: ['controller'], rack: 'zone-a' },
    { id: 2, roles: ['controller'], rack: 'zone-b' },
    { id: 3, roles: ['controller'], rack: 'zone-c' },
    { id: 4, roles: ['broker'], rack: 'zone-a' },
    { id: 5, roles: ['broker'], rack: 'zone-b' },
    { id: 6, roles: ['broker'], rack: 'zone-c' },
  ],
  config: { 'offsets.topic.num.partitions': 3 },
  network: { latencyMs: 2, jitterMs: 1 },
  topics: [{ name: 'orders', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  script: [
    {
      atMs: 0,
      command: {
        type: 'startProducer',
        producerId: 'producer-1',
        topic: 'orders',
        ratePerSec: 20,
        keyPattern: 'order-{n}',
        keyCount: 20,
        acks: 'all',
      },
    },
  ],
  mirror: {
    primaryRegion: 'eu-west-1',
    standby: {
      region: 'eu-central-1',
      nodes: [
        { id: 11, roles: ['controller'], rack: 'zone-a' },
        { id: 12, roles: ['broker'], rack: 'zone-a' },
        { id: 13, roles: ['broker'], rack: 'zone-b' },
        { id: 14, roles: ['broker'], rack: 'zone-c' },
      ],
      network: { latencyMs: 2, jitterMs: 1 },
    },
    topics: ['orders'],
    crossRegionLatencyMs: 60,
    pollIntervalMs: 500,
  },
};

const builtIn = {
  default: {
    title: 'Three zones',
    description:
      'Three controllers and six brokers spread over three zones; the topic "orders" has 6 partitions, ' +
      'replication factor 3 and min.insync.replicas=2, so every partition keeps a replica in each zone. ' +
      'producer-1 writes 5 records/s with acks=all; the group "order-service" of two consumers reads them.',
    scenario: defaultScenario,
  },
  large: {
    title: 'Large cluster',
    description:
      'Three controllers and 48 brokers in four zones of twelve; the topic "events" has 2,000 partitions ' +
      'with replication factor 3. The canvas shows counts per broker instead of every replica.',
    scenario: largeScenario,
  },
  'three-brokers': {
    title: 'Three brokers',
    description:
      'The smallest useful cluster: one controller (node 1) and three brokers without racks; ' +
      'the topic "demo" has 3 partitions, each replicated on all three brokers.',
    scenario: {
      version: 1,
      seed: 7,
      nodes: [
        { id: 1, roles: ['controller'] },
        { id: 2, roles: ['broker'] },
        { id: 3, roles: ['broker'] },
        { id: 4, roles: ['broker'] },
      ],
      network: { latencyMs: 2, jitterMs: 1 },
      topics: [{ name: 'demo', partitions: 3, replicationFactor: 3 }],
    },
  },
  'two-regions': {
    title: 'Two regions',
    description:
      'A primary cluster in eu-west-1 (three zones) and a standby cluster in eu-central-1, 60 ms away; ' +
      'MirrorMaker copies "orders" every 500 ms. producer-1 writes 20 records/s with acks=all. Lose the ' +
      'primary region in the Regions tab and see which acknowledged records the standby never received.',
    scenario: twoRegionsScenario,
  },
  'one-host-anti-pattern': {
    title: 'Three brokers on one host',
    description:
      'Three brokers that all report rack "host-x": replication factor 3 looks safe, but rack-aware ' +
      'placement cannot spread replicas, and losing the one host loses every copy.',
    scenario: {
      version: 1,
      seed: 7,
      nodes: [
        { id: 1, roles: ['controller'] },
        { id: 2, roles: ['broker'], rack: 'host-x' },
        { id: 3, roles: ['broker'], rack: 'host-x' },
        { id: 4, roles: ['broker'], rack: 'host-x' },
      ],
      network: { latencyMs: 2, jitterMs: 1 },
      topics: [{ name: 'demo', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
    },
  },
} satisfies Record<string, Preset>;

/** The id of a built-in preset (the worker's name, and `?preset=` in the page's address). */
export type PresetId = keyof typeof builtIn;

/** The built-in presets by id. */
export const presets: Readonly<Record<PresetId, Preset>> = builtIn;

/** The built-in preset called `id`, if there is one. */
export function presetNamed(id: string): Preset | undefined {
  return Object.hasOwn(presets, id) ? presets[id as PresetId] : undefined;
}
