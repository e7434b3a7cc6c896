import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';

// Controller 1, brokers 2, 3, 4; one partition of `t` on [2, 3, 4] (2 is the preferred leader).
const threeBrokers = (minIsr: number) =>
  cluster({
    topics: [
      {
        name: 't',
        partitions: 1,
        replicationFactor: 3,
        assignment: [[2, 3, 4]],
        config: { 'min.insync.replicas': minIsr },
      },
    ],
  }).settle();

describe("a partition's log", () => {
  it('shows every replica with the same records by offset, its HW, LEO and leader epoch', () => {
    const d = threeBrokers(2);
    d.produce('t', 'a').produce('t', 'b').produce('t', 'c');
    d.until((x) => x.entry('c').status === 'acked', 5000).advance(1000);
    const log = d.sim.partitionLog('t', 0, 0, 10)!;
    expect(log.leader).toBe(2);
    expect(log.startOffset).toBe(0);
    expect(log.endOffset).toBe(3);
    expect(log.replicas.map((r) => [r.nodeId, r.role, r.logEndOffset, r.highWatermark])).toEqual([
      [2, 'leader', 3, 3],
      [3, 'follower', 3, 3],
      [4, 'follower', 3, 3],
    ]);
    for (const r of log.replicas) {
      expect(r.records.map((x) => [x.offset, x.value])).toEqual([
        [0, 'a'],
        [1, 'b'],
        [2, 'c'],
      ]);
      expect(r.epochs).toEqual([{ epoch: log.leaderEpoch, startOffset: 0 }]);
    }
  });

  it('answers only the window asked for', () => {
    const d = threeBrokers(2);
    for (let i = 0; i < 30; i++) d.produce('t', `v${i}`);
    d.until((x) => x.entry('v29').status === 'acked', 10000);
    const log = d.sim.partitionLog('t', 0, 10, 5)!;
    expect(log.replicas[0]!.records.map((x) => x.offset)).toEqual([10, 11, 12, 13, 14]);
    expect(log.endOffset).toBe(30);
    expect(d.sim.partitionLog('nope', 0, 0, 5)).toBeNull();
  });

  it('keeps what a truncation removed, with its LogTruncated event, and a new epoch boundary', () => {
    const d = threeBrokers(1);
    d.produce('t', 'kept', 1).until((x) => x.partition('t').highWatermark === 1, 5000);
    d.cut(3, 2).cut(4, 2);
    d.produce('t', 'doomed', 1).until((x) => x.entry('doomed').status === 'acked', 5000);
    d.crash(2).heal();
    d.until((x) => [3, 4].includes(x.partition('t').leader), 20000).advance(100);
    d.produce('t', 'after', 1).until((x) => x.entry('after').status === 'acked', 5000);
    d.restart(2).until((x) => x.events('LogTruncated').some((e) => e.nodeId === 2), 20000);
    const truncation = d.events('LogTruncated').find((e) => e.nodeId === 2)!;
    d.advance(3000);
    const log = d.sim.partitionLog('t', 0, 0, 10)!;
    const old = log.replicas.find((r) => r.nodeId === 2)!;
    expect(old.truncated.map((t) => [t.offset, t.value, t.eventSeq])).toEqual([
      [1, 'doomed', truncation.seq],
    ]);
    // The new leader's epoch starts at offset 1, where 'after' went.
    expect(old.records.map((r) => r.value)).toEqual(['kept', 'after']);
    expect(old.epochs.at(-1)).toMatchObject({ startOffset: 1 });

    const journey = d.sim.recordJourney(d.entry('doomed').recordId)!;
    expect(journey.stages.map((s) => s.kind)).toEqual(
      expect.arrayContaining(['send', 'append', 'acknowledged', 'lost', 'truncated']),
    );
    expect(journey.stages.map((s) => s.kind)).not.toContain('replicate');
    expect(journey.stages.find((s) => s.kind === 'truncated')).toMatchObject({
      nodeId: 2,
      eventSeq: truncation.seq,
    });
  });
});

describe("a record's journey", () => {
  it('goes from send() through the batch, the append and both followers to the HW and the acknowledgement', () => {
    const d = threeBrokers(2);
    d.produce('t', 'hello').until((x) => x.entry('hello').status === 'acked', 5000);
    const journey = d.sim.recordJourney(d.entry('hello').recordId)!;
    const kinds = journey.stages.map((s) => s.kind);
    expect(kinds).toEqual([
      'send',
      'partition',
      'batch',
      'produce',
      'append',
      'replicate',
      'replicate',
      'highWatermark',
      'acknowledged',
    ]);
    expect(journey.stages[1]!.text).toContain('given explicitly');
    expect(journey.stages[2]!.text).toContain('closed by linger.ms');
    expect(journey.stages.find((s) => s.kind === 'append')!.text).toContain('at offset 0, leader epoch');
    expect(new Set(journey.stages.filter((s) => s.kind === 'replicate').map((s) => s.nodeId))).toEqual(
      new Set([3, 4]),
    );
    // Times never run backwards along the journey.
    const times = journey.stages.map((s) => s.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('names the key hash, the retries after a leader crash, and the group that read and committed it', () => {
    const d = threeBrokers(2);
    d.startConsumer('c1', 'billing', ['t']).advance(8000);
    d.crash(2).produce('t', 'during', 'all', { key: 'k', partition: undefined });
    d.until((x) => x.entry('during').status === 'acked', 60000).advance(12000);
    const journey = d.sim.recordJourney(d.entry('during').recordId)!;
    const kinds = journey.stages.map((s) => s.kind);
    expect(journey.stages.find((s) => s.kind === 'partition')!.text).toContain('murmur2(key) mod 1');
    expect(kinds.filter((k) => k === 'produce' || k === 'error').length).toBeGreaterThan(1);
    expect(journey.stages.find((s) => s.kind === 'fetch')!.text).toContain('group billing: consumer c1');
    expect(journey.stages.find((s) => s.kind === 'commit')!.text).toMatch(
      /group billing committed offset \d+/,
    );
    expect(kinds.indexOf('commit')).toBeGreaterThan(kinds.indexOf('fetch'));
  });

  it('does not change the run: the state hash is the same with or without looking', () => {
    const a = threeBrokers(2);
    const b = threeBrokers(2);
    for (const d of [a, b]) d.produce('t', 'x').advance(2000);
    a.sim.partitionLog('t', 0, 0, 100);
    a.sim.recordJourney(a.entry('x').recordId);
    a.advance(5000);
    b.advance(5000);
    expect(a.sim.stateHash()).toBe(b.sim.stateHash());
  });
});

describe("a partition's log with transactions", () => {
  it('shows an open transaction holding the LSO, then its markers at their offsets and an aborted one marked', () => {
    const d = threeBrokers(2);
    d.do({
      type: 'startProducer',
      producerId: 'tx',
      topic: 't',
      ratePerSec: 0,
      config: { 'transactional.id': 'app' },
    });
    d.until((x) => x.transactionOf('tx')?.state === 'READY', 20000);
    d.produce('t', 'plain');
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    d.do({ type: 'produce', producerId: 'tx', topic: 't', value: 'kept', key: null, partition: 0 });
    d.advance(2000);
    let leader = d.sim.partitionLog('t', 0, 0, 10)!.replicas.find((r) => r.role === 'leader')!;
    // The open transaction starts at offset 1: read_committed consumers stop there.
    expect([leader.highWatermark, leader.lastStableOffset]).toEqual([2, 1]);
    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionCommitted').length > 0, 10000).advance(1000);
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    d.do({ type: 'produce', producerId: 'tx', topic: 't', value: 'dropped', key: null, partition: 0 });
    d.advance(2000);
    d.do({ type: 'abortTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionAborted').length > 0, 10000).advance(1000);
    leader = d.sim.partitionLog('t', 0, 0, 10)!.replicas.find((r) => r.role === 'leader')!;
    const pid = d.transactionOf('tx')!.producerId;
    expect(
      leader.records.map((r) => [
        r.offset,
        r.control ?? r.value,
        r.transaction ?? null,
        r.control ? r.pid : null,
      ]),
    ).toEqual([
      [0, 'plain', null, null],
      [1, 'kept', 'open-or-committed', null],
      [2, 'COMMIT', null, pid],
      [3, 'dropped', 'aborted', null],
      [4, 'ABORT', null, pid],
    ]);
    expect(leader.lastStableOffset).toBe(leader.highWatermark);
  });
});
