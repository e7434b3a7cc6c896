// A small line chart drawn as inline SVG: one polyline per series, dashed differently so that the
// series differ by more than colour, with the axes' values written out as text beside it.
import { memo } from 'react';
import type { ChartView } from '../../store/vitals';

const WIDTH = 300;
const HEIGHT = 64;
const COLOURS = [
  'var(--accent, #1f5fbf)',
  'var(--outofsync, #c2410c)',
  'var(--insync, #15803d)',
  'var(--elr, #7c3aed)',
];

/** The polyline points of one series; a null value breaks the line. */
function segments(values: readonly (number | null)[], max: number): string[] {
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  const out: string[] = [];
  let current: string[] = [];
  values.forEach((value, i) => {
    if (value === null) {
      if (current.length) out.push(current.join(' '));
      current = [];
      return;
    }
    const x = values.length > 1 ? i * step : WIDTH;
    const y = HEIGHT - (value / max) * (HEIGHT - 2) - 1;
    current.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  });
  if (current.length) out.push(current.join(' '));
  return out;
}

export const Sparkline = memo(function Sparkline({ chart }: { chart: ChartView }) {
  const spanS = Math.round((chart.toMs - chart.fromMs) / 1000);
  const titleId = `vital-${chart.id}-title`;
  return (
    <figure className="vital-chart" aria-labelledby={titleId}>
      <figcaption>
        <span id={titleId} className="vital-title">
          {chart.title}
        </span>{' '}
        <span className="hint">({chart.unit})</span>
      </figcaption>
      <p className="visually-hidden">{chart.summary}</p>
      <div className="vital-plot" aria-hidden="true">
        <span className="vital-y vital-y-max">{chart.maxLabel}</span>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="vital-svg">
          <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="vital-axis" />
          {chart.series.map((series, i) =>
            segments(series.values, chart.max).map((points, j) =>
              points.includes(' ') ? (
                <polyline
                  key={`${i}-${j}`}
                  points={points}
                  fill="none"
                  stroke={COLOURS[i % COLOURS.length]}
                  strokeWidth={1.5}
                  strokeDasharray={series.dash || undefined}
                  vectorEffect="non-scaling-stroke"
                />
              ) : (
                <circle
                  key={`${i}-${j}`}
                  cx={Number(points.split(',')[0])}
                  cy={Number(points.split(',')[1])}
                  r={1.5}
                  fill={COLOURS[i % COLOURS.length]}
                />
              ),
            ),
          )}
        </svg>
        <span className="vital-y vital-y-min">0</span>
        <span className="vital-x">
          <span>{spanS > 0 ? `−${spanS} s` : ''}</span>
          <span>now ({Math.round(chart.toMs / 1000)} s simulated)</span>
        </span>
      </div>
      {chart.series.length > 1 && (
        <ul className="vital-legend" aria-hidden="true">
          {chart.series.map((series, i) => (
            <li key={series.label}>
              <svg width="24" height="8" viewBox="0 0 24 8">
                <line
                  x1={0}
                  y1={4}
                  x2={24}
                  y2={4}
                  stroke={COLOURS[i % COLOURS.length]}
                  strokeWidth={2}
                  strokeDasharray={series.dash || undefined}
                />
              </svg>
              {series.label}
            </li>
          ))}
        </ul>
      )}
      {chart.series.length === 0 && (
        <p className="hint">{chart.emptyText ?? 'No records acknowledged in this window.'}</p>
      )}
    </figure>
  );
});
