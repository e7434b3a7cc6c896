// Stray logs (LogManager.isStrayKraftReplica, called from BrokerMetadataPublisher.initializeManagers):
// a broker that was down while its topic was deleted, or while its replica was moved away, finds the
// old logs on its disk when it comes back, and does not keep them once it has caught up with the
// metadata.
import { describe, expect, it } from 'vitest';
import { Driver } from '../testing/driver';
import { BS, cli, toolCluster } from '../testing/cli';

function ordersCluster(): Driver {
  // Brokers 2, 3 and 4 behind controller 1; orders has a replica on every broker.
  return new Driver(
    toolCluster({ brokers: 3, topics: [{ name: 'orders', partitions: 2, replicationFactor: 3 }] }),
  );
}

describe('stray logs', () => {
  it('a broker down while its topic is deleted removes the topic’s logs once it has caught up', () => {
    const d = ordersCluster();
    d.crash(3).advance(1000);
    expect(cli(d.sim, `kafka-topics.sh ${BS} --delete --topic orders`).ok).toBe(true);
    d.advance(3000);
    expect(d.partitionsOnDisk(2)).toEqual([]);
    expect(d.partitionsOnDisk(3)).toEqual(['orders-0', 'orders-1']);

    d.restart(3).advance(5000);
    expect(d.partitionsOnDisk(3)).toEqual([]);
    const e = d.expectEvent('StrayLogsRemoved', (ev) => ev.nodeId === 3);
    expect(e.message).toContain('2 stray log(s)');
    expect(e.message).toContain('orders-0, orders-1');
  });

  it('a broker whose replica was moved away while it was down removes that log, and keeps the rest', () => {
    const d = new Driver(
      toolCluster({ brokers: 4, topics: [{ name: 'orders', partitions: 1, replicationFactor: 3 }] }),
    );
    const before = d.partition('orders', 0).replicas;
    const away = before[before.length - 1]!;
    const spare = [2, 3, 4, 5].find((b) => !before.includes(b))!;
    d.crash(away).advance(1000);
    const target = before.map((b) => (b === away ? spare : b));
    d.do({ type: 'reassignPartitions', partitions: [{ topic: 'orders', partition: 0, replicas: target }] });
    d.until((x) => x.partition('orders', 0).replicas.join() === target.join(), 60_000);
    expect(d.partitionsOnDisk(away)).toEqual(['orders-0']);

    d.restart(away).advance(5000);
    expect(d.partitionsOnDisk(away)).toEqual([]);
    expect(d.partitionsOnDisk(spare)).toEqual(['orders-0']);
  });

  it('a broker that restarts with nothing stray keeps every log and says nothing', () => {
    const d = ordersCluster();
    d.crash(3).advance(1000).restart(3).advance(5000);
    expect(d.partitionsOnDisk(3)).toEqual(['orders-0', 'orders-1']);
    d.expectNoEvent('StrayLogsRemoved');
  });
});
