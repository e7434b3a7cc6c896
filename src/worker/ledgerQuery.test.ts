import { assert, describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { createSimulation } from '../sim';
import { answerLedgerQuery, MAX_ATTEMPTS_SENT } from './ledgerQuery';

describe('answering a getLedger', () => {
  it("says how many of the producer's failed sends the bounded ledger no longer keeps", () => {
    const sim = createSimulation(defaultScenario);
    sim.advance(1000);
    const source = {
      ledger: () => sim.ledger(),
      lostAcknowledged: () => sim.lostAcknowledged(),
      failedDropped: () =>
        new Map([
          ['p1', 5],
          ['p2', 2],
        ]),
    };
    expect(answerLedgerQuery(source, 1, { producerId: 'p1' }).failedDropped).toBe(5);
    expect(answerLedgerQuery(source, 2, {}).failedDropped).toBe(7);
    expect(answerLedgerQuery(sim, 3, { producerId: 'p1' }).failedDropped).toBeUndefined();
  });

  it('sends the latest matching entries, oldest first, and counts every match', () => {
    const sim = createSimulation(defaultScenario);
    sim.advance(10_000);
    sim.apply({ type: 'produce', topic: 'orders', partition: 0, value: 'a', count: 3, producerId: 'p1' });
    sim.apply({ type: 'produce', topic: 'orders', partition: 1, value: 'b', count: 2, producerId: 'p2' });
    sim.advance(1000);

    const reply = answerLedgerQuery(sim, 7, { producerId: 'p1', limit: 2 });
    expect(reply).toMatchObject({ type: 'ledger', id: 7, matched: 3 });
    expect(reply.entries.map((e) => e.value)).toEqual(['a-1', 'a-2']);
    expect(reply.entries.every((e) => e.status === 'acked' && e.offset >= 0)).toBe(true);
    expect(
      answerLedgerQuery(sim, 8, { topic: 'orders', partition: 1, producerId: 'p2' }).entries,
    ).toHaveLength(2);
    expect(reply.lostAcknowledged).toEqual([]);
  });

  it('copies the entries, with only the latest attempts of a record retried many times', () => {
    const sim = createSimulation(defaultScenario);
    sim.advance(10_000);
    const p0 = sim.snapshot().partitions.find((p) => p.topic === 'orders' && p.partition === 0)!;
    for (const broker of p0.replicas.filter((id) => id !== p0.leader))
      sim.apply({ type: 'crashNode', nodeId: broker });
    sim.advance(20_000);
    sim.apply({ type: 'produce', topic: 'orders', partition: 0, value: 'v', acks: 'all', producerId: 'p' });
    sim.advance(10_000);

    const [entry] = answerLedgerQuery(sim, 1, { producerId: 'p' }).entries;
    assert(entry, "the query returns p's record");
    expect(entry.error).toBe('NOT_ENOUGH_REPLICAS');
    expect(entry.attempts.length).toBeLessThanOrEqual(MAX_ATTEMPTS_SENT);
    entry.attempts.length = 0;
    expect(sim.ledger().find((e) => e.producerId === 'p')!.attempts.length).toBeGreaterThan(0);
  });
});
