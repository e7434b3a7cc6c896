// The engine's real snapshots through the canvas selectors (src/store/canvas/): an integration
// test, here because src/app is the one layer that may drive both the engine and the store.
import { describe, expect, it } from 'vitest';
import { defaultScenario, presets } from '../scenario/presets';
import { createSimulation } from '../sim';
import { inferMessages, selectCanvasModel } from '../store/canvas';

describe('the canvas model of the default scenario', () => {
  const sim = createSimulation(defaultScenario);
  sim.advance(10_000);
  const before = sim.snapshot();
  const model = selectCanvasModel(before);

  it('has three zones, three controllers and six brokers, with every orders replica as a chip', () => {
    expect(model.zones.map((z) => z.rack)).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(model.nodes.filter((n) => n.controller)).toHaveLength(3);
    expect(model.nodes.filter((n) => n.broker)).toHaveLength(6);
    const chips = model.nodes.flatMap((n) => n.broker?.chips ?? []).filter((c) => c.topic === 'orders');
    expect(chips).toHaveLength(18);
    expect(chips.filter((c) => c.role === 'leader')).toHaveLength(6);
  });

  it('labels each node in words', () => {
    const broker = model.nodes.find((n) => n.id === 4)!;
    expect(broker.label).toMatch(/^Broker 4, zone-a, running, leader of \d+ partitions?/);
  });

  it('is the same for the same snapshot', () => {
    expect(selectCanvasModel(before)).toEqual(model);
  });

  it('shows a crashed leader crossed out, and then its replicas out of the ISR', () => {
    const leader = before.partitions.find((p) => p.topic === 'orders' && p.partition === 0)!.leader;
    sim.apply({ type: 'crashNode', nodeId: leader });
    sim.advance(15_000);
    const after = selectCanvasModel(sim.snapshot());
    const node = after.nodes.find((n) => n.id === leader)!;
    expect(node.state).toBe('crashed');
    expect(node.label).toContain('crashed');
    expect(node.broker!.counts.leader).toBe(0);
    expect(after.leaders.get('orders-0')).not.toBe(leader);
  });

  it('marks the nodes of an isolated zone cut off, and draws the cuts', () => {
    const s = createSimulation(defaultScenario);
    s.advance(5000);
    s.apply({
      type: 'partitionNetwork',
      groups: [
        [1, 4, 5],
        [2, 3, 6, 7, 8, 9],
      ],
    });
    const m = selectCanvasModel(s.snapshot());
    expect(m.nodes.filter((n) => n.cut === 'isolated').map((n) => n.id)).toEqual([1, 4, 5]);
    expect(m.zones.find((z) => z.rack === 'zone-a')!.isolated).toBe(true);
    expect(m.edges.filter((e) => e.kind === 'cut').length).toBeGreaterThan(0);
  });
});

describe('cut links on the canvas', () => {
  const fresh = () => {
    const s = createSimulation(defaultScenario);
    s.advance(3000);
    return s;
  };

  it('draws a one-way cut with its direction', () => {
    const s = fresh();
    s.apply({ type: 'cutLink', from: 4, to: 6, oneWay: true });
    const cuts = selectCanvasModel(s.snapshot()).edges.filter((e) => e.kind === 'cut');
    expect(cuts).toEqual([expect.objectContaining({ source: 'n4', target: 'n6', oneWay: true })]);
  });

  it('draws an isolated node cut from whole zones, and from its zone mates one by one', () => {
    const s = fresh();
    s.apply({ type: 'partitionNetwork', groups: [[4], [1, 2, 3, 5, 6, 7, 8, 9]] });
    const cuts = selectCanvasModel(s.snapshot()).edges.filter((e) => e.kind === 'cut');
    expect(cuts.map((e) => `${e.source}>${e.target}`).sort()).toEqual([
      'n1>n4',
      'n4>n5',
      'n4>zone:zone-b',
      'n4>zone:zone-c',
    ]);
    expect(cuts.every((e) => !e.oneWay)).toBe(true);
  });

  it('draws an isolated zone as two zone-to-zone cuts', () => {
    const s = fresh();
    s.apply({
      type: 'partitionNetwork',
      groups: [
        [1, 4, 5],
        [2, 3, 6, 7, 8, 9],
      ],
    });
    const cuts = selectCanvasModel(s.snapshot()).edges.filter((e) => e.kind === 'cut');
    expect(cuts.map((e) => `${e.source}>${e.target}`)).toEqual([
      'zone:zone-a>zone:zone-b',
      'zone:zone-a>zone:zone-c',
    ]);
  });
});

describe('the canvas model of a large cluster', () => {
  const sim = createSimulation(presets.large.scenario);
  sim.advance(8000);
  const model = selectCanvasModel(sim.snapshot());

  it('shows counts per broker instead of every replica', () => {
    expect(model.compact).toBe(true);
    const brokers = model.nodes.filter((n) => n.broker);
    expect(brokers).toHaveLength(48);
    expect(brokers.every((n) => n.broker!.chips === null)).toBe(true);
    const total = brokers.reduce((sum, n) => sum + n.broker!.counts.leader, 0);
    expect(total).toBe(sim.snapshot().partitions.filter((p) => p.leader >= 0).length);
  });

  it('draws a zone isolated in a large cluster zone to zone, not node to node', () => {
    const s = createSimulation(presets.large.scenario);
    s.advance(3000);
    const zoneA = [1, ...Array.from({ length: 12 }, (_, i) => 4 + i)];
    const others = s
      .snapshot()
      .nodes.map((n) => n.id)
      .filter((id) => !zoneA.includes(id));
    s.apply({ type: 'partitionNetwork', groups: [zoneA, others] });
    const cuts = selectCanvasModel(s.snapshot()).edges.filter((e) => e.kind === 'cut');
    expect(cuts.length).toBeLessThanOrEqual(6);
    expect(cuts.every((e) => e.source.startsWith('zone:'))).toBe(true);
  });
});

describe('inferMessages', () => {
  const sim = createSimulation(defaultScenario);
  sim.advance(6000);
  const a = sim.snapshot();
  sim.apply({ type: 'produce', topic: 'orders', value: 'x', partition: 0, acks: 'all', count: 5 });
  sim.advance(200);
  const b = sim.snapshot();

  it('infers replication fetches to the followers from their log end offsets', () => {
    const p0 = b.partitions.find((p) => p.topic === 'orders' && p.partition === 0)!;
    const messages = inferMessages(a, b, 100);
    const fetches = messages.filter((m) => m.kind === 'fetch');
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.every((m) => m.from === `n${p0.leader}`)).toBe(true);
  });

  it('sends nothing between identical snapshots', () => {
    expect(inferMessages(b, b, 100)).toEqual([]);
  });

  it('keeps to its budget', () => {
    expect(inferMessages(a, b, 1).length).toBeLessThanOrEqual(1);
  });
});

describe('heartbeats on the canvas', () => {
  const sim = createSimulation(defaultScenario);
  sim.advance(10_000);
  const brokers = sim
    .snapshot()
    .nodes.filter((n) => n.roles.includes('broker'))
    .map((n) => n.id);
  const crashed = brokers[0]!;
  sim.apply({ type: 'crashNode', nodeId: crashed });
  sim.advance(500);
  const a = sim.snapshot();
  sim.advance(2500); // more than broker.heartbeat.interval.ms = 2000
  const b = sim.snapshot();
  const active = b.quorum.leaderId!;
  const heartbeats = inferMessages(a, b, 100).filter((m) => m.kind === 'heartbeat');

  it('has the active controller record when it last heard each broker, in the snapshot', () => {
    expect(a.quorum.leaderId).toBe(active);
    for (const n of b.nodes)
      if (n.roles.includes('broker')) expect(n.lastHeartbeatMs).toEqual(expect.any(Number));
      else expect(n.lastHeartbeatMs).toBeNull();
    const running = b.nodes.find((n) => n.id === brokers[1])!;
    expect(running.lastHeartbeatMs!).toBeGreaterThan(b.timeMs - 2500);
  });

  it('sends a heartbeat from every running broker to the active controller 2.5 s later', () => {
    expect(heartbeats.map((m) => m.from).sort()).toEqual(
      brokers
        .filter((id) => id !== crashed)
        .map((id) => `n${id}`)
        .sort(),
    );
    expect(heartbeats.every((m) => m.to === `n${active}`)).toBe(true);
  });

  it('sends none from a crashed broker', () => {
    expect(heartbeats.some((m) => m.from === `n${crashed}`)).toBe(false);
    const node = b.nodes.find((n) => n.id === crashed)!;
    expect(node.state).toBe('crashed');
    expect(node.lastHeartbeatMs).toBe(a.nodes.find((n) => n.id === crashed)!.lastHeartbeatMs);
  });
});
