import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../sim/types';
import { announcementFor, cutStates, layoutCluster, messageBudget, replicaRole, type Box } from './canvas';
import { cardSizes, chipLines } from './canvas/layout';

function cluster(brokers: number, zones: number) {
  const rack = (i: number) => `zone-${String.fromCharCode(97 + (i % zones))}`;
  return {
    nodes: [
      ...[1, 2, 3].map((id) => ({ id, rack: rack(id - 1), isBroker: false, isController: true })),
      ...Array.from({ length: brokers }, (_, i) => ({
        id: 4 + i,
        rack: rack(i),
        isBroker: true,
        isController: false,
      })),
    ],
    producers: ['p1'],
    groups: ['g1'],
    compact: brokers > 12,
    tile: brokers > 64,
    maxChips: 6,
  };
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const absolute = (box: { absX: number; absY: number; width: number; height: number }): Box => ({
  x: box.absX,
  y: box.absY,
  width: box.width,
  height: box.height,
});

describe('the canvas layout', () => {
  for (const [brokers, zones] of [
    [3, 1],
    [3, 3],
    [6, 3],
    [12, 3],
    [48, 4],
    [200, 4],
  ] as const) {
    describe(`with ${brokers} brokers in ${zones} zones`, () => {
      const layout = layoutCluster(cluster(brokers, zones));

      it('is deterministic', () => {
        expect(layoutCluster(cluster(brokers, zones))).toEqual(layout);
      });

      it('places no two nodes, zones or clients on top of each other', () => {
        const boxes = [...layout.nodes, ...layout.clients].map(absolute);
        for (const [i, a] of boxes.entries())
          for (const b of boxes.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
        const zoneBoxes = layout.zones.map(absolute);
        for (const [i, a] of zoneBoxes.entries())
          for (const b of zoneBoxes.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
      });

      it('keeps every node inside its zone', () => {
        for (const node of layout.nodes) {
          const zone = layout.byKey.get(node.parent!)!;
          expect(node.x).toBeGreaterThanOrEqual(0);
          expect(node.y).toBeGreaterThanOrEqual(0);
          expect(node.x + node.width).toBeLessThanOrEqual(zone.width);
          expect(node.y + node.height).toBeLessThanOrEqual(zone.height);
        }
      });

      it('draws every node', () => {
        expect(layout.nodes).toHaveLength(brokers + 3);
      });
    });
  }

  it('keeps many clients apart, under the zones', () => {
    const layout = layoutCluster({
      ...cluster(6, 3),
      producers: ['a', 'b', 'c', 'd', 'e'],
      groups: ['g', 'h', 'i', 'j'],
    });
    const boxes = [...layout.nodes, ...layout.clients].map(absolute);
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    const zoneBottom = Math.max(...layout.zones.map((z) => z.absY + z.height));
    expect(layout.clients.every((c) => c.absY > zoneBottom)).toBe(true);
  });

  it('draws 200 brokers as tiles whose ids stay readable once the canvas fits a 1280x720 page', () => {
    const layout = layoutCluster(cluster(200, 4));
    const boxes = [...layout.zones, ...layout.clients];
    const width = Math.max(...boxes.map((b) => b.absX + b.width)) - Math.min(...boxes.map((b) => b.absX));
    const height = Math.max(...boxes.map((b) => b.absY + b.height)) - Math.min(...boxes.map((b) => b.absY));
    // The canvas's share of a 1280x720 page with the side panel open (measured: 950 x 480 px).
    const zoom = Math.min(950 / width, 480 / height);
    const tile = layout.byKey.get('n100')!;
    // A tile's id is 18 px: at least 8 px on screen, and the tile at least 30 px wide.
    expect(18 * zoom).toBeGreaterThanOrEqual(8);
    expect(tile.width * zoom).toBeGreaterThanOrEqual(30);
    // The 48-broker cards of the large preset, for comparison: 150 px wide.
    expect(tile.width).toBeLessThan(150);
  });

  it("makes a card tall enough for a second topic's chips on their own line", () => {
    // orders: 3 chips (a row of its own); payments: 1 chip, on the next line, with its name.
    expect(chipLines([3, 1])).toEqual({ rows: 2, labels: 2 });
    // One topic, as before: rows of four, one name.
    expect(chipLines([6])).toEqual({ rows: 2, labels: 1 });
    expect(cardSizes(false, 6, false, chipLines([6])).brokerHeight).toBe(cardSizes(false, 6).brokerHeight);
    // Three topics of one chip share a line; two topics of two do not fit one.
    expect(chipLines([1, 1, 1])).toEqual({ rows: 1, labels: 1 });
    expect(chipLines([2, 2])).toEqual({ rows: 2, labels: 2 });
    const one = cardSizes(false, 4, false, chipLines([4])).brokerHeight;
    expect(cardSizes(false, 4, false, chipLines([3, 1])).brokerHeight).toBeGreaterThan(one);
  });

  it('puts the controllers of a zone above its brokers', () => {
    const layout = layoutCluster(cluster(6, 3));
    expect(layout.byKey.get('n1')!.y).toBeLessThan(layout.byKey.get('n4')!.y);
  });
});

describe('replicaRole', () => {
  const p = {
    topic: 't',
    partition: 0,
    replicas: [1, 2, 3, 4],
    leader: 1,
    leaderEpoch: 1,
    isr: [1, 2],
    elr: [3],
    highWatermark: 0,
    replicaLogs: [],
  };
  it('tells leader, in sync, ELR, out of sync and offline apart', () => {
    expect(replicaRole(p, 1, true)).toBe('leader');
    expect(replicaRole(p, 2, true)).toBe('insync');
    expect(replicaRole(p, 3, true)).toBe('elr');
    expect(replicaRole(p, 4, true)).toBe('outofsync');
    expect(replicaRole(p, 2, false)).toBe('offline');
  });
});

describe('cutStates', () => {
  it('calls the smaller side of a partition isolated, and the larger side whole', () => {
    const cuts = new Set<string>();
    for (const a of [1, 4, 5])
      for (const b of [2, 3, 6, 7])
        for (const [x, y] of [
          [a, b],
          [b, a],
        ])
          cuts.add(`${x}>${y}`);
    const states = cutStates([1, 2, 3, 4, 5, 6, 7], cuts);
    expect([...states].filter(([, s]) => s === 'isolated').map(([id]) => id)).toEqual([1, 4, 5]);
    expect(states.get(2)).toBe('none');
  });

  it('marks a one-way cut inside the cluster as partial', () => {
    const states = cutStates([1, 2, 3], new Set(['1>2']));
    expect(states.get(1)).toBe('partial');
    expect(states.get(2)).toBe('partial');
    expect(states.get(3)).toBe('none');
  });
});

describe('messageBudget', () => {
  it('thins out animated messages as the speed rises', () => {
    expect(messageBudget(1000)).toBeLessThan(messageBudget(10));
    expect(messageBudget(10)).toBeLessThan(messageBudget(1));
  });
});

describe('announcementFor', () => {
  it('reads out elections and fencing, and skips the rest', () => {
    expect(
      announcementFor([
        { type: 'MetadataApplied', message: 'x' },
        { type: 'BrokerFenced', message: 'Broker 4 fenced.' },
      ]),
    ).toBe('Broker 4 fenced.');
    expect(announcementFor([{ type: 'MetadataApplied', message: 'x' }])).toBeNull();
  });

  it('counts what it does not read', () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ type: 'LeaderElected', message: `e${i}.` }));
    expect(announcementFor(five)).toMatch(/And 2 more\.$/);
  });
});

describe('the group card', () => {
  it('marks a broker that still acts as the group coordinator on stale metadata', async () => {
    const { clientCards } = await import('./canvas/clients');
    const group = {
      groupId: 'order-service',
      coordinator: 9,
      offsetsPartition: 0,
      state: 'Stable',
      groupProtocol: 'classic',
      generation: 1,
      groupEpoch: -1,
      assignmentEpoch: -1,
      protocol: 'range',
      leaderId: null,
      members: [],
      offsets: [],
      totalLag: 0,
      recordsConsumed: 0,
      staleCoordinators: [{ brokerId: 6, state: 'Stable', members: 2 }],
    };
    const snapshot = { partitions: [], clients: { producers: [], consumers: [], groups: [group] } };
    const card = clientCards(snapshot as unknown as Snapshot, new Map()).clients[0]!;
    expect(card.lines).toContain('⚠ stale coordinator: broker 6');
    expect(card.label).toContain('⚠ stale coordinator: broker 6');
  });
});
