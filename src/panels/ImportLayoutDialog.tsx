// Import a layout: paste a real cluster's kafka-topics.sh --describe output (and, optionally, the
// quorum status, the racks, or a reassignment plan), see what was understood and what was not,
// line by line, and open it as a new cluster. Bad input opens nothing: the running cluster stays.
// The dialog takes the side panels' place, so the cluster stays in view.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { importLayout, newSession, type ImportResult, type ReportLine } from '../scenario';
import { openSession } from '../store/timeline';
import { usePanelsUi } from './uiStore';

/** Report lines drawn at most (a pasted output can have thousands). */
const MAX_LISTED = 100;
/** Milliseconds after the last keystroke before the text is parsed. */
const PARSE_AFTER_MS = 250;

const GLYPH: Record<ReportLine['status'], string> = { understood: '✓', ignored: '–', problem: '✕' };

export const IMPORT_SOURCE = 'the imported layout';

export function ImportLayoutDialog() {
  const setOpen = usePanelsUi((s) => s.setImportOpen);
  const [text, setText] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  // Parsed once typing pauses: a pasted describe of thousands of partitions takes a moment.
  useEffect(() => {
    const timer = setTimeout(() => setResult(text.trim() ? importLayout(text) : null), PARSE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();

  useEffect(() => area.current?.focus(), []);
  const close = () => {
    setOpen(false);
    // Back to the button that opened the dialog.
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>('button[data-opens="import-layout"]')?.focus(),
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    close();
  };
  const problems = result?.report.filter((r) => r.status === 'problem').length ?? 0;
  const listed = result ? [...result.report].sort(byConcern).slice(0, MAX_LISTED) : [];

  return (
    <section
      className="import-dialog"
      role="dialog"
      aria-modal="false"
      aria-labelledby={`${id}-title`}
      onKeyDown={onKeyDown}
    >
      <h2 id={`${id}-title`}>Import a layout</h2>
      <p className="hint" id={`${id}-hint`}>
        Paste the output of <code>kafka-topics.sh --describe</code> (all topics) and, if you have them,{' '}
        <code>kafka-metadata-quorum.sh describe --status</code>, the racks (<code>4 zone-a</code> a line, or{' '}
        <code>kafka-broker-api-versions.sh</code>) or a reassignment plan JSON. Nothing changes until you
        press Open.
      </p>
      <label htmlFor={`${id}-text`}>Pasted tool output</label>
      <textarea
        id={`${id}-text`}
        ref={area}
        className="import-text"
        rows={10}
        wrap="off"
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="form-row">
        <button
          type="button"
          disabled={!result?.scenario}
          onClick={() => {
            if (!result?.scenario) return;
            openSession(newSession(result.scenario), IMPORT_SOURCE);
            close();
          }}
        >
          Open
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
      {result && (
        <div className="import-report">
          <p role="status" aria-label="What the import understood">
            {result.scenario
              ? `Ready: ${result.summary.brokers} brokers, ${result.summary.controllers} controllers, ${
                  result.summary.racks.length ? `racks ${result.summary.racks.join(', ')}, ` : 'no racks, '
                }${result.summary.topics} topics, ${result.summary.partitions.toLocaleString('en')} partitions${
                  result.summary.reassigning ? `, ${result.summary.reassigning} being reassigned` : ''
                }.`
              : `Cannot open: ${problems} problem${problems === 1 ? '' : 's'} (below). The running cluster is kept.`}
          </p>
          <ul className="import-lines" aria-label="Import report">
            {listed.map((r, i) => (
              <li key={i} className={`import-line import-line--${r.status}`}>
                <span aria-hidden="true">{GLYPH[r.status]} </span>
                {r.line > 0 ? `line ${r.line}, ` : ''}
                {r.status}: {r.message}
              </li>
            ))}
          </ul>
          {result.report.length > MAX_LISTED && (
            <p className="hint">
              The first {MAX_LISTED} of {result.report.length} report lines are listed, problems first.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** Problems first, then what was ignored, then what was understood; in line order within each. */
function byConcern(a: ReportLine, b: ReportLine): number {
  const rank = { problem: 0, ignored: 1, understood: 2 };
  return rank[a.status] - rank[b.status] || a.line - b.line;
}
