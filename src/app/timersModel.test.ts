// The countdowns' view model (src/store/timers.ts) over the engine's real snapshots: what a card
// draws while a broker's heartbeat, a follower's lag or a producer's request runs towards its limit.
import { assert, describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { createSimulation } from '../sim';
import { nodeKey, producerKey } from '../store/canvas';
import { EXPIRED_LINGER_MS, limitSeconds, seconds, selectTimers } from '../store/timers';

const [firstBroker] = defaultScenario.nodes.filter((n) => n.roles.includes('broker')).map((n) => n.id);
assert(firstBroker !== undefined, 'the default scenario has brokers');

describe('a healthy cluster', () => {
  const sim = createSimulation(defaultScenario);
  sim.advance(15_000);

  it('draws no countdown at all', () => {
    for (let i = 0; i < 20; i++) {
      sim.advance(250);
      expect([...selectTimers(sim.snapshot(), null).keys()]).toEqual([]);
    }
  });

  it('draws the heartbeat clock of a selected broker, which resets on every heartbeat', () => {
    const id = firstBroker;
    const ages: number[] = [];
    for (let i = 0; i < 30; i++) {
      sim.advance(100);
      const shown = selectTimers(sim.snapshot(), { kind: 'broker', id }).get(nodeKey(id))!.shown;
      expect(shown.map((c) => c.kind)).toEqual(['heartbeat']);
      ages.push(shown[0]?.elapsedMs ?? NaN);
    }
    expect(Math.max(...ages)).toBeLessThanOrEqual(2100);
    // It fell back to (almost) zero at least once: a heartbeat arrived.
    expect(ages.some((age, i) => i > 0 && age < (ages[i - 1] ?? age))).toBe(true);
  });
});

describe('a broker crashes', () => {
  const sim = createSimulation(defaultScenario);
  sim.advance(15_000);
  const crashed = firstBroker;
  sim.apply({ type: 'crashNode', nodeId: crashed });
  const heartbeat = () => selectTimers(sim.snapshot(), null).get(nodeKey(crashed))?.shown[0];

  it('its card counts the time since its last heartbeat against broker.session.timeout.ms, then says it is fenced', () => {
    sim.advance(4000);
    const running = heartbeat()!;
    expect(running).toMatchObject({ kind: 'heartbeat', limitMs: 9000, expired: false });
    expect(running.elapsedMs).toBe(
      sim.snapshot().timeMs - sim.snapshot().nodes.find((n) => n.id === crashed)!.lastHeartbeatMs!,
    );
    expect(running.text).toBe(`${seconds(running.elapsedMs)} / 9 s`);
    expect(running.label).toMatch(
      /^last heartbeat \d+\.\d s ago of broker\.session\.timeout\.ms 9 s; then the active controller fences the broker$/,
    );
    let last = running.elapsedMs;
    while (!sim.events().some((e) => e.type === 'BrokerFenced' && e.nodeId === crashed)) {
      sim.advance(100);
      const c = heartbeat()!;
      expect(c.elapsedMs).toBeGreaterThan(last);
      last = c.elapsedMs;
    }
    const fenced = heartbeat()!;
    expect(fenced.expired).toBe(true);
    expect(fenced.fraction).toBe(1);
    expect(fenced.label).toMatch(/the active controller fenced the broker$/);
    sim.advance(EXPIRED_LINGER_MS + 200);
    // Once the moment has passed, the CRASHED and FENCED marks tell the rest.
    expect(heartbeat()).toBeUndefined();
  });

  it("the producer's oldest request waits for the fencing (acks=all), counted against request.timeout.ms", () => {
    const sim2 = createSimulation(defaultScenario);
    sim2.advance(15_000);
    sim2.apply({ type: 'crashNode', nodeId: crashed });
    let longest = 0;
    for (let i = 0; i < 90; i++) {
      sim2.advance(100);
      const [producer] = sim2.snapshot().clients.producers;
      assert(producer, 'the default scenario has a producer');
      const request = selectTimers(sim2.snapshot(), null)
        .get(producerKey(producer.id))
        ?.shown.find((c) => c.kind === 'request');
      if (request) {
        expect(request.limitMs).toBe(30000);
        expect(request.label).toMatch(
          /^oldest request to broker \d+ sent \d+\.\d s ago of request\.timeout\.ms 30 s/,
        );
        longest = Math.max(longest, request.elapsedMs);
      }
    }
    expect(longest).toBeGreaterThan(3000);
  });
});

describe("a follower's fetches are cut while the producer writes", () => {
  it('the follower counts the time since it was last caught up against replica.lag.time.max.ms, until the ISR shrinks', () => {
    const sim = createSimulation(defaultScenario);
    sim.advance(15_000);
    const p = sim.snapshot().partitions.find((x) => x.topic === 'orders' && x.partition === 0)!;
    const follower = p.replicas.find((r) => r !== p.leader)!;
    sim.apply({ type: 'cutLink', from: follower, to: p.leader, oneWay: true });
    const lag = () =>
      selectTimers(sim.snapshot(), null)
        .get(nodeKey(follower))
        ?.shown.find((c) => c.key === 'lag:orders-0');
    sim.advance(2000);
    expect(lag()).toBeUndefined(); // under SHOW_FRACTION of 30 s
    sim.advance(8000);
    const c = lag()!;
    expect(c).toMatchObject({
      kind: 'replicaLag',
      limitMs: 30000,
      expired: false,
      config: 'replica.lag.time.max.ms',
    });
    expect(c.label).toMatch(
      new RegExp(
        `^orders-0 last caught up \\d+\\.\\d s ago of replica\\.lag\\.time\\.max\\.ms 30 s; then leader ${p.leader} removes it from the ISR$`,
      ),
    );
    while (!sim.events().some((e) => e.type === 'IsrShrunk' && e.partition === 0 && e.topic === 'orders')) {
      sim.advance(200);
      expect(sim.nowMs).toBeLessThan(80_000);
    }
    expect(lag()).toBeUndefined();
    expect(
      sim.snapshot().partitions.find((x) => x.topic === 'orders' && x.partition === 0)!.isr,
    ).not.toContain(follower);
  });
});

describe('seconds', () => {
  it('shows a running clock with one decimal and a limit with as few as it needs', () => {
    expect(seconds(8000)).toBe('8.0 s');
    expect(seconds(4249)).toBe('4.2 s');
    expect(seconds(75_400)).toBe('75 s');
    expect(limitSeconds(9000)).toBe('9 s');
    expect(limitSeconds(15000)).toBe('15 s');
    expect(limitSeconds(500)).toBe('0.5 s');
  });
});
