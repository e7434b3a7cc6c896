// Names a user picks that are also names of Object.prototype (`constructor`, `toString`, ...) are
// names like any other: as client ids, principals' keys, group ids and topic names they behave as
// a plain name does, and the snapshot stays plain data that can be posted to the page.
import { describe, expect, it } from 'vitest';
import { createSimulation } from './index';
import type { Scenario, Snapshot } from './types';
import { presets } from '../scenario/presets';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;

/** An own property, even for `__proto__` (an object literal would set the prototype instead). */
function entry<T>(key: string, value: T): Record<string, T> {
  const out: Record<string, T> = {};
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The three-brokers cluster with a producer, a consumer and a principal for each (the clients'
 * ids share one namespace, as they share the network's).
 */
function withClients(producerId: string, consumerId: string, groupId: string): Scenario {
  const base = structuredClone(presets['three-brokers']!.scenario);
  const topic = base.topics![0]!.name;
  return {
    ...base,
    security: {
      principals: { ...entry(producerId, 'User:alice'), ...entry(consumerId, 'User:bob') },
      clientProtocols: { ...entry(producerId, 'PLAINTEXT'), ...entry(consumerId, 'PLAINTEXT') },
    },
    script: [
      { atMs: 0, command: { type: 'startProducer', producerId, topic, ratePerSec: 20 } },
      { atMs: 0, command: { type: 'startConsumer', consumerId, groupId, topics: [topic] } },
    ],
  };
}

/** What a user sees of the clients, with their names left out. */
function behaviour(snapshot: Snapshot) {
  const producer = snapshot.clients.producers[0]!;
  const consumer = snapshot.clients.consumers[0]!;
  const group = snapshot.clients.groups[0]!;
  return {
    producer: { sent: producer.sent, acknowledged: producer.acknowledged, running: producer.running },
    consumer: { state: consumer.state, partitions: consumer.assignment.length, topics: consumer.topics },
    group: { state: group.state, members: group.members.length },
    principals: snapshot.security?.clients.map((c) => c.principal).sort(),
  };
}

function run(scenario: Scenario): Snapshot & { lagByGroup: Record<string, number> } {
  const sim = createSimulation(scenario);
  sim.advance(20_000);
  // A checkpoint (Simulation.clone) goes through structuredClone: the names must survive it too.
  const copy = sim.clone();
  copy.advance(10_000);
  sim.advance(10_000);
  expect(copy.stateHash()).toBe(sim.stateHash());
  const snapshot = copy.snapshot();
  expect(() => structuredClone(snapshot)).not.toThrow();
  // The metrics' consumer lag, by group id.
  return { ...snapshot, lagByGroup: copy.metrics().at(-1)!.consumerLag };
}

describe('a name of Object.prototype is a name like any other', () => {
  const normal = behaviour(run(withClients('producer-1', 'consumer-1', 'group-1')));

  for (const name of PROTOTYPE_NAMES) {
    it(`as a producer's id and a principal's key: ${name}`, () => {
      const snapshot = run(withClients(name, 'consumer-1', 'group-1'));
      expect(behaviour(snapshot)).toEqual(normal);
      expect(snapshot.clients.producers[0]!.id).toBe(name);
      const client = snapshot.security!.clients.find((c) => c.clientId === name);
      expect(client).toEqual({ clientId: name, principal: 'User:alice', protocol: 'PLAINTEXT' });
    });

    it(`as a consumer's id and a principal's key: ${name}`, () => {
      const snapshot = run(withClients('producer-1', name, 'group-1'));
      expect(behaviour(snapshot)).toEqual(normal);
      expect(snapshot.clients.consumers[0]!.id).toBe(name);
      const client = snapshot.security!.clients.find((c) => c.clientId === name);
      expect(client).toEqual({ clientId: name, principal: 'User:bob', protocol: 'PLAINTEXT' });
    });

    it(`as a group id: ${name}`, () => {
      const snapshot = run(withClients('producer-1', 'consumer-1', name));
      expect(behaviour(snapshot)).toEqual(normal);
      expect(snapshot.clients.groups[0]!.groupId).toBe(name);
      expect(Object.keys(snapshot.lagByGroup)).toEqual([name]);
    });

    it(`as a client without a principal of its own: ${name} is User:ANONYMOUS`, () => {
      const scenario = withClients(name, 'consumer-1', 'group-1');
      scenario.security = { principals: { other: 'User:carol' } };
      const snapshot = run(scenario);
      expect(snapshot.security!.clients.find((c) => c.clientId === name)!.principal).toBe('User:ANONYMOUS');
    });

    it(`as a topic name: ${name}`, () => {
      const started = () => {
        const sim = createSimulation(presets['three-brokers']!.scenario);
        sim.advance(5_000); // a controller is elected
        return sim;
      };
      const sim = started();
      const result = sim.apply({ type: 'createTopic', name, partitions: 2, replicationFactor: 1 });
      const plainName = name.startsWith('__') ? '__plain__' : 'plain';
      const plain = started().apply({
        type: 'createTopic',
        name: plainName,
        partitions: 2,
        replicationFactor: 1,
      });
      expect(result.ok).toBe(plain.ok);
      // __proto__ starts with "__": refused like every name reserved for Kafka's internal topics.
      if (!result.ok) return expect(result.error).toContain(`Topic name ${name} is reserved`);
      sim.apply({ type: 'startProducer', producerId: 'p', topic: name, ratePerSec: 20 });
      sim.apply({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: [name] });
      sim.advance(20_000);
      const snapshot = sim.snapshot();
      expect(() => structuredClone(snapshot)).not.toThrow();
      expect(snapshot.topics.find((t) => t.name === name)).toBeDefined();
      expect(snapshot.clients.producers[0]!.acknowledged).toBeGreaterThan(0);
      expect(snapshot.clients.consumers[0]!.assignment).toHaveLength(2);
    });

    it(`as a topic a consumer subscribes to before it exists: ${name}`, () => {
      const sim = createSimulation(presets['three-brokers']!.scenario);
      expect(sim.apply({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: [name] }).ok).toBe(
        true,
      );
      sim.advance(10_000);
      expect(() => structuredClone(sim.snapshot())).not.toThrow();
      expect(sim.snapshot().clients.consumers[0]!.assignment).toEqual([]);
    });
  }
});
