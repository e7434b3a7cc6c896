// The Messages tab: a space-time diagram of the messages between nodes and clients (one lane each,
// time flowing down, each message an arrow from its sender at its send time to its receiver at its
// arrival), as Maelstrom's messages.svg and ShiViz draw them, and below it each producer's sends
// coloured by outcome (Maelstrom's history). Windowed: the worker answers only the chosen window,
// sampled where dense, and only the arrows in view are drawn.
import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { requestClientHistory, requestMessages } from '../store/connection';
import {
  CATEGORY_STYLE,
  diagramLanes,
  laneLabel,
  MESSAGE_CATEGORIES,
  messageLabel,
  OUTCOME_MARK,
  samplingText,
  sendLabel,
  type ClientHistoryView,
  type Lane,
  type MessageCategory,
  type MessageDiagramView,
  type WireMessageView,
} from '../store/messageDiagram';
import { useSimulationStore } from '../store/simulation';
import { seek } from '../store/timeline';
import { usePolled } from './usePolled';
import './messages.css';

/** Wall-clock milliseconds between two requests at most, whatever the snapshot rate. */
const REFRESH_MS = 250;
/** The windows a learner can choose, in simulated seconds. */
const SPANS_S = [1, 2, 5, 10, 30, 60, 300];
/** Arrows the worker sends at most for one window (the rest sampled). */
const MAX_MESSAGES = 160;
const LANE_MIN_PX = 26;
const HEAD_PX = 8;
/** Pixels per simulated second for each window: a short one spreads out, a long one stays scrollable. */
const pxPerSecond = (spanS: number) => (spanS <= 2 ? 240 : spanS <= 10 ? 120 : spanS <= 60 ? 40 : 10);

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/** What the lanes depend on, as one string: it changes when a node's role or state or the clients change, not at each snapshot. */
function laneSource(s: ReturnType<typeof useSimulationStore.getState>): string {
  const snap = s.snapshot;
  if (!snap) return '';
  return [
    snap.nodes.map((n) => `${n.id}:${n.roles.join('+')}:${n.state}`).join(','),
    snap.clients.producers.map((p) => p.id).join(','),
    snap.clients.consumers.map((c) => c.id).join(','),
  ].join('\n');
}

type LaneNode = Parameters<typeof diagramLanes>[0][number];

function useLanes(view: MessageDiagramView | null): Lane[] {
  const source = useSimulationStore(laneSource);
  const addrs = view?.addrs;
  return useMemo(() => {
    const [nodes = '', producers = '', consumers = ''] = source.split('\n');
    const list = (text: string) => (text ? text.split(',') : []);
    return diagramLanes(
      list(nodes).map((n) => {
        const [id, roles, state] = n.split(':');
        return {
          id: Number(id),
          roles: roles!.split('+') as LaneNode['roles'],
          state: state as LaneNode['state'],
        };
      }),
      list(producers),
      list(consumers),
      addrs ?? [],
    );
  }, [source, addrs]);
}

function Legend() {
  return (
    <ul className="msg-legend" aria-label="Legend">
      {MESSAGE_CATEGORIES.map((c) => (
        <li key={c}>
          <svg width="26" height="8" aria-hidden="true">
            <line
              x1="1"
              y1="4"
              x2="25"
              y2="4"
              stroke={CATEGORY_STYLE[c].color}
              strokeDasharray={CATEGORY_STYLE[c].dash}
              strokeWidth="2"
            />
          </svg>
          {CATEGORY_STYLE[c].label}
        </li>
      ))}
      <li>
        <span className="msg-lost-glyph" aria-hidden="true">
          ✕
        </span>{' '}
        lost
      </li>
    </ul>
  );
}

function MessageBody({ m, lanes }: { m: WireMessageView | null; lanes: Lane[] }) {
  return (
    <section className="msg-body" aria-label="Message body" aria-live="polite">
      {m === null ? (
        <p className="msg-hint">
          Hover or focus a message to see its body; click it or press Enter to seek there.
        </p>
      ) : (
        <>
          <h4>
            {m.lost ? '✕ ' : ''}
            {m.kind}
          </h4>
          <dl>
            <dt>from</dt>
            <dd>{laneLabel(lanes, m.from)}</dd>
            <dt>to</dt>
            <dd>{laneLabel(lanes, m.to)}</dd>
            <dt>sent</dt>
            <dd>{seconds(m.sentMs)}</dd>
            <dt>{m.lost ? 'lost' : m.inFlight ? 'due' : 'arrived'}</dt>
            <dd>
              {seconds(m.atMs)}
              {m.lost ? ` (${m.lost})` : ''}
            </dd>
            {m.fields.map(([k, v]) => (
              <div key={k} className="msg-field">
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}

interface ArrowHandlers {
  show(m: WireMessageView): void;
  focus(m: WireMessageView): void;
  seek(m: WireMessageView): void;
}

interface ArrowProps {
  m: WireMessageView;
  label: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  active: boolean;
  tabbable: boolean;
  on: ArrowHandlers;
}

/** One message: its arrow (or its stub and ✕ when lost), a wider invisible line to point at. */
const Arrow = memo(
  function Arrow({ m, label, x1, y1, x2, y2, active, tabbable, on }: ArrowProps) {
    const style = CATEGORY_STYLE[m.category];
    return (
      <g
        id={`msg-${m.id}`}
        role="button"
        aria-label={label}
        tabIndex={tabbable ? 0 : -1}
        className={`msg${active ? ' msg--active' : ''}${m.lost ? ' msg--lost' : ''}`}
        onMouseEnter={() => on.show(m)}
        onFocus={() => on.focus(m)}
        onClick={() => on.seek(m)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            on.seek(m);
          }
        }}
      >
        <line x1={x1} y1={y1} x2={x2} y2={y2} className="msg-hit" />
        <line
          x1={x1}
          y1={y1}
          x2={x2}
          y2={y2}
          stroke={style.color}
          strokeDasharray={style.dash}
          className="msg-line"
          markerEnd={m.lost ? undefined : `url(#msg-arrow-${m.category.replace(' ', '-')})`}
        />
        {m.lost && (
          <text x={x2} y={y2 + 4} className="msg-lost-glyph" textAnchor="middle">
            ✕
          </text>
        )}
      </g>
    );
  },
  // A message answered again (a fresh object each time) is the same arrow unless it moved or changed.
  (a, b) =>
    a.m.id === b.m.id &&
    a.label === b.label &&
    a.x1 === b.x1 &&
    a.y1 === b.y1 &&
    a.x2 === b.x2 &&
    a.y2 === b.y2 &&
    a.active === b.active &&
    a.tabbable === b.tabbable &&
    a.on === b.on,
);

const Diagram = memo(function Diagram({
  view,
  lanes,
  spanS,
  follow,
  cuts,
}: {
  view: MessageDiagramView;
  lanes: Lane[];
  spanS: number;
  follow: boolean;
  /** Links cut now, as `from>to`. */
  cuts: ReadonlySet<string>;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewPx, setViewPx] = useState(320);
  const [widthPx, setWidthPx] = useState(400);
  const [shown, setShown] = useState<WireMessageView | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const focusWanted = useRef(false);
  const pps = pxPerSecond(spanS);
  const heightPx = Math.max(1, ((view.toMs - view.fromMs) / 1000) * pps) + 2 * HEAD_PX;
  const laneW = Math.max(LANE_MIN_PX, (widthPx - 8) / Math.max(1, lanes.length));
  const svgW = laneW * lanes.length;
  const x = useMemo(() => {
    const at = new Map(lanes.map((l, i) => [l.addr, (i + 0.5) * laneW]));
    return (a: number | string) => at.get(a) ?? 0;
  }, [lanes, laneW]);
  const y = (ms: number) => HEAD_PX + ((ms - view.fromMs) / 1000) * pps;
  // Arrows sit at absolute times in a group shifted by the window's start: as the window moves, only
  // the shift changes and the arrows already drawn stay as they are (Arrow is memoised).
  const yAbs = (ms: number) => HEAD_PX + (ms / 1000) * pps;
  const shiftPx = (view.fromMs / 1000) * pps;
  const handlers = useMemo<ArrowHandlers>(
    () => ({
      show: setShown,
      focus: (m) => {
        setShown(m);
        setActive(m.id);
      },
      seek: (m) => {
        setActive(m.id);
        seek(m.sentMs);
      },
    }),
    [],
  );

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => {
      setViewPx(el.clientHeight);
      setWidthPx(el.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Following the clock: the newest moment stays in view at the bottom.
  useEffect(() => {
    const el = scroller.current;
    if (follow && el) el.scrollTop = el.scrollHeight;
  }, [follow, view, heightPx]);

  // Only the arrows that cross the visible band (and a screen more) are drawn.
  const topMs = view.fromMs + ((scrollTop - viewPx - HEAD_PX) / pps) * 1000;
  const bottomMs = view.fromMs + ((scrollTop + 2 * viewPx) / pps) * 1000;
  const visible = view.messages.filter((m) => m.sentMs <= bottomMs && m.atMs >= topMs);
  const order = view.messages;

  useEffect(() => {
    if (!focusWanted.current || active === null) return;
    focusWanted.current = false;
    document.getElementById(`msg-${active}`)?.focus();
  });

  function moveTo(index: number) {
    const m = order[Math.max(0, Math.min(order.length - 1, index))];
    if (!m) return;
    setActive(m.id);
    setShown(m);
    focusWanted.current = true;
    const el = scroller.current;
    if (!el) return;
    const top = y(m.sentMs);
    if (top < el.scrollTop + 10 || top > el.scrollTop + el.clientHeight - 10)
      el.scrollTop = top - el.clientHeight / 2;
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = active === null ? -1 : order.findIndex((m) => m.id === active);
    const next =
      event.key === 'ArrowDown'
        ? index + 1
        : event.key === 'ArrowUp'
          ? index < 0
            ? order.length - 1
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? order.length - 1
              : null;
    if (next !== null) {
      event.preventDefault();
      moveTo(next);
    }
  }

  const tickEvery = spanS <= 2 ? 250 : spanS <= 10 ? 1000 : spanS <= 60 ? 5000 : 30_000;
  const ticks: number[] = [];
  for (let t = Math.ceil(view.fromMs / tickEvery) * tickEvery; t <= view.toMs; t += tickEvery) ticks.push(t);
  const cutFrom = (a: number | string) => [...cuts].filter((k) => k.startsWith(`${a}>`)).length > 0;
  const tabbable =
    active !== null && visible.some((m) => m.id === active) ? active : (visible.at(-1)?.id ?? null);

  return (
    <div className="msg-diagram-wrap">
      <div className="msg-lanes" ref={header} aria-hidden="true">
        <div className="msg-lanes-row" style={{ width: svgW }}>
          {lanes.map((l) => (
            <span
              key={String(l.addr)}
              className={`msg-lane-head msg-lane-head--${l.role}${l.down ? ' msg-lane-head--down' : ''}`}
              style={{ width: laneW }}
              title={`${l.label}${l.down ? ' (down)' : ''}${cutFrom(l.addr) ? ' (a link from it is cut)' : ''}`}
            >
              {l.down ? '✕ ' : cutFrom(l.addr) ? '✂ ' : ''}
              {l.short}
            </span>
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="msg-scroller"
        role="group"
        aria-label={`Message diagram, ${seconds(view.fromMs)} to ${seconds(view.toMs)}: one lane per node and client, time flowing down; arrows move between messages, Enter seeks the timeline to a message's send time`}
        tabIndex={tabbable === null ? 0 : -1}
        onKeyDown={onKeyDown}
        onScroll={(e) => {
          setScrollTop(e.currentTarget.scrollTop);
          if (header.current) header.current.scrollLeft = e.currentTarget.scrollLeft;
        }}
      >
        <svg width={svgW} height={heightPx} className="msg-svg">
          <defs>
            {MESSAGE_CATEGORIES.map((c) => (
              <marker
                key={c}
                id={`msg-arrow-${c.replace(' ', '-')}`}
                viewBox="0 0 8 8"
                refX="7"
                refY="4"
                markerWidth="6"
                markerHeight="6"
                orient="auto"
              >
                <path d="M0,0 L8,4 L0,8 z" fill={CATEGORY_STYLE[c].color} />
              </marker>
            ))}
          </defs>
          {ticks.map((t) => (
            <g key={t} aria-hidden="true">
              <line x1={0} x2={svgW} y1={y(t)} y2={y(t)} className="msg-tick" />
              <text x={2} y={y(t) - 2} className="msg-tick-label">
                {(t / 1000).toFixed(tickEvery < 1000 ? 2 : 0)} s
              </text>
            </g>
          ))}
          {view.nowMs >= view.fromMs && view.nowMs <= view.toMs && (
            <line
              x1={0}
              x2={svgW}
              y1={y(view.nowMs)}
              y2={y(view.nowMs)}
              className="msg-now"
              aria-hidden="true"
            />
          )}
          {lanes.map((l) => (
            <line
              key={String(l.addr)}
              x1={x(l.addr)}
              x2={x(l.addr)}
              y1={0}
              y2={heightPx}
              className={`msg-lane${l.down ? ' msg-lane--down' : ''}${cutFrom(l.addr) ? ' msg-lane--cut' : ''}`}
              aria-hidden="true"
            />
          ))}
          <g transform={`translate(0 ${-shiftPx})`}>
            {visible.map((m) => {
              const x1 = x(m.from);
              const y1 = yAbs(m.sentMs);
              // A message lost as it was sent goes a third of the way; one lost on the wire, to where it was.
              const lostAtSend = m.lost !== null && m.atMs === m.sentMs;
              const x2 = lostAtSend ? x1 + (x(m.to) - x1) / 3 : x(m.to);
              const y2 = lostAtSend ? y1 + 4 : Math.max(yAbs(m.atMs), y1 + 1);
              return (
                <Arrow
                  key={m.id}
                  m={m}
                  label={messageLabel(m, lanes)}
                  x1={x1}
                  y1={y1}
                  x2={x2}
                  y2={y2}
                  active={m.id === active}
                  tabbable={m.id === tabbable}
                  on={handlers}
                />
              );
            })}
          </g>
        </svg>
      </div>
      <MessageBody m={shown} lanes={lanes} />
    </div>
  );
});

const ClientHistory = memo(function ClientHistory({ history }: { history: ClientHistoryView | null }) {
  if (!history) return null;
  const span = Math.max(1, history.toMs - history.fromMs);
  const c = history.counts;
  return (
    <section className="msg-history" aria-labelledby="msg-history-title">
      <h3 id="msg-history-title">Client history</h3>
      <p className="msg-hint">
        Each record a producer sent in the window, by outcome: ✔ acknowledged, ✖ failed (the broker answered
        with an error: not written), ◌ indefinite (a request got no answer, so it may have been written: a
        timed-out write can still appear in the log), … pending.
      </p>
      <p role="status" aria-label="Client history counts">
        ✔ {c.acknowledged} acknowledged, ✖ {c.failed} failed, ◌ {c.indefinite} indefinite, … {c.pending}{' '}
        pending
        {history.omitted > 0 ? ` (the oldest ${history.omitted} acknowledged not drawn)` : ''}
        {history.failedDropped
          ? `; ${history.failedDropped} older failed send(s) are no longer kept (the simulator keeps each producer's newest) and are not counted`
          : ''}
      </p>
      {history.producers.length === 0 && (
        <p className="msg-hint">No producer sent a record in this window.</p>
      )}
      {history.producers.map((p) => {
        const landed = p.sends.filter((s) => s.outcome === 'indefinite' && s.landedOffset >= 0);
        return (
          <div key={p.producerId} className="msg-history-row">
            <div className="msg-history-name">{p.producerId}</div>
            <ul className="msg-history-track" aria-label={`Sends of ${p.producerId}`}>
              {p.sends.map((s) => {
                const mark = OUTCOME_MARK[s.outcome];
                return (
                  <li
                    key={s.recordId}
                    className={`msg-send msg-send--${s.outcome}`}
                    style={{ left: `${(100 * (s.sentMs - history.fromMs)) / span}%` }}
                    title={sendLabel(s)}
                  >
                    <span aria-hidden="true">{mark.glyph}</span>
                    <span className="visually-hidden">{sendLabel(s)}</span>
                  </li>
                );
              })}
            </ul>
            {landed.length > 0 && (
              <ul className="msg-landed">
                {landed.slice(-3).map((s) => (
                  <li key={s.recordId}>◌ {sendLabel(s)}</li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
});

/** The simulated time now, read when asked (the panel renders on answers, not on each snapshot). */
const simulatedNow = () => useSimulationStore.getState().snapshot?.timeMs ?? 0;

export function MessagesPanel() {
  const id = useId();
  const cutList = useSimulationStore(
    (s) => s.snapshot?.network.cuts.map((c) => `${c.from}>${c.to}`).join(',') ?? '',
  );
  const partitionList = useSimulationStore(
    (s) => s.snapshot?.partitions.map((p) => `${p.topic}-${p.partition}`).join(',') ?? '',
  );
  const [spanS, setSpanS] = useState(2);
  const [follow, setFollow] = useState(true);
  const [pinnedEndMs, setPinnedEndMs] = useState(0);
  const [kinds, setKinds] = useState<ReadonlySet<MessageCategory>>(() => new Set(MESSAGE_CATEGORIES));
  const [partition, setPartition] = useState('');

  const tp = partition === '' ? null : /^(.*)-(\d+)$/.exec(partition);
  // The window ends at the clock when following it: its ends are taken when asked, so the key (and
  // the panel) changes only with what the learner chose.
  const windowAt = () => {
    const endMs = follow ? simulatedNow() : pinnedEndMs;
    return { fromMs: Math.max(0, endMs - spanS * 1000), toMs: endMs };
  };
  const filters = {
    maxMessages: MAX_MESSAGES,
    ...(kinds.size < MESSAGE_CATEGORIES.length ? { categories: [...kinds] } : {}),
    ...(tp ? { topic: tp[1]!, partition: Number(tp[2]) } : {}),
  };
  const windowKey = `${spanS}:${follow ? 'follow' : pinnedEndMs}`;
  const view = usePolled(
    `${windowKey}:${JSON.stringify(filters)}`,
    () => requestMessages({ ...windowAt(), ...filters }),
    REFRESH_MS,
  );
  const history = usePolled(
    windowKey,
    () => {
      const w = windowAt();
      return requestClientHistory(w.fromMs, w.toMs);
    },
    REFRESH_MS,
  );
  const endMs = follow ? (view?.toMs ?? 0) : pinnedEndMs;
  const lanes = useLanes(view);
  const topicPartitions = useMemo(() => (partitionList ? partitionList.split(',') : []), [partitionList]);
  const cutKeys = useMemo(() => new Set(cutList ? cutList.split(',') : []), [cutList]);
  const cuts = [...cutKeys].map((k) => {
    const [from = '', to = ''] = k.split('>');
    const addr = (a: string) => (/^\d+$/.test(a) ? Number(a) : a);
    return { from: addr(from), to: addr(to) };
  });

  const toggle = (c: MessageCategory) =>
    setKinds((old) => {
      const next = new Set(old);
      if (next.has(c)) next.delete(c);
      else next.add(c);
      return next;
    });
  const pin = (ms: number) => {
    setFollow(false);
    setPinnedEndMs(Math.max(spanS * 1000, Math.min(simulatedNow(), ms)));
  };
  const lost = view?.messages.filter((m) => m.lost !== null).length ?? 0;
  const sampling = view ? samplingText(view.sampled) : '';

  return (
    <div className="messages-panel">
      <h2 className="visually-hidden">Messages</h2>
      <div className="msg-toolbar">
        <label htmlFor={`${id}-window`}>Window</label>
        <select id={`${id}-window`} value={spanS} onChange={(e) => setSpanS(Number(e.target.value))}>
          {SPANS_S.map((s) => (
            <option key={s} value={s}>
              last {s} s
            </option>
          ))}
        </select>
        <button
          type="button"
          aria-pressed={follow}
          onClick={() => (follow ? pin(simulatedNow()) : setFollow(true))}
          title="Keep the window at the simulated time, or hold it still to study it"
        >
          {follow ? '⏵ Following the clock' : '⏸ Held: follow the clock'}
        </button>
        <button
          type="button"
          onClick={() => pin(endMs - (spanS * 1000) / 2)}
          aria-label="Earlier (half a window)"
        >
          ◀ Earlier
        </button>
        <button
          type="button"
          onClick={() => pin(endMs + (spanS * 1000) / 2)}
          disabled={follow || endMs >= (view?.nowMs ?? 0)}
          aria-label="Later (half a window)"
        >
          Later ▶
        </button>
        <label htmlFor={`${id}-partition`}>Partition</label>
        <select id={`${id}-partition`} value={partition} onChange={(e) => setPartition(e.target.value)}>
          <option value="">all partitions</option>
          {topicPartitions.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="msg-kinds">
        <legend>Kinds of message</legend>
        {MESSAGE_CATEGORIES.map((c) => (
          <label key={c} className="checkbox">
            <input type="checkbox" checked={kinds.has(c)} onChange={() => toggle(c)} />
            {CATEGORY_STYLE[c].label}
          </label>
        ))}
      </fieldset>
      <p className="msg-summary" role="status" aria-label="Message diagram summary">
        {view
          ? `${view.messages.length} of ${view.matched} messages from ${seconds(view.fromMs)} to ${seconds(view.toMs)}, ${lost} lost.`
          : 'Loading the messages…'}{' '}
        {sampling}
        {view && view.oldestMs > view.fromMs
          ? ` The trail keeps messages from ${seconds(view.oldestMs)} on.`
          : ''}
      </p>
      {cuts.length > 0 && (
        <p className="msg-cuts">
          <span aria-hidden="true">✂ </span>Cut links now:{' '}
          {cuts.map((c) => `${laneLabel(lanes, c.from)} → ${laneLabel(lanes, c.to)}`).join(', ')}; messages on
          them are lost (✕).
        </p>
      )}
      {view && <Diagram view={view} lanes={lanes} spanS={spanS} follow={follow} cuts={cutKeys} />}
      <Legend />
      <ClientHistory history={history} />
    </div>
  );
}
