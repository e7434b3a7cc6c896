import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';
import { CLIENT_HISTORY_MAX } from './clientHistory';

// Controller 1, brokers 2, 3, 4; `t`-0 led by broker 2. Producer `p` times out fast.
const withProducer = () =>
  cluster({
    topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
  })
    .settle()
    .do({
      type: 'startProducer',
      producerId: 'p',
      topic: 't',
      ratePerSec: 0,
      config: { 'request.timeout.ms': 1000, 'delivery.timeout.ms': 3000, 'linger.ms': 0 },
    })
    .advance(500);

describe('the client history', () => {
  it('shows an acknowledged send, and an indefinite one whose answer was lost but which landed', () => {
    const d = withProducer();
    const from = d.sim.nowMs;
    d.produce('t', 'a', 'all', { producerId: 'p' }).until((x) => x.entry('a').status === 'acked', 5000);
    // The leader's answers to p are lost: the write commits, but p never hears so.
    d.cut(2, 'p', { oneWay: true });
    d.produce('t', 'b', 'all', { producerId: 'p' }).until((x) => x.entry('b').status === 'failed', 10_000);
    const history = d.sim.clientHistory(from, d.sim.nowMs);
    const sends = history.producers.find((p) => p.producerId === 'p')!.sends;
    const a = sends.find((s) => s.value === 'a')!;
    const b = sends.find((s) => s.value === 'b')!;
    expect(a).toMatchObject({ outcome: 'acknowledged', landedOffset: 0 });
    expect(b.outcome).toBe('indefinite');
    expect(b.landedOffset).toBe(1);
    expect(history.counts).toMatchObject({ acknowledged: 1, indefinite: 1 });
  });

  it('calls a send failed when every answer was an error: nothing was written', () => {
    const d = withProducer();
    d.do({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: 't',
      configs: { 'min.insync.replicas': 3 },
    });
    // Broker 4 fenced and out of the ISR: the leader refuses acks=all with NOT_ENOUGH_REPLICAS.
    d.crash(4).advance(15_000);
    const from = d.sim.nowMs;
    d.produce('t', 'c', 'all', { producerId: 'p' }).until((x) => x.entry('c').status === 'failed', 10_000);
    const c = d.sim.clientHistory(from, d.sim.nowMs).producers[0]!.sends.find((s) => s.value === 'c')!;
    expect(c).toMatchObject({ outcome: 'failed', landedOffset: -1 });
  });

  it('keeps the indefinite send when the window holds more sends than it draws, and counts them all', () => {
    const d = withProducer();
    const from = d.sim.nowMs;
    d.cut(2, 'p', { oneWay: true });
    d.produce('t', 'b', 'all', { producerId: 'p' }).until((x) => x.entry('b').status === 'failed', 10_000);
    d.heal();
    // A second producer then sends twice the history's bound, every one acknowledged.
    d.do({ type: 'startProducer', producerId: 'q', topic: 't', ratePerSec: 400, config: { 'linger.ms': 0 } });
    d.advance((2 * CLIENT_HISTORY_MAX * 1000) / 400 + 1000);
    const history = d.sim.clientHistory(from, d.sim.nowMs);
    const drawn = history.producers.reduce((n, p) => n + p.sends.length, 0);
    expect(drawn).toBe(CLIENT_HISTORY_MAX);
    expect(history.counts.indefinite).toBe(1);
    expect(history.counts.acknowledged).toBeGreaterThan(2 * CLIENT_HISTORY_MAX - 50);
    expect(history.omitted).toBe(
      history.counts.acknowledged + history.counts.indefinite + history.counts.pending - CLIENT_HISTORY_MAX,
    );
    const b = history.producers.find((p) => p.producerId === 'p')!.sends.find((s) => s.value === 'b')!;
    expect(b).toMatchObject({ outcome: 'indefinite', landedOffset: 0 });
    // What is drawn is in the order of send().
    const sent = history.producers.find((p) => p.producerId === 'q')!.sends.map((s) => s.sentMs);
    expect(sent).toEqual([...sent].sort((x, y) => x - y));
  });
});
