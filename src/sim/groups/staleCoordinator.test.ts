// A zone cut off from the controllers but not from the clients, with the group's coordinator in it
// (the default preset's group order-service). The controller fences the coordinator and moves the
// group's __consumer_offsets partition to a broker of another zone, which loads the group at once
// (GroupCoordinatorService.onElection); the old coordinator never hears of it and keeps answering
// on stale metadata, so the consumers must ask another broker to find the new coordinator.
import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../../scenario/presets';
import { createSimulation } from '../index';

/** Cuts the coordinator's zone off from the other nodes (clients still reach every node). */
function cutCoordinatorZone() {
  const sim = createSimulation(defaultScenario);
  sim.advance(15_000);
  const group = orderService(sim);
  expect(group.state).toBe('Stable');
  const old = group.coordinator;
  const rack = defaultScenario.nodes.find((n) => n.id === old)!.rack;
  const inZone = defaultScenario.nodes.filter((n) => n.rack === rack).map((n) => n.id);
  const rest = defaultScenario.nodes.filter((n) => n.rack !== rack).map((n) => n.id);
  const at = sim.nowMs;
  sim.apply({ type: 'partitionNetwork', groups: [inZone, rest] });
  return { sim, at, old, rest };
}

/** Advances until the cluster's metadata names a new coordinator for the group (at most 30 s). */
function untilMoved(sim: ReturnType<typeof createSimulation>, old: number) {
  for (let t = 0; t < 30_000 && orderService(sim).coordinator === old; t += 100) sim.advance(100);
  expect(orderService(sim).coordinator).not.toBe(old);
}

const orderService = (sim: ReturnType<typeof createSimulation>) =>
  sim.snapshot().clients.groups.find((g) => g.groupId === 'order-service')!;

describe('a zone cut off from the cluster, not from the clients, with the group coordinator in it', () => {
  it('has the new coordinator load the group as soon as it leads its __consumer_offsets partition', () => {
    const { sim, at, rest, old } = cutCoordinatorZone();
    untilMoved(sim, old);
    sim.advance(1_000);
    const group = orderService(sim);
    expect(rest).toContain(group.coordinator);
    const loaded = sim.events().find((e) => e.type === 'GroupLoaded' && e.timeMs > at);
    expect(loaded).toMatchObject({ nodeId: group.coordinator, groupId: 'order-service', members: 2 });
    // Not "Dead, lag 0": the new coordinator holds the group, its two members and their offsets.
    expect(group.state).toBe('Stable');
    expect(group.members.map((m) => m.consumerId).sort()).toEqual(['consumer-1', 'consumer-2']);
    expect(group.offsets.length).toBe(6);
  });

  it('shows the isolated broker still acting as coordinator on its stale metadata while members talk to it', () => {
    const { sim, old } = cutCoordinatorZone();
    untilMoved(sim, old);
    sim.advance(1_000);
    const s = sim.snapshot();
    expect(s.clients.consumers.map((c) => c.coordinator)).toEqual([old, old]);
    expect(orderService(sim).staleCoordinators).toEqual([{ brokerId: old, state: 'Stable', members: 2 }]);
  });

  it('moves the consumers to the new coordinator: a failed commit sends FindCoordinator to another broker', () => {
    const { sim, at } = cutCoordinatorZone();
    sim.advance(30_000);
    const now = orderService(sim).coordinator;
    const found = sim
      .events()
      .filter((e) => e.type === 'CoordinatorFound' && e.timeMs > at)
      .map((e) => [e.consumerId, e.nodeId]);
    // A rediscovery that asks a broker of the cut zone hears the old coordinator again; the next
    // asks a broker that follows the controllers and hears the new one.
    expect(found.slice(-2)).toEqual([
      ['consumer-1', now],
      ['consumer-2', now],
    ]);
    expect(sim.snapshot().clients.consumers.map((c) => c.coordinator)).toEqual([now, now]);
    // The commits succeed again at broker 9, and the members stay in the group there.
    const failedLate = sim.events().filter((e) => e.type === 'OffsetCommitFailed' && e.timeMs > at + 20_000);
    expect(failedLate).toEqual([]);
    sim.advance(40_000);
    expect(orderService(sim)).toMatchObject({ coordinator: now, state: 'Stable' });
    expect(orderService(sim).members).toHaveLength(2);
  });
});
