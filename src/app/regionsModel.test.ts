// The two-regions preset's real snapshots through the canvas and Regions tab selectors: an
// integration test, here because src/app is the one layer that may drive both the engine and the store.
import { describe, expect, it } from 'vitest';
import { presets } from '../scenario/presets';
import { createSimulation } from '../sim';
import { selectCanvasModel, standbyKey } from '../store/canvas';
import { selectRegions } from '../store/regions';

describe('the two-regions preset, seen by the page', () => {
  const sim = createSimulation(presets['two-regions'].scenario);
  sim.advance(20_000);

  it('draws the standby region as a card to the right of the cluster', () => {
    const model = selectCanvasModel(sim.snapshot());
    const card = model.clients.find((c) => c.clientKind === 'standby')!;
    expect(card.title).toBe('Standby region eu-central-1');
    expect(card.lines[2]).toBe('brokers ✓12 ✓13 ✓14');
    const box = model.layout.byKey.get(standbyKey('eu-central-1'))!;
    const zonesRight = Math.max(...model.layout.zones.map((z) => z.absX + z.width));
    expect(box.absX).toBeGreaterThan(zonesRight);
  });

  it('reports the missing records after the primary region is lost', () => {
    const lost = sim.clone();
    expect(lost.apply({ type: 'loseRegion' })).toEqual({ ok: true });
    lost.advance(2000);
    const regions = selectRegions(lost.snapshot())!;
    expect(regions.primary.up).toBe(false);
    expect(regions.primary.nodes.every((n) => !n.alive)).toBe(true);
    expect(regions.failover!.missingCount).toBeGreaterThan(0);
    expect(regions.failover!.records).toHaveLength(regions.failover!.missingCount);
    const card = selectCanvasModel(lost.snapshot()).clients.find((c) => c.clientKind === 'standby')!;
    expect(card.lines.at(-1)).toBe(`✕ primary lost, ${regions.failover!.missingCount} acked missing`);
  });
});
