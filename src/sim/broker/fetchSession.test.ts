// Consumer fetch sessions (KIP-227): after one full fetch, the leader keeps the session's partitions
// and their fetch offsets, so the consumer's next fetches name only what changed; a session the
// leader no longer has is refused with FETCH_SESSION_ID_NOT_FOUND and the consumer opens a new one.
import { describe, expect, it } from 'vitest';
import type { Body } from '../model/messages';
import { cluster } from '../testing/driver';

type ConsumerFetch = Extract<Body, { kind: 'ConsumerFetch' }>;

/** Six partitions, all led by broker 2, read by one consumer from the start. */
function sixOnOneLeader() {
  const d = cluster({
    seed: 5,
    config: { 'offsets.topic.num.partitions': 1 },
    topics: [
      {
        name: 't',
        partitions: 6,
        replicationFactor: 2,
        assignment: Array.from({ length: 6 }, () => [2, 3]),
      },
    ],
  }).settle();
  d.startConsumer('c', 'g', ['t'], { 'auto.offset.reset': 'earliest' });
  for (let p = 0; p < 6; p++)
    d.do({ type: 'produce', topic: 't', partition: p, key: null, value: `v${p}`, acks: 'all' });
  d.until((x) => x.sim.consumedRecords('g').length === 6, 30000);
  d.advance(1000);
  return d;
}

/** Runs until the consumer sends its next fetch to broker 2, and returns it. */
function nextFetch(d: ReturnType<typeof sixOnOneLeader>): ConsumerFetch {
  return d.nextSent('ConsumerFetch', 2).body;
}

describe('consumer fetch sessions (KIP-227)', () => {
  it('after the full fetch, a fetch names only the partition whose position moved', () => {
    const d = sixOnOneLeader();
    const session = [...d.fetchSessions(2).values()];
    expect(session).toHaveLength(1);
    expect(session[0]!.parts.map((p) => [p.partition, p.fetchOffset])).toEqual(
      [0, 1, 2, 3, 4, 5].map((p) => [p, 1]),
    );

    d.do({ type: 'produce', topic: 't', partition: 4, key: null, value: 'w', acks: 'all' });
    const f = nextFetch(d);
    expect(f.sessionId).toBe(session[0]!.id);
    expect(f.sessionEpoch).toBeGreaterThan(0);
    expect(f.parts.map((p) => [p.partition, p.fetchOffset])).toEqual([[4, 2]]);
    expect(f.forgotten).toEqual([]);
    d.until((x) => x.sim.consumedRecords('g').length === 7, 5000).advance(20); // that fetch reaches the leader
    expect(session[0]!.parts.find((p) => p.partition === 4)!.fetchOffset).toBe(2);
  });

  it('an idle session long-polls with fetches that name no partition, each at the next session epoch, until a record arrives', () => {
    const d = sixOnOneLeader();
    const epochs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const f = nextFetch(d);
      expect([f.parts, f.forgotten]).toEqual([[], []]);
      epochs.push(f.sessionEpoch);
      d.advance(1);
    }
    expect(epochs[1]! - epochs[0]!).toBe(1);
    expect(epochs[2]! - epochs[1]!).toBe(1);
    d.do({ type: 'produce', topic: 't', partition: 2, key: null, value: 'z', acks: 'all' });
    expect(nextFetch(d).parts.map((p) => [p.partition, p.fetchOffset])).toEqual([[2, 2]]);
  });

  it('a session the leader evicted is refused with FETCH_SESSION_ID_NOT_FOUND; the consumer opens a new one and misses nothing', () => {
    const d = sixOnOneLeader();
    const sessions = d.fetchSessions(2);
    const [old] = [...sessions.keys()];
    sessions.clear(); // the FetchSessionCache evicted it

    d.do({ type: 'produce', topic: 't', partition: 1, key: null, value: 'x', acks: 'all' });
    d.do({ type: 'produce', topic: 't', partition: 5, key: null, value: 'y', acks: 'all' });
    let refusals = 0;
    const replies = () => d.onWire('ConsumerFetchResponse', 'c');
    const counted = new Set<number>();
    for (let steps = 0; d.sim.consumedRecords('g').length < 8 && steps < 200000; steps++) {
      d.sim.step();
      for (const r of replies())
        if (!counted.has(r.reqId) && r.body.error) {
          counted.add(r.reqId);
          expect(r.body.error).toBe('FETCH_SESSION_ID_NOT_FOUND');
          refusals++;
        }
    }
    expect(refusals).toBe(1);
    const values = d.sim.consumedRecords('g').map((r) => r.value);
    expect(values.slice(6).sort()).toEqual(['x', 'y']);
    expect(new Set(values).size).toBe(8);
    const now = [...sessions.values()];
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(old);
    expect(now[0]!.parts).toHaveLength(6);
  });
});
