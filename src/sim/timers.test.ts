// The clocks behind the canvas's countdowns: what the snapshot says about each timer, and that the
// engine acts when the timer runs out, as Kafka does.
import { assert, describe, expect, it } from 'vitest';
import { createSimulation } from './index';
import { cluster, clusterScenario } from './testing/driver';
import type { Snapshot } from './model/views';

// Controller 1, brokers 2, 3, 4; one partition of `t` on [2, 3, 4] (2 is the preferred leader).
const threeBrokers = (controllers = 1) =>
  cluster({
    controllers,
    brokerIds: [controllers + 1, controllers + 2, controllers + 3],
    topics: [
      {
        name: 't',
        partitions: 1,
        replicationFactor: 3,
        assignment: [[controllers + 1, controllers + 2, controllers + 3]],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }).settle();

const replicaLog = (s: Snapshot, brokerId: number) =>
  s.partitions.find((p) => p.topic === 't')!.replicaLogs.find((l) => l.brokerId === brokerId)!;

describe('the timeouts behind the countdowns', () => {
  it('are in the snapshot with Kafka defaults', () => {
    expect(threeBrokers().sim.snapshot().timeouts).toEqual({
      brokerSessionTimeoutMs: 9000,
      brokerHeartbeatIntervalMs: 2000,
      replicaLagTimeMaxMs: 30000,
      controllerQuorumFetchTimeoutMs: 2000,
    });
  });

  it("and the scenario's own values", () => {
    const d = cluster({ config: { 'broker.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10000 } });
    expect(d.sim.snapshot().timeouts).toMatchObject({
      brokerSessionTimeoutMs: 6000,
      replicaLagTimeMaxMs: 10000,
    });
  });
});

describe('a broker crashes: its heartbeat age grows until broker.session.timeout.ms fences it', () => {
  it('keeps the last heartbeat the active controller heard, and fences just after 9 s of silence', () => {
    const d = threeBrokers();
    const crashedAtMs = d.sim.nowMs;
    const heardAtMs = d.node(4).lastHeartbeatMs!;
    expect(crashedAtMs - heardAtMs).toBeLessThanOrEqual(2000 + 5);
    d.crash(4).advance(5000);
    // No heartbeat since the crash: the time stays, so the age is the snapshot's time minus it.
    expect(d.node(4).lastHeartbeatMs).toBe(heardAtMs);
    expect(d.sim.snapshot().timeMs - heardAtMs).toBeGreaterThan(5000);
    expect(d.node(4).fenced).toBe(false);
    d.until((x) => x.events('BrokerFenced').some((e) => e.nodeId === 4), 15000, 1);
    const fenced = d.expectEvent('BrokerFenced', (e) => e.nodeId === 4);
    // The fence check runs at the last heartbeat + 9 s + 1 ms; its record commits a few ms later.
    expect(fenced.timeMs - heardAtMs).toBeGreaterThan(9000);
    expect(fenced.timeMs - heardAtMs).toBeLessThan(9000 + 50);
    // Fencing came less than 9 s after the crash: the count runs from the last heartbeat.
    expect(fenced.timeMs - crashedAtMs).toBeLessThan(9000 + 50);
  });

  it('a running broker is heard every broker.heartbeat.interval.ms', () => {
    const d = threeBrokers();
    for (let i = 0; i < 20; i++) {
      d.advance(500);
      const s = d.sim.snapshot();
      for (const id of [2, 3, 4])
        expect(s.timeMs - d.node(id).lastHeartbeatMs!).toBeLessThanOrEqual(2000 + 10);
    }
  });
});

describe('a follower whose fetches are cut: its lag grows until the ISR shrinks at replica.lag.time.max.ms', () => {
  it('an idle partition keeps the follower caught up, with no lag clock at all', () => {
    const d = threeBrokers().produce('t', 'first').advance(2000);
    d.cut(4, 2, { oneWay: true }).advance(40000);
    // Kafka's isCaughtUp: a follower at the leader's log end is in sync whatever the time.
    expect(replicaLog(d.sim.snapshot(), 4).lastCaughtUpAtMs).toBeUndefined();
    expect(d.partition('t').isr).toEqual([2, 3, 4]);
  });

  it('shows when the leader last saw it caught up, and the ISR shrinks once that is over 30 s ago', () => {
    const d = threeBrokers().produce('t', 'first').advance(2000);
    d.cut(4, 2, { oneWay: true }).advance(100);
    d.produce('t', 'second', 1).advance(1000);
    const s = d.sim.snapshot();
    const caughtUpAtMs = replicaLog(s, 4).lastCaughtUpAtMs!;
    expect(caughtUpAtMs).toBeLessThanOrEqual(s.timeMs - 1000);
    // Broker 3 fetched the new record: caught up, so no clock; the leader never has one.
    expect(replicaLog(s, 3).lastCaughtUpAtMs).toBeUndefined();
    expect(replicaLog(s, 2).lastCaughtUpAtMs).toBeUndefined();
    d.until((x) => x.events('IsrShrunk').length > 0, 60000, 5);
    const shrunk = d.expectEvent('IsrShrunk');
    // The leader checks every replica.lag.time.max.ms / 2: the shrink comes between 30 and 45 s.
    expect(shrunk.timeMs - caughtUpAtMs).toBeGreaterThan(30000);
    expect(shrunk.timeMs - caughtUpAtMs).toBeLessThan(45000 + 50);
    // Until then the clock stood still (no fetch reached the leader); out of the ISR it is gone.
    expect(d.partition('t').isr).toEqual([2, 3]);
    expect(replicaLog(d.sim.snapshot(), 4).lastCaughtUpAtMs).toBeUndefined();
  });
});

describe("a producer's oldest request runs against request.timeout.ms, its record against delivery.timeout.ms", () => {
  it('the answer never comes: REQUEST_TIMED_OUT at 30 s, retries, and the record fails at 120 s', () => {
    const d = threeBrokers();
    // An idle producer that already has its metadata, then only broker 2's answers to it are lost.
    d.do({ type: 'startProducer', producerId: 'producer-1', topic: 't', ratePerSec: 0 }).advance(1000);
    d.cut(2, 'producer-1', { oneWay: true });
    d.produce('t', 'lost-answer', 'all', { producerId: 'producer-1' }).advance(500);
    const producer = () => d.sim.snapshot().clients.producers.find((p) => p.id === 'producer-1')!;
    const first = producer();
    expect(first.oldestRequestBrokerId).toBe(2);
    expect(first.oldestRecordSentAtMs).toBe(d.entry('lost-answer').sentAtMs);
    const sentAtMs = first.oldestRequestSentAtMs!;
    d.advance(20000);
    expect(producer().oldestRequestSentAtMs).toBe(sentAtMs);
    d.until(() => producer().oldestRequestSentAtMs !== sentAtMs, 20000, 1);
    expect(d.entry('lost-answer').attempts[0]?.error).toBe('REQUEST_TIMED_OUT');
    expect(d.sim.nowMs - sentAtMs).toBeGreaterThanOrEqual(30000);
    d.until(() => d.entry('lost-answer').status !== 'pending', 200000, 50);
    expect(d.entry('lost-answer').status).toBe('failed');
    expect(d.sim.nowMs - first.oldestRecordSentAtMs!).toBeGreaterThanOrEqual(120000);
    expect(producer().oldestRecordSentAtMs).toBeNull();
    expect(producer().oldestRequestSentAtMs).toBeNull();
  });
});

describe('the quorum leader crashes: a follower counts controller.quorum.fetch.timeout.ms from its last fetch', () => {
  it('is null while fetches come on time, then holds the last fetch until the follower gives up on its leader', () => {
    const d = threeBrokers(3);
    const voters = () => d.sim.snapshot().quorum.voters;
    for (let i = 0; i < 10; i++) {
      d.advance(137);
      expect(voters().every((v) => v.lastFetchOkMs === null)).toBe(true);
    }
    const leader = d.sim.snapshot().quorum.leaderId!;
    d.crash(leader).advance(1500);
    const followers = voters().filter((v) => v.id !== leader && v.state === 'follower');
    expect(followers.length).toBe(2);
    for (const f of followers) expect(d.sim.nowMs - f.lastFetchOkMs!).toBeGreaterThan(1000);
    const [watched] = followers;
    assert(watched, 'a follower to watch');
    d.until((x) => x.events('ControllerLeaderLost').some((e) => e.nodeId === watched.id), 5000, 1);
    const lost = d.expectEvent('ControllerLeaderLost', (e) => e.nodeId === watched.id);
    expect(lost.timeMs - watched.lastFetchOkMs!).toBe(2000);
  });
});

describe('the timer fields are read-only', () => {
  it('taking a snapshot every few milliseconds changes no event and no state hash', () => {
    const scenario = {
      ...clusterScenario({
        topics: [{ name: 't', partitions: 3, replicationFactor: 3 }],
      }),
      script: [
        {
          atMs: 4000,
          command: { type: 'startProducer' as const, producerId: 'p', topic: 't', ratePerSec: 50 },
        },
        { atMs: 6000, command: { type: 'cutLink' as const, from: 4, to: 2, oneWay: true } },
        { atMs: 8000, command: { type: 'crashNode' as const, nodeId: 3 } },
      ],
    };
    const watched = createSimulation(scenario);
    const plain = createSimulation(scenario);
    for (let t = 0; t < 60000; t += 7) {
      watched.advance(7);
      watched.snapshot();
    }
    plain.advance(watched.nowMs);
    expect(watched.stateHash()).toBe(plain.stateHash());
    expect(watched.events()).toEqual(plain.events());
  });
});
