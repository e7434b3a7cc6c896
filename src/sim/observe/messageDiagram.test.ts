import { describe, expect, it } from 'vitest';
import {
  MESSAGE_TRAIL_CHUNK,
  MESSAGE_TRAIL_MAX,
  cloneMessageTrail,
  entryBody,
  newMessageTrail,
  trailSend,
} from '../model/messageTrail';
import { createSimulation } from '../simulation';
import { cluster, clusterScenario } from '../testing/driver';

// Controller 1, brokers 2, 3, 4; one partition of `t` on [2, 3, 4] (2 is the preferred leader).
const threeBrokers = () =>
  cluster({
    topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
  }).settle();

describe('the message diagram', () => {
  it("shows a produce request from the producer to the partition's leader, with its body, and the answer", () => {
    const d = threeBrokers();
    const from = d.sim.nowMs;
    d.produce('t', 'a').until((x) => x.entry('a').status === 'acked', 5000);
    const view = d.sim.messageDiagram({ fromMs: from, toMs: d.sim.nowMs, categories: ['produce'] });
    const produce = view.messages.find((m) => m.kind === 'Produce')!;
    expect(produce.to).toBe(2);
    expect(typeof produce.from).toBe('string');
    expect(produce.atMs).toBeGreaterThanOrEqual(produce.sentMs);
    expect(produce.lost).toBeNull();
    expect(produce.partitions).toEqual(['t-0']);
    expect(Object.fromEntries(produce.fields)).toMatchObject({
      topic: 't',
      partition: '0',
      records: '1',
    });
    const answer = view.messages.find((m) => m.kind === 'ProduceResponse')!;
    expect([answer.from, answer.to]).toEqual([2, produce.from]);
    expect(view.messages.every((m) => m.category === 'produce')).toBe(true);
  });

  it('filters by partition: replica fetches of another topic are left out', () => {
    const d = cluster({
      topics: [
        { name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] },
        { name: 'u', partitions: 1, replicationFactor: 3, assignment: [[3, 4, 2]] },
      ],
    }).settle();
    const from = d.sim.nowMs;
    d.produce('u', 'x').advance(2000);
    const view = d.sim.messageDiagram({ fromMs: from, toMs: d.sim.nowMs, topic: 'u', partition: 0 });
    expect(view.messages.length).toBeGreaterThan(0);
    expect(view.messages.every((m) => m.partitions.includes('u-0'))).toBe(true);
    expect(view.messages.some((m) => m.kind === 'Fetch')).toBe(true);
  });

  it('marks a message lost on a cut link, and one sent to a crashed broker', () => {
    const d = threeBrokers();
    const from = d.sim.nowMs;
    d.cut(3, 2).advance(3000);
    const cut = d.sim.messageDiagram({ fromMs: from, toMs: d.sim.nowMs, categories: ['replication'] });
    const lost = cut.messages.filter((m) => m.lost === 'link cut');
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((m) => [m.from, m.to].sort().join() === '2,3')).toBe(true);
    d.heal();
    const crashAt = d.sim.nowMs;
    d.crash(4).advance(3000);
    const down = d.sim.messageDiagram({ fromMs: crashAt, toMs: d.sim.nowMs });
    expect(down.messages.some((m) => m.to === 4 && m.lost === 'receiver down')).toBe(true);
  });

  it('samples a dense window and says how, keeping every lost message', () => {
    const d = threeBrokers();
    const from = d.sim.nowMs;
    d.cut(3, 2).advance(20000);
    const all = d.sim.messageDiagram({ fromMs: from, toMs: d.sim.nowMs });
    const few = d.sim.messageDiagram({ fromMs: from, toMs: d.sim.nowMs, maxMessages: 60 });
    expect(all.matched).toBeGreaterThan(60);
    expect(few.matched).toBe(all.matched);
    expect(few.messages.length).toBeLessThan(all.messages.length);
    expect(few.sampled.length).toBeGreaterThan(0);
    for (const s of few.sampled) {
      expect(s.every).toBeGreaterThan(1);
      const shown = few.messages.filter((m) => m.category === s.category && m.lost === null).length;
      expect(shown).toBe(Math.ceil(s.total / s.every));
    }
    const lostAll = all.messages.filter((m) => m.lost !== null).map((m) => m.id);
    expect(few.messages.filter((m) => m.lost !== null).map((m) => m.id)).toEqual(lostAll);
  });

  it('is left out of the state hash and the same after a checkpoint copy', () => {
    const a = createSimulation(clusterScenario());
    a.advance(5000);
    const b = a.clone();
    const before = a.stateHash();
    const view = a.messageDiagram({ fromMs: 0, toMs: 5000 });
    expect(b.messageDiagram({ fromMs: 0, toMs: 5000 })).toEqual(view);
    b.advance(1000);
    // The copy went on; the original's trail did not change with it.
    expect(a.messageDiagram({ fromMs: 0, toMs: 5000 })).toEqual(view);
    expect(a.stateHash()).toBe(before);
  });
});

describe('the message trail', () => {
  it('keeps about MESSAGE_TRAIL_MAX entries (within a chunk), dropping the oldest', () => {
    const t = newMessageTrail();
    const body = { kind: 'Metadata' as const, topics: [] };
    for (let i = 0; i < MESSAGE_TRAIL_MAX * 2; i++) trailSend(t, i, i, i + 1, 1, 2, body);
    const kept = t.chunks.reduce((n, c) => n + c.length, 0);
    expect(kept).toBeLessThanOrEqual(MESSAGE_TRAIL_MAX + MESSAGE_TRAIL_CHUNK);
    expect(kept).toBeGreaterThanOrEqual(MESSAGE_TRAIL_MAX - MESSAGE_TRAIL_CHUNK);
    const last = t.chunks[t.chunks.length - 1]!;
    expect(last.seq[last.length - 1]).toBe(MESSAGE_TRAIL_MAX * 2 - 1);
  });

  it("keeps a checkpoint's copy as it was while the live trail goes on past its bound", () => {
    const t = newMessageTrail();
    const body = (i: number) => ({ kind: 'Metadata' as const, topics: [`t${i}`] });
    for (let i = 0; i < MESSAGE_TRAIL_MAX; i++) trailSend(t, i, i, i + 1, 1, `producer-${i % 3}`, body(i));
    const copy = cloneMessageTrail(t);
    const before = copy.chunks.map((c) => [...c.seq.subarray(0, c.length)]);
    // The live trail lets go of every chunk it shared and fills new ones.
    for (let i = MESSAGE_TRAIL_MAX; i < MESSAGE_TRAIL_MAX * 3; i++) trailSend(t, i, i, i + 1, 2, 1, body(i));
    expect(copy.chunks.map((c) => [...c.seq.subarray(0, c.length)])).toEqual(before);
    const last = copy.chunks[copy.chunks.length - 1]!;
    expect(entryBody(last, last.length - 1)).toEqual(body(MESSAGE_TRAIL_MAX - 1));
  });
});
