// The metadata log as Kafka writes it: the first leader's LeaderChangeMessage, the bootstrap
// records of the first active controller (ActivationRecordsGenerator.recordsForEmptyLog), a
// NoOpRecord every metadata.max.idle.interval.ms (KIP-835), and a broker epoch that is the offset of
// the broker's RegisterBrokerRecord (ClusterControlManager.registerBroker, QuorumController passes
// offsetControl.nextWriteOffset()).
import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';
import { METADATA_MAX_IDLE_INTERVAL_MS } from './quorumController';

const threeBrokers = () =>
  cluster({ seed: 5, controllers: 3, topics: [{ name: 't', partitions: 1, replicationFactor: 3 }] })
    .settle()
    .advance(2_000);

describe('the metadata log', () => {
  it('starts with the leader change, then the bootstrap records in a metadata transaction', () => {
    const d = threeBrokers();
    expect(d.metadataLogTypes(1).slice(0, 6)).toEqual([
      'LeaderChangeMessage',
      'BeginTransactionRecord',
      'FeatureLevelRecord',
      'FeatureLevelRecord',
      'FeatureLevelRecord',
      'EndTransactionRecord',
    ]);
    const log = d.metadataLog(1);
    const features = log.filter((r) => r.type === 'FeatureLevelRecord').map((r) => [r.name, r.featureLevel]);
    expect(features).toEqual([
      ['metadata.version', 27],
      ['eligible.leader.replicas.version', 1],
      ['group.version', 1],
    ]);
    // Every broker's image holds the finalized levels.
    expect(d.featuresSeenBy(4).get('metadata.version')).toBe(27);
  });

  it('gives each broker the offset of its registration as its epoch, after the bootstrap records', () => {
    const d = threeBrokers();
    const log = d.metadataLog(1);
    const registrations = log.flatMap((r, offset) =>
      r.type === 'RegisterBrokerRecord' ? [[r.brokerId, offset]] : [],
    );
    expect(registrations.length).toBe(3);
    for (const [brokerId, offset] of registrations) {
      expect(offset).toBeGreaterThan(5);
      expect(d.sim.snapshot().nodes.find((n) => n.id === brokerId)!.brokerEpoch).toBe(offset);
    }
    // A restarted broker registers again, at a later offset: a new epoch.
    const before = d.sim.snapshot().nodes.find((n) => n.id === 5)!.brokerEpoch;
    d.crash(5).advance(3_000).restart(5).advance(5_000);
    const after = d.sim.snapshot().nodes.find((n) => n.id === 5)!.brokerEpoch;
    expect(after).toBeGreaterThan(before);
    expect(d.events('BrokerRegistered').at(-1)!.message).toBe(
      `Broker 5 registered with broker epoch ${after}; it stays fenced until it catches up with the metadata log.`,
    );
  });

  it('grows by a NoOpRecord every 500 ms while nothing else happens, and the brokers follow it quietly', () => {
    const d = threeBrokers();
    expect(METADATA_MAX_IDLE_INTERVAL_MS).toBe(500);
    const start = d.sim.snapshot().quorum.highWatermark;
    const applied = d.events('MetadataApplied').length;
    d.advance(10_000);
    const s = d.sim.snapshot();
    expect(s.quorum.highWatermark - start).toBeGreaterThanOrEqual(19);
    expect(s.quorum.highWatermark - start).toBeLessThanOrEqual(21);
    expect(
      d
        .metadataLogTypes(1)
        .slice(-19)
        .every((t) => t === 'NoOpRecord'),
    ).toBe(true);
    // Every broker is at most one NoOp behind; none logs a line for a NoOp.
    for (const n of s.nodes) expect(n.metadataOffset).toBeGreaterThanOrEqual(s.quorum.highWatermark - 2);
    expect(d.events('MetadataApplied').length).toBe(applied);
  });
});
