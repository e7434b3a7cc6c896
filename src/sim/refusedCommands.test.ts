// A refused command changes nothing: not the state, not the seeded generator, so what follows is
// what would have followed without it. A refused createTopic once advanced the generator (the
// replica placer drew its random start before it found every broker fenced), in 319 of 2,000
// random command runs.
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from './index';
import type { Command } from './types';
import { presets } from '../scenario/presets';

/** three-brokers (controller 1, brokers 2, 3, 4, topic demo) with producer p and consumer c, settled. */
function running(): Simulation {
  const sim = createSimulation(presets['three-brokers']!.scenario);
  sim.advance(5_000);
  expect(
    sim.apply({
      type: 'startProducer',
      producerId: 'p',
      topic: 'demo',
      ratePerSec: 20,
      config: { 'enable.idempotence': true },
    }).ok,
  ).toBe(true);
  expect(sim.apply({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: ['demo'] }).ok).toBe(true);
  sim.advance(10_000);
  return sim;
}

const ok = (sim: Simulation, command: Command) =>
  expect(sim.apply(command).ok, JSON.stringify(command)).toBe(true);

interface Refusal {
  what: string;
  prepare?: (sim: Simulation) => void;
  command: Command;
  /** A part of the refusal's message. */
  error: string;
}

const crash = (nodeId: number): Command => ({ type: 'crashNode', nodeId });
const acl = {
  principal: 'User:alice',
  operation: 'Read',
  resourceType: 'topic',
  resourceName: 'demo',
  permission: 'allow',
} as const;

const REFUSALS: Refusal[] = [
  {
    what: 'crashNode on a crashed node',
    prepare: (s) => ok(s, crash(4)),
    command: crash(4),
    error: 'is not running',
  },
  {
    what: 'restartNode on a running node',
    command: { type: 'restartNode', nodeId: 2 },
    error: 'already running',
  },
  {
    what: 'shutdownNode on a crashed node',
    prepare: (s) => ok(s, crash(3)),
    command: { type: 'shutdownNode', nodeId: 3 },
    error: 'is not running',
  },
  { what: 'a node that does not exist', command: crash(99), error: 'no node 99 in this cluster' },
  {
    what: 'createTopic of a name taken',
    command: { type: 'createTopic', name: 'demo', partitions: 1, replicationFactor: 1 },
    error: 'TOPIC_ALREADY_EXISTS',
  },
  {
    what: 'createTopic of a name that collides in metric names',
    prepare: (s) => ok(s, { type: 'createTopic', name: 'pay.ments', partitions: 1, replicationFactor: 1 }),
    command: { type: 'createTopic', name: 'pay_ments', partitions: 1, replicationFactor: 1 },
    error: "INVALID_TOPIC_EXCEPTION: Topic 'pay_ments' collides with existing topic: pay.ments",
  },
  {
    what: 'createTopic of more replicas than brokers',
    command: { type: 'createTopic', name: 'new', partitions: 3, replicationFactor: 4 },
    error: 'INVALID_REPLICATION_FACTOR',
  },
  {
    what: 'createTopic when every broker is fenced',
    prepare: (s) => {
      for (const id of [2, 3, 4]) ok(s, crash(id));
      s.advance(15_000);
    },
    command: { type: 'createTopic', name: 'new', partitions: 3, replicationFactor: 1 },
    error: 'All brokers are currently fenced',
  },
  {
    what: 'createTopic without a controller',
    prepare: (s) => ok(s, crash(1)),
    command: { type: 'createTopic', name: 'new', partitions: 1, replicationFactor: 1 },
    error: 'REQUEST_TIMED_OUT',
  },
  {
    what: 'createTopic assigned to a broker not registered',
    command: { type: 'createTopic', name: 'new', partitions: 1, replicationFactor: 1, assignment: [[7]] },
    error: 'no such broker is registered',
  },
  {
    what: 'alterConfig of an invalid value',
    command: {
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: 'demo',
      configs: { 'min.insync.replicas': 0 },
    },
    error: 'Value must be at least 1',
  },
  {
    what: 'alterConfig without a controller',
    prepare: (s) => ok(s, crash(1)),
    command: {
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: 'demo',
      configs: { 'min.insync.replicas': 2 },
    },
    error: 'REQUEST_TIMED_OUT',
  },
  {
    what: 'produce with acks=1 on an idempotent producer',
    command: { type: 'produce', topic: 'demo', value: 'v', producerId: 'p', acks: 1 },
    error: 'Must set acks to all',
  },
  {
    what: 'startProducer of a running producer',
    command: { type: 'startProducer', producerId: 'p', topic: 'demo', ratePerSec: 1 },
    error: 'already running',
  },
  {
    what: "startProducer with a consumer's id",
    command: { type: 'startProducer', producerId: 'c', topic: 'demo', ratePerSec: 1 },
    error: "already a consumer's client id",
  },
  {
    what: 'stopProducer of no producer',
    command: { type: 'stopProducer', producerId: 'nobody' },
    error: 'is not running',
  },
  {
    what: 'startConsumer of a running consumer',
    command: { type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: ['demo'] },
    error: 'already running',
  },
  {
    what: "startConsumer with a producer's id",
    command: { type: 'startConsumer', consumerId: 'p', groupId: 'g', topics: ['demo'] },
    error: "already a producer's client id",
  },
  {
    what: 'stopConsumer of no consumer',
    command: { type: 'stopConsumer', consumerId: 'nobody' },
    error: 'is not running',
  },
  {
    what: 'commitOffsets of no consumer',
    command: { type: 'commitOffsets', consumerId: 'nobody' },
    error: 'is not running',
  },
  {
    what: 'commitOffsets of a consumer that has not joined',
    prepare: (s) => ok(s, { type: 'startConsumer', consumerId: 'c2', groupId: 'g2', topics: ['demo'] }),
    command: { type: 'commitOffsets', consumerId: 'c2' },
    error: 'has not joined',
  },
  {
    what: 'addNode of an existing id',
    command: { type: 'addNode', nodeId: 2, roles: ['broker'] },
    error: 'already exists',
  },
  {
    what: 'reassignPartitions without a controller',
    prepare: (s) => ok(s, crash(1)),
    command: {
      type: 'reassignPartitions',
      partitions: [{ topic: 'demo', partition: 0, replicas: [2, 3, 4] }],
    },
    error: 'REQUEST_TIMED_OUT',
  },
  {
    what: 'electLeaders when every leader is preferred',
    command: { type: 'electLeaders', electionType: 'preferred' },
    error: 'ELECTION_NOT_NEEDED',
  },
  {
    what: 'an unclean electLeaders with no partition offline',
    command: { type: 'electLeaders', electionType: 'unclean' },
    error: 'ELECTION_NOT_NEEDED',
  },
  {
    what: 'addAcl of an ACL that exists',
    prepare: (s) => ok(s, { type: 'addAcl', ...acl }),
    command: { type: 'addAcl', ...acl },
    error: 'already exists',
  },
  { what: 'removeAcl of no ACL', command: { type: 'removeAcl', ...acl }, error: 'no such ACL' },
  {
    what: 'loseZone of a rack no node is in',
    command: { type: 'loseZone', rack: 'nowhere' },
    error: 'no node',
  },
  {
    what: 'loseRegion without a standby region',
    command: { type: 'loseRegion' },
    error: 'no standby region',
  },
];

describe('a refused command changes nothing', () => {
  for (const r of REFUSALS)
    it(r.what, () => {
      const sim = running();
      r.prepare?.(sim);
      const untouched = sim.clone();
      const before = sim.stateHash();
      const events = sim.events().length;
      const result = sim.apply(r.command);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain(r.error);
      expect(sim.stateHash()).toBe(before);
      expect(sim.events().length).toBe(events);
      // The generator too: the next ten seconds are those of the simulation that never saw it.
      sim.advance(10_000);
      untouched.advance(10_000);
      expect(sim.stateHash()).toBe(untouched.stateHash());
    });
});
