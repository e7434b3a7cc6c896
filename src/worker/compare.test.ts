import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { createSimulation } from '../sim';
import type { Scenario } from '../sim/types';
import {
  compareBranches,
  EXPERIMENT_PRODUCER,
  EXPERIMENT_READER,
  EXPERIMENTS,
  runExperiment,
  type Comparison,
} from './compare';

// Controller 1; brokers 2, 3, 4; t-0 on [2, 3, 4]. ELR off, to show the classic unclean dilemma.
const threeBrokers: Scenario = {
  version: 1,
  seed: 5,
  nodes: [
    { id: 1, roles: ['controller'] },
    ...[2, 3, 4, 5, 6].map((id) => ({ id, roles: ['broker' as const] })),
  ],
  config: { 'eligible.leader.replicas.version': 0 },
  network: { latencyMs: 2, jitterMs: 1 },
  topics: [
    {
      name: 't',
      partitions: 1,
      replicationFactor: 3,
      assignment: [[2, 3, 4]],
      config: { 'min.insync.replicas': 1 },
    },
    {
      name: 'two',
      partitions: 2,
      replicationFactor: 2,
      assignment: [
        [3, 2],
        [2, 3],
      ],
    },
    { name: 'five', partitions: 1, replicationFactor: 5 },
    { name: 'single', partitions: 1, replicationFactor: 1 },
  ],
};

function booted(scenario: Scenario, ms = 8_000) {
  const sim = createSimulation(scenario);
  sim.advance(ms);
  return sim;
}

const experiment = (id: string) => EXPERIMENTS.find((e) => e.id === id)!;
const mine = (c: Comparison, side: 'a' | 'b') =>
  c[side].producers.find((p) => p.producerId === EXPERIMENT_PRODUCER)!;

/** acks=1 loses what the leader alone acknowledged; acks=all loses nothing and still delivers. */
function expectAcksDifference(c: Comparison) {
  expect(c.a.refused).toEqual([]);
  expect(mine(c, 'a').acknowledged).toBe(10);
  expect(mine(c, 'a').lost).toBe(10);
  expect(c.a.elections[0]?.election).toBe('clean');
  expect(c.a.truncated.length).toBeGreaterThan(0);
  expect(c.b.lostAcknowledged).toBe(0);
  expect(mine(c, 'b').acknowledged).toBe(10);
  expect(mine(c, 'b').errors.NETWORK_EXCEPTION).toBeGreaterThan(0);
}

function expectUncleanDifference(c: Comparison) {
  expect(c.a.refused).toEqual([]);
  expect(mine(c, 'a').lost).toBe(5);
  expect(c.a.elections.map((e) => e.election)).toContain('unclean');
  expect(c.b.lostAcknowledged).toBe(0);
  expect(c.b.elections).toEqual([]);
  expect(c.b.focusUnavailableMs).toBeGreaterThan(c.a.focusUnavailableMs + 30_000);
}

function expectMinIsrDifference(c: Comparison) {
  expect(c.a.refused).toEqual([]);
  expect(c.b.refused).toEqual([]);
  expect(mine(c, 'a').acknowledged).toBe(10);
  expect(mine(c, 'a').errors.NOT_ENOUGH_REPLICAS ?? 0).toBe(0);
  expect(mine(c, 'b').acknowledged).toBe(0);
  expect(mine(c, 'b').failed).toBe(10);
  expect(mine(c, 'b').errors.NOT_ENOUGH_REPLICAS).toBeGreaterThan(0);
  expect(c.a.lostAcknowledged + c.b.lostAcknowledged).toBe(0);
}

const reader = (c: Comparison, side: 'a' | 'b') =>
  c[side].reads.find((r) => r.groupId === EXPERIMENT_READER)!;
const count = (values: string[], prefix: string) => values.filter((v) => v.startsWith(prefix)).length;

/**
 * read_uncommitted returns the aborted and the open transaction's records; read_committed neither,
 * and stops at the LSO, which the open transaction pins below the HW (on both sides: the log is the same).
 */
function expectIsolationDifference(c: Comparison, otherProducers: boolean) {
  expect(c.a.refused).toEqual([]);
  expect(c.b.refused).toEqual([]);
  const ru = reader(c, 'a');
  const rc = reader(c, 'b');
  expect(ru.isolationLevel).toBe('read_uncommitted');
  expect(rc.isolationLevel).toBe('read_committed');
  expect(count(ru.experimentValues, 'aborted')).toBe(5);
  expect(count(ru.experimentValues, 'open')).toBe(5);
  expect(rc.experimentValues).toEqual([]);
  for (const side of ['a', 'b'] as const) {
    const stable = c[side].focusStable!;
    expect(stable.openTransactions).toHaveLength(1);
    expect(stable.lastStableOffset).toBe(stable.openTransactions[0]!.firstOffset);
    expect(stable.lastStableOffset).toBeLessThan(stable.highWatermark);
  }
  // read_uncommitted is at the HW; read_committed parked at the LSO.
  expect(ru.focusPosition).toBe(c.a.focusStable!.highWatermark);
  expect(rc.focusPosition).toBe(c.b.focusStable!.lastStableOffset);
  const others = (r: typeof ru) => r.returnedFocus - r.experimentValues.length;
  if (otherProducers) expect(others(rc)).toBeLessThan(others(ru));
  else expect(others(rc)).toBe(others(ru));
  const rows = c.explained!.rows;
  expect(rows.find((r) => r.what.startsWith('Aborted records returned'))).toMatchObject({ a: '5', b: '0' });
  expect(rows.find((r) => r.what.startsWith('Open transaction'))).toMatchObject({ a: '5', b: '0' });
}

/** Without idempotence the retried batches are written twice; with it once, in order. */
function expectIdempotenceDifference(c: Comparison) {
  expect(c.a.refused).toEqual([]);
  expect(c.b.refused).toEqual([]);
  expect(mine(c, 'a').acknowledged).toBe(5);
  expect(mine(c, 'b').acknowledged).toBe(5);
  expect(mine(c, 'a').errors.REQUEST_TIMED_OUT).toBeGreaterThan(0);
  expect(mine(c, 'b').errors.REQUEST_TIMED_OUT).toBeGreaterThan(0);
  expect(c.a.experimentLog).toMatchObject({ records: 5, copies: 10 });
  expect(c.b.experimentLog).toMatchObject({ records: 5, copies: 5, outOfOrder: false });
  expect(c.b.experimentLog!.values).toEqual(['pay-0', 'pay-1', 'pay-2', 'pay-3', 'pay-4']);
  expect(c.differences).toContainEqual({
    what: "copies of the experiment's records in the log",
    a: 10,
    b: 5,
  });
  const dupes = c.explained!.rows.find((r) => r.what === 'Duplicates a consumer would read')!;
  expect([dupes.a, dupes.b]).toEqual(['5', '0']);
}

describe('compareBranches', () => {
  it('leaves the base simulation untouched and is deterministic (seed 5)', () => {
    const base = booted(threeBrokers);
    const hash = base.stateHash();
    const first = runExperiment(base, experiment('min-isr'), 't');
    const second = runExperiment(base, experiment('min-isr'), 't');
    expect(base.stateHash()).toBe(hash);
    expect(second).toEqual(first);
  });

  it('runs plain commands on both sides and lists what differs (seed 5)', () => {
    const base = booted(threeBrokers);
    const write = { type: 'produce' as const, topic: 't', partition: 0, value: 'v', acks: 1 as const };
    const result = compareBranches(base, [write], [{ ...write, count: 3 }], 2_000);
    expect(result.a.acknowledged).toBe(1);
    expect(result.b.acknowledged).toBe(3);
    expect(result.differences).toContainEqual({ what: 'records acknowledged', a: 1, b: 3 });
  });
});

describe('on the default scenario (the page at /, seed 7), asked as soon as the page opens', () => {
  // At 0 s nothing has booted: each run first waits for orders-0 to be in sync.
  const base = createSimulation(defaultScenario);

  it('acks=1 vs acks=all (seed 7): acks=1 loses its 10 acknowledged records, acks=all loses none', () => {
    const c = runExperiment(base, experiment('acks'), 'orders');
    expect(c.explained!.settledAfterMs).toBeGreaterThan(0);
    expectAcksDifference(c);
    // The scenario's own producer (acks=all) loses nothing on either side.
    expect(c.a.producers.find((p) => p.producerId === 'producer-1')!.lost).toBe(0);
  });

  it('unclean on vs off (seed 7): on loses acknowledged records and returns sooner; off loses none', () => {
    expectUncleanDifference(runExperiment(base, experiment('unclean'), 'orders'));
  });

  it('min.insync.replicas 2 vs 3 (seed 7): 2 takes the 10 writes; 3 refuses them with NOT_ENOUGH_REPLICAS', () => {
    expectMinIsrDifference(runExperiment(base, experiment('min-isr'), 'orders'));
  });

  it("read_uncommitted vs read_committed (seed 7): only read_uncommitted returns aborted and open records; read_committed stops at the LSO, behind producer-1's records too", () => {
    expectIsolationDifference(runExperiment(base, experiment('isolation'), 'orders'), true);
  });

  it('enable.idempotence false vs true (seed 7): lost answers and retries write 5 duplicates without it, none with it', () => {
    expectIdempotenceDifference(runExperiment(base, experiment('idempotence'), 'orders'));
  });

  it('explains every row, and says which producer saw which error (seed 7)', () => {
    const { explained } = runExperiment(base.clone(), experiment('acks'), 'orders');
    const { rows, producers, errors, story } = explained!;
    expect(story.length).toBeGreaterThan(2);
    const lost = rows.find((r) => r.what === 'Acknowledged records lost')!;
    expect([lost.a, lost.b]).toEqual(['10', '0']);
    expect(lost.why).toMatch(/truncated/);
    for (const row of rows) {
      expect(row.about.length).toBeGreaterThan(20);
      expect(row.why.length).toBeGreaterThan(20);
    }
    // Each producer on its own line: the experiment's first, then the scenario's.
    expect(producers.map((p) => p.producerId)).toEqual(['compare', 'producer-1']);
    expect(producers[0]?.a?.errors).toEqual({});
    expect(producers[0]?.b?.errors.NETWORK_EXCEPTION).toBeGreaterThan(0);
    const network = errors.find((e) => e.name === 'NETWORK_EXCEPTION')!;
    expect(network.meaning).toMatch(/connection to a broker broke/);
    expect(errors.map((e) => e.name)).not.toContain('NOT_ENOUGH_REPLICAS');
  });
});

describe('on a cluster of five brokers (seed 5), with other topics', () => {
  const base = booted(threeBrokers);

  it('acks=1 vs acks=all (seed 5, RF 3, min.insync.replicas=1): acks=1 loses 10, acks=all 0', () => {
    expectAcksDifference(runExperiment(base, experiment('acks'), 't'));
  });

  it('unclean on vs off (seed 5, RF 3, ELR off): on loses 5 acknowledged records, off none', () => {
    expectUncleanDifference(runExperiment(base, experiment('unclean'), 't'));
  });

  it('acks=1 vs acks=all (seed 5, RF 2): acks=1 loses 10, acks=all 0', () => {
    expectAcksDifference(runExperiment(base, experiment('acks'), 'two'));
  });

  it('min.insync.replicas 2 vs 3 (seed 5, RF 5): three brokers down leave two in sync, 3 refuses', () => {
    expectMinIsrDifference(runExperiment(base, experiment('min-isr'), 'five'));
  });

  it('read_uncommitted vs read_committed (seed 5, RF 3, no other producer): the same difference', () => {
    expectIsolationDifference(runExperiment(base, experiment('isolation'), 't'), false);
  });

  it('enable.idempotence false vs true (seed 5, RF 1): duplicates without it, none with it', () => {
    expectIdempotenceDifference(runExperiment(base, experiment('idempotence'), 'single'));
  });

  it('says why a topic whose replication factor is too small cannot show the difference', () => {
    expect(() => runExperiment(base, experiment('acks'), 'single')).toThrow(/replication factor 1/);
    // KIP-966: min.insync.replicas=3 on two replicas counts as 2.
    expect(() => runExperiment(base, experiment('min-isr'), 'two')).toThrow(/caps min.insync.replicas/);
  });

  it('says what is missing when the partition does not recover (seed 5)', () => {
    const broken = base.clone();
    broken.apply({ type: 'crashNode', nodeId: 4 });
    expect(() => runExperiment(broken, experiment('acks'), 't')).toThrow(/broker 4 of t-0 is not in sync/);
  });
});

describe('the Compare tab', () => {
  it('offers every experiment the worker runs, by its id, title and question', () => {
    const panel = readFileSync('src/panels/timeline/ComparePanel.tsx', 'utf8').replace(/\s+/g, ' ');
    const quoted = (text: string) => panel.includes(`'${text}'`) || panel.includes(`"${text}"`);
    for (const x of EXPERIMENTS) {
      expect(quoted(x.id), x.id).toBe(true);
      expect(quoted(x.title), x.title).toBe(true);
      expect(quoted(x.question), x.question).toBe(true);
    }
  });
});

describe('on a cluster too small for __transaction_state', () => {
  it('says why the isolation experiment cannot run with fewer than 3 brokers', () => {
    const small = booted({
      ...threeBrokers,
      nodes: [
        { id: 1, roles: ['controller'] },
        { id: 2, roles: ['broker'] },
        { id: 3, roles: ['broker'] },
      ],
      topics: [{ name: 'two', partitions: 1, replicationFactor: 2 }],
    });
    expect(() => runExperiment(small, experiment('isolation'), 'two')).toThrow(
      /transaction.state.log.replication.factor \(3\) brokers are up; 2 brokers are running/,
    );
  });
});
