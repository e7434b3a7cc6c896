import { describe, expect, it } from 'vitest';
import { InvariantMonitor, INVARIANTS } from './invariants';
import { tpKey } from '../model/metadata';
import { activeController } from '../kraft/quorumController';
import { cluster } from '../testing/driver';

// Controller 1, brokers 2, 3, 4; `t` on [2, 3, 4] with min.insync.replicas=2.
const threeBrokers = () =>
  cluster({
    topics: [
      {
        name: 't',
        partitions: 1,
        replicationFactor: 3,
        assignment: [[2, 3, 4]],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }).settle();

/** A healthy cluster with two committed acks=all records, watched by a monitor from the start. */
function watched() {
  const d = threeBrokers();
  const monitor = new InvariantMonitor();
  d.produce('t', 'a', 'all').produce('t', 'b', 'all');
  d.until((x) => x.sim.ledger().every((e) => e.status === 'acked'), 5000);
  d.advance(1000);
  expect(monitor.observe(d.sim)).toEqual([]);
  return { d, monitor };
}

const names = (vs: { invariant: string }[]) => [...new Set(vs.map((v) => v.invariant))].sort();

describe('the invariant monitor on a healthy cluster', () => {
  it('finds nothing while a follower crashes, is fenced, returns and catches up', () => {
    const { d, monitor } = watched();
    d.crash(3);
    for (let i = 0; i < 40; i++) {
      d.advance(500);
      expect(monitor.observe(d.sim)).toEqual([]);
    }
    d.restart(3);
    for (let i = 0; i < 40; i++) {
      d.advance(500);
      expect(monitor.observe(d.sim)).toEqual([]);
    }
    expect(d.partition('t').isr).toEqual([2, 3, 4]);
  });
});

// Each test breaks the model by hand, the way a bug in the engine would, and expects the monitor to say so.
describe('the invariant monitor catches a broken model', () => {
  it('a leader log that lost committed, acknowledged records', () => {
    const { d, monitor } = watched();
    d.tamper((w) => {
      const disk = w.nodes.get(2)!.disk.partitions.get(tpKey('t', 0))!;
      disk.log.entries.splice(1); // offset 1 ('b') disappears; the HW stays at 2
    });
    expect(names(monitor.observe(d.sim))).toEqual(
      [INVARIANTS.ackedRecordsKept, INVARIANTS.committedRecordsKept, INVARIANTS.hwBelowLeo].sort(),
    );
  });

  it('a leader outside the ISR, a broker twice in the replicas and an ISR member that is no replica', () => {
    const { d, monitor } = watched();
    d.tamper((w) => {
      // An image's partition states are frozen (checkpoints share them): put a corrupt one in its place.
      const partitions = activeController(w)!.raft!.image.partitions;
      const p = partitions.get(tpKey('t', 0))!;
      partitions.set(tpKey('t', 0), { ...p, isr: [3, 4, 7], replicas: [2, 3, 3] });
    });
    expect(names(monitor.observe(d.sim))).toEqual(
      [INVARIANTS.distinctReplicas, INVARIANTS.isrWithinReplicas, INVARIANTS.leaderInIsr].sort(),
    );
  });

  it('two brokers leading the same partition in the same leader epoch', () => {
    const { d, monitor } = watched();
    d.tamper((w) => {
      w.nodes.get(3)!.broker!.replicas.get(tpKey('t', 0))!.role = 'leader';
    });
    const v = monitor.observe(d.sim);
    expect(names(v)).toContain(INVARIANTS.oneLeaderPerEpoch);
    expect(v.find((x) => x.invariant === INVARIANTS.oneLeaderPerEpoch)!.message).toMatch(
      /two leaders in leader epoch 0/,
    );
  });

  it('an ISR member whose log is shorter than the leader high watermark', () => {
    const { d, monitor } = watched();
    d.tamper((w) => {
      const follower = w.nodes.get(4)!.disk.partitions.get(tpKey('t', 0))!;
      follower.log.entries.splice(0);
      follower.highWatermark = 0;
    });
    expect(names(monitor.observe(d.sim))).toEqual([INVARIANTS.hwBelowLeo]);
  });

  it('a committed metadata record rewritten on a voter, and a node going back in the metadata it applied', () => {
    const { d, monitor } = watched();
    d.tamper((w) => {
      const ctl = w.nodes.get(1)!;
      ctl.disk.metaLog.entries[0] = { ...ctl.disk.metaLog.entries[0]!, epoch: 99 };
      w.nodes.get(2)!.raft!.image.offset -= 3;
    });
    expect(names(monitor.observe(d.sim))).toEqual(
      [INVARIANTS.committedMetadataKept, INVARIANTS.metadataAppliedInOrder].sort(),
    );
  });

  it('two quorum leaders in one epoch', () => {
    const d = cluster({ controllers: 3, brokers: 1 }).until(
      (x) => x.sim.snapshot().quorum.leaderId !== null,
      10000,
    );
    const monitor = new InvariantMonitor();
    expect(monitor.observe(d.sim)).toEqual([]);
    const q = d.sim.snapshot().quorum;
    const other = q.voters.find((v) => v.id !== q.leaderId)!;
    d.tamper((w) => {
      w.nodes.get(other.id)!.raft!.role = 'leader';
    });
    expect(names(monitor.observe(d.sim))).toContain(INVARIANTS.oneQuorumLeaderPerEpoch);
  });

  it('but not the loss of acknowledged records after an unclean election', () => {
    const d = threeBrokers();
    const monitor = new InvariantMonitor();
    const watch = (ms: number) => {
      for (let t = 0; t < ms; t += 500) {
        d.advance(500);
        expect(monitor.observe(d.sim)).toEqual([]);
      }
    };
    // Broker 4 is out of the ISR when 'x' is acknowledged by 2 and 3; then 2 and 3 die and 4 returns.
    d.crash(4);
    watch(15000);
    d.produce('t', 'x', 'all');
    watch(2000);
    expect(d.entry('x').status).toBe('acked');
    d.crash(2).crash(3);
    watch(15000);
    d.restart(4);
    watch(15000);
    d.expectLeader('t', 0, -1);
    expect(d.sim.apply({ type: 'electLeaders', electionType: 'unclean' })).toEqual({ ok: true });
    watch(5000);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ leader: 4, election: 'unclean' });
    expect(d.sim.lostAcknowledged().map((e) => e.value)).toEqual(['x']);
  });
});

/**
 * Three committed acks=all records under a live run's monitor (a full pass every 10 simulated
 * seconds), looked at twice: the second look is not a full pass (the last was 1 s ago).
 */
function live(options: { sampleAbovePartitions?: number } = {}) {
  const d = threeBrokers();
  const monitor = new InvariantMonitor({ recheckIntervalMs: 10_000, ...options });
  for (const v of ['a', 'b', 'c']) d.produce('t', v, 'all');
  d.until((x) => x.sim.ledger().every((e) => e.status === 'acked'), 5000);
  d.advance(1000);
  expect(monitor.observe(d.sim)).toEqual([]);
  d.advance(1000);
  expect(monitor.observe(d.sim)).toEqual([]);
  return { d, monitor };
}

// The monitor of a live run (Simulation.watchInvariants) reads only what is new between full
// passes, so that a look does not cost more as the logs grow; these hold it to its word.
describe('the invariant monitor of a live run (recheckIntervalMs 10,000)', () => {
  it('a leader log that lost its committed tail is caught at the next look', () => {
    const { d, monitor } = live();
    d.tamper((w) => {
      w.nodes.get(2)!.disk.partitions.get(tpKey('t', 0))!.log.entries.splice(2);
    });
    d.advance(500);
    expect(names(monitor.observe(d.sim))).toContain(INVARIANTS.committedRecordsKept);
  });

  it('a committed record rewritten in place, and a committed metadata record rewritten, are caught within 10 simulated seconds', () => {
    const { d, monitor } = live();
    d.tamper((w) => {
      const log = w.nodes.get(2)!.disk.partitions.get(tpKey('t', 0))!.log;
      log.entries[0] = { ...log.entries[0]!, id: 9_999 };
      const ctl = w.nodes.get(1)!;
      ctl.disk.metaLog.entries[0] = { ...ctl.disk.metaLog.entries[0]!, epoch: 99 };
    });
    const seen = new Set<string>();
    for (let t = 0; t < 10_000; t += 1000) {
      d.advance(1000);
      for (const v of monitor.observe(d.sim)) seen.add(v.invariant);
    }
    expect([...seen]).toContain(INVARIANTS.committedRecordsKept);
    expect([...seen]).toContain(INVARIANTS.committedMetadataKept);
  });

  it('a new leader is checked against every committed record at once', () => {
    const { d, monitor } = live();
    // Broker 3's copy loses offset 0's record before it is elected (a bug the full check would see).
    d.tamper((w) => {
      const log = w.nodes.get(3)!.disk.partitions.get(tpKey('t', 0))!.log;
      log.entries[0] = { ...log.entries[0]!, id: 9_999 };
    });
    d.crash(2);
    d.until((x) => x.partition('t').leader === 3 || x.partition('t').leader === 4, 20_000);
    if (d.partition('t').leader === 4)
      d.tamper((w) => {
        const log = w.nodes.get(4)!.disk.partitions.get(tpKey('t', 0))!.log;
        log.entries[0] = { ...log.entries[0]!, id: 9_999 };
      });
    expect(names(monitor.observe(d.sim))).toContain(INVARIANTS.committedRecordsKept);
  });
});

// On a cluster of many partitions (the worker's monitor samples above 500), a look between full
// passes checks only the partitions whose committed metadata moved; sampleAbovePartitions 0 makes
// the three-broker cluster such a cluster.
describe('the invariant monitor of a live run on many partitions (sampleAbovePartitions)', () => {
  const sampled = () => live({ sampleAbovePartitions: 0 });

  it('a committed record rewritten in place while the metadata stayed put is caught at the next full pass, not before', () => {
    const { d, monitor } = sampled();
    d.tamper((w) => {
      const log = w.nodes.get(2)!.disk.partitions.get(tpKey('t', 0))!.log;
      log.entries[0] = { ...log.entries[0]!, id: 9_999 };
    });
    d.advance(1000);
    expect(monitor.observe(d.sim)).toEqual([]);
    const seen = new Set<string>();
    for (let t = 0; t < 9_000; t += 1000) {
      d.advance(1000);
      for (const v of monitor.observe(d.sim)) seen.add(v.invariant);
    }
    expect([...seen]).toContain(INVARIANTS.committedRecordsKept);
  });

  it('a partition whose committed state changed is checked at once', () => {
    const { d, monitor } = sampled();
    d.tamper((w) => {
      const partitions = activeController(w)!.raft!.image.partitions;
      const p = partitions.get(tpKey('t', 0))!;
      partitions.set(tpKey('t', 0), { ...p, isr: [3, 4] });
    });
    expect(names(monitor.observe(d.sim))).toContain(INVARIANTS.leaderInIsr);
  });

  it('a new leader is checked against every committed record at once', () => {
    const { d, monitor } = sampled();
    for (const b of [3, 4])
      d.tamper((w) => {
        const log = w.nodes.get(b)!.disk.partitions.get(tpKey('t', 0))!.log;
        log.entries[0] = { ...log.entries[0]!, id: 9_999 };
      });
    d.crash(2);
    d.until((x) => x.partition('t').leader === 3 || x.partition('t').leader === 4, 20_000);
    expect(names(monitor.observe(d.sim))).toContain(INVARIANTS.committedRecordsKept);
  });

  it('finds nothing on a healthy run with a broker crash and return', () => {
    const { d, monitor } = sampled();
    d.crash(3);
    for (let i = 0; i < 30; i++) {
      d.advance(1000);
      if (i === 10) d.restart(3);
      expect(monitor.observe(d.sim)).toEqual([]);
    }
  });
});
