// The countdowns on the cards, as RaftScope draws its election timers: a ring around the node that
// fills as its clock runs towards the Kafka limit, and a small tag per clock with a ring of its own
// and the seconds as text. View models come from src/store/timers.ts; a card with no running clock
// draws nothing.
import { memo } from 'react';
import './timers.css';
import { nodeKey, producerKey } from '../store/canvas';
import { type Selection, useSelectionStore } from '../store/selection';
import { type SimulationState, useSimulationStore } from '../store/simulation';
import {
  cardTimers,
  selectTimers,
  timersSignature,
  type CardTimers,
  type Countdown,
  type TimerKind,
} from '../store/timers';

type Snapshot = NonNullable<SimulationState['snapshot']>;

// One computation per snapshot and selection, shared by every card.
let cached: {
  snapshot: Snapshot;
  selected: Selection | null;
  timers: ReturnType<typeof selectTimers>;
} | null = null;
function timersOf(snapshot: Snapshot, selected: Selection | null) {
  if (!cached || cached.snapshot !== snapshot || cached.selected !== selected)
    cached = { snapshot, selected, timers: selectTimers(snapshot, selected) };
  return cached.timers;
}

const NOTHING: CardTimers = { shown: [], more: 0 };

/** The card's countdowns; re-renders only when what it draws changes (at 0.1 s precision). */
function useCardTimers(card: string): CardTimers {
  const selected = useSelectionStore((s) => s.selected);
  // The signature is a string, so the store's equality check skips identical frames.
  useSimulationStore((s) =>
    s.snapshot ? timersSignature(cardTimers(timersOf(s.snapshot, selected), card)) : '',
  );
  const snapshot = useSimulationStore.getState().snapshot;
  return snapshot ? cardTimers(timersOf(snapshot, selected), card) : NOTHING;
}

/** A glyph per clock, so the kind reads without colour. */
const GLYPH: Record<TimerKind, string> = {
  heartbeat: '♥',
  quorumFetch: '⟲',
  replicaLag: '⇣',
  request: '⇢',
  delivery: '✉',
};

/** Which clocks are the node's own (drawn as the ring around the card). */
const OWN: ReadonlySet<TimerKind> = new Set(['heartbeat', 'quorumFetch', 'request', 'delivery']);

const urgency = (c: Countdown) => (c.expired ? 'expired' : c.fraction >= 0.75 ? 'near' : 'running');

/** A ring that fills clockwise from the top: the tag's dial. */
function Dial({ c }: { c: Countdown }) {
  const r = 6;
  const length = 2 * Math.PI * r;
  return (
    <svg className="timer-dial" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <circle className="timer-track" cx="8" cy="8" r={r} />
      <circle
        className="timer-fill"
        cx="8"
        cy="8"
        r={r}
        strokeDasharray={`${c.fraction * length} ${length}`}
        transform="rotate(-90 8 8)"
      />
    </svg>
  );
}

function Tag({ c }: { c: Countdown }) {
  const subject = c.kind === 'replicaLag' ? c.key.slice('lag:'.length) : null;
  return (
    <div className={`timer-tag timer--${urgency(c)} timer--${c.kind}`} role="timer" aria-label={c.label}>
      <Dial c={c} />
      <span className="timer-glyph" aria-hidden="true">
        {c.expired ? '✕' : GLYPH[c.kind]}
      </span>
      {subject && (
        <span className="timer-subject" aria-hidden="true">
          {subject}
        </span>
      )}
      <span className="timer-text" aria-hidden="true">
        {c.text}
      </span>
    </div>
  );
}

/** The ring around the whole card: it fills clockwise from the top left corner. */
function CardRing({ c }: { c: Countdown }) {
  return (
    <svg className={`timer-ring timer--${urgency(c)}`} aria-hidden="true">
      <rect className="timer-track" pathLength={100} />
      <rect className="timer-fill" pathLength={100} strokeDasharray={`${c.fraction * 100} 100`} />
    </svg>
  );
}

/** Every running countdown of one card (a node or a producer), drawn where it acts. */
const CardCountdowns = memo(function CardCountdowns({
  card,
  compact = false,
}: {
  card: string;
  compact?: boolean;
}) {
  const timers = useCardTimers(card);
  if (timers.shown.length === 0) return null;
  const own = timers.shown.find((c) => OWN.has(c.kind));
  // A compact card (a large cluster) is 150 px wide: one tag fits beside the count of the others.
  const shown = compact ? timers.shown.slice(0, 1) : timers.shown;
  const more = timers.more + timers.shown.length - shown.length;
  return (
    <>
      {own && <CardRing c={own} />}
      <div className="timers">
        {shown.map((c) => (
          <Tag key={c.key} c={c} />
        ))}
        {more > 0 && (
          <span className="timer-more">
            +{more}
            {compact ? '' : ' more'}
            <span className="visually-hidden"> {compact ? 'more ' : ''}countdowns running</span>
          </span>
        )}
      </div>
    </>
  );
});

/** A broker's or controller's countdowns: its heartbeat, its quorum fetch, its replicas' lag. */
export function NodeCountdowns({ id, compact }: { id: number; compact?: boolean }) {
  return <CardCountdowns card={nodeKey(id)} compact={compact} />;
}

/** A producer's countdowns: its oldest request and its oldest unacknowledged record. */
export function ProducerCountdowns({ id }: { id: string }) {
  return <CardCountdowns card={producerKey(id)} />;
}
