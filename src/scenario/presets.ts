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
  config: {},
  network: { latencyMs: 2, jitterMs: 1 },
  topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
};

export const presets: Readonly<Record<string, Preset>> = {
  default: {
    title: 'Three zones',
    description:
      'Three controllers and six brokers spread over three zones; the topic "orders" has 6 partitions, ' +
      'replication factor 3 and min.insync.replicas=2, so every partition keeps a replica in each zone.',
    scenario: defaultScenario,
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
};
