// The live cluster canvas: zones, brokers, controllers and clients as React Flow nodes, cut links
// and client traffic as edges, animated messages on top, and the controls to break things.
import {
  Background,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type FitViewOptions,
  type Node,
} from '@xyflow/react';
import '@xyflow/react/dist/base.css';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  clientKey,
  nodeKey,
  selectCanvasModel,
  zoneKey,
  type CanvasModel,
  type LayoutNode,
} from '../store/canvas';
import { usePlaybackStore } from '../store/playback';
import { isNodeSelected, useSelectionStore } from '../store/selection';
import { useSimulationStore } from '../store/simulation';
import { selectFaultToleranceWarnings } from '../store/panels';
import { useThemeStore } from '../store/theme';
import { useAnnouncementStore } from '../store/announcements';
import { useHelpStore } from '../store/keys';
import { useSpotlightStore } from '../store/spotlight';
import { crashNode, healNetwork, isolate, restartNode, shutdownNode } from './actions';
import { EdgeMarkers, edgeTypes, type LinkEdgeType } from './edges';
import { ROLE_NAMES, ReplicaGlyph } from './glyphs';
import { Messages } from './Messages';
import { nodeTypes, type ClientFlowNode, type ClusterFlowNode, type ZoneFlowNode } from './nodes';
import { HelpOverlay } from './HelpOverlay';
import { chooseActionsSide, type Rect } from './actionsPlacement';

/** Room for the toolbar above, the zoom buttons on the right, and the legend below. */
const FIT: FitViewOptions = { padding: { top: '56px', bottom: '44px', left: '16px', right: '52px' } };

/**
 * Stacking, set by hand (zIndexMode="manual"): zones at the back, client traffic over them but
 * under the cards, cut links over everything (a cut must never hide), the selected card on top
 * so its buttons float over its neighbours.
 */
const Z = { zone: 0, traffic: 1, card: 10, cut: 15, selected: 20 };

type FlowNode = ClusterFlowNode | ZoneFlowNode | ClientFlowNode;

/** A zone's header strip (its name, then its Isolate and Lose zone buttons), in canvas units. */
const ZONE_HEADER_HEIGHT = 62;

/** Reuses the previous object when nothing in it changed, so memoised cards skip the render. */
function useStable<T>() {
  const cache = useRef(new Map<string, { sig: string; value: T }>());
  return useCallback((key: string, sig: string, make: () => T): T => {
    const hit = cache.current.get(key);
    if (hit && hit.sig === sig) return hit.value;
    const value = make();
    cache.current.set(key, { sig, value });
    return value;
  }, []);
}

const absBox = (box: LayoutNode) => ({ x: box.absX, y: box.absY, width: box.width, height: box.height });

function useFlowElements(model: CanvasModel | null) {
  const stableNode = useStable<FlowNode>();
  const stableEdge = useStable<LinkEdgeType>();
  return useMemo(() => {
    if (!model) return { nodes: [] as FlowNode[], edges: [] as Edge[] };
    const { layout } = model;
    const nodes: FlowNode[] = [];
    for (const zone of model.zones) {
      const box = layout.byKey.get(zoneKey(zone.rack))!;
      nodes.push(
        stableNode(box.key, JSON.stringify([zone, box]), () => ({
          id: box.key,
          type: 'zone',
          position: { x: box.x, y: box.y },
          width: box.width,
          height: box.height,
          data: zone,
          selectable: false,
          focusable: false,
          draggable: false,
          zIndex: Z.zone,
        })),
      );
    }
    for (const data of model.nodes) {
      const box = layout.byKey.get(nodeKey(data.id))!;
      nodes.push(
        stableNode(box.key, JSON.stringify([data, box]), () => ({
          id: box.key,
          type: 'cluster',
          parentId: box.parent ?? undefined,
          position: { x: box.x, y: box.y },
          width: box.width,
          height: box.height,
          data,
          draggable: false,
          zIndex: Z.card,
          ariaLabel: data.label,
        })),
      );
    }
    for (const data of model.clients) {
      const key = clientKey(data);
      const box = layout.byKey.get(key);
      if (!box) continue;
      nodes.push(
        stableNode(key, JSON.stringify([data, box]), () => ({
          id: key,
          type: 'client',
          position: { x: box.x, y: box.y },
          width: box.width,
          height: box.height,
          data,
          draggable: false,
          zIndex: Z.card,
          ariaLabel: data.label,
        })),
      );
    }
    const edges: LinkEdgeType[] = [];
    for (const e of model.edges) {
      const from = layout.byKey.get(e.source);
      const to = layout.byKey.get(e.target);
      if (!from || !to) continue;
      edges.push(
        stableEdge(e.key, JSON.stringify([e, from, to]), () => ({
          id: e.key,
          type: 'link',
          source: e.source,
          target: e.target,
          selectable: false,
          focusable: false,
          ariaLabel: e.label,
          zIndex: e.kind === 'cut' ? Z.cut : Z.traffic,
          data: {
            kind: e.kind,
            oneWay: !!e.oneWay,
            from: absBox(from),
            to: absBox(to),
            label: e.label,
            arc: e.kind === 'cut' && e.source.startsWith('zone:') && e.target.startsWith('zone:'),
          },
        })),
      );
    }
    return { nodes, edges };
  }, [model, stableNode, stableEdge]);
}

const minimapClass = (node: Node): string =>
  node.type === 'zone'
    ? 'mini-zone'
    : node.type === 'client'
      ? 'mini-client'
      : `mini-node mini-${String((node.data as { state?: string }).state)}`;

const nodeIdOf = (element: EventTarget | null): number | null => {
  const el = (element as HTMLElement | null)?.closest?.('.react-flow__node');
  const id = el?.getAttribute('data-id');
  return id && /^n\d+$/.test(id) ? Number(id.slice(1)) : null;
};

/** The canvas's ⚠ badge: the topics that cannot lose a broker or a zone (the Dashboard lists why). */
function FaultToleranceBadge() {
  const text = useSimulationStore((state) =>
    selectFaultToleranceWarnings(state.snapshot)
      .map((w) => w.topic)
      .join(', '),
  );
  const full = useSimulationStore((state) =>
    selectFaultToleranceWarnings(state.snapshot)
      .map((w) => w.text)
      .join('\n'),
  );
  if (!text) return null;
  const names = text.split(', ');
  const shown = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : text;
  return (
    <p className="badge badge--risk risk-note" title={full}>
      <span aria-hidden="true">⚠ </span>No fault tolerance: {shown}
    </p>
  );
}

const Legend = memo(function Legend({ tile }: { tile: boolean }) {
  return (
    <details className="legend">
      <summary>Legend</summary>
      <ul>
        {tile && (
          <li>
            each node a tile: its id (C for a controller), ★ partitions it leads, ⚠ its replicas out of sync
            or offline; ✕ down, ⊘ fenced, ⏻ shutting down, ✂ cut off, ★ beside the id the active controller.
            Select one for its actions; the Inspector has the rest
          </li>
        )}
        {(['leader', 'insync', 'outofsync', 'elr', 'offline'] as const).map((role) => (
          <li key={role}>
            <ReplicaGlyph role={role} /> {ROLE_NAMES[role]}
          </li>
        ))}
        <li>
          <span className="bar-sample" aria-hidden="true" /> bar: LEO (light) and HW (dark) against the
          leader&apos;s LEO
        </li>
        {(['produce', 'fetch', 'ack', 'metadata', 'vote'] as const).map((kind) => (
          <li key={kind}>
            <span className={`message-sample message--${kind}`} aria-hidden="true" /> {kind}
          </li>
        ))}
        <li>
          <span className="message-sample message--heartbeat" aria-hidden="true" /> heartbeat: broker to
          active controller
        </li>
        <li>
          ring and ♥ 6.2 s / 9 s: a timer running towards its Kafka limit (♥ heartbeat, ⇣ replica lag, ⇢
          request, ✉ delivery, ⟲ quorum fetch; ✕ once run out)
        </li>
      </ul>
    </details>
  );
});

const SpeedNote = memo(function SpeedNote() {
  const speed = usePlaybackStore((s) => s.speed);
  const note = usePlaybackStore((s) => s.speedNote);
  const playing = usePlaybackStore((s) => s.playing);
  if (!playing || !note.shown) return null;
  const achieved = note.achieved;
  return (
    <p className="speed-note" role="status">
      Running at {achieved < 10 ? achieved.toFixed(1) : Math.round(achieved)}× of {speed}× requested
    </p>
  );
});

function Flow() {
  const snapshot = useSimulationStore((s) => s.snapshot);
  const model = useMemo(() => (snapshot ? selectCanvasModel(snapshot) : null), [snapshot]);
  const { nodes, edges } = useFlowElements(model);
  const selected = useSelectionStore((s) => s.selected);
  const select = useSelectionStore((s) => s.select);
  const lastError = useAnnouncementStore((s) => s.lastError);
  const theme = useThemeStore((s) => s.choice);
  const helpOpen = useHelpStore((s) => s.open);
  const setHelpOpen = useHelpStore((s) => s.setOpen);
  const toggleHelp = useHelpStore((s) => s.toggle);
  const spotlight = useSpotlightStore((s) => s.nodes);
  // The minimap earns its room on a large cluster; on a small one it would hide cards.
  const [minimapChoice, setMinimapChoice] = useState<boolean | null>(null);
  // Tiles (hundreds of brokers) all fit the screen, and a minimap over them would hide some.
  const showMinimap = minimapChoice ?? (!!model?.compact && !model.tile);
  const flow = useReactFlow();
  const canvasRef = useRef<HTMLDivElement>(null);

  // The part of the canvas in view, in canvas units, between the toolbar and the legend.
  const viewRect = useCallback((): Rect | null => {
    const el = canvasRef.current;
    if (!el) return null;
    const { x, y, zoom } = flow.getViewport();
    const top = 56;
    const bottom = 44;
    return {
      x: -x / zoom,
      y: (top - y) / zoom,
      width: el.clientWidth / zoom,
      height: Math.max(0, el.clientHeight - top - bottom) / zoom,
    };
  }, [flow]);

  // Selection drives which card shows its actions, on the side where they hide nothing; React
  // Flow only mirrors it. A lesson step's subject gets a ring and a glyph (lesson-subject in
  // styles.css) and says so to a screen reader.
  const shown = useMemo(
    () =>
      nodes.map((node) => {
        if (node.type !== 'cluster') return node;
        const isSel = isNodeSelected(selected, node.data.id);
        const isSubject = spotlight.includes(node.data.id);
        if (!isSel && !isSubject) return node;
        let data = node.data;
        if (isSel && model) {
          const rect = (box: LayoutNode): Rect => ({
            x: box.absX,
            y: box.absY,
            width: box.width,
            height: box.height,
          });
          const own = model.layout.byKey.get(node.id);
          const actionsAt = own
            ? chooseActionsSide(
                rect(own),
                [...model.layout.nodes, ...model.layout.clients].filter((b) => b.key !== node.id).map(rect),
                model.layout.zones.map((z) => ({ ...rect(z), height: ZONE_HEADER_HEIGHT })),
                viewRect(),
              )
            : 'below';
          data = { ...data, actionsAt };
        }
        return {
          ...node,
          data,
          ...(isSel && { selected: true, zIndex: Z.selected }),
          ...(isSubject && {
            className: 'lesson-subject',
            ariaLabel: `${node.ariaLabel}, this step's subject`,
          }),
        };
      }),
    [nodes, selected, spotlight, model, viewRect],
  );

  // Fit again whenever the shape of the cluster changes (not on every snapshot).
  const shape = model
    ? [
        model.layout.nodes.length,
        model.layout.clients.length,
        model.zones.length,
        model.compact,
        Math.max(0, ...model.layout.zones.map((z) => z.height)),
      ].join('/')
    : '';
  useEffect(() => {
    if (!shape) return;
    const handle = requestAnimationFrame(() => void flow.fitView(FIT));
    return () => cancelAnimationFrame(handle);
  }, [shape, flow]);

  // The canvas yields to the lesson dock and the panels: fit again whenever its box changes size.
  useEffect(() => {
    const element = canvasRef.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let handle = 0;
    let last = '';
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const size = `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`;
      if (size === last) return;
      last = size;
      cancelAnimationFrame(handle);
      handle = requestAnimationFrame(() => void flow.fitView(FIT));
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(handle);
    };
  }, [flow]);

  // Keep a lesson step's subject in view: if a node of it lies outside the visible canvas (the
  // learner zoomed or panned), fit the cluster again, or on a large cluster the subject alone.
  const spotlightKey = spotlight.join();
  useEffect(() => {
    if (!spotlightKey || !shape) return;
    const handle = requestAnimationFrame(() => {
      const element = canvasRef.current;
      if (!element) return;
      const { x, y, zoom } = flow.getViewport();
      const ids = spotlightKey.split(',').map((id) => `n${id}`);
      const outside = ids.some((id) => {
        const node = flow.getInternalNode(id);
        if (!node) return false;
        const left = node.internals.positionAbsolute.x * zoom + x;
        const top = node.internals.positionAbsolute.y * zoom + y;
        const right = left + (node.measured.width ?? 0) * zoom;
        const bottom = top + (node.measured.height ?? 0) * zoom;
        return left < 0 || top < 0 || right > element.clientWidth || bottom > element.clientHeight;
      });
      if (!outside) return;
      const present = ids.filter((id) => flow.getInternalNode(id)).map((id) => ({ id }));
      void flow.fitView(model?.compact ? { ...FIT, nodes: present, maxZoom: 1 } : FIT);
    });
    return () => cancelAnimationFrame(handle);
  }, [spotlightKey, shape, flow, model?.compact]);

  const selectNode = useCallback(
    (id: number) => {
      const node = useSimulationStore.getState().snapshot?.nodes.find((n) => n.id === id);
      select({ kind: node?.roles.includes('broker') ? 'broker' : 'controller', id });
    },
    [select],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if ((event.target as HTMLElement).closest('input, select, textarea')) return;
      if (event.key === 'Escape') {
        setHelpOpen(false);
        select(null);
        return;
      }
      if (event.key === 'f' || event.key === 'F') {
        void flow.fitView({ ...FIT, duration: 200 });
        return;
      }
      const id = nodeIdOf(event.target);
      if (id === null) return;
      const key = event.key.toLowerCase();
      const action: Record<string, () => void> = {
        c: () => void crashNode(id),
        r: () => void restartNode(id),
        s: () => void shutdownNode(id),
        i: () => void isolate([id], `Node ${id}`),
        enter: () => selectNode(id),
        ' ': () => selectNode(id),
      };
      if (
        action[key] &&
        !(key === 'enter' || key === ' ' ? (event.target as HTMLElement).closest('button') : false)
      ) {
        event.preventDefault();
        action[key]();
      }
    },
    [flow, select, selectNode, setHelpOpen],
  );

  return (
    <div className="canvas" onKeyDown={onKeyDown} ref={canvasRef}>
      <EdgeMarkers />
      <ReactFlow
        aria-label="Cluster canvas"
        nodes={shown}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        colorMode={theme}
        zIndexMode="manual"
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        fitView
        fitViewOptions={FIT}
        minZoom={0.1}
        maxZoom={2}
        onNodeClick={(_, node) => {
          if (node.type === 'cluster') selectNode((node.data as { id: number }).id);
        }}
        onPaneClick={() => select(null)}
      >
        <Background gap={24} size={1} />
        <Panel position="top-left" className="toolbar">
          <button type="button" onClick={() => void healNetwork()}>
            Heal network
          </button>
          <button type="button" onClick={() => void flow.fitView({ ...FIT, duration: 200 })}>
            Fit to screen
          </button>
          <button type="button" aria-pressed={showMinimap} onClick={() => setMinimapChoice(!showMinimap)}>
            Minimap
          </button>
          <button type="button" onClick={toggleHelp} aria-expanded={helpOpen} aria-label="Keyboard help">
            ?
          </button>
          <SpeedNote />
          <FaultToleranceBadge />
          {lastError && (
            <p className="command-error" role="alert">
              {lastError}
            </p>
          )}
        </Panel>
        <Panel position="bottom-left" className="legend-panel">
          <Legend tile={!!model?.tile} />
        </Panel>
        <Controls showInteractive={false} position="top-right" />
        {showMinimap && (
          <MiniMap
            pannable
            zoomable
            position="bottom-right"
            ariaLabel="Minimap of the cluster"
            style={{ width: 140, height: 90 }}
            nodeClassName={minimapClass}
          />
        )}
        {model && <Messages layout={model.layout} />}
      </ReactFlow>
      {helpOpen && <HelpOverlay onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

export function ClusterCanvas() {
  return (
    <ReactFlowProvider>
      <Flow />
    </ReactFlowProvider>
  );
}

export default ClusterCanvas;

export type { Node };
