// Losing a zone is a power loss: every node of the rack crashes at one instant (ZoneLost), unlike
// isolating it (partitionNetwork), where the nodes keep running and their clients still reach them.
import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { createSimulation } from './index';

function settled() {
  const sim = createSimulation(defaultScenario);
  sim.advance(15_000);
  return sim;
}

describe('when zone-a loses power', () => {
  it('crashes controller 1 and brokers 4 and 5 at the same instant', () => {
    const sim = settled();
    const at = sim.nowMs;
    expect(sim.apply({ type: 'loseZone', rack: 'zone-a' })).toEqual({ ok: true });
    const crashed = sim
      .snapshot()
      .nodes.filter((n) => n.state === 'crashed')
      .map((n) => n.id);
    expect(crashed).toEqual([1, 4, 5]);
    const events = sim.events().filter((e) => e.timeMs === at);
    expect(events.map((e) => e.type)).toEqual(['ZoneLost', 'NodeCrashed', 'NodeCrashed', 'NodeCrashed']);
  });

  it('has the controller fence its brokers once their heartbeats stop, and every partition keeps a leader', () => {
    const sim = settled();
    sim.apply({ type: 'loseZone', rack: 'zone-a' });
    // Controller 1 was the quorum's leader: the others elect a new one (a split vote can cost a
    // second round), and the new active controller gives every broker a fresh heartbeat session of
    // broker.session.timeout.ms (9 s) before it fences those that stay silent.
    sim.advance(14_000);
    const snap = sim.snapshot();
    expect(snap.nodes.filter((n) => n.fenced).map((n) => n.id)).toEqual([4, 5]);
    const orders = snap.partitions.filter((p) => p.topic === 'orders');
    expect(orders.every((p) => p.leader >= 0 && p.leader !== 4 && p.leader !== 5)).toBe(true);
  });

  it('differs from isolating the zone, whose nodes keep running', () => {
    const sim = settled();
    sim.apply({ type: 'partitionNetwork', groups: [[1, 4, 5]] });
    expect(sim.snapshot().nodes.every((n) => n.state === 'running')).toBe(true);
  });

  it('is refused once every node of the zone is down, and changes nothing', () => {
    const sim = settled();
    sim.apply({ type: 'loseZone', rack: 'zone-a' });
    const hash = sim.stateHash();
    expect(sim.apply({ type: 'loseZone', rack: 'zone-a' })).toEqual({
      ok: false,
      error: 'every node of rack zone-a is already down',
    });
    expect(sim.stateHash()).toBe(hash);
  });
});
