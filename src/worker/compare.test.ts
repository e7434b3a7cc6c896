import { describe, expect, it } from 'vitest';
import { createSimulation } from '../sim';
import type { Scenario } from '../sim/types';
import { compareBranches, EXPERIMENTS } from './compare';

// Controller 1; brokers 2, 3, 4; t-0 on [2, 3, 4]. ELR off, to show the classic unclean dilemma.
const scenario: Scenario = {
  version: 1,
  seed: 5,
  nodes: [{ id: 1, roles: ['controller'] }, ...[2, 3, 4].map((id) => ({ id, roles: ['broker' as const] }))],
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
  ],
};

function booted() {
  const sim = createSimulation(scenario);
  sim.advance(6_000);
  return sim;
}

const experiment = (id: string) => EXPERIMENTS.find((e) => e.id === id)!;

describe('compareBranches', () => {
  it('leaves the base simulation untouched and is deterministic', () => {
    const base = booted();
    const hash = base.stateHash();
    const { a, b, durationMs } = experiment('min-isr').build(base.snapshot(), 't');
    const first = compareBranches(base, a, b, durationMs);
    const second = compareBranches(base, a, b, durationMs);
    expect(base.stateHash()).toBe(hash);
    expect(second).toEqual(first);
  });

  it('min.insync.replicas 3 with one broker down: NOT_ENOUGH_REPLICAS on one side only', () => {
    const base = booted();
    const { a, b, durationMs } = experiment('min-isr').build(base.snapshot(), 't');
    const result = compareBranches(base, a, b, durationMs);
    expect(result.a.refused).toEqual([]);
    expect(result.a.errors.NOT_ENOUGH_REPLICAS ?? 0).toBe(0);
    expect(result.b.errors.NOT_ENOUGH_REPLICAS).toBeGreaterThan(0);
    expect(result.a.acknowledged).toBe(10);
    expect(result.differences.map((d) => d.what)).toContain('NOT_ENOUGH_REPLICAS errors');
  });

  it('unclean election on: acknowledged records lost; off: the partition stays offline longer', () => {
    const base = booted();
    const { a, b, durationMs } = experiment('unclean').build(base.snapshot(), 't');
    const result = compareBranches(base, a, b, durationMs);
    expect(result.a.refused).toEqual([]);
    expect(result.a.lostAcknowledged).toBeGreaterThan(0);
    expect(result.b.lostAcknowledged).toBe(0);
    expect(result.b.offlinePartitionMs).toBeGreaterThan(result.a.offlinePartitionMs);
  });

  it('acks=1 vs acks=all when the leader crashes: acks=all loses nothing acknowledged', () => {
    const base = booted();
    const { a, b, durationMs } = experiment('acks').build(base.snapshot(), 't');
    const result = compareBranches(base, a, b, durationMs);
    expect(result.b.lostAcknowledged).toBe(0);
    expect(result.a.lostAcknowledged).toBeGreaterThanOrEqual(result.b.lostAcknowledged);
    expect(result.a.refused).toEqual([]);
  });
});
