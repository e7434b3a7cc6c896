// Animated messages: dots that travel between cards for what the last snapshot diff implies
// (produce, replication fetch, ack, metadata, broker heartbeats, votes). Their pace follows the
// speed control and they thin out as it rises; with reduced motion, none are drawn.
//
// Each dot is one animation of transform and opacity, which framer-motion's animate() hands to the
// browser as a Web Animation that the compositor runs: no script and no repaint of the cards per
// frame (a dot moved by script each frame, as a motion.div's x and y are, made the browser repaint
// the whole canvas layer under it, 40 ms a paint at 1000×). Finished dots are dropped in one
// render per batch, not one render per dot.
import { ViewportPortal } from '@xyflow/react';
import { animate, useReducedMotion } from 'framer-motion';
import { memo, useEffect, useRef, useState } from 'react';
import { inferMessages, messageBudget, type Layout, type MessageKind } from '../store/canvas';
import { usePlaybackStore } from '../store/playback';
import { useSimulationStore } from '../store/simulation';

interface Flying {
  id: number;
  kind: MessageKind;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  durationS: number;
  /** Wall-clock time (performance.now) the dot lands. */
  landsAtMs: number;
}

/** Never more dots in flight than this, whatever the speed. */
const MAX_FLYING = 60;

/** Wall-clock seconds a dot takes: slower at 1× so it can be followed, quicker when the run is fast. */
const flightSeconds = (speed: number) => Math.min(0.9, Math.max(0.22, 0.7 / Math.pow(speed, 0.25)));

const Dot = memo(function Dot({ m }: { m: Flying }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.animate !== 'function') return;
    // The ack's diamond is a square turned by its class; the animation's transform keeps the turn.
    const turn = m.kind === 'ack' ? ' rotate(45deg)' : '';
    const animation = animate(
      el,
      {
        transform: [`translate(${m.x1}px, ${m.y1}px)${turn}`, `translate(${m.x2}px, ${m.y2}px)${turn}`],
        opacity: [0.3, 1],
      },
      { duration: m.durationS, ease: 'easeInOut' },
    );
    // framer-motion leaves the last keyframe on the element: a landed dot is hidden until it is dropped.
    void animation.then(() => {
      el.style.opacity = '0';
    });
    return () => animation.cancel();
  }, [m]);
  return <div ref={ref} className={`message message--${m.kind}`} />;
});

export const Messages = memo(function Messages({ layout }: { layout: Layout }) {
  const reduced = useReducedMotion();
  const [flying, setFlying] = useState<Flying[]>([]);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const nextId = useRef(1);

  useEffect(() => {
    if (reduced) return;
    return useSimulationStore.subscribe((state, previous) => {
      const next = state.snapshot;
      const prev = previous.snapshot;
      if (!next || !prev || next === prev || state.run !== previous.run) return;
      const { speed, playing } = usePlaybackStore.getState();
      if (!playing && next.timeMs === prev.timeMs) return;
      const boxes = layoutRef.current.byKey;
      const durationS = flightSeconds(speed);
      const fresh: Flying[] = [];
      for (const m of inferMessages(prev, next, messageBudget(speed))) {
        const a = boxes.get(m.from);
        const b = boxes.get(m.to);
        if (!a || !b) continue;
        fresh.push({
          id: nextId.current++,
          kind: m.kind,
          x1: a.absX + a.width / 2,
          y1: a.absY + a.height / 2,
          x2: b.absX + b.width / 2,
          y2: b.absY + b.height / 2,
          durationS,
          landsAtMs: performance.now() + durationS * 1000,
        });
      }
      if (fresh.length)
        setFlying((current) => {
          const now = performance.now();
          return current
            .filter((m) => m.landsAtMs > now)
            .concat(fresh)
            .slice(-MAX_FLYING);
        });
    });
  }, [reduced]);

  // The last dots to land are dropped once they have (earlier ones go with the next batch).
  useEffect(() => {
    if (flying.length === 0) return;
    const landsAtMs = Math.max(...flying.map((m) => m.landsAtMs));
    const timer = setTimeout(() => setFlying([]), Math.max(0, landsAtMs - performance.now()) + 50);
    return () => clearTimeout(timer);
  }, [flying]);

  if (reduced || flying.length === 0) return null;
  return (
    <ViewportPortal>
      <div className="messages" aria-hidden="true">
        {flying.map((m) => (
          <Dot key={m.id} m={m} />
        ))}
      </div>
    </ViewportPortal>
  );
});
