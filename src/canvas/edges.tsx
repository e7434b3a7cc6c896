// Edges drawn centre to centre and clipped to the cards' borders: client traffic, and cut links
// (broken, with their direction when one-way).
import type { Edge, EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import type { Box, CanvasEdge } from '../store/canvas';

export interface LinkData extends Record<string, unknown> {
  kind: CanvasEdge['kind'];
  oneWay: boolean;
  from: Box;
  to: Box;
  label: string;
  /** Drawn as an arc over the top (zone to zone). */
  arc: boolean;
}
export type LinkEdgeType = Edge<LinkData, 'link'>;

/** Where the segment from a box's centre towards (tx, ty) leaves the box. */
export function exitPoint(box: Box, tx: number, ty: number): [number, number] {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const scale = Math.min(
    dx === 0 ? Infinity : box.width / 2 / Math.abs(dx),
    dy === 0 ? Infinity : box.height / 2 / Math.abs(dy),
  );
  return [cx + dx * scale, cy + dy * scale];
}

export const LinkEdge = memo(function LinkEdge({ id, data }: EdgeProps<LinkEdgeType>) {
  if (!data) return null;
  const { from, to, kind, oneWay } = data;
  const [x1, y1] = exitPoint(from, to.x + to.width / 2, to.y + to.height / 2);
  const [x2, y2] = exitPoint(to, from.x + from.width / 2, from.y + from.height / 2);
  if (kind !== 'cut') {
    return (
      <path
        id={id}
        className={`link link--${kind}`}
        d={`M${x1},${y1}L${x2},${y2}`}
        markerEnd={kind === 'coordinator' ? undefined : 'url(#kcl-arrow)'}
      />
    );
  }
  if (data.arc) return <CutArc id={id} data={data} />;
  // A cut: the line broken in the middle with a cross; a one-way cut keeps its arrow.
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2;
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const gap = Math.min(14, len / 4);
  return (
    <g className={`link link--cut${oneWay ? ' link--oneway' : ''}`}>
      <title>{data.label}</title>
      <path d={`M${x1},${y1}L${mx - ux * gap},${my - uy * gap}`} />
      <path
        d={`M${mx + ux * gap},${my + uy * gap}L${x2},${y2}`}
        markerEnd={oneWay ? 'url(#kcl-arrow-cut)' : undefined}
      />
      <path
        className="cut-cross"
        d={`M${mx - 6},${my - 6}L${mx + 6},${my + 6}M${mx + 6},${my - 6}L${mx - 6},${my + 6}`}
      />
      {oneWay && (
        <text x={mx} y={my - 12} className="cut-label">
          one-way
        </text>
      )}
    </g>
  );
});

/** A cut between two zones, drawn as an arc over the top of the zones so nothing hides it. */
function CutArc({ id, data }: { id: string; data: LinkData }) {
  const { from, to, oneWay } = data;
  const x1 = from.x + from.width / 2;
  const x2 = to.x + to.width / 2;
  const top = Math.min(from.y, to.y);
  const lift = 14 + Math.abs(x2 - x1) * 0.03;
  const cy = top - lift * 2;
  // The midpoint of the quadratic curve, where the cross goes.
  const mx = (x1 + x2) / 2;
  const my = (top + cy) / 2;
  return (
    <g id={id} className={`link link--cut${oneWay ? ' link--oneway' : ''}`}>
      <title>{data.label}</title>
      <path
        d={`M${x1},${from.y}Q${mx},${cy} ${x2},${to.y}`}
        markerEnd={oneWay ? 'url(#kcl-arrow-cut)' : undefined}
      />
      <path
        className="cut-cross"
        d={`M${mx - 7},${my - 7}L${mx + 7},${my + 7}M${mx + 7},${my - 7}L${mx - 7},${my + 7}`}
      />
    </g>
  );
}

export const edgeTypes = { link: LinkEdge };

/** Arrow heads shared by every edge. */
export function EdgeMarkers() {
  return (
    <svg className="edge-markers" aria-hidden="true">
      <defs>
        <marker
          id="kcl-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0L10,5L0,10z" className="arrow" />
        </marker>
        <marker
          id="kcl-arrow-cut"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="8"
          markerHeight="8"
          orient="auto"
        >
          <path d="M0,0L10,5L0,10z" className="arrow arrow--cut" />
        </marker>
      </defs>
    </svg>
  );
}
