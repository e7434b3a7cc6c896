// Animated messages: dots that travel between cards for what the last snapshot diff implies
// (produce, replication fetch, ack, metadata, broker heartbeats, votes). Their pace follows the
// speed control and they thin out as it rises; with reduced motion, none are drawn.
import { ViewportPortal } from '@xyflow/react';
import { motion, useReducedMotion } from 'framer-motion';
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
}

/** Never more dots in flight than this, whatever the speed. */
const MAX_FLYING = 60;

/** Wall-clock seconds a dot takes: slower at 1× so it can be followed, quicker when the run is fast. */
const flightSeconds = (speed: number) => Math.min(0.9, Math.max(0.22, 0.7 / Math.pow(speed, 0.25)));

const Dot = memo(function Dot({ m, onDone }: { m: Flying; onDone: (id: number) => void }) {
  return (
    <motion.div
      className={`message message--${m.kind}`}
      initial={{ x: m.x1, y: m.y1, opacity: 0.3 }}
      animate={{ x: m.x2, y: m.y2, opacity: 1 }}
      transition={{ duration: m.durationS, ease: 'easeInOut' }}
      onAnimationComplete={() => onDone(m.id)}
    />
  );
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
        });
      }
      if (fresh.length) setFlying((current) => current.concat(fresh).slice(-MAX_FLYING));
    });
  }, [reduced]);

  const done = useRef((id: number) => setFlying((current) => current.filter((m) => m.id !== id))).current;
  if (reduced || flying.length === 0) return null;
  return (
    <ViewportPortal>
      <div className="messages" aria-hidden="true">
        {flying.map((m) => (
          <Dot key={m.id} m={m} onDone={done} />
        ))}
      </div>
    </ViewportPortal>
  );
});
