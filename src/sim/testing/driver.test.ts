import { describe, expect, it } from 'vitest';
import { cluster } from './driver';

const threeBrokers = () =>
  cluster({ topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }] }).settle();

describe('the story driver', () => {
  it('cuts and heals the network, and its expectations name what it found instead', () => {
    const d = threeBrokers().expectLeader('t', 0, 2).expectIsr('t', 0, [4, 3, 2]);
    // Broker 2 cut off from the controller is fenced after broker.session.timeout.ms; another replica leads.
    d.cut(2, 1).until((x) => x.leaderOf('t') !== 2, 30000);
    expect(d.expectEvent('BrokerFenced', (e) => e.nodeId === 2).message).toMatch(/Broker 2/);
    expect(() => d.expectLeader('t', 0, 2)).toThrow(/t-0: leader [34], expected 2/);
    expect(() => d.expectEvent('NodeCrashed')).toThrow(/no NodeCrashed event by \d+ ms; the last events:/);
    d.heal().until((x) => x.partition('t').isr.includes(2), 60000);
    d.expectNoEvent('NodeCrashed');
  });

  it('reads one mechanism at a time: what is on the wire, what a broker has on disk', () => {
    const d = threeBrokers();
    expect(d.partitionsOnDisk(2)).toContain('t-0');
    expect(d.replicaRole(2, 't')).toBe('leader');
    expect(d.replicaRole(3, 't')).toBe('follower');
    const fetch = d.nextSent('Fetch', 2);
    expect([3, 4]).toContain(fetch.from);
    expect(d.metadataLogTypes(2)).toEqual(d.metadataLogTypes(1));
  });
});
