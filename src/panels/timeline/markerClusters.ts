// Markers that would be drawn on top of each other at the current zoom become one cluster, drawn
// once with its count and opened as a list. Pure: the scrubber measures its width and asks.

/** What a marker needs to be placed: its time. */
export interface Timed {
  timeMs: number;
}

/** One drawn marker: a single member, or several that collide. */
export interface MarkerCluster<M extends Timed> {
  /** Where it is drawn: the time of its first member. */
  atMs: number;
  /** Its last member's time (equal to atMs when all members share one instant). */
  untilMs: number;
  /** One or more, in time order. */
  members: [M, ...M[]];
}

/**
 * Groups markers, in time order, so that no two drawn markers are closer than `minGapPx` on a
 * track `widthPx` wide that spans 0 to `endMs`. A cluster is anchored at its first member and takes
 * every later marker less than `minGapPx` from that anchor (not from its last member, so that a long
 * chain of close markers does not fold into one).
 */
export function clusterMarkers<M extends Timed>(
  markers: readonly M[],
  endMs: number,
  widthPx: number,
  minGapPx: number,
): MarkerCluster<M>[] {
  const pxPerMs = endMs > 0 ? widthPx / endMs : 0;
  const sorted = [...markers].sort((a, b) => a.timeMs - b.timeMs);
  const clusters: MarkerCluster<M>[] = [];
  let current: MarkerCluster<M> | null = null;
  for (const m of sorted) {
    if (current && (m.timeMs - current.atMs) * pxPerMs < minGapPx) {
      current.members.push(m);
      current.untilMs = m.timeMs;
      continue;
    }
    current = { atMs: m.timeMs, untilMs: m.timeMs, members: [m] };
    clusters.push(current);
  }
  return clusters;
}
