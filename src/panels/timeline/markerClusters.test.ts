import { describe, expect, it } from 'vitest';
import { clusterMarkers } from './markerClusters';

const at = (...times: number[]) => times.map((timeMs, i) => ({ timeMs, name: `m${i}` }));
const shape = (clusters: ReturnType<typeof clusterMarkers<{ timeMs: number; name: string }>>) =>
  clusters.map((c) => c.members.map((m) => m.name));

describe('clustering markers that would cover each other', () => {
  // 1000 px for 100 s: 10 px a second.
  it('keeps markers far enough apart as they are, one each', () => {
    expect(shape(clusterMarkers(at(0, 10_000, 50_000, 100_000), 100_000, 1000, 24))).toEqual([
      ['m0'],
      ['m1'],
      ['m2'],
      ['m3'],
    ]);
  });

  it('folds markers at the same time into one cluster, which lists them all', () => {
    const clusters = clusterMarkers(at(10_000, 10_000, 10_000, 40_000), 100_000, 1000, 24);
    expect(shape(clusters)).toEqual([['m0', 'm1', 'm2'], ['m3']]);
    expect(clusters[0]).toMatchObject({ atMs: 10_000, untilMs: 10_000 });
  });

  it('folds markers a few pixels apart, and spans their times', () => {
    // 1 s = 10 px: 10.0 s and 11.5 s are 15 px apart, closer than 24 px.
    const clusters = clusterMarkers(at(10_000, 11_500, 13_000), 100_000, 1000, 24);
    expect(shape(clusters)).toEqual([['m0', 'm1'], ['m2']]);
    expect(clusters[0]).toMatchObject({ atMs: 10_000, untilMs: 11_500 });
  });

  it('measures from the first member, so a chain of close markers does not fold into one', () => {
    const chain = at(...Array.from({ length: 10 }, (_, i) => i * 1_000));
    expect(shape(clusterMarkers(chain, 100_000, 1000, 24))).toEqual([
      ['m0', 'm1', 'm2'],
      ['m3', 'm4', 'm5'],
      ['m6', 'm7', 'm8'],
      ['m9'],
    ]);
  });

  it('zooming in (a wider track, or a shorter run) separates what a narrow one folds', () => {
    const markers = at(10_000, 11_500);
    expect(clusterMarkers(markers, 100_000, 1000, 24)).toHaveLength(1);
    expect(clusterMarkers(markers, 100_000, 2000, 24)).toHaveLength(2);
    expect(clusterMarkers(markers, 20_000, 1000, 24)).toHaveLength(2);
  });

  it('puts markers in time order, whatever order they come in', () => {
    expect(shape(clusterMarkers(at(50_000, 0, 50_000), 100_000, 1000, 24))).toEqual([['m1'], ['m0', 'm2']]);
  });

  it('folds everything into one before the run has a length', () => {
    expect(shape(clusterMarkers(at(0, 0), 0, 1000, 24))).toEqual([['m0', 'm1']]);
    expect(clusterMarkers([], 100_000, 1000, 24)).toEqual([]);
  });
});
