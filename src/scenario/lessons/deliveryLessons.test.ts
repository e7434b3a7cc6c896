// Judging tests of lessons 14 (a record from send() to commit) and 15 (delivery guarantees): each
// prediction's right answer is accepted whenever the learner reads, and what the reveals say is what
// the simulator did.
import { describe, expect, it } from 'vitest';
import { nextInt, seedRng } from '../../sim';
import { lessonById } from './library';
import { runLesson } from './runner';

const LESSONS = ['message-lifecycle', 'delivery-guarantees'] as const;

describe.each(LESSONS)('lesson %s: every right answer is accepted', (id) => {
  const lesson = lessonById(id)!;

  it('for a learner who answers at once (seed of the scenario)', () => {
    const run = runLesson(lesson);
    expect(run.problems).toEqual([]);
    const predicted = lesson.steps.filter((s) => s.predict).map((s) => s.id);
    expect(predicted.length).toBeGreaterThanOrEqual(3);
    for (const step of run.steps)
      if (predicted.includes(step.id)) expect(step.answerHeld, step.id).toBe(true);
  });

  // The clock may run for up to 100 simulated seconds before an answer (a learner who pressed play).
  for (const seed of [11, 12, 13, 14, 15, 16, 17, 18]) {
    it(`for a learner who lets the clock run before answering (thinking seed ${seed})`, () => {
      const rng = seedRng(seed);
      const run = runLesson(lesson, { thinkMs: () => nextInt(rng, 100_001) });
      expect(run.problems).toEqual([]);
    });
  }
});

describe('lesson message-lifecycle: what the reveals say', () => {
  const { sim } = runLesson(lessonById('message-lifecycle')!);

  it('puts every record of key customer-42 in orders-0, in the order sent', () => {
    const shop = sim.ledger().filter((e) => e.producerId === 'shop');
    expect(shop.map((e) => [e.value, e.partition, e.offset, e.status])).toEqual([
      ['order-1', 0, 0, 'acked'],
      ['order-2', 0, 1, 'acked'],
      ['order-3', 0, 2, 'acked'],
    ]);
  });

  it("shows order-3's journey stage by stage, from send() to the commit that covers it", () => {
    const order3 = sim.ledger().find((e) => e.value === 'order-3')!;
    const journey = sim.recordJourney(order3.recordId)!;
    const kinds = journey.stages.map((s) => s.kind);
    // Each stage once, in Kafka's order (the followers each fetch it: two replicate stages); the
    // acknowledgement and billing's fetch both follow the HW, in either order.
    const once = kinds.filter((k) => k !== 'replicate');
    expect(once.slice(0, 6)).toEqual(['send', 'partition', 'batch', 'produce', 'append', 'highWatermark']);
    expect(once.slice(6, 8).sort()).toEqual(['acknowledged', 'fetch']);
    expect(once.slice(8)).toEqual(['commit']);
    expect(kinds.filter((k) => k === 'replicate')).toHaveLength(2);
    const at = (kind: string) => journey.stages.find((s) => s.kind === kind)!.atMs;
    // linger.ms: the batch closes 100 ms after send(); the HW passes it only after the followers' fetch.
    expect(at('batch') - at('send')).toBeGreaterThanOrEqual(100);
    expect(at('highWatermark') - at('append')).toBeGreaterThanOrEqual(300);
    expect(at('acknowledged')).toBeGreaterThanOrEqual(at('highWatermark'));
    expect(at('fetch')).toBeGreaterThanOrEqual(at('highWatermark'));
    expect(journey.stages.find((s) => s.kind === 'append')!.text).toMatch(/offset 2, leader epoch 0/);
  });
});

describe('lesson delivery-guarantees: what the reveals say', () => {
  const { sim } = runLesson(lessonById('delivery-guarantees')!);

  it('at most once: the acks=0 records are counted as sent and none is in the log', () => {
    const fire = sim.ledger().filter((e) => e.producerId === 'fire');
    expect(fire).toHaveLength(10);
    expect(fire.every((e) => e.status === 'acked' && e.offset < 0)).toBe(true);
    expect(sim.committedRecords('orders', 0).some((r) => r.value.startsWith('fire'))).toBe(false);
  });

  it('at least once: app-2 processes offsets 5 to 9 a second time, and nothing is skipped', () => {
    // The first 15 reads (app-2 then goes on with the orders of the last steps).
    const read = sim
      .consumedRecords('invoicing')
      .slice(0, 15)
      .map((r) => `${r.consumerId}@${r.offset}`);
    const invoicing = sim.snapshot().clients.deliveries.find((d) => d.groupId === 'invoicing')!;
    expect([invoicing.duplicates, invoicing.missed]).toEqual([5, 0]);
    expect(read).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((o) => `app-1@${o}`),
      ...[5, 6, 7, 8, 9].map((o) => `app-2@${o}`),
    ]);
  });

  it('exactly once: read_committed never returns an aborted invoice; read_uncommitted did', () => {
    const values = (group: string) => sim.consumedRecords(group).map((r) => r.value);
    expect(values('committed-reader')).toEqual(['paid-0', 'paid-1', 'paid-2']);
    expect(values('uncommitted-reader')).toEqual([
      'invoice-0',
      'invoice-1',
      'invoice-2',
      'paid-0',
      'paid-1',
      'paid-2',
    ]);
  });

  it("exactly once to the end: after a crash mid-transaction, the read_committed auditor reads each order's receipt once", () => {
    const inputs = sim.committedRecords('orders', 0).map((r) => r.value);
    const receipts = sim.consumedRecords('auditor').map((r) => r.value);
    // One receipt per order, the input's value behind an arrow, none twice, none missing.
    expect(receipts.length).toBe(inputs.length);
    expect(new Set(receipts).size).toBe(receipts.length);
    expect([...receipts].sort()).toEqual(inputs.map((v) => `→${v}`).sort());
    // The crash came with receipts of an open transaction in the log: the new instance fenced it and
    // aborted them, and only the read_uncommitted peeker returned them.
    const fenced = sim.events().filter((e) => e.type === 'TransactionFencedOnInit');
    expect(fenced).toHaveLength(1);
    const peeked = sim.consumedRecords('peeker').map((r) => r.value);
    expect(peeked.length).toBeGreaterThanOrEqual(receipts.length + 5);
    expect(new Set(peeked)).toEqual(new Set(receipts));
  });
});
