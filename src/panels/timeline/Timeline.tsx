// The scrubber under the canvas: the run so far with markers at crashes, cuts, elections, fencing
// and data loss; seek anywhere, step one event back or forward (and read which one), and switch
// between branches. Markers have a glyph each; those that would cover each other become a cluster.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatSimTime } from '../../store/selectors';
import { usePlaybackStore } from '../../store/playback';
import { useSimulationStore } from '../../store/simulation';
import {
  seek,
  stepEvent,
  switchBranch,
  useTimelineStore,
  type SteppedTo,
  type TimelineMarker,
} from '../../store/timeline';
import { clusterMarkers, type MarkerCluster } from './markerClusters';
import './timeline.css';

type Kind = TimelineMarker['kind'];

/**
 * Each kind's name and glyph (its shape, so colour is never the only difference), most serious
 * first: a cluster shows the glyph of its most serious member. U+FE0E asks for the text form, not an emoji.
 */
const KINDS: Record<Kind, { name: string; glyph: string }> = {
  loss: { name: 'Data loss', glyph: '!' },
  crash: { name: 'Crash', glyph: '\u2715\uFE0E' },
  offline: { name: 'Offline', glyph: '\u25BC\uFE0E' },
  fencing: { name: 'Fencing', glyph: '\u2298\uFE0E' },
  cut: { name: 'Network', glyph: '\u2702\uFE0E' },
  action: { name: 'Your action', glyph: '\u25C6\uFE0E' },
  election: { name: 'Election', glyph: '\u2605\uFE0E' },
};
const SEVERITY = Object.keys(KINDS) as Kind[];

/** Markers closer than this (px) to a cluster's first member join it; timeline.css sets --marker-spacing. */
const DEFAULT_MARKER_SPACING_PX = 42;

function pauseThen(run: () => void): void {
  if (usePlaybackStore.getState().playing) usePlaybackStore.getState().pause();
  run();
}

const markerLabel = (m: TimelineMarker) => `${KINDS[m.kind].name} at ${formatSimTime(m.timeMs)}: ${m.label}`;

function clusterLabel(c: MarkerCluster<TimelineMarker>): string {
  const counts = new Map<Kind, number>();
  for (const m of c.members) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  const kinds = SEVERITY.filter((k) => counts.has(k))
    .map((k) => (counts.get(k) === 1 ? KINDS[k].name : `${counts.get(k)} × ${KINDS[k].name}`))
    .join(', ');
  const when =
    c.atMs === c.untilMs
      ? `at ${formatSimTime(c.atMs)}`
      : `from ${formatSimTime(c.atMs)} to ${formatSimTime(c.untilMs)}`;
  return `${c.members.length} markers ${when}: ${kinds}`;
}

const severest = (members: TimelineMarker[]): Kind =>
  SEVERITY.find((k) => members.some((m) => m.kind === k)) ?? 'action';

/** Virtual time to the millisecond, for naming the event a step landed on. */
const exactTime = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/** What the status line says about a step. */
function describeStep(s: SteppedTo): {
  head: string;
  event?: { type: string; message: string };
  more?: string;
} {
  const verb = s.direction === 'forward' ? 'Stepped forward' : 'Stepped back';
  const [first, ...rest] = s.events;
  if (!first)
    return {
      head:
        s.direction === 'forward'
          ? `No event in the next minute: moved to ${exactTime(s.timeMs)}.`
          : 'No earlier event: at the start.',
    };
  const more = s.count - 1;
  if (more === 0) return { head: `${verb} to ${exactTime(s.timeMs)}:`, event: first };
  const types = new Map<string, number>();
  for (const e of rest) types.set(e.type, (types.get(e.type) ?? 0) + 1);
  const listed = [...types].map(([type, n]) => (n === 1 ? type : `${type} × ${n}`)).join(', ');
  const unlisted = s.count - s.events.length;
  return {
    head: `${verb} to ${exactTime(s.timeMs)}:`,
    event: first,
    more: `and ${more} more at this time (${listed}${unlisted > 0 ? `, ${unlisted} others` : ''}).`,
  };
}

/** The line naming the event the last ‹ Event / Event › landed on, while the clock stands there. */
function StepStatus({ nowMs }: { nowMs: number }) {
  const stepped = useTimelineStore((s) => s.stepped);
  const shown = stepped && stepped.timeMs === nowMs ? describeStep(stepped) : null;
  // Always in the page, so that screen readers hear each new text (a live region must exist first).
  return (
    <p className="timeline-step" role="status" aria-label="Event stepped to">
      {shown && (
        <>
          {shown.head}{' '}
          {shown.event && (
            <>
              <strong>{shown.event.type}</strong>: {shown.event.message}
            </>
          )}{' '}
          {shown.more}
        </>
      )}
    </p>
  );
}

/** The lane's width and its --marker-spacing in px, followed as the page resizes. */
function useLaneGeometry(ref: React.RefObject<HTMLElement | null>): { widthPx: number; spacingPx: number } {
  const [geometry, setGeometry] = useState({ widthPx: 0, spacingPx: DEFAULT_MARKER_SPACING_PX });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const spacing = Number(getComputedStyle(el).getPropertyValue('--marker-spacing'));
      const next = { widthPx: el.clientWidth, spacingPx: spacing > 0 ? spacing : DEFAULT_MARKER_SPACING_PX };
      setGeometry((g) => (g.widthPx === next.widthPx && g.spacingPx === next.spacingPx ? g : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return geometry;
}

function MarkerButton({ marker, onSeek }: { marker: TimelineMarker; onSeek: (ms: number) => void }) {
  const label = markerLabel(marker);
  return (
    <button type="button" title={label} aria-label={label} onClick={() => onSeek(marker.timeMs)}>
      <span aria-hidden="true">{KINDS[marker.kind].glyph}</span>
    </button>
  );
}

/** A cluster's button and, when open, the list of its members, each a button that seeks there. */
function ClusterMarker({
  cluster,
  open,
  onToggle,
  onSeek,
  alignRight,
}: {
  cluster: MarkerCluster<TimelineMarker>;
  open: boolean;
  onToggle: (open: boolean) => void;
  onSeek: (ms: number) => void;
  alignRight: boolean;
}) {
  const toggle = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const label = clusterLabel(cluster);
  const id = `markers-${cluster.atMs}`;
  const count = cluster.members.length;

  // The latest onToggle, so that the effect below runs only when the list opens or closes.
  const toggleRef = useRef(onToggle);
  toggleRef.current = onToggle;
  const inside = (target: EventTarget | null) =>
    target instanceof Node && (list.current?.contains(target) || toggle.current?.contains(target));

  useEffect(() => {
    if (!open) return;
    list.current?.querySelector('button')?.focus();
    const outside = (event: PointerEvent) => {
      if (!inside(event.target)) toggleRef.current(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    onToggle(false);
    toggle.current?.focus();
  };

  /** Up and down move between the members; Escape closes and returns to the cluster. */
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...(list.current?.querySelectorAll('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = event.key === 'ArrowDown' ? Math.min(at + 1, buttons.length - 1) : Math.max(at - 1, 0);
    buttons[next]?.focus();
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="cluster"
        title={label}
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => onToggle(!open)}
      >
        <span aria-hidden="true" className="cluster-glyph">
          {KINDS[severest(cluster.members)].glyph}
        </span>
        <span aria-hidden="true" className="cluster-count">
          {count > 99 ? '99+' : count}
        </span>
      </button>
      {open && (
        <div
          ref={list}
          id={id}
          className={`marker-list${alignRight ? ' align-right' : ''}`}
          role="group"
          aria-label={label}
          onKeyDown={onKeyDown}
          onBlur={(event) => {
            if (!inside(event.relatedTarget)) onToggle(false);
          }}
        >
          <ul>
            {cluster.members.map((m, i) => (
              <li key={`${m.timeMs}-${m.type}-${i}`} className={`marker-${m.kind}`}>
                <button
                  type="button"
                  onClick={() => {
                    onSeek(m.timeMs);
                    close();
                  }}
                >
                  <span aria-hidden="true" className="marker-list-glyph">
                    {KINDS[m.kind].glyph}
                  </span>
                  <span>{markerLabel(m)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

export function Timeline() {
  const info = useTimelineStore((s) => s.info);
  const nowMs = useSimulationStore((s) => s.snapshot?.timeMs ?? 0);
  const endMs = Math.max(info?.endMs ?? 0, nowMs, 1);
  const lane = useRef<HTMLOListElement>(null);
  const { widthPx, spacingPx } = useLaneGeometry(lane);
  const clusters = useMemo(
    () => clusterMarkers(info?.markers ?? [], endMs, widthPx, spacingPx),
    [info, endMs, widthPx, spacingPx],
  );
  const [openAtMs, setOpenAtMs] = useState<number | null>(null);
  const branches = info?.branches ?? [];
  const onSeek = (ms: number) => pauseThen(() => seek(ms));

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-row">
        <button type="button" onClick={() => pauseThen(() => seek(0))} aria-label="Rewind to the start">
          Start
        </button>
        <button
          type="button"
          onClick={() => pauseThen(() => stepEvent('back'))}
          aria-label="Step back one event"
        >
          ‹ Event
        </button>
        <div className="timeline-track">
          <ol className="timeline-markers" aria-label="Markers" ref={lane}>
            {clusters.map((c) => (
              <li
                key={c.atMs}
                className={`timeline-marker marker-${c.members.length === 1 ? c.members[0].kind : severest(c.members)}`}
                style={{ left: `${(c.atMs / endMs) * 100}%` }}
              >
                {c.members.length === 1 ? (
                  <MarkerButton marker={c.members[0]} onSeek={onSeek} />
                ) : (
                  <ClusterMarker
                    cluster={c}
                    open={openAtMs === c.atMs}
                    onToggle={(open) => setOpenAtMs(open ? c.atMs : null)}
                    onSeek={onSeek}
                    alignRight={c.atMs / endMs > 0.5}
                  />
                )}
              </li>
            ))}
          </ol>
          <input
            type="range"
            min={0}
            // On the slider's own 100 ms grid: a value off the grid is snapped by the browser
            // behind React's back, and the next input at the end of the branch was lost.
            max={Math.ceil(endMs / 100) * 100}
            step={100}
            value={Math.min(Math.round(nowMs / 100) * 100, Math.ceil(endMs / 100) * 100)}
            aria-label="Seek simulated time"
            aria-valuetext={formatSimTime(nowMs)}
            onChange={(event) => pauseThen(() => seek(Number(event.target.value)))}
          />
        </div>
        <button
          type="button"
          onClick={() => pauseThen(() => stepEvent('forward'))}
          aria-label="Step forward one event"
        >
          Event ›
        </button>
        <button
          type="button"
          onClick={() => pauseThen(() => seek(endMs))}
          aria-label="Go to the end of the branch"
        >
          End
        </button>
        <output className="timeline-time" aria-label="Position">
          {formatSimTime(nowMs)} / {formatSimTime(endMs)}
        </output>
      </div>
      <StepStatus nowMs={nowMs} />
      {branches.length > 1 && (
        <ul className="timeline-branches" aria-label="Branches">
          {branches.map((b) => (
            <li key={b.id}>
              <button
                type="button"
                aria-pressed={b.id === info?.currentBranchId}
                onClick={() => pauseThen(() => switchBranch(b.id))}
              >
                {b.label} · to {formatSimTime(b.endMs)} · {b.actionCount} action
                {b.actionCount === 1 ? '' : 's'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
