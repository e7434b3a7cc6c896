// The partition matrix of the Dashboard: on a cluster of thousands of partitions, every partition
// is a cell, one row of cells a topic, the worst topics first. A cell's shape says its state (■
// healthy, ◩ under-replicated, ▲ under min ISR, ✕ offline), not its colour alone; each row names
// its topic and its problems in words, and its name filters the table below to that topic.
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  CELL_STATES,
  CELL_WORDS,
  topicSummary,
  type CellState,
  type MatrixTopic,
  type PartitionMatrix as Matrix,
} from '../store/panels';

/** A cell's pitch in CSS pixels (6 px drawn, 1 px apart). */
const PITCH = 7;
const CELL = 6;

const GLYPH: Record<CellState, string> = {
  healthy: '■',
  underReplicated: '◩',
  underMinIsr: '▲',
  offline: '✕',
};

interface Colours {
  healthy: string;
  underReplicated: string;
  underMinIsr: string;
  offline: string;
}

/** The colours read last, and the theme they were read for. */
let colourCache: { theme: string; colours: Colours } | null = null;

/**
 * The cells' colours, read from the page's CSS variables once per theme: getComputedStyle makes the
 * browser bring the whole page's style up to date first, which over the large preset's canvas
 * (6,000 replica chips) cost some 30 ms a call when every row read them at every redraw.
 */
function readColours(): Colours {
  const root = document.documentElement;
  const theme = `${root.dataset.theme ?? 'system'}:${matchMedia('(prefers-color-scheme: dark)').matches}`;
  if (colourCache?.theme === theme) return colourCache.colours;
  const css = getComputedStyle(root);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const colours = {
    healthy: v('--matrix-healthy', '#9ca3af'),
    underReplicated: v('--outofsync', '#c2410c'),
    underMinIsr: v('--offline', '#b91c1c'),
    offline: v('--text', '#111827'),
  };
  colourCache = { theme, colours };
  return colours;
}

/** Draws one cell: its shape by state. */
function drawCell(g: CanvasRenderingContext2D, x: number, y: number, state: CellState, c: Colours) {
  g.fillStyle = c[state];
  g.strokeStyle = c[state];
  switch (state) {
    case 'healthy':
      g.fillRect(x + 1, y + 1, CELL - 2, CELL - 2);
      return;
    case 'underReplicated':
      // ◩: an outlined square, half filled.
      g.lineWidth = 1;
      g.strokeRect(x + 0.5, y + 0.5, CELL - 1, CELL - 1);
      g.beginPath();
      g.moveTo(x, y);
      g.lineTo(x + CELL, y);
      g.lineTo(x, y + CELL);
      g.closePath();
      g.fill();
      return;
    case 'underMinIsr':
      g.beginPath();
      g.moveTo(x + CELL / 2, y);
      g.lineTo(x + CELL, y + CELL);
      g.lineTo(x, y + CELL);
      g.closePath();
      g.fill();
      return;
    case 'offline':
      g.lineWidth = 1.5;
      g.beginPath();
      g.moveTo(x, y);
      g.lineTo(x + CELL, y + CELL);
      g.moveTo(x + CELL, y);
      g.lineTo(x, y + CELL);
      g.stroke();
      return;
  }
}

const TopicRow = memo(function TopicRow({
  topic,
  columns,
  onTopic,
  onPartition,
}: {
  topic: MatrixTopic;
  columns: number;
  onTopic: (topic: string) => void;
  onPartition: (key: string) => void;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const rows = Math.max(1, Math.ceil(topic.cells.length / columns));
  const width = Math.min(topic.cells.length, columns) * PITCH;
  const height = rows * PITCH;
  useLayoutEffect(() => {
    const canvas = ref.current;
    const g = canvas?.getContext('2d');
    if (!canvas || !g) return;
    const scale = window.devicePixelRatio || 1;
    canvas.width = Math.ceil(width * scale);
    canvas.height = Math.ceil(height * scale);
    g.setTransform(scale, 0, 0, scale, 0, 0);
    g.clearRect(0, 0, width, height);
    const colours = readColours();
    topic.cells.forEach((state, i) =>
      drawCell(g, (i % columns) * PITCH, Math.floor(i / columns) * PITCH, state, colours),
    );
  }, [topic, columns, width, height]);
  const cellAt = (event: React.MouseEvent<HTMLCanvasElement>) => {
    const r = event.currentTarget.getBoundingClientRect();
    const i =
      Math.floor((event.clientY - r.top) / PITCH) * columns + Math.floor((event.clientX - r.left) / PITCH);
    return i >= 0 && i < topic.cells.length ? i : -1;
  };
  const problems = CELL_STATES.filter((s) => s !== 'healthy' && topic.counts[s] > 0);
  return (
    <li className="matrix-row">
      <button
        type="button"
        className="link-button matrix-topic"
        onClick={() => onTopic(topic.topic)}
        title={`Show the partitions of ${topic.topic} in the table`}
      >
        <span className="visually-hidden">{topicSummary(topic)}</span>
        <span aria-hidden="true">
          {topic.topic}
          {problems.map((s) => (
            <span key={s} className={`matrix-count matrix-count--${s}`}>
              {' '}
              {GLYPH[s]}
              {topic.counts[s]}
            </span>
          ))}
        </span>
      </button>
      <canvas
        ref={ref}
        style={{ width, height }}
        aria-hidden="true"
        onMouseMove={(e) => {
          const i = cellAt(e);
          e.currentTarget.title =
            i < 0 ? '' : `${topic.topic}-${i}: ${CELL_WORDS[topic.cells[i]!]} (click to inspect)`;
        }}
        onClick={(e) => {
          const i = cellAt(e);
          if (i >= 0) onPartition(`${topic.topic}-${i}`);
        }}
      />
    </li>
  );
});

export function PartitionMatrix({
  matrix,
  onTopic,
  onPartition,
}: {
  matrix: Matrix;
  onTopic: (topic: string) => void;
  onPartition: (key: string) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // The columns follow the box's width, which a ResizeObserver reports after the browser's own
  // layout: reading clientWidth in an effect forced a layout of the whole page (40-65 ms over the
  // large preset's canvas). The rows are drawn once it is known (null until the first report).
  const [columns, setColumns] = useState<number | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver((entries) => {
      const width = entries[entries.length - 1]?.contentRect.width;
      if (width !== undefined) setColumns(Math.max(8, Math.floor(width / PITCH)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const c = matrix.counts;
  return (
    <section className="partition-matrix" aria-labelledby="matrix-title">
      <h3 id="matrix-title">Partition matrix</h3>
      <p role="status" aria-label="Partition matrix counts">
        {matrix.partitions.toLocaleString('en-US')} partitions: {GLYPH.offline} {c.offline} offline,{' '}
        {GLYPH.underMinIsr} {c.underMinIsr} under min ISR, {GLYPH.underReplicated} {c.underReplicated}{' '}
        under-replicated, {GLYPH.healthy} {c.healthy} healthy
      </p>
      <p className="hint">
        One cell a partition, a row a topic, the worst topics first. Point at a cell for its name; click it to
        inspect it, or a topic to list its partitions below.
      </p>
      <div className="matrix-scroll" ref={box} tabIndex={0} role="region" aria-label="Partitions by topic">
        <ul className="matrix-topics">
          {columns !== null &&
            matrix.topics.map((t) => (
              <TopicRow
                key={t.topic}
                topic={t}
                columns={columns}
                onTopic={onTopic}
                onPartition={onPartition}
              />
            ))}
        </ul>
      </div>
    </section>
  );
}
